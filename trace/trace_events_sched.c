/* The sched:* trace events: declared in trace/events/sched.h, defined here. */

/*
 * Not traced, as all of trace/: the probes run inside the scheduler.
 */
#include "kernel/sched/sched.h"
#include "lib/string.h"
#include "trace/events/sched.h"

/*
 * A Lucid task that exited is dead until kthread_join() reaps it, what Linux calls a zombie:
 * "Z", as a process its parent will wait for shows in Linux.
 */
static __always_inline long __trace_sched_switch_state(bool preempt, struct task *prev)
{
	long state = READ_ONCE(prev->state);

	if (preempt)
		return TASK_REPORT_MAX; /* still runnable, whatever it was about to do */
	if (state & TASK_DEAD)
		return TASK_REPORT_Z; /* dead, and waiting for kthread_join() */
	if (state & TASK_UNINTERRUPTIBLE)
		return TASK_REPORT_D;
	if (state & TASK_INTERRUPTIBLE)
		return TASK_REPORT_S;
	if (state & TASK_STOPPED)
		return TASK_REPORT_T;
	return TASK_REPORT_RUNNING;
}

#define CREATE_TRACE_EVENTS
#include "trace/events/sched.h"
