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
#define MAP_SHARED 0x01
#define MAP_FIXED_NOREPLACE 0x100000
#define PROT_NONE 0x0
#define PROT_GROWSDOWN 0x01000000 /* mprotect: to the start of a stack area (accepted, ignored) */
#define PROT_GROWSUP 0x02000000
#define PROT_SEM 0x8
#define PROT_ALL (PROT_READ | PROT_WRITE | PROT_EXEC | PROT_SEM)

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

/*
 * A page is writable and executable at once only when the program asks for both; x86 cannot
 * have a present page that is not readable, so PROT_WRITE and PROT_EXEC read too, as on Linux.
 */
static int prot_to_mmu(unsigned long prot)
{
	if (!(prot & (PROT_READ | PROT_WRITE | PROT_EXEC)))
		return MMU_NOACCESS;
	return (prot & PROT_WRITE ? MMU_WRITE : 0) | (prot & PROT_EXEC ? MMU_EXEC : 0);
}

/* Is every page of [start, end) mapped, or in the heap where a touch would map it? */
static bool range_mapped(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	for (unsigned long va = start; va < end; va += PAGE_SIZE) {
		bool in_heap = va >= mm->start_brk && va < ALIGN_UP(mm->brk, PAGE_SIZE);

		if (!in_heap && !mmu_user_page(mm->pgd, va, NULL))
			return false;
	}
	return true;
}

/* Could [start, end) be mapped fresh now? Checked before MAP_FIXED takes the old pages away. */
static bool pages_available(unsigned long start, unsigned long end)
{
	unsigned long pages = (end - start) / PAGE_SIZE;

	/* one page table per 512 pages, and one more at each end for a range that straddles */
	return pages + pages / 512 + 2 <= nr_free_pages();
}

/*
 * mprotect: new permissions for [start, start + len). Linux's errors: EINVAL for an unaligned
 * start or unknown prot bits, ENOMEM for a range that is not all mapped. Unlike Linux, which
 * changes the pages before a hole and then fails, Lucid checks the whole range first and
 * changes nothing when it fails. Untouched heap pages are mapped now, so that they keep their
 * new permissions when touched.
 */
long sys_mprotect(unsigned long start, unsigned long len, unsigned long prot)
{
	struct mm_struct *mm = current->mm;
	unsigned long end;
	int flags;

	if (start & (PAGE_SIZE - 1))
		return -EINVAL;
	if (prot & ~(PROT_ALL | PROT_GROWSDOWN | PROT_GROWSUP))
		return -EINVAL;
	if ((prot & PROT_GROWSDOWN) && (prot & PROT_GROWSUP))
		return -EINVAL;
	if (!len)
		return 0;
	len = ALIGN_UP(len, PAGE_SIZE);
	end = start + len;
	if (!len || end <= start || end > STACK_TOP)
		return -ENOMEM;
	if (!range_mapped(mm, start, end))
		return -ENOMEM;
	if (!pages_available(start, end))
		return -ENOMEM;
	flags = prot_to_mmu(prot);
	for (unsigned long va = start; va < end; va += PAGE_SIZE) {
		if (!mmu_user_page(mm->pgd, va, NULL) && mm_map_zeroed(mm, va, va + PAGE_SIZE, 0))
			return -ENOMEM; /* cannot happen: pages_available said there was room */
		mmu_user_protect(mm->pgd, va, flags);
	}
	return 0;
}

/* Anonymous private mappings only, for now: files come with the VFS system calls. */
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot, unsigned long flags,
	      unsigned long fd, unsigned long off)
{
	struct mm_struct *mm = current->mm;

	(void)fd;
	if (!len || (off & (PAGE_SIZE - 1)))
		return -EINVAL;
	if (!(flags & (MAP_PRIVATE | MAP_SHARED)))
		return -EINVAL; /* Linux: one of the two, or there is no mapping type */
	if (!(flags & MAP_ANONYMOUS))
		return -ENODEV;
	if (!(flags & MAP_PRIVATE))
		return -EINVAL; /* shared anonymous memory needs fork first */
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
		/* Fail before the old pages go, not after: a failed mmap changes nothing. */
		if (!pages_available(addr, addr + len))
			return -ENOMEM;
		if (flags & MAP_FIXED_NOREPLACE) {
			for (unsigned long va = addr; va < addr + len; va += PAGE_SIZE)
				if (mmu_user_page(mm->pgd, va, NULL))
					return -EEXIST;
		}
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
