/*
 * Signals between processes, judged against Linux (tests/qemu/user/test_signals.py): the default
 * action of every standard signal, SIGSTOP/SIGTSTP/SIGCONT with wait4's WUNTRACED, WCONTINUED
 * and WNOHANG and their status words, SIGCHLD's si_code for each, SIGCHLD ignored (children
 * reaped without a wait), kill to a process group, and what fork and exec keep of handlers,
 * ignored signals and the mask.
 *
 * `sigchld exec-child` is the program after exec: it reports what it inherited.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MANY_CHILDREN 100 /* Lucid allows 64 processes at once */

static const char *self_path;

static void describe(const char *what, int status)
{
	if (WIFEXITED(status))
		printf("%s: exited %d\n", what, WEXITSTATUS(status));
	else if (WIFSIGNALED(status)) /* no core flag: whether a core is written is the host's */
		printf("%s: killed by signal %d\n", what, WTERMSIG(status));
	else if (WIFSTOPPED(status))
		printf("%s: stopped by signal %d (status %#x)\n", what, WSTOPSIG(status), status);
	else if (WIFCONTINUED(status))
		printf("%s: continued (status %#x)\n", what, status);
}

/* Each standard signal's default action on a child that does nothing about it. */
static void test_default_actions(void)
{
	for (int sig = 1; sig < 32; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
		    sig == SIGTTOU)
			continue; /* the stops are below; SIGKILL at the end */
		pid_t pid = fork();
		if (pid == 0) {
			raise(sig);
			_exit(7); /* the signal was ignored */
		}
		int status;
		waitpid(pid, &status, 0);
		char what[32];
		snprintf(what, sizeof(what), "default %d", sig);
		describe(what, status);
	}
	pid_t pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	kill(pid, SIGKILL);
	int status;
	waitpid(pid, &status, 0);
	describe("SIGKILL", status);
}

static volatile int chld_codes[16], chld_status[16], nchld;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (nchld < 16) {
		chld_codes[nchld] = si->si_code;
		chld_status[nchld++] = si->si_status;
	}
}

/* Waits (with SIGCHLD blocked outside) for the next SIGCHLD, and prints what it said. */
static void await_chld(const sigset_t *unblocked)
{
	int before = nchld;

	while (nchld == before)
		sigsuspend(unblocked);
	printf("SIGCHLD: code=%d status=%d\n", chld_codes[before], chld_status[before]);
}

static void test_stop_continue(void)
{
	struct sigaction sa;
	sigset_t chld, old;
	int status, go[2];

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);

	for (int i = 0; i < 2; i++) {
		int stopsig = i ? SIGTSTP : SIGSTOP;
		if (pipe(go))
			return;
		pid_t pid = fork();
		if (pid == 0) {
			char c;
			sigprocmask(SIG_SETMASK, &old, NULL);
			close(go[1]);
			raise(stopsig);
			/*
			 * Continued: wait for the parent's word, so its SIGCHLDs come one at a
			 * time.
			 */
			if (read(go[0], &c, 1) != 1)
				_exit(1);
			_exit(3);
		}
		close(go[0]);
		await_chld(&old);
		pid_t w = waitpid(pid, &status, WUNTRACED);
		describe(w == pid ? "waitpid WUNTRACED" : "waitpid ?", status);
		printf("again WNOHANG|WUNTRACED: %d\n", waitpid(pid, &status, WNOHANG | WUNTRACED));
		kill(pid, SIGCONT);
		await_chld(&old);
		w = waitpid(pid, &status, WCONTINUED);
		describe(w == pid ? "waitpid WCONTINUED" : "waitpid ?", status);
		if (write(go[1], "x", 1) != 1)
			return;
		close(go[1]);
		await_chld(&old);
		w = waitpid(pid, &status, 0);
		describe(w == pid ? "waitpid" : "waitpid ?", status);
	}

	/* Killed while stopped: CLD_KILLED. Stopped again and SIGKILLed, never continued. */
	pid_t pid = fork();
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		for (;;)
			pause();
	}
	kill(pid, SIGSTOP);
	await_chld(&old);
	kill(pid, SIGTERM); /* stays pending while stopped */
	kill(pid, SIGKILL);
	await_chld(&old);
	waitpid(pid, &status, 0);
	describe("stopped then killed", status);

	/* SA_NOCLDSTOP: no SIGCHLD for a stop, one for the exit. */
	sa.sa_flags |= SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	nchld = 0;
	pid = fork();
	if (pid == 0) {
		raise(SIGSTOP);
		_exit(5);
	}
	waitpid(pid, &status, WUNTRACED);
	describe("NOCLDSTOP child", status);
	kill(pid, SIGCONT);
	await_chld(&old);
	waitpid(pid, &status, 0);
	describe("NOCLDSTOP child", status);
	printf("SIGCHLDs seen: %d\n", nchld);
	sigprocmask(SIG_SETMASK, &old, NULL);
	signal(SIGCHLD, SIG_DFL);
}

/* SIGCHLD ignored: children leave no zombie, and wait finds none (ECHILD). */
static void test_sigchld_ignored(void)
{
	signal(SIGCHLD, SIG_IGN);
	for (int i = 0; i < 3; i++)
		if (fork() == 0)
			_exit(i);
	int status;
	pid_t w = wait(&status);
	printf("SIG_IGN: wait=%d errno=%s\n", w, strerror(errno));
	signal(SIGCHLD, SIG_DFL);

	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sa.sa_flags = SA_NOCLDWAIT;
	sigaction(SIGCHLD, &sa, NULL);
	if (fork() == 0)
		_exit(0);
	w = wait(&status);
	printf("SA_NOCLDWAIT: wait=%d errno=%s\n", w, strerror(errno));

	/* More children than a process may have at once: they must not pile up as zombies. */
	signal(SIGCHLD, SIG_IGN);
	int ok = 0;
	for (int i = 0; i < MANY_CHILDREN; i++) {
		int p[2];
		char c;
		if (pipe(p))
			break;
		pid_t pid = fork();
		if (pid == 0)
			_exit(0);
		close(p[1]);
		ok += pid > 0 && read(p[0], &c, 1) == 0; /* end of file: the child has exited */
		close(p[0]);
	}
	printf("%d children with SIGCHLD ignored: %d forked\n", MANY_CHILDREN, ok);
	signal(SIGCHLD, SIG_DFL);
}

static volatile int got_usr1;

static void on_usr1(int sig)
{
	got_usr1 += sig;
}

/* A child that waits for SIGUSR1 (blocked until it waits: none is missed) and exits with it. */
static pid_t usr1_child(int plus)
{
	pid_t pid = fork();

	if (pid == 0) {
		sigset_t none;
		sigemptyset(&none);
		while (!got_usr1)
			sigsuspend(&none);
		_exit(got_usr1 + plus);
	}
	return pid;
}

/* kill(0) and kill(-pgrp): the caller's group, itself included. */
static void test_process_group(void)
{
	sigset_t usr1, old;
	int status;

	/* The test starts it as a group of its own (a new session on the host, a job in Lucid). */
	if (kill(-getpid(), 0)) {
		printf("not a process group leader: %s\n", strerror(errno));
		return;
	}
	signal(SIGUSR1, on_usr1);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &old);
	pid_t pid = usr1_child(0);
	kill(0, SIGUSR1);
	sigsuspend(&old);
	waitpid(pid, &status, 0);
	describe("kill(0) child", status);
	printf("kill(0) parent got %d\n", got_usr1);
	got_usr1 = 0;
	pid = usr1_child(1);
	kill(-getpid(), SIGUSR1);
	sigsuspend(&old);
	waitpid(pid, &status, 0);
	describe("kill(-pgrp) child", status);
	printf("kill(-pgrp) parent got %d\n", got_usr1);
	sigprocmask(SIG_SETMASK, &old, NULL);
	pid = fork(); /* a pid just freed: nobody has it */
	if (pid == 0)
		_exit(0);
	waitpid(pid, &status, 0);
	int r = kill(pid, 0);
	printf("kill(no such pid)=%d %s\n", r, strerror(errno));
	printf("kill(me, 0)=%d\n", kill(getpid(), 0));
	signal(SIGUSR1, SIG_DFL);
}

/* fork keeps handlers and the mask; exec keeps ignored signals and the mask, not handlers. */
static void test_fork_exec(void)
{
	sigset_t block, old;
	int status;

	signal(SIGUSR1, on_usr1);
	signal(SIGUSR2, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	pid_t pid = fork();
	if (pid == 0) {
		struct sigaction sa;
		sigset_t cur;
		sigaction(SIGUSR1, NULL, &sa);
		sigprocmask(SIG_BLOCK, NULL, &cur);
		printf("forked: usr1 handled=%d term blocked=%d\n", sa.sa_handler == on_usr1,
		       sigismember(&cur, SIGTERM));
		execl(self_path, "sigchld", "exec-child", (char *)NULL);
		perror("execl");
		_exit(1);
	}
	waitpid(pid, &status, 0);
	describe("exec child", status);
	sigprocmask(SIG_SETMASK, &old, NULL);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

static int exec_child(void)
{
	struct sigaction a1, a2;
	sigset_t cur;

	sigaction(SIGUSR1, NULL, &a1);
	sigaction(SIGUSR2, NULL, &a2);
	sigprocmask(SIG_BLOCK, NULL, &cur);
	printf("exec'd: usr1 default=%d usr2 ignored=%d term blocked=%d\n",
	       a1.sa_handler == SIG_DFL, a2.sa_handler == SIG_IGN, sigismember(&cur, SIGTERM));
	raise(SIGUSR2); /* ignored: nothing */
	raise(SIGTERM); /* blocked: pending, the exit below wins */
	return 4;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 1 && !strcmp(argv[1], "exec-child"))
		return exec_child();
	/* The host runs it by its path; Lucid's shell finds it in /bin. */
	self_path = strchr(argv[0], '/') ? argv[0] : "/bin/sigchld";
	test_default_actions();
	test_stop_continue();
	test_sigchld_ignored();
	test_process_group();
	test_fork_exec();
	printf("done\n");
	return 0;
}
