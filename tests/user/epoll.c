/*
 * epoll and eventfd, judged against Linux (tests/qemu/user/test_fd_events.py): every error of
 * epoll_create1, epoll_ctl and epoll_wait in Linux's order, level- and edge-triggered and
 * one-shot reporting on pipes and eventfds, hang-ups, nested epolls, an item leaving with its
 * file's last close (not with a dup's), a wait another process ends, EINTR, epoll_pwait's mask,
 * and eventfd's counter, semaphore mode, limits and flags. Prints only what Linux fixes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHILD_NAP_NS 200000000L /* a child writes after this: the parent is waiting by then */
#define SHORT_WAIT_MS 50
#define LONG_WAIT_MS 10000 /* a wait that a child's write ends long before */
#define ALARM_US 100000
#define MAXEV 8

static void show(const char *what, long ret)
{
	printf("%s = %ld%s%s\n", what, ret < 0 ? -1L : ret, ret < 0 ? " " : "",
	       ret < 0 ? strerror(errno) : "");
}

static int add(int ep, int fd, unsigned int events, uint64_t data)
{
	struct epoll_event ev = {.events = events, .data.u64 = data};

	return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

/* One epoll_wait, its events printed in the order given, as "data:events". */
static void wait_show(const char *what, int ep, int timeout)
{
	struct epoll_event ev[MAXEV];
	int n = epoll_wait(ep, ev, MAXEV, timeout);

	printf("%s:", what);
	if (n < 0)
		printf(" -1 %s", strerror(errno));
	for (int i = 0; i < n; i++)
		printf(" %llu:%#x", (unsigned long long)ev[i].data.u64, ev[i].events);
	printf("\n");
}

static void nap(void)
{
	struct timespec ts = {0, CHILD_NAP_NS};

	nanosleep(&ts, NULL);
}

static void errors(void)
{
	struct epoll_event ev = {.events = EPOLLIN};
	int ep = epoll_create1(0), ep2 = epoll_create1(0), p[2], reg;

	pipe(p);
	reg = open("regular", O_CREAT | O_RDWR, 0644);
	show("epoll_create1(bad flags)", epoll_create1(1));
	show("epoll_create(0)", syscall(SYS_epoll_create, 0)); /* musl's ignores the size */
	show("epoll_create(-1)", syscall(SYS_epoll_create, -1));
	int fd = (int)syscall(SYS_epoll_create, 1);
	printf("epoll_create(1) is a descriptor: %s\n", fd >= 0 ? "yes" : "no");
	close(fd);
	show("ctl(bad epfd)", epoll_ctl(99, EPOLL_CTL_ADD, p[0], &ev));
	show("ctl(bad fd)", epoll_ctl(ep, EPOLL_CTL_ADD, 99, &ev));
	show("ctl(regular file)", epoll_ctl(ep, EPOLL_CTL_ADD, reg, &ev));
	show("ctl(epfd is a pipe)", epoll_ctl(p[0], EPOLL_CTL_ADD, p[1], &ev));
	show("ctl(itself)", epoll_ctl(ep, EPOLL_CTL_ADD, ep, &ev));
	show("ctl(bad op)", epoll_ctl(ep, 99, p[0], &ev));
	show("ctl(event fault)", epoll_ctl(ep, EPOLL_CTL_ADD, p[0], (void *)8));
	show("ctl(DEL, event fault)", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], (void *)8));
	show("ctl(MOD, not there)", epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev));
	show("ctl(DEL, not there)", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], &ev));
	show("ctl(ADD)", epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev));
	show("ctl(ADD again)", epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev));
	ev.events = EPOLLIN | EPOLLEXCLUSIVE;
	show("ctl(MOD, EPOLLEXCLUSIVE)", epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev));
	ev.events = EPOLLIN | EPOLLEXCLUSIVE | EPOLLONESHOT;
	show("ctl(ADD, EPOLLEXCLUSIVE|EPOLLONESHOT)", epoll_ctl(ep, EPOLL_CTL_ADD, p[1], &ev));
	ev.events = EPOLLIN;
	show("ctl(ADD ep2 to ep)", epoll_ctl(ep, EPOLL_CTL_ADD, ep2, &ev));
	show("ctl(ADD ep to ep2: a loop)", epoll_ctl(ep2, EPOLL_CTL_ADD, ep, &ev));
	show("ctl(DEL)", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL));
	show("wait(maxevents 0)", epoll_wait(ep, &ev, 0, 0));
	show("wait(maxevents -1)", epoll_wait(ep, &ev, -1, 0));
	show("wait(bad epfd)", epoll_wait(99, &ev, 1, 0));
	show("wait(not an epoll)", epoll_wait(p[0], &ev, 1, 0));
	show("wait(events fault)", epoll_wait(ep, (void *)8, 1, 0));
	show("pwait(bad sigsetsize)", syscall(SYS_epoll_pwait, ep, &ev, 1, 0, &ev, 4));
	close(ep);
	close(ep2);
	close(p[0]);
	close(p[1]);
	close(reg);
	unlink("regular");
}

static void triggers(void)
{
	int ep = epoll_create1(EPOLL_CLOEXEC), p[2];
	struct epoll_event ev;
	char c;

	pipe(p);
	printf("epoll fd close-on-exec: %d\n", fcntl(ep, F_GETFD));
	add(ep, p[0], EPOLLIN, 1);
	wait_show("level, empty", ep, 0);
	write(p[1], "ab", 2);
	wait_show("level, data", ep, 0);
	wait_show("level, data again", ep, 0);
	read(p[0], &c, 1);
	wait_show("level, a byte left", ep, 0);
	read(p[0], &c, 1);
	wait_show("level, read all", ep, SHORT_WAIT_MS);

	ev.events = EPOLLIN | EPOLLET;
	ev.data.u64 = 2;
	show("MOD to EPOLLET", epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev));
	write(p[1], "a", 1);
	wait_show("edge, data", ep, 0);
	wait_show("edge, same data", ep, 0);
	write(p[1], "b", 1);
	wait_show("edge, more data", ep, 0);
	read(p[0], &c, 1);
	read(p[0], &c, 1);

	ev.events = EPOLLIN | EPOLLONESHOT;
	ev.data.u64 = 3;
	show("MOD to EPOLLONESHOT", epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev));
	write(p[1], "a", 1);
	wait_show("oneshot, data", ep, 0);
	write(p[1], "b", 1);
	wait_show("oneshot, disabled", ep, 0);
	show("MOD re-arms", epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev));
	wait_show("oneshot, re-armed", ep, 0);
	show("ADD while disabled", add(ep, p[0], EPOLLIN, 9));

	/* The write end: writable, then an error once the reader is gone. */
	add(ep, p[1], EPOLLOUT, 4);
	epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL);
	wait_show("write end", ep, 0);
	/* A dup keeps the read end open: the item of p[0] (gone) is not re-added by it. */
	int rd = dup(p[0]);
	close(p[0]);
	wait_show("write end, reader dup'd", ep, 0);
	close(rd);
	wait_show("write end, no reader", ep, 0);
	close(p[1]);
	wait_show("write end closed: item gone", ep, 0);

	/* The read end: data and a hang-up together, then the hang-up alone. */
	pipe(p);
	add(ep, p[0], EPOLLIN, 5);
	write(p[1], "a", 1);
	close(p[1]);
	wait_show("reader, data and hang-up", ep, 0);
	read(p[0], &c, 1);
	wait_show("reader, hang-up", ep, 0);
	/* An event not asked for is not reported; EPOLLHUP always is. */
	ev.events = 0;
	ev.data.u64 = 6;
	epoll_ctl(ep, EPOLL_CTL_MOD, p[0], &ev);
	wait_show("reader, nothing asked", ep, 0);
	close(p[0]);

	/* A dup'd descriptor stays watched after the one it was added by is closed. */
	pipe(p);
	int fd = dup(p[0]);
	add(ep, fd, EPOLLIN, 7);
	close(fd);
	write(p[1], "a", 1);
	wait_show("added by a closed dup", ep, 0);
	close(p[0]);
	close(p[1]);
	wait_show("all closed", ep, 0);

	/* maxevents smaller than what is ready: the rest come next time, in turn. */
	int e[3];
	for (int i = 0; i < 3; i++) {
		e[i] = eventfd(1, 0);
		add(ep, e[i], EPOLLIN, 10 + i);
	}
	struct epoll_event two[2];
	int n = epoll_wait(ep, two, 2, 0);
	printf("maxevents 2: %d: %llu %llu\n", n, (unsigned long long)two[0].data.u64,
	       (unsigned long long)two[1].data.u64);
	n = epoll_wait(ep, two, 2, 0);
	printf("maxevents 2 again: %d: %llu %llu\n", n, (unsigned long long)two[0].data.u64,
	       (unsigned long long)two[1].data.u64);
	for (int i = 0; i < 3; i++)
		close(e[i]);
	close(ep);
}

static void nested(void)
{
	int outer = epoll_create1(0), inner = epoll_create1(0), efd = eventfd(0, 0);
	uint64_t v = 1;

	add(inner, efd, EPOLLIN, 1);
	add(outer, inner, EPOLLIN, 2);
	wait_show("nested, nothing", outer, 0);
	write(efd, &v, sizeof(v));
	wait_show("nested, outer", outer, 0);
	wait_show("nested, inner", inner, 0);
	read(efd, &v, sizeof(v));
	wait_show("nested, drained", outer, 0);
	close(efd);
	close(inner);
	close(outer);
}

static void on_alarm(int sig)
{
	(void)sig;
	write(1, "handler\n", 8);
}

static void waits(void)
{
	int ep = epoll_create1(0), p[2], status;
	struct sigaction sa = {.sa_handler = on_alarm, .sa_flags = SA_RESTART};
	struct itimerval it = {{0, 0}, {0, ALARM_US}};
	sigset_t block, none;
	pid_t pid;

	pipe(p);
	add(ep, p[0], EPOLLIN, 1);
	pid = fork();
	if (pid == 0) {
		nap();
		write(p[1], "x", 1);
		_exit(0);
	}
	wait_show("woken by a child's write", ep, LONG_WAIT_MS);
	waitpid(pid, &status, 0);

	int efd = eventfd(0, 0);
	uint64_t v = 0;
	pid = fork();
	if (pid == 0) {
		uint64_t one = 5;

		nap();
		write(efd, &one, sizeof(one));
		_exit(0);
	}
	ssize_t got = read(efd, &v, sizeof(v));
	printf("eventfd read blocks until a write: %zd %llu\n", got, (unsigned long long)v);
	waitpid(pid, &status, 0);
	close(efd);

	int ep2 = epoll_create1(0);
	wait_show("timeout", ep2, SHORT_WAIT_MS);
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	wait_show("interrupted (SA_RESTART or not)", ep2, LONG_WAIT_MS);

	/* epoll_pwait: a blocked, pending signal ends a wait whose mask lets it in. */
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	sigprocmask(SIG_BLOCK, &block, NULL);
	raise(SIGALRM);
	sigemptyset(&none);
	struct epoll_event ev;
	show("pwait, the mask lets it in", epoll_pwait(ep2, &ev, 1, LONG_WAIT_MS, &none));
	sigprocmask(SIG_SETMASK, NULL, &block);
	printf("blocked again after: %d\n", sigismember(&block, SIGALRM));
	sigemptyset(&block);
	sigprocmask(SIG_SETMASK, &block, NULL);
	close(ep2);
	close(ep);
	close(p[0]);
	close(p[1]);
}

static void eventfds(void)
{
	uint64_t v = 0, big = UINT64_MAX - 1;
	int efd = eventfd(3, 0);
	uint32_t small = 0;
	struct stat st;
	char link[64] = "";

	show("eventfd2(bad flags)", syscall(SYS_eventfd2, 0, 4));
	fstat(efd, &st);
	printf("eventfd st_mode %o\n", st.st_mode);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", efd);
	char target[64] = "";
	show("readlink", readlink(link, target, sizeof(target) - 1));
	printf("eventfd is %s\n", target);
	printf("F_GETFL %#o\n", fcntl(efd, F_GETFL));
	show("read(4 bytes)", read(efd, &small, sizeof(small)));
	show("write(4 bytes)", write(efd, &small, sizeof(small)));
	show("read", read(efd, &v, sizeof(v)));
	printf("value %llu\n", (unsigned long long)v);
	v = UINT64_MAX;
	show("write(ULLONG_MAX)", write(efd, &v, sizeof(v)));
	close(efd);

	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	printf("F_GETFL %#o F_GETFD %d\n", fcntl(efd, F_GETFL), fcntl(efd, F_GETFD));
	show("read(empty, nonblock)", read(efd, &v, sizeof(v)));
	show("write(ULLONG_MAX - 1)", write(efd, &big, sizeof(big)));
	v = 1;
	show("write(1, full)", write(efd, &v, sizeof(v)));
	v = 0;
	show("write(0, full)", write(efd, &v, sizeof(v)));
	show("read(full)", read(efd, &v, sizeof(v)));
	printf("value %llu\n", (unsigned long long)v);
	close(efd);

	efd = eventfd(2, EFD_SEMAPHORE | EFD_NONBLOCK);
	for (int i = 0; i < 3; i++) {
		v = 0;
		show("semaphore read", read(efd, &v, sizeof(v)));
		printf("value %llu\n", (unsigned long long)v);
	}
	int ep = epoll_create1(0);
	add(ep, efd, EPOLLIN | EPOLLOUT | EPOLLET, 1);
	wait_show("eventfd, empty", ep, 0);
	v = 1;
	write(efd, &v, sizeof(v));
	wait_show("eventfd, written", ep, 0);
	wait_show("eventfd, edge seen", ep, 0);
	write(efd, &v, sizeof(v));
	wait_show("eventfd, written again", ep, 0);
	close(ep);
	close(efd);
}

/*
 * "epoll tty": the terminal on stdin, watched edge-triggered: nothing until a line is typed
 * (canonical mode), then readable once; after the read, nothing again.
 */
static int tty(void)
{
	int ep = epoll_create1(0);
	char line[64];
	ssize_t n;

	add(ep, 0, EPOLLIN | EPOLLET, 0);
	wait_show("tty, nothing typed", ep, 0);
	printf("type a line\n");
	wait_show("tty", ep, LONG_WAIT_MS);
	wait_show("tty, edge seen", ep, 0);
	n = read(0, line, sizeof(line) - 1);
	line[n > 0 ? n : 0] = '\0';
	printf("read %zd: %s", n, line);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0); /* the children's lines after the parent's */
	if (argc > 1 && !strcmp(argv[1], "tty"))
		return tty();
	errors();
	triggers();
	nested();
	waits();
	eventfds();
	return 0;
}
