/*
 * Every clock id in clock_gettime, clock_getres and clock_nanosleep, judged against Linux
 * (tests/qemu/user/test_posix_timers.py): the named clocks, ids that name none, a dynamic
 * clock's fd id, the CPU-time clocks of this process and thread, of a child and another
 * thread (clock_getcpuclockid, pthread_getcpuclockid) and of no task; which clocks a sleep may
 * use and with which error the others fail, in Linux's order of checks; sleeps on CPU clocks
 * that end when the task counted has run so long; EINTR with the time left (a relative sleep)
 * or none (an absolute one); a sleep stopped and continued that ends no earlier than asked.
 * Raw system calls: the C libraries answer some of these themselves. Invariants, not times.
 * `allclocks alarm` prints the alarm clocks' lines instead (Linux's need an RTC the host may
 * lack; Lucid has one).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_SEC 1000000000L
#define MSEC 1000000L
#define WAIT_S 20 /* a spin gives up after this long of the wall clock */
#define NO_PID 0x0fffffff /* a pid no task has */
#define CPUCLOCK_PROF 0
#define CPUCLOCK_VIRT 1
#define CPUCLOCK_SCHED 2
#define PROCESS_CLOCK(pid, which) ((clockid_t)((~(unsigned int)(pid) << 3) | (which)))
#define THREAD_CLOCK(pid, which) (PROCESS_CLOCK(pid, which) | 4)
#define FD_CLOCK(fd) ((clockid_t)((~(unsigned int)(fd) << 3) | 3))
#ifndef CLOCK_TAI
#define CLOCK_TAI 11
#endif

static const char *yes(int cond)
{
	return cond ? "yes" : "no";
}

static const char *err(long r)
{
	return r < 0 ? strerror(errno) : "ok";
}

static long now_ns(clockid_t clock)
{
	struct timespec ts;

	syscall(SYS_clock_gettime, clock, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static long nsleep(clockid_t clock, int flags, long ns, struct timespec *rem)
{
	struct timespec ts = {ns / NSEC_PER_SEC, ns % NSEC_PER_SEC};

	return syscall(SYS_clock_nanosleep, clock, flags, &ts, rem);
}

/* One clock: does it read, its resolution (or "a tick" where Linux's depends on HZ). */
static void show_clock(const char *name, clockid_t id, int tick_res)
{
	struct timespec ts, res;
	long g = syscall(SYS_clock_gettime, id, &ts);
	const char *ge = err(g);
	long r = syscall(SYS_clock_getres, id, &res);

	printf("%-28s gettime %s, getres %s", name, ge, err(r));
	if (r == 0 && tick_res)
		printf(" a tick (1 to 10 ms): %s",
		       yes(res.tv_sec == 0 && res.tv_nsec >= MSEC && res.tv_nsec <= 10 * MSEC));
	else if (r == 0)
		printf(" %ld.%09ld", (long)res.tv_sec, res.tv_nsec);
	printf("\n");
}

static atomic_int spinning, stop_spinning, spinner_tid;

/* Spins until told to stop (or WAIT_S): CPU time for the clocks of this process to count. */
static void *spinner(void *arg)
{
	long end = now_ns(CLOCK_MONOTONIC) + WAIT_S * NSEC_PER_SEC;

	(void)arg;
	spinner_tid = (int)syscall(SYS_gettid);
	spinning = 1;
	while (!stop_spinning && now_ns(CLOCK_MONOTONIC) < end)
		;
	return NULL;
}

static void ids(pid_t child)
{
	clockid_t own;

	printf("-- the clocks\n");
	show_clock("REALTIME", CLOCK_REALTIME, 0);
	show_clock("MONOTONIC", CLOCK_MONOTONIC, 0);
	show_clock("PROCESS_CPUTIME_ID", CLOCK_PROCESS_CPUTIME_ID, 0);
	show_clock("THREAD_CPUTIME_ID", CLOCK_THREAD_CPUTIME_ID, 0);
	show_clock("MONOTONIC_RAW", CLOCK_MONOTONIC_RAW, 0);
	show_clock("REALTIME_COARSE", CLOCK_REALTIME_COARSE, 1);
	show_clock("MONOTONIC_COARSE", CLOCK_MONOTONIC_COARSE, 1);
	show_clock("BOOTTIME", CLOCK_BOOTTIME, 0);
	show_clock("10 (none)", 10, 0);
	show_clock("TAI", CLOCK_TAI, 0);
	show_clock("12 (none)", 12, 0);
	show_clock("1000 (none)", 1000, 0);
	show_clock("fd 0 (not a clock)", FD_CLOCK(0), 0);
	show_clock("fd 999 (not open)", FD_CLOCK(999), 0);
	show_clock("process 0, SCHED", PROCESS_CLOCK(0, CPUCLOCK_SCHED), 0);
	show_clock("process 0, PROF", PROCESS_CLOCK(0, CPUCLOCK_PROF), 1);
	show_clock("process 0, VIRT", PROCESS_CLOCK(0, CPUCLOCK_VIRT), 1);
	show_clock("process 0, which 3", PROCESS_CLOCK(0, 3), 0);
	show_clock("thread 0, SCHED", THREAD_CLOCK(0, CPUCLOCK_SCHED), 0);
	show_clock("thread 0, which 3", THREAD_CLOCK(0, 3), 0);
	show_clock("process: this one", PROCESS_CLOCK(getpid(), CPUCLOCK_SCHED), 0);
	show_clock("process: the child", PROCESS_CLOCK(child, CPUCLOCK_SCHED), 0);
	show_clock("process: no such pid", PROCESS_CLOCK(NO_PID, CPUCLOCK_SCHED), 0);
	show_clock("process: a thread's tid", PROCESS_CLOCK(spinner_tid, CPUCLOCK_SCHED), 0);
	show_clock("thread: this one", THREAD_CLOCK(syscall(SYS_gettid), CPUCLOCK_SCHED), 0);
	show_clock("thread: the other one", THREAD_CLOCK(spinner_tid, CPUCLOCK_SCHED), 0);
	show_clock("thread: the child's", THREAD_CLOCK(child, CPUCLOCK_SCHED), 0);
	show_clock("thread: no such tid", THREAD_CLOCK(NO_PID, CPUCLOCK_SCHED), 0);
	printf("clock_getcpuclockid(child): %s\n", strerror(clock_getcpuclockid(child, &own)));
	printf("  is the encoding: %s\n", yes(own == PROCESS_CLOCK(child, CPUCLOCK_SCHED)));
	pthread_getcpuclockid(pthread_self(), &own);
	printf("pthread_getcpuclockid(self) is the encoding: %s\n",
	       yes(own == THREAD_CLOCK(syscall(SYS_gettid), CPUCLOCK_SCHED)));
	/*
	 * The child spins, this process sleeps: the child's clock is ahead and moving. When it
	 * moves depends on when the child gets a CPU (not within 50 ms on a loaded machine), so
	 * the line says whether it moved within WAIT_S seconds: an invariant, not a timing.
	 */
	long a = now_ns(PROCESS_CLOCK(child, CPUCLOCK_SCHED)), moved = 0;
	struct timespec nap = {0, 50 * MSEC};
	for (long waited = 0; !moved && waited < WAIT_S * 1000; waited += 50) {
		nanosleep(&nap, NULL);
		moved = now_ns(PROCESS_CLOCK(child, CPUCLOCK_SCHED)) > a;
	}
	printf("the child's clock moves: %s\n", yes(moved));
	printf("VIRT <= PROF: %s\n", yes(now_ns(PROCESS_CLOCK(0, CPUCLOCK_VIRT)) <=
					 now_ns(PROCESS_CLOCK(0, CPUCLOCK_PROF))));
}

/* Which clocks can be slept on, and the errors of those that cannot, in Linux's order. */
static void sleep_errors(void)
{
	static const struct {
		clockid_t id;
		const char *name;
	} clocks[] = {
		{CLOCK_REALTIME, "REALTIME"},
		{CLOCK_MONOTONIC, "MONOTONIC"},
		{CLOCK_THREAD_CPUTIME_ID, "THREAD_CPUTIME_ID"},
		{CLOCK_MONOTONIC_RAW, "MONOTONIC_RAW"},
		{CLOCK_REALTIME_COARSE, "REALTIME_COARSE"},
		{CLOCK_MONOTONIC_COARSE, "MONOTONIC_COARSE"},
		{CLOCK_BOOTTIME, "BOOTTIME"},
		{10, "10 (none)"},
		{CLOCK_TAI, "TAI"},
		{12, "12 (none)"},
		{FD_CLOCK(0), "fd 0"},
		{THREAD_CLOCK(0, CPUCLOCK_SCHED), "thread 0"},
		{PROCESS_CLOCK(NO_PID, CPUCLOCK_SCHED), "process: no such pid"},
	};
	struct timespec bad = {0, NSEC_PER_SEC};

	printf("-- clock_nanosleep: 1 ms; a bad timespec; a bad pointer\n");
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		long r = nsleep(clocks[i].id, 0, MSEC, NULL);
		const char *e1 = err(r);
		long r2 = syscall(SYS_clock_nanosleep, clocks[i].id, 0, &bad, NULL);
		const char *e2 = err(r2);
		long r3 = syscall(SYS_clock_nanosleep, clocks[i].id, 0, (void *)8, NULL);

		printf("%-22s %s; %s; %s\n", clocks[i].name, e1, e2, err(r3));
	}
	printf("own thread by tid: %s\n",
	       err(nsleep(THREAD_CLOCK(syscall(SYS_gettid), CPUCLOCK_SCHED), 0, MSEC, NULL)));
	printf("MONOTONIC, flags 2 (ignored): %s\n", err(nsleep(CLOCK_MONOTONIC, 2, MSEC, NULL)));
	long start = now_ns(CLOCK_MONOTONIC);
	printf("MONOTONIC, TIMER_ABSTIME in the past: %s\n",
	       err(nsleep(CLOCK_MONOTONIC, TIMER_ABSTIME, NSEC_PER_SEC, NULL)));
	const char *e = err(nsleep(CLOCK_REALTIME, TIMER_ABSTIME, NSEC_PER_SEC, NULL));
	printf("REALTIME, TIMER_ABSTIME in 1970: %s, at once: %s\n", e,
	       yes(now_ns(CLOCK_MONOTONIC) - start < 5L * NSEC_PER_SEC));
	struct timespec rem = {-1, -1};
	start = now_ns(CLOCK_MONOTONIC);
	long r = nsleep(CLOCK_MONOTONIC, 0, 30 * MSEC, &rem);
	printf("30 ms: %s, not early: %s, rem untouched: %s\n", err(r),
	       yes(now_ns(CLOCK_MONOTONIC) - start >= 30 * MSEC), yes(rem.tv_sec == -1));
	long target = now_ns(CLOCK_REALTIME) + 30 * MSEC;
	r = nsleep(CLOCK_REALTIME, TIMER_ABSTIME, target, NULL);
	printf("REALTIME, TIMER_ABSTIME now + 30 ms: %s, not early: %s\n", err(r),
	       yes(now_ns(CLOCK_REALTIME) >= target));
	target = now_ns(CLOCK_BOOTTIME) + 30 * MSEC;
	r = nsleep(CLOCK_BOOTTIME, TIMER_ABSTIME, target, NULL);
	printf("BOOTTIME, TIMER_ABSTIME now + 30 ms: %s, not early: %s\n", err(r),
	       yes(now_ns(CLOCK_BOOTTIME) >= target));
}

/* Sleeps on CPU clocks: they end once the task counted has run so long. */
static void cpu_sleeps(pid_t child)
{
	printf("-- sleeps on CPU clocks\n");
	long a = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	long r = nsleep(CLOCK_PROCESS_CPUTIME_ID, 0, 50 * MSEC, NULL);
	printf("this process, 50 ms (a thread spins): %s, after 50 ms of it: %s\n", err(r),
	       yes(now_ns(CLOCK_PROCESS_CPUTIME_ID) - a >= 50 * MSEC));
	clockid_t other = THREAD_CLOCK(spinner_tid, CPUCLOCK_SCHED);
	a = now_ns(other);
	r = nsleep(other, 0, 50 * MSEC, NULL);
	printf("the other thread, 50 ms: %s, after 50 ms of it: %s\n", err(r),
	       yes(now_ns(other) - a >= 50 * MSEC));
	other = PROCESS_CLOCK(child, CPUCLOCK_SCHED);
	a = now_ns(other);
	r = nsleep(other, TIMER_ABSTIME, a + 50 * MSEC, NULL);
	printf("the child, TIMER_ABSTIME its clock + 50 ms: %s, reached: %s\n", err(r),
	       yes(now_ns(other) >= a + 50 * MSEC));
	other = PROCESS_CLOCK(child, CPUCLOCK_VIRT);
	a = now_ns(other);
	r = nsleep(other, 0, 20 * MSEC, NULL);
	printf("the child's user time (VIRT), 20 ms: %s, after 20 ms of it: %s\n", err(r),
	       yes(now_ns(other) - a >= 20 * MSEC));
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* A handler interrupts: EINTR, the time left for a relative sleep, nothing for an absolute. */
static void interrupted(void)
{
	struct sigaction sa;
	struct timespec rem;
	timer_t t;
	struct itimerspec its = {{0, 0}, {0, 50 * MSEC}};
	static const clockid_t clocks[] = {CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_BOOTTIME,
					   CLOCK_TAI};
	static const char *names[] = {"MONOTONIC", "REALTIME", "BOOTTIME", "TAI"};

	printf("-- interrupted by a handler (no SA_RESTART) after 50 ms of 2 s\n");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	timer_create(CLOCK_MONOTONIC, NULL, &t);
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		rem = (struct timespec){-1, -1};
		timer_settime(t, 0, &its, NULL);
		long start = now_ns(CLOCK_MONOTONIC);
		long r = nsleep(clocks[i], 0, 2 * NSEC_PER_SEC, &rem);
		const char *e = err(r);
		long slept = now_ns(CLOCK_MONOTONIC) - start,
		     left = rem.tv_sec * NSEC_PER_SEC + rem.tv_nsec;

		printf("%s relative: %s, rem in (0, 2 s): %s, rem + slept >= 2 s: %s\n", names[i],
		       e, yes(left > 0 && left < 2 * NSEC_PER_SEC),
		       yes(left + slept >= 2 * NSEC_PER_SEC));
		rem = (struct timespec){-1, -1};
		timer_settime(t, 0, &its, NULL);
		r = nsleep(clocks[i], TIMER_ABSTIME, now_ns(clocks[i]) + 2 * NSEC_PER_SEC, &rem);
		e = err(r);
		printf("%s TIMER_ABSTIME: %s, rem untouched: %s\n", names[i], e,
		       yes(rem.tv_sec == -1 && rem.tv_nsec == -1));
	}
	rem = (struct timespec){-1, -1};
	timer_settime(t, 0, &its, NULL);
	struct timespec two = {2, 0};
	long r = syscall(SYS_nanosleep, &two, &rem);
	const char *e = err(r);
	printf("nanosleep: %s, rem in (0, 2 s): %s; handler ran %d times\n", e,
	       yes(rem.tv_sec * NSEC_PER_SEC + rem.tv_nsec > 0 &&
		   rem.tv_sec * NSEC_PER_SEC + rem.tv_nsec < 2 * NSEC_PER_SEC),
	       (int)alarms);
	timer_delete(t);
	signal(SIGALRM, SIG_DFL);
}

/* Stopped and continued in its sleep: it sleeps on to the same end, never less (restart). */
static void stopped(void)
{
	static const struct {
		clockid_t id;
		int flags;
		const char *name;
	} sleeps[] = {
		{CLOCK_MONOTONIC, 0, "MONOTONIC relative"},
		{CLOCK_REALTIME, TIMER_ABSTIME, "REALTIME absolute"},
	};

	printf("-- stopped at 50 ms of a 300 ms sleep, continued at 100 ms\n");
	for (size_t i = 0; i < sizeof(sleeps) / sizeof(sleeps[0]); i++) {
		int status;
		pid_t pid;

		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			long start = now_ns(sleeps[i].id);
			long when = sleeps[i].flags ? start + 300 * MSEC : 300 * MSEC;
			long r = nsleep(sleeps[i].id, sleeps[i].flags, when, NULL);

			_exit(r == 0 && now_ns(sleeps[i].id) - start >= 300 * MSEC ? 0 : 1);
		}
		struct timespec nap = {0, 50 * MSEC};
		nanosleep(&nap, NULL);
		kill(pid, SIGSTOP);
		nanosleep(&nap, NULL);
		kill(pid, SIGCONT);
		waitpid(pid, &status, 0);
		printf("%s: returned 0 after the whole time: %s\n", sleeps[i].name,
		       yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));
	}
}

/* The alarm clocks, where Linux has an RTC (and the caller CAP_WAKE_ALARM): Lucid's root. */
static void alarm_clocks(void)
{
	static const struct {
		clockid_t id;
		const char *name;
	} clocks[] = {{CLOCK_REALTIME_ALARM, "REALTIME_ALARM"},
		      {CLOCK_BOOTTIME_ALARM, "BOOTTIME_ALARM"}};

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		clockid_t twin =
			clocks[i].id == CLOCK_REALTIME_ALARM ? CLOCK_REALTIME : CLOCK_BOOTTIME;
		long a = now_ns(twin), b = now_ns(clocks[i].id), c = now_ns(twin);
		struct sigevent sev;
		timer_t t;

		show_clock(clocks[i].name, clocks[i].id, 0);
		printf("  reads as %s: %s\n", twin == CLOCK_REALTIME ? "REALTIME" : "BOOTTIME",
		       yes(a <= b && b <= c));
		long start = now_ns(twin);
		const char *e = err(nsleep(clocks[i].id, 0, 20 * MSEC, NULL)); /* the call first */

		printf("  sleep 20 ms: %s, not early: %s\n", e,
		       yes(now_ns(twin) - start >= 20 * MSEC));
		printf("  flags 2: %s\n", err(nsleep(clocks[i].id, 2, MSEC, NULL)));
		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_NONE;
		printf("  timer_create: %s\n", err(timer_create(clocks[i].id, &sev, &t)));
		timer_delete(t);
	}
}

int main(int argc, char **argv)
{
	pthread_t th;
	pid_t child;
	int status;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && strcmp(argv[1], "alarm") == 0) {
		alarm_clocks();
		return 0;
	}
	child = fork();
	if (child == 0) { /* spins until killed, or WAIT_S */
		spinner(NULL);
		_exit(0);
	}
	pthread_create(&th, NULL, spinner, NULL);
	for (long end = now_ns(CLOCK_MONOTONIC) + WAIT_S * NSEC_PER_SEC;
	     !spinning && now_ns(CLOCK_MONOTONIC) < end;)
		sched_yield();
	ids(child);
	sleep_errors();
	cpu_sleeps(child);
	stop_spinning = 1;
	pthread_join(th, NULL);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	show_clock("process: the child, reaped", PROCESS_CLOCK(child, CPUCLOCK_SCHED), 0);
	interrupted();
	stopped();
	return 0;
}
