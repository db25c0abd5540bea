/*
 * ITIMER_VIRTUAL and ITIMER_PROF are the process's, as Linux's: set by one thread, another sees
 * them with getitimer, and they count every thread's CPU time, so one fires while the thread
 * that set it sleeps and a sibling burns CPU. Its signal is the process's: the setter takes it
 * in sigtimedwait. Each wait is bounded (20 s, and 20 s of the worker's CPU time).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define VALUE_MS 200
#define BURN_LIMIT_SEC 20

static volatile int done, seen_by_worker;
static int which_timer;

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *burn(void *arg)
{
	struct itimerval it;

	(void)arg;
	getitimer(which_timer, &it);
	seen_by_worker = it.it_value.tv_sec || it.it_value.tv_usec;
	while (!done && thread_cpu() < BURN_LIMIT_SEC)
		; /* user time: both timers count it */
	return NULL;
}

static void run(int which, int sig, const char *name, const char *signame)
{
	struct itimerval it = {{0, 0}, {0, VALUE_MS * 1000}};
	struct timespec limit = {BURN_LIMIT_SEC, 0};
	sigset_t set;
	pthread_t th;

	sigemptyset(&set);
	sigaddset(&set, sig);
	pthread_sigmask(SIG_BLOCK, &set, NULL); /* the worker too: only the wait takes it */
	which_timer = which;
	done = 0;
	setitimer(which, &it, NULL);
	pthread_create(&th, NULL, burn, NULL);
	int got = sigtimedwait(&set, NULL, &limit);
	done = 1;
	pthread_join(th, NULL);
	getitimer(which, &it);
	printf("%s: seen by another thread: %s\n", name, seen_by_worker ? "yes" : "no");
	printf("%s: %s while its setter slept: %s\n", name, signame, got == sig ? "yes" : "no");
	printf("%s: disarmed after (no interval): %s\n", name,
	       !it.it_value.tv_sec && !it.it_value.tv_usec ? "yes" : "no");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	run(ITIMER_VIRTUAL, SIGVTALRM, "ITIMER_VIRTUAL", "SIGVTALRM");
	run(ITIMER_PROF, SIGPROF, "ITIMER_PROF", "SIGPROF");
	return 0;
}
