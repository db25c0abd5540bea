/*
 * Time for user programs: clock_gettime, gettimeofday, nanosleep and clock_nanosleep (Linux's
 * kernel/time/posix-timers.c and hrtimer.c, their entry points).
 *
 * Every clock here is the TSC-based ktime_get_ns() but the CPU-time clocks, which count the
 * thread's or the process's user and system time (at the tick). CLOCK_REALTIME adds the date
 * (offs_real, kernel/time/timekeeping.c): the CMOS clock's at boot, or what clock_settime and
 * settimeofday set since. No NTP: between two settings it moves exactly as CLOCK_MONOTONIC.
 */
#include "kernel/syscalls.h"
#include "kernel/sched/sched.h"
#include "kernel/time/time.h"
#include "kernel/time/timer.h"
#include "kernel/sched/wait.h"
#include "kernel/time/hrtimer.h"
#include "kernel/time/posix-timers.h"
#include "kernel/sched/cputime.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"

#define HRES_NSEC 1 /* clock_getres of a clock read from the TSC, as Linux's hres clocks */
#define LOW_RES_NSEC (NSEC_PER_SEC / HZ) /* of the coarse clocks: a tick, Linux's TICK_NSEC */
#define CPU_TICK_RES_NSEC ((NSEC_PER_SEC + HZ - 1) / HZ) /* of the PROF and VIRT CPU clocks */

struct __kernel_old_timeval {
	long tv_sec, tv_usec;
};

/*
 * The clocks that read the date (Linux's, whose timers are on the realtime base: the alarm
 * clock's too). An absolute time on them waits for a date, and moves when it is set.
 */
bool is_realtime_clock(int clock)
{
	return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_ALARM || clock == CLOCK_TAI;
}

/*
 * The clock's reading: 0 and *ns, or -EINVAL if there is no such clock (Linux's
 * clockid_to_kclock and the CPU clocks' pid check). A negative id is a CPU-time clock
 * (posix-timers.h), or a dynamic clock's file descriptor (PTP devices), of which Lucid has none.
 */
static int clock_ns(int which_clock, uint64_t *ns)
{
	if (which_clock < 0)
		return (which_clock & CLOCKFD_MASK) == CLOCKFD ? -EINVAL
							       : cpu_clock_read(which_clock, ns);
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
		return cpu_clock_read(MAKE_PROCESS_CPUCLOCK(0, CPUCLOCK_SCHED), ns);
	case CLOCK_THREAD_CPUTIME_ID:
		return cpu_clock_read(MAKE_THREAD_CPUCLOCK(0, CPUCLOCK_SCHED), ns);
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
	/* A CPU clock other than SCHED counts at the tick (Linux's posix_cpu_clock_getres). */
	bool cpu_tick = which_clock < 0 && CPUCLOCK_WHICH(which_clock) != CPUCLOCK_SCHED;
	struct __kernel_timespec ts = {0, coarse     ? (long)LOW_RES_NSEC
					  : cpu_tick ? (long)CPU_TICK_RES_NSEC
						     : HRES_NSEC};

	if (err)
		return err;
	return tp && copy_to_user(tp, &ts, sizeof(ts)) ? -EFAULT : 0;
}

long sys_gettimeofday(struct __kernel_old_timeval __user *tv, void __user *tz)
{
	uint64_t ns = ktime_get_real_ns();
	struct __kernel_old_timeval t = {(long)(ns / NSEC_PER_SEC),
					 (long)(ns % NSEC_PER_SEC / NSEC_PER_USEC)};
	struct timezone z = sys_tz; /* what settimeofday last set: UTC at boot */

	if (tv && copy_to_user(tv, &t, sizeof(t)))
		return -EFAULT;
	if (tz && copy_to_user(tz, &z, sizeof(z)))
		return -EFAULT;
	return 0;
}

/*
 * Setting the date and the timezone (Linux's do_sys_settimeofday64): the date's range first,
 * then the caller's right (CAP_SYS_TIME: everyone is root on Lucid, so it is always there),
 * then the timezone (within 15 hours of Greenwich), then the date itself. The timezone is
 * only remembered, for gettimeofday (sys_tz): the clocks stay UTC. (Linux's first timezone
 * set with no time also "warps" a clock the firmware keeps in local time; Lucid's CMOS clock
 * is read as UTC, so there is nothing to warp.)
 */
#define TZ_MINUTESWEST_MAX (15 * 60)

static long do_sys_settimeofday64(const struct __kernel_timespec *tv, const struct timezone *tz)
{
	if (tv && (tv->tv_sec < 0 || tv->tv_nsec < 0 || tv->tv_nsec >= (long)NSEC_PER_SEC ||
		   tv->tv_sec >= TIME_SETTOD_SEC_MAX))
		return -EINVAL; /* timespec64_valid_settod */
	if (tz) {
		if (tz->tz_minuteswest > TZ_MINUTESWEST_MAX ||
		    tz->tz_minuteswest < -TZ_MINUTESWEST_MAX)
			return -EINVAL;
		sys_tz = *tz;
		update_vsyscall_tz();
	}
	if (tv)
		return do_settimeofday64((uint64_t)tv->tv_sec * NSEC_PER_SEC +
					 (uint64_t)tv->tv_nsec);
	return 0;
}

/*
 * clock_settime: only CLOCK_REALTIME can be set, in Linux's order of checks: a clock that has
 * no clock_set (every other named clock, an unknown id) -EINVAL; then the timespec (-EFAULT);
 * then the clock's own: a CPU-time clock "can never be reset", -EPERM once its id is found
 * good (-EINVAL otherwise), as Linux's posix_cpu_clock_set; a dynamic clock's fd, of which
 * Lucid has none, -EINVAL. CLOCK_PROCESS_CPUTIME_ID and CLOCK_THREAD_CPUTIME_ID have no
 * clock_set in Linux either: -EINVAL.
 */
long sys_clock_settime(int which_clock, const struct __kernel_timespec __user *tp)
{
	struct __kernel_timespec ts;
	uint64_t ns;

	if (which_clock >= 0 && which_clock != CLOCK_REALTIME)
		return -EINVAL;
	if (copy_from_user(&ts, tp, sizeof(ts)))
		return -EFAULT;
	if (which_clock < 0) {
		if ((which_clock & CLOCKFD_MASK) == CLOCKFD)
			return -EINVAL;
		return cpu_clock_read(which_clock, &ns) ? -EINVAL : -EPERM;
	}
	return do_sys_settimeofday64(&ts, NULL);
}

/*
 * settimeofday: a struct timeval (microseconds: more than a million of them -EINVAL, exactly a
 * million passes here and fails as a timespec, as Linux's check lets it), a struct timezone,
 * either NULL. Both read (-EFAULT) before anything is checked or set.
 */
long sys_settimeofday(const struct __kernel_old_timeval __user *utv,
		      const struct timezone __user *utz)
{
	struct __kernel_old_timeval tv;
	struct __kernel_timespec ts;
	struct timezone tz;

	if (utv) {
		if (copy_from_user(&tv, utv, sizeof(tv)))
			return -EFAULT;
		if (tv.tv_usec > (long)USEC_PER_SEC || tv.tv_usec < 0)
			return -EINVAL;
		ts = (struct __kernel_timespec){tv.tv_sec, tv.tv_usec * (long)NSEC_PER_USEC};
	}
	if (utz && copy_from_user(&tz, utz, sizeof(tz)))
		return -EFAULT;
	return do_sys_settimeofday64(utv ? &ts : NULL, utz ? &tz : NULL);
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
 * Asleep until ktime_get_ns() reads end (real: until the date is end), or a signal comes. The
 * wakeup is an hrtimer's (Linux's do_nanosleep), queued for end itself: the sleep ends within
 * the timer interrupt's latency of end, not at the next tick, and never before it (the timer
 * does not run before its time; a wakeup for another reason sleeps again). A date's timer is
 * on the realtime base: setting the date moves it (clock_was_set).
 */
static void sleep_until(uint64_t end, bool real)
{
	struct hrtimer_sleeper sl;

	hrtimer_init_sleeper(&sl, real ? CLOCK_REALTIME : CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
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
}

/*
 * Sleeps until the clock reads end (ns), or a signal: then, for a relative sleep, the time left
 * in rem, as Linux. A program's sleep returns -ERESTART_RESTARTBLOCK: -EINTR if a handler runs,
 * otherwise (a stop and SIGCONT) restart_syscall sleeps on to the same end; an absolute one
 * just starts again (-ERESTARTNOHAND). A kernel command's sleep ends with -EINTR.
 *
 * end is a ktime_get_ns() reading for every clock but the CPU-time ones (a negative id, its
 * pid filled in: see sys_clock_nanosleep) and the absolute sleeps on a date (real: an end on
 * CLOCK_REALTIME, which a change of date moves, as Linux's hrtimer on its realtime base).
 * The CPU clocks move only at the tick, for the tasks they count: the sleeper looks at its
 * clock each tick (Linux arms a CPU timer), and ends when its task is gone.
 */
static long do_nanosleep(uint64_t end, struct __kernel_timespec __user *rem, int clock, bool abs)
{
	struct task *t = current;
	bool cpu = clock < 0, armed = false;
	bool real = abs && is_realtime_clock(clock);
	uint64_t now;

	for (;;) {
		if (!cpu)
			now = real ? ktime_get_real_ns() : ktime_get_ns();
		else if (cpu_clock_read(clock, &now))
			return 0; /* the task it counts has been reaped */
		/* Linux queues the timer even for an end already past: it runs at once. */
		if (now >= end && (cpu || armed || signal_pending_current()))
			return 0;
		if (signal_pending_current())
			break;
		sleep_until(cpu ? ktime_get_ns() + TICK_NSEC : end, real);
		armed = true;
	}
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

/*
 * Which clocks a sleep may use, in Linux's order of checks: no such clock, -EINVAL; one with
 * no nsleep (the raw and coarse clocks, the calling thread's CPU clock, a dynamic clock),
 * -EOPNOTSUPP; then the timespec (-EFAULT, -EINVAL); then the clock's own rules.
 */
long sys_clock_nanosleep(int which_clock, int flags, const struct __kernel_timespec __user *rqtp,
			 struct __kernel_timespec __user *rmtp)
{
	bool cpu = which_clock < 0 || which_clock == CLOCK_PROCESS_CPUTIME_ID;
	bool abs = flags & TIMER_ABSTIME;
	uint64_t ns, now;
	long err;

	if (which_clock < 0 && (which_clock & CLOCKFD_MASK) == CLOCKFD)
		return -EOPNOTSUPP;
	if (!cpu && (err = clock_ns(which_clock, &now)))
		return err;
	if (which_clock == CLOCK_REALTIME_COARSE || which_clock == CLOCK_MONOTONIC_COARSE ||
	    which_clock == CLOCK_MONOTONIC_RAW || which_clock == CLOCK_THREAD_CPUTIME_ID)
		return -EOPNOTSUPP;
	err = get_timespec(rqtp, &ns);
	if (err)
		return err;
	if ((which_clock == CLOCK_REALTIME_ALARM || which_clock == CLOCK_BOOTTIME_ALARM) &&
	    (flags & ~TIMER_ABSTIME))
		return -EINVAL; /* Linux's alarm_timer_nsleep: the others ignore other flags */
	if (cpu) {
		if (which_clock == CLOCK_PROCESS_CPUTIME_ID)
			which_clock = MAKE_PROCESS_CPUCLOCK(0, CPUCLOCK_SCHED);
		/* Its own thread's clock would never move while it sleeps (Linux's check). */
		if (CPUCLOCK_PERTHREAD(which_clock) &&
		    (CPUCLOCK_PID(which_clock) == 0 || CPUCLOCK_PID(which_clock) == current->pid))
			return -EINVAL;
		if (cpu_clock_read(which_clock, &now))
			return -EINVAL;
		if (!CPUCLOCK_PID(which_clock)) /* the caller's process, by its pid from now on */
			which_clock =
				MAKE_PROCESS_CPUCLOCK(current->tgid, CPUCLOCK_WHICH(which_clock));
	} else if (!abs) {
		now = ktime_get_ns(); /* a relative sleep is the same length on every clock */
	} /* an absolute end stays as given: a date on the CLOCK_REALTIME kind (do_nanosleep) */
	if (abs)
		return do_nanosleep(ns, NULL, which_clock, true);
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
