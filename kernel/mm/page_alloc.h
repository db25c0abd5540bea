/* The physical page allocator (kernel/mm/page_alloc.c). */
#ifndef KERNEL_PAGE_ALLOC_H
#define KERNEL_PAGE_ALLOC_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "lib/list.h"

struct boot_info;

/* What the kernel knows about each physical page, as Linux's struct page (much smaller). */
struct page {
	uint16_t flags;
	uint16_t slab_class; /* kmalloc size class, for a slab page */
	uint16_t inuse;      /* objects handed out from this slab page */
	uint16_t _refcount;  /* a user page: the page tables that map it (copy-on-write fork) */
	uint32_t nr_pages;   /* pages in this allocation, on its first page */
	void *freelist;      /* free objects of this slab page */
	struct list_head lru; /* on its size class's list of partly used slab pages */
};

#define PG_RESERVED 0x1 /* never allocatable: firmware, the kernel image */
#define PG_ALLOCATED 0x2
#define PG_SLAB 0x4
#define PG_HEAD 0x8     /* first page of an allocation */

/* The struct page array's address (Linux's name: its kmem events' format files use it). */
extern unsigned long vmemmap_base;

void page_alloc_init(const struct boot_info *bi);
/* n contiguous pages, as a direct-map address; NULL when out of memory. */
void *alloc_pages(size_t n);
void *alloc_page_zeroed(void);
void free_pages(void *va, size_t n);
struct page *virt_to_page(const void *va);

/*
 * A user page's references, one per page table entry that maps it (Linux's page refcount,
 * simplified): fork shares a page and takes a reference (get_page); an unmap drops one
 * (put_page), and the last one frees the page. A page fresh from alloc_pages has one.
 */
void get_page(void *va);
void put_page(void *va);
/* put_page's first half: true when that was the last reference, and the page is the caller's
 * to free (mmu_gather frees it once no TLB reaches it, kernel/mm/mmu_gather.c). */
bool put_page_testzero(void *va);
void *page_to_virt(struct page *page);
unsigned int page_count(void *va);

size_t nr_free_pages(void);
size_t nr_total_pages(void);

#endif
