/*
 * The vDSO in the kernel (Linux's arch/x86/entry/vdso/vma.c): its pages, and exec mapping them.
 *
 * At boot, vdso_init() copies the image (vdso-image.S: the vdso64.so this folder's C was built
 * into) into pages of its own, and allocates the data page, whose struct vdso_data
 * update_vsyscall() keeps current (kernel/time/vsyscall.c). The kernel holds one reference on
 * each page for ever. exec then maps into every new program, below what is mapped already
 * (top-down, as Linux's get_unmapped_area puts it without randomisation: under ld.so):
 *
 *	[vvar]	VVAR_PAGES, read-only: the data page first, the rest never mapped (SIGBUS)
 *	[vdso]	the image, read and execute, its ELF header first: AT_SYSINFO_EHDR
 *
 * exec makes only the two areas; their pages come at the first touch (vdso_fault, from the
 * page-fault handler, as Linux's special mapping faults them in), so a program that never
 * reads the clock (most short ones under musl) costs no page table for them, and fork leaves
 * them out of the child's tables (kernel/mm/mmap.c's dup_mm): the child faults them in again.
 * Every process maps the same physical pages, each mapping with a reference of its own (so
 * munmap and exit work as for any page). They are never writable in user space: a program
 * that mprotects one writable and writes gets a copy (copy-on-write: the kernel's reference
 * makes the page shared), so no process can change another's; from then on fork copies that
 * area's tables, as any private area's.
 */
#include "arch/x86_64/vdso.h"
#include "arch/x86_64/mmu.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/time/time.h"
#include "lib/elf.h"
#include "lib/errno.h"
#include "lib/string.h"

#define VDSO_MAX_PAGES 4 /* the image is about 2 pages; a larger one would be a build mistake */

static void *vdso_pages[VDSO_MAX_PAGES];
static unsigned long vdso_npages;
static void *vvar_data_page;
struct vdso_data *vdso_data;

void vdso_init(void)
{
	size_t size = (size_t)(vdso_image_end - vdso_image_start);

	/* The build made an ELF image that fits: anything else is a build mistake. */
	BUG_ON(size < sizeof(ELFMAG) || memcmp(vdso_image_start, ELFMAG, sizeof(ELFMAG) - 1));
	vdso_npages = ALIGN_UP(size, PAGE_SIZE) / PAGE_SIZE;
	BUG_ON(vdso_npages > VDSO_MAX_PAGES);
	for (unsigned long i = 0; i < vdso_npages; i++) {
		size_t off = i * PAGE_SIZE;

		vdso_pages[i] = alloc_page_zeroed();
		if (!vdso_pages[i])
			panic("vdso: no memory for its image");
		memcpy(vdso_pages[i], vdso_image_start + off, MIN(size - off, (size_t)PAGE_SIZE));
	}
	vvar_data_page = alloc_page_zeroed();
	if (!vvar_data_page)
		panic("vdso: no memory for its data page");
	vdso_data = (struct vdso_data *)((char *)vvar_data_page + VVAR_VDSO_DATA_OFFSET);
	update_vsyscall(); /* the clocks as they stand, before the first program reads them */
	printk(KERN_INFO "vdso: %lu-byte image, %lu page(s), [vvar] %d page(s)\n",
	       (unsigned long)size, vdso_npages, VVAR_PAGES);
}

int vdso_fault(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long va)
{
	/* vm_pgoff: the area's first page in its mapping, kept right when a cut moves vm_start */
	unsigned long index = vma->vm_pgoff + (va - vma->vm_start) / PAGE_SIZE;
	void *page;

	if (vma->kind == VMA_VVAR)
		page = index == 0 ? vvar_data_page : NULL; /* the rest: pvclock & co., none here */
	else
		page = index < vdso_npages ? vdso_pages[index] : NULL;
	if (!page)
		return VM_FAULT_SIGBUS;
	/* A reference of the mapping's own, as any mapped page holds: munmap and exit drop it. */
	get_page(page);
	if (mmu_user_map(mm->pgd, va, __pa(page), vm_flags_to_mmu(vma->vm_flags) & ~MMU_WRITE)) {
		put_page(page);
		return VM_FAULT_OOM;
	}
	return 0;
}

int arch_setup_additional_pages(struct mm_struct *mm)
{
	unsigned long len = VVAR_SIZE + vdso_npages * PAGE_SIZE;
	unsigned long flags = spin_lock_irqsave(&mm->mmap_lock);
	unsigned long addr = get_unmapped_area(mm, 0, len);
	int err = addr ? 0 : -ENOMEM;

	if (!err)
		err = insert_vma(mm, addr, addr + VVAR_SIZE, VM_READ, VMA_VVAR);
	if (!err)
		err = insert_vma(mm, addr + VVAR_SIZE, addr + len, VM_READ | VM_EXEC, VMA_VDSO);
	if (err && addr)
		do_munmap(mm, addr, addr + len); /* the first area, if the second found no memory */
	else
		mm->vdso = addr + VVAR_SIZE;
	spin_unlock_irqrestore(&mm->mmap_lock, flags);
	return err;
}
