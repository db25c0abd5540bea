/*
 * Kernel stacks with guard pages.
 *
 * A kernel stack that overflows silently overwrites whatever lies below it, and the crash comes
 * much later, far from the cause. So every stack gets an unmapped page below it: the first push
 * past the end faults at once. That fault cannot push its own frame either, so the CPU raises a
 * double fault, which runs on its own IST stack (arch/x86_64/gdt.c) and reports the overflow.
 *
 * Stacks are mapped page by page into a dedicated area, in slots of one guard page plus the
 * stack. A bitmap says which slots are in use.
 */
#include "kernel/mm/kstack.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/locking/spinlock.h"
#include "arch/x86_64/mmu.h"
#include "lib/bitops.h"
#include "lib/compiler.h"

#define STACK_PAGES (KSTACK_SIZE / PAGE_SIZE)
#define SLOT_SIZE (PAGE_SIZE + KSTACK_SIZE) /* guard page + stack */
#define MAX_STACKS KSTACK_MAX

/* The boot CPU's stack: in .bss, so it exists before any allocator does. */
struct boot_stack_area {
	char guard[PAGE_SIZE];
	char stack[KSTACK_SIZE];
};
struct boot_stack_area boot_stack __aligned(PAGE_SIZE);

static unsigned long slot_used[BITS_TO_LONGS(MAX_STACKS)];
static DEFINE_SPINLOCK(kstack_lock);

void boot_stack_guard_init(void)
{
	mmu_unmap_page((uintptr_t)boot_stack.guard);
}

void *boot_stack_base(void)
{
	return boot_stack.stack;
}

/* notrace: the page and double fault handlers ask it, and an oops must not need the tracer. */
notrace bool stack_guard_page(uintptr_t addr)
{
	if (addr >= (uintptr_t)boot_stack.guard && addr < (uintptr_t)boot_stack.stack)
		return true;
	if (addr < KSTACK_AREA || addr >= KSTACK_AREA + (uintptr_t)MAX_STACKS * SLOT_SIZE)
		return false;
	return (addr - KSTACK_AREA) % SLOT_SIZE < PAGE_SIZE;
}

static int slot_take(void)
{
	unsigned long flags = spin_lock_irqsave(&kstack_lock);
	unsigned long slot = find_next_zero_bit(slot_used, MAX_STACKS, 0);

	if (slot < MAX_STACKS)
		__set_bit(slot, slot_used); /* under kstack_lock */
	spin_unlock_irqrestore(&kstack_lock, flags);
	return slot < MAX_STACKS ? (int)slot : -1;
}

static void slot_put(int slot)
{
	unsigned long flags = spin_lock_irqsave(&kstack_lock);
	__clear_bit((unsigned long)slot, slot_used);
	spin_unlock_irqrestore(&kstack_lock, flags);
}

void *kstack_alloc(void)
{
	int slot = slot_take();
	if (slot < 0)
		return NULL;
	uintptr_t base = KSTACK_AREA + (uintptr_t)slot * SLOT_SIZE + PAGE_SIZE;
	for (unsigned long i = 0; i < STACK_PAGES; i++) {
		void *page = alloc_page_zeroed();
		if (!page || mmu_map_page(base + i * PAGE_SIZE, __pa(page), MMU_WRITE)) {
			if (page)
				free_pages(page, 1);
			while (i-- > 0) {
				free_pages(__va(mmu_virt_to_phys(base + i * PAGE_SIZE)), 1);
				mmu_unmap_page(base + i * PAGE_SIZE);
			}
			slot_put(slot);
			return NULL;
		}
	}
	return (void *)base;
}

void kstack_free(void *stack)
{
	uintptr_t base = (uintptr_t)stack;
	uintptr_t phys[STACK_PAGES];
	for (unsigned long i = 0; i < STACK_PAGES; i++) {
		phys[i] = mmu_virt_to_phys(base + i * PAGE_SIZE);
		mmu_unmap_page(base + i * PAGE_SIZE);
	}
	/* Every CPU must forget the old mapping before the pages or the slot can be reused. */
	flush_tlb_kernel_range(base, base + KSTACK_SIZE);
	for (unsigned long i = 0; i < STACK_PAGES; i++)
		free_pages(__va(phys[i]), 1);
	slot_put((int)((base - PAGE_SIZE - KSTACK_AREA) / SLOT_SIZE));
}
