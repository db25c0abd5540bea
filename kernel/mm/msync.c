/*
 * msync: write a shared file mapping's changes back to the file (Linux's mm/msync.c).
 *
 * In Lucid a shared mapping of a file maps the file's own pages (kernel/mm/mmap_file.c): a
 * write through it is in the file at once, for read() and every other mapping, and ramfs has
 * no disk to write to. So MS_SYNC, MS_ASYNC and MS_INVALIDATE have nothing left to do; what
 * msync still does is Linux's checking: EINVAL for unknown flags, MS_SYNC with MS_ASYNC or an
 * unaligned start; ENOMEM for a range that wraps, or if part of the range is in no area (after
 * doing the rest, as Linux; MS_ASYNC alone stops at the first hole).
 */
#include "kernel/mm/mm.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/mmu.h"
#include "lib/errno.h"

#define MS_ASYNC 1 /* Linux's values */
#define MS_INVALIDATE 2
#define MS_SYNC 4

long sys_msync(unsigned long start, size_t len, int flags)
{
	struct mm_struct *mm = current->mm;
	unsigned long end, irq;
	struct vm_area_struct *vma;
	long err = 0;

	if (flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC))
		return -EINVAL;
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;
	if ((flags & MS_ASYNC) && (flags & MS_SYNC))
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	end = start + len;
	if (end < start)
		return -ENOMEM; /* Linux's answer for a range that wraps */
	if (end == start)
		return 0;
	irq = spin_lock_irqsave(&mm->mmap_lock);
	for (vma = find_vma(mm, start);; vma = find_vma(mm, start)) {
		if (!vma) {
			err = -ENOMEM; /* the rest of the range is in no area */
			break;
		}
		if (start < vma->vm_start) { /* a hole before this area */
			if (flags == MS_ASYNC || vma->vm_start >= end) {
				err = -ENOMEM;
				break;
			}
			err = -ENOMEM; /* told at the end, once the rest is done */
		}
		start = vma->vm_end; /* its pages are the file's already: nothing to write */
		if (start >= end)
			break;
	}
	spin_unlock_irqrestore(&mm->mmap_lock, irq);
	return err;
}
