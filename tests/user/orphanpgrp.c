/*
 * Orphaned process groups, as Linux's: a group none of whose processes has a parent in another
 * group of the same session has no job-control shell to continue it, so
 *  1. SIGTSTP, SIGTTIN and SIGTTOU at their default are discarded there (SIGSTOP still stops),
 *     while a group that is not orphaned stops for each;
 *  2. a group orphaned while one of its processes is stopped gets SIGHUP, then SIGCONT (Linux's
 *     kill_orphaned_pgrp): its stopped process hears the hangup and goes on.
 * Each case runs in a session of its own, so that no process outside (a host's subreaper)
 * links the group. Every wait is bounded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define WAIT_MS 10000 /* a stranded process is given up after 10 s */

static const char *signame(int sig)
{
	return sig == SIGTSTP ? "SIGTSTP" : sig == SIGTTIN ? "SIGTTIN" : sig == SIGTTOU ? "SIGTTOU"
			     : "SIGSTOP";
}

/* Child: sends itself sig; the parent sees whether it stopped. */
static void stop_test(const char *group, bool orphan, int sig)
{
	pid_t c = fork();
	int status;

	if (c == 0) {
		if (orphan)
			setsid(); /* its group's only process; its parent is in another session */
		else
			setpgid(0, 0); /* its parent, in another group of this session, links it */
		kill(getpid(), sig);
		_exit(7);
	}
	waitpid(c, &status, WUNTRACED);
	printf("%s: %s %s\n", group, signame(sig),
	       WIFSTOPPED(status) ? "stopped it" : WIFEXITED(status) ? "was discarded" : "?");
	if (WIFSTOPPED(status)) {
		kill(c, SIGCONT);
		waitpid(c, &status, 0);
	}
}

static int hup_pipe;

static void on_hup(int sig)
{
	(void)sig;
	if (write(hup_pipe, "SIGHUP\n", 7) != 7)
		_exit(1);
}

/*
 * In a session of its own: A leads group G and forks B into it; B stops; A exits, and G is
 * orphaned with B stopped in it. What B says comes back through a pipe.
 */
static int orphaned_while_stopped(void)
{
	int out[2], status;
	char buf[128];
	size_t len = 0;

	setsid();
	if (pipe(out))
		return 1;
	pid_t a = fork();
	if (a == 0) {
		setpgid(0, 0);
		pid_t b = fork();
		if (b == 0) {
			hup_pipe = out[1];
			signal(SIGHUP, on_hup);
			kill(getpid(), SIGSTOP);
			if (write(out[1], "went on\n", 8) != 8)
				_exit(1);
			_exit(0);
		}
		waitpid(b, &status, WUNTRACED); /* B is stopped: now A, its group's link, goes */
		if (write(out[1], WIFSTOPPED(status) ? "stopped\n" : "not stopped\n",
			  WIFSTOPPED(status) ? 8 : 12) < 0)
			_exit(1);
		_exit(0);
	}
	close(out[1]);
	waitpid(a, &status, 0);
	struct pollfd p = {.fd = out[0], .events = POLLIN};
	while (len < sizeof(buf) - 1 && poll(&p, 1, WAIT_MS) == 1) {
		ssize_t n = read(out[0], buf + len, sizeof(buf) - 1 - len);

		if (n <= 0)
			break; /* EOF: B is gone too */
		len += (size_t)n;
	}
	buf[len] = '\0';
	printf("stopped in a group orphaned by its parent's exit:\n%s", len ? buf : "nothing\n");
	if (!strstr(buf, "went on"))
		kill(-a, SIGKILL); /* B, stranded in group G (A's pid) */
	return 0;
}

int main(void)
{
	int status;

	setvbuf(stdout, NULL, _IONBF, 0);
	stop_test("not orphaned", false, SIGTSTP);
	stop_test("orphaned", true, SIGTSTP);
	stop_test("orphaned", true, SIGTTIN);
	stop_test("orphaned", true, SIGTTOU);
	stop_test("orphaned", true, SIGSTOP);

	pid_t s = fork();
	if (s == 0)
		_exit(orphaned_while_stopped());
	waitpid(s, &status, 0);
	return 0;
}
