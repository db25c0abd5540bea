/*
 * Process address spaces: creating and freeing them, brk, anonymous mmap and munmap, and the
 * demand paging of the stack and heap (a first touch maps a zeroed page).
 *
 * The layout of a process, as on Linux x86_64:
 *	0x400000 or ELF_ET_DYN_BASE   the program's segments (kernel/fs/exec.c), then the heap (brk)
 *	below MMAP_BASE               anonymous mmaps, going down
 *	below STACK_TOP               the stack, growing down to STACK_TOP - STACK_MAX
 *
 * A process is one thread (no clone of the mm yet), and only its own system calls change its
 * tables while they are loaded on this CPU: so no lock, and only this CPU's TLB to flush (a CPU
 * that ran the process earlier dropped its entries when it loaded another CR3; user pages are
 * never global).
 */
#include "kernel/mm/mm.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/cpu.h"
#include "lib/errno.h"
#include "lib/string.h"

#define PROT_READ 0x1 /* mmap's prot and flags, Linux's values */
#define PROT_WRITE 0x2
#define PROT_EXEC 0x4
#define MAP_PRIVATE 0x02
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20

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
	mm->mmap_base = MMAP_BASE;
	mm->stack_low = STACK_TOP - STACK_MAX;
	return mm;
}

void mmput(struct mm_struct *mm)
{
	if (!mm)
		return;
	mmu_pgd_free(mm->pgd);
	kfree(mm);
}

void switch_mm(struct mm_struct *mm)
{
	uintptr_t cr3 = mm ? __pa(mm->pgd) : mmu_kernel_cr3();

	if (read_cr3() != cr3)
		write_cr3(cr3);
}

void mm_unmap(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	for (unsigned long va = start; va < end; va += PAGE_SIZE)
		mmu_user_unmap(mm->pgd, va);
}

int mm_map_zeroed(struct mm_struct *mm, unsigned long start, unsigned long end, int flags)
{
	for (unsigned long va = start; va < end; va += PAGE_SIZE) {
		if (mmu_user_page(mm->pgd, va, NULL))
			continue; /* already there (a segment sharing a page, say) */
		void *page = alloc_page_zeroed();
		if (!page || mmu_user_map(mm->pgd, va, __pa(page), flags)) {
			free_pages(page, 1);
			mm_unmap(mm, start, va);
			return -ENOMEM;
		}
	}
	return 0;
}

bool mm_fault_in(struct mm_struct *mm, unsigned long addr, bool write)
{
	unsigned long page = ALIGN_DOWN(addr, PAGE_SIZE);
	bool in_stack = addr >= mm->stack_low && addr < STACK_TOP;
	bool in_heap = addr >= mm->start_brk && addr < ALIGN_UP(mm->brk, PAGE_SIZE);

	(void)write; /* both areas are writable */
	if (!in_stack && !in_heap)
		return false;
	if (mmu_user_page(mm->pgd, page, NULL))
		return false; /* present: a protection fault, not ours to fix */
	return mm_map_zeroed(mm, page, page + PAGE_SIZE, MMU_WRITE) == 0;
}

/*
 * brk: the heap's end. Linux's rules: asking below the start, or for memory it cannot have,
 * changes nothing and returns the current break; brk(0) asks what it is. The pages come on
 * demand (mm_fault_in); shrinking frees them now.
 */
long sys_brk(unsigned long brk)
{
	struct mm_struct *mm = current->mm;
	unsigned long old_end = ALIGN_UP(mm->brk, PAGE_SIZE);

	if (brk < mm->start_brk || brk > mm->mmap_base || brk >= mm->stack_low)
		return (long)mm->brk;
	unsigned long new_end = ALIGN_UP(brk, PAGE_SIZE);
	if (new_end < old_end)
		mm_unmap(mm, new_end, old_end);
	mm->brk = brk;
	return (long)mm->brk;
}

static int prot_to_mmu(unsigned long prot)
{
	return (prot & PROT_WRITE ? MMU_WRITE : 0) | (prot & PROT_EXEC ? MMU_EXEC : 0);
}

/* Anonymous private mappings only, for now: files come with the VFS system calls. */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot, unsigned long flags,
	      unsigned long fd, unsigned long off)
{
	struct mm_struct *mm = current->mm;

	(void)fd;
	if (!len || (off & (PAGE_SIZE - 1)))
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS))
		return -ENODEV;
	if (!(flags & MAP_PRIVATE))
		return -EINVAL; /* shared anonymous memory needs fork first */
	if (len > STACK_TOP)
		return -ENOMEM;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (flags & MAP_FIXED) {
		if ((addr & (PAGE_SIZE - 1)) || addr > STACK_TOP - len)
			return -EINVAL;
		mm_unmap(mm, addr, addr + len);
	} else {
		if (len > mm->mmap_base || mm->mmap_base - len < ALIGN_UP(mm->brk, PAGE_SIZE))
			return -ENOMEM;
		addr = mm->mmap_base - len;
	}
	int err = mm_map_zeroed(mm, addr, addr + len, prot_to_mmu(prot));
	if (err)
		return err;
	if (!(flags & MAP_FIXED))
		mm->mmap_base = addr;
	return (long)addr;
}

long sys_munmap(unsigned long addr, unsigned long len)
{
	if ((addr & (PAGE_SIZE - 1)) || !len || len > STACK_TOP ||
	    addr > STACK_TOP - ALIGN_UP(len, PAGE_SIZE))
		return -EINVAL;
	mm_unmap(current->mm, addr, addr + ALIGN_UP(len, PAGE_SIZE));
	return 0;
}
