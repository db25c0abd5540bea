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
#include "kernel/time/posix-timers.h"
#include "kernel/sched/cputime.h"
#include "arch/x86_64/uaccess.h"
#include "arch/x86_64/rtc.h"
#include "lib/errno.h"

#define HRES_NSEC 1 /* clock_getres of a clock read from the TSC, as Linux's hres clocks */
#define LOW_RES_NSEC (NSEC_PER_SEC / HZ) /* of the coarse clocks: a tick, Linux's TICK_NSEC */
#define CPU_TICK_RES_NSEC ((NSEC_PER_SEC + HZ - 1) / HZ) /* of the PROF and VIRT CPU clocks */

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

uint64_t ktime_clock_offset(int clock)
{
	bool real = clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE ||
		    clock == CLOCK_REALTIME_ALARM || clock == CLOCK_TAI;

	return real ? realtime_at_boot_ns : 0;
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
 * Asleep until ktime_get_ns() reads end, or a signal comes. The wakeup is an hrtimer's
 * (Linux's do_nanosleep), queued for end itself: the sleep ends within the timer interrupt's
 * latency of end, not at the next tick, and never before it (the timer does not run before
 * its time; a wakeup for another reason sleeps again).
 */
static void sleep_until(uint64_t end)
{
	struct hrtimer_sleeper sl;

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
}

/*
 * Sleeps until the clock reads end (ns), or a signal: then, for a relative sleep, the time left
 * in rem, as Linux. A program's sleep returns -ERESTART_RESTARTBLOCK: -EINTR if a handler runs,
 * otherwise (a stop and SIGCONT) restart_syscall sleeps on to the same end; an absolute one
 * just starts again (-ERESTARTNOHAND). A kernel command's sleep ends with -EINTR.
 *
 * clock is a ktime_get_ns() reading for every clock but the CPU-time ones (a negative id, its
 * pid filled in: see sys_clock_nanosleep). Those move only at the tick, for the tasks they
 * count: the sleeper looks at its clock each tick (Linux arms a CPU timer), and ends when its
 * task is gone.
 */
static long do_nanosleep(uint64_t end, struct __kernel_timespec __user *rem, int clock, bool abs)
{
	struct task *t = current;
	bool cpu = clock < 0, armed = false;
	uint64_t now;

	for (;;) {
		if (!cpu)
			now = ktime_get_ns();
		else if (cpu_clock_read(clock, &now))
			return 0; /* the task it counts has been reaped */
		/* Linux queues the timer even for an end already past: it runs at once. */
		if (now >= end && (cpu || armed || signal_pending_current()))
			return 0;
		if (signal_pending_current())
			break;
		sleep_until(cpu ? ktime_get_ns() + TICK_NSEC : end);
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
	} else if (abs) {
		/* do_nanosleep counts on ktime_get_ns(): a CLOCK_REALTIME end is moved onto it. */
		uint64_t offset = ktime_clock_offset(which_clock);

		if (ns != KTIME_MAX)
			ns = ns > offset ? ns - offset : 0;
	} else {
		now = ktime_get_ns(); /* a relative sleep is the same length on every clock */
	}
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
