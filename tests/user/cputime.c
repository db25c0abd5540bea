/*
 * Interval timers and CPU time, judged against Linux (tests/qemu/user/test_syscalls.py):
 * setitimer/getitimer round trips and their errors; musl's alarm() (a setitimer) whose SIGALRM
 * handler runs and ends a read of an empty pipe with EINTR, or, with SA_RESTART, lets the read
 * start again and finish; a periodic ITIMER_REAL; ITIMER_VIRTUAL and ITIMER_PROF firing as the
 * process spins; getrusage, times and wait4's rusage counting the user time of a spin. Times
 * vary from run to run: what is printed are the invariants (yes/no), never the figures.
 * `cputime burn MS` spins for MS milliseconds of wall time, for bash's `time`.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "show.h"

#define NSEC_PER_SEC 1000000000L
#define USEC_PER_SEC 1000000L
#define WAIT_LIMIT_NS (20 * NSEC_PER_SEC) /* a spin waits this long at most for the tick */
#define SLACK_US 20000L /* two ticks at HZ=100: the tick's granularity */
#define CHILD_USER_US 50000L /* the user time the child spins for */

static volatile sig_atomic_t alarms, vtalarms, profs;
static int pipefd[2];

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static long tv_us(struct timeval tv)
{
	return tv.tv_sec * USEC_PER_SEC + tv.tv_usec;
}

static const char *yes(int cond)
{
	return cond ? "yes" : "no";
}

static void on_alrm(int sig)
{
	(void)sig;
	alarms++;
}

static void on_alrm_write(int sig)
{
	(void)sig;
	alarms++;
	(void)!write(pipefd[1], "x", 1);
}

static void on_vtalrm(int sig)
{
	(void)sig;
	vtalarms++;
}

static void on_prof(int sig)
{
	(void)sig;
	profs++;
}

static void handle(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

static long user_us(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return tv_us(ru.ru_utime);
}

/* Spins until the process has at least us of user time, or the wall-time limit passes. */
static int spin_user(long us)
{
	long end = now_ns() + WAIT_LIMIT_NS;

	while (user_us(RUSAGE_SELF) < us)
		if (now_ns() > end)
			return 0;
	return 1;
}

static void burn(long ms)
{
	long end = now_ns() + ms * (NSEC_PER_SEC / 1000);

	while (now_ns() < end)
		for (volatile int i = 0; i < 1000; i++)
			;
}

static void itimer_calls(void)
{
	struct itimerval v = {{0, 250000}, {5, 0}}, old, got;

	printf("setitimer(ITIMER_REAL, 5 s every 0.25 s): %d\n", setitimer(ITIMER_REAL, &v, NULL));
	getitimer(ITIMER_REAL, &got);
	printf("getitimer: interval %ld.%06ld, value in (4 s, 5 s]: %s\n",
	       (long)got.it_interval.tv_sec, (long)got.it_interval.tv_usec,
	       yes(tv_us(got.it_value) > 4 * USEC_PER_SEC &&
		   tv_us(got.it_value) <= 5 * USEC_PER_SEC));
	v.it_value.tv_sec = 3;
	v.it_interval.tv_usec = 0;
	setitimer(ITIMER_REAL, &v, &old);
	printf("the old one: interval %ld.%06ld, value in (4 s, 5 s]: %s\n",
	       (long)old.it_interval.tv_sec, (long)old.it_interval.tv_usec,
	       yes(tv_us(old.it_value) > 4 * USEC_PER_SEC &&
		   tv_us(old.it_value) <= 5 * USEC_PER_SEC));
	printf("alarm(0) says what was left, rounded up: %u\n", alarm(0));
	getitimer(ITIMER_REAL, &got);
	printf("after alarm(0): value %ld.%06ld\n", (long)got.it_value.tv_sec,
	       (long)got.it_value.tv_usec);

	v = (struct itimerval){{0, 100000}, {2, 0}};
	setitimer(ITIMER_VIRTUAL, &v, NULL);
	getitimer(ITIMER_VIRTUAL, &got);
	printf("ITIMER_VIRTUAL: interval %ld.%06ld, value near 2 s: %s\n",
	       (long)got.it_interval.tv_sec, (long)got.it_interval.tv_usec,
	       yes(labs(tv_us(got.it_value) - 2 * USEC_PER_SEC) <= SLACK_US));
	v = (struct itimerval){{0, 0}, {0, 0}};
	setitimer(ITIMER_VIRTUAL, &v, &old);
	getitimer(ITIMER_VIRTUAL, &got);
	printf("stopped: value %ld.%06ld, the old interval %ld.%06ld\n", (long)got.it_value.tv_sec,
	       (long)got.it_value.tv_usec, (long)old.it_interval.tv_sec,
	       (long)old.it_interval.tv_usec);

	SHOW("setitimer(3)", setitimer(3, &v, NULL));
	SHOW("getitimer(-1)", getitimer(-1, &got));
	v.it_value.tv_usec = USEC_PER_SEC;
	SHOW("tv_usec 1000000", setitimer(ITIMER_REAL, &v, NULL));
	v.it_value = (struct timeval){-1, 0};
	SHOW("tv_sec -1", setitimer(ITIMER_PROF, &v, NULL));
	SHOW("getitimer(bad pointer)", getitimer(ITIMER_REAL, (void *)8));
	SHOW("setitimer(bad pointer)", syscall(SYS_setitimer, ITIMER_REAL, (void *)8, NULL));
	SHOW("setitimer(value NULL)", syscall(SYS_setitimer, ITIMER_REAL, NULL, NULL));
	/* A time too long to count is for ever, not an error (Linux saturates it). */
	v = (struct itimerval){{0, 0}, {LONG_MAX, 0}};
	SHOW("tv_sec LONG_MAX", setitimer(ITIMER_REAL, &v, NULL));
	getitimer(ITIMER_REAL, &got);
	printf("left: more than 100 years: %s\n", yes(got.it_value.tv_sec > 100L * 365 * 86400));
	v.it_value.tv_sec = 0;
	setitimer(ITIMER_REAL, &v, NULL);
}

static void alarm_interrupts_read(void)
{
	char c;
	ssize_t n;

	if (pipe(pipefd))
		return;
	/* No SA_RESTART: the read ends with EINTR once the handler has run. */
	handle(SIGALRM, on_alrm, 0);
	alarms = 0;
	alarm(1);
	errno = 0;
	n = read(pipefd[0], &c, 1);
	printf("read with alarm(1), no SA_RESTART: %zd %s, handler ran %d time(s)\n", n,
	       strerror(errno), alarms);
	/* SA_RESTART: the read starts again and gets the byte the handler wrote. */
	handle(SIGALRM, on_alrm_write, SA_RESTART);
	alarms = 0;
	alarm(1);
	n = read(pipefd[0], &c, 1);
	printf("read with alarm(1), SA_RESTART: %zd '%c', handler ran %d time(s)\n", n,
	       n == 1 ? c : '?', alarms);
	close(pipefd[0]);
	close(pipefd[1]);
}

static void periodic_alarm(void)
{
	struct itimerval v = {{0, 50000}, {0, 50000}}, off = {{0, 0}, {0, 0}};

	handle(SIGALRM, on_alrm, 0);
	alarms = 0;
	setitimer(ITIMER_REAL, &v, NULL);
	while (alarms < 3)
		pause();
	setitimer(ITIMER_REAL, &off, NULL);
	printf("a periodic ITIMER_REAL: 3 SIGALRMs, then stopped: %d\n", alarms);
}

static void cpu_timers(void)
{
	struct itimerval v = {{0, 0}, {0, 100000}};
	long end;

	handle(SIGVTALRM, on_vtalrm, 0);
	handle(SIGPROF, on_prof, 0);
	setitimer(ITIMER_VIRTUAL, &v, NULL);
	setitimer(ITIMER_PROF, &v, NULL);
	end = now_ns() + WAIT_LIMIT_NS;
	while ((!vtalarms || !profs) && now_ns() < end)
		;
	printf("spinning: SIGVTALRM %d, SIGPROF %d\n", vtalarms, profs);
}

static void rusage_of_a_spin(long start_ns)
{
	struct rusage ru;
	struct tms tms;
	long wall_us, cpu_us;
	clock_t t0, t1;
	int counted = spin_user(SLACK_US * 3);

	t0 = times(&tms);
	getrusage(RUSAGE_SELF, &ru);
	wall_us = (now_ns() - start_ns) / 1000;
	cpu_us = tv_us(ru.ru_utime) + tv_us(ru.ru_stime);
	printf("getrusage(RUSAGE_SELF): user time counted: %s, user+system <= wall time: %s\n",
	       yes(counted), yes(cpu_us <= wall_us + SLACK_US));
	printf("times() agrees with getrusage: %s\n",
	       yes(labs(tms.tms_utime * (USEC_PER_SEC / sysconf(_SC_CLK_TCK)) -
			tv_us(ru.ru_utime)) <= SLACK_US));
	burn(50);
	t1 = times(NULL);
	printf("times()'s value moves with the clock: %s\n", yes(t1 > t0));
	SHOW("getrusage(2)", getrusage(2, &ru));
	SHOW("getrusage(bad pointer)", getrusage(RUSAGE_SELF, (void *)8));
}

#define CHILD_TOUCH_KIB (8 * 1024) /* the memory the child touches: 8 MiB */
/*
 * What its ru_maxrss must reach: three quarters of it. Linux's RSS counters are per-CPU
 * approximations (percpu_counter_read; before 6.2, per-task caches flushed every 64 faults), so
 * a host's figure can fall a few pages short of what was touched: seen 8192 KiB on one host and
 * less on another. A child that touched nothing reports a few hundred KiB, far below.
 */
#define CHILD_MAXRSS_KIB (CHILD_TOUCH_KIB * 3 / 4)

/* ru_maxrss: the process's own is more than nothing; a child's that touched 8 MiB is more. */
static void maxrss(void)
{
	struct rusage ru;
	int status;
	pid_t pid;

	getrusage(RUSAGE_SELF, &ru);
	printf("ru_maxrss of this process: more than 0: %s\n", yes(ru.ru_maxrss > 0));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		volatile char *p = malloc(CHILD_TOUCH_KIB * 1024L);

		if (!p)
			_exit(1);
		for (long i = 0; i < CHILD_TOUCH_KIB * 1024L; i += 1024) /* every page, for sure */
			p[i] = 1;
		_exit(0);
	}
	wait4(pid, &status, 0, &ru);
	printf("a child that touched 8 MiB: its ru_maxrss at least 6 MiB: %s\n",
	       yes(WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
		   ru.ru_maxrss >= CHILD_MAXRSS_KIB));
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("RUSAGE_CHILDREN's ru_maxrss too: %s\n", yes(ru.ru_maxrss >= CHILD_MAXRSS_KIB));
}

static void rusage_of_a_child(void)
{
	struct rusage ru;
	struct tms tms;
	int status;
	pid_t pid;

	printf("RUSAGE_CHILDREN before any child: %ld\n", user_us(RUSAGE_CHILDREN));
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(spin_user(CHILD_USER_US) ? 0 : 1);
	memset(&ru, 0xff, sizeof(ru));
	wait4(pid, &status, 0, &ru);
	printf("the child spun: %s; wait4's rusage has its user time: %s\n",
	       yes(WIFEXITED(status) && WEXITSTATUS(status) == 0),
	       yes(tv_us(ru.ru_utime) >= CHILD_USER_US - SLACK_US &&
		   ru.ru_utime.tv_usec < USEC_PER_SEC));
	printf("RUSAGE_CHILDREN has it too: %s\n",
	       yes(user_us(RUSAGE_CHILDREN) >= CHILD_USER_US - SLACK_US));
	times(&tms);
	printf("times()'s cutime too: %s\n",
	       yes(tms.tms_cutime * (USEC_PER_SEC / sysconf(_SC_CLK_TCK)) >=
		   CHILD_USER_US - 2 * SLACK_US));
}

int main(int argc, char **argv)
{
	long start = now_ns();

	if (argc == 3 && strcmp(argv[1], "burn") == 0) {
		burn(atol(argv[2]));
		return 0;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	itimer_calls();
	alarm_interrupts_read();
	periodic_alarm();
	cpu_timers();
	rusage_of_a_spin(start);
	rusage_of_a_child();
	maxrss();
	return 0;
}
