/* Wait queues and completions: sleeping until a condition holds (see kernel/sched/wait.h). */
#include "kernel/sched/wait.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "kernel/locking/lockdep.h"
#include "lib/errno.h"

void init_waitqueue_head(wait_queue_head_t *wq)
{
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->head);
}

void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *w, long state)
{
	unsigned long flags = spin_lock_irqsave(&wq->lock);
	w->task = current;
	/* The first call puts us on the queue; a loop's later calls only mark us asleep again. */
	if (w->entry.next == NULL || list_empty(&w->entry))
		list_add_tail(&w->entry, &wq->head);
	set_current_state(state);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *w)
{
	set_current_state(TASK_RUNNING);
	unsigned long flags = spin_lock_irqsave(&wq->lock);
	if (w->entry.next && !list_empty(&w->entry))
		list_del_init(&w->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

/* One entry's wakeup: its function if it has one (epoll), else its task. Inline: it is on
 * every wakeup's way (bench's ctx_switch_insns). */
static __always_inline void wake_entry(struct wait_queue_entry *w)
{
	if (__builtin_expect(w->func != NULL, 0))
		w->func(w);
	else
		wake_up_process(w->task);
}

/* Every entry's wakeup, with wq->lock held (Linux's __wake_up_locked). */
static void __wake_up_locked(wait_queue_head_t *wq)
{
	struct wait_queue_entry *w;

	lockdep_assert_held(&wq->lock);
	list_for_each_entry(w, &wq->head, entry)
	{
		wake_entry(w);
	}
}

void wake_up(wait_queue_head_t *wq)
{
	unsigned long flags = spin_lock_irqsave(&wq->lock);

	__wake_up_locked(wq);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void wake_up_one(wait_queue_head_t *wq)
{
	unsigned long flags = spin_lock_irqsave(&wq->lock);
	if (!list_empty(&wq->head))
		wake_entry(list_first_entry(&wq->head, struct wait_queue_entry, entry));
	spin_unlock_irqrestore(&wq->lock, flags);
}

void add_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *w)
{
	unsigned long flags = spin_lock_irqsave(&wq->lock);
	list_add_tail(&w->entry, &wq->head);
	spin_unlock_irqrestore(&wq->lock, flags);
}

/* Once it returns, w's func is not running and will not run: the waker holds wq->lock. */
void remove_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *w)
{
	unsigned long flags = spin_lock_irqsave(&wq->lock);
	list_del_init(&w->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void init_completion(struct completion *c)
{
	c->done = 0;
	init_waitqueue_head(&c->wait);
}

/*
 * done and the wakeup under one hold of the lock, as Linux's: a completion often lives on its
 * waiter's stack (vfork's, in kernel_clone), and the waiter needs this lock to see done. Were
 * the lock let go between the two, a waiter woken by something else (a signal) could take done,
 * return and reuse that stack before the wakeup took the lock again, in memory that is no
 * longer a completion: a loaded run's vfork child spun there for good, interrupts off, and its
 * parent's waitpid never ended. Once complete() has let go of the lock it touches c no more.
 */
void complete(struct completion *c)
{
	unsigned long flags = spin_lock_irqsave(&c->wait.lock);

	c->done++;
	__wake_up_locked(&c->wait);
	spin_unlock_irqrestore(&c->wait.lock, flags);
}

void complete_all(struct completion *c)
{
	unsigned long flags = spin_lock_irqsave(&c->wait.lock);

	c->done = UINT32_MAX / 2;
	__wake_up_locked(&c->wait);
	spin_unlock_irqrestore(&c->wait.lock, flags);
}

/* Takes one "done" under the lock, so that two waiters never consume the same complete(). */
static bool try_wait_for_completion(struct completion *c)
{
	unsigned long flags = spin_lock_irqsave(&c->wait.lock);
	bool ok = c->done > 0;
	if (ok)
		c->done--;
	spin_unlock_irqrestore(&c->wait.lock, flags);
	return ok;
}

void wait_for_completion(struct completion *c)
{
	wait_event(&c->wait, try_wait_for_completion(c));
}

/*
 * Linux's TASK_KILLABLE: asleep as interruptibly, so that a signal that will kill the task
 * (fatal_signal_pending) ends the wait, but any other only wakes it to sleep again: that one
 * stays pending, its handler runs once the wait is over.
 */
int wait_for_completion_killable(struct completion *c)
{
	struct wait_queue_entry w = {0};
	int ret = 0;

	might_sleep();
	for (;;) {
		prepare_to_wait(&c->wait, &w, TASK_INTERRUPTIBLE);
		if (try_wait_for_completion(c))
			break;
		if (fatal_signal_pending()) {
			ret = -EINTR;
			break;
		}
		schedule();
	}
	finish_wait(&c->wait, &w);
	return ret;
}
