/*
 * waitid(2), judged against Linux (tests/qemu/user/test_syscalls.py): the children it selects
 * (P_ALL, P_PID, P_PGID with 0 the caller's group, P_PIDFD), the news it is asked for (WEXITED,
 * WSTOPPED, WCONTINUED; WNOHANG; WNOWAIT, which leaves the news for the next wait), the siginfo
 * it fills (only si_signo, si_errno, si_code, si_pid, si_uid and si_status: the bytes between
 * and after keep what the caller had there, and all six are zero when nothing was found or on an
 * error), the rusage it writes only for a child found, EAGAIN from a PIDFD_NONBLOCK pidfd, and
 * its errors in Linux's order. Every line is the same on Linux: no pid or time is printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif
#define PIDFD_NONBLOCK O_NONBLOCK
#define SYS_PIDFD_OPEN 434 /* x86_64: older headers lack SYS_pidfd_open */
#define FILL 0xa5 /* what the caller's siginfo and rusage hold before the call */
#define FILLED_LONG ((long)0xa5a5a5a5a5a5a5a5UL)
#define NO_CHILD (-1) /* show()'s expect when no child is named */

static siginfo_t si;
static struct rusage ru;

static const char *errname(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case ECHILD: return "ECHILD";
	case EAGAIN: return "EAGAIN";
	case EBADF: return "EBADF";
	case EFAULT: return "EFAULT";
	case ESRCH: return "ESRCH";
	default: return strerror(e);
	}
}

/* The raw call, ru included (the C library's waitid has no rusage argument). */
static long do_waitid(int which, int id, siginfo_t *info, int options, struct rusage *r)
{
	memset(&si, FILL, sizeof(si));
	memset(&ru, FILL, sizeof(ru));
	return syscall(SYS_waitid, which, id, info, options, r);
}

static const char *code_name(int code)
{
	switch (code) {
	case 0: return "0";
	case CLD_EXITED: return "CLD_EXITED";
	case CLD_KILLED: return "CLD_KILLED";
	case CLD_DUMPED: return "CLD_DUMPED";
	case CLD_STOPPED: return "CLD_STOPPED";
	case CLD_CONTINUED: return "CLD_CONTINUED";
	default: return "?";
	}
}

/* One call's answer: its return (or error), then what it left in si, pid named as expected. */
static void show(const char *what, long ret, pid_t expect)
{
	const unsigned char *b = (const unsigned char *)&si;
	int untouched = 1;

	for (size_t i = 12; i < 16; i++) /* between si_code and si_pid */
		untouched &= b[i] == FILL;
	for (size_t i = 28; i < sizeof(si); i++) /* after si_status */
		untouched &= b[i] == FILL;
	printf("%s: %s signo=%d errno=%d code=%s pid=%s uid=%s status=%d rest=%s\n", what,
	       ret == 0 ? "0" : ret < 0 ? errname(errno) : "positive?", si.si_signo, si.si_errno,
	       code_name(si.si_code),
	       si.si_pid == expect ? "child" : si.si_pid == 0 ? "0" : "other",
	       si.si_uid == getuid() ? "ours" : "other", si.si_status,
	       untouched ? "untouched" : "written");
}

static pid_t child_exiting(int code)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(code);
	return pid;
}

static pid_t child_pausing(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

static int pidfd_open(pid_t pid, unsigned int flags)
{
	return (int)syscall(SYS_PIDFD_OPEN, pid, flags);
}

static void exits_and_nowait(void)
{
	pid_t c = child_exiting(7);

	show("WNOWAIT", do_waitid(P_PID, c, &si, WEXITED | WNOWAIT, NULL), c);
	show("WNOWAIT again", do_waitid(P_PID, c, &si, WEXITED | WNOWAIT, NULL), c);
	long r = do_waitid(P_PID, c, &si, WEXITED, &ru);
	show("WEXITED", r, c);
	printf("rusage of the reaped child: %s\n",
	       ru.ru_utime.tv_sec == FILLED_LONG ? "untouched" : "written");
	show("reaped", do_waitid(P_PID, c, &si, WEXITED, NULL), c);

	/* WNOWAIT, then wait4 collects it as usual. */
	c = child_exiting(9);
	show("WNOWAIT before waitpid", do_waitid(P_ALL, 0, &si, WEXITED | WNOWAIT, NULL), c);
	int status;
	pid_t got = waitpid(c, &status, 0);
	printf("waitpid after: %s, exit %d\n", got == c ? "child" : "none", WEXITSTATUS(status));

	/* No siginfo asked for; then a siginfo at a bad address, the child reaped all the same. */
	c = child_exiting(1);
	printf("no infop: %ld\n", syscall(SYS_waitid, P_PID, c, NULL, WEXITED, NULL));
	c = child_exiting(1);
	errno = 0;
	long bad = syscall(SYS_waitid, P_PID, c, (void *)16, WEXITED, NULL);
	printf("bad infop: %s\n", bad < 0 ? errname(errno) : "0");
	show("after the bad infop", do_waitid(P_PID, c, &si, WEXITED, NULL), c);
}

static void signals(void)
{
	pid_t c = child_pausing();

	kill(c, SIGTERM);
	show("killed", do_waitid(P_PID, c, &si, WEXITED, NULL), c);

	c = child_pausing();
	kill(c, SIGSTOP);
	show("stopped, WNOWAIT", do_waitid(P_PID, c, &si, WSTOPPED | WNOWAIT, NULL), c);
	show("stopped", do_waitid(P_PID, c, &si, WSTOPPED, NULL), c);
	show("stopped, told already", do_waitid(P_PID, c, &si, WSTOPPED | WNOHANG, NULL), c);
	show("not exited yet", do_waitid(P_PID, c, &si, WEXITED | WNOHANG, &ru), c);
	printf("rusage when none was found: %s\n",
	       ru.ru_utime.tv_sec == FILLED_LONG ? "untouched" : "written");
	kill(c, SIGCONT);
	show("continued", do_waitid(P_PID, c, &si, WCONTINUED, NULL), c);
	kill(c, SIGKILL);
	/*
	 * Exited, but only stops asked about: as Linux's wait_consider_task, a zombie is no child
	 * to wait for then (ECHILD, not 0), and it stays for WEXITED.
	 */
	struct pollfd pfd = {.fd = pidfd_open(c, 0), .events = POLLIN};
	poll(&pfd, 1, 10000);
	close(pfd.fd);
	show("exit, stops asked", do_waitid(P_PID, c, &si, WSTOPPED | WNOHANG, NULL), c);
	show("exit, exits asked", do_waitid(P_PID, c, &si, WEXITED, NULL), c);
}

static void groups(void)
{
	pid_t c = fork();

	if (c == 0) {
		setpgid(0, 0);
		_exit(3);
	}
	setpgid(c, c); /* whichever of the two runs first, the child leads its own group */
	show("P_PGID other group, ours asked",
	     do_waitid(P_PGID, 0, &si, WEXITED | WNOHANG, NULL), c);
	show("P_PGID its group", do_waitid(P_PGID, c, &si, WEXITED, NULL), c);
	c = child_exiting(4);
	show("P_PGID 0", do_waitid(P_PGID, 0, &si, WEXITED, NULL), c);
}

static void pidfds(void)
{
	pid_t c = child_exiting(5);
	int fd = pidfd_open(c, 0);

	show("P_PIDFD", do_waitid(P_PIDFD, fd, &si, WEXITED, NULL), c);
	show("P_PIDFD reaped", do_waitid(P_PIDFD, fd, &si, WEXITED, NULL), c);
	close(fd);

	c = child_pausing();
	fd = pidfd_open(c, PIDFD_NONBLOCK);
	show("PIDFD_NONBLOCK running", do_waitid(P_PIDFD, fd, &si, WEXITED, NULL), c);
	show("PIDFD_NONBLOCK WNOHANG", do_waitid(P_PIDFD, fd, &si, WEXITED | WNOHANG, NULL), c);
	kill(c, SIGKILL);
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	printf("poll: %d\n", poll(&pfd, 1, 10000));
	show("PIDFD_NONBLOCK exited", do_waitid(P_PIDFD, fd, &si, WEXITED, NULL), c);
	close(fd);

	show("P_PIDFD of stdin", do_waitid(P_PIDFD, 0, &si, WEXITED, NULL), NO_CHILD);
	show("P_PIDFD closed", do_waitid(P_PIDFD, 999, &si, WEXITED, NULL), NO_CHILD);
	fd = pidfd_open(getppid(), 0);
	show("P_PIDFD not a child", do_waitid(P_PIDFD, fd, &si, WEXITED, NULL), NO_CHILD);
	close(fd);
}

static void errors(void)
{
	pid_t c = child_pausing();

	show("options 0", do_waitid(P_ALL, 0, &si, 0, NULL), c);
	show("WNOHANG alone", do_waitid(P_ALL, 0, &si, WNOHANG, NULL), c);
	show("unknown option", do_waitid(P_ALL, 0, &si, WEXITED | 0x10, NULL), c);
	show("wait4's __WALL", do_waitid(P_ALL, 0, &si, WEXITED | WNOHANG | __WALL, NULL), c);
	show("idtype 4", do_waitid(4, 0, &si, WEXITED, NULL), c);
	show("P_PID 0", do_waitid(P_PID, 0, &si, WEXITED, NULL), c);
	show("P_PID -1", do_waitid(P_PID, -1, &si, WEXITED, NULL), c);
	show("P_PGID -1", do_waitid(P_PGID, -1, &si, WEXITED, NULL), c);
	show("P_PIDFD -1", do_waitid(P_PIDFD, -1, &si, WEXITED, NULL), c);
	show("P_PID ourselves", do_waitid(P_PID, getpid(), &si, WEXITED, NULL), c);
	show("running, WNOHANG", do_waitid(P_ALL, 0, &si, WEXITED | WNOHANG, NULL), c);
	kill(c, SIGKILL);
	errno = 0;
	printf("wait4(INT_MIN): %s\n", waitpid(INT_MIN, NULL, WNOHANG) < 0 ? errname(errno) : "0");
	show("P_ALL", do_waitid(P_ALL, 0, &si, WEXITED, NULL), c);
	show("no children", do_waitid(P_ALL, 0, &si, WEXITED, NULL), c);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0); /* no buffered line is copied into a fork */
	exits_and_nowait();
	signals();
	groups();
	pidfds();
	errors();
	return 0;
}
