/*
 * Intrusive circular doubly linked lists, as in Linux.
 *
 * The list_head lives inside the object being listed, so adding an object never allocates and
 * container_of() gets from the node back to the object. The list itself is a head node that links
 * to the first and last entries; the list is circular through it, so an empty list is a head
 * pointing at itself and insertion/removal never need to check for NULL or the ends.
 *
 * Everything here is notrace: the tracer keeps its state on these lists.
 */
#ifndef LIB_LIST_H
#define LIB_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/compiler.h"

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)     \
	{                        \
		&(name), &(name) \
	}
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline notrace void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

/* Links new between two adjacent nodes. */
static inline notrace void __list_add(struct list_head *new, struct list_head *prev,
				      struct list_head *next)
{
	next->prev = new;
	new->next = next;
	new->prev = prev;
	prev->next = new;
}

/* Adds new right after head: lists used as stacks. */
static inline notrace void list_add(struct list_head *new, struct list_head *head)
{
	__list_add(new, head, head->next);
}

/* Adds new right before head, i.e. at the end: lists used as queues. */
static inline notrace void list_add_tail(struct list_head *new, struct list_head *head)
{
	__list_add(new, head->prev, head);
}

static inline notrace void __list_del(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	entry->prev->next = entry->next;
}

/*
 * Unlinks entry. Its pointers are set to NULL so that using an entry after removing it faults at
 * once instead of quietly corrupting the list it used to be on.
 */
static inline notrace void list_del(struct list_head *entry)
{
	__list_del(entry);
	entry->next = NULL;
	entry->prev = NULL;
}

/* Unlinks entry and makes it an empty list of its own, so list_empty(entry) is true after. */
static inline notrace void list_del_init(struct list_head *entry)
{
	__list_del(entry);
	INIT_LIST_HEAD(entry);
}

static inline notrace bool list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

/* Moves every entry of list to the front of head, and leaves list empty. */
static inline void list_splice_init(struct list_head *list, struct list_head *head)
{
	if (list_empty(list))
		return;
	struct list_head *first = list->next, *last = list->prev;

	first->prev = head;
	last->next = head->next;
	head->next->prev = last;
	head->next = first;
	INIT_LIST_HEAD(list);
}

/* Moves entry from its list to the end of head. */
static inline notrace void list_move_tail(struct list_head *entry, struct list_head *head)
{
	__list_del(entry);
	list_add_tail(entry, head);
}

/* Moves every entry of list to the end of head, leaving list empty. */
static inline notrace void list_splice_tail_init(struct list_head *list, struct list_head *head)
{
	if (list_empty(list))
		return;
	struct list_head *first = list->next, *last = list->prev, *at = head->prev;

	at->next = first;
	first->prev = at;
	last->next = head;
	head->prev = last;
	INIT_LIST_HEAD(list);
}

/* The object of type that contains the list_head ptr in its field member. */
#define list_entry(ptr, type, member) container_of(ptr, type, member)

/* The first entry; the list must not be empty. */
#define list_first_entry(head, type, member) list_entry((head)->next, type, member)

#define list_for_each(pos, head) for (pos = (head)->next; pos != (head); pos = pos->next)

#define list_for_each_entry(pos, head, member)                                                 \
	for (pos = list_entry((head)->next, __typeof__(*pos), member); &pos->member != (head); \
	     pos = list_entry(pos->member.next, __typeof__(*pos), member))

/* Safe against removing pos while iterating: n holds the next entry before the body runs. */
#define list_for_each_entry_safe(pos, n, head, member)                  \
	for (pos = list_entry((head)->next, __typeof__(*pos), member),  \
	    n = list_entry(pos->member.next, __typeof__(*pos), member); \
	     &pos->member != (head);                                    \
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

#endif
