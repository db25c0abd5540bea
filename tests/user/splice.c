/*
 * splice(2) as trace-cmd's recorders use it (kernel/fs/splice.c): a file into a pipe and the
 * pipe into a file, with and without offsets, no more than the pipe holds, SPLICE_F_NONBLOCK on
 * an empty and a full pipe, end of file, and the errors. Run as `splice DIR` on Linux and in
 * Lucid (tests/qemu/trace/test_dynamic.py): the outputs must be the same.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "show.h"

#define SIZE 10000 /* more than a page: several splices */
#define PIPE_ROOM 4096 /* a page a splice: several splices for the file */

static char data[SIZE], back[SIZE];

/* pread until n bytes or the end: a read may return fewer bytes than asked (Lucid: a page). */
static long pread_all(int fd, char *buf, long n, long off)
{
	long done = 0, r;

	while (done < n && (r = pread(fd, buf + done, (size_t)(n - done), off + done)) > 0)
		done += r;
	return done;
}

int main(int argc, char **argv)
{
	char src[256], dst[256];
	int p[2];

	if (argc != 2)
		return 2;
	snprintf(src, sizeof(src), "%s/splice-src", argv[1]);
	snprintf(dst, sizeof(dst), "%s/splice-dst", argv[1]);
	for (int i = 0; i < SIZE; i++)
		data[i] = (char)('a' + i % 26);
	int in = open(src, O_RDWR | O_CREAT | O_TRUNC, 0644);
	int out = open(dst, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || out < 0 || write(in, data, SIZE) != SIZE || pipe(p))
		return 1;
	lseek(in, 0, SEEK_SET);

	/* File -> pipe -> file, a page at a time, until the end of the file. */
	long total = 0, n;
	while ((n = splice(in, NULL, p[1], NULL, PIPE_ROOM, 0)) > 0) {
		long m = splice(p[0], NULL, out, NULL, (size_t)n, 0);
		if (m != n)
			printf("short: %ld of %ld\n", m, n);
		total += m;
	}
	printf("copied %ld, last %ld, file offset %ld\n", total, n, (long)lseek(in, 0, SEEK_CUR));
	pread_all(out, back, SIZE, 0);
	printf("same bytes: %d\n", memcmp(data, back, SIZE) == 0);

	/* With offsets: the file positions stay where they were, the offsets move. */
	loff_t off_in = 100, off_out = 0;
	n = splice(in, &off_in, p[1], NULL, 50, 0);
	printf("from offset 100: %ld, off_in now %ld, position %ld\n", n, (long)off_in,
	       (long)lseek(in, 0, SEEK_CUR));
	n = splice(p[0], NULL, out, &off_out, 50, 0);
	pread_all(out, back, 50, 0);
	printf("to offset 0: %ld, off_out now %ld, bytes %d\n", n, (long)off_out,
	       memcmp(back, data + 100, 50) == 0);

	/* An empty pipe, SPLICE_F_NONBLOCK: EAGAIN; with no writer left: end of file. */
	SHOW("empty pipe, nonblock", splice(p[0], NULL, out, NULL, 10, SPLICE_F_NONBLOCK));
	/* A full pipe, SPLICE_F_NONBLOCK: EAGAIN, and the file's bytes stay in it. */
	lseek(in, 0, SEEK_SET);
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	long filled = 0;
	while ((n = write(p[1], data, sizeof(data))) > 0)
		filled += n;
	SHOW("full pipe, nonblock", splice(in, NULL, p[1], NULL, 10, SPLICE_F_NONBLOCK));
	printf("file position after: %ld\n", (long)lseek(in, 0, SEEK_CUR));
	while (filled > 0 && (n = read(p[0], back, sizeof(back))) > 0)
		filled -= n;

	/* Errors, in Linux's order. */
	SHOW("length 0", splice(in, NULL, p[1], NULL, 0, 0));
	SHOW("unknown flag", splice(in, NULL, p[1], NULL, 10, 0x100));
	SHOW("bad fd", splice(99, NULL, p[1], NULL, 10, 0));
	SHOW("neither a pipe", splice(in, NULL, out, NULL, 10, 0));
	SHOW("offset on a pipe", splice(p[0], &off_in, out, NULL, 10, 0));
	SHOW("into the read end", splice(in, NULL, p[0], NULL, 10, 0));
	int app = open(dst, O_WRONLY | O_APPEND);
	write(p[1], "x", 1);
	SHOW("to an O_APPEND file", splice(p[0], NULL, app, NULL, 10, 0));
	close(p[1]);
	read(p[0], back, 1);
	SHOW("no writer left", splice(p[0], NULL, out, NULL, 10, 0));
	unlink(src);
	unlink(dst);
	return 0;
}
