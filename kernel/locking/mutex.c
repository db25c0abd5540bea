/*
 * A sleeping mutex: take it with one compare-and-swap of the owner field when it is free;
 * otherwise sleep on its wait queue until the holder's unlock wakes us, and try again.
 *
 * The unlock wakes the first waiter only, which tries again (and sleeps again at the head of the
 * queue if a newcomer took the lock first: that one's unlock wakes it in turn). Waking them all
 * made a herd: with hundreds of processes opening files at once (a shell's fork bomb), every
 * unlock ran each waiter only for all but one to sleep again, and the time grew as the square
 * of their number. Linux goes further and hands the lock over in order ("handoff").
 */
#include "kernel/locking/mutex.h"
#include "kernel/sched/sched.h"
#include "kernel/panic.h"

void mutex_init(struct mutex *m)
{
	m->owner = NULL;
	init_waitqueue_head(&m->waiters);
}

bool mutex_trylock(struct mutex *m)
{
	struct task *expected = NULL;
	return __atomic_compare_exchange_n(&m->owner, &expected, current, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

void mutex_lock(struct mutex *m)
{
	/*
	 * Checked before the fast path: a mutex taken under a spin lock sleeps only when someone
	 * else holds it, once in thousands of calls, and schedule() would catch only that one.
	 */
	might_sleep();
	if (mutex_trylock(m))
		return;
	/* Sleeping while holding it already would wait for ourselves forever. */
	BUG_ON(READ_ONCE(m->owner) == current);
	wait_event(&m->waiters, mutex_trylock(m));
}

void mutex_unlock(struct mutex *m)
{
	BUG_ON(READ_ONCE(m->owner) != current);
	/*
	 * Wake only if someone waits: the common unlock (nobody waiting) is then one store and
	 * one load, not a spin lock and a walk of an empty list. The store must be seen before
	 * the waiter list is read (SEQ_CST: an XCHG on x86, not a plain store that a later load
	 * may pass), pairing with wait_event(), which puts the waiter on the list before its
	 * trylock (a locked CMPXCHG): either the waiter's trylock sees the lock free, or this
	 * load sees the waiter.
	 */
	__atomic_store_n(&m->owner, NULL, __ATOMIC_SEQ_CST);
	if (!list_empty(&m->waiters.head))
		wake_up_one(&m->waiters);
}
