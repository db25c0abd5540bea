/*
 * mremap: a mapping made larger or smaller, moved elsewhere, or copied (Linux's mm/mremap.c).
 *
 * Three cases, as Linux's sys_mremap tells them apart:
 *	- smaller (new_len <= old_len): the tail is unmapped, nothing moves;
 *	- larger, ending where its area ends with room after it: the area grows in place, and its
 *	  new pages come on demand like any other;
 *	- otherwise, with MREMAP_MAYMOVE (or at new_addr, MREMAP_FIXED): move_vma makes an area
 *	  like the old one at the new place, moves the page table entries across (the pages
 *	  themselves stay where they are in memory, with their references: a private page is
 *	  still private, a shared one still shared), and unmaps the old range; without MAYMOVE,
 *	  ENOMEM.
 * MREMAP_DONTUNMAP (with MAYMOVE, old_len == new_len) moves the pages but leaves the old area
 * mapped and empty: a private one reads as zeroes again, a shared one as the object's pages
 * (Linux 5.13 and later, so 6.1's). old_len 0 on a shared area maps the same object again at
 * a new place (Linux's "duplicate"), as moving nothing and unmapping nothing does.
 *
 * Errors in Linux's order: EINVAL for unknown flags, FIXED or DONTUNMAP without MAYMOVE,
 * DONTUNMAP with two lengths, an unaligned addr or new_addr, new_len 0, overlapping ranges or
 * old_len 0 on a private area; EFAULT when addr is in no area or old_len reaches past it;
 * ENOMEM when it cannot grow in place and may not move, or finds no room.
 */
#include "kernel/mm/mm.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/mmu.h"
#include "lib/errno.h"

#define MREMAP_MAYMOVE 1 /* Linux's values */
#define MREMAP_FIXED 2
#define MREMAP_DONTUNMAP 4

/*
 * Moves the page table entries of [from, from + len) to [to, to + len), permissions and all
 * (a copy-on-write page stays read-only): each page gets the new entry's reference before the
 * old entry's goes. -ENOMEM, and nothing moved, if a page table cannot be had.
 */
static int move_page_tables(struct mm_struct *mm, unsigned long from, unsigned long to,
			    unsigned long len)
{
	for (unsigned long va = mmu_user_next_mapped(mm->pgd, from, from + len); va < from + len;
	     va = mmu_user_next_mapped(mm->pgd, va + PAGE_SIZE, from + len)) {
		int flags = 0;
		void *page = mmu_user_page(mm->pgd, va, &flags);

		if (mmu_user_map(mm->pgd, to + (va - from), __pa(page), flags)) {
			mmu_user_unmap_range(&mm->tlb, mm->pgd, to, to + (va - from));
			return -ENOMEM;
		}
		get_page(page);
	}
	mmu_user_unmap_range(&mm->tlb, mm->pgd, from, from + len);
	return 0;
}

/*
 * The range [addr, addr + old_len) of vma (inside it) goes to [new_addr, new_addr + new_len),
 * which is free: a new area like vma there, the pages moved, the old range unmapped (or, with
 * MREMAP_DONTUNMAP, left as an empty area). Returns new_addr or an error, nothing changed.
 */
static long move_vma(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr,
		     unsigned long old_len, unsigned long new_len, unsigned long new_addr,
		     unsigned long flags)
{
	struct vm_area_struct *new = kmalloc(sizeof(*new));

	if (!new)
		return -ENOMEM;
	*new = *vma;
	new->vm_start = new_addr;
	new->vm_end = new_addr + new_len;
	new->vm_pgoff = vma->vm_pgoff + (addr - vma->vm_start) / PAGE_SIZE;
	/* Where the file's bytes end, moved with the area (a segment's bss stays after them). */
	if (vma->vm_file)
		new->vm_file_end =
			vma->vm_file_end == vma->vm_end
				? new->vm_end
				: new_addr + MIN(new_len, MAX(vma->vm_file_end, addr) - addr);
	if (move_page_tables(mm, addr, new_addr, old_len)) {
		kfree(new);
		return -ENOMEM;
	}
	if (vma->vm_file)
		file_pages_get_area(vma->vm_file, vma->kind == VMA_ELF);
	vma_name_get(vma->vm_name);
	INIT_LIST_HEAD(&new->vm_list);
	/* Linked in address order, then merged like any new area (vma_merge_around). */
	struct vm_area_struct *next = find_vma(mm, new_addr);

	list_add_tail(&new->vm_list, next ? &next->vm_list : &mm->mmap);
	mm->map_count++;
	if (!(flags & MREMAP_DONTUNMAP) && old_len)
		do_munmap(mm, addr, addr + old_len); /* the pages are gone from it already */
	vma_merge_around(mm, new);
	return (long)new_addr;
}

/* Can vma, which ends at addr + old_len, grow by delta where it is? */
static bool vma_expandable(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long delta)
{
	struct vm_area_struct *next = next_vma(mm, vma);

	if (vma->vm_end + delta < vma->vm_end || vma->vm_end + delta > STACK_TOP)
		return false;
	return !next || next->vm_start >= vma->vm_end + delta;
}

/*
 * The area a resize of [addr, addr + old_len) to new_len works on (Linux's vma_to_resize), or
 * an error.
 */
static long vma_to_resize(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
			  unsigned long new_len, struct vm_area_struct **vmap)
{
	struct vm_area_struct *vma = find_vma(mm, addr);

	if (!vma || vma->vm_start > addr)
		return -EFAULT;
	if (vma->kind == VMA_XOL || vma->kind == VMA_VDSO || vma->kind == VMA_VVAR)
		return -EINVAL; /* uprobes' page and the vDSO stay where exec put them (mm->vdso) */
	if (!old_len && !(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL; /* a private area cannot be duplicated */
	if (old_len > vma->vm_end - addr)
		return -EFAULT; /* no remap across areas */
	if (new_len > old_len &&
	    vma->vm_pgoff + (addr - vma->vm_start + new_len) / PAGE_SIZE < vma->vm_pgoff)
		return -EINVAL; /* the file offset would wrap */
	*vmap = vma;
	return 0;
}

/* MREMAP_FIXED or MREMAP_DONTUNMAP: to new_addr, or where there is room (Linux's mremap_to). */
static long mremap_to(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
		      unsigned long new_addr, unsigned long new_len, unsigned long flags)
{
	struct vm_area_struct *vma;
	long err;

	if (flags & MREMAP_FIXED) {
		if (new_addr & (PAGE_SIZE - 1))
			return -EINVAL;
		if (new_len > STACK_TOP || new_addr > STACK_TOP - new_len)
			return -EINVAL;
		if (addr + old_len > new_addr && new_addr + new_len > addr)
			return -EINVAL; /* the two ranges overlap */
		if (new_addr < MMAP_MIN_ADDR)
			return -EPERM;
		if (do_munmap(mm, new_addr, new_addr + new_len))
			return -ENOMEM;
	}
	if (old_len > new_len) {
		if (do_munmap(mm, addr + new_len, addr + old_len))
			return -ENOMEM;
		old_len = new_len;
	}
	err = vma_to_resize(mm, addr, old_len, new_len, &vma); /* looked up after the unmaps */
	if (err)
		return err;
	if (!(flags & MREMAP_FIXED)) {
		new_addr = new_len > STACK_TOP ? 0 : get_unmapped_area(mm, new_addr, new_len);
		if (!new_addr)
			return -ENOMEM;
	}
	return move_vma(mm, vma, addr, old_len, new_len, new_addr, flags);
}

static long do_mremap(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
		      unsigned long new_len, unsigned long flags, unsigned long new_addr)
{
	struct vm_area_struct *vma;
	long err;

	if (flags & ~(unsigned long)(MREMAP_FIXED | MREMAP_MAYMOVE | MREMAP_DONTUNMAP))
		return -EINVAL;
	if ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE))
		return -EINVAL;
	if ((flags & MREMAP_DONTUNMAP) && (!(flags & MREMAP_MAYMOVE) || old_len != new_len))
		return -EINVAL;
	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	old_len = ALIGN_UP(old_len, PAGE_SIZE); /* as Linux's PAGE_ALIGN, ~0 wraps to 0 */
	new_len = ALIGN_UP(new_len, PAGE_SIZE);
	if (!new_len)
		return -EINVAL;
	vma = find_vma(mm, addr);
	if (!vma || vma->vm_start > addr)
		return -EFAULT;
	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP))
		return mremap_to(mm, addr, old_len, new_addr, new_len, flags);
	/* Smaller, or the same: what lies past new_len goes. */
	if (old_len >= new_len) {
		if (old_len != new_len && do_munmap(mm, addr + new_len, addr + old_len))
			return -ENOMEM;
		return (long)addr;
	}
	err = vma_to_resize(mm, addr, old_len, new_len, &vma);
	if (err)
		return err;
	if (old_len == vma->vm_end - addr && vma_expandable(mm, vma, new_len - old_len)) {
		if (vma->vm_file && vma->vm_file_end == vma->vm_end)
			vma->vm_file_end += new_len - old_len; /* more of the file */
		vma->vm_end += new_len - old_len;
		vma_merge_around(mm, vma);
		return (long)addr;
	}
	if (!(flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	new_addr = new_len > STACK_TOP ? 0 : get_unmapped_area(mm, 0, new_len);
	if (!new_addr)
		return -ENOMEM;
	return move_vma(mm, vma, addr, old_len, new_len, new_addr, flags);
}

long sys_mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
		unsigned long flags, unsigned long new_addr)
{
	struct mm_struct *mm = current->mm;
	unsigned long irq = spin_lock_irqsave(&mm->mmap_lock);
	long ret = do_mremap(mm, addr, old_len, new_len, flags, new_addr);

	spin_unlock_irqrestore(&mm->mmap_lock, irq);
	tlb_finish_mmu(mm); /* the old entries are gone */
	return ret;
}
