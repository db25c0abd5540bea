/*
 * poll, ppoll, select and pselect6 on pipes, /dev/null and a regular file, with their timeouts
 * and errors: what a shell waiting for its children's output relies on. The output is the same
 * on Linux (tests/qemu/user/test_syscalls.py compares them).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *events(short ev)
{
	static char buf[128];
	static const struct {
		short bit;
		const char *name;
	} names[] = {{POLLIN, "IN"},	     {POLLPRI, "PRI"},	    {POLLOUT, "OUT"},
		     {POLLERR, "ERR"},	     {POLLHUP, "HUP"},	    {POLLNVAL, "NVAL"},
		     {POLLRDNORM, "RDNORM"}, {POLLWRNORM, "WRNORM"}};

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (ev & names[i].bit)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
				 buf[0] ? "|" : "", names[i].name);
	return buf[0] ? buf : "0";
}

/* poll on one fd: the result and what happened. */
static void poll1(const char *what, int fd, short want, int timeout)
{
	struct pollfd p = {.fd = fd, .events = want};
	int n = poll(&p, 1, timeout);

	if (n < 0)
		printf("%s: poll: %s\n", what, strerror(errno));
	else
		printf("%s: poll %d %s\n", what, n, events(p.revents));
}

/* A call's result, and its error if it failed. */
#define SHOW(label, call)                                                                          \
	do {                                                                                       \
		errno = 0;                                                                         \
		long r_ = (long)(call);                                                            \
		int e_ = errno;                                                                    \
		printf("%s: %ld%s%s\n", label, r_, r_ < 0 ? " " : "", r_ < 0 ? strerror(e_) : ""); \
	} while (0)

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

int main(int argc, char **argv)
{
	int p[2], q[2], fd;
	char c;
	struct timespec t0;
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	char path[256];

	if (pipe(p) || pipe(q))
		return 1;
	poll1("empty pipe, read end", p[0], POLLIN, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	poll1("empty pipe, 200 ms", p[0], POLLIN, 200);
	printf("waited at least 200 ms: %s\n", ms_since(&t0) >= 190 ? "yes" : "no");
	poll1("empty pipe, write end", p[1], POLLOUT, 0);
	write(p[1], "x", 1);
	poll1("pipe with a byte", p[0], POLLIN | POLLOUT, 0);
	close(p[1]);
	poll1("writer gone, byte left", p[0], POLLIN, 0);
	read(p[0], &c, 1);
	poll1("writer gone, empty", p[0], POLLIN, -1);
	close(q[0]);
	poll1("reader gone, write end", q[1], POLLOUT, 0);
	close(p[0]);
	close(q[1]);

	fd = open("/dev/null", O_RDWR);
	poll1("/dev/null", fd, POLLIN | POLLOUT, -1);
	close(fd);
	snprintf(path, sizeof(path), "%s/pollfile", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	poll1("regular file", fd, POLLIN | POLLOUT | POLLPRI, -1);
	close(fd);
	unlink(path);
	poll1("closed fd", fd, POLLIN, 0);
	poll1("fd -1", -1, POLLIN, 0);
	SHOW("poll(NULL, 0, 10)", poll(NULL, 0, 10));
	SHOW("poll nfds 0x7fffffff", poll(NULL, 0x7fffffff, 0));
	SHOW("poll bad pointer", poll((struct pollfd *)8, 1, 0));

	/* A writer that comes later wakes a poll with no timeout. */
	pipe(p);
	if (fork() == 0) {
		usleep(200000);
		write(p[1], "y", 1);
		_exit(0);
	}
	poll1("pipe, a child writes in 200 ms", p[0], POLLIN, -1);
	wait(NULL);
	read(p[0], &c, 1);

	/* select: the same, as bitmaps, with the time left written back. */
	{
		fd_set r, w;
		struct timeval tv = {0, 150000};
		int n;

		FD_ZERO(&r);
		FD_SET(p[0], &r);
		n = select(p[0] + 1, &r, NULL, NULL, &tv);
		printf("select empty pipe 150 ms: %d, read set %d, time left %ld.%06ld\n", n,
		       FD_ISSET(p[0], &r), (long)tv.tv_sec, (long)tv.tv_usec);
		write(p[1], "z", 1);
		FD_ZERO(&r);
		FD_ZERO(&w);
		FD_SET(p[0], &r);
		FD_SET(p[1], &r);
		FD_SET(p[1], &w);
		n = select(p[1] + 1, &r, &w, NULL, NULL);
		printf("select data: %d, read %d %d, write %d\n", n, FD_ISSET(p[0], &r),
		       FD_ISSET(p[1], &r), FD_ISSET(p[1], &w));
		FD_ZERO(&r);
		FD_SET(40, &r);
		tv.tv_sec = 0;
		tv.tv_usec = 0;
		SHOW("select closed fd", select(41, &r, NULL, NULL, &tv));
		tv.tv_usec = -1;
		SHOW("select negative timeval", select(0, NULL, NULL, NULL, &tv));
		SHOW("select n -1", select(-1, NULL, NULL, NULL, NULL));
		tv.tv_usec = 0;
		SHOW("select bad set pointer", select(1, (fd_set *)8, NULL, NULL, &tv));
	}

	/* pselect and ppoll: a signal mask for the wait only. */
	{
		sigset_t mask, before, after;
		struct timespec ts = {0, 50000000};
		struct pollfd pf = {.fd = p[0], .events = POLLIN};
		fd_set r;

		sigemptyset(&mask);
		sigaddset(&mask, SIGUSR1);
		sigprocmask(SIG_SETMASK, NULL, &before);
		FD_ZERO(&r);
		FD_SET(p[0], &r);
		SHOW("pselect data", pselect(p[0] + 1, &r, NULL, NULL, &ts, &mask));
		SHOW("ppoll data", ppoll(&pf, 1, &ts, &mask));
		printf("ppoll revents %s\n", events(pf.revents));
		read(p[0], &c, 1);
		SHOW("ppoll empty 50 ms", ppoll(&pf, 1, &ts, &mask));
		sigprocmask(SIG_SETMASK, NULL, &after);
		printf("mask unchanged after: %s\n",
		       sigismember(&after, SIGUSR1) == sigismember(&before, SIGUSR1) ? "yes"
										     : "no");
		ts.tv_nsec = 1000000000;
		SHOW("ppoll bad timespec", syscall(SYS_ppoll, &pf, 1, &ts, NULL, 8));
		ts.tv_nsec = 0;
		SHOW("ppoll bad sigsetsize", syscall(SYS_ppoll, &pf, 1, &ts, &mask, 4));
		ts.tv_nsec = 30000000;
		SHOW("raw ppoll 30 ms", syscall(SYS_ppoll, &pf, 1, &ts, NULL, 8));
		printf("timespec left: %ld.%09ld\n", (long)ts.tv_sec, ts.tv_nsec);
	}
	return 0;
}
