/*
 * alarm(2), judged against Linux (tests/qemu/tools/test_trace_cmd.py): a new alarm replaces the old
 * one and returns the seconds it had left (rounded to the nearest, never 0 for one pending);
 * alarm(0) cancels; the SIGALRM it sends comes from the kernel (SI_KERNEL) and interrupts
 * pause(); a forked child starts with no alarm; with no handler, SIGALRM ends the process.
 * trace-cmd's recorders re-arm an alarm when told to stop. The system call itself, as glibc's
 * alarm() makes it: musl's alarm() is a setitimer(), which rounds up.
 */
#include <signal.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NAP_NS 700000000L /* 0.7 s: 2.3 of 3 seconds left, clear of the rounding's half */
#define NSEC_PER_SEC 1000000000L
#define ALARM_NS (3 * NSEC_PER_SEC)

static volatile int got_sig, got_code;

static unsigned int sys_alarm(unsigned int seconds)
{
	return (unsigned int)syscall(SYS_alarm, seconds);
}

static void on_alrm(int sig, siginfo_t *info, void *ctx)
{
	(void)ctx;
	got_sig = sig;
	got_code = info->si_code;
}

/* Linux's alarm_setitimer: to the nearest second, never 0 for an alarm still pending. */
static unsigned int linux_rounding(long ns)
{
	unsigned int secs = (unsigned int)(ns / NSEC_PER_SEC);
	long rest = ns % NSEC_PER_SEC;

	return secs + ((secs == 0 && rest) || rest >= NSEC_PER_SEC / 2);
}

int main(void)
{
	struct timespec nap = {0, NAP_NS}, t0, t1;
	unsigned int got;
	long left;
	struct sigaction sa;
	int status;
	pid_t pid;

	got = sys_alarm(5);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* Back to back: 5 s left, all but microseconds, rounds to 5. */
	printf("alarm(5) = %u, then alarm(3) = %u\n", got, sys_alarm(3));
	nanosleep(&nap, NULL);
	got = sys_alarm(9); /* about 2.3 s left: 2, but a slow machine may take longer */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	left = ALARM_NS - ((t1.tv_sec - t0.tv_sec) * NSEC_PER_SEC + t1.tv_nsec - t0.tv_nsec);
	printf("after 0.7 s, alarm(9) rounds what was left as Linux: %s\n",
	       got == linux_rounding(left) ? "yes" : "no");
	printf("alarm(0) = %u\n", sys_alarm(0));
	printf("alarm(0) again = %u\n", sys_alarm(0));

	/* A child does not inherit the alarm. */
	sys_alarm(7);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		printf("child: alarm(0) = %u\n", sys_alarm(0));
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	got = sys_alarm(0); /* 7, or 6 on a machine slow to fork and wait (rounding) */
	printf("parent: its alarm still set: %s\n", got > 0 && got <= 7 ? "yes" : "no");

	/* With no handler, SIGALRM ends the process: a child waits for one meanwhile. */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		signal(SIGALRM, SIG_DFL);
		sys_alarm(1);
		for (;;)
			pause();
	}
	/* With one, it interrupts pause(), sent by the kernel. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_alrm;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGALRM, &sa, NULL);
	sys_alarm(1);
	int r = pause();
	printf("pause() = %d, signal %d, si_code %#x (SI_KERNEL %#x)\n", r, got_sig, got_code,
	       SI_KERNEL);
	waitpid(pid, &status, 0);
	printf("child ended by signal %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return 0;
}
