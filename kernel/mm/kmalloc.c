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
#include "kernel/locking/spinlock.h"
#include "arch/x86_64/mmu.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/vfs.h"
#include "lib/printf.h"
#include "lib/list.h"
#include "lib/string.h"
#include "trace/events/kmem.h"

#define MIN_CLASS_SHIFT 4 /* 16 bytes: two pointers, the smallest useful object */
#define NR_CLASSES 8      /* 16, 32, ..., 2048 */
#define MAX_SLAB_SIZE (1UL << (MIN_CLASS_SHIFT + NR_CLASSES - 1))

struct free_object {
	struct free_object *next;
};

static struct list_head partial[NR_CLASSES];
static DEFINE_SPINLOCK(kmalloc_lock);
/* /proc/slabinfo's counts, under kmalloc_lock: objects handed out, and slab pages, per class. */
static unsigned long active_objs[NR_CLASSES], nr_slabs[NR_CLASSES];
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
	nr_slabs[c]++;
	return pg;
}

/* A block of size class c for kmalloc(req) at caller (the kmalloc event's call_site). */
static __always_inline void *slab_alloc(int c, size_t req, unsigned long caller)
{
	unsigned long flags = spin_lock_irqsave(&kmalloc_lock);
	struct page *pg = list_empty(&partial[c]) ? new_slab(c)
						  : list_first_entry(&partial[c], struct page, lru);
	struct free_object *o = NULL;
	if (pg) {
		o = pg->freelist;
		pg->freelist = o->next;
		pg->inuse++;
		active_objs[c]++;
		if (!pg->freelist)
			list_del_init(&pg->lru); /* full: off the partial list */
	}
	spin_unlock_irqrestore(&kmalloc_lock, flags);
	trace_kmalloc(caller, o, req, o ? class_size(c) : 0, GFP_KERNEL, NUMA_NO_NODE);
	return o;
}

/*
 * noinline: inlined, it makes kfree big enough for gcc to split it into kfree and kfree.part.0,
 * and a function graph then shows two calls for one (the lock calls made both functions small).
 */
static noinline void slab_free(struct page *pg, void *p)
{
	unsigned long flags = spin_lock_irqsave(&kmalloc_lock);
	struct free_object *o = p;
	if (!pg->freelist)
		list_add(&pg->lru, &partial[pg->slab_class]); /* was full: usable again */
	o->next = pg->freelist;
	pg->freelist = o;
	active_objs[pg->slab_class]--;
	if (--pg->inuse == 0) {
		nr_slabs[pg->slab_class]--;
		list_del_init(&pg->lru);
		pg->flags &= ~PG_SLAB;
		spin_unlock_irqrestore(&kmalloc_lock, flags);
		free_pages((char *)p - ((uintptr_t)p & (PAGE_SIZE - 1)), 1);
		return;
	}
	spin_unlock_irqrestore(&kmalloc_lock, flags);
}

DEFINE_TRACE(kmalloc); /* trace/events/kmem.h */
DEFINE_TRACE(kfree);

/* The size of p's block: its size class's, or its pages'. */
static size_t ksize(const void *p)
{
	struct page *pg = virt_to_page(p);
	if (pg->flags & PG_SLAB)
		return class_size(pg->slab_class);
	return pg->nr_pages * PAGE_SIZE;
}

/* Whole pages, for a request bigger than any slab's objects. */
static __always_inline void *kmalloc_large(size_t size, unsigned long caller)
{
	void *p = alloc_pages(ALIGN_UP(size, PAGE_SIZE) / PAGE_SIZE);

	trace_kmalloc(caller, p, size, p ? ALIGN_UP(size, PAGE_SIZE) : 0, GFP_KERNEL, NUMA_NO_NODE);
	return p;
}

/*
 * kmalloc for the code at caller (the kmalloc event's call_site). The event is recorded where
 * the block is known (slab_alloc, kmalloc_large), so that kmalloc stays a tail call.
 */
static __always_inline void *__kmalloc(size_t size, unsigned long caller)
{
	if (!kmalloc_ready) {
		for (int c = 0; c < NR_CLASSES; c++)
			INIT_LIST_HEAD(&partial[c]);
		kmalloc_ready = true;
	}
	if (should_failslab()) { /* kernel/debug/fault_inject.c */
		trace_kmalloc(caller, NULL, size, 0, GFP_KERNEL, NUMA_NO_NODE);
		return NULL;
	}
	if (size > MAX_SLAB_SIZE)
		return kmalloc_large(size, caller);
	return slab_alloc(size_class(size ? size : 1), size, caller);
}

void *kmalloc(size_t size)
{
	return __kmalloc(size, _RET_IP_);
}

void *kzalloc(size_t size)
{
	void *p = __kmalloc(size, _RET_IP_);
	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(void *p)
{
	trace_kfree(_RET_IP_, p);
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
 * /proc/slabinfo, Linux's version 2.1: one line per size class (Linux's kmalloc-N caches),
 * biggest first as Linux lists them. Objects in use and slab pages, exactly: a leak of even one
 * small object shows here, where MemFree would only see a whole page. Lucid has no per-CPU
 * caches, so the tunables are 0.
 */
static int slabinfo_show(struct seq_file *m, void *v)
{
	(void)v;
	seq_puts(m, "slabinfo - version: 2.1\n"
		    "# name            <active_objs> <num_objs> <objsize> <objperslab> "
		    "<pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata "
		    "<active_slabs> <num_slabs> <sharedavail>\n");
	for (int c = NR_CLASSES - 1; c >= 0; c--) {
		unsigned long flags = spin_lock_irqsave(&kmalloc_lock);
		unsigned long objs = active_objs[c], slabs = nr_slabs[c];
		unsigned int per_slab = (unsigned int)(PAGE_SIZE / class_size(c));
		char name[sizeof("kmalloc-2048")];

		spin_unlock_irqrestore(&kmalloc_lock, flags);
		if (class_size(c) >= 1024)
			snprintf(name, sizeof(name), "kmalloc-%luk", class_size(c) / 1024);
		else
			snprintf(name, sizeof(name), "kmalloc-%lu", class_size(c));
		seq_printf(m, "%-17s %6lu %6lu %6u %4u %4d", name, objs, slabs * per_slab,
			   (unsigned int)class_size(c), per_slab, 1);
		seq_printf(m, " : tunables %4u %4u %4u", 0, 0, 0);
		seq_printf(m, " : slabdata %6lu %6lu %6lu\n", slabs, slabs, 0UL);
	}
	return 0;
}

static int slabinfo_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return single_open(file, slabinfo_show, NULL);
}

const struct file_operations slabinfo_fops = {
	.open = slabinfo_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};
