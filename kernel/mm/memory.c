/*
 * Page faults in user memory (Linux's mm/memory.c): demand paging, stack growth and
 * copy-on-write.
 *
 * arch/x86_64/traps.c sends here every fault on a user address, from ring 3 or from
 * copy_to_user and friends. The area (VMA) the address lies in decides:
 *	- no area, or one that forbids the access (a write to a read-only area, a fetch from a
 *	  non-executable one, anything in a PROT_NONE one): VM_FAULT_SIGSEGV, as before areas;
 *	- just below the stack's area: the stack grows down to the address (expand_stack), up to
 *	  STACK_MAX (RLIMIT_STACK) and never within STACK_GUARD_GAP of the area below;
 *	- no page yet: a zeroed page, with the area's permissions (do_anonymous_page). That is
 *	  how every anonymous mmap, the heap and the stack get their pages: only the ones touched;
 *	  in an area that maps a file's pages (a program's segment, a ramfs file's mmap), the
 *	  file's own page, shared read-only until a write copies it (do_file_page); a file
 *	  mapping whose bytes were copied in at mmap time (VMA_FILE, mmap_file.c) had every page
 *	  with file bytes filled then; in both, a page wholly past the file's end is
 *	  VM_FAULT_SIGBUS, as Linux answers a touch of such a page (a library cut short on disk
 *	  dies so);
 *	- in a MAP_SHARED area, the shared object's page, writable (do_shared_page): shared
 *	  anonymous memory's, filled with zeroes at its first touch by any process, or the file's;
 *	- a write to a page that fork left read-only (copy-on-write, do_wp_page): if no other
 *	  process maps it any more, it becomes writable where it is; else this process gets a copy
 *	  and drops its reference to the shared one.
 * No page to be had: VM_FAULT_OOM, and the caller ends the process (pagefault_out_of_memory).
 */
#include "kernel/mm/mm.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/fs/vfs.h"
#include "kernel/sched/sched.h"
#include "kernel/printk.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/page_64.h"
#include "arch/x86_64/vdso.h"
#include "lib/string.h"
#include "lib/errno.h"
#include "kernel/locking/lockdep.h"

/* Grows the stack area vma down to the page of addr, if RLIMIT_STACK and the gap allow. */
static bool expand_stack(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr)
{
	unsigned long start = ALIGN_DOWN(addr, PAGE_SIZE);
	struct vm_area_struct *prev = prev_vma(mm, vma);

	if (vma->vm_end - start > rlimit(RLIMIT_STACK)) /* the faulting task's own */
		return false;
	if (prev && prev->vm_end + STACK_GUARD_GAP > start)
		return false;
	vma->vm_start = start;
	return true;
}

static int do_anonymous_page(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long va)
{
	void *page = alloc_page_zeroed();

	if (!page)
		return VM_FAULT_OOM;
	if (mmu_user_map(mm->pgd, va, __pa(page), vm_flags_to_mmu(vma->vm_flags))) {
		free_pages(page, 1); /* no room for a page table */
		return VM_FAULT_OOM;
	}
	return 0;
}

/*
 * A page of an area that maps a file (exec's segments, mmap of a file): the file's own page,
 * shared and read-only even in a writable area, so that its first write copies it (do_wp_page:
 * the file holds a reference, so the count is never 1); for a write fault, the copy at once
 * (Linux's do_cow_fault); for the page where the file's bytes end and the bss begins, a copy
 * with zeroes after them; past that (the bss), or in a hole of the file, a zeroed page; a page
 * of the mapping wholly past the file's end, SIGBUS.
 */
static int do_file_page(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long va,
			bool write)
{
	void *from = NULL;
	int flags = vm_flags_to_mmu(vma->vm_flags);

	/* an mmap of a file cut short since (unmap_mapping_range) */
	if (va >= vma->vm_file_end && vma->kind != VMA_ELF)
		return VM_FAULT_SIGBUS;
	if (va < vma->vm_file_end) {
		unsigned long index = vma->vm_pgoff + (va - vma->vm_start) / PAGE_SIZE;

		/* wholly past the file's end (an mmap longer than it) */
		if (index >= vma->vm_file->nr_pages)
			return VM_FAULT_SIGBUS;
		from = file_pages_page(vma->vm_file, index);
	}
	size_t file_bytes = from ? MIN(PAGE_SIZE, vma->vm_file_end - va) : 0;

	if (file_bytes == PAGE_SIZE && !write) {
		if (mmu_user_map(mm->pgd, va, __pa(from), flags & ~MMU_WRITE))
			return VM_FAULT_OOM;
		get_page(from); /* this page table's reference */
		return 0;
	}
	vma->vm_private_pages = true; /* from now on fork copies the area's tables */
	if (!from)
		return do_anonymous_page(mm, vma, va);
	void *page = alloc_pages(1);

	if (!page)
		return VM_FAULT_OOM;
	if (file_bytes == PAGE_SIZE) {
		copy_page(page, from);
	} else {
		memcpy(page, from, file_bytes);
		memset((char *)page + file_bytes, 0, PAGE_SIZE - file_bytes);
	}
	if (mmu_user_map(mm->pgd, va, __pa(page), flags)) {
		free_pages(page, 1);
		return VM_FAULT_OOM;
	}
	return 0;
}

/*
 * A page of a MAP_SHARED area (Linux's do_shared_fault): the object's own page, mapped with the
 * area's permissions, writable too: a write reaches the file, or the memory every process
 * sharing the area sees, and is never copied. A page past the file's end is SIGBUS.
 */
static int do_shared_page(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long va)
{
	unsigned long index = vma->vm_pgoff + (va - vma->vm_start) / PAGE_SIZE;
	void *page;
	int err = va < vma->vm_file_end ? shmem_fault_page(vma->vm_file, index, &page) : -EFAULT;

	if (err)
		return err == -ENOMEM ? VM_FAULT_OOM : VM_FAULT_SIGBUS;
	if (mmu_user_map(mm->pgd, va, __pa(page), vm_flags_to_mmu(vma->vm_flags)))
		return VM_FAULT_OOM;
	get_page(page); /* this page table's reference; the object keeps its own */
	return 0;
}

static int do_wp_page(struct mm_struct *mm, unsigned long va, void *old)
{
	if (page_count(old) == 1) {
		mmu_user_make_writable(&mm->tlb, mm->pgd, va, NULL); /* the other side let it go */
		return 0;
	}
	void *copy = alloc_pages(1);

	if (!copy)
		return VM_FAULT_OOM;
	copy_page(copy, old);
	mmu_user_make_writable(&mm->tlb, mm->pgd, va, copy);
	return mm->tlb.flush_pending ? VM_FAULT_TLB_FINISH : 0; /* other CPUs: flush them */
}

/*
 * Does the area forbid this access? x86 has no present page that cannot be read: any access
 * flag lets it be read, as Linux's access_error() says.
 */
static bool access_error(const struct vm_area_struct *vma, bool write, bool instr)
{
	if (write)
		return !(vma->vm_flags & VM_WRITE);
	if (instr)
		return !(vma->vm_flags & VM_EXEC);
	return !(vma->vm_flags & VM_ACCESS_FLAGS);
}

static int __handle_mm_fault(struct mm_struct *mm, unsigned long addr, bool write, bool instr)
{
	struct vm_area_struct *vma = find_vma(mm, addr);
	unsigned long va = ALIGN_DOWN(addr, PAGE_SIZE);
	int flags;

	if (!vma)
		return VM_FAULT_SIGSEGV;
	if (addr < vma->vm_start &&
	    (!(vma->vm_flags & VM_GROWSDOWN) || !expand_stack(mm, vma, addr)))
		return VM_FAULT_SIGSEGV;
	if (access_error(vma, write, instr))
		return VM_FAULT_SIGSEGV;
	void *page = mmu_user_page(mm->pgd, va, &flags);

	if (vma->kind == VMA_SHARED) {
		if (!page)
			return do_shared_page(mm, vma, va);
		if (write && !(flags & MMU_WRITE)) { /* write-protected by an mprotect since */
			mmu_user_make_writable(&mm->tlb, mm->pgd, va, NULL);
			return 0;
		}
	}
	if (!page && (vma->kind == VMA_VVAR || vma->kind == VMA_VDSO))
		return vdso_fault(mm, vma, va); /* the shared image or data page, or SIGBUS */
	if (!page && vma->kind == VMA_FILE)
		return VM_FAULT_SIGBUS;
	if (!page && vma->vm_file)
		return do_file_page(mm, vma, va, write);
	if (!page)
		return do_anonymous_page(mm, vma, va);
	if (write && !(flags & MMU_WRITE)) {
		vma->vm_private_pages = true; /* the page becomes this process's own */
		return do_wp_page(mm, va, page);
	}
	/*
	 * Present, and the entry allows the access: another CPU mapped the page between the
	 * fault and this look (uprobes arm a probe in a process that runs elsewhere, faulting
	 * its page in: get_user_page_private). Spurious, as Linux calls it: the access is run
	 * again. Present but not allowed: nothing a fault could fix.
	 */
	if (!(flags & MMU_NOACCESS) && (!instr || (flags & MMU_EXEC)))
		return 0;
	return VM_FAULT_SIGSEGV;
}

/*
 * in_user_fault tells fault injection that the pages allocated now are a user page and the
 * tables that map it: Linux's __GFP_HIGHMEM, which fail_page_alloc ignores by default
 * (kernel/debug/fault_inject.c). Saved and restored, should a fault ever nest in another.
 */
int handle_mm_fault(struct mm_struct *mm, unsigned long addr, bool write, bool instr)
{
	unsigned long flags = spin_lock_irqsave(&mm->mmap_lock);
	bool was_in_user_fault = current->in_user_fault;

	current->in_user_fault = true;
	int ret = __handle_mm_fault(mm, addr, write, instr);
	current->in_user_fault = was_in_user_fault;
	if (!(ret & ~VM_FAULT_TLB_FINISH))
		current->min_flt++; /* getrusage's ru_minflt (Linux's mm_account_fault) */

	spin_unlock_irqrestore(&mm->mmap_lock, flags);
	return ret;
}

/*
 * A debugger's write into a process's read-only text (Linux's FOLL_FORCE | FOLL_WRITE, which
 * uprobes use to put an int3 in): the page at va of vma, faulted in if it is not there, and
 * copied first if anything else holds it (the file, or another process since a fork), so the
 * write changes this process's copy alone. Its permissions stay as they were. The area
 * counts as having pages of its own from then on, so a fork copies its tables and the child
 * sees the same bytes. Called with mmap_lock held; the page (its direct-map address) or NULL.
 * old NULL: the page replaced by a copy loses this table's reference now, which is right when
 * mm runs on this CPU alone or nowhere. Else *old gets it (or stays untouched), for a caller
 * whose mm may run on another CPU right now, still reading the old page through its TLB: it
 * must keep the page until that CPU has switched away (kernel/events/uprobes.c keeps it with mm).
 */
void *get_user_page_private(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long va,
			    void **old)
{
	lockdep_assert_held(&mm->mmap_lock);
	va = ALIGN_DOWN(va, PAGE_SIZE);
	void *page = mmu_user_page(mm->pgd, va, NULL);

	/* faulted in as what the area holds: text (an int3's), or data (an SDT semaphore's) */
	if (!page && __handle_mm_fault(mm, va, false, (vma->vm_flags & VM_EXEC) != 0))
		return NULL;
	page = mmu_user_page(mm->pgd, va, NULL);
	if (!page)
		return NULL;
	vma->vm_private_pages = true;
	if (page_count(page) == 1)
		return page; /* only this table maps it: already private */
	void *copy = alloc_pages(1);

	if (!copy)
		return NULL;
	copy_page(copy, page);
	mmu_user_replace_page(mm->pgd, va, copy);
	if (old)
		*old = page; /* the caller keeps the table's reference, for now */
	else
		put_page(page);
	return copy;
}

/*
 * process_vm_readv/writev's look into another process (Linux's pin_user_pages_remote without
 * FOLL_FORCE): len bytes (in one page) at addr of mm, copied to or from buf under mm's lock,
 * the page faulted in first as the process's own access would (a write to a page shared since
 * a fork copies it). -EFAULT where that process could not read (or write) itself.
 */
int access_remote_page(struct mm_struct *mm, unsigned long addr, void *buf, size_t len, bool write)
{
	unsigned long va = ALIGN_DOWN(addr, PAGE_SIZE), flags;
	bool was_in_user_fault = current->in_user_fault;
	int mmu_flags = 0, err = 0;
	bool finish = false;
	char *page;

	flags = spin_lock_irqsave(&mm->mmap_lock);
	current->in_user_fault = true;
	page = mmu_user_page(mm->pgd, va, &mmu_flags);
	if (!page || (mmu_flags & MMU_NOACCESS) || (write && !(mmu_flags & MMU_WRITE))) {
		int ret = __handle_mm_fault(mm, addr, write, false);

		if (ret & ~VM_FAULT_TLB_FINISH)
			err = -EFAULT;
		finish = ret == VM_FAULT_TLB_FINISH;
		page = err ? NULL : mmu_user_page(mm->pgd, va, &mmu_flags);
		if (!page || (mmu_flags & MMU_NOACCESS))
			err = -EFAULT;
	}
	if (!err && write)
		memcpy(page + (addr - va), buf, len);
	else if (!err)
		memcpy(buf, page + (addr - va), len);
	current->in_user_fault = was_in_user_fault;
	spin_unlock_irqrestore(&mm->mmap_lock, flags);
	if (finish)
		tlb_finish_mmu(mm); /* a copy-on-write in a process whose threads may run now */
	return err;
}

/*
 * The mappings of a file, found from the file (Linux keeps them in the inode's i_mmap tree;
 * Lucid walks every process's areas): those an mmap made of it (vm_inode and vm_ino name it; a
 * running program's segments are left out: their file cannot change, ETXTBSY). The walk holds
 * task_list_lock, which keeps each mm alive (as /proc's readers rely on), and each mm's
 * mmap_lock while fn looks at its areas; fn answers whether it changed page tables, and each
 * such mm is held (mm_users) and finished (tlb_finish_mmu: every CPU flushed, then the pages
 * freed) once the locks are off, as munmap does.
 * Called under the VFS lock, by a change of the file (truncate, growth, a seal), which is rare
 * next to the walk's length. A fork copying a process's areas at that moment may give its child
 * the old ones, a gap Linux's i_mmap tree closes.
 */
typedef bool (*file_area_fn)(struct mm_struct *mm, struct vm_area_struct *vma, void *arg);

static void for_each_file_area(const struct inode *inode, file_area_fn fn, void *arg)
{
	struct mm_struct **flush;
	int nr_tasks = 0, nr_flush = 0;
	struct task *t;
	unsigned long irq = spin_lock_irqsave(&task_list_lock);

	list_for_each_entry(t, &task_list, tasks)
	{
		nr_tasks++;
	}
	flush = kmalloc((size_t)nr_tasks * sizeof(*flush)); /* NULL: no flush now, the pages wait */
	list_for_each_entry(t, &task_list, tasks)
	{
		struct mm_struct *mm = t->mm;
		struct vm_area_struct *vma;
		bool changed = false, seen = false;

		if (!mm)
			continue;
		spin_lock(&mm->mmap_lock);
		list_for_each_entry(vma, &mm->mmap, vm_list)
		{
			if (vma->vm_inode == inode && vma->vm_ino == inode->i_ino &&
			    vma->kind != VMA_ELF && vma->vm_file)
				changed |= fn(mm, vma, arg);
		}
		spin_unlock(&mm->mmap_lock);
		for (int i = 0; i < nr_flush; i++)
			seen |= flush[i] == mm;
		if (changed && flush && !seen && nr_flush < nr_tasks) {
			mmget(mm); /* a live task's: its users cannot reach 0 meanwhile */
			flush[nr_flush++] = mm;
		}
	}
	spin_unlock_irqrestore(&task_list_lock, irq);
	for (int i = 0; i < nr_flush; i++) {
		tlb_finish_mmu(flush[i]);
		mmput(flush[i]);
	}
	kfree(flush);
}

/*
 * Truncation (Linux's unmap_mapping_range with even_cows, as truncate_pagecache calls it): each
 * mapping loses its entries from the first file page wholly past the new end, private copies
 * too, and vm_file_end moves down to it, so a fault there is SIGBUS.
 */
static bool unmap_past(struct mm_struct *mm, struct vm_area_struct *vma, void *arg)
{
	unsigned long first = *(unsigned long *)arg, from = vma->vm_start;

	if (first > vma->vm_pgoff)
		from += MIN(first - vma->vm_pgoff, (vma->vm_end - vma->vm_start) / PAGE_SIZE) *
			PAGE_SIZE;
	if (from < vma->vm_file_end)
		vma->vm_file_end = from;
	if (mmu_user_next_mapped(mm->pgd, from, vma->vm_end) >= vma->vm_end)
		return false;
	mmu_user_unmap_range(&mm->tlb, mm->pgd, from, vma->vm_end);
	return true;
}

void unmap_mapping_range(const struct inode *inode, long long size)
{
	unsigned long first = ((unsigned long)size + PAGE_SIZE - 1) / PAGE_SIZE;

	for_each_file_area(inode, unmap_past, &first);
}

/* Linux's mapping_writably_mapped: a shared area from a descriptor open for writing. */
static bool find_writable(struct mm_struct *mm, struct vm_area_struct *vma, void *arg)
{
	(void)mm;
	if (vma->kind == VMA_SHARED && (vma->vm_flags & VM_SHARED))
		*(bool *)arg = true;
	return false;
}

bool mapping_writably_mapped(const struct inode *inode)
{
	bool found = false;

	for_each_file_area(inode, find_writable, &found);
	return found;
}

/* The file pages a shared area covers, into ranges->pages (room for ranges->max pairs). */
struct shared_ranges {
	unsigned long *pages;
	int nr, max;
};

static bool add_range(struct mm_struct *mm, struct vm_area_struct *vma, void *arg)
{
	struct shared_ranges *r = arg;

	(void)mm;
	if (vma->kind != VMA_SHARED)
		return false;
	if (r->nr < r->max) {
		r->pages[2 * r->nr] = vma->vm_pgoff;
		r->pages[2 * r->nr + 1] = vma->vm_pgoff + (vma->vm_end - vma->vm_start) / PAGE_SIZE;
	}
	r->nr++;
	return false;
}

unsigned long *mapping_shared_ranges(const struct inode *inode, int *nr)
{
	struct shared_ranges r = {NULL, 0, 0};

	for_each_file_area(inode, add_range, &r); /* how many */
	if (!r.nr || !(r.pages = kmalloc((size_t)r.nr * 2 * sizeof(*r.pages))))
		return NULL;
	r.max = r.nr;
	r.nr = 0;
	for_each_file_area(inode, add_range, &r); /* the VFS lock keeps new mappings out */
	*nr = MIN(r.nr, r.max);
	return r.pages;
}

/* A file grown: each mapping maps the new list of its pages, to its end (see filemap.h). */
static bool take_pages(struct mm_struct *mm, struct vm_area_struct *vma, void *arg)
{
	struct file_pages *fp = arg, *old = vma->vm_file;

	(void)mm;
	if (old != fp) {
		file_pages_get_area(fp, false);
		vma->vm_file = fp;
		file_pages_put_area(old, false);
	}
	vma->vm_file_end = vma->vm_end;
	return false;
}

void mapping_refresh(const struct inode *inode, struct file_pages *fp)
{
	for_each_file_area(inode, take_pages, fp);
}

static bool find_any(struct mm_struct *mm, struct vm_area_struct *vma, void *arg)
{
	(void)mm;
	(void)vma;
	*(bool *)arg = true;
	return false;
}

bool mapping_mapped(const struct inode *inode)
{
	bool found = false;

	for_each_file_area(inode, find_any, &found);
	return found;
}

/*
 * Linux's OOM killer picks the process using the most memory; Lucid's ends the one whose fault
 * found none (the caller kills it), with the line Linux's oom_kill_process prints.
 */
void pagefault_out_of_memory(void)
{
	struct task *t = current;
	struct mm_struct *mm = t->mm;
	struct vm_area_struct *vma;
	unsigned long total = 0, rss = 0;

	list_for_each_entry(vma, &mm->mmap, vm_list)
	{
		total += vma->vm_end - vma->vm_start;
		for (unsigned long va = mmu_user_next_mapped(mm->pgd, vma->vm_start, vma->vm_end);
		     va < vma->vm_end;
		     va = mmu_user_next_mapped(mm->pgd, va + PAGE_SIZE, vma->vm_end))
			rss++;
	}
	printk(KERN_ERR "Out of memory: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, "
			"file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:0kB oom_score_adj:0\n",
	       t->pid, t->comm, total >> 10, rss * (PAGE_SIZE >> 10));
}
