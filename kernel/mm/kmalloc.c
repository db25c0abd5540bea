/*
 * kmalloc: small objects carved out of pages, in the style of a simple slab allocator.
 *
 * Requests up to 2 KiB are rounded up to a power-of-two size class. Each class keeps a list of
 * its "partial" pages: slab pages with at least one free object. A slab page keeps its own free
 * list and a count of objects in use (in its struct page), so kfree finds everything it needs
 * from the address alone, and a page whose last object is freed goes straight back to the page
 * allocator: memory use returns to where it started when everything is freed.
 *
 * Larger requests take whole pages (so a 4096-byte kmalloc is page aligned, which the ring
 * buffer relies on).
 */
#include "kernel/mm/kmalloc.h"
#include "kernel/debug/fault_inject.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/sched/spinlock.h"
#include "arch/x86_64/mmu.h"
#include "lib/alloc.h"
#include "lib/list.h"
#include "lib/string.h"

#define MIN_CLASS_SHIFT 4 /* 16 bytes: two pointers, the smallest useful object */
#define NR_CLASSES 8      /* 16, 32, ..., 2048 */
#define MAX_SLAB_SIZE (1UL << (MIN_CLASS_SHIFT + NR_CLASSES - 1))

struct free_object {
	struct free_object *next;
};

static struct list_head partial[NR_CLASSES];
static DEFINE_SPINLOCK(kmalloc_lock);
static bool kmalloc_ready;

static int size_class(size_t size)
{
	int c = 0;
	while ((1UL << (MIN_CLASS_SHIFT + c)) < size)
		c++;
	return c;
}

static size_t class_size(int c)
{
	return 1UL << (MIN_CLASS_SHIFT + c);
}

/* A fresh page for class c, cut into objects threaded on its free list. */
static struct page *new_slab(int c)
{
	char *mem = alloc_pages(1);
	if (!mem)
		return NULL;
	struct page *pg = virt_to_page(mem);
	pg->flags |= PG_SLAB;
	pg->slab_class = c;
	pg->inuse = 0;
	pg->freelist = NULL;
	for (size_t off = PAGE_SIZE; off >= class_size(c); off -= class_size(c)) {
		struct free_object *o = (struct free_object *)(mem + off - class_size(c));
		o->next = pg->freelist;
		pg->freelist = o;
	}
	list_add(&pg->lru, &partial[c]);
	return pg;
}

static void *slab_alloc(int c)
{
	unsigned long flags = spin_lock_irqsave(&kmalloc_lock);
	struct page *pg = list_empty(&partial[c]) ? new_slab(c)
						  : list_first_entry(&partial[c], struct page, lru);
	struct free_object *o = NULL;
	if (pg) {
		o = pg->freelist;
		pg->freelist = o->next;
		pg->inuse++;
		if (!pg->freelist)
			list_del_init(&pg->lru); /* full: off the partial list */
	}
	spin_unlock_irqrestore(&kmalloc_lock, flags);
	return o;
}

static void slab_free(struct page *pg, void *p)
{
	unsigned long flags = spin_lock_irqsave(&kmalloc_lock);
	struct free_object *o = p;
	if (!pg->freelist)
		list_add(&pg->lru, &partial[pg->slab_class]); /* was full: usable again */
	o->next = pg->freelist;
	pg->freelist = o;
	if (--pg->inuse == 0) {
		list_del_init(&pg->lru);
		pg->flags &= ~PG_SLAB;
		spin_unlock_irqrestore(&kmalloc_lock, flags);
		free_pages((char *)p - ((uintptr_t)p & (PAGE_SIZE - 1)), 1);
		return;
	}
	spin_unlock_irqrestore(&kmalloc_lock, flags);
}

void *kmalloc(size_t size)
{
	if (!kmalloc_ready) {
		for (int c = 0; c < NR_CLASSES; c++)
			INIT_LIST_HEAD(&partial[c]);
		kmalloc_ready = true;
	}
	if (should_failslab()) /* kernel/debug/fault_inject.c */
		return NULL;
	if (size == 0)
		size = 1;
	if (size > MAX_SLAB_SIZE)
		return alloc_pages(ALIGN_UP(size, PAGE_SIZE) / PAGE_SIZE);
	return slab_alloc(size_class(size));
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);
	if (p)
		memset(p, 0, size);
	return p;
}

static size_t ksize(const void *p)
{
	struct page *pg = virt_to_page(p);
	if (pg->flags & PG_SLAB)
		return class_size(pg->slab_class);
	return pg->nr_pages * PAGE_SIZE;
}

void kfree(void *p)
{
	if (!p)
		return;
	struct page *pg = virt_to_page(p);
	if (pg->flags & PG_SLAB)
		slab_free(pg, p);
	else
		free_pages(p, pg->nr_pages);
}

void *krealloc(void *p, size_t size)
{
	if (!p)
		return kmalloc(size);
	size_t old = ksize(p);
	if (size <= old)
		return p;
	void *n = kmalloc(size);
	if (!n)
		return NULL;
	memcpy(n, p, old);
	kfree(p);
	return n;
}

char *kstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = kmalloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

/*
 * lib/'s allocator (lib/alloc.h): lib/ includes nothing of the kernel's and allocates through
 * these. notrace: thin wrappers, a trace shows the kmalloc or kfree they call.
 */
notrace void *lib_alloc(size_t size)
{
	return kmalloc(size);
}

notrace void *lib_realloc(void *p, size_t size)
{
	return krealloc(p, size);
}

notrace void lib_free(void *p)
{
	kfree(p);
}
