/*
 * getrusage and times against Linux (tests/qemu/user/test_posix_timers.py): which fields
 * Linux fills and which it leaves 0, for RUSAGE_SELF, RUSAGE_THREAD and RUSAGE_CHILDREN; that
 * a process's times and CLOCK_PROCESS_CPUTIME_ID include its threads', those that have exited
 * too, while RUSAGE_THREAD and CLOCK_THREAD_CPUTIME_ID are the caller's alone; page faults in
 * ru_minflt; context switches in ru_nvcsw; a reaped child's times in RUSAGE_CHILDREN and
 * times()' tms_cutime. Times vary: the lines print invariants, never figures.
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_SEC 1000000000L
#define USEC_PER_SEC 1000000L
#define SPIN_US 100000L /* the CPU time a thread or a child spins for */
#define SLACK_US 20000L /* two ticks at HZ=100: the tick's granularity */
#define WAIT_S 20 /* a spin gives up after this long of the wall clock */
#define TOUCH_PAGES 256

static const char *yes(int cond)
{
	return cond ? "yes" : "no";
}

static long tv_us(struct timeval tv)
{
	return tv.tv_sec * USEC_PER_SEC + tv.tv_usec;
}

static long clock_us(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* Spins until this thread has run us more (its own CPU clock), or the wall-clock limit. */
static int spin(long us)
{
	long start = clock_us(CLOCK_THREAD_CPUTIME_ID),
	     end = clock_us(CLOCK_MONOTONIC) + WAIT_S * USEC_PER_SEC;

	while (clock_us(CLOCK_THREAD_CPUTIME_ID) - start < us)
		if (clock_us(CLOCK_MONOTONIC) > end)
			return 0;
	return 1;
}

static void *spinner(void *arg)
{
	*(int *)arg = spin(SPIN_US);
	return NULL;
}

/* The fields Linux never fills (the BSD ones it has no figure for), all 0. */
static int unfilled_zero(const struct rusage *ru)
{
	return !ru->ru_ixrss && !ru->ru_idrss && !ru->ru_isrss && !ru->ru_nswap && !ru->ru_msgsnd &&
	       !ru->ru_msgrcv && !ru->ru_nsignals;
}

static void fields(void)
{
	struct rusage ru;
	struct timespec nap = {0, 10000000};

	nanosleep(&nap, NULL); /* a wait: one voluntary switch at least */
	/*
	 * Until a tick has found this thread in user mode: the ticks sample where a task is, and
	 * a spin of CPU time may be seen in the kernel only (its clock_gettime calls), on Linux
	 * too. Bounded by the wall clock, so the line says whether utime was ever filled.
	 */
	for (long end = clock_us(CLOCK_MONOTONIC) + WAIT_S * USEC_PER_SEC;
	     clock_us(CLOCK_MONOTONIC) < end;) {
		spin(SLACK_US);
		getrusage(RUSAGE_THREAD, &ru);
		if (tv_us(ru.ru_utime) > 0)
			break;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("SELF: utime > 0: %s, usec < 1000000: %s, maxrss > 0: %s, minflt > 0: %s, "
	       "nvcsw > 0: %s, the unfilled ones 0: %s\n",
	       yes(tv_us(ru.ru_utime) > 0), yes(ru.ru_utime.tv_usec < USEC_PER_SEC),
	       yes(ru.ru_maxrss > 0), yes(ru.ru_minflt > 0), yes(ru.ru_nvcsw > 0),
	       yes(unfilled_zero(&ru)));
	getrusage(RUSAGE_THREAD, &ru);
	printf("THREAD: utime > 0: %s, maxrss > 0: %s, minflt > 0: %s, the unfilled ones 0: %s\n",
	       yes(tv_us(ru.ru_utime) > 0), yes(ru.ru_maxrss > 0), yes(ru.ru_minflt > 0),
	       yes(unfilled_zero(&ru)));
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("CHILDREN before any: all 0: %s\n",
	       yes(!tv_us(ru.ru_utime) && !tv_us(ru.ru_stime) && !ru.ru_maxrss && !ru.ru_minflt &&
		   !ru.ru_nvcsw && !ru.ru_nivcsw && unfilled_zero(&ru)));
}

/* Faults: touching new pages counts them as minor faults, one a page at least. */
static void faults(void)
{
	struct rusage before, after;
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, TOUCH_PAGES * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	getrusage(RUSAGE_SELF, &before);
	for (long i = 0; i < TOUCH_PAGES; i++)
		p[i * page] = 1;
	getrusage(RUSAGE_SELF, &after);
	printf("%d new pages touched: minflt up by at least that: %s, majflt the same: %s\n",
	       TOUCH_PAGES, yes(after.ru_minflt - before.ru_minflt >= TOUCH_PAGES),
	       yes(after.ru_majflt == before.ru_majflt));
	munmap(p, TOUCH_PAGES * page);
}

/* A thread spins and exits: the process's times keep its time, the main thread's do not. */
static void threads(void)
{
	struct rusage self0, self1, thr;
	struct tms tms0, tms1;
	long proc0 = clock_us(CLOCK_PROCESS_CPUTIME_ID), main0 = clock_us(CLOCK_THREAD_CPUTIME_ID);
	pthread_t th;
	int spun = 0;

	getrusage(RUSAGE_SELF, &self0);
	times(&tms0);
	pthread_create(&th, NULL, spinner, &spun);
	pthread_join(th, NULL);
	getrusage(RUSAGE_SELF, &self1);
	getrusage(RUSAGE_THREAD, &thr);
	times(&tms1);
	long self_us = tv_us(self1.ru_utime) + tv_us(self1.ru_stime) - tv_us(self0.ru_utime) -
		       tv_us(self0.ru_stime);
	long thr_us = tv_us(thr.ru_utime) + tv_us(thr.ru_stime);
	long tick_us = USEC_PER_SEC / sysconf(_SC_CLK_TCK);

	printf("a thread spun %ld ms and exited: %s\n", SPIN_US / 1000, yes(spun));
	printf("RUSAGE_SELF has its time: %s\n", yes(self_us >= SPIN_US - SLACK_US));
	printf("RUSAGE_THREAD (this one, which waited) less than SELF: %s\n",
	       yes(thr_us < tv_us(self1.ru_utime) + tv_us(self1.ru_stime)));
	printf("times() has it: %s\n",
	       yes((tms1.tms_utime + tms1.tms_stime - tms0.tms_utime - tms0.tms_stime) * tick_us >=
		   SPIN_US - 2 * SLACK_US));
	printf("CLOCK_PROCESS_CPUTIME_ID has it: %s, CLOCK_THREAD_CPUTIME_ID not: %s\n",
	       yes(clock_us(CLOCK_PROCESS_CPUTIME_ID) - proc0 >= SPIN_US - SLACK_US),
	       yes(clock_us(CLOCK_THREAD_CPUTIME_ID) - main0 < SPIN_US - SLACK_US));
}

/* A child spins, touches pages and exits: its figures reach RUSAGE_CHILDREN once reaped. */
static void children(void)
{
	struct rusage ru, wru;
	struct tms tms;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pthread_t th;
		int spun = 0;

		/* Half in a thread of its own: a process's children count its threads too. */
		pthread_create(&th, NULL, spinner, &spun);
		pthread_join(th, NULL);
		_exit(spun && spin(SPIN_US) ? 0 : 1);
	}
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("CHILDREN while it runs: still 0: %s\n", yes(!tv_us(ru.ru_utime)));
	wait4(pid, &status, 0, &wru);
	getrusage(RUSAGE_CHILDREN, &ru);
	times(&tms);
	printf("the child spun (2 x %ld ms, one in a thread): %s\n", SPIN_US / 1000,
	       yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));
	printf("wait4's rusage has both: %s, minflt > 0: %s\n",
	       yes(tv_us(wru.ru_utime) + tv_us(wru.ru_stime) >= 2 * SPIN_US - SLACK_US),
	       yes(wru.ru_minflt > 0));
	printf("RUSAGE_CHILDREN the same: %s\n",
	       yes(tv_us(ru.ru_utime) == tv_us(wru.ru_utime) &&
		   tv_us(ru.ru_stime) == tv_us(wru.ru_stime) && ru.ru_minflt == wru.ru_minflt));
	printf("times()' cutime + cstime has it: %s\n",
	       yes((tms.tms_cutime + tms.tms_cstime) * (USEC_PER_SEC / sysconf(_SC_CLK_TCK)) >=
		   2 * SPIN_US - 2 * SLACK_US));
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	fields();
	faults();
	threads();
	children();
	return 0;
}
