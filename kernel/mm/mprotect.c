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
 * first write while another process shares it (copy-on-write, memory.c).
 */
static void change_pages(struct mm_struct *mm, struct vm_area_struct *vma)
{
	int flags = vm_flags_to_mmu(vma->vm_flags);

	for (unsigned long va = mmu_user_next_mapped(mm->pgd, vma->vm_start, vma->vm_end);
	     va < vma->vm_end; va = mmu_user_next_mapped(mm->pgd, va + PAGE_SIZE, vma->vm_end)) {
		void *page = mmu_user_page(mm->pgd, va, NULL);

		if (page && page_count(page) > 1)
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
	return ret;
}
