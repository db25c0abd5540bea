/*
 * mmu_gather: freeing the pages an unmap takes away only once no CPU can reach them (Linux's
 * mm/mmu_gather.c, tlb_gather_mmu / tlb_finish_mmu, much smaller).
 *
 * A CPU caches translations in its TLB, and the paging-structure caches hold the page tables
 * it walked. Clearing an entry in memory does not reach them: each CPU must flush its own.
 * The threads of one process run on several CPUs at once with the same tables, so after an
 * munmap, madvise(MADV_DONTNEED), brk shrink, mremap or a copy-on-write fault on one CPU,
 * another may still read and write the old page through its TLB. If the page were freed and
 * reused at that moment (by another process, the kernel, a page table) that thread would
 * read someone else's data, or write into it. So the order is Linux's:
 *
 *   1. under mmap_lock: clear the entries (this CPU invlpg's each), and put each page whose
 *      last entry that was on mm->tlb, this batch, instead of freeing it (tlb_remove_page;
 *      tlb_remove_table for an emptied page table);
 *   2. drop mmap_lock, and flush every CPU that has mm loaded (flush_tlb_mm_range, an IPI
 *      that waits for all of them: on_each_cpu);
 *   3. free the batch (tlb_finish_mmu).
 *
 * Step 2 cannot come under the lock, as Linux's does: Lucid's mmap_lock is a spinlock taken
 * with interrupts off (the fault handler takes it), and a CPU spinning for it would never take
 * the IPI we wait for. So the batch hangs on the mm, under mmap_lock, not on the caller's
 * stack as Linux's: a thread that finishes takes everything gathered so far, its own pages and
 * those of another thread that unmapped meanwhile, and that is safe, as every page on the list
 * lost its entry before it was added, hence before the flush that follows the take. A change
 * whose caller never finishes (an error path) only keeps its pages a little longer: the next
 * finish or the mm's end (mmput: loaded nowhere then) frees them. A copy-on-write fault
 * finishes in the fault handler (arch/x86_64/traps.c), interrupts on: the other threads must
 * not go on reading the old page after the write to the copy.
 *
 * Where no other CPU can run the mm, a page is freed at once (tlb_free_now): its only user
 * unmapping in it (a program without threads: the invlpg above was the whole flush), or the
 * mm's teardown (Linux's fullmm). That keeps munmap, brk and exit as cheap as they were.
 *
 * Checked (boot option debug_vm, a static key: no cost without it): each CPU notes which
 * tables it loaded and up to which tlb_gen it has flushed them; tlb_finish_mmu, before it
 * frees, asserts that no other CPU has the tables loaded from before the last entry went.
 * The old order (free first, flush after) fails it whenever another thread of the process
 * runs (tests/qemu/kernel/test_mmu_gather.py).
 */
#include "kernel/mm/mmu_gather.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/cmdline.h"
#include "kernel/jump_label.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/mmu.h"

DEFINE_STATIC_KEY_FALSE(debug_vm_tlb);
static void tlb_check_flushed(struct mm_struct *mm, uint64_t gen);

/* What each CPU's TLB may hold: the tables it loaded (cr3, 0 while changing), flushed at gen. */
static struct {
	uintptr_t cr3;
	uint64_t gen;
} cpu_tlbstate[NR_CPUS];

void tlb_gather_mmu(struct mmu_gather *tlb)
{
	INIT_LIST_HEAD(&tlb->pages);
	tlb->tlb_gen = 0;
	tlb->flush_pending = false;
	tlb->fullmm = false;
}

/*
 * May the page go at once? When the whole mm goes (loaded nowhere), or when the caller is its
 * only user, running in it: then no other CPU runs it (one that did dropped its translations
 * at its next CR3 load), and this CPU invlpg'd the page already. The count cannot grow
 * meanwhile: only a clone by that user, who is here, could make another.
 */
static bool tlb_free_now(struct mmu_gather *tlb)
{
	struct mm_struct *mm = container_of(tlb, struct mm_struct, tlb);

	return tlb->fullmm ||
	       (current->mm == mm && __atomic_load_n(&mm->mm_users, __ATOMIC_RELAXED) == 1);
}

/* The fast path's page: debug_vm checks that no other CPU has the tables loaded even so. */
static void tlb_free_page_now(struct mmu_gather *tlb, void *page)
{
	if (static_branch_unlikely(&debug_vm_tlb) && !tlb->fullmm)
		tlb_check_flushed(container_of(tlb, struct mm_struct, tlb), tlb->tlb_gen + 1);
	free_pages(page, 1);
}

/* An entry went: the next finish must flush; the debug check's generation moves on. */
static void tlb_note_unmap(struct mmu_gather *tlb)
{
	tlb->flush_pending = true;
	if (static_branch_unlikely(&debug_vm_tlb))
		__atomic_add_fetch(&tlb->tlb_gen, 1, __ATOMIC_RELEASE);
}

static void tlb_gather_page(struct mmu_gather *tlb, void *va)
{
	list_add_tail(&virt_to_page(va)->lru, &tlb->pages);
}

void __tlb_remove_page(struct mmu_gather *tlb, void *page)
{
	if (tlb_free_now(tlb)) {
		if (put_page_testzero(page))
			tlb_free_page_now(tlb, page);
		return;
	}
	tlb_note_unmap(tlb);
	if (put_page_testzero(page)) /* the last entry: another process's may still be mapped */
		tlb_gather_page(tlb, page);
}

void __tlb_remove_table(struct mmu_gather *tlb, void *table)
{
	if (tlb_free_now(tlb)) {
		tlb_free_page_now(tlb, table);
		return;
	}
	tlb_note_unmap(tlb);
	tlb_gather_page(tlb, table);
}

/* Frees what was taken off a batch: every page on the list has no entry and no TLB entry. */
static void tlb_free_list(struct list_head *pages)
{
	struct page *pg, *next;

	list_for_each_entry_safe(pg, next, pages, lru)
	{
		list_del(&pg->lru);
		free_pages(page_to_virt(pg), 1);
	}
}

void tlb_free_gathered(struct mmu_gather *tlb)
{
	tlb_free_list(&tlb->pages);
}

notrace void tlb_switch_mm_debug(struct mm_struct *mm)
{
	uintptr_t cr3 = mm ? __pa(mm->pgd) : mmu_kernel_cr3();
	int me = this_cpu()->id;

	if (read_cr3() == cr3)
		return; /* already loaded: nothing changes in the TLB */

	/* cr3 0 first: a checker reading in between sees no tables, not the new gen with the old */
	__atomic_store_n(&cpu_tlbstate[me].cr3, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&cpu_tlbstate[me].gen,
			 mm ? __atomic_load_n(&mm->tlb.tlb_gen, __ATOMIC_ACQUIRE) : 0,
			 __ATOMIC_RELEASE);
	__atomic_store_n(&cpu_tlbstate[me].cr3, mm ? __pa(mm->pgd) : 0, __ATOMIC_RELEASE);
	write_cr3(cr3);
}

/* The IPI: a CPU with mm's tables loaded forgets every user translation (a CR3 reload). */
static void flush_tlb_func(void *info)
{
	struct mm_struct *mm = info;

	if (read_cr3() != __pa(mm->pgd))
		return; /* not loaded: its next load of them starts with an empty TLB */
	uint64_t gen = __atomic_load_n(&mm->tlb.tlb_gen, __ATOMIC_ACQUIRE); /* before the flush */
	mmu_flush_user();
	if (static_branch_unlikely(&debug_vm_tlb))
		__atomic_store_n(&cpu_tlbstate[this_cpu()->id].gen, gen, __ATOMIC_RELEASE);
}

/*
 * Linux flushes the range page by page when it is short; an IPI costs far more than the
 * flush itself, and a CR3 reload is one instruction, so Lucid's handler reloads CR3 always.
 * One user, and it is us (no thread, no vfork child in it): no other CPU runs it. Another
 * process's mm (a truncation of a file it maps) may run elsewhere though, thread or not.
 * This CPU too (on_each_cpu): the caller invlpg'd each entry on the CPU it ran on then, and may
 * have moved since onto one where a sibling thread left translations of its own.
 */
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	(void)start;
	(void)end;
	if (__atomic_load_n(&mm->mm_users, __ATOMIC_RELAXED) > 1 || current->mm != mm)
		on_each_cpu(flush_tlb_func, mm);
}

/* debug_vm: no CPU but this one may hold mm's tables from before generation gen. */
static void tlb_check_flushed(struct mm_struct *mm, uint64_t gen)
{
	uintptr_t pgd = __pa(mm->pgd);
	int me = this_cpu()->id;

	for (int cpu = 0; cpu < num_online_cpus(); cpu++) {
		uintptr_t cr3 = __atomic_load_n(&cpu_tlbstate[cpu].cr3, __ATOMIC_ACQUIRE);
		uint64_t seen = __atomic_load_n(&cpu_tlbstate[cpu].gen, __ATOMIC_ACQUIRE);

		if (cpu == me || cr3 != pgd ||
		    __atomic_load_n(&cpu_tlbstate[cpu].cr3, __ATOMIC_ACQUIRE) != cr3)
			continue; /* this CPU invlpg'd each page itself; the others: not loaded */
		if (seen < gen) {
			pr_err("mmu_gather: freeing pages CPU %d may still reach (gen %llu < "
			       "%llu)\n",
			       cpu, (unsigned long long)seen, (unsigned long long)gen);
			WARN_ON_ONCE(1);
		}
	}
}

void tlb_finish_mmu(struct mm_struct *mm)
{
	LIST_HEAD(pages);
	uint64_t gen = 0;

	/*
	 * Nothing gathered or unmapped (read unlocked: what this thread did under the lock it
	 * sees; another thread's, that one finishes itself): the flush alone.
	 */
	if (tlb_needs_finish(&mm->tlb)) {
		unsigned long flags = spin_lock_irqsave(&mm->mmap_lock);

		list_splice_init(&mm->tlb.pages, &pages);
		gen = mm->tlb.tlb_gen;
		mm->tlb.flush_pending = false;
		spin_unlock_irqrestore(&mm->mmap_lock, flags);
	}
	flush_tlb_mm_range(mm, 0, TASK_SIZE_MAX);
	if (list_empty(&pages))
		return;
	if (static_branch_unlikely(&debug_vm_tlb))
		tlb_check_flushed(mm, gen);
	tlb_free_list(&pages);
}

void tlb_debug_init(void)
{
	if (cmdline_has("debug_vm"))
		static_branch_enable(&debug_vm_tlb);
}
