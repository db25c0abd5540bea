/*
 * A program that catches signals, for the kernel shell's tests (tests/qemu/user/test_signals.py):
 *	trapper        prints "waiting", then each SIGINT, SIGTERM or SIGUSR1 it catches; exits
 *	               with status 3 after a SIGINT or SIGTERM
 *	trapper stop   stops itself (SIGSTOP), and says so once continued
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CAUGHT_STATUS 3

static volatile sig_atomic_t last;

static void on_signal(int sig)
{
	last = sig;
}

int main(int argc, char **argv)
{
	struct sigaction sa;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 1 && !strcmp(argv[1], "stop")) {
		raise(SIGSTOP);
		printf("continued\n");
		return 0;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	/*
	 * Blocked but while waiting: one that comes before the wait is not lost (pause would be).
	 */
	sigset_t block, wait_mask;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	printf("waiting\n");
	for (;;) {
		sigsuspend(&wait_mask);
		printf("caught %s\n", strsignal(last));
		if (last != SIGUSR1)
			return CAUGHT_STATUS;
	}
}
