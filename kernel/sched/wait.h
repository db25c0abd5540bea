/*
 * Wait queues: how a task sleeps until something happens (kernel/sched/wait.c).
 *
 * The sleeper puts itself on the queue and marks itself asleep *before* it checks the condition
 * one last time; the waker makes the condition true and then wakes everyone on the queue. Either
 * the sleeper sees the condition, or the waker sees the sleeper on the queue: a wakeup is never
 * lost between the check and the sleep.
 */
#ifndef KERNEL_WAIT_H
#define KERNEL_WAIT_H

#include "lib/list.h"
#include "kernel/locking/spinlock.h"

struct task;

typedef struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
} wait_queue_head_t;

/*
 * One waiter on a queue: a sleeping task (func NULL: a wakeup wakes it), or, as Linux's
 * wait_queue_func_t, a function a wakeup calls instead (epoll: it marks the file ready and wakes
 * the epoll's own waiters; kernel/fs/eventpoll.c). func runs with the queue's spin lock held,
 * maybe from an interrupt: it may only take spin locks and wake others.
 */
struct wait_queue_entry;
typedef void (*wait_queue_func_t)(struct wait_queue_entry *w);

struct wait_queue_entry {
	struct task *task;
	struct list_head entry;
	wait_queue_func_t func;
};

#define WAIT_QUEUE_HEAD_INIT(name) {SPINLOCK_INIT, LIST_HEAD_INIT((name).head)}
#define DECLARE_WAIT_QUEUE_HEAD(name) wait_queue_head_t name = WAIT_QUEUE_HEAD_INIT(name)

void init_waitqueue_head(wait_queue_head_t *wq);
void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *w, long state);
void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *w);
void wake_up(wait_queue_head_t *wq);
/* A callback entry (func set) on wq, until remove_wait_queue: no task sleeps on it. */
void add_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *w);
void remove_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *w);
/* Wakes the first sleeper only: for a waiter that will wake the next (a mutex's unlock). */
void wake_up_one(wait_queue_head_t *wq);
void schedule(void);
/*
 * might_sleep(): said on entry by whatever may sleep (a mutex, a wait), and checked on every
 * call, not only on the one that does sleep: a caller with preemption or interrupts off is
 * reported as Linux's CONFIG_DEBUG_ATOMIC_SLEEP does, "BUG: sleeping function called from
 * invalid context" (kernel/sched/sched.c, __might_sleep).
 */
#ifdef LUCID_HOST
#define might_sleep() ((void)0)
#else
void __might_sleep(const char *file, int line);
#define might_sleep() __might_sleep(__FILE__, __LINE__)
#endif
/* Sleeps until ms milliseconds have passed or the task is woken (returns ms left, or 0). */
long schedule_timeout(long ms);
bool signal_pending_current(void);

#define wait_event(wq, cond)                                                                       \
	do {                                                                                       \
		struct wait_queue_entry __w = {0};                                                 \
		might_sleep();                                                                     \
		for (;;) {                                                                         \
			prepare_to_wait((wq), &__w, 2 /* TASK_UNINTERRUPTIBLE */);                 \
			if (cond)                                                                  \
				break;                                                             \
			schedule();                                                                \
		}                                                                                  \
		finish_wait((wq), &__w);                                                           \
	} while (0)

/* As wait_event, but Ctrl-C ends the wait early: returns -EINTR then, 0 when cond came true. */
#define wait_event_interruptible(wq, cond)                                                         \
	({                                                                                         \
		struct wait_queue_entry __w = {0};                                                 \
		int __ret = 0;                                                                     \
		might_sleep();                                                                     \
		for (;;) {                                                                         \
			prepare_to_wait((wq), &__w, 1 /* TASK_INTERRUPTIBLE */);                   \
			if (cond)                                                                  \
				break;                                                             \
			if (signal_pending_current()) {                                            \
				__ret = -4 /* -EINTR */;                                           \
				break;                                                             \
			}                                                                          \
			schedule();                                                                \
		}                                                                                  \
		finish_wait((wq), &__w);                                                           \
		__ret;                                                                             \
	})

/* Completions: "wait until this is done", counted, so complete() before wait is not lost. */
struct completion {
	unsigned int done;
	wait_queue_head_t wait;
};
void init_completion(struct completion *c);
void complete(struct completion *c);
void complete_all(struct completion *c);
void wait_for_completion(struct completion *c);
/* As wait_for_completion, but a fatal signal ends the wait (-EINTR then); others wait on. */
int wait_for_completion_killable(struct completion *c);

#endif
