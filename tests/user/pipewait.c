/*
 * A blocking read of FILE that a signal interrupts: a handler installed with SA_RESTART runs
 * (alarm after a second), then the read either starts again or fails with EINTR. Linux
 * restarts a pipe's read, but trace_pipe and trace_pipe_raw end with EINTR (ring_buffer_wait):
 * trace-cmd's recorders, blocked there, stop that way (tests/qemu/tools/test_trace_cmd.py).
 *
 * Usage: pipewait FILE. A second alarm ends a restarted read that never returns otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BUF_SIZE 4096

static volatile int handled;

static void on_alrm(int sig)
{
	(void)sig;
	if (++handled == 1)
		syscall(SYS_alarm, 1); /* once more: a restarted read would wait for ever */
	else
		_exit(2); /* it restarted: say so by the status */
}

int main(int argc, char **argv)
{
	static char buf[BUF_SIZE];
	struct sigaction sa;
	ssize_t n;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: pipewait FILE\n");
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
	syscall(SYS_alarm, 1);
	n = read(fd, buf, sizeof(buf));
	printf("read = %zd (%s), handler ran %d time(s)\n", n, n < 0 ? strerror(errno) : "data",
	       handled);
	return 0;
}
