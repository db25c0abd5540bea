/*
 * Time for user programs: clock_gettime, gettimeofday, nanosleep and clock_nanosleep (Linux's
 * kernel/time/posix-timers.c and hrtimer.c, their entry points).
 *
 * Every clock here is the TSC-based ktime_get_ns() but the CPU-time clocks, which count the
 * thread's or the process's user and system time (at the tick). CLOCK_REALTIME adds where the battery-backed CMOS clock stood at boot
 * (timekeeping_init, arch/x86_64/rtc.c), so dates are real; nothing sets it later (no
 * settimeofday, no NTP), so it moves exactly as CLOCK_MONOTONIC does.
 */
#include "kernel/syscalls.h"
#include "kernel/sched/sched.h"
#include "kernel/time/time.h"
#include "kernel/time/timer.h"
#include "kernel/sched/wait.h"
#include "kernel/time/hrtimer.h"
#include "arch/x86_64/uaccess.h"
#include "arch/x86_64/rtc.h"
#include "lib/errno.h"

#define CLOCK_REALTIME 0 /* Linux's clock ids */
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_REALTIME_COARSE 5
#define CLOCK_MONOTONIC_COARSE 6
#define CLOCK_BOOTTIME 7
#define CLOCK_REALTIME_ALARM 8
#define CLOCK_BOOTTIME_ALARM 9
#define CLOCK_TAI 11 /* CLOCK_REALTIME plus the TAI offset, 0 until NTP sets it, as Linux's */
#define HRES_NSEC 1 /* clock_getres of a clock read from the TSC, as Linux's hres clocks */
#define LOW_RES_NSEC (NSEC_PER_SEC / HZ) /* of the coarse clocks: a tick, Linux's TICK_NSEC */
#define TIMER_ABSTIME 0x01

struct __kernel_timespec {
	long tv_sec, tv_nsec;
};

struct __kernel_old_timeval {
	long tv_sec, tv_usec;
};

static uint64_t realtime_at_boot_ns; /* CLOCK_REALTIME when ktime_get_ns() read 0 */

void timekeeping_init(void)
{
	int64_t now = mach_get_cmos_time();
	uint64_t since_boot = ktime_get_ns();
	uint64_t real = now > 0 ? (uint64_t)now * NSEC_PER_SEC : 0; /* a clock before 1970: 0 */

	realtime_at_boot_ns = real > since_boot ? real - since_boot : 0;
	update_vsyscall(); /* the vDSO's CLOCK_REALTIME too (once it has its page) */
}

uint64_t ktime_get_real_offset_ns(void)
{
	return realtime_at_boot_ns;
}

uint64_t ktime_get_real_ns(void)
{
	return realtime_at_boot_ns + ktime_get_ns();
}

/*
 * The CPU time of current (thread) or of its whole process: user and system time as the tick
 * counts them (kernel/sched/cputime.c), so it moves a tick at a time, as Linux's did before it
 * counted at every switch.
 */
static uint64_t cpu_clock_ns(bool process)
{
	struct task *me = current;
	uint64_t ns = 0;

	if (!process)
		return READ_ONCE(me->utime) + READ_ONCE(me->stime);
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->tgid == me->tgid && !t->reaped)
			ns += READ_ONCE(t->utime) + READ_ONCE(t->stime);
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return ns;
}

static int clock_ns(int which_clock, uint64_t *ns)
{
	switch (which_clock) {
	case CLOCK_REALTIME_COARSE: /* the last tick's, as the vDSO's (kernel/time/vsyscall.c) */
	case CLOCK_MONOTONIC_COARSE:
		*ns = ktime_get_coarse_ns(which_clock == CLOCK_REALTIME_COARSE);
		return 0;
	case CLOCK_REALTIME:
	case CLOCK_REALTIME_ALARM:
	case CLOCK_TAI:
		*ns = ktime_get_real_ns();
		return 0;
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID:
		*ns = cpu_clock_ns(which_clock == CLOCK_PROCESS_CPUTIME_ID);
		return 0;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_BOOTTIME:
	case CLOCK_BOOTTIME_ALARM:
		*ns = ktime_get_ns();
		return 0;
	default:
		return -EINVAL;
	}
}

long sys_clock_gettime(int which_clock, struct __kernel_timespec __user *tp)
{
	uint64_t ns;
	int err = clock_ns(which_clock, &ns);

	if (err)
		return err;
	struct __kernel_timespec ts = {(long)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC)};
	return copy_to_user(tp, &ts, sizeof(ts)) ? -EFAULT : 0;
}

/*
 * clock_getres: how fine a clock's readings are. Every clock here reads the TSC, so 1 ns, as
 * Linux's in high-resolution mode; the coarse ones say a tick, as Linux's, whose coarse clocks
 * move only at the tick (Lucid's read the TSC too: they are at least that fine). NULL: only
 * whether the clock exists.
 */
long sys_clock_getres(int which_clock, struct __kernel_timespec __user *tp)
{
	uint64_t ns;
	int err = clock_ns(which_clock, &ns);
	bool coarse = which_clock == CLOCK_REALTIME_COARSE || which_clock == CLOCK_MONOTONIC_COARSE;
	struct __kernel_timespec ts = {0, coarse ? (long)LOW_RES_NSEC : HRES_NSEC};

	if (err)
		return err;
	return tp && copy_to_user(tp, &ts, sizeof(ts)) ? -EFAULT : 0;
}

long sys_gettimeofday(struct __kernel_old_timeval __user *tv, void __user *tz)
{
	uint64_t ns = ktime_get_real_ns();
	struct __kernel_old_timeval t = {(long)(ns / NSEC_PER_SEC),
					 (long)(ns % NSEC_PER_SEC / NSEC_PER_USEC)};
	static const int zero_tz[2]; /* struct timezone: UTC, no DST */

	if (tv && copy_to_user(tv, &t, sizeof(t)))
		return -EFAULT;
	if (tz && copy_to_user(tz, zero_tz, sizeof(zero_tz)))
		return -EFAULT;
	return 0;
}

/*
 * time: whole seconds of CLOCK_REALTIME, returned and, if tloc is not NULL, stored there too:
 * those of the last tick (CLOCK_REALTIME_COARSE), as Linux's and as the vDSO's __vdso_time.
 */
long sys_time(long __user *tloc)
{
	long t = (long)(ktime_get_coarse_ns(true) / NSEC_PER_SEC);

	if (tloc && copy_to_user(tloc, &t, sizeof(t)))
		return -EFAULT;
	return t;
}

/*
 * Sleeps until the clock reads end (ns), or a signal: then, for a relative sleep, the time left
 * in rem, as Linux. A program's sleep returns -ERESTART_RESTARTBLOCK: -EINTR if a handler runs,
 * otherwise (a stop and SIGCONT) restart_syscall sleeps on to the same end; an absolute one
 * just starts again (-ERESTARTNOHAND). A kernel command's sleep ends with -EINTR.
 *
 * The wakeup is an hrtimer's (Linux's do_nanosleep), queued for end itself: the sleep ends
 * within the timer interrupt's latency of end, not at the next tick, and never before it
 * (the timer does not run before its time; a wakeup for another reason sleeps again).
 */
static long do_nanosleep(uint64_t end, struct __kernel_timespec __user *rem, int clock,
			 bool abs)
{
	struct task *t = current;
	struct hrtimer_sleeper sl;
	uint64_t now;

	hrtimer_init_sleeper(&sl, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	/*
	 * Asleep before the timer is queued and before the look for a signal, never after: a
	 * wakeup (the timer's, a signal's) between the look and schedule() then finds the task
	 * asleep and makes it runnable, where otherwise it would be lost and the sleep go on to
	 * its end (^Z's SIGTSTP, bash's SIGTERM pending meanwhile).
	 */
	set_current_state(TASK_INTERRUPTIBLE);
	if (end != KTIME_MAX)
		hrtimer_start(&sl.timer, end, HRTIMER_MODE_ABS);
	while (READ_ONCE(sl.task) && !signal_pending_current()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	set_current_state(TASK_RUNNING);
	hrtimer_cancel(&sl.timer); /* after it, the timer's function runs nowhere: sl may go */
	now = ktime_get_ns();
	if (!sl.task || now >= end)
		return 0;
	/* A signal ended it. */
	uint64_t left = end - now;
	struct __kernel_timespec ts = {(long)(left / NSEC_PER_SEC), (long)(left % NSEC_PER_SEC)};

	if (rem && copy_to_user(rem, &ts, sizeof(ts)))
		return -EFAULT;
	if (!t->sighand)
		return -EINTR;
	if (abs)
		return -ERESTARTNOHAND;
	t->restart_end = end;
	t->restart_rmtp = rem;
	t->restart_clock = clock;
	return -ERESTART_RESTARTBLOCK;
}

static long get_timespec(const struct __kernel_timespec __user *u, uint64_t *ns)
{
	struct __kernel_timespec ts;

	if (copy_from_user(&ts, u, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (long)NSEC_PER_SEC)
		return -EINVAL;
	/* Saturated, as Linux's timespec64_to_ktime(): a sleep too long to count is forever. */
	if ((uint64_t)ts.tv_sec >= KTIME_MAX / NSEC_PER_SEC)
		*ns = KTIME_MAX;
	else
		*ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	return 0;
}

long sys_clock_nanosleep(int which_clock, int flags, const struct __kernel_timespec __user *rqtp,
			 struct __kernel_timespec __user *rmtp)
{
	uint64_t ns, now;
	long err = clock_ns(which_clock, &now);

	if (err)
		return err;
	if (which_clock == CLOCK_THREAD_CPUTIME_ID)
		return -EINVAL; /* as Linux */
	/* Clocks that cannot be slept on (Linux's posix clocks without nsleep). */
	if (which_clock == CLOCK_REALTIME_COARSE || which_clock == CLOCK_MONOTONIC_COARSE ||
	    which_clock == CLOCK_MONOTONIC_RAW)
		return -EOPNOTSUPP;
	err = get_timespec(rqtp, &ns);
	if (err)
		return err;
	/* do_nanosleep counts on ktime_get_ns(): a CLOCK_REALTIME end is moved onto it. */
	if (flags & TIMER_ABSTIME) {
		bool real = which_clock == CLOCK_REALTIME || which_clock == CLOCK_TAI ||
			    which_clock == CLOCK_REALTIME_ALARM;

		if (real && ns != KTIME_MAX)
			ns = ns > realtime_at_boot_ns ? ns - realtime_at_boot_ns : 0;
		return do_nanosleep(ns, NULL, which_clock, true);
	}
	now = ktime_get_ns(); /* a relative sleep is the same length on every clock */
	return do_nanosleep(ns > KTIME_MAX - now ? KTIME_MAX : now + ns, rmtp, which_clock, false);
}

/*
 * restart_syscall: what an interrupted call left in the task's restart block, resumed. Only
 * nanosleep leaves one: it sleeps on to the end it had (on every clock, a ktime_get_ns()
 * reading: see sys_clock_nanosleep).
 */
long sys_restart_syscall(void)
{
	struct task *t = current;
	uint64_t end = t->restart_end;

	if (!end)
		return -EINTR; /* nothing to resume: Linux's do_no_restart_syscall() */
	t->restart_end = 0;
	return do_nanosleep(end, t->restart_rmtp, t->restart_clock, false);
}

long sys_nanosleep(const struct __kernel_timespec __user *rqtp,
		   struct __kernel_timespec __user *rmtp)
{
	return sys_clock_nanosleep(CLOCK_MONOTONIC, 0, rqtp, rmtp);
}
