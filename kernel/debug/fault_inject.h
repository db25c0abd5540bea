/* Fault injection: make every Nth allocation fail, to test the paths that handle it. */
#ifndef KERNEL_FAULT_INJECT_H
#define KERNEL_FAULT_INJECT_H

#include <stdbool.h>
#include "lib/compiler.h"

/* One kind of allocation to fail: Linux's struct fault_attr, with only its interval. */
struct fault_attr {
	unsigned long interval; /* every interval-th call fails; 0, none (the sysctl's value) */
	unsigned long count; /* calls counted since the interval was last written */
};

extern struct fault_attr failslab; /* kmalloc: fail_kmalloc */
extern struct fault_attr fail_page_alloc; /* alloc_pages: fail_page_alloc */

/* Counts this call and says whether it fails: only in a task that make_it_fail marks. */
bool should_fail(struct fault_attr *attr);
/* should_fail for alloc_pages: never a user page while ignore-gfp-highmem is on (the default). */
bool should_fail_page(void);

/*
 * Linux's names for the two questions the allocators ask; a load and a branch while injection
 * is off. Always inline: alloc_pages is notrace.
 */
static __always_inline bool should_failslab(void)
{
	return READ_ONCE(failslab.interval) && should_fail(&failslab);
}

static __always_inline bool should_fail_alloc_page(void)
{
	return READ_ONCE(fail_page_alloc.interval) && should_fail_page();
}

/* Boot: read fail_kmalloc=N and fail_page_alloc=N, make their /proc/sys/kernel files. */
void fault_inject_init(void);
/* pid 1 is about to run init: the boot-time intervals take effect. */
void fault_inject_start(void);
/* Both intervals to 0 (sysrq x, Ctrl-O x): safe in an interrupt. */
void fault_inject_off(void);

#endif
