/*
 * alarm(2): SIGALRM to the process after a number of seconds (Linux's kernel/time/itimer.c,
 * alarm_setitimer and it_real_fn).
 *
 * Linux keeps one real-time timer per process (signal->real_timer, the one ITIMER_REAL of
 * setitimer sets too); a Lucid process is one task, so the timer is the task's (real_timer, a
 * timer_list on the tick's list: it fires on the first tick at or after its time, 10 ms at
 * most late). As on Linux, a new alarm replaces the old one and says how many seconds the old
 * one had left, a forked child starts with none (its task is zeroed), exec keeps it, and exit
 * cancels it. trace-cmd's recorders use it: each, told to stop, re-arms an alarm so that a
 * read still blocked in trace_pipe_raw is interrupted and it finishes.
 */
#include "kernel/syscalls.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/signal.h"
#include "kernel/sched/time.h"
#include "kernel/sched/timer.h"

/* The timer's function: runs from the tick, under the timers' lock; send_sig is safe there. */
static void it_real_fn(struct timer_list *timer)
{
	send_sig(SIGALRM, timer->data); /* from the kernel: SI_KERNEL, as Linux's SEND_SIG_PRIV */
}

/*
 * The seconds an old alarm had left, as Linux's alarm_setitimer rounds them: to the nearest
 * second, but never 0 for an alarm still pending (0 means "there was none").
 */
static unsigned int seconds_left(uint64_t ns)
{
	unsigned int secs = (unsigned int)(ns / NSEC_PER_SEC);
	uint64_t rest = ns % NSEC_PER_SEC;

	if ((secs == 0 && rest) || rest >= NSEC_PER_SEC / 2)
		secs++;
	return secs;
}

long sys_alarm(unsigned int seconds)
{
	struct task *t = current;
	uint64_t now = ktime_get_ns();
	unsigned int old = 0;

	/* Due but not yet run counts as 1 us left, as Linux's itimer_get_remtime says. */
	if (del_timer(&t->real_timer))
		old = seconds_left(t->real_timer.expires > now ? t->real_timer.expires - now
							       : NSEC_PER_USEC);
	if (seconds) {
		t->real_timer.expires = now + (uint64_t)seconds * NSEC_PER_SEC;
		t->real_timer.fn = it_real_fn;
		t->real_timer.data = t;
		add_timer(&t->real_timer);
	}
	return old;
}

/* do_exit: the process is going, and its alarm with it (after this, it_real_fn cannot run). */
void exit_itimers(struct task *t)
{
	del_timer(&t->real_timer);
}
