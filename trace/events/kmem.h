/*
 * The memory allocator's events (Linux's include/trace/events/kmem.h, 6.1):
 *
 *   kmalloc: call_site=load_elf_binary+0x5c ptr=ffff88800213a000 bytes_req=56 bytes_alloc=64
 *            gfp_flags=GFP_KERNEL node=-1 accounted=false
 *   kfree: call_site=do_exit+0x1a ptr=ffff88800213a000
 *   mm_page_alloc: page=ffff888000f4b180 pfn=0x1f0a order=0 migratetype=0 gfp_flags=GFP_KERNEL
 *   mm_page_free: page=ffff888000f4b180 pfn=0x1f0a order=0
 *
 * Hit in kernel/mm/kmalloc.c (every kmalloc and kfree, whatever their size) and
 * kernel/mm/page_alloc.c (every run of pages, for slabs and large kmallocs too). Lucid's
 * allocators take no flags: every allocation is GFP_KERNEL (kernel/mm/gfp.h), on no
 * particular node. Lucid allocates runs of any number of pages; order is the power of two
 * that covers the run, as Linux's allocator would have taken. Defined by
 * trace/trace_events_kmem.c.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM kmem
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE "trace/events/kmem.h"

#ifndef TRACE_EVENTS_KMEM_DEFS_H
#define TRACE_EVENTS_KMEM_DEFS_H
#include <stddef.h>
#include "kernel/mm/gfp.h"
#include "trace/events/mmflags.h"

/*
 * Linux's IS_ENABLED(CONFIG_MEMCG_KMEM) in Debian's build: kmalloc's "accounted" is whether the
 * allocation is charged to a memory cgroup. Lucid has none: it is always false.
 */
#define LINUX_MEMCG_KMEM 1
/*
 * Linux's pfn_to_page() on x86-64 (the struct page of a page frame, in the vmemmap array), as
 * its format files spell it: Lucid's struct page array is at vmemmap_base too
 * (kernel/mm/page_alloc.c).
 */
#define __trace_pfn_to_page(pfn) (((struct page *)vmemmap_base) + (pfn))
#endif

#if !defined(TRACE_EVENTS_KMEM_H) || defined(TRACE_HEADER_MULTI_READ)
#define TRACE_EVENTS_KMEM_H

#include "kernel/tracepoint.h"

/*
 * The declarations keep Linux's layout, a field a line (and a print fmt's spacing is its
 * text): clang-format does not know it.
 */
/* clang-format off */

/*
 * kmalloc(bytes_req) returned ptr, a block of bytes_alloc, to the code at call_site (NULL if
 * it failed).
 */
TRACE_EVENT(kmalloc,
	TP_PROTO(unsigned long call_site, const void *ptr, size_t bytes_req, size_t bytes_alloc,
		 gfp_t gfp_flags, int node),
	TP_ARGS(call_site, ptr, bytes_req, bytes_alloc, gfp_flags, node),
	TP_STRUCT__entry(
		__field(unsigned long, call_site)
		__field(const void *, ptr)
		__field(size_t, bytes_req)
		__field(size_t, bytes_alloc)
		__field(unsigned long, gfp_flags)
		__field(int, node)
	),
	TP_fast_assign(
		__entry->call_site = call_site;
		__entry->ptr = ptr;
		__entry->bytes_req = bytes_req;
		__entry->bytes_alloc = bytes_alloc;
		__entry->gfp_flags = (__force unsigned long)gfp_flags;
		__entry->node = node;
	),
	TP_printk("call_site=%pS ptr=%p bytes_req=%zu bytes_alloc=%zu gfp_flags=%s node=%d "
		  "accounted=%s",
		(void *)__entry->call_site,
		__entry->ptr,
		__entry->bytes_req,
		__entry->bytes_alloc,
		show_gfp_flags(__entry->gfp_flags),
		__entry->node,
		(LINUX_MEMCG_KMEM &&
		 (__entry->gfp_flags & __GFP_ACCOUNT)) ? "true" : "false")
);

/* The code at call_site kfree()d ptr (which may be NULL, as in Linux). */
TRACE_EVENT(kfree,
	TP_PROTO(unsigned long call_site, const void *ptr),
	TP_ARGS(call_site, ptr),
	TP_STRUCT__entry(
		__field(unsigned long, call_site)
		__field(const void *, ptr)
	),
	TP_fast_assign(
		__entry->call_site = call_site;
		__entry->ptr = ptr;
	),
	TP_printk("call_site=%pS ptr=%p",
		  (void *)__entry->call_site, __entry->ptr)
);

/* 2^order pages from page frame pfn were freed. */
TRACE_EVENT(mm_page_free,
	TP_PROTO(unsigned long pfn, unsigned int order),
	TP_ARGS(pfn, order),
	TP_STRUCT__entry(
		__field(unsigned long, pfn)
		__field(unsigned int, order)
	),
	TP_fast_assign(
		__entry->pfn = pfn;
		__entry->order = order;
	),
	TP_printk("page=%p pfn=0x%lx order=%d",
			__trace_pfn_to_page(__entry->pfn),
			__entry->pfn,
			__entry->order)
);

/* 2^order pages were asked for and pfn is the first (-1UL: none were free). */
TRACE_EVENT(mm_page_alloc,
	TP_PROTO(unsigned long pfn, unsigned int order, gfp_t gfp_flags, int migratetype),
	TP_ARGS(pfn, order, gfp_flags, migratetype),
	TP_STRUCT__entry(
		__field(unsigned long, pfn)
		__field(unsigned int, order)
		__field(unsigned long, gfp_flags)
		__field(int, migratetype)
	),
	TP_fast_assign(
		__entry->pfn = pfn;
		__entry->order = order;
		__entry->gfp_flags = (__force unsigned long)gfp_flags;
		__entry->migratetype = migratetype;
	),
	TP_printk("page=%p pfn=0x%lx order=%d migratetype=%d gfp_flags=%s",
		__entry->pfn != -1UL ? __trace_pfn_to_page(__entry->pfn) : NULL,
		__entry->pfn != -1UL ? __entry->pfn : 0,
		__entry->order,
		__entry->migratetype,
		show_gfp_flags(__entry->gfp_flags))
);

/* clang-format on */

#endif /* TRACE_EVENTS_KMEM_H */

#include "trace/define_trace.h"
