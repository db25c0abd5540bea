/*
 * Ctrl-C: the one signal Lucid has, enough to end a command that waits or runs too long.
 *
 * There is no signal delivery: a task is only marked (task->sigint) and, if it sleeps in
 * wait_event_interruptible() or a blocking read, woken. The code it runs sees the mark
 * (signal_pending_current()), gives up what it was doing with -EINTR, and the command returns
 * as if killed by SIGINT. Commands that neither wait nor write never notice, which is as far
 * as a kernel without user space and forced exits can go.
 *
 * No wakeup is lost: the sleeper marks itself asleep and then tests the mark, the sender sets
 * the mark and then tests whether the task sleeps, all with sequentially consistent atomics,
 * so at least one of them sees the other's write.
 */
#include "kernel/sched/signal.h"
#include "kernel/sched/sched.h"

void send_sigint(struct task *t)
{
	__atomic_store_n(&t->sigint, true, __ATOMIC_SEQ_CST);
	/* Only interruptible sleeps: an uninterruptible one (a mutex) would sleep again anyway. */
	if (__atomic_load_n(&t->state, __ATOMIC_SEQ_CST) == TASK_INTERRUPTIBLE)
		wake_up_process(t);
}

bool signal_pending_current(void)
{
	return __atomic_load_n(&current->sigint, __ATOMIC_SEQ_CST);
}
