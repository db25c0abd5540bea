/*
 * The garbage collector for sockets in flight (Linux's net/unix/garbage.c, its algorithm before
 * 6.10).
 *
 * SCM_RIGHTS can put a socket's own file in a queue that only the socket can reach: send A over
 * B to A's own queue, close A, and A's file is held by a message in A's queue; two sockets can
 * hold each other the same way, or any cycle. No close will ever come for them. The collector
 * finds such sockets and frees the messages that hold them.
 *
 * Every socket whose file is in some queue is "in flight" (inflight counts the messages that
 * hold it, and it is on gc_inflight_list). A socket whose every file reference is such a
 * message (f_count == inflight) may be garbage: a candidate. Then:
 *   1. the references candidates' queues hold on candidates are taken off their counts;
 *   2. a candidate with a count left is held from outside (a descriptor, a queue of a live
 *      socket): it is alive, and so is every candidate its queue holds, and theirs (their counts
 *      go back as they are found, the cursor walk below);
 *   3. the candidates left are held only by each other: the messages in their queues that carry
 *      candidates are taken out and freed, which drops the files and so the sockets.
 * Everything runs under the VFS lock, so nothing moves meanwhile (Linux's takes unix_gc_lock).
 * It runs when a socket is closed while any socket is in flight; freeing the garbage closes
 * more sockets, which do not start it again (gc_in_progress).
 */
#include "kernel/net/unix/af_unix.h"
#include "kernel/panic.h"

static LIST_HEAD(gc_inflight_list); /* sockets in flight: gc_link */
static LIST_HEAD(gc_candidates); /* during a collection: what may be garbage */
static unsigned int unix_tot_inflight;
static bool gc_in_progress;

void unix_inflight(struct scm_fp_list *fp, int delta)
{
	for (int i = 0; i < fp->count; i++) {
		struct unix_sock *u = unix_sock_of_file(fp->fp[i]);

		if (!u)
			continue;
		if (delta > 0 && u->inflight++ == 0)
			list_add_tail(&u->gc_link, &gc_inflight_list);
		if (delta < 0 && --u->inflight == 0)
			list_del_init(&u->gc_link); /* from gc_inflight_list, or the candidates */
		unix_tot_inflight += (unsigned int)delta;
	}
}

/* Calls func on each candidate that x's messages carry; moves those messages to hitlist. */
static void scan_inflight(struct unix_sock *x, void (*func)(struct unix_sock *),
			  struct list_head *hitlist)
{
	struct sk_buff *skb, *next;

	list_for_each_entry_safe(skb, next, &x->receive_queue, list)
	{
		bool hit = false;

		if (!skb->fp)
			continue;
		for (int i = 0; i < skb->fp->count; i++) {
			struct unix_sock *u = unix_sock_of_file(skb->fp->fp[i]);

			if (u && u->gc_candidate) {
				hit = true;
				func(u);
			}
		}
		if (hit && hitlist) {
			list_del(&skb->list);
			x->qlen--;
			list_add_tail(&skb->list, hitlist);
		}
	}
}

/* A listener's children are in its connections' queues, not its own (Linux's too). */
static void scan_children(struct unix_sock *x, void (*func)(struct unix_sock *),
			  struct list_head *hitlist)
{
	struct unix_sock *e;

	if (x->state != TCP_LISTEN) {
		scan_inflight(x, func, hitlist);
		return;
	}
	list_for_each_entry(e, &x->accept_queue, accept_link)
	{
		scan_inflight(e, func, hitlist);
	}
}

static void dec_inflight(struct unix_sock *u)
{
	u->inflight--;
}

static void inc_inflight(struct unix_sock *u)
{
	u->inflight++;
}

/* A child of a live socket is live: counted back, and scanned in its turn (at the tail). */
static void inc_inflight_move_tail(struct unix_sock *u)
{
	u->inflight++;
	if (u->gc_maybe_cycle)
		list_move_tail(&u->gc_link, &gc_candidates);
}

void unix_gc(void)
{
	struct unix_sock *u, *next;
	struct list_head cursor, not_cycle, hitlist;
	struct sk_buff *skb, *tmp;

	if (gc_in_progress || !unix_tot_inflight)
		return;
	gc_in_progress = true;
	INIT_LIST_HEAD(&not_cycle);
	INIT_LIST_HEAD(&hitlist);
	list_for_each_entry_safe(u, next, &gc_inflight_list, gc_link)
	{
		if (u->file && u->file->f_count == (int)u->inflight) {
			list_move_tail(&u->gc_link, &gc_candidates);
			u->gc_candidate = u->gc_maybe_cycle = true;
		}
	}
	/* 1. Take off the references candidates hold on candidates. */
	list_for_each_entry(u, &gc_candidates, gc_link)
	{
		scan_children(u, dec_inflight, NULL);
	}
	/* 2. Give them back to what is held from outside, and to all it holds. */
	list_add(&cursor, &gc_candidates);
	while (cursor.next != &gc_candidates) {
		u = list_entry(cursor.next, struct unix_sock, gc_link);
		list_del(&cursor);
		list_add(&cursor, &u->gc_link); /* the cursor after u */
		if (u->inflight) {
			list_move_tail(&u->gc_link, &not_cycle);
			u->gc_maybe_cycle = false;
			scan_children(u, inc_inflight_move_tail, NULL);
		}
	}
	list_del(&cursor);
	/* 3. What is left is garbage: counts back, and its messages that hold candidates out. */
	list_for_each_entry(u, &gc_candidates, gc_link)
	{
		scan_children(u, inc_inflight, &hitlist);
	}
	list_for_each_entry_safe(u, next, &not_cycle, gc_link)
	{
		u->gc_candidate = false;
		list_move_tail(&u->gc_link, &gc_inflight_list);
	}
	list_for_each_entry_safe(u, next, &gc_candidates, gc_link)
	{
		u->gc_candidate = false; /* freeing the hitlist takes each off the list */
	}
	list_for_each_entry_safe(skb, tmp, &hitlist, list)
	{
		list_del(&skb->list);
		kfree_skb(skb);
	}
	/* Every candidate was held by a message on the hitlist, so none is in flight now. */
	WARN_ON(!list_empty(&gc_candidates));
	gc_in_progress = false;
}
