/*
 * signalfd and timerfd, judged against Linux (tests/qemu/user/test_fd_events.py): their errors in
 * Linux's order, signalfd_siginfo for kill, tkill, a queue of real-time signals and SIGCHLD,
 * a mask changed on the fly, a read a child's signal ends; timerfd's one-shot, periodic,
 * absolute (CLOCK_MONOTONIC and CLOCK_REALTIME) and past deadlines, gettime, settime's old
 * value and disarming; both in epoll. Times are printed only as Linux fixes them (ranges).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHILD_NAP_NS 200000000L /* a child signals after this: the parent reads by then */
#define MS 1000000L
#define LONG_WAIT_MS 10000

static void show(const char *what, long ret)
{
	printf("%s = %ld%s%s\n", what, ret < 0 ? -1L : ret, ret < 0 ? " " : "",
	       ret < 0 ? strerror(errno) : "");
}

static void nap_ns(long ns)
{
	struct timespec ts = {ns / 1000000000L, ns % 1000000000L};

	nanosleep(&ts, NULL);
}

static void show_info(const struct signalfd_siginfo *si)
{
	printf("  signo %u code %d pid is me %d errno %d\n", si->ssi_signo, si->ssi_code,
	       si->ssi_pid == (uint32_t)getpid(), si->ssi_errno);
}

static void read_infos(const char *what, int fd)
{
	struct signalfd_siginfo si[4];
	ssize_t n = read(fd, si, sizeof(si));

	show(what, n);
	for (ssize_t i = 0; i < n / (ssize_t)sizeof(si[0]); i++)
		show_info(&si[i]);
}

static int epoll_one(int ep, int timeout)
{
	struct epoll_event ev;
	int n = epoll_wait(ep, &ev, 1, timeout);

	return n > 0 ? (int)ev.events : n;
}

static void signalfds(void)
{
	sigset_t mask, usr2;
	int sfd, p[2], ep = epoll_create1(0), status;
	struct signalfd_siginfo si;
	struct epoll_event ev = {.events = EPOLLIN};
	char link[64], target[64] = "";
	pid_t pid;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGRTMIN + 2);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	pipe(p);
	show("signalfd4(bad flags)", syscall(SYS_signalfd4, -1, &mask, 8, 1));
	show("signalfd4(sizemask 4)", syscall(SYS_signalfd4, -1, &mask, 4, 0));
	show("signalfd4(mask fault)", syscall(SYS_signalfd4, -1, (void *)8, 8, 0));
	show("signalfd4(bad fd)", syscall(SYS_signalfd4, 99, &mask, 8, 0));
	show("signalfd4(a pipe)", syscall(SYS_signalfd4, p[0], &mask, 8, 0));
	sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	printf("F_GETFL %#o F_GETFD %d\n", fcntl(sfd, F_GETFL), fcntl(sfd, F_GETFD));
	snprintf(link, sizeof(link), "/proc/self/fd/%d", sfd);
	readlink(link, target, sizeof(target) - 1);
	printf("signalfd is %s\n", target);
	show("read(nothing pending)", read(sfd, &si, sizeof(si)));
	show("read(short buffer)", read(sfd, &si, sizeof(si) - 1));
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1); /* merges with the first */
	read_infos("read(kill twice)", sfd);
	raise(SIGUSR2);
	read_infos("read(raise)", sfd);
	for (int i = 0; i < 3; i++)
		kill(getpid(), SIGRTMIN + 2); /* queued: three to read */
	read_infos("read(3 real-time)", sfd);

	epoll_ctl(ep, EPOLL_CTL_ADD, sfd, &ev);
	printf("epoll, nothing: %d\n", epoll_one(ep, 0));
	kill(getpid(), SIGUSR2);
	printf("epoll, SIGUSR2 pending: %#x\n", epoll_one(ep, 0));
	read_infos("read", sfd);
	printf("epoll, read: %d\n", epoll_one(ep, 0));

	/* A new mask: SIGUSR2 only. SIGUSR1 stays pending, unread. */
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	show("signalfd(sfd, new mask) is sfd", signalfd(sfd, &usr2, 0) == sfd);
	kill(getpid(), SIGUSR1);
	show("read(SIGUSR1 not in the mask)", read(sfd, &si, sizeof(si)));
	sigset_t pending;
	sigpending(&pending);
	printf("SIGUSR1 still pending: %d\n", sigismember(&pending, SIGUSR1));
	signalfd(sfd, &mask, 0);
	read_infos("read(mask back)", sfd);
	close(sfd);

	/* A blocking signalfd: a child's exit and a child's kill end the read. */
	sfd = signalfd(-1, &mask, 0);
	pid = fork();
	if (pid == 0) {
		nap_ns(CHILD_NAP_NS);
		_exit(7);
	}
	ssize_t n = read(sfd, &si, sizeof(si));
	printf("SIGCHLD: %zd signo %u code %d pid is child %d status %d\n", n, si.ssi_signo,
	       si.ssi_code, si.ssi_pid == (uint32_t)pid, si.ssi_status);
	waitpid(pid, &status, 0);
	pid = fork();
	if (pid == 0) {
		nap_ns(CHILD_NAP_NS);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	n = read(sfd, &si, sizeof(si));
	printf("child's kill: %zd signo %u code %d pid is child %d\n", n, si.ssi_signo, si.ssi_code,
	       si.ssi_pid == (uint32_t)pid);
	waitpid(pid, &status, 0);
	show("read(0 bytes)", read(sfd, &si, 0));
	close(sfd);
	close(ep);
	close(p[0]);
	close(p[1]);
	sigprocmask(SIG_UNBLOCK, &mask, NULL);
}

static long long ns_of(const struct timespec *ts)
{
	return (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static void read_ticks(const char *what, int tfd)
{
	uint64_t ticks = 0;
	ssize_t n = read(tfd, &ticks, sizeof(ticks));

	printf("%s: %zd", what, n);
	if (n < 0)
		printf(" %s", strerror(errno));
	else
		printf(" ticks %llu", (unsigned long long)ticks);
	printf("\n");
}

static void timerfds(void)
{
	struct itimerspec its = {0}, old, cur;
	int tfd, p[2], ep = epoll_create1(0);
	struct epoll_event ev = {.events = EPOLLIN};
	struct timespec now;
	char link[64], target[64] = "";
	uint32_t small;

	pipe(p);
	show("timerfd_create(CLOCK_PROCESS_CPUTIME_ID)",
	     timerfd_create(CLOCK_PROCESS_CPUTIME_ID, 0));
	show("timerfd_create(bad flags)", timerfd_create(CLOCK_MONOTONIC, 1));
	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	printf("F_GETFL %#o F_GETFD %d\n", fcntl(tfd, F_GETFL), fcntl(tfd, F_GETFD));
	snprintf(link, sizeof(link), "/proc/self/fd/%d", tfd);
	readlink(link, target, sizeof(target) - 1);
	printf("timerfd is %s\n", target);
	show("settime(bad flags)", timerfd_settime(tfd, 4, &its, NULL));
	its.it_value.tv_nsec = 1000000000L;
	show("settime(nsec 1e9)", timerfd_settime(tfd, 0, &its, NULL));
	its.it_value.tv_nsec = 0;
	its.it_interval.tv_sec = -1;
	show("settime(negative interval)", timerfd_settime(tfd, 0, &its, NULL));
	its.it_interval.tv_sec = 0;
	show("settime(fault)", timerfd_settime(tfd, 0, (void *)8, NULL));
	show("settime(bad fd)", timerfd_settime(99, 0, &its, NULL));
	show("settime(a pipe)", timerfd_settime(p[0], 0, &its, NULL));
	show("gettime(a pipe)", timerfd_gettime(p[0], &cur));
	show("gettime(fault)", timerfd_gettime(tfd, (void *)8));
	timerfd_gettime(tfd, &cur);
	printf("fresh: value %lld interval %lld\n", ns_of(&cur.it_value), ns_of(&cur.it_interval));
	read_ticks("read(disarmed, nonblock)", tfd);
	show("read(4 bytes)", read(tfd, &small, sizeof(small)));

	/* A one-shot in 100 ms: gettime says it is coming, epoll and read see it once. */
	its.it_value.tv_nsec = 100 * MS;
	show("settime(100 ms)", timerfd_settime(tfd, 0, &its, &old));
	printf("old: value %lld interval %lld\n", ns_of(&old.it_value), ns_of(&old.it_interval));
	timerfd_gettime(tfd, &cur);
	printf("left in (0, 100 ms]: %d\n",
	       ns_of(&cur.it_value) > 0 && ns_of(&cur.it_value) <= 100 * MS);
	epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev);
	printf("epoll: %#x\n", epoll_one(ep, LONG_WAIT_MS));
	read_ticks("read", tfd);
	printf("epoll after: %d\n", epoll_one(ep, 0));
	timerfd_gettime(tfd, &cur);
	printf("expired: value %lld\n", ns_of(&cur.it_value));
	close(tfd);

	/* Blocking reads: relative, absolute on CLOCK_MONOTONIC, absolute on CLOCK_REALTIME. */
	tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	its.it_value.tv_nsec = 50 * MS;
	timerfd_settime(tfd, 0, &its, NULL);
	read_ticks("read(50 ms, blocking)", tfd);
	clock_gettime(CLOCK_MONOTONIC, &now);
	its.it_value.tv_sec = now.tv_sec + (now.tv_nsec + 50 * MS) / 1000000000L;
	its.it_value.tv_nsec = (now.tv_nsec + 50 * MS) % 1000000000L;
	timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
	read_ticks("read(absolute, monotonic)", tfd);
	its.it_value.tv_sec = 1;
	its.it_value.tv_nsec = 0;
	timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
	read_ticks("read(absolute, long past)", tfd);
	close(tfd);
	tfd = timerfd_create(CLOCK_REALTIME, 0);
	clock_gettime(CLOCK_REALTIME, &now);
	its.it_value.tv_sec = now.tv_sec + (now.tv_nsec + 50 * MS) / 1000000000L;
	its.it_value.tv_nsec = (now.tv_nsec + 50 * MS) % 1000000000L;
	timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
	read_ticks("read(absolute, realtime)", tfd);
	timerfd_gettime(tfd, &cur);
	printf("left after: %lld\n", ns_of(&cur.it_value));
	close(tfd);

	/* Periodic: the ticks pile up unread; settime forgets them; disarming. */
	tfd = timerfd_create(CLOCK_BOOTTIME, TFD_NONBLOCK);
	its.it_value.tv_sec = 0;
	its.it_value.tv_nsec = 20 * MS;
	its.it_interval.tv_nsec = 20 * MS;
	struct timespec t0, t1, t2, t3;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	timerfd_settime(tfd, 0, &its, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	nap_ns(300 * MS);
	uint64_t ticks = 0;
	clock_gettime(CLOCK_MONOTONIC, &t2);
	read(tfd, &ticks, sizeof(ticks));
	clock_gettime(CLOCK_MONOTONIC, &t3);
	/* As many as intervals passed, by the clock: not fewer than from set to read, less one
	 * for a first expiry not yet seen, and not more than from before set to after read. */
	long long lo = (ns_of(&t2) - ns_of(&t1)) / (20 * MS) - 1;
	long long hi = (ns_of(&t3) - ns_of(&t0)) / (20 * MS);
	printf("periodic, 300 ms unread: ticks counted as the clock says %d, more than 5 %d\n",
	       (long long)ticks >= lo && (long long)ticks <= hi, ticks > 5);
	timerfd_gettime(tfd, &cur);
	printf("periodic: left in (0, 20 ms] %d, interval %lld\n",
	       ns_of(&cur.it_value) > 0 && ns_of(&cur.it_value) <= 20 * MS,
	       ns_of(&cur.it_interval));
	nap_ns(100 * MS);
	its.it_value.tv_sec = 10;
	its.it_value.tv_nsec = 0;
	its.it_interval.tv_nsec = 0;
	timerfd_settime(tfd, 0, &its, &old);
	printf("old interval %lld\n", ns_of(&old.it_interval));
	read_ticks("read(after settime)", tfd);
	memset(&its, 0, sizeof(its));
	timerfd_settime(tfd, 0, &its, &old);
	printf("disarmed: old value in (0, 10 s] %d\n",
	       ns_of(&old.it_value) > 0 && ns_of(&old.it_value) <= 10000 * MS);
	timerfd_gettime(tfd, &cur);
	printf("disarmed: value %lld interval %lld\n", ns_of(&cur.it_value),
	       ns_of(&cur.it_interval));
	close(tfd);
	close(ep);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	signalfds();
	timerfds();
	return 0;
}
