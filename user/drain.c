/*
 * drain FILE...: copies to standard output what each FILE has now, and stops where a read would
 * wait. cat, but opening each file O_NONBLOCK and ending it at EAGAIN as well as at its end.
 *
 * Why: per_cpu/cpuN/trace_pipe_raw never ends. On an empty buffer a read waits for the next
 * event, with tracing off too, as on Linux, so `cat trace_pipe_raw` would wait forever once it
 * has copied everything. tools/lucid-record copies each CPU's pages out with drain; a script on
 * Linux would use GNU dd's iflag=nonblock, which busybox's dd lacks.
 *
 * Exit status: 0, or 1 if a file could not be opened, read or written (the others are still
 * copied), with a message as cat gives; 2 without a FILE.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CHUNK 4096 /* one ring-buffer page per read */

/* Writes all of buf, or returns -1. */
static int write_all(const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(STDOUT_FILENO, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int drain(const char *path)
{
	static char buf[CHUNK];
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	if (fd < 0) {
		fprintf(stderr, "drain: %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (n < 0 && errno == EAGAIN))
			break; /* the end, or nothing more until the next event */
		if (n < 0 || write_all(buf, (size_t)n)) {
			fprintf(stderr, "drain: %s: %s\n", n < 0 ? path : "write error",
				strerror(errno));
			close(fd);
			return 1;
		}
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: drain FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		status |= drain(argv[i]);
	return status;
}
