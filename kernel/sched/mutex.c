/*
 * A sleeping mutex: take it with one compare-and-swap of the owner field when it is free;
 * otherwise sleep on its wait queue until the holder's unlock wakes us, and try again.
 *
 * The waker wakes every waiter and they race for the lock again: simple, and fair enough for a
 * teaching kernel (Linux hands the lock over in order; see its mutex.c's "handoff").
 */
#include "kernel/sched/mutex.h"
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
	if (mutex_trylock(m))
		return;
	/* Sleeping while holding it already would wait for ourselves forever. */
	BUG_ON(READ_ONCE(m->owner) == current);
	wait_event(&m->waiters, mutex_trylock(m));
}

void mutex_unlock(struct mutex *m)
{
	BUG_ON(READ_ONCE(m->owner) != current);
	__atomic_store_n(&m->owner, NULL, __ATOMIC_RELEASE);
	wake_up(&m->waiters);
}

bool mutex_is_locked(struct mutex *m)
{
	return READ_ONCE(m->owner) != NULL;
}
