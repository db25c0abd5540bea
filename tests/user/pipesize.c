/*
 * A pipe's size as Linux gives it (kernel/fs/pipe.c): 64 KiB to start with, what F_GETPIPE_SZ
 * and F_SETPIPE_SZ say and do, writes of up to PIPE_BUF bytes all or nothing, and a pipe that
 * takes a writer's last pages after its reader has stopped reading (trace-cmd's recorders
 * flush so at their end). Run on Linux and in Lucid (tests/qemu/user/test_syscalls.py): the
 * outputs must be the same.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "show.h"

#define BIG (64 * 1024)

static char data[BIG], back[2 * BIG];

/* Writes without waiting until the pipe is full: the bytes it took. */
static long fill(int fd)
{
	long total = 0, n;

	while ((n = write(fd, data, sizeof(data))) > 0)
		total += n;
	return total;
}

static long drain(int fd)
{
	long total = 0, n;

	while ((n = read(fd, back, sizeof(back))) > 0)
		total += n;
	return total;
}

static int pollout(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLOUT};

	return poll(&p, 1, 0) == 1 && (p.revents & POLLOUT);
}

int main(int argc, char **argv)
{
	int p[2], status;

	(void)argc;
	(void)argv;
	memset(data, 'x', sizeof(data));
	if (pipe2(p, O_NONBLOCK))
		return 1;
	printf("size at first: %d\n", fcntl(p[0], F_GETPIPE_SZ));
	printf("write end says: %d\n", fcntl(p[1], F_GETPIPE_SZ));
	printf("a full pipe holds: %ld\n", fill(p[1]));
	printf("writable when full: %d\n", pollout(p[1]));
	SHOW("shrink below its bytes", fcntl(p[1], F_SETPIPE_SZ, 4096));
	printf("read back: %ld\n", drain(p[0]));
	printf("writable when empty: %d\n", pollout(p[1]));

	/* Sizes are whole pages, a power of two of them, one at least. */
	printf("set 5000: %d\n", fcntl(p[1], F_SETPIPE_SZ, 5000));
	printf("set 0: %d\n", fcntl(p[1], F_SETPIPE_SZ, 0));
	printf("set 100000: %d\n", fcntl(p[1], F_SETPIPE_SZ, 100000));
	printf("now holds: %ld\n", fill(p[1]));
	printf("read back: %ld\n", drain(p[0]));

	/* Bytes in the pipe move with it when it grows, wrapped around the ring's end. */
	fcntl(p[1], F_SETPIPE_SZ, 8192);
	write(p[1], "0123456789", 10);
	read(p[0], back, 10);
	write(p[1], data, 5000); /* the second page, then the first */
	write(p[1], "end", 3); /* tops up the last page */
	printf("grow with bytes in: %d\n", fcntl(p[1], F_SETPIPE_SZ, 65536));
	printf("bytes: %ld\n", (long)read(p[0], back, sizeof(back)));
	printf("last three: %.3s\n", back + 5000);

	/* A write tops up the last page only with what fits there whole, else takes a free one:
	 * with none, a short write (PIPE_BUF or less) waits whole, EAGAIN here. */
	fcntl(p[1], F_SETPIPE_SZ, 4096);
	write(p[1], data, 4000);
	SHOW("200 bytes into 96", write(p[1], data, 200));
	SHOW("5000 bytes into 96", write(p[1], data, 5000));
	printf("90 bytes into 96: %ld\n", (long)write(p[1], data, 90));
	printf("read back: %ld\n", drain(p[0]));
	fcntl(p[1], F_SETPIPE_SZ, 8192);
	write(p[1], data, 4000);
	printf("5000 bytes into a page and 96: %ld\n", (long)write(p[1], data, 5000));
	printf("read back: %ld\n", drain(p[0]));

	/* Not a pipe: EBADF. */
	SHOW("F_GETPIPE_SZ of a file", fcntl(open("/dev/null", O_RDONLY), F_GETPIPE_SZ));
	SHOW("F_SETPIPE_SZ of a file", fcntl(open("/dev/null", O_RDONLY), F_SETPIPE_SZ, 4096));

	/* A child writes 32 KiB (eight pages, as a recorder's flush) and exits; the parent reads
	 * only after it has reaped it: the pipe must have taken it all. */
	int q[2];
	if (pipe(q))
		return 1;
	pid_t pid = fork();
	if (pid == 0) {
		close(q[0]);
		_exit(write(q[1], data, 32768) == 32768 ? 0 : 1);
	}
	close(q[1]);
	waitpid(pid, &status, 0);
	printf("child wrote 32 KiB before its reader read: status %d, read %ld\n",
	       WEXITSTATUS(status), drain(q[0]));
	return 0;
}
