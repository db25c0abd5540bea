/*
 * readfile: cat as a user program, with nothing between it and the system calls but musl's thin
 * wrappers: open, then read and write until read returns 0, then close. docs/tutorial.md traces
 * its read from do_syscall_64 through the VFS and back.
 *
 * Usage: readfile FILE...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CHUNK 4096 /* one page a read, as cat's smallest buffer */

static int copy_out(const char *path)
{
	static char buf[CHUNK];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		fprintf(stderr, "readfile: %s: %s\n", path, strerror(errno));
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (write(STDOUT_FILENO, buf, n) != n) {
			fprintf(stderr, "readfile: write error: %s\n", strerror(errno));
			close(fd);
			return 1;
		}
	}
	if (n < 0)
		fprintf(stderr, "readfile: %s: %s\n", path, strerror(errno));
	close(fd);
	return n < 0;
}

int main(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: readfile FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		status |= copy_out(argv[i]);
	return status;
}
