/*
 * The physical page allocator.
 *
 * Each 4 KiB page of RAM has a struct page (page_alloc.h) in one array, indexed by page frame
 * number. A page is free when its flags are 0. Allocation is first fit: scan from a moving hint
 * for n free pages in a row. That is O(pages) in the worst case, far from Linux's buddy
 * allocator, but it is short, obviously correct, and Lucid's 256 MiB is only 65536 pages.
 *
 * At boot every page starts reserved; then the usable RAM regions GRUB reported are freed,
 * except the first MiB (firmware, and where the other CPUs start), the kernel image, the
 * initramfs GRUB loaded (kernel/fs/initramfs.c unpacks it later) and the struct page array itself.
 */
#include "kernel/mm/page_alloc.h"
#include "kernel/debug/fault_inject.h"
#include "arch/x86_64/multiboot2.h"
#include "kernel/locking/spinlock.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/page_64.h"
#include "lib/string.h"
#include "trace/events/kmem.h"

#define LOW_MEMORY_END (1UL << 20) /* below 1 MiB: BIOS data, and the AP trampoline */

static struct page *pages; /* one per page frame below max_pfn */
/* The same, where the kmem events' format files say Linux's is (Linux's name). */
unsigned long vmemmap_base;
static size_t max_pfn;
static size_t free_count, total_count;
static size_t search_hint;
/* Taken with the untraced __raw_ forms, as the notrace functions below are (spinlock.h). */
static DEFINE_SPINLOCK(page_lock);

static bool usable(const struct mem_region *r)
{
	return r->type == MEM_REGION_USABLE;
}

void page_alloc_init(const struct boot_info *bi)
{
	uintptr_t image_end = ALIGN_UP(__pa(_end), PAGE_SIZE);
	uintptr_t initrd_lo = ALIGN_DOWN(bi->initrd_start, PAGE_SIZE);
	uintptr_t initrd_hi = ALIGN_UP(bi->initrd_end, PAGE_SIZE);
	/* The page array goes after both the image and the initramfs (GRUB puts it after us). */
	uintptr_t used_end = MAX(image_end, initrd_hi);

	for (int i = 0; i < bi->nr_regions; i++) {
		const struct mem_region *r = &bi->regions[i];
		uint64_t end = MIN(r->base + r->len, (uint64_t)DIRECT_MAP_SIZE);
		if (usable(r) && end > r->base && end / PAGE_SIZE > max_pfn)
			max_pfn = end / PAGE_SIZE;
	}

	/* Put the struct page array in the first usable RAM after the kernel image. */
	size_t array_bytes = ALIGN_UP(max_pfn * sizeof(struct page), PAGE_SIZE);
	uintptr_t array_pa = 0;
	for (int i = 0; i < bi->nr_regions && !array_pa; i++) {
		const struct mem_region *r = &bi->regions[i];
		uintptr_t start = ALIGN_UP(MAX(r->base, (uint64_t)used_end), PAGE_SIZE);
		if (usable(r) &&
		    start + array_bytes <= MIN(r->base + r->len, (uint64_t)DIRECT_MAP_SIZE))
			array_pa = start;
	}
	if (!array_pa)
		panic("page_alloc: no room for the page array");
	pages = __va(array_pa);
	vmemmap_base = (unsigned long)pages;
	for (size_t pfn = 0; pfn < max_pfn; pfn++)
		pages[pfn] = (struct page){.flags = PG_RESERVED};

	for (int i = 0; i < bi->nr_regions; i++) {
		const struct mem_region *r = &bi->regions[i];
		if (!usable(r))
			continue;
		uintptr_t start = ALIGN_UP(r->base, PAGE_SIZE);
		uintptr_t end =
			ALIGN_DOWN(MIN(r->base + r->len, (uint64_t)max_pfn * PAGE_SIZE), PAGE_SIZE);
		for (uintptr_t pa = start; pa < end; pa += PAGE_SIZE) {
			bool in_image = pa < image_end;
			bool in_array = pa >= array_pa && pa < array_pa + array_bytes;
			bool in_initrd = pa >= initrd_lo && pa < initrd_hi;
			if (pa < LOW_MEMORY_END || in_image || in_array || in_initrd)
				continue;
			pages[pa / PAGE_SIZE].flags = 0;
			free_count++;
		}
	}
	total_count = free_count;
	search_hint = LOW_MEMORY_END / PAGE_SIZE;
}

static bool run_is_free(size_t pfn, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (pages[pfn + i].flags)
			return false;
	return true;
}

/* First fit, starting at the hint and wrapping around, so freed pages get reused. */
static long find_free_run(size_t n)
{
	for (size_t k = 0; k < max_pfn; k++) {
		size_t pfn = (search_hint + k) % max_pfn;
		if (pfn + n <= max_pfn && run_is_free(pfn, n))
			return (long)pfn;
	}
	return -1;
}

DEFINE_TRACE(mm_page_alloc); /* trace/events/kmem.h */
DEFINE_TRACE(mm_page_free);

/* The order of a run of n pages, for the events: the power of two that covers it. */
static notrace unsigned int run_order(size_t n)
{
	unsigned int order = 0;

	while ((1UL << order) < n)
		order++;
	return order;
}

/*
 * notrace, here and below: mmu.c builds its page tables with these, and mmu.c is not traced
 * (text_poke maps pages through it while it rewrites call sites: no traced call may run then).
 */
notrace void *alloc_pages(size_t n)
{
	if (n == 0)
		return NULL;
	if (should_fail_alloc_page()) /* kernel/debug/fault_inject.c */
		return NULL;
	unsigned long flags = __raw_spin_lock_irqsave(&page_lock);
	long pfn = free_count >= n ? find_free_run(n) : -1;
	if (pfn >= 0) {
		for (size_t i = 0; i < n; i++)
			pages[pfn + i] = (struct page){.flags = PG_ALLOCATED};
		pages[pfn].flags |= PG_HEAD;
		pages[pfn].nr_pages = n;
		pages[pfn]._refcount = 1;
		free_count -= n;
		search_hint = pfn + n;
	}
	__raw_spin_unlock_irqrestore(&page_lock, flags);
	trace_mm_page_alloc(pfn >= 0 ? (unsigned long)pfn : -1UL, run_order(n), GFP_KERNEL,
			    MIGRATE_UNMOVABLE);
	return pfn >= 0 ? __va((uintptr_t)pfn * PAGE_SIZE) : NULL;
}

notrace void *alloc_page_zeroed(void)
{
	void *p = alloc_pages(1);
	if (p)
		clear_page(p);
	return p;
}

notrace void free_pages(void *va, size_t n)
{
	if (!va)
		return;
	size_t pfn = __pa(va) / PAGE_SIZE;
	trace_mm_page_free(pfn, run_order(n));
	unsigned long flags = __raw_spin_lock_irqsave(&page_lock);
	for (size_t i = 0; i < n; i++) {
		BUG_ON(pfn + i >= max_pfn || !(pages[pfn + i].flags & PG_ALLOCATED));
		pages[pfn + i] = (struct page){0};
	}
	free_count += n;
	__raw_spin_unlock_irqrestore(&page_lock, flags);
}

notrace struct page *virt_to_page(const void *va)
{
	return &pages[__pa(va) / PAGE_SIZE];
}

/*
 * Atomic, without page_lock: two processes sharing a page may fault or exit on two CPUs at
 * once. Only the one that drops the last reference frees it.
 */
notrace void get_page(void *va)
{
	__atomic_add_fetch(&virt_to_page(va)->_refcount, 1, __ATOMIC_RELAXED);
}

notrace void put_page(void *va)
{
	struct page *pg = virt_to_page(va);

	BUG_ON(!pg->_refcount);
	/* put_page_testzero's work inline: exit calls this for every page */
	if (__atomic_sub_fetch(&pg->_refcount, 1, __ATOMIC_ACQ_REL) == 0)
		free_pages(va, 1);
}

notrace bool put_page_testzero(void *va)
{
	struct page *pg = virt_to_page(va);

	BUG_ON(!pg->_refcount);
	return __atomic_sub_fetch(&pg->_refcount, 1, __ATOMIC_ACQ_REL) == 0;
}

void *page_to_virt(struct page *page)
{
	return __va((uintptr_t)(page - pages) * PAGE_SIZE);
}

notrace unsigned int page_count(void *va)
{
	return __atomic_load_n(&virt_to_page(va)->_refcount, __ATOMIC_ACQUIRE);
}

size_t nr_free_pages(void)
{
	return free_count;
}

size_t nr_total_pages(void)
{
	return total_count;
}
