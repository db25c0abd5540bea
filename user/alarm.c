/*
 * alarm(2), judged against Linux (tests/qemu/test_trace_cmd.py): a new alarm replaces the old
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

int main(void)
{
	struct timespec nap = {0, NAP_NS};
	struct sigaction sa;
	int status;
	pid_t pid;

	printf("alarm(5) = %u\n", sys_alarm(5));
	printf("alarm(3) = %u\n", sys_alarm(3)); /* 5 left, all but microseconds: rounds to 5 */
	nanosleep(&nap, NULL);
	printf("after 0.7 s, alarm(9) = %u\n", sys_alarm(9)); /* 2.3 left: 2 */
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
	printf("parent: alarm(0) = %u\n", sys_alarm(0));

	/* The signal: it interrupts pause(), sent by the kernel. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_alrm;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGALRM, &sa, NULL);
	sys_alarm(1);
	int r = pause();
	printf("pause() = %d, signal %d, si_code %#x (SI_KERNEL %#x)\n", r, got_sig, got_code,
	       SI_KERNEL);

	/* No handler: the default action ends the process. */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		signal(SIGALRM, SIG_DFL);
		sys_alarm(1);
		for (;;)
			pause();
	}
	waitpid(pid, &status, 0);
	printf("child ended by signal %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return 0;
}
