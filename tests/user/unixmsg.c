/*
 * AF_UNIX messages judged against Linux (tests/qemu/user/test_unix_sockets.py): datagrams (their
 * boundaries, MSG_TRUNC, MSG_PEEK, the sender's name, connect's rules, the queue's limit),
 * seqpacket connections, abstract names and autobind, SCM_RIGHTS (the receiver's descriptors
 * are new ones on the same open files; MSG_CTRUNC when its buffer is small; files passed to a
 * read are closed) and sendmsg/recvmsg's errors. Prints only what Linux fixes.
 * argv[1]: a directory to bind in. "unixmsg loop N DIR": N rounds of everything, quietly (the
 * memory test).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <termios.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

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

static socklen_t mkabstract(struct sockaddr_un *a, const char *name)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	memcpy(a->sun_path + 1, name, strlen(name));
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name));
}

/* A receive, shown with its length, flags, bytes and the sender's name. */
static void show_recv(const char *what, int fd, size_t size, int flags, const char *dir)
{
	char buf[256] = {0};
	struct sockaddr_un from;
	struct iovec iov = {.iov_base = buf, .iov_len = size};
	struct msghdr m = {
		.msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = &iov, .msg_iovlen = 1};
	ssize_t n = recvmsg(fd, &m, flags);

	if (n < 0) {
		show(what, n);
		return;
	}
	fprintf(out, "%s = %zd \"%.*s\"%s namelen %s%d", what, n,
		(int)(n < (ssize_t)size ? n : (ssize_t)size), buf,
		m.msg_flags & MSG_TRUNC ? " MSG_TRUNC" : "",
		m.msg_namelen > 2 && from.sun_path[0] && !strncmp(from.sun_path, dir, strlen(dir))
			? "DIR+"
			: "",
		(int)(m.msg_namelen > 2 && from.sun_path[0] ? m.msg_namelen - strlen(dir)
							    : m.msg_namelen));
	if (m.msg_namelen > 2 && !from.sun_path[0])
		fprintf(out, " abstract \"%.*s\"", (int)m.msg_namelen - 3, from.sun_path + 1);
	fprintf(out, "\n");
}

static void dgram(const char *dir)
{
	struct sockaddr_un a, b;
	socklen_t alen = mkaddr(&a, dir, "d1"), blen = mkaddr(&b, dir, "d2");
	int s = socket(AF_UNIX, SOCK_DGRAM, 0), t = socket(AF_UNIX, SOCK_DGRAM, 0);
	int u = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0), n;
	char big[70000];

	fprintf(out, "-- datagrams\n");
	show("bind", bind(s, (struct sockaddr *)&a, alen));
	show("send(unconnected)", send(t, "x", 1, 0));
	show("sendto(no such name)", sendto(t, "x", 1, 0, (struct sockaddr *)&b, blen));
	show("sendto(bad len)", sendto(t, "x", 1, 0, (struct sockaddr *)&a, 1));
	show("sendto one", sendto(t, "one", 3, 0, (struct sockaddr *)&a, alen));
	show("sendto two", sendto(t, "second", 6, 0, (struct sockaddr *)&a, alen));
	show("sendto empty", sendto(t, "", 0, 0, (struct sockaddr *)&a, alen));
	show("bind the sender", bind(t, (struct sockaddr *)&b, blen));
	show("sendto three", sendto(t, "third!", 6, 0, (struct sockaddr *)&a, alen));
	show_recv("recv peek", s, 100, MSG_PEEK, dir);
	show_recv("recv", s, 100, 0, dir);
	show_recv("recv short", s, 3, 0, dir);
	show_recv("recv empty one", s, 100, 0, dir);
	show_recv("recv MSG_TRUNC", s, 2, MSG_TRUNC, dir);
	show_recv("recv none", s, 100, MSG_DONTWAIT, dir);
	/* connect: the default destination, and the only sender it takes from. */
	show("connect", connect(t, (struct sockaddr *)&a, alen));
	show("send connected", send(t, "to peer", 7, 0));
	show("write connected", write(t, "by write", 8));
	show_recv("recv", s, 100, 0, dir);
	show_recv("recv", s, 100, 0, dir);
	show("connect s to t", connect(s, (struct sockaddr *)&b, blen));
	show("sendto s from u", sendto(u, "x", 1, 0, (struct sockaddr *)&a, alen));
	show("connect u to s", connect(u, (struct sockaddr *)&a, alen));
	struct sockaddr_un unspec = {.sun_family = AF_UNSPEC};
	show("connect s AF_UNSPEC", connect(s, (struct sockaddr *)&unspec, sizeof(sa_family_t)));
	show("getpeername after AF_UNSPEC",
	     getpeername(s, (struct sockaddr *)&unspec, &(socklen_t){sizeof(unspec)}));
	/* The queue's limit, for a sender that is not the receiver's peer. */
	for (n = 0; n < 100; n++)
		if (sendto(u, "q", 1, 0, (struct sockaddr *)&a, alen) < 0)
			break;
	fprintf(out, "queued before EAGAIN: %d (%s)\n", n, strerror(errno));
	while (recv(s, big, sizeof(big), MSG_DONTWAIT) > 0)
		;
	/* A large datagram comes whole; one past the send buffer is EMSGSIZE. */
	memset(big, 'z', sizeof(big));
	show("sendto 70000", sendto(u, big, sizeof(big), 0, (struct sockaddr *)&a, alen));
	memset(big, 0, sizeof(big));
	n = (int)recv(s, big, sizeof(big), 0);
	fprintf(out, "recv 70000: %d, last byte %c\n", n, big[sizeof(big) - 1]);
	char *huge = calloc(1, 300000);
	show("sendto 300000", sendto(u, huge, 300000, 0, (struct sockaddr *)&a, alen));
	free(huge);
	close(s);
	/* The peer is gone: refused once, then not connected. */
	show("send to a closed peer", send(t, "x", 1, 0));
	show("send again", send(t, "x", 1, 0));
	show("sendto a closed socket's name", sendto(u, "x", 1, 0, (struct sockaddr *)&a, alen));
	close(t);
	close(u);
	unlink(a.sun_path);
	unlink(b.sun_path);
}

static void pair_dgram(void)
{
	int sv[2];

	fprintf(out, "-- datagram socketpair\n");
	socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
	{
		/* /proc names a socket "socket:[INODE]", and will not open it again. */
		char link[64] = {0}, path[64];

		snprintf(path, sizeof(path), "/proc/self/fd/%d", sv[0]);
		readlink(path, link, sizeof(link) - 1);
		fprintf(out, "fd link: %.8s...%s\n", link,
			link[strlen(link) - 1] == ']' ? "]" : "");
		show("open /proc/self/fd/N", open(path, O_RDWR));
	}
	write(sv[0], "abc", 3);
	write(sv[0], "defgh", 5);
	{
		int n = -1;

		fprintf(out, "F_GETFL %#x\n", fcntl(sv[0], F_GETFL));
		show("FIONREAD", ioctl(sv[1], FIONREAD, &n));
		fprintf(out, "FIONREAD says %d (the next datagram)\n", n);
		show("TCGETS on a socket", ioctl(sv[1], TCGETS, &n));
	}
	show_recv("read 1", sv[1], 100, 0, "/");
	show_recv("read 2", sv[1], 100, 0, "/");
	/* read and write of more than a page, readv and writev: one datagram each */
	{
		static char big[20000], back[30000];
		struct iovec wv[2] = {{"ab", 2}, {"cdef", 4}}, rv[2] = {{back, 3}, {back + 3, 10}};

		memset(big, 'b', sizeof(big));
		show("write 20000", write(sv[0], big, sizeof(big)));
		show("write 300", write(sv[0], big, 300));
		show("read 30000", read(sv[1], back, sizeof(back)));
		show("read 30000", read(sv[1], back, sizeof(back)));
		show("writev 2+4", writev(sv[0], wv, 2));
		memset(back, 0, 16);
		show("readv 3+10", readv(sv[1], rv, 2));
		fprintf(out, "got \"%s\"\n", back);
	}
	{
		/* A stream's read gives all that is there, up to the count. */
		static char big[20000], back[40000];
		int st[2];

		socketpair(AF_UNIX, SOCK_STREAM, 0, st);
		write(st[0], big, sizeof(big));
		show("stream read 40000", read(st[1], back, sizeof(back)));
		close(st[0]);
		close(st[1]);
	}
	{
		/* sendmmsg and recvmmsg: several datagrams a call, each with its length. */
		char b[3][8] = {"one", "two22", "three"}, r[4][8];
		struct iovec wv[3], rv[4];
		struct mmsghdr wm[3], rm[4];
		struct timespec ts = {0, -1};
		int n;

		memset(wm, 0, sizeof(wm));
		memset(rm, 0, sizeof(rm));
		for (int i = 0; i < 3; i++) {
			wv[i] = (struct iovec){b[i], strlen(b[i])};
			wm[i].msg_hdr.msg_iov = &wv[i];
			wm[i].msg_hdr.msg_iovlen = 1;
		}
		for (int i = 0; i < 4; i++) {
			rv[i] = (struct iovec){r[i], sizeof(r[i])};
			rm[i].msg_hdr.msg_iov = &rv[i];
			rm[i].msg_hdr.msg_iovlen = 1;
		}
		show("sendmmsg 0", sendmmsg(sv[0], wm, 0, 0));
		n = sendmmsg(sv[0], wm, 3, 0);
		fprintf(out, "sendmmsg 3 = %d, lens %u %u %u\n", n, wm[0].msg_len, wm[1].msg_len,
			wm[2].msg_len);
		show("recvmmsg bad timeout", recvmmsg(sv[1], rm, 4, 0, &ts));
		n = recvmmsg(sv[1], rm, 4, MSG_DONTWAIT, NULL);
		fprintf(out, "recvmmsg 4 = %d, lens %u %u %u\n", n, rm[0].msg_len, rm[1].msg_len,
			rm[2].msg_len);
		show("recvmmsg none", recvmmsg(sv[1], rm, 4, MSG_DONTWAIT, NULL));
		sendmmsg(sv[0], wm, 1, 0);
		show("recvmmsg MSG_WAITFORONE", recvmmsg(sv[1], rm, 4, MSG_WAITFORONE, NULL));
		show("sendmmsg not a socket", sendmmsg(0, wm, 1, 0));
	}
	shutdown(sv[1], SHUT_RD);
	show_recv("after SHUT_RD", sv[1], 100, 0, "/");
	show("send to a SHUT_RD peer", send(sv[0], "x", 1, MSG_NOSIGNAL));
	shutdown(sv[0], SHUT_WR);
	show("send after SHUT_WR", send(sv[0], "x", 1, MSG_NOSIGNAL));
	close(sv[0]);
	close(sv[1]);
}

static void seqpacket(const char *dir)
{
	struct sockaddr_un a;
	socklen_t alen = mkabstract(&a, "lucid-seq");
	int l = socket(AF_UNIX, SOCK_SEQPACKET, 0), c = socket(AF_UNIX, SOCK_SEQPACKET, 0), s;

	(void)dir;
	fprintf(out, "-- seqpacket and abstract names\n");
	show("send unconnected", send(c, "x", 1, 0));
	show("recv unconnected", recv(c, &s, 1, 0));
	show("bind abstract", bind(l, (struct sockaddr *)&a, alen));
	show("bind it again", bind(c, (struct sockaddr *)&a, alen));
	show("listen", listen(l, 2));
	show("connect", connect(c, (struct sockaddr *)&a, alen));
	s = accept(l, NULL, NULL);
	show("send rec1", send(c, "record one", 10, 0));
	show("send rec2", send(c, "two", 3, 0));
	show_recv("recv short", s, 6, 0, dir);
	show_recv("recv", s, 100, 0, dir);
	show_recv("client's peer", c, 0, MSG_DONTWAIT, dir);
	close(s);
	show_recv("after the peer's close", c, 100, 0, dir);
	show("send after the peer's close", send(c, "x", 1, MSG_NOSIGNAL));
	close(c);
	close(l);
	/* autobind: bind with the family alone, a name of five hex digits. */
	c = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un b = {.sun_family = AF_UNIX};
	socklen_t blen = sizeof(sa_family_t);
	show("autobind", bind(c, (struct sockaddr *)&b, blen));
	blen = sizeof(b);
	getsockname(c, (struct sockaddr *)&b, &blen);
	fprintf(out, "autobound: len %u first NUL %d hex %d\n", blen, b.sun_path[0] == 0,
		(int)strspn(b.sun_path + 1, "0123456789abcdef"));
	close(c);
}

/* Sends fds over sock with data, one SCM_RIGHTS message. */
static ssize_t send_fds(int sock, const int *fds, int n, const char *data)
{
	char ctl[CMSG_SPACE(sizeof(int) * 8)] = {0};
	struct iovec iov = {.iov_base = (void *)data, .iov_len = strlen(data)};
	struct msghdr m = {.msg_iov = &iov,
			   .msg_iovlen = 1,
			   .msg_control = ctl,
			   .msg_controllen = CMSG_SPACE(sizeof(int) * n)};
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * n);
	memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
	return sendmsg(sock, &m, 0);
}

/* Receives with room for room fds; returns the first fd received, or -1. */
static int recv_fds(const char *what, int sock, size_t ctllen, int flags)
{
	char buf[64] = {0}, ctl[CMSG_SPACE(sizeof(int) * 8)];
	struct iovec iov = {.iov_base = buf, .iov_len = sizeof(buf)};
	struct msghdr m = {.msg_iov = &iov,
			   .msg_iovlen = 1,
			   .msg_control = ctllen ? ctl : NULL,
			   .msg_controllen = ctllen};
	ssize_t n = recvmsg(sock, &m, flags);
	int first = -1;

	if (n < 0) {
		show(what, n);
		return -1;
	}
	fprintf(out, "%s = %zd \"%s\" flags%s%s%s controllen %zu", what, n, buf,
		m.msg_flags & MSG_CTRUNC ? " MSG_CTRUNC" : "",
		m.msg_flags & MSG_CMSG_CLOEXEC ? " MSG_CMSG_CLOEXEC" : "",
		m.msg_flags & ~(MSG_CTRUNC | MSG_CMSG_CLOEXEC) ? " other" : "",
		(size_t)m.msg_controllen);
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
		int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		int *fd = (int *)CMSG_DATA(c);

		fprintf(out, " [level %d type %d len %zu: %d fds", c->cmsg_level, c->cmsg_type,
			(size_t)c->cmsg_len, k);
		for (int i = 0; i < k; i++)
			fprintf(out, " cloexec=%d", !!(fcntl(fd[i], F_GETFD) & FD_CLOEXEC));
		fprintf(out, "]");
		if (k)
			first = fd[0];
		for (int i = 1; i < k; i++)
			close(fd[i]);
	}
	fprintf(out, "\n");
	return first;
}

static void rights(const char *dir)
{
	int sv[2], p[2], f, g, fds[3];
	char name[200], buf[32] = {0};
	struct stat st1, st2;

	fprintf(out, "-- SCM_RIGHTS\n");
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pipe(p);
	snprintf(name, sizeof(name), "%s/passed", dir);
	f = open(name, O_RDWR | O_CREAT | O_TRUNC, 0600);
	write(f, "0123456789", 10);
	lseek(f, 2, SEEK_SET);
	fds[0] = f;
	fds[1] = p[1];
	show("sendmsg 2 fds", send_fds(sv[0], fds, 2, "files"));
	g = recv_fds("recvmsg", sv[1], CMSG_SPACE(sizeof(int) * 8), 0);
	fstat(f, &st1);
	fstat(g, &st2);
	fprintf(out, "a new fd %d, same file %d\n", g != f,
		st1.st_ino == st2.st_ino && st1.st_dev == st2.st_dev);
	/* The same open file: the offset is shared. */
	read(g, buf, 3);
	fprintf(out, "read at the shared offset: %s, now at %ld\n", buf,
		(long)lseek(f, 0, SEEK_CUR));
	close(g);
	close(f);
	/* A pipe's write end through a child: what it writes, we read. */
	if (fork() == 0) {
		int w = recv_fds("child recvmsg", sv[1], CMSG_SPACE(sizeof(int)), MSG_CMSG_CLOEXEC);

		write(w, "via child", 9);
		fflush(out);
		_exit(0);
	}
	send_fds(sv[0], &p[1], 1, "pipe");
	wait(NULL);
	close(p[1]);
	memset(buf, 0, sizeof(buf));
	read(p[0], buf, sizeof(buf) - 1);
	fprintf(out, "pipe gave: %s\n", buf);
	/* Too small a control buffer: MSG_CTRUNC, the fds that fit, the rest closed. */
	fds[0] = fds[1] = fds[2] = p[0];
	send_fds(sv[0], fds, 3, "three");
	recv_fds("recvmsg room for 1", sv[1], CMSG_LEN(sizeof(int)), 0);
	send_fds(sv[0], fds, 3, "three");
	recv_fds("recvmsg no control", sv[1], 0, 0);
	send_fds(sv[0], fds, 3, "three");
	recv_fds("recvmsg header only", sv[1], sizeof(struct cmsghdr), 0);
	send_fds(sv[0], fds, 1, "by read");
	memset(buf, 0, sizeof(buf));
	show("read of a message with fds", read(sv[1], buf, sizeof(buf)));
	/* A message with fds is not merged with the bytes after it. */
	send_fds(sv[0], fds, 1, "first");
	write(sv[0], "second", 6);
	close(recv_fds("recvmsg stops at the fds", sv[1], CMSG_SPACE(sizeof(int)), 0));
	recv_fds("then the rest", sv[1], CMSG_SPACE(sizeof(int)), 0);
	/* Errors: a bad fd, a bad cmsg length, a level or type that is not SCM_RIGHTS. */
	fds[0] = 99;
	show("sendmsg a closed fd", send_fds(sv[0], fds, 1, "x"));
	{
		char ctl[CMSG_SPACE(sizeof(int))] = {0};
		struct iovec iov = {.iov_base = "x", .iov_len = 1};
		struct msghdr m = {.msg_iov = &iov,
				   .msg_iovlen = 1,
				   .msg_control = ctl,
				   .msg_controllen = sizeof(ctl)};
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);

		c->cmsg_len = 4;
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		show("sendmsg cmsg_len 4", sendmsg(sv[0], &m, 0));
		c->cmsg_len = CMSG_LEN(sizeof(int));
		c->cmsg_type = 99;
		show("sendmsg type 99", sendmsg(sv[0], &m, 0));
		c->cmsg_level = 6;
		show("sendmsg level 6", sendmsg(sv[0], &m, 0));
		m.msg_iovlen = 5000;
		show("sendmsg 5000 iovecs", sendmsg(sv[0], &m, 0));
		show("sendmsg bad msghdr", syscall(SYS_sendmsg, sv[0], 8L, 0));
		show("recvmsg not a socket", syscall(SYS_recvmsg, p[0], &m, 0));
		show("recvmsg bad msghdr", syscall(SYS_recvmsg, sv[1], 8L, 0));
	}
	recv(sv[1], buf, sizeof(buf), MSG_DONTWAIT);
	{
		/* A socket passed along works at the other end; one left in flight is freed with
		 * the queue it is in (the memory test counts it). */
		int other[2], got;

		socketpair(AF_UNIX, SOCK_STREAM, 0, other);
		send_fds(sv[0], &other[0], 1, "sock");
		close(other[0]);
		got = recv_fds("recvmsg a socket", sv[1], CMSG_SPACE(sizeof(int)), 0);
		write(got, "through", 7);
		memset(buf, 0, sizeof(buf));
		read(other[1], buf, sizeof(buf) - 1);
		fprintf(out, "the passed socket carried: %s\n", buf);
		close(got);
		close(other[1]);
		socketpair(AF_UNIX, SOCK_DGRAM, 0, other);
		write(other[1], "unread", 6);
		send_fds(sv[0], other, 2, "in flight");
		close(other[0]);
		close(other[1]);
		/* A cycle: each end's file in the other's queue, both closed. Nothing but the
		 * garbage collector frees them (the memory test counts it). */
		socketpair(AF_UNIX, SOCK_STREAM, 0, other);
		send_fds(other[0], &other[0], 1, "me");
		send_fds(other[1], &other[1], 1, "me");
		close(other[0]);
		close(other[1]);
		socketpair(AF_UNIX, SOCK_DGRAM, 0, other);
		send_fds(other[0], &other[1], 1, "itself"); /* other[1]'s file in its own queue */
		close(other[0]);
		close(other[1]);
	}
	close(p[0]);
	close(sv[0]);
	close(sv[1]);
	unlink(name);
}

int main(int argc, char **argv)
{
	out = stdout;
	setvbuf(stdout, NULL, _IONBF, 0);
	umask(022);
	if (argc > 3 && !strcmp(argv[1], "loop")) {
		int n = atoi(argv[2]);

		out = fopen("/dev/null", "w");
		for (int i = 0; i < n; i++) {
			dgram(argv[3]);
			pair_dgram();
			seqpacket(argv[3]);
			rights(argv[3]);
		}
		printf("%d rounds\n", n);
		return 0;
	}
	dgram(argv[1]);
	pair_dgram();
	seqpacket(argv[1]);
	rights(argv[1]);
	return 0;
}
