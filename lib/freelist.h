/*
 * A lock-free free list (Linux 6.1's include/linux/freelist.h, the algorithm of Cameron
 * Desrochers' "Solving the ABA problem for lock-free free lists"): a stack of preallocated
 * objects that any CPU, with interrupts on or off, may push to and pop from with a few atomic
 * instructions and no lock. Kretprobes keep their free instances on one (kernel/kprobes.c).
 *
 * The problem a plain compare-and-swap stack has (ABA): a pop reads head A and A->next B, is
 * delayed; meanwhile others pop A, pop B and push A back; the delayed pop's swap of head from
 * A to B succeeds, and B, in use, is on the list again. The cure: a node carries a reference
 * count, and a pop holds a reference on the head it read while it reads head->next and swaps.
 * A node being read by a pop cannot be pushed back: freelist_add sees the reference, marks the
 * node REFS_ON_FREELIST ("should be on the list") instead, and the last reader to let go pushes
 * it. So a node's next is never changed while a pop that may still swap with it reads it.
 *
 * Nodes must never be freed while the list is in use (the caller's rule: kretprobes free their
 * instances only after every CPU is out of the handlers, synchronize_sched).
 */
#ifndef LIB_FREELIST_H
#define LIB_FREELIST_H

#include <stdint.h>
#include <stddef.h>
#include "lib/compiler.h"

struct freelist_node {
	uint32_t refs; /* readers holding it, plus REFS_ON_FREELIST when it should be listed */
	struct freelist_node *next;
};

struct freelist_head {
	struct freelist_node *head;
};

#define REFS_ON_FREELIST 0x80000000u
#define REFS_MASK 0x7fffffffu

/* Push node, whose count says nobody reads it (its REFS_ON_FREELIST bit is set). */
static inline void __freelist_add(struct freelist_node *node, struct freelist_head *list)
{
	struct freelist_node *head = __atomic_load_n(&list->head, __ATOMIC_RELAXED);

	for (;;) {
		WRITE_ONCE(node->next, head);
		/* One reference: the list's own, dropped by the pop that takes it. */
		__atomic_store_n(&node->refs, 1, __ATOMIC_RELEASE);
		if (__atomic_compare_exchange_n(&list->head, &head, node, false, __ATOMIC_RELEASE,
						__ATOMIC_RELAXED))
			return;
		/*
		 * The head moved: a pop may have taken a reference on node meanwhile (it saw it
		 * as head just now). Give back ours and mark it wanted; if nobody else holds one,
		 * try again, else the last holder pushes it.
		 */
		if (__atomic_fetch_add(&node->refs, REFS_ON_FREELIST - 1, __ATOMIC_RELEASE) != 1)
			return;
	}
}

/* Give node back. */
static inline void freelist_add(struct freelist_node *node, struct freelist_head *list)
{
	/* A pop still reading node (refs > 0) will push it when it lets go. */
	if (!__atomic_fetch_add(&node->refs, REFS_ON_FREELIST, __ATOMIC_RELEASE))
		__freelist_add(node, list);
}

/* Take a node, or NULL if the list is empty. */
static inline struct freelist_node *freelist_try_get(struct freelist_head *list)
{
	struct freelist_node *prev, *next, *head = __atomic_load_n(&list->head, __ATOMIC_ACQUIRE);
	uint32_t refs;

	while (head) {
		prev = head;
		refs = __atomic_load_n(&head->refs, __ATOMIC_RELAXED);
		/*
		 * Not listed (count 0: taken meanwhile), or the count moved: read the head again.
		 */
		if ((refs & REFS_MASK) == 0 ||
		    !__atomic_compare_exchange_n(&head->refs, &refs, refs + 1, false,
						 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			head = __atomic_load_n(&list->head, __ATOMIC_ACQUIRE);
			continue;
		}
		/* Our reference keeps head's next as it is until we let go. */
		next = READ_ONCE(head->next);
		if (__atomic_compare_exchange_n(&list->head, &head, next, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			/* Ours: drop our reference and the list's (its count is now 0). */
			__atomic_fetch_sub(&prev->refs, 2, __ATOMIC_RELAXED);
			return prev;
		}
		/* Lost the race (head now holds the new head): let go of prev, maybe pushing it. */
		refs = __atomic_fetch_sub(&prev->refs, 1, __ATOMIC_ACQ_REL);
		if (refs == REFS_ON_FREELIST + 1)
			__freelist_add(prev, list);
	}
	return NULL;
}

#endif
