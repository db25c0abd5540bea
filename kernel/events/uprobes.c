/*
 * uprobes: a breakpoint on an instruction of a user program, as Linux's kernel/events/uprobes.c.
 *
 * A probe is a file and an offset in it (uprobe_register(inode, offset, consumer)), not an
 * address in one process: every process that maps that byte of the file hits it, those that
 * map it later included. Arming it puts an int3 over the instruction's first byte in each such
 * process, the way a debugger writes into a program's text: into the process's own copy of
 * the page (get_user_page_private, kernel/mm/memory.c, copies it first), so the file and the
 * processes that do not map it are unchanged. Where the int3s go:
 *	- at uprobe_register, into every process mapping the file now: Linux walks the file's
 *	  reverse map; Lucid, which has none, walks the processes (register_for_each_vma) and
 *	  looks in each area's vm_inode for the file;
 *	- at mmap and exec (uprobe_mmap, uprobe_exec), into the new areas;
 *	- at fork, nowhere: the area that got an int3 counts as having pages of its own, so
 *	  dup_mm copies its page tables and the child shares the page, int3 and all.
 * uprobe_unregister's last consumer puts the original byte back the same ways.
 *
 * A hit (uprobe_handle_trap, from the int3's trap in arch/x86_64/traps.c): the area at the
 * address gives the file and offset, hence the probe; each consumer's handler runs with the
 * program's registers (rip at the probed instruction); then the instruction must run, which
 * arch/x86_64/uprobes.c does by emulating it or by single-stepping a copy in a slot of the
 * process's execute-out-of-line page, "[uprobes]" in /proc/PID/maps, made at the first hit.
 * The step's #DB comes back here (handle_singlestep) to put the registers right.
 *
 * A uretprobe (a consumer with ret_handler): at the function's first instruction its return
 * address on the stack is replaced by the [uprobes] page's first byte, an int3 (the
 * trampoline), and the real one kept in a return_instance on the task; the function's ret
 * lands on the trampoline, whose trap runs the ret_handlers and goes on at the real address.
 *
 * Locks, outermost first: uprobes_mutex (register and unregister, one at a time, and fork's
 * copy of an address space, which must not see half a change), task_list_lock (finding the
 * processes), each mm's mmap_lock (its areas and page tables), uprobes_treelock (the list of
 * probes; a spin lock, as a hit looks a probe up with interrupts off). A hit holds no lock
 * while the consumers run: a probe's reference and its active count keep it and its consumers
 * there, and unregister waits for active to drop before a consumer may be freed.
 *
 * An SDT probe's semaphore (uprobe_register_refctr, Linux's reference counter): a short in
 * the same file's writable data, ref_ctr_offset bytes into the file, that the program reads to
 * know whether anyone is listening (a probe's costly arguments are worked out only then). Each
 * time a probe's int3 goes into a process, the short in that process's data goes up by one,
 * and down by one when the int3 comes out (Linux's update_ref_ctr, from uprobe_write_opcode):
 * so the count is the number of probes armed at that place. If the process has not mapped the
 * data yet (a library: ld.so maps text first), the increment waits on delayed_uprobe_list
 * until it does (uprobe_mmap), as Linux's delayed_ref_ctr_inc. Lucid has no shared writable
 * file mappings, so every writable area of the file is a private copy, the kind Linux counts in.
 *
 * A signal that comes while a step is under way (the task on its way back to ring 3 to run
 * the copy) is held back until the step is done, as Linux's uprobe_deny_signal: the way out
 * leaves it pending and clears TIF_SIGPENDING, the copy runs, and the step's #DB sets the flag
 * again, so the handler runs after the probed instruction, which ran once and the probe fired
 * once. A fatal signal, or a fault of the copy itself, gives the step up instead: the task
 * stands at the probed instruction again, where the signal finds it.
 *
 * What Lucid leaves out: a consumer's filter (every process that maps the file gets the
 * int3), and UPROBE_HANDLER_REMOVE.
 */
#include "kernel/events/uprobes.h"
#include "arch/x86_64/uprobes.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/uaccess.h"
#include "arch/x86_64/syscall.h" /* bad_user_return */
#include "kernel/mm/mm.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/mutex.h"
#include "kernel/signal.h"
#include "arch/x86_64/page_64.h"
#include "kernel/locking/lockdep.h"
#include "kernel/fs/vfs.h"
#include "kernel/syscalls.h" /* force_sig_fault */
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

#define XOL_SLOTS (PAGE_SIZE / UPROBE_XOL_SLOT_BYTES)
#define XOL_TRAMPOLINE_SLOT 0 /* the uretprobe trampoline: an int3 at the page's first byte */
#define MAX_URETPROBE_DEPTH 64 /* Linux's: deeper recursion runs without its uretprobes */

struct uprobe {
	struct list_head list; /* on uprobes_list, under uprobes_treelock */
	int ref; /* the list's, each hit's, each step's and each return_instance's */
	int active; /* hits running its consumers now: unregister waits for none */
	struct inode *inode; /* kept alive by whoever registered it */
	loff_t offset;
	loff_t ref_ctr_offset; /* the SDT semaphore's place in the file, 0 if none */
	struct uprobe_consumer *consumers; /* changed under uprobes_mutex, read by hits */
	bool prepared; /* arch is the decoded instruction (under uprobes_treelock) */
	int prepare_err;
	struct arch_uprobe arch;
};

/* A process's [uprobes] page: the trampoline, then a slot for each task stepping. */
struct xol_area {
	unsigned long vaddr; /* where the process sees it */
	uint8_t *page; /* the same page for the kernel's writes; the area holds a reference */
	unsigned long bitmap; /* slots in use */
};
_Static_assert(XOL_SLOTS <= sizeof(unsigned long) * 8, "xol_area.bitmap");

/* A pending uretprobe: the function entered, and where it really returns to. */
struct return_instance {
	struct uprobe *uprobe;
	unsigned long func;
	unsigned long orig_ret_vaddr;
	unsigned long stack; /* rsp at the entry: the frame it belongs to */
	bool chained; /* its return address was the trampoline already (a tail call) */
	struct return_instance *next;
};

enum uprobe_task_state { UTASK_RUNNING, UTASK_SSTEP };

struct uprobe_task {
	enum uprobe_task_state state;
	struct uprobe *active_uprobe; /* UTASK_SSTEP: the probe being stepped over */
	unsigned long vaddr; /* its address */
	unsigned long xol_vaddr; /* the slot */
	struct arch_uprobe_task autask;
	struct return_instance *return_instances; /* newest first */
	unsigned int depth;
	struct return_instance *ri_pool; /* one freed instance, kept for the next call */
	bool signal_denied; /* signals were held back until the step is done (uprobe_deny_signal) */
};

static LIST_HEAD(uprobes_list);
static DEFINE_SPINLOCK(uprobes_treelock);
static DEFINE_MUTEX(uprobes_mutex);
/* Address spaces fork has copied and not yet given to the child (mm->uprobes_dup). */
static LIST_HEAD(dup_mms);
static DEFINE_SPINLOCK(dup_mms_lock);

static void get_uprobe(struct uprobe *u)
{
	__atomic_add_fetch(&u->ref, 1, __ATOMIC_RELAXED);
}

static void delayed_uprobe_remove(struct uprobe *u, struct mm_struct *mm);

static void put_uprobe(struct uprobe *u)
{
	if (__atomic_sub_fetch(&u->ref, 1, __ATOMIC_ACQ_REL) == 0) {
		delayed_uprobe_remove(u, NULL);
		kfree(u);
	}
}

/* Does vma map inode's bytes, as private text a probe may go into (Linux's valid_vma)? */
static bool vma_maps(const struct vm_area_struct *vma, const struct inode *inode)
{
	return vma->vm_inode == inode && vma->vm_ino == inode->i_ino &&
	       (vma->vm_flags & (VM_EXEC | VM_WRITE | VM_MAYSHARE)) == VM_EXEC;
}

/* Where file offset lies in vma, or 0 if outside it. */
static unsigned long offset_to_vaddr(const struct vm_area_struct *vma, loff_t offset)
{
	unsigned long start = vma->vm_pgoff * PAGE_SIZE;

	if (offset < (loff_t)start || offset >= (loff_t)(start + vma->vm_end - vma->vm_start))
		return 0;
	return vma->vm_start + ((unsigned long)offset - start);
}

/* Under uprobes_treelock. */
static struct uprobe *find_uprobe(const struct inode *inode, unsigned long ino, loff_t offset)
{
	struct uprobe *u;

	list_for_each_entry(u, &uprobes_list, list)
	{
		if (u->inode == inode && u->inode->i_ino == ino && u->offset == offset)
			return u;
	}
	return NULL;
}

/*
 * A page an int3 made a copy of, in a process that may be running on another CPU: that CPU may
 * still read it through its TLB until it switches away, so it is kept until the address space
 * goes (uprobe_clear_state), not freed now (Linux would flush the other CPUs' TLBs instead).
 */
struct uprobe_kept_page {
	struct uprobe_kept_page *next;
	void *page;
};

/* The page at va of mm, made this process's own (get_user_page_private); mmap_lock held. */
static void *private_page(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long va)
{
	if (mm == current->mm) /* loaded on this CPU alone: the old page may go at once */
		return get_user_page_private(mm, vma, va, NULL);
	struct uprobe_kept_page *kept = kmalloc(sizeof(*kept));
	void *old = NULL;

	if (!kept)
		return NULL;
	void *page = get_user_page_private(mm, vma, va, &old);

	if (old) {
		*kept = (struct uprobe_kept_page){.next = mm->uprobes_kept, .page = old};
		mm->uprobes_kept = kept;
	} else {
		kfree(kept);
	}
	return page;
}

/*
 * Decodes the instruction at vaddr, which page (private now) holds, once for all processes: the
 * original bytes, since the first arming reads them before its int3 goes in.
 */
static int prepare_uprobe(struct uprobe *u, struct mm_struct *mm, struct vm_area_struct *vma,
			  unsigned long vaddr, const uint8_t *page)
{
	uint8_t bytes[MAX_UINSN_BYTES];
	size_t off = vaddr & (PAGE_SIZE - 1), n = MIN(MAX_UINSN_BYTES, PAGE_SIZE - off);
	unsigned long flags = spin_lock_irqsave(&uprobes_treelock);

	if (u->prepared) {
		spin_unlock_irqrestore(&uprobes_treelock, flags);
		return u->prepare_err;
	}
	memcpy(bytes, page + off, n);
	if (n < MAX_UINSN_BYTES && vaddr + n < vma->vm_end) {
		/* The instruction may go on into the next page. */
		const uint8_t *next = private_page(mm, vma, vaddr + n);

		if (next) {
			memcpy(bytes + n, next, MAX_UINSN_BYTES - n);
			n = MAX_UINSN_BYTES;
		}
	}
	u->prepare_err = arch_uprobe_analyze_insn(&u->arch, bytes, n);
	__atomic_store_n(&u->prepared, true, __ATOMIC_RELEASE); /* after arch: hits read it so */
	spin_unlock_irqrestore(&uprobes_treelock, flags);
	return u->prepare_err;
}

/* --- SDT semaphores ------------------------------------------------------------------------ */

/* An increment owed to mm, whose area with u's counter is not mapped yet (Linux's). */
struct delayed_uprobe {
	struct list_head list;
	struct uprobe *uprobe;
	struct mm_struct *mm;
};
static LIST_HEAD(delayed_uprobe_list);
static DEFINE_SPINLOCK(delayed_uprobe_lock);

/* Does vma hold u's counter: the file's bytes, writable (a private copy, see above)? */
static bool valid_ref_ctr_vma(const struct uprobe *u, const struct vm_area_struct *vma)
{
	return u->ref_ctr_offset && vma->vm_inode == u->inode && vma->vm_ino == u->inode->i_ino &&
	       (vma->vm_flags & (VM_WRITE | VM_SHARED)) == VM_WRITE &&
	       offset_to_vaddr(vma, u->ref_ctr_offset);
}

/* Adds d to the short at vaddr of vma (mmap_lock held): 0, -ENOMEM, or -EINVAL below 0. */
static int __update_ref_ctr(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long vaddr,
			    short d)
{
	uint8_t *page = private_page(mm, vma, vaddr);
	short *ctr;

	if (!page)
		return -ENOMEM;
	/* a short, 2-aligned (uprobe_register_refctr checks): never across a page's end */
	ctr = (short *)(page + (vaddr & (PAGE_SIZE - 1)));
	if (*ctr + d < 0) {
		pr_warn("ref_ctr going negative. vaddr: 0x%lx, curr val: %d, delta: %d\n", vaddr,
			*ctr, d);
		return -EINVAL;
	}
	*ctr = (short)(*ctr + d);
	return 0;
}

static int delayed_uprobe_add(struct uprobe *u, struct mm_struct *mm)
{
	struct delayed_uprobe *du = kmalloc(sizeof(*du));
	unsigned long flags;

	if (!du)
		return -ENOMEM;
	du->uprobe = u;
	du->mm = mm;
	flags = spin_lock_irqsave(&delayed_uprobe_lock);
	list_add(&du->list, &delayed_uprobe_list);
	spin_unlock_irqrestore(&delayed_uprobe_lock, flags);
	return 0;
}

/* The increments owed for u (NULL: any) to mm (NULL: any) are forgotten. */
static void delayed_uprobe_remove(struct uprobe *u, struct mm_struct *mm)
{
	struct delayed_uprobe *du, *tmp;
	unsigned long flags;

	if (list_empty(&delayed_uprobe_list))
		return;
	flags = spin_lock_irqsave(&delayed_uprobe_lock);
	list_for_each_entry_safe(du, tmp, &delayed_uprobe_list, list)
	{
		if ((u && du->uprobe != u) || (mm && du->mm != mm))
			continue;
		list_del(&du->list);
		kfree(du);
	}
	spin_unlock_irqrestore(&delayed_uprobe_lock, flags);
}

/*
 * u's int3 is going into (d = 1) or out of (d = -1) mm: its counter there follows, in the area
 * that holds it, or later (an increment owed until the area is mapped; a decrement of an
 * increment still owed cancels it). mmap_lock held. 0, or an error (the int3 must not move).
 */
static int update_ref_ctr(struct uprobe *u, struct mm_struct *mm, short d)
{
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, vm_list)
	{
		if (!valid_ref_ctr_vma(u, vma))
			continue;
		int err = __update_ref_ctr(mm, vma, offset_to_vaddr(vma, u->ref_ctr_offset), d);

		if (err)
			pr_warn("ref_ctr %s failed for inode: 0x%lx offset: 0x%lx ref_ctr_offset: "
				"0x%lx\n",
				d > 0 ? "increment" : "decrement", u->inode->i_ino,
				(unsigned long)u->offset, (unsigned long)u->ref_ctr_offset);
		if (d > 0 || err)
			return err;
		break; /* and forget an increment owed from before, if any */
	}
	if (d > 0)
		return delayed_uprobe_add(u, mm);
	delayed_uprobe_remove(u, mm);
	return 0;
}

/* vma is new in mm: the increments owed to mm for counters it holds are paid (mmap_lock held). */
static void delayed_ref_ctr_inc(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct delayed_uprobe *du, *tmp;
	unsigned long flags;

	if (list_empty(&delayed_uprobe_list) || !(vma->vm_flags & VM_WRITE))
		return;
	flags = spin_lock_irqsave(&delayed_uprobe_lock);
	list_for_each_entry_safe(du, tmp, &delayed_uprobe_list, list)
	{
		if (du->mm != mm || !valid_ref_ctr_vma(du->uprobe, vma))
			continue;
		__update_ref_ctr(mm, vma, offset_to_vaddr(vma, du->uprobe->ref_ctr_offset), 1);
		list_del(&du->list);
		kfree(du);
	}
	spin_unlock_irqrestore(&delayed_uprobe_lock, flags);
}

/* --- arming ----------------------------------------------------------------------------------- */

/*
 * Puts the int3 in at vaddr of mm (mmap_lock held); done already is fine (and counts nothing:
 * the counter follows the int3's coming and going, not the calls).
 */
static int install_breakpoint(struct uprobe *u, struct mm_struct *mm, struct vm_area_struct *vma,
			      unsigned long vaddr)
{
	uint8_t *page = private_page(mm, vma, vaddr);

	if (!page)
		return -ENOMEM;
	int err = prepare_uprobe(u, mm, vma, vaddr, page);

	if (err)
		return err;
	if (page[vaddr & (PAGE_SIZE - 1)] == UPROBE_SWBP_INSN)
		return 0;
	if (u->ref_ctr_offset) {
		err = update_ref_ctr(u, mm, 1);
		if (err)
			return err;
	}
	page[vaddr & (PAGE_SIZE - 1)] = UPROBE_SWBP_INSN;
	return 0;
}

/* Puts the original byte back at vaddr of mm, if the int3 is there (mmap_lock held). */
static void remove_breakpoint(struct uprobe *u, struct mm_struct *mm, unsigned long vaddr)
{
	uint8_t *page = mmu_user_page(mm->pgd, ALIGN_DOWN(vaddr, PAGE_SIZE), NULL);

	if (page && u->prepared && !u->prepare_err &&
	    page[vaddr & (PAGE_SIZE - 1)] == UPROBE_SWBP_INSN) {
		page[vaddr & (PAGE_SIZE - 1)] = u->arch.insn[0];
		if (u->ref_ctr_offset)
			update_ref_ctr(u, mm, -1);
	}
}

/* Every address space now: the tasks' and fork's copies in flight, each with a reference. */
static struct mm_struct **collect_mms(int *count)
{
	struct task *t;
	struct mm_struct *mm;
	int n = 0, cap = 16;
	unsigned long flags = spin_lock_irqsave(&task_list_lock);

	list_for_each_entry(t, &task_list, tasks) cap++;
	spin_unlock_irqrestore(&task_list_lock, flags);
	flags = spin_lock_irqsave(&dup_mms_lock);
	list_for_each_entry(mm, &dup_mms, uprobes_dup) cap++;
	spin_unlock_irqrestore(&dup_mms_lock, flags);
	/* Forks wait for uprobes_mutex: only an exec adds an mm now, and it arms its own. */
	struct mm_struct **mms = kmalloc((size_t)cap * sizeof(*mms));

	if (!mms)
		return NULL;
	flags = spin_lock_irqsave(&dup_mms_lock);
	list_for_each_entry(mm, &dup_mms, uprobes_dup)
	{
		if (n < cap) {
			mmget(mm);
			mms[n++] = mm;
		}
	}
	spin_unlock_irqrestore(&dup_mms_lock, flags);
	flags = spin_lock_irqsave(&task_list_lock);
	list_for_each_entry(t, &task_list, tasks)
	{
		bool seen = false;

		if (!t->mm || n == cap)
			continue;
		for (int i = 0; i < n && !seen; i++)
			seen = mms[i] == t->mm; /* a vfork child shares its parent's */
		if (!seen) {
			mmget(t->mm);
			mms[n++] = t->mm;
		}
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	*count = n;
	return mms;
}

/* Arms (or disarms) u in every process that maps its file; the first error stops arming. */
static int register_for_each_vma(struct uprobe *u, bool arm)
{
	int n = 0, err = 0;
	struct mm_struct **mms = collect_mms(&n);

	lockdep_assert_held(&uprobes_mutex);
	if (!mms)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		struct mm_struct *mm = mms[i];
		struct vm_area_struct *vma;
		unsigned long flags = spin_lock_irqsave(&mm->mmap_lock);

		list_for_each_entry(vma, &mm->mmap, vm_list)
		{
			unsigned long vaddr = offset_to_vaddr(vma, u->offset);

			if (!vaddr || !vma_maps(vma, u->inode))
				continue;
			if (!arm)
				remove_breakpoint(u, mm, vaddr);
			else if (!err)
				err = install_breakpoint(u, mm, vma, vaddr);
		}
		spin_unlock_irqrestore(&mm->mmap_lock, flags);
		mmput(mm);
	}
	kfree(mms);
	return err;
}

/*
 * Takes u, whose last consumer is gone, out of every process, then off the list. In that
 * order, as Linux's __uprobe_unregister: a hit that finds no probe must find the original byte
 * back already (and runs it), or it would take the int3 for the program's own (SIGTRAP); and
 * no mapping arms u meanwhile, as uprobe_mmap skips a probe without consumers.
 */
static void delete_uprobe(struct uprobe *u)
{
	register_for_each_vma(u, false);
	unsigned long flags = spin_lock_irqsave(&uprobes_treelock);

	list_del(&u->list);
	spin_unlock_irqrestore(&uprobes_treelock, flags);
}

/* Waits until no hit is running u's consumers: one taken off may then be freed. */
static void wait_for_handlers(struct uprobe *u)
{
	unsigned long flags = spin_lock_irqsave(&uprobes_treelock);

	spin_unlock_irqrestore(&uprobes_treelock, flags); /* hits that found it have counted */
	while (__atomic_load_n(&u->active, __ATOMIC_SEQ_CST))
		schedule(); /* a hit runs with interrupts off, on another CPU: it ends soon */
}

int uprobe_register(struct inode *inode, loff_t offset, struct uprobe_consumer *uc)
{
	return uprobe_register_refctr(inode, offset, 0, uc);
}

int uprobe_register_refctr(struct inode *inode, loff_t offset, loff_t ref_ctr_offset,
			   struct uprobe_consumer *uc)
{
	if (!inode || !uc || (!uc->handler && !uc->ret_handler))
		return -EINVAL;
	if (offset < 0 || offset >= inode->i_size)
		return -EINVAL; /* Linux: past the file's end */
	if (ref_ctr_offset < 0 || ref_ctr_offset % (loff_t)sizeof(short))
		return -EINVAL; /* Linux's: a short never straddles a page */
	mutex_lock(&uprobes_mutex);
	unsigned long flags = spin_lock_irqsave(&uprobes_treelock);
	struct uprobe *u = find_uprobe(inode, inode->i_ino, offset);

	if (u && u->ref_ctr_offset != ref_ctr_offset) {
		spin_unlock_irqrestore(&uprobes_treelock, flags);
		mutex_unlock(&uprobes_mutex);
		pr_warn("ref_ctr_offset mismatch. inode: 0x%lx offset: 0x%lx ref_ctr_offset(old): "
			"0x%lx ref_ctr_offset(new): 0x%lx\n",
			inode->i_ino, (unsigned long)offset, (unsigned long)u->ref_ctr_offset,
			(unsigned long)ref_ctr_offset);
		return -EINVAL;
	}
	if (!u) {
		u = kzalloc(sizeof(*u));
		if (!u) {
			spin_unlock_irqrestore(&uprobes_treelock, flags);
			mutex_unlock(&uprobes_mutex);
			return -ENOMEM;
		}
		u->ref = 1; /* the list's */
		u->inode = inode;
		u->offset = offset;
		u->ref_ctr_offset = ref_ctr_offset;
		list_add_tail(&u->list, &uprobes_list);
	}
	bool first = !u->consumers;

	uc->next = u->consumers;
	__atomic_store_n(&u->consumers, uc, __ATOMIC_RELEASE);
	spin_unlock_irqrestore(&uprobes_treelock, flags);
	int err = first ? register_for_each_vma(u, true) : 0;

	if (err) {
		/* Not armed after all: out of the processes it went into, and off the list. */
		flags = spin_lock_irqsave(&uprobes_treelock);
		__atomic_store_n(&u->consumers, NULL, __ATOMIC_SEQ_CST);
		spin_unlock_irqrestore(&uprobes_treelock, flags);
		delete_uprobe(u);
		wait_for_handlers(u);
		put_uprobe(u);
	}
	mutex_unlock(&uprobes_mutex);
	return err;
}

void uprobe_unregister(struct inode *inode, loff_t offset, struct uprobe_consumer *uc)
{
	mutex_lock(&uprobes_mutex);
	unsigned long flags = spin_lock_irqsave(&uprobes_treelock);
	struct uprobe *u = find_uprobe(inode, inode->i_ino, offset);
	struct uprobe_consumer **pp;

	if (!u) {
		spin_unlock_irqrestore(&uprobes_treelock, flags);
		mutex_unlock(&uprobes_mutex);
		return;
	}
	for (pp = &u->consumers; *pp; pp = &(*pp)->next) {
		if (*pp == uc) {
			__atomic_store_n(pp, uc->next, __ATOMIC_SEQ_CST);
			break;
		}
	}
	bool last = !u->consumers;

	spin_unlock_irqrestore(&uprobes_treelock, flags);
	if (last)
		delete_uprobe(u);
	wait_for_handlers(u);
	if (last)
		put_uprobe(u); /* the list's reference */
	mutex_unlock(&uprobes_mutex);
}

/* Arms in vma every probe on the file it maps (mmap_lock held). */
void uprobe_mmap(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct uprobe *found[8];
	bool more = true;

	lockdep_assert_held(&mm->mmap_lock);
	if (list_empty(&uprobes_list) || !vma->vm_inode)
		return;
	delayed_ref_ctr_inc(mm, vma);
	/* A few at a time, referenced, so none is armed under the list's lock (it allocates). */
	for (loff_t from = 0; more;) {
		int n = 0;
		unsigned long flags = spin_lock_irqsave(&uprobes_treelock);
		struct uprobe *u;

		more = false;
		list_for_each_entry(u, &uprobes_list, list)
		{
			if (u->offset < from || !u->consumers || !vma_maps(vma, u->inode) ||
			    !offset_to_vaddr(vma, u->offset))
				continue;
			if (n == (int)ARRAY_SIZE(found)) {
				more = true;
				break;
			}
			get_uprobe(u);
			found[n++] = u;
		}
		spin_unlock_irqrestore(&uprobes_treelock, flags);
		for (int i = 0; i < n; i++) {
			from = MAX(from, found[i]->offset + 1);
			(void)install_breakpoint(found[i], mm, vma,
						 offset_to_vaddr(vma, found[i]->offset));
			put_uprobe(found[i]);
		}
		if (!n)
			break;
	}
}

void uprobe_exec(struct mm_struct *mm)
{
	struct vm_area_struct *vma;

	if (list_empty(&uprobes_list))
		return;
	unsigned long flags = spin_lock_irqsave(&mm->mmap_lock);

	list_for_each_entry(vma, &mm->mmap, vm_list) uprobe_mmap(mm, vma);
	spin_unlock_irqrestore(&mm->mmap_lock, flags);
}

void uprobe_start_dup_mmap(void)
{
	mutex_lock(&uprobes_mutex);
}

void uprobe_end_dup_mmap(struct mm_struct *mm)
{
	if (mm) {
		unsigned long flags = spin_lock_irqsave(&dup_mms_lock);

		list_add(&mm->uprobes_dup, &dup_mms);
		spin_unlock_irqrestore(&dup_mms_lock, flags);
	}
	mutex_unlock(&uprobes_mutex);
}

void uprobe_forked(struct mm_struct *mm)
{
	if (!mm)
		return;
	unsigned long flags = spin_lock_irqsave(&dup_mms_lock);

	list_del_init(&mm->uprobes_dup);
	spin_unlock_irqrestore(&dup_mms_lock, flags);
}

/*
 * fork's copy of a process that has a [uprobes] page: the child's at the same address (the
 * return addresses its stack inherits may point at the trampoline), but a page of its own, as
 * its steps use the slots.
 */
int uprobe_dup_mmap(struct mm_struct *old, struct mm_struct *mm)
{
	struct xol_area *from = old->uprobes_xol;

	if (!from)
		return 0;
	struct xol_area *area = kmalloc(sizeof(*area));
	uint8_t *page = alloc_pages(1);

	if (!area || !page || !mmu_user_page(mm->pgd, from->vaddr, NULL)) {
		kfree(area);
		if (page)
			free_pages(page, 1);
		return area && page ? 0 : -ENOMEM; /* unmapped by the program: nothing to copy */
	}
	copy_page(page, from->page);
	get_page(page); /* the area's reference, as the page tables hold theirs */
	void *shared = mmu_user_page(mm->pgd, from->vaddr, NULL);

	mmu_user_replace_page(mm->pgd, from->vaddr, page);
	put_page(shared); /* the child's table held the parent's page: mm runs nowhere yet */
	*area = (struct xol_area){.vaddr = from->vaddr, .page = page, .bitmap = 1UL};
	mm->uprobes_xol = area;
	return 0;
}

void uprobe_clear_state(struct mm_struct *mm)
{
	delayed_uprobe_remove(NULL, mm);
	for (struct uprobe_kept_page *kept = mm->uprobes_kept, *next; kept; kept = next) {
		next = kept->next;
		put_page(kept->page);
		kfree(kept);
	}
	mm->uprobes_kept = NULL;
	if (mm->uprobes_xol) {
		put_page(mm->uprobes_xol->page);
		kfree(mm->uprobes_xol);
		mm->uprobes_xol = NULL;
	}
}

/* The process's [uprobes] page, made the first time (Linux's xol_add_vma). */
static struct xol_area *get_xol_area(struct mm_struct *mm)
{
	struct xol_area *area = mm->uprobes_xol;

	/* set once, by this task (the only one in mm), and kept till the end */
	if (area)
		return area;
	unsigned long flags = spin_lock_irqsave(&mm->mmap_lock);

	area = mm->uprobes_xol;

	if (area)
		goto out;
	area = kmalloc(sizeof(*area));
	uint8_t *page = alloc_page_zeroed();
	unsigned long vaddr = get_unmapped_area(mm, 0, PAGE_SIZE);

	if (!area || !page || !vaddr ||
	    insert_vma(mm, vaddr, vaddr + PAGE_SIZE, VM_READ | VM_EXEC, VMA_XOL))
		goto fail;
	if (mmu_user_map(mm->pgd, vaddr, __pa(page), MMU_EXEC)) {
		do_munmap(mm, vaddr, vaddr + PAGE_SIZE);
		goto fail;
	}
	find_vma(mm, vaddr)->vm_private_pages = true; /* fork copies its table: uprobe_dup_mmap */
	get_page(page); /* the area's reference: the program may munmap its page */
	page[XOL_TRAMPOLINE_SLOT * UPROBE_XOL_SLOT_BYTES] = UPROBE_SWBP_INSN;
	*area = (struct xol_area){
		.vaddr = vaddr, .page = page, .bitmap = 1UL << XOL_TRAMPOLINE_SLOT};
	mm->uprobes_xol = area;
	goto out;
fail:
	kfree(area);
	if (page)
		free_pages(page, 1);
	area = NULL;
out:
	spin_unlock_irqrestore(&mm->mmap_lock, flags);
	return area;
}

static struct uprobe_task *get_utask(void)
{
	if (!current->utask)
		current->utask = kzalloc(sizeof(*current->utask));
	return current->utask;
}

/*
 * Calls each consumer with the hit (its handler, or ret_handler for a return at func). The
 * caller counted the hit in u->active under uprobes_treelock, where it found u (or held a
 * reference from before, a return instance's): unregister waits for it to end.
 */
static void handler_chain(struct uprobe *u, struct pt_regs *regs, bool ret, unsigned long func)
{
	for (struct uprobe_consumer *uc = __atomic_load_n(&u->consumers, __ATOMIC_SEQ_CST); uc;
	     uc = __atomic_load_n(&uc->next, __ATOMIC_ACQUIRE)) {
		if (!ret && uc->handler)
			uc->handler(uc, regs);
		else if (ret && uc->ret_handler)
			uc->ret_handler(uc, func, regs);
	}
}

static bool wants_return(struct uprobe *u)
{
	for (struct uprobe_consumer *uc = __atomic_load_n(&u->consumers, __ATOMIC_ACQUIRE); uc;
	     uc = __atomic_load_n(&uc->next, __ATOMIC_ACQUIRE))
		if (uc->ret_handler)
			return true;
	return false;
}

/* Frees ri (into utask's pool if it has room) and returns the next one. */
static struct return_instance *free_ret_instance(struct uprobe_task *utask,
						 struct return_instance *ri)
{
	struct return_instance *next = ri->next;

	put_uprobe(ri->uprobe);
	if (utask && !utask->ri_pool)
		utask->ri_pool = ri; /* a function called in a loop: no kmalloc a call */
	else
		kfree(ri);
	return next;
}

/* At the function's entry: its return goes by the trampoline (Linux's prepare_uretprobe). */
static void prepare_uretprobe(struct uprobe *u, struct pt_regs *regs)
{
	struct xol_area *area = get_xol_area(current->mm);
	struct uprobe_task *utask = get_utask();

	if (!area || !utask)
		return;
	if (utask->depth >= MAX_URETPROBE_DEPTH) {
		printk(KERN_INFO "uprobe: omit uretprobe due to nestedness limit pid/tgid=%d/%d\n",
		       current->pid, current->pid);
		return;
	}
	struct return_instance *ri = utask->ri_pool;

	utask->ri_pool = NULL;
	if (!ri)
		ri = kmalloc(sizeof(*ri));
	if (!ri)
		return;
	unsigned long orig = arch_uretprobe_hijack_return_addr(area->vaddr, regs);

	if (orig == (unsigned long)-1) {
		kfree(ri);
		return;
	}
	bool chained = orig == area->vaddr;

	if (chained) {
		if (!utask->return_instances) {
			/* A trampoline address nobody put there: the stack is not what it seems. */
			kfree(ri);
			force_sig_fault(regs, SIGSEGV, regs->rsp);
			return;
		}
		orig = utask->return_instances->orig_ret_vaddr;
	}
	get_uprobe(u);
	*ri = (struct return_instance){.uprobe = u,
				       .func = regs->rip,
				       .orig_ret_vaddr = orig,
				       .stack = regs->rsp,
				       .chained = chained,
				       .next = utask->return_instances};
	utask->return_instances = ri;
	utask->depth++;
}

/*
 * The trampoline's int3: the function that was entered returns. Frames a longjmp went past
 * are dropped first; then the instance (and those chained to it) fire, and the task goes on
 * at the real return address.
 */
static void handle_trampoline(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;
	struct return_instance *ri = utask ? utask->return_instances : NULL;

	/* The ret popped the return address: rsp is one word above the entry's. */
	while (ri && ri->stack + sizeof(long) < regs->rsp) {
		ri = free_ret_instance(utask, ri);
		utask->depth--;
	}
	if (!ri) {
		force_sig_fault(regs, SIGILL, regs->rip); /* Linux: no return instance */
		return;
	}
	regs->rip = ri->orig_ret_vaddr;
	/*
	 * The return address came from the user's stack: a program that jumped into the function
	 * with a made-up, non-canonical one gets the SIGSEGV Linux's gets from its IRET there
	 * (arch/x86_64/signal.c), never the IRET itself.
	 */
	bad_user_return(regs);
	bool chained;

	do {
		chained = ri->chained;
		/*
		 * ri's reference keeps the probe; counting the hit in active needs no lock here:
		 * both this add and unregister's unlink-then-read of active are sequentially
		 * consistent, so either it sees the count or this sees the consumer gone.
		 */
		__atomic_add_fetch(&ri->uprobe->active, 1, __ATOMIC_SEQ_CST);
		handler_chain(ri->uprobe, regs, true, ri->func);
		__atomic_sub_fetch(&ri->uprobe->active, 1, __ATOMIC_RELEASE);
		ri = free_ret_instance(utask, ri);
		utask->depth--;
	} while (chained && ri);
	utask->return_instances = ri;
}

/* Sets the task up to step the instruction in a slot (Linux's pre_ssout); false: no slot. */
static bool pre_ssout(struct uprobe *u, struct pt_regs *regs, unsigned long vaddr)
{
	struct xol_area *area = get_xol_area(current->mm);
	struct uprobe_task *utask = get_utask();

	if (!area || !utask)
		return false;
	unsigned long free = ~area->bitmap;

	if (!free)
		return false;
	unsigned int slot = (unsigned int)__builtin_ctzl(free);

	area->bitmap |= 1UL << slot;
	memcpy(area->page + slot * UPROBE_XOL_SLOT_BYTES, u->arch.ixol, u->arch.len);
	utask->xol_vaddr = area->vaddr + slot * UPROBE_XOL_SLOT_BYTES;
	utask->vaddr = vaddr;
	utask->active_uprobe = u; /* with the hit's reference */
	utask->state = UTASK_SSTEP;
	arch_uprobe_pre_xol(&u->arch, &utask->autask, regs, vaddr, utask->xol_vaddr);
	return true;
}

/* The step is over (or given up): its slot free, the probe's reference dropped. */
static void end_step(struct uprobe_task *utask)
{
	struct xol_area *area = current->mm ? current->mm->uprobes_xol : NULL;

	if (area) {
		unsigned long slot = (utask->xol_vaddr - area->vaddr) / UPROBE_XOL_SLOT_BYTES;

		if (slot < XOL_SLOTS && slot != XOL_TRAMPOLINE_SLOT)
			area->bitmap &= ~(1UL << slot);
	}
	put_uprobe(utask->active_uprobe);
	utask->active_uprobe = NULL;
	utask->state = UTASK_RUNNING;
}

/*
 * The int3 this task ran is gone from memory: under QEMU, this CPU may have run a translation
 * of the page made just before remove_breakpoint's write, and would run it again, forever
 * (arch/x86_64/text_poke.c says how). Writing the byte once more, unchanged, makes QEMU drop
 * it. A compare-and-exchange, so that an int3 another CPU puts there meanwhile is not undone.
 */
static void refresh_insn_byte(struct mm_struct *mm, unsigned long vaddr, uint8_t byte)
{
	uint8_t *page = mmu_user_page(mm->pgd, ALIGN_DOWN(vaddr, PAGE_SIZE), NULL);

	if (page)
		__atomic_compare_exchange_n(&page[vaddr & (PAGE_SIZE - 1)], &byte, byte, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* The int3 at regs->rip - 1 (Linux's handle_swbp). */
static bool handle_swbp(struct pt_regs *regs)
{
	unsigned long bp_vaddr = regs->rip - UPROBE_SWBP_INSN_SIZE;
	struct mm_struct *mm = current->mm;
	const struct inode *inode = NULL;
	unsigned long ino = 0;
	loff_t offset = 0;
	struct uprobe *u = NULL;

	if (!mm)
		return false;
	if (mm->uprobes_xol && bp_vaddr == mm->uprobes_xol->vaddr) {
		handle_trampoline(regs);
		return true;
	}
	/*
	 * No mmap_lock: only this task changes its own areas (a vfork child's parent waits), and
	 * it is here; others (/proc, register_for_each_vma) only read them or their pages.
	 */
	struct vm_area_struct *vma = find_vma(mm, bp_vaddr);

	if (vma && vma->vm_start <= bp_vaddr && vma->vm_inode) {
		inode = vma->vm_inode;
		ino = vma->vm_ino;
		offset = (loff_t)(bp_vaddr - vma->vm_start + vma->vm_pgoff * PAGE_SIZE);
	}
	if (inode) {
		lockdep_assert_irqs_disabled(); /* a trap's handler: no irqsave needed */
		spin_lock(&uprobes_treelock);
		u = find_uprobe(inode, ino, offset);
		if (u) {
			get_uprobe(u);
			__atomic_add_fetch(&u->active, 1, __ATOMIC_ACQUIRE); /* for handler_chain */
		}
		spin_unlock(&uprobes_treelock);
	}
	if (!u) {
		uint8_t byte;

		/* Disarmed since it trapped: run the instruction now there. Else the program's. */
		if (!copy_from_user(&byte, (void *)bp_vaddr, 1) && byte != UPROBE_SWBP_INSN) {
			refresh_insn_byte(mm, bp_vaddr, byte);
			regs->rip = bp_vaddr;
			return true;
		}
		return false;
	}
	regs->rip = bp_vaddr; /* the handlers see the probed instruction's address */
	if (!__atomic_load_n(&u->prepared, __ATOMIC_ACQUIRE) || u->prepare_err) {
		/*
		 * Linux's "restart": since this trap, another CPU took the probe away and put a
		 * new one at the same place whose first arming has not decoded it yet. This int3
		 * was the old probe's; whatever is there now runs when the task goes back.
		 */
		__atomic_sub_fetch(&u->active, 1, __ATOMIC_RELEASE);
		put_uprobe(u);
		return true;
	}
	handler_chain(u, regs, false, 0);
	if (wants_return(u))
		prepare_uretprobe(u, regs);
	__atomic_sub_fetch(&u->active, 1, __ATOMIC_RELEASE);
	if (arch_uprobe_skip_sstep(&u->arch, regs, bp_vaddr)) {
		put_uprobe(u);
		return true;
	}
	if (pre_ssout(u, regs, bp_vaddr))
		return true; /* the reference goes with the step */
	/* No slot to step in (out of memory): the program cannot go on past it. */
	put_uprobe(u);
	force_sig_fault(regs, SIGKILL, bp_vaddr);
	return true;
}

/* The step's #DB (Linux's handle_singlestep). */
static bool handle_singlestep(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	if (!utask || utask->state != UTASK_SSTEP)
		return false;
	struct uprobe *u = utask->active_uprobe;
	int err = arch_uprobe_post_xol(&u->arch, &utask->autask, regs, utask->vaddr,
				       utask->xol_vaddr);

	end_step(utask);
	if (utask->signal_denied) {
		/* the signals held back during the step are looked at on this way out */
		utask->signal_denied = false;
		set_tsk_thread_flag(current, TIF_SIGPENDING);
	}
	if (err)
		force_sig_fault(regs, SIGILL, regs->rip); /* as Linux: it could not be run */
	return true;
}

bool uprobe_handle_trap(struct pt_regs *regs)
{
	if (regs->vector == VEC_BREAKPOINT)
		return handle_swbp(regs);
	if (regs->vector == VEC_DEBUG)
		return handle_singlestep(regs);
	return false;
}

/*
 * Did the stepped copy itself trap (a fault in the slot: the exit we are on is that exception's,
 * not the int3's that set the step up, nor an interrupt's)? Linux's arch_uprobe_xol_was_trapped
 * (its trap_nr no longer UPROBE_TRAP_NR): a fault there, serviced or not, gives the step up.
 */
static bool xol_was_trapped(const struct pt_regs *regs)
{
	return regs->vector < VEC_FIRST_IRQ && regs->vector != VEC_BREAKPOINT;
}

bool uprobe_deny_signal(struct pt_regs *regs)
{
	struct uprobe_task *utask = current->utask;

	if (likely(!utask || utask->state != UTASK_SSTEP))
		return false;
	if (fatal_signal_pending() || xol_was_trapped(regs)) {
		/*
		 * Given up (Linux's UTASK_SSTEP_TRAPPED): the task stands at the probed
		 * instruction again, where the signal finds it (a SIGSEGV of the copy's says the
		 * instruction's own address, as without the probe).
		 */
		arch_uprobe_abort_xol(&utask->active_uprobe->arch, &utask->autask, regs,
				      utask->vaddr);
		end_step(utask);
		return false;
	}
	utask->signal_denied = true; /* handle_singlestep raises TIF_SIGPENDING again */
	return true;
}

void uprobe_copy_process(struct task *child, unsigned long clone_flags)
{
	struct uprobe_task *utask = current->utask;
	(void)clone_flags; /* a vfork child too: it returns through the parent's frames */

	child->utask = NULL;
	if (!utask || !utask->return_instances)
		return;
	struct uprobe_task *copy = kzalloc(sizeof(*copy));
	struct return_instance **tail = &copy->return_instances;

	/* its returns then meet no instance: SIGILL, as Linux's dup_utask failing */
	if (!copy)
		return;
	for (struct return_instance *ri = utask->return_instances; ri; ri = ri->next) {
		struct return_instance *n = kmalloc(sizeof(*n));

		if (!n)
			break;
		*n = *ri;
		n->next = NULL;
		get_uprobe(n->uprobe);
		*tail = n;
		tail = &n->next;
		copy->depth++;
	}
	child->utask = copy;
}

void uprobe_free_utask(struct task *t)
{
	struct uprobe_task *utask = t->utask;

	if (!utask)
		return;
	if (utask->state == UTASK_SSTEP)
		put_uprobe(utask->active_uprobe); /* the slot goes with the address space */
	for (struct return_instance *ri = utask->return_instances; ri;)
		ri = free_ret_instance(NULL, ri);
	kfree(utask->ri_pool);
	t->utask = NULL;
	kfree(utask);
}
