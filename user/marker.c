/*
 * marker: a program that writes its own lines into the kernel's trace, the example of the
 * article's part 2 ("Debugging the kernel using Ftrace"). A write to trace_marker becomes an
 * event in the ring buffer, "tracing_mark_write: TEXT", in order with the kernel's own lines, so
 * the trace shows which kernel work happened between two points of the program.
 *
 * Usage: marker [-o] [MESSAGE...]
 *   no MESSAGE: marks "entering critical area", calls getpid(), marks "leaving critical area";
 *   MESSAGE...: writes each one as a marker;
 *   -o: at the end, writes 0 to tracing_on, as a program does when it finds its bug, so that
 *       the kernel's lines that led to it stay at the end of the buffer.
 *
 * The tracing directory is found as the article finds it: from /proc/mounts, where tracefs is
 * mounted (Linux 4.1 and later, /sys/kernel/tracing), or else debugfs with tracing/ inside.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MARKER_MAX 256 /* one marker line; Linux cuts a marker at 1 KiB anyway */

static int marker_fd = -1;
static int tracing_on_fd = -1;

/*
 * Where tracefs is: its mount point in /proc/mounts, or debugfs's plus "/tracing". A line of
 * /proc/mounts is "SOURCE DIR TYPE OPTIONS 0 0".
 */
static int find_tracing_dir(char *dir, size_t size)
{
	char line[512], source[128], mnt[200], type[64];
	int found = 0;
	FILE *f = fopen("/proc/mounts", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %199s %63s", source, mnt, type) != 3)
			continue;
		if (!strcmp(type, "tracefs")) {
			snprintf(dir, size, "%s", mnt);
			found = 1;
			break;
		}
		if (!strcmp(type, "debugfs") && !found) {
			snprintf(dir, size, "%s/tracing", mnt);
			found = 1; /* keep looking: tracefs's own mount point is better */
		}
	}
	fclose(f);
	return found ? 0 : -1;
}

static int open_tracing_file(const char *dir, const char *name)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		fprintf(stderr, "marker: %s: %s\n", path, strerror(errno));
	return fd;
}

/* One marker line, printf-style: the event's text is exactly what is written. */
static void trace_write(const char *fmt, ...)
{
	char buf[MARKER_MAX];
	va_list ap;
	int n;

	if (marker_fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	if (write(marker_fd, buf, n) < 0)
		fprintf(stderr, "marker: write: %s\n", strerror(errno));
}

int main(int argc, char **argv)
{
	char dir[256];
	int stop = 0;
	int i = 1;

	if (argc > 1 && !strcmp(argv[1], "-o")) {
		stop = 1;
		i++;
	}
	if (find_tracing_dir(dir, sizeof(dir)) < 0) {
		fprintf(stderr, "marker: no tracefs or debugfs in /proc/mounts\n");
		return 1;
	}
	marker_fd = open_tracing_file(dir, "trace_marker");
	tracing_on_fd = open_tracing_file(dir, "tracing_on");
	if (marker_fd < 0 || tracing_on_fd < 0)
		return 1;

	if (i == argc) {
		trace_write("entering critical area\n");
		trace_write("getpid() = %d\n", (int)getpid());
		trace_write("leaving critical area\n");
	}
	for (; i < argc; i++)
		trace_write("%s\n", argv[i]);

	/* "bug discovered": freeze the buffer so that what led here is not overwritten */
	if (stop && write(tracing_on_fd, "0", 1) != 1) {
		fprintf(stderr, "marker: tracing_on: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
