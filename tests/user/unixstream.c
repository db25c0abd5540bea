/*
 * AF_UNIX stream sockets judged against Linux (tests/qemu/user/test_unix_sockets.py): a server
 * and a client (a child) over a path on the file system, the socket node that bind makes,
 * listen's backlog, accept4's flags, the names and SO_PEERCRED on both ends, shutdown's EOF and
 * EPIPE/SIGPIPE, a close with data unread (ECONNRESET), poll and epoll readiness, and each
 * call's errors in Linux's order. Prints only what Linux fixes (no pids, no inode numbers).
 * argv[1]: a directory to bind in.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

/* Where a line goes: stdout, or for the client child a buffer it prints as it exits, so that
 * the two processes' lines come in one order whatever the scheduler does. */
static FILE *out;

static void show(const char *what, long ret)
{
	fprintf(out, "%s = %ld%s%s\n", what, ret < 0 ? -1L : ret, ret < 0 ? " " : "",
		ret < 0 ? strerror(errno) : "");
}

static socklen_t mkaddr(struct sockaddr_un *a, const char *dir, const char *name)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	snprintf(a->sun_path, sizeof(a->sun_path), "%s/%s", dir, name);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(a->sun_path) + 1);
}

/* A name as getsockname gives it, with the directory shown as DIR. */
static void show_name(const char *what, int fd, const char *dir, bool peer)
{
	struct sockaddr_un a;
	socklen_t len = sizeof(a);
	int r = peer ? getpeername(fd, (struct sockaddr *)&a, &len)
		     : getsockname(fd, (struct sockaddr *)&a, &len);
	const char *p = a.sun_path;

	if (r < 0) {
		show(what, r);
		return;
	}
	if (len > offsetof(struct sockaddr_un, sun_path) && !strncmp(p, dir, strlen(dir)))
		fprintf(out, "%s: len DIR+%zu family %d path DIR%s\n", what, len - strlen(dir),
			a.sun_family, p + strlen(dir));
	else
		fprintf(out, "%s: len %u family %d%s\n", what, len, a.sun_family,
			len > offsetof(struct sockaddr_un, sun_path) ? " abstract" : "");
}

static void show_poll(const char *what, int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN | POLLOUT | POLLRDHUP};

	poll(&p, 1, 0);
	fprintf(out, "%s: poll%s%s%s%s%s\n", what, p.revents & POLLIN ? " IN" : "",
		p.revents & POLLOUT ? " OUT" : "", p.revents & POLLHUP ? " HUP" : "",
		p.revents & POLLRDHUP ? " RDHUP" : "", p.revents & POLLERR ? " ERR" : "");
}

static void show_read(const char *what, int fd)
{
	char buf[64];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);

	if (n < 0) {
		show(what, n);
		return;
	}
	buf[n] = 0;
	fprintf(out, "%s = %zd \"%s\"\n", what, n, buf);
}

static volatile sig_atomic_t got_sigpipe;

static void on_sigpipe(int sig)
{
	(void)sig;
	got_sigpipe++;
}

static void errors(const char *dir)
{
	struct sockaddr_un a;
	socklen_t len;
	int s = socket(AF_UNIX, SOCK_STREAM, 0), t, v;
	char path[200];

	fprintf(out, "-- errors\n");
	show("socket(999)", socket(999, SOCK_STREAM, 0));
	show("socket(AF_MAX)", socket(46, SOCK_STREAM, 0));
	show("socket(type 0)", socket(AF_UNIX, 0, 0));
	show("socket(type 4)", socket(AF_UNIX, 4, 0));
	show("socket(type 11)", socket(AF_UNIX, 11, 0));
	show("socket(bad flag)", socket(AF_UNIX, SOCK_STREAM | 0x10000, 0));
	show("socket(protocol 2)", socket(AF_UNIX, SOCK_STREAM, 2));
	t = socket(AF_UNIX, SOCK_RAW, 0);
	len = sizeof(v);
	getsockopt(t, SOL_SOCKET, SO_TYPE, &v, &len);
	fprintf(out, "SOCK_RAW is type %d\n", v);
	close(t);
	show("socketpair(999)", socketpair(999, SOCK_STREAM, 0, (int[2]){0}));
	show("socketpair(bad pointer)", syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, 8L));
	show("bind(not a socket)", bind(0, (struct sockaddr *)&a, sizeof(a)));
	show("bind(closed fd)", bind(99, (struct sockaddr *)&a, sizeof(a)));
	show("bind(len 1)", bind(s, (struct sockaddr *)&a, 1));
	show("bind(len 200)", bind(s, (struct sockaddr *)&a, 200));
	a.sun_family = AF_INET;
	show("bind(AF_INET)", bind(s, (struct sockaddr *)&a, sizeof(a)));
	show("bind(NULL)", bind(s, NULL, 10));
	len = mkaddr(&a, dir, "nodir/sock");
	show("bind(no such dir)", bind(s, (struct sockaddr *)&a, len));
	len = mkaddr(&a, dir, "file");
	close(open(a.sun_path, O_CREAT | O_WRONLY, 0600));
	show("bind(a file's name)", bind(s, (struct sockaddr *)&a, len));
	show("connect(a file)", connect(s, (struct sockaddr *)&a, len));
	unlink(a.sun_path);
	len = mkaddr(&a, dir, "none");
	show("connect(no such name)", connect(s, (struct sockaddr *)&a, len));
	show("listen(unbound)", listen(s, 1));
	show("accept(not listening)", accept(s, NULL, NULL));
	show("accept4(bad flags)", accept4(s, NULL, NULL, 0x10));
	show("read(unconnected)", read(s, path, 1));
	show("write(unconnected)", write(s, "x", 1));
	show("send(unconnected)", send(s, "x", 1, 0));
	show("getpeername(unconnected)", getpeername(s, (struct sockaddr *)&a, &len));
	show("shutdown(how 3)", shutdown(s, 3));
	show("shutdown(unconnected)", shutdown(s, SHUT_RDWR));
	show("lseek", lseek(s, 0, SEEK_SET));
	len = sizeof(v);
	show("getsockopt(bad level)", getsockopt(s, 6, 1, &v, &len));
	show("getsockopt(bad name)", getsockopt(s, SOL_SOCKET, 999, &v, &len));
	len = -1;
	show("getsockopt(len -1)", getsockopt(s, SOL_SOCKET, SO_TYPE, &v, &len));
	show("setsockopt(short)", setsockopt(s, SOL_SOCKET, SO_SNDBUF, &v, 2));
	v = 10000;
	setsockopt(s, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
	len = sizeof(v);
	getsockopt(s, SOL_SOCKET, SO_SNDBUF, &v, &len);
	fprintf(out, "SO_SNDBUF 10000 -> %d\n", v);
	v = 1;
	setsockopt(s, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v));
	getsockopt(s, SOL_SOCKET, SO_SNDBUF, &v, &len);
	fprintf(out, "SO_SNDBUF 1 -> %d\n", v);
	show("getsockname(not a socket)", getsockname(1, (struct sockaddr *)&a, &len));
	len = sizeof(a);
	show("getsockname(bad buffer)", getsockname(s, (struct sockaddr *)8, &len));
	close(s);
}

/* The child: connects, talks, and reports; the parent runs the server side. */
static void client(const struct sockaddr_un *a, socklen_t alen, const char *dir)
{
	int c = socket(AF_UNIX, SOCK_STREAM, 0);
	struct ucred cr;
	socklen_t len = sizeof(cr);
	char *text;
	size_t size;

	out = open_memstream(&text, &size);

	show("client connect", connect(c, (const struct sockaddr *)a, alen));
	show("client connect again", connect(c, (const struct sockaddr *)a, alen));
	show_name("client sockname", c, dir, false);
	show_name("client peername", c, dir, true);
	getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &len);
	fprintf(out, "client peercred: len %u pid is parent %d uid ok %d\n", len,
		cr.pid == getppid(), cr.uid == getuid());
	show("client write", write(c, "hello server", 12));
	show_read("client read", c);
	show("client shutdown(SHUT_WR)", shutdown(c, SHUT_WR));
	show("client write after SHUT_WR", send(c, "x", 1, MSG_NOSIGNAL));
	show_read("client read reply", c);
	show_read("client read at EOF", c);
	show_poll("client at EOF", c);
	close(c);
	fclose(out);
	fwrite(text, 1, size, stdout);
	exit(0);
}

static void client_server(const char *dir)
{
	struct sockaddr_un a;
	socklen_t alen = mkaddr(&a, dir, "srv.sock");
	int s = socket(AF_UNIX, SOCK_STREAM, 0), c, t;
	struct stat st;
	struct ucred cr;
	socklen_t len;
	int v, status;

	fprintf(out, "-- client and server\n");
	show("bind", bind(s, (struct sockaddr *)&a, alen));
	stat(a.sun_path, &st);
	fprintf(out, "node: %s mode %o size %ld\n", S_ISSOCK(st.st_mode) ? "socket" : "other",
		st.st_mode & 07777, (long)st.st_size);
	show("open(the node)", open(a.sun_path, O_RDONLY));
	show("bind again", bind(s, (struct sockaddr *)&a, alen));
	t = socket(AF_UNIX, SOCK_STREAM, 0);
	show("bind(name in use)", bind(t, (struct sockaddr *)&a, alen));
	show("connect(bound, not listening)", connect(t, (struct sockaddr *)&a, alen));
	close(t);
	t = socket(AF_UNIX, SOCK_DGRAM, 0);
	show("connect(dgram to a stream)", connect(t, (struct sockaddr *)&a, alen));
	close(t);
	show_name("server sockname", s, dir, false);
	show("listen", listen(s, 5));
	len = sizeof(v);
	getsockopt(s, SOL_SOCKET, SO_ACCEPTCONN, &v, &len);
	fprintf(out, "SO_ACCEPTCONN %d\n", v);
	show_poll("listener, nobody yet", s);
	if (fork() == 0)
		client(&a, alen, dir);
	c = accept4(s, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	show("accept4", c >= 0 ? 0 : c);
	fprintf(out, "accepted: cloexec %d nonblock %d\n", !!(fcntl(c, F_GETFD) & FD_CLOEXEC),
		!!(fcntl(c, F_GETFL) & O_NONBLOCK));
	fcntl(c, F_SETFL, 0);
	fstat(c, &st);
	fprintf(out, "fstat: socket %d mode %o\n", S_ISSOCK(st.st_mode), st.st_mode & 07777);
	show_name("accepted sockname", c, dir, false);
	show_name("accepted peername", c, dir, true);
	len = sizeof(cr);
	getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &len);
	fprintf(out, "server peercred: pid is child %d\n", cr.pid != getpid() && cr.pid > 0);
	len = sizeof(v);
	getsockopt(c, SOL_SOCKET, SO_TYPE, &v, &len);
	fprintf(out, "SO_TYPE %d len %u\n", v, len);
	show_read("server read", c);
	show("server write", write(c, "hello client", 12));
	show_read("server read at EOF", c);
	show_poll("server after client's SHUT_WR", c);
	v = (int)write(c, "bye", 3);
	shutdown(c, SHUT_WR);
	waitpid(-1, &status, 0); /* the client's lines come out as it exits */
	show("server write reply", v);
	fprintf(out, "client exit %d\n", WEXITSTATUS(status));
	show_poll("server after client's close", c);
	show_read("server read after close", c);
	signal(SIGPIPE, on_sigpipe);
	show("server write after close", write(c, "x", 1));
	fprintf(out, "SIGPIPE %d\n", got_sigpipe);
	show("send MSG_NOSIGNAL after close", send(c, "x", 1, MSG_NOSIGNAL));
	fprintf(out, "SIGPIPE %d\n", got_sigpipe);
	close(c);
	close(s);
	/* A closed listener's name stays, and refuses. */
	t = socket(AF_UNIX, SOCK_STREAM, 0);
	show("connect(listener closed)", connect(t, (struct sockaddr *)&a, alen));
	close(t);
	show("unlink", unlink(a.sun_path));
}

static void backlog(const char *dir)
{
	struct sockaddr_un a;
	socklen_t alen = mkaddr(&a, dir, "bl.sock");
	int s = socket(AF_UNIX, SOCK_STREAM, 0), c[4], n;

	fprintf(out, "-- backlog\n");
	bind(s, (struct sockaddr *)&a, alen);
	listen(s, 1);
	for (int i = 0; i < 4; i++) {
		char what[32];

		c[i] = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
		snprintf(what, sizeof(what), "nonblocking connect %d", i);
		show(what, connect(c[i], (struct sockaddr *)&a, alen));
	}
	/* A client writes before its accept, then closes: the server still reads it. */
	show("write before accept", write(c[0], "early", 5));
	close(c[0]);
	n = accept(s, NULL, NULL);
	show_read("read the early bytes", n);
	show_read("then EOF", n);
	close(n);
	n = accept(s, NULL, NULL);
	close(n);
	fcntl(s, F_SETFL, O_NONBLOCK);
	show("accept(none left, nonblocking)", accept(s, NULL, NULL));
	/* Closing the listener resets a connection it never accepted. */
	show("connect 2 again", connect(c[2], (struct sockaddr *)&a, alen));
	close(s);
	show_poll("client of a closed listener", c[2]);
	show("its read", read(c[2], &n, 1));
	show("its read again", read(c[2], &n, 1));
	for (int i = 1; i < 4; i++)
		close(c[i]);
	unlink(a.sun_path);
}

/* A peer that closes with bytes unread: the writer's next read is ECONNRESET, then EOF. */
static void reset(void)
{
	int sv[2];
	int v;
	socklen_t len = sizeof(v);

	fprintf(out, "-- reset\n");
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	write(sv[0], "unread", 6);
	close(sv[1]);
	show_poll("after the peer's close", sv[0]);
	getsockopt(sv[0], SOL_SOCKET, SO_ERROR, &v, &len);
	fprintf(out, "SO_ERROR %s\n", strerror(v));
	show("read", read(sv[0], &v, 1));
	close(sv[0]);
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	write(sv[0], "unread", 6);
	close(sv[1]);
	show("read", read(sv[0], &v, 1));
	show("read again", read(sv[0], &v, 1));
	close(sv[0]);
}

static void readiness(void)
{
	int sv[2], ep = epoll_create1(0), n;
	struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP, .data.u32 = 7}, evs[2];
	char buf[300000];

	fprintf(out, "-- readiness\n");
	socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv);
	show_poll("new pair", sv[0]);
	epoll_ctl(ep, EPOLL_CTL_ADD, sv[0], &ev);
	show("epoll_wait, nothing", epoll_wait(ep, evs, 2, 0));
	if (fork() == 0) {
		usleep(100000);
		write(sv[1], "x", 1);
		_exit(0);
	}
	n = epoll_wait(ep, evs, 2, 60000);
	fprintf(out, "epoll_wait woken: %d data %u events %#x\n", n, evs[0].data.u32,
		evs[0].events);
	wait(NULL);
	show_poll("with data", sv[0]);
	read(sv[0], buf, 1);
	/* Fill the send buffer: EAGAIN, not writable; reading makes room. */
	n = 0;
	while (write(sv[1], buf, sizeof(buf) / 10) > 0)
		n++;
	fprintf(out, "filled: EAGAIN %d, some written %d\n", errno == EAGAIN, n > 0);
	show_poll("full writer", sv[1]);
	while (read(sv[0], buf, sizeof(buf)) > 0)
		;
	show_poll("writer after the reader emptied it", sv[1]);
	show("read empty, nonblocking", read(sv[0], buf, 1));
	show("recv MSG_DONTWAIT", recv(sv[0], buf, 1, MSG_DONTWAIT));
	shutdown(sv[1], SHUT_WR);
	n = epoll_wait(ep, evs, 2, 0);
	fprintf(out, "after peer's SHUT_WR: %d events %#x\n", n, evs[0].events);
	close(ep);
	close(sv[0]);
	close(sv[1]);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* The waits: a big write meets a reader, a connect waits out a full backlog, a signal ends a
 * wait (EINTR without SA_RESTART), select sees a socket. */
static void waits(const char *dir)
{
	static char big[1 << 20], back[1 << 16];
	struct sockaddr_un a;
	socklen_t alen = mkaddr(&a, dir, "wait.sock");
	struct sigaction sa = {.sa_handler = on_alarm};
	int sv[2], s, c, n, status;
	long total = 0, sum = 0;
	fd_set rd;
	struct timeval tv = {0, 0};

	fprintf(out, "-- waits\n");
	socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);
	fprintf(out, "socketpair cloexec %d\n", !!(fcntl(sv[0], F_GETFD) & FD_CLOEXEC));
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)i;
	if (fork() == 0) {
		_exit(write(sv[0], big, sizeof(big)) == sizeof(big) ? 0 : 1);
	}
	while (total < (long)sizeof(big) && (n = (int)read(sv[1], back, sizeof(back))) > 0) {
		for (int i = 0; i < n; i++)
			sum += (unsigned char)back[i] == (unsigned char)(total + i);
		total += n;
	}
	waitpid(-1, &status, 0);
	fprintf(out, "1 MiB through: %ld bytes, %ld in order, writer exit %d\n", total, sum,
		WEXITSTATUS(status));
	FD_ZERO(&rd);
	FD_SET(sv[1], &rd);
	fprintf(out, "select empty: %d\n", select(sv[1] + 1, &rd, NULL, NULL, &tv));
	write(sv[0], "x", 1);
	FD_SET(sv[1], &rd);
	fprintf(out, "select with data: %d set %d\n", select(sv[1] + 1, &rd, NULL, NULL, &tv),
		FD_ISSET(sv[1], &rd));
	read(sv[1], back, 1);
	sigaction(SIGALRM, &sa, NULL);
	ualarm(100000, 100000); /* again and again: one comes while read waits, however late */
	show("read, a signal comes", read(sv[1], back, 1));
	ualarm(0, 0);
	{
		/* SO_RCVTIMEO and SO_SNDTIMEO: a wait that ends with EAGAIN, Linux's rounding. */
		struct timeval tv = {0, 200000}, got;
		socklen_t len = sizeof(got);

		show("SO_RCVTIMEO 0.2 s",
		     setsockopt(sv[1], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
		getsockopt(sv[1], SOL_SOCKET, SO_RCVTIMEO, &got, &len);
		fprintf(out, "SO_RCVTIMEO reads %ld.%06ld len %u\n", (long)got.tv_sec,
			(long)got.tv_usec, len);
		show("read with a timeout", read(sv[1], back, 1));
		tv.tv_sec = 60; /* a signal ends it long before */
		setsockopt(sv[1], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		ualarm(100000, 100000);
		show("a signal in a wait with a timeout", read(sv[1], back, 1));
		ualarm(0, 0);
		show("SO_RCVTIMEO short", setsockopt(sv[1], SOL_SOCKET, SO_RCVTIMEO, &tv, 8));
		tv.tv_usec = 1000000;
		show("SO_RCVTIMEO usec 1000000",
		     setsockopt(sv[1], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
		tv = (struct timeval){0, 0};
		setsockopt(sv[1], SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		getsockopt(sv[1], SOL_SOCKET, SO_SNDTIMEO, &got, &len);
		fprintf(out, "SO_SNDTIMEO 0 0 reads %ld.%06ld\n", (long)got.tv_sec,
			(long)got.tv_usec);
		tv = (struct timeval){-1, 0};
		setsockopt(sv[1], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		show("read with a negative timeout", read(sv[1], back, 1));
	}
	close(sv[0]);
	close(sv[1]);
	/* backlog 0 holds one: the second connect waits for the accept */
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	bind(s, (struct sockaddr *)&a, alen);
	listen(s, 0);
	c = socket(AF_UNIX, SOCK_STREAM, 0);
	show("first connect", connect(c, (struct sockaddr *)&a, alen));
	if (fork() == 0) {
		int d = socket(AF_UNIX, SOCK_STREAM, 0);

		_exit(connect(d, (struct sockaddr *)&a, alen) == 0 && write(d, "late", 4) == 4 ? 0
											       : 1);
	}
	usleep(100000);
	close(accept(s, NULL, NULL));
	n = accept(s, NULL, NULL);
	show_read("the waiting client's bytes", n);
	waitpid(-1, &status, 0);
	fprintf(out, "waiting client exit %d\n", WEXITSTATUS(status));
	close(n);
	close(c);
	close(s);
	unlink(a.sun_path);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";

	setvbuf(stdout, NULL, _IONBF, 0);
	out = stdout;
	umask(022);
	errors(dir);
	client_server(dir);
	backlog(dir);
	reset();
	readiness();
	waits(dir);
	return 0;
}
