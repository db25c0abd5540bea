/*
 * mprotect: new permissions for a range of a process's areas (Linux's mm/mprotect.c).
 *
 * The areas across either end of the range are cut there (split_vma), each area inside takes
 * the new permissions, and its pages that are already mapped take them too; the ones not yet
 * touched will get them when they are (memory.c reads the area's). Then areas that now agree
 * with a neighbour become one again.
 */
#include "kernel/mm/mm.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/mmu.h"
#include "lib/errno.h"

#define PROT_SEM 0x8
#define PROT_GROWSDOWN 0x01000000 /* to the start of a stack area (accepted, ignored) */
#define PROT_GROWSUP 0x02000000
#define PROT_ALL (VM_READ | VM_WRITE | VM_EXEC | PROT_SEM)

/*
 * A mapped page takes its area's permissions, except that write access waits for the page's
 * first write while another process shares it (copy-on-write, memory.c); a MAP_SHARED area's
 * pages are written where they are, by every process that maps them.
 */
static void change_pages(struct mm_struct *mm, struct vm_area_struct *vma)
{
	int flags = vm_flags_to_mmu(vma->vm_flags);

	for (unsigned long va = mmu_user_next_mapped(mm->pgd, vma->vm_start, vma->vm_end);
	     va < vma->vm_end; va = mmu_user_next_mapped(mm->pgd, va + PAGE_SIZE, vma->vm_end)) {
		void *page = mmu_user_page(mm->pgd, va, NULL);

		if (page && page_count(page) > 1 && vma->kind != VMA_SHARED)
			mmu_user_protect(mm->pgd, va, flags & ~MMU_WRITE);
		else if (page)
			mmu_user_protect(mm->pgd, va, flags);
	}
}

/*
 * Linux's errors: EINVAL for an unaligned start or unknown prot bits, ENOMEM for a range that
 * is not all mapped. Unlike Linux, which changes the areas before a hole and then fails, Lucid
 * checks the whole range first and changes nothing when it fails.
 */
static long do_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len,
			unsigned long prot)
{
	struct vm_area_struct *vma;
	unsigned long end, addr;

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
	/* Every page of the range in some area: no hole. */
	addr = start;
	for (vma = find_vma(mm, start); vma && vma->vm_start <= addr && addr < end;
	     vma = find_vma(mm, vma->vm_end))
		addr = vma->vm_end;
	if (addr < end)
		return -ENOMEM;
	/* A shared mapping of a file not open for writing never becomes writable (Linux's). */
	for (vma = find_vma(mm, start); (prot & VM_WRITE) && vma && vma->vm_start < end;
	     vma = next_vma(mm, vma))
		if ((vma->vm_flags & VM_MAYSHARE) && !(vma->vm_flags & VM_MAYWRITE))
			return -EACCES;
	vma = find_vma(mm, start);
	if (vma->vm_start < start) {
		if (split_vma(mm, vma, start))
			return -ENOMEM;
		vma = find_vma(mm, start);
	}
	struct vm_area_struct *last = find_vma(mm, end - 1);

	if (last->vm_end > end && split_vma(mm, last, end))
		return -ENOMEM;
	for (vma = find_vma(mm, start); vma && vma->vm_start < end;
	     vma = find_vma(mm, vma->vm_end)) {
		vma->vm_flags = (vma->vm_flags & ~VM_ACCESS_FLAGS) | (prot & VM_ACCESS_FLAGS);
		change_pages(mm, vma);
	}
	/* Merging may free the area in hand: look each one up again by address. */
	for (addr = start; (vma = find_vma(mm, addr)) && vma->vm_start <= end;) {
		unsigned long next = vma->vm_end;

		vma_merge_around(mm, vma);
		addr = next;
		if (next >= end)
			break;
	}
	return 0;
}

long sys_mprotect(unsigned long start, unsigned long len, unsigned long prot)
{
	struct mm_struct *mm = current->mm;
	unsigned long flags = spin_lock_irqsave(&mm->mmap_lock);
	long ret = do_mprotect(mm, start, len, prot);

	spin_unlock_irqrestore(&mm->mmap_lock, flags);
	tlb_finish_mmu(mm);
	return ret;
}

/*
 * madvise: advice on a range of the caller's memory. MADV_DONTNEED (glibc's thread stacks at
 * thread exit, allocators giving memory back) drops the range's pages now: a private page reads
 * as zero again (an anonymous one) or as the file again (a file's), as Linux's. The rest is
 * advice Lucid takes and does nothing with. -ENOMEM if part of the range is not mapped.
 */
#define MADV_NORMAL 0
#define MADV_RANDOM 1
#define MADV_SEQUENTIAL 2
#define MADV_WILLNEED 3
#define MADV_DONTNEED 4
#define MADV_FREE 8
#define MADV_DONTFORK 10
#define MADV_DOFORK 11
#define MADV_HUGEPAGE 14
#define MADV_NOHUGEPAGE 15
#define MADV_DONTDUMP 16
#define MADV_DODUMP 17

static bool madvise_behavior_valid(int behavior)
{
	switch (behavior) {
	case MADV_NORMAL:
	case MADV_RANDOM:
	case MADV_SEQUENTIAL:
	case MADV_WILLNEED:
	case MADV_DONTNEED:
	case MADV_FREE:
	case MADV_DONTFORK:
	case MADV_DOFORK:
	case MADV_HUGEPAGE:
	case MADV_NOHUGEPAGE:
	case MADV_DONTDUMP:
	case MADV_DODUMP:
		return true;
	default:
		return false;
	}
}

long sys_madvise(unsigned long start, size_t len, int behavior)
{
	struct mm_struct *mm = current->mm;
	unsigned long end = start + ALIGN_UP(len, PAGE_SIZE), addr, flags;
	struct vm_area_struct *vma;
	long ret = 0;

	if ((start & (PAGE_SIZE - 1)) || !madvise_behavior_valid(behavior) || end < start)
		return -EINVAL;
	if (end == start)
		return 0;
	flags = spin_lock_irqsave(&mm->mmap_lock);
	for (addr = start; addr < end; addr = vma->vm_end) {
		vma = find_vma(mm, addr);
		if (!vma || vma->vm_start > addr) {
			ret = -ENOMEM; /* a hole: Linux does the rest and says ENOMEM */
			if (!vma || vma->vm_start >= end)
				break;
		}
		if (behavior == MADV_DONTNEED || behavior == MADV_FREE)
			mmu_user_unmap_range(&mm->tlb, mm->pgd, MAX(addr, vma->vm_start),
					     MIN(end, vma->vm_end));
	}
	spin_unlock_irqrestore(&mm->mmap_lock, flags);
	tlb_finish_mmu(mm);
	return ret;
}
