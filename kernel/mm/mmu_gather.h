/*
 * mmu_gather: pages unmapped now, freed only once no CPU can reach them through its TLB
 * (kernel/mm/mmu_gather.c explains the order; Linux's include/asm-generic/tlb.h).
 */
#ifndef KERNEL_MM_MMU_GATHER_H
#define KERNEL_MM_MMU_GATHER_H

#include <stdint.h>
#include <stdbool.h>
#include "lib/list.h"
#include "kernel/jump_label.h"
#include "kernel/mm/page_alloc.h"

struct mm_struct;

/*
 * The batch of one address space (mm->tlb), under its mmap_lock: the pages and page tables
 * whose last entry went, waiting for tlb_finish_mmu to flush every CPU and free them.
 */
struct mmu_gather {
	struct list_head pages; /* their struct page lru: user pages and tables alike */
	/*
	 * Bumped each time an entry goes (under mmap_lock): a CPU that loaded the tables or
	 * flushed them at this generation or later cannot hold a translation removed before.
	 * Read by the debug check alone (debug_vm).
	 */
	uint64_t tlb_gen;
	/*
	 * An entry went or changed page since the last finish, on the slow path (another CPU
	 * may run the mm): set before anything is gathered, so that a check of it alone
	 * (tlb_needs_finish; a copy-on-write's, VM_FAULT_TLB_FINISH) sees both.
	 */
	bool flush_pending;
	/*
	 * Linux's fullmm: the whole address space goes (mmput), loaded on no CPU, so each page
	 * is freed at once.
	 */
	bool fullmm;
};

void tlb_gather_mmu(struct mmu_gather *tlb); /* an empty batch (mm_alloc, dup_mm) */
/*
 * A user page's entry is gone (mmap_lock held, this CPU's TLB flushed of it): the entry's
 * reference goes, and if it was the last, the page waits in the batch instead of being freed.
 */
void __tlb_remove_page(struct mmu_gather *tlb, void *page);
static inline void tlb_remove_page(struct mmu_gather *tlb, void *page)
{
	if (tlb->fullmm)
		put_page(page); /* the teardown: loaded nowhere, freed at once (exit's hot path) */
	else
		__tlb_remove_page(tlb, page);
}
/* A page table emptied and unhooked (mmap_lock held): freed with the batch, as Linux's. */
void __tlb_remove_table(struct mmu_gather *tlb, void *table);
static inline void tlb_remove_table(struct mmu_gather *tlb, void *table)
{
	if (tlb->fullmm)
		free_pages(table, 1);
	else
		__tlb_remove_table(tlb, table);
}
/*
 * After the change, mmap_lock dropped (the flush's IPIs need interrupts on, and a CPU
 * spinning on the lock has them off): every CPU running mm forgets its translations
 * (flush_tlb_mm_range), then the gathered pages are freed.
 */
void tlb_finish_mmu(struct mm_struct *mm);
/* Something to finish: an entry went, or pages wait (read without the lock). */
static inline bool tlb_needs_finish(struct mmu_gather *tlb)
{
	return READ_ONCE(tlb->flush_pending);
}
/* The last user is gone and mm is loaded nowhere: its batch is freed without a flush. */
void tlb_free_gathered(struct mmu_gather *tlb);
/* Every CPU that has mm loaded drops its user translations. */
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end);
/* The boot option debug_vm: the check below is on (a NOP on the hot paths while off). */
DECLARE_STATIC_KEY_FALSE(debug_vm_tlb);
/* switch_mm with debug_vm on: notes what this CPU loads for the check, then loads it. */
void tlb_switch_mm_debug(struct mm_struct *mm);
/* The boot option debug_vm turns the check on (kernel_init). */
void tlb_debug_init(void);

#endif
