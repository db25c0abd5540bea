/*
 * A blocking read of FILE that a signal interrupts: a handler installed with SA_RESTART runs,
 * then the read either starts again or fails with EINTR. Linux restarts a pipe's read, but
 * trace_pipe and trace_pipe_raw end with EINTR (ring_buffer_wait): trace-cmd's recorders,
 * blocked there, stop that way (tests/qemu/tools/test_trace_cmd.py).
 *
 * The signal (SIGALRM) comes from a child, and only once the reader sleeps in its read: an
 * alarm timed from before the read could come before it on a busy machine, run the handler
 * there, and leave the read waiting. If the read starts again, the child sees the reader asleep
 * in it once more after the handler ran, and sends a second signal, whose handler exits with
 * status 2: that says "restarted". Reader and child share their progress through a shared page.
 *
 * Usage: pipewait FILE.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../../user/proc_stat.h"

#define BUF_SIZE 4096
#define NAP_NS 1000000L /* 1 ms between looks at the reader */
#define MAX_NAPS 30000 /* 30 s: the child gives up on a reader that never sleeps */
#define RESTARTED_STATUS 2

/* What reader and child both see (a MAP_SHARED page). */
struct progress {
	volatile sig_atomic_t reading; /* the reader is about to call read() */
	volatile sig_atomic_t handled; /* times the handler ran */
	volatile sig_atomic_t returned; /* read() returned */
};

static struct progress *pr;

static void on_alrm(int sig)
{
	(void)sig;
	if (++pr->handled > 1)
		_exit(RESTARTED_STATUS); /* the read started again and a second signal came */
}

/* Naps until the reader sleeps with `handled` at want and its read not returned: 0 if never. */
static int wait_asleep(pid_t reader, int want)
{
	struct timespec nap = {0, NAP_NS};

	for (int i = 0; i < MAX_NAPS; i++) {
		int ppid;
		char s = stat_of(reader, &ppid);

		if (!s || s == 'Z' || pr->returned)
			return 0;
		if (pr->reading && pr->handled == want && s == 'S')
			return 1;
		nanosleep(&nap, NULL);
	}
	return 0;
}

static void signaller(pid_t reader)
{
	/* Into the read first; again only if the handler ran and the read waits once more. */
	for (int want = 0; want < 2; want++) {
		if (!wait_asleep(reader, want))
			break;
		kill(reader, SIGALRM);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	static char buf[BUF_SIZE];
	struct sigaction sa;
	ssize_t n;
	pid_t child;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: pipewait FILE\n");
		return 1;
	}
	pr = mmap(NULL, sizeof(*pr), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pr == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alrm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (child == 0)
		signaller(getppid());
	pr->reading = 1;
	n = read(fd, buf, sizeof(buf));
	pr->returned = 1;
	kill(child, SIGKILL); /* no wait for it: the reader asleep anywhere would be signalled */
	printf("read = %zd (%s), handler ran %d time(s)\n", n, n < 0 ? strerror(errno) : "data",
	       (int)pr->handled);
	return 0;
}
