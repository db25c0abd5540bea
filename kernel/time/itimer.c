/*
 * Interval timers: alarm(2), setitimer(2) and getitimer(2) (Linux's kernel/time/itimer.c).
 *
 * ITIMER_REAL counts wall-clock time and sends SIGALRM. Linux keeps one per process
 * (signal->real_timer, which alarm sets too: musl's alarm() is a setitimer); Lucid keeps it in
 * the process's group leader, which outlives its threads (kernel/fork.c), so whichever
 * thread sets it, it is the process's (real_timer, a timer_list on the tick's list: it fires
 * on the first tick at or after its time, 10 ms at most late). With an interval it re-arms
 * itself from its own function, as Linux's it_real_fn returns HRTIMER_RESTART. As on Linux, a
 * new alarm replaces the old one and says how much the old one had left, a forked child
 * starts with none (its task is zeroed), exec keeps them, and exit cancels them. trace-cmd's
 * recorders use alarm: each, told to stop, re-arms one so that a read still blocked in
 * trace_pipe_raw is interrupted and it finishes.
 *
 * ITIMER_VIRTUAL (user time, SIGVTALRM) and ITIMER_PROF (user and system time, SIGPROF) count
 * the process's CPU time: the tick runs them down as it accounts it (kernel/sched/cputime.c).
 */
#include "kernel/syscalls.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "kernel/time/time.h"
#include "kernel/time/timer.h"
#include "kernel/sched/cputime.h"
#include "kernel/time/posix-timers.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"

#define ITIMER_REAL 0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF 2

/*
 * The timer's function: runs from the tick, under the timers' lock; send_sig is safe there.
 * A periodic timer goes again an interval after its last time, skipping the ones the tick
 * already missed, as Linux's hrtimer_forward.
 */
static void it_real_fn(struct timer_list *timer)
{
	struct task *t = timer->data;
	uint64_t now = ktime_get_ns();

	send_sig(SIGALRM, t); /* from the kernel: SI_KERNEL, as Linux's SEND_SIG_PRIV */
	if (!t->it_real_incr)
		return;
	timer->expires += t->it_real_incr;
	if (timer->expires <= now)
		timer->expires += ((now - timer->expires) / t->it_real_incr + 1) * t->it_real_incr;
	add_timer_from_fn(timer);
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
	struct task *t = current->group_leader; /* the process's alarm */
	uint64_t now = ktime_get_ns();
	unsigned int old = 0;

	/* Due but not yet run counts as 1 us left, as Linux's itimer_get_remtime says. */
	if (del_timer(&t->real_timer))
		old = seconds_left(t->real_timer.expires > now ? t->real_timer.expires - now
							       : NSEC_PER_USEC);
	t->it_real_incr = 0; /* alarm is setitimer(ITIMER_REAL) without an interval */
	if (seconds) {
		t->real_timer.expires = now + (uint64_t)seconds * NSEC_PER_SEC;
		t->real_timer.fn = it_real_fn;
		t->real_timer.data = t;
		add_timer(&t->real_timer);
	}
	return old;
}

/* struct timeval and struct itimerval, as x86_64 Linux lays them out. */
struct old_timeval {
	long tv_sec, tv_usec;
};

struct itimerval {
	struct old_timeval it_interval, it_value;
};

#define KTIME_MAX ((uint64_t)INT64_MAX) /* Linux's: the last time a ktime_t can say */

/* Saturated, as Linux's timeval to ktime: a time too long to count is for ever. */
static uint64_t timeval_to_ns(const struct old_timeval *tv)
{
	if ((uint64_t)tv->tv_sec >= KTIME_MAX / NSEC_PER_SEC)
		return KTIME_MAX;
	return (uint64_t)tv->tv_sec * NSEC_PER_SEC + (uint64_t)tv->tv_usec * NSEC_PER_USEC;
}

/* ns as a timeval, its microseconds cut off (Linux's ns_to_kernel_old_timeval). */
static struct old_timeval ns_to_timeval(uint64_t ns)
{
	return (struct old_timeval){(long)(ns / NSEC_PER_SEC),
				    (long)(ns % NSEC_PER_SEC / NSEC_PER_USEC)};
}

/* Linux's timeval_valid(): what setitimer accepts. */
static bool timeval_valid(const struct old_timeval *tv)
{
	return tv->tv_sec >= 0 && tv->tv_usec >= 0 && tv->tv_usec < (long)USEC_PER_SEC;
}

/* The timer which of the current task now, as getitimer tells it. */
static void do_getitimer(int which, struct itimerval *value)
{
	/* Each is the process's, as Linux's signal_struct: its leader keeps them. */
	struct task *t = current->group_leader;
	uint64_t left = 0, incr;

	if (which == ITIMER_REAL) {
		uint64_t expires = timer_pending_expires(&t->real_timer), now = ktime_get_ns();

		/* Due but not yet run counts as 1 us left, as Linux's itimer_get_remtime. */
		if (expires)
			left = expires > now ? expires - now : NSEC_PER_USEC;
		incr = t->it_real_incr;
	} else {
		cpu_itimer_get(t, which, &left, &incr); /* every thread's tick runs it down */
	}
	value->it_value = ns_to_timeval(left);
	value->it_interval = ns_to_timeval(incr);
}

long sys_getitimer(int which, struct itimerval __user *value)
{
	struct itimerval v;

	if (which < ITIMER_REAL || which > ITIMER_PROF)
		return -EINVAL;
	do_getitimer(which, &v);
	return copy_to_user(value, &v, sizeof(v)) ? -EFAULT : 0;
}

/*
 * setitimer: the old setting into ovalue, then the new one; an it_value of 0 stops the timer.
 * value NULL is a timer stopped, as Linux 6.1 still allows.
 */
long sys_setitimer(int which, const struct itimerval __user *value, struct itimerval __user *ovalue)
{
	struct task *t = current->group_leader; /* the process's timers */
	struct itimerval v = {{0, 0}, {0, 0}}, old;

	if (which < ITIMER_REAL || which > ITIMER_PROF)
		return -EINVAL;
	if (value && copy_from_user(&v, value, sizeof(v)))
		return -EFAULT;
	if (!timeval_valid(&v.it_value) || !timeval_valid(&v.it_interval))
		return -EINVAL;
	do_getitimer(which, &old);
	if (which == ITIMER_REAL) {
		uint64_t ns = timeval_to_ns(&v.it_value);

		del_timer(&t->real_timer);
		t->it_real_incr = timeval_to_ns(&v.it_interval);
		if (ns) {
			uint64_t now = ktime_get_ns();

			t->real_timer.expires = ns > KTIME_MAX - now ? KTIME_MAX : now + ns;
			t->real_timer.fn = it_real_fn;
			t->real_timer.data = t;
			add_timer(&t->real_timer);
		}
	} else {
		uint64_t ns = timeval_to_ns(&v.it_value);

		/* A tick more, as Linux's set_cpu_itimer: a part tick is counted whole. */
		cpu_itimer_set(t, which, ns ? ns + TICK_NSEC : 0, timeval_to_ns(&v.it_interval));
	}
	if (ovalue && copy_to_user(ovalue, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

void itimer_real_takeover(struct task *t, struct task *old_leader)
{
	for (int which = ITIMER_VIRTUAL; which <= ITIMER_PROF; which++) {
		uint64_t left, incr;

		cpu_itimer_get(old_leader, which, &left, &incr);
		cpu_itimer_set(t, which, left, incr);
	}
	if (!del_timer(&old_leader->real_timer)) /* from now on it_real_fn cannot run for it */
		return;
	t->it_real_incr = old_leader->it_real_incr;
	t->real_timer.expires = old_leader->real_timer.expires;
	t->real_timer.fn = it_real_fn;
	t->real_timer.data = t;
	add_timer(&t->real_timer);
}

/* do_exit: the process is going, and its alarm with it (after this, it_real_fn cannot run). */
void exit_itimers(struct task *t)
{
	del_timer(&t->real_timer);
	exit_posix_timers(t); /* and its POSIX timers (kernel/time/posix-timers.c) */
}
