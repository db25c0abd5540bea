/*
 * A signal sent to the process is never stranded while a thread could take it (Linux's
 * retarget_shared_pending): the thread complete_signal chose blocks it before taking it, and
 * a sibling that does not block it, asleep in pause(), is woken to take it instead.
 *
 *  1. Blocked by a handler's sa_mask: SIGUSR1 and SIGUSR2 both sent to the process while its
 *     main thread sleeps in vfork (so that it takes neither before both are there); main takes
 *     SIGUSR1, whose handler blocks SIGUSR2: the other thread must take SIGUSR2 meanwhile.
 *  2. Blocked again as sigtimedwait returns: main waits for SIGUSR1 or SIGUSR2 (blocked
 *     otherwise), both arrive, it takes SIGUSR1; SIGUSR2, blocked again, goes to the thread.
 * Every wait is bounded: "nobody" is what a stranded signal prints.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * How long to wait for the other thread, or for the parent to sleep: a time, not a count of
 * naps, since on a loaded host each 10 ms nap can take far longer, and 2000 of them once took
 * longer than the test waits for the whole program (a stranded signal must say "nobody").
 */
#define WAIT_LIMIT_S 10

/* WAIT_LIMIT_S from now, on CLOCK_MONOTONIC. */
static struct timespec wait_deadline(void)
{
	struct timespec end;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += WAIT_LIMIT_S;
	return end;
}

/* A nap of 10 ms, unless end has passed: 0 then. Async-signal-safe. */
static int nap_before(const struct timespec *end)
{
	struct timespec step = {0, 10 * 1000 * 1000}, now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > end->tv_sec || (now.tv_sec == end->tv_sec && now.tv_nsec >= end->tv_nsec))
		return 0;
	nanosleep(&step, NULL);
	return 1;
}

/* Until *flag is set, WAIT_LIMIT_S at most: *flag. */
static int wait_for(volatile sig_atomic_t *flag)
{
	struct timespec end = wait_deadline();

	while (!*flag && nap_before(&end))
		;
	return *flag;
}

static volatile sig_atomic_t usr2_by_worker, usr2_by_main, worker_ready;
static pid_t main_tid;

static void on_usr2(int sig)
{
	(void)sig;
	if (syscall(SYS_gettid) == main_tid)
		usr2_by_main = 1;
	else
		usr2_by_worker = 1;
}

/* Waits, bounded, for the worker to take SIGUSR2: 1 if it did. */
static int worker_took_usr2(void)
{
	return wait_for(&usr2_by_worker);
}

static volatile sig_atomic_t usr1_saw_worker;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_saw_worker = worker_took_usr2(); /* SIGUSR2 blocked here (sa_mask) */
}

static void *worker(void *arg)
{
	sigset_t only_usr2;

	(void)arg;
	sigfillset(&only_usr2);
	sigdelset(&only_usr2, SIGUSR2);
	pthread_sigmask(SIG_SETMASK, &only_usr2, NULL);
	worker_ready = 1;
	for (;;)
		pause();
	return NULL;
}

static void wait_ready(void)
{
	wait_for(&worker_ready);
}

int main(void)
{
	struct sigaction sa;
	sigset_t both, none;
	pthread_t th;

	setvbuf(stdout, NULL, _IONBF, 0);
	main_tid = (pid_t)syscall(SYS_gettid);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);
	sa.sa_handler = on_usr1;
	sigaddset(&sa.sa_mask, SIGUSR2); /* while SIGUSR1's handler runs, main blocks SIGUSR2 */
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	sigemptyset(&none);

	/* The worker starts with both blocked (its creator's mask), then takes SIGUSR2 only. */
	pthread_sigmask(SIG_BLOCK, &both, NULL);
	pthread_create(&th, NULL, worker, NULL);
	wait_ready();
	pthread_sigmask(SIG_SETMASK, &none, NULL);

	/* 1. Both sent while main sleeps in vfork: complete_signal chose main for both. */
	pid_t child = vfork();
	if (child == 0) {
		kill(getppid(), SIGUSR1);
		kill(getppid(), SIGUSR2);
		_exit(0);
	}
	waitpid(child, NULL, 0);
	printf("sa_mask: SIGUSR2 taken by %s while SIGUSR1's handler ran\n",
	       usr1_saw_worker ? "the other thread" : "nobody");
	worker_took_usr2();
	printf("sa_mask: SIGUSR2 taken by main: %s, by the other thread: %s\n",
	       usr2_by_main ? "yes" : "no", usr2_by_worker ? "yes" : "no");

	/*
	 * 2. sigtimedwait takes SIGUSR1; SIGUSR2, blocked again as it returns, is handed on. A
	 * child sends both once main sleeps in the wait (its state in /proc), so that both are
	 * for main; if main woke between the two, SIGUSR2 goes to the thread at once: the same.
	 */
	usr2_by_worker = usr2_by_main = 0;
	pthread_sigmask(SIG_BLOCK, &both, NULL);
	pid_t me = getpid();
	child = fork();
	if (child == 0) {
		char path[64], stat[256];
		struct timespec end = wait_deadline();

		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", me, main_tid);
		do {
			FILE *f = fopen(path, "r");
			char *state = NULL;

			if (f && fgets(stat, sizeof(stat), f))
				state = strrchr(stat, ')');
			if (f)
				fclose(f);
			if (state && state[2] == 'S')
				break;
		} while (nap_before(&end));
		kill(me, SIGUSR1);
		kill(me, SIGUSR2);
		_exit(0);
	}
	struct timespec limit = {2 * WAIT_LIMIT_S, 0}; /* the child's look takes WAIT_LIMIT_S */
	siginfo_t si;
	int sig = sigtimedwait(&both, &si, &limit);
	waitpid(child, NULL, 0);
	printf("sigtimedwait: %s\n", sig == SIGUSR1 ? "SIGUSR1" : sig == SIGUSR2 ? "SIGUSR2" : "?");
	/* It took the lower; the other, blocked here again, is the thread's. */
	printf("sigtimedwait: SIGUSR2 taken by the other thread: %s\n",
	       worker_took_usr2() ? "yes" : "no");

	/* 3. Unblocked while pending, as a plain sigprocmask: the thread that unblocks takes it. */
	usr2_by_worker = usr2_by_main = 0;
	pthread_sigmask(SIG_BLOCK, &both, NULL);
	/* pause is a cancellation point: no window where a wakeup is lost, as a signal has one */
	pthread_cancel(th);
	pthread_join(th, NULL);
	kill(getpid(), SIGUSR2);
	pthread_sigmask(SIG_UNBLOCK, &both, NULL);
	printf("sigprocmask: SIGUSR2 taken by main once unblocked: %s\n",
	       usr2_by_main ? "yes" : "no");
	return 0;
}
