/*
 * Process address spaces: creating, copying and freeing them, their areas (VMAs), brk, mmap
 * (anonymous, private or shared; of a file: kernel/mm/mmap_file.c) and munmap. mprotect is in
 * mprotect.c, mremap in mremap.c, msync in msync.c, page faults in memory.c, the pages of a file
 * (and of shared anonymous memory) that mappings share in filemap.c.
 *
 * The layout of a process, as on Linux x86_64:
 *	0x400000 or ELF_ET_DYN_BASE   the program's segments (kernel/fs/exec.c), then the heap (brk)
 *	below MMAP_BASE               anonymous mmaps, going down (the first gap that fits)
 *	below STACK_TOP               the stack, growing down to STACK_TOP - STACK_MAX
 *
 * An area (struct vm_area_struct) is a range of pages with one set of permissions: what the
 * program asked for. Nothing is mapped when an area is made: the page tables fill in as the
 * program touches the pages (memory.c). The areas are a list sorted by
 * address, as Linux's was before its maple tree: a process has a handful, and a list is the
 * easiest thing to read. munmap and mprotect cut an area in two or three (split_vma); areas
 * that touch and agree in everything become one again (vma_merge_around).
 *
 * A process is one thread (no clone of the mm yet), and only its own system calls change its
 * areas and tables while they are loaded on this CPU: so no lock, and only this CPU's TLB to
 * flush (a CPU that ran the process earlier dropped its entries when it loaded another CR3;
 * user pages are never global). /proc/PID reads them under task_list_lock, which exec and exit
 * take to take an mm away (kernel/fs/proc/base.c).
 */
#include "kernel/mm/mm.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/sched/sched.h"
#include "kernel/fs/vfs.h"
#include "kernel/events/uprobes.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/cpu.h"
#include "lib/errno.h"
#include "lib/string.h"

#define PROT_READ 0x1 /* mmap's prot and flags, Linux's values */
#define PROT_WRITE 0x2
#define PROT_EXEC 0x4
#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_FIXED 0x10
#define MAP_TYPE 0x0f
#define MAP_ANONYMOUS 0x20
#define MAP_FIXED_NOREPLACE 0x100000
#define SHMEM_ZERO_NAME "/dev/zero (deleted)" /* maps's name for it, as Linux's shmem file */

struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	struct vm_area_struct *vma;

	list_for_each_entry(vma, &mm->mmap, vm_list)
	{
		if (addr < vma->vm_end)
			return vma;
	}
	return NULL;
}

/* Links vma into mm's list at its place in address order. */
static void vma_link(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct vm_area_struct *next = find_vma(mm, vma->vm_start);

	list_add_tail(&vma->vm_list, next ? &next->vm_list : &mm->mmap);
	mm->map_count++;
}

struct vma_name *vma_name_new(const char *path)
{
	size_t len = strlen(path) + 1;
	struct vma_name *name = kmalloc(sizeof(*name) + len);

	if (name) {
		name->refcount = 1;
		memcpy(name->path, path, len);
	}
	return name;
}

void vma_name_get(struct vma_name *name)
{
	if (name) /* areas of two processes (after fork) drop theirs on two CPUs */
		__atomic_add_fetch(&name->refcount, 1, __ATOMIC_RELAXED);
}

void vma_name_put(struct vma_name *name)
{
	if (name && __atomic_sub_fetch(&name->refcount, 1, __ATOMIC_ACQ_REL) == 0)
		kfree(name);
}

/* A copy of vma (a cut, or fork's) holds the file's pages and the name as well. */
static void vma_get_copy(struct vm_area_struct *copy)
{
	if (copy->vm_file)
		file_pages_get_area(copy->vm_file, copy->kind == VMA_ELF);
	vma_name_get(copy->vm_name);
}

/* An area goes: with it, its hold on the file's pages and its name. */
static noinline void vm_area_free(struct vm_area_struct *vma) /* a function, as Linux's */
{
	file_pages_put_area(vma->vm_file, vma->kind == VMA_ELF);
	vma_name_put(vma->vm_name);
	kfree(vma);
}

static void vma_unlink(struct mm_struct *mm, struct vm_area_struct *vma)
{
	list_del(&vma->vm_list);
	mm->map_count--;
	vm_area_free(vma);
}

int insert_file_vma(struct mm_struct *mm, unsigned long start, unsigned long end,
		    unsigned long flags, enum vma_kind kind, struct file_pages *fp,
		    unsigned long pgoff, unsigned long file_end, struct vma_name *name)
{
	struct vm_area_struct *vma = kmalloc(sizeof(*vma));

	if (!vma)
		return -ENOMEM;
	*vma = (struct vm_area_struct){.vm_start = start,
				       .vm_end = end,
				       .vm_flags = flags,
				       .kind = kind,
				       .vm_file = fp,
				       .vm_pgoff = pgoff,
				       .vm_file_end = file_end,
				       .vm_name = name};
	vma_get_copy(vma);
	vma_link(mm, vma);
	vma_merge_around(mm, vma);
	return 0;
}

int insert_vma(struct mm_struct *mm, unsigned long start, unsigned long end, unsigned long flags,
	       enum vma_kind kind)
{
	return insert_file_vma(mm, start, end, flags, kind, NULL, 0, 0, NULL);
}

/*
 * Two neighbours that could be one area: touching, same permissions, same kind, not segments
 * (nor anything else mapping a file).
 */
static bool can_merge(const struct vm_area_struct *a, const struct vm_area_struct *b)
{
	return a && b && a->vm_end == b->vm_start && a->vm_flags == b->vm_flags &&
	       a->kind == b->kind && a->kind != VMA_ELF && a->kind != VMA_FILE &&
	       a->kind != VMA_XOL && !a->vm_file &&
	       !b->vm_file && !a->vm_name && !b->vm_name;
}

void vma_merge_around(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct vm_area_struct *prev = prev_vma(mm, vma), *next = next_vma(mm, vma);

	if (can_merge(vma, next)) {
		vma->vm_end = next->vm_end;
		vma_unlink(mm, next);
	}
	if (can_merge(prev, vma)) {
		prev->vm_end = vma->vm_end;
		vma_unlink(mm, vma);
	}
}

void vma_set_inode(struct mm_struct *mm, unsigned long addr, const struct inode *inode)
{
	struct vm_area_struct *vma = find_vma(mm, addr);

	if (vma && vma->vm_start <= addr) {
		vma->vm_inode = inode;
		vma->vm_ino = inode ? inode->i_ino : 0;
	}
}

/* Cuts vma in two at addr (inside it): vma keeps [vm_start, addr), a new one the rest. */
int split_vma(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr)
{
	struct vm_area_struct *new = kmalloc(sizeof(*new));

	if (!new)
		return -ENOMEM;
	*new = *vma;
	new->vm_start = addr;
	new->vm_pgoff += (addr - vma->vm_start) / PAGE_SIZE; /* the file page at addr */
	vma->vm_end = addr;
	vma_get_copy(new);
	list_add(&new->vm_list, &vma->vm_list);
	mm->map_count++;
	return 0;
}

/*
 * Takes [start, end) out of the address space: the areas in it go (those across an end are cut
 * first), and so do its pages. The only failure is a cut that finds no memory for the second
 * half, before anything is taken away.
 */
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start), *next;

	if (!vma || vma->vm_start >= end)
		return 0;
	if (vma->vm_start < start) {
		if (split_vma(mm, vma, start))
			return -ENOMEM;
		vma = next_vma(mm, vma);
	}
	struct vm_area_struct *last = find_vma(mm, end - 1);

	if (last && last->vm_start < end && last->vm_end > end && split_vma(mm, last, end))
		return -ENOMEM;
	for (; vma && vma->vm_start < end; vma = next) {
		next = next_vma(mm, vma);
		mmu_user_unmap_range(&mm->tlb, mm->pgd, vma->vm_start, vma->vm_end);
		vma_unlink(mm, vma);
	}
	return 0;
}

/* The MMU_* flags of a page in an area with these VM_* flags. */
int vm_flags_to_mmu(unsigned long vm_flags)
{
	if (!(vm_flags & VM_ACCESS_FLAGS))
		return MMU_NOACCESS;
	return (vm_flags & VM_WRITE ? MMU_WRITE : 0) | (vm_flags & VM_EXEC ? MMU_EXEC : 0);
}

struct mm_struct *mm_alloc(void)
{
	struct mm_struct *mm = kzalloc(sizeof(*mm));

	if (!mm)
		return NULL;
	mm->pgd = mmu_pgd_alloc();
	if (!mm->pgd) {
		kfree(mm);
		return NULL;
	}
	INIT_LIST_HEAD(&mm->mmap);
	INIT_LIST_HEAD(&mm->uprobes_dup);
	spin_lock_init(&mm->mmap_lock);
	tlb_gather_mmu(&mm->tlb);
	mm->mmap_base = MMAP_BASE;
	mm->mm_users = 1;
	return mm;
}

void mmput(struct mm_struct *mm)
{
	struct vm_area_struct *vma, *next;

	if (!mm || __atomic_sub_fetch(&mm->mm_users, 1, __ATOMIC_ACQ_REL) > 0)
		return; /* a CLONE_VM child or its parent still runs in it */
	uprobe_clear_state(mm); /* its [uprobes] page's bookkeeping; the page goes with the area */
	mm->tlb.fullmm = true; /* loaded nowhere: each page is freed at once */
	/* Area by area: each page goes with its last reference, each table once it is empty. */
	list_for_each_entry_safe(vma, next, &mm->mmap, vm_list)
	{
		mmu_user_unmap_range(&mm->tlb, mm->pgd, vma->vm_start, vma->vm_end);
		vm_area_free(vma);
	}
	tlb_free_gathered(&mm->tlb); /* loaded nowhere: no TLB can reach them */
	mmu_pgd_free(mm->pgd);
	kfree(mm);
}

/*
 * fork's copy: the same boundaries, a copy of each area, and page tables of its own that share
 * every page with old, read-only in both until one of them writes (memory.c copies the page
 * then). Nothing is copied that the child may never touch. An area that maps only a file's
 * pages (a program's text) gets no tables at all: a child that touches it faults the same
 * pages in, and most children exec at once.
 */
struct mm_struct *dup_mm(struct mm_struct *old)
{
	struct mm_struct *mm = mm_alloc();
	struct vm_area_struct *vma;

	if (!mm)
		return NULL;
	uint64_t *pgd = mm->pgd;
	unsigned long flags = spin_lock_irqsave(&old->mmap_lock);

	*mm = *old;
	mm->pgd = pgd;
	mm->mm_users = 1;
	INIT_LIST_HEAD(&mm->mmap);
	spin_lock_init(&mm->mmap_lock);
	tlb_gather_mmu(&mm->tlb); /* not the parent's list, copied with the rest */
	mm->map_count = 0;
	mm->uprobes_xol = NULL; /* uprobe_dup_mmap gives the child its own */
	mm->uprobes_kept = NULL;
	INIT_LIST_HEAD(&mm->uprobes_dup);
	list_for_each_entry(vma, &old->mmap, vm_list)
	{
		struct vm_area_struct *new = kmalloc(sizeof(*new));

		if (!new) {
			spin_unlock_irqrestore(&old->mmap_lock, flags);
			mmput(mm);
			return NULL;
		}
		*new = *vma;
		vma_get_copy(new); /* the child's area maps the file too */
		list_add_tail(&new->vm_list, &mm->mmap);
		mm->map_count++;
		if (vma->vm_file && !vma->vm_private_pages)
			continue; /* only the file's pages: the child's faults map them again */
		if ((vma->kind == VMA_VDSO || vma->kind == VMA_VVAR) && !vma->vm_private_pages)
			continue; /* the vDSO's shared pages: faulted in again too (vdso_fault) */
		if (mmu_user_copy_range(mm->pgd, old->pgd, vma->vm_start, vma->vm_end)) {
			mmu_flush_user();
			spin_unlock_irqrestore(&old->mmap_lock, flags);
			mmput(mm); /* the part copied is in its areas: freed with them */
			return NULL;
		}
	}
	mmu_flush_user(); /* the parent's writable translations are stale: its pages are shared */
	if (uprobe_dup_mmap(old, mm)) {
		spin_unlock_irqrestore(&old->mmap_lock, flags);
		mmput(mm);
		return NULL;
	}
	spin_unlock_irqrestore(&old->mmap_lock, flags);
	tlb_finish_mmu(old); /* the other threads' writable translations are stale too */
	return mm;
}

void switch_mm(struct mm_struct *mm)
{
	if (static_branch_unlikely(&debug_vm_tlb)) {
		tlb_switch_mm_debug(mm); /* the same, noting what this CPU loads for the check */
		return;
	}
	uintptr_t cr3 = mm ? __pa(mm->pgd) : mmu_kernel_cr3();

	if (read_cr3() != cr3)
		write_cr3(cr3);
}

int mm_map_zeroed(struct mm_struct *mm, unsigned long start, unsigned long end, int flags)
{
	for (unsigned long va = start; va < end; va += PAGE_SIZE) {
		if (mmu_user_page(mm->pgd, va, NULL))
			continue; /* already there (a segment sharing a page, say) */
		void *page = alloc_page_zeroed();
		if (!page || mmu_user_map(mm->pgd, va, __pa(page), flags)) {
			free_pages(page, 1);
			mmu_user_unmap_range(&mm->tlb, mm->pgd, start, va);
			return -ENOMEM;
		}
	}
	return 0;
}

/* Is [start, end) free of areas? */
static bool range_free(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	return !vma || vma->vm_start >= end;
}

/*
 * brk: the heap's end. Linux's rules: asking below the start, or for memory it cannot have
 * (up to another area, or the mmap region), changes nothing and returns the current break;
 * brk(0) asks what it is. The heap is an area of its own (VMA_BRK) from start_brk; growing it
 * maps nothing, the pages come on demand; shrinking it unmaps them now.
 */
static long do_brk(struct mm_struct *mm, unsigned long brk)
{
	unsigned long old_end = ALIGN_UP(mm->brk, PAGE_SIZE);
	unsigned long new_end = ALIGN_UP(brk, PAGE_SIZE);

	if (brk < mm->start_brk || brk > mm->mmap_base)
		return (long)mm->brk;
	if (new_end < old_end && do_munmap(mm, new_end, old_end))
		return (long)mm->brk;
	if (new_end > old_end) {
		struct vm_area_struct *next = find_vma(mm, old_end);

		/* Not into another area, nor within the stack's guard gap of it. */
		if (next &&
		    (new_end > next->vm_start || ((next->vm_flags & VM_GROWSDOWN) &&
						  new_end > next->vm_start - STACK_GUARD_GAP)))
			return (long)mm->brk;
		if (insert_vma(mm, old_end, new_end, VM_READ | VM_WRITE, VMA_BRK))
			return (long)mm->brk;
	}
	mm->brk = brk;
	return (long)mm->brk;
}

long sys_brk(unsigned long brk)
{
	struct mm_struct *mm = current->mm;
	unsigned long flags = spin_lock_irqsave(&mm->mmap_lock);
	long ret = do_brk(mm, brk);

	spin_unlock_irqrestore(&mm->mmap_lock, flags);
	tlb_finish_mmu(mm);
	return ret;
}

/*
 * Where an mmap without MAP_FIXED goes: at the hint if [hint, hint + len) is free, else the
 * highest gap below mmap_base that fits (Linux's top-down search, without its randomization).
 * 0 if none.
 */
unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long hint, unsigned long len)
{
	unsigned long end = mm->mmap_base;
	struct list_head *pos;

	hint = ALIGN_DOWN(hint, PAGE_SIZE);
	if (hint >= MMAP_MIN_ADDR && hint <= STACK_TOP - len && range_free(mm, hint, hint + len))
		return hint;
	for (pos = mm->mmap.prev; pos != &mm->mmap; pos = pos->prev) {
		struct vm_area_struct *vma = list_entry(pos, struct vm_area_struct, vm_list);

		if (vma->vm_start >= end)
			continue; /* above the region */
		if (vma->vm_end + len <= end)
			break; /* the gap between it and end fits */
		end = vma->vm_start;
	}
	return end >= MMAP_MIN_ADDR + len ? end - len : 0;
}

/*
 * A private mapping's area, called with mm->mmap_lock held: anonymous memory (kind VMA_ANON,
 * fp NULL), the area a copy of a file's bytes goes into (VMA_FILE, fp NULL), or an area that
 * maps a file's own pages (VMA_ANON with fp: ramfs), from file page off / PAGE_SIZE, a written
 * page copied first (memory.c), as exec's segments do. mmap_file.c has checked the file.
 */
long do_mmap(struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long prot,
	     unsigned long flags, struct file_pages *fp, unsigned long off, enum vma_kind kind)
{
	unsigned long vm_flags = prot & VM_ACCESS_FLAGS; /* PROT_* and VM_* agree on these */

	if (!len || (off & (PAGE_SIZE - 1)))
		return -EINVAL;
	/* Linux: a private mapping is MAP_PRIVATE alone; mmap_file checks a shared file's type. */
	if (kind != VMA_SHARED && (flags & MAP_TYPE) != MAP_PRIVATE)
		return -EINVAL;
	if (kind == VMA_SHARED) /* the caller may take VM_MAYWRITE away */
		vm_flags |= VM_SHARED | VM_MAYSHARE | VM_MAYWRITE;
	if (len > STACK_TOP)
		return -ENOMEM;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;
	if (flags & MAP_FIXED) {
		if ((addr & (PAGE_SIZE - 1)) || addr > STACK_TOP - len)
			return -EINVAL;
		/*
		 * Not below mmap_min_addr, as Linux (security_mmap_addr): with page 0 mapped, a
		 * kernel NULL dereference in this process would read or run the program's bytes.
		 */
		if (addr < MMAP_MIN_ADDR)
			return -EPERM;
		if ((flags & MAP_FIXED_NOREPLACE) && !range_free(mm, addr, addr + len))
			return -EEXIST;
	} else {
		addr = get_unmapped_area(mm, addr, len);
		if (!addr)
			return -ENOMEM;
	}
	/* The new area first, so that running out of memory leaves the old ones in place. */
	struct vm_area_struct *vma = kmalloc(sizeof(*vma));

	if (!vma)
		return -ENOMEM;
	if (do_munmap(mm, addr, addr + len)) {
		kfree(vma);
		return -ENOMEM;
	}
	*vma = (struct vm_area_struct){
		.vm_start = addr, .vm_end = addr + len, .vm_flags = vm_flags, .kind = kind};
	vma->vm_pgoff = off / PAGE_SIZE; /* for a file's area; /proc/PID/maps shows it */
	if (fp) {
		vma->vm_file = fp;
		vma->vm_file_end = addr + len; /* a page wholly past the file's end: SIGBUS */
		file_pages_get_area(fp, false);
	}
	vma_link(mm, vma);
	vma_merge_around(mm, vma);
	return (long)addr;
}

long mmap_shmem(struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long prot,
		unsigned long flags)
{
	if (!len)
		return -EINVAL;
	/*
	 * Linux's overcommit heuristic (OVERCOMMIT_GUESS) refuses what could never fit in memory
	 * and swap; it also keeps the object's page array (8 bytes a page) small.
	 */
	if (len > STACK_TOP || ALIGN_UP(len, PAGE_SIZE) / PAGE_SIZE > nr_total_pages())
		return -ENOMEM;
	/* Made first, outside the lock: an object of many pages needs a large array. */
	struct file_pages *fp = shmem_zero_setup(ALIGN_UP(len, PAGE_SIZE) / PAGE_SIZE);
	struct vma_name *name = vma_name_new(SHMEM_ZERO_NAME);
	long ret = -ENOMEM;

	if (fp && name) {
		unsigned long irq = spin_lock_irqsave(&mm->mmap_lock);

		ret = do_mmap(mm, addr, len, prot, flags, fp, 0, VMA_SHARED);
		if (ret >= 0) { /* the area just made, alone: areas with a file never merge */
			struct vm_area_struct *vma = find_vma(mm, (unsigned long)ret);

			vma->vm_name = name;
			vma_name_get(name);
		}
		spin_unlock_irqrestore(&mm->mmap_lock, irq);
		tlb_finish_mmu(mm); /* MAP_FIXED over pages that were mapped */
	}
	file_pages_put(fp); /* the area holds its own references, if it was made */
	vma_name_put(name);
	return ret;
}

long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot, unsigned long flags,
	      unsigned long fd, unsigned long off)
{
	struct mm_struct *mm = current->mm;

	if (!(flags & MAP_ANONYMOUS))
		return mmap_file(mm, addr, len, prot, flags, (int)fd, off); /* mmap_file.c */
	if ((flags & MAP_TYPE) == MAP_SHARED) {
		if (off & (PAGE_SIZE - 1))
			return -EINVAL;
		return mmap_shmem(mm, addr, len, prot, flags); /* the offset means nothing */
	}
	unsigned long irq = spin_lock_irqsave(&mm->mmap_lock);
	long ret = do_mmap(mm, addr, len, prot, flags, NULL, off, VMA_ANON);

	spin_unlock_irqrestore(&mm->mmap_lock, irq);
	tlb_finish_mmu(mm); /* MAP_FIXED over pages that were mapped */
	return ret;
}

long sys_munmap(unsigned long addr, unsigned long len)
{
	struct mm_struct *mm = current->mm;

	if ((addr & (PAGE_SIZE - 1)) || !len || len > STACK_TOP ||
	    addr > STACK_TOP - ALIGN_UP(len, PAGE_SIZE))
		return -EINVAL;
	unsigned long flags = spin_lock_irqsave(&mm->mmap_lock);
	int ret = do_munmap(mm, addr, addr + ALIGN_UP(len, PAGE_SIZE));

	spin_unlock_irqrestore(&mm->mmap_lock, flags);
	tlb_finish_mmu(mm);
	return ret;
}
