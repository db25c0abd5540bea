/*
 * poll on per_cpu/cpuN/trace_pipe_raw, as trace-cmd's recorders wait on it: no CPU's file is
 * readable while its buffer is empty, the CPU that took a trace_marker write becomes readable
 * and gives a whole page to read() (splice() only ever moves whole pages, so a part page is
 * EAGAIN to it); tracing off changes nothing (an empty file still waits, as Linux's), and
 * options/block makes every file readable (tests/qemu/trace/test_raw.py). That is with
 * buffer_percent 0 (any event wakes a reader); then buffer_percent 100: a marker wakes no one,
 * a full buffer does (Linux's watermark).
 */
#define _GNU_SOURCE /* splice */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define TRACING "/sys/kernel/tracing"
#define MAX_CPUS 64
#define PAGE 4096
#define EMPTY_WAIT_MS 300 /* long enough for a wrong "readable" to show */
#define EVENT_WAIT_MS 5000
#define SMALL_KB "8" /* two pages a CPU: full after a few markers */
#define BIG_MARKER 1000 /* bytes: four to a page */
#define MAX_MARKERS 256

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));

	if (fd >= 0)
		close(fd);
	return n < 0 ? -1 : 0;
}

/* How many of the n files poll finds readable within ms. */
static int ready(struct pollfd *p, int n, int ms)
{
	for (int i = 0; i < n; i++)
		p[i].revents = 0;
	return poll(p, (nfds_t)n, ms);
}

int main(void)
{
	struct pollfd p[MAX_CPUS];
	static char page[PAGE];
	int n = 0;

	if (write_file(TRACING "/current_tracer", "nop") || write_file(TRACING "/trace", "") ||
	    write_file(TRACING "/buffer_percent", "0") || write_file(TRACING "/tracing_on", "1")) {
		perror("tracing files");
		return 1;
	}
	for (; n < MAX_CPUS; n++) {
		char path[128];

		snprintf(path, sizeof(path), TRACING "/per_cpu/cpu%d/trace_pipe_raw", n);
		p[n] = (struct pollfd){.fd = open(path, O_RDONLY | O_NONBLOCK), .events = POLLIN};
		if (p[n].fd < 0)
			break;
		while (read(p[n].fd, page, PAGE) > 0) /* what is there already: to EAGAIN */
			;
	}
	printf("empty: %d ready\n", ready(p, n, EMPTY_WAIT_MS));
	write_file(TRACING "/trace_marker", "rawpoll");
	printf("after a marker: %d ready\n", ready(p, n, EVENT_WAIT_MS));
	for (int i = 0; i < n; i++) {
		int pipefd[2];

		if (!(p[i].revents & POLLIN) || pipe(pipefd))
			continue;
		if (splice(p[i].fd, NULL, pipefd[1], NULL, PAGE, SPLICE_F_NONBLOCK) < 0)
			printf("splice of a part page: %s\n", strerror(errno));
		printf("read %zd bytes\n", read(p[i].fd, page, PAGE));
		close(pipefd[0]);
		close(pipefd[1]);
	}
	printf("drained: %d ready\n", ready(p, n, EMPTY_WAIT_MS));
	write_file(TRACING "/tracing_on", "0");
	printf("tracing off: %d ready\n", ready(p, n, EMPTY_WAIT_MS));
	write_file(TRACING "/tracing_on", "1");
	write_file(TRACING "/options/block", "1");
	printf("options/block: %s\n", ready(p, n, EMPTY_WAIT_MS) == n ? "all ready" : "not all");
	write_file(TRACING "/options/block", "0");

	/* buffer_percent 100: only a full buffer wakes a reader. */
	char big[BIG_MARKER + 1], size_kb[32] = "1408";
	int fd = open(TRACING "/buffer_size_kb", O_RDONLY), writes = 0;
	ssize_t len = fd < 0 ? -1 : read(fd, size_kb, sizeof(size_kb) - 1);

	if (fd >= 0)
		close(fd);
	if (len > 0)
		size_kb[len] = '\0';
	memset(big, 'x', BIG_MARKER);
	big[BIG_MARKER] = '\0';
	write_file(TRACING "/buffer_size_kb", SMALL_KB);
	write_file(TRACING "/buffer_percent", "100");
	write_file(TRACING "/trace", "");
	write_file(TRACING "/trace_marker", "rawpoll");
	printf("percent 100, a marker: %d ready\n", ready(p, n, EMPTY_WAIT_MS));
	while (writes < MAX_MARKERS && ready(p, n, 0) == 0) {
		write_file(TRACING "/trace_marker", big);
		writes++;
	}
	/* two pages of 4080 bytes hold at most eight of them: more than a page's worth it took */
	printf("percent 100, filled: %s after more than a page\n",
	       writes > PAGE / BIG_MARKER && writes < MAX_MARKERS ? "ready" : "not ready");
	write_file(TRACING "/buffer_percent", "50");
	write_file(TRACING "/buffer_size_kb", size_kb);
	return 0;
}
