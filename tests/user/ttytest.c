/*
 * The console as a terminal, driven by tests/qemu/user/test_tty.py, which types at it: `ttytest
 * MODE`.
 *	attrs	the settings a serial console starts with, the window size, the ids
 *	canon	lines read in canonical mode (erase, kill, word erase, EOF), shown escaped
 *	raw	cfmakeraw: each byte as typed, in hex, until 'q' (^C is a byte here)
 *	vtime	non-canonical reads with VMIN 0 / VTIME, and VMIN 2 / VTIME
 *	vmin	a read that waits for VMIN 3 bytes
 *	poll	poll on the console: nothing typed, then a line; FIONREAD
 *	jobs	a background group reads (EIO with SIGTTIN blocked), takes the terminal, reads,
 *		gives it back; the errors of TIOCSPGRP, TIOCSCTTY and the rest
 *	ctty	a new session's leader takes the console (TIOCSCTTY, open) and lets it go
 *	pollpath PATH MS	poll on a file for reading (trace_pipe)
 *	wait	waits for a signal: ^C or ^\ ends it as Linux's default action does
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "show.h"

static struct termios saved;

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* What was read, with control characters as \xNN. */
static void show(const char *what, const char *buf, long n)
{
	printf("%s %ld \"", what, n);
	for (long i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c >= ' ' && c < 0x7f)
			putchar(c);
		else
			printf("\\x%02x", c);
	}
	printf("\"\n");
}

static int attrs(void)
{
	struct termios t = {0};
	struct winsize ws = {0}, set = {.ws_row = 24, .ws_col = 80};

	tcgetattr(0, &t);
	printf("iflag %#x oflag %#x lflag %#x cflag-speed %s\n", t.c_iflag, t.c_oflag, t.c_lflag,
	       cfgetospeed(&t) == B115200 ? "115200" : "other");
	printf("intr %d quit %d erase %d kill %d eof %d susp %d min %d time %d\n", t.c_cc[VINTR],
	       t.c_cc[VQUIT], t.c_cc[VERASE], t.c_cc[VKILL], t.c_cc[VEOF], t.c_cc[VSUSP],
	       t.c_cc[VMIN], t.c_cc[VTIME]);
	ioctl(0, TIOCGWINSZ, &ws);
	printf("winsize %d %d\n", ws.ws_row, ws.ws_col);
	ioctl(0, TIOCSWINSZ, &set);
	ioctl(0, TIOCGWINSZ, &ws);
	printf("winsize set %d %d\n", ws.ws_row, ws.ws_col);
	set.ws_row = set.ws_col = 0;
	ioctl(0, TIOCSWINSZ, &set);
	printf("isatty 0: %d\n", isatty(0));
	printf("foreground is my group: %s\n", tcgetpgrp(0) == getpgrp() ? "yes" : "no");
	printf("tty session is mine: %s\n", tcgetsid(0) == getsid(0) ? "yes" : "no");
	SHOW("open /dev/tty", open("/dev/tty", O_RDWR));
	return 0;
}

static int canon(void)
{
	char buf[256];
	long n;

	printf("ready\n");
	fflush(stdout);
	while ((n = read(0, buf, sizeof(buf))) > 0)
		show("line", buf, n);
	printf("eof %ld\n", n);
	return 0;
}

static int raw(void)
{
	struct termios t = saved;
	char c;

	cfmakeraw(&t);
	tcsetattr(0, TCSAFLUSH, &t);
	printf("ready\r\n");
	fflush(stdout);
	while (read(0, &c, 1) == 1 && c != 'q')
		printf("%02x\r\n", (unsigned char)c);
	tcsetattr(0, TCSANOW, &saved);
	printf("restored\n");
	return 0;
}

static int vtime(void)
{
	struct termios t = saved;
	struct timespec t0;
	char buf[16];
	long n;

	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 5;
	tcsetattr(0, TCSANOW, &t);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	n = read(0, buf, sizeof(buf));
	printf("VMIN 0 VTIME 5, nothing typed: %ld after >= 450 ms: %s\n", n,
	       ms_since(&t0) >= 450 ? "yes" : "no");
	t.c_cc[VTIME] = 100; /* 10 s: the test types before then */
	tcsetattr(0, TCSANOW, &t);
	printf("type\n");
	fflush(stdout);
	n = read(0, buf, sizeof(buf));
	show("VMIN 0 VTIME 100", buf, n);
	t.c_cc[VMIN] = 2;
	t.c_cc[VTIME] = 3;
	tcsetattr(0, TCSANOW, &t);
	printf("type one\n");
	fflush(stdout);
	n = read(0, buf, sizeof(buf)); /* one byte, then 300 ms of nothing */
	show("VMIN 2 VTIME 3", buf, n);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	tcsetattr(0, TCSANOW, &t);
	n = read(0, buf, sizeof(buf));
	printf("VMIN 0 VTIME 0, nothing typed: %ld\n", n);
	tcsetattr(0, TCSANOW, &saved);
	return 0;
}

static int vmin(void)
{
	struct termios t = saved;
	char buf[16];
	long n;

	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 3;
	t.c_cc[VTIME] = 0;
	tcsetattr(0, TCSANOW, &t);
	printf("ready\n");
	fflush(stdout);
	n = read(0, buf, sizeof(buf));
	show("VMIN 3", buf, n);
	tcsetattr(0, TCSANOW, &saved);
	return 0;
}

static int pollcons(void)
{
	struct pollfd p = {.fd = 0, .events = POLLIN};
	char buf[64];
	int n, avail = -1;

	n = poll(&p, 1, 300);
	printf("nothing typed: poll %d revents %d\n", n, p.revents);
	printf("type\n");
	fflush(stdout);
	n = poll(&p, 1, -1);
	ioctl(0, FIONREAD, &avail);
	printf("a line: poll %d revents %s, FIONREAD %d\n", n, p.revents & POLLIN ? "IN" : "-",
	       avail);
	n = (int)read(0, buf, sizeof(buf));
	show("read", buf, n);
	return 0;
}

static int jobs(void)
{
	pid_t child, shell_pgrp = tcgetpgrp(0);
	int status, fd, arg = 0;
	sigset_t ttin;

	SHOW("TIOCSPGRP to no such group", tcsetpgrp(0, 4000000));
	SHOW("TIOCSPGRP negative", tcsetpgrp(0, -2));
	SHOW("TIOCSCTTY, not a session leader", ioctl(0, TIOCSCTTY, 0));
	fd = open("/dev/null", O_RDWR);
	SHOW("TCGETS on /dev/null", ioctl(fd, TCGETS, &saved));
	SHOW("TIOCGPGRP on /dev/null", ioctl(fd, TIOCGPGRP, &arg));
	SHOW("an unknown ioctl on the console", ioctl(0, 0x54ff, &arg));
	fflush(stdout);
	child = fork();
	if (child == 0) {
		char buf[64];
		long n;

		setpgid(0, 0);
		sigemptyset(&ttin);
		sigaddset(&ttin, SIGTTIN);
		sigaddset(&ttin, SIGTTOU);
		sigprocmask(SIG_BLOCK, &ttin, NULL);
		printf("background: foreground is mine: %s\n",
		       tcgetpgrp(0) == getpgrp() ? "yes" : "no");
		SHOW("background read, SIGTTIN blocked", read(0, buf, sizeof(buf)));
		SHOW("background takes the terminal", tcsetpgrp(0, getpgrp()));
		printf("foreground is mine: %s\n", tcgetpgrp(0) == getpgrp() ? "yes" : "no");
		printf("type\n");
		fflush(stdout);
		n = read(0, buf, sizeof(buf));
		show("foreground read", buf, n);
		SHOW("gives it back", tcsetpgrp(0, shell_pgrp));
		fflush(stdout);
		_exit(0);
	}
	waitpid(child, &status, 0);
	printf("child exited %d, foreground is mine again: %s\n", WEXITSTATUS(status),
	       tcgetpgrp(0) == getpgrp() ? "yes" : "no");
	/* A background reader that does not block SIGTTIN: its group gets it (and stops). */
	child = fork();
	if (child == 0) {
		char c;

		setpgid(0, 0);
		read(0, &c, 1);
		_exit(0);
	}
	waitpid(child, &status, WUNTRACED);
	printf("background reader got %s\n", (WIFSTOPPED(status)    ? WSTOPSIG(status)
					      : WIFSIGNALED(status) ? WTERMSIG(status)
								    : 0) == SIGTTIN
						     ? "SIGTTIN"
						     : "no SIGTTIN");
	if (WIFSTOPPED(status)) {
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
	}
	child = fork();
	if (child == 0) {
		setsid();
		SHOW("new session: open /dev/tty", open("/dev/tty", O_RDWR));
		SHOW("new session: tcgetpgrp", tcgetpgrp(0));
		SHOW("new session: TIOCSCTTY of a terminal another session has",
		     ioctl(0, TIOCSCTTY, 0));
		fflush(stdout);
		_exit(0);
	}
	waitpid(child, &status, 0);
	return 0;
}

/*
 * The controlling terminal as a session leader gets it: not by opening a terminal another
 * session has, nor with O_NOCTTY; by TIOCSCTTY 1 (root takes it); and by opening it once free.
 */
static int ctty(void)
{
	pid_t child;
	int status, fd;

	fflush(stdout);
	child = fork();
	if (child == 0) {
		setsid();
		fd = open("/dev/console", O_RDWR);
		SHOW("leader opens the console another session has: tcgetsid", tcgetsid(fd));
		SHOW("TIOCSCTTY 0", ioctl(fd, TIOCSCTTY, 0));
		SHOW("TIOCSCTTY 1", ioctl(fd, TIOCSCTTY, 1));
		printf("now mine: %s\n",
		       tcgetsid(fd) == getsid(0) && tcgetpgrp(fd) == getpgrp() ? "yes" : "no");
		SHOW("open /dev/tty", open("/dev/tty", O_RDWR));
		fflush(stdout);
		_exit(0); /* the leader exits: the terminal is free */
	}
	waitpid(child, &status, 0);
	SHOW("the old session lost it: tcgetpgrp", tcgetpgrp(0));
	child = fork();
	if (child == 0) {
		setsid();
		fd = open("/dev/console", O_RDWR | O_NOCTTY);
		SHOW("leader opens the free console O_NOCTTY: tcgetsid", tcgetsid(fd));
		close(fd);
		fd = open("/dev/console", O_RDWR);
		printf("leader opens the free console: mine: %s\n",
		       tcgetsid(fd) == getsid(0) && tcgetpgrp(fd) == getpgrp() ? "yes" : "no");
		fflush(stdout);
		_exit(0);
	}
	waitpid(child, &status, 0);
	return 0;
}

/* poll on a file for reading, with a timeout: ttytest pollpath PATH MS. */
static int pollpath(const char *path, int ms)
{
	struct pollfd p = {.fd = open(path, O_RDONLY | O_NONBLOCK), .events = POLLIN};
	int n = poll(&p, 1, ms);

	printf("poll %d revents %s\n", n, p.revents & POLLIN ? "IN" : "-");
	return 0;
}

static int waitsig(void)
{
	printf("ready\n");
	fflush(stdout);
	pause();
	printf("pause returned\n");
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	tcgetattr(0, &saved);
	if (!strcmp(mode, "attrs"))
		return attrs();
	if (!strcmp(mode, "canon"))
		return canon();
	if (!strcmp(mode, "raw"))
		return raw();
	if (!strcmp(mode, "vtime"))
		return vtime();
	if (!strcmp(mode, "vmin"))
		return vmin();
	if (!strcmp(mode, "poll"))
		return pollcons();
	if (!strcmp(mode, "jobs"))
		return jobs();
	if (!strcmp(mode, "ctty"))
		return ctty();
	if (!strcmp(mode, "pollpath") && argc > 3)
		return pollpath(argv[2], atoi(argv[3]));
	if (!strcmp(mode, "wait"))
		return waitsig();
	fprintf(stderr, "usage: ttytest attrs|canon|raw|vtime|vmin|poll|jobs|wait\n");
	return 2;
}
