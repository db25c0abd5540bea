/*
 * pidfd_open(2), judged against Linux (tests/qemu/tools/test_trace_cmd.py): its errors,
 * close-on-exec always, and poll and select finding it readable exactly when the process has exited
 * (a zombie too), as trace-cmd record -P waits for its pid to end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#define CHILD_NAP_NS 300000000L /* the child lives this long: the parent polls before it ends */

static int pidfd_open(int pid, unsigned int flags)
{
	return (int)syscall(SYS_pidfd_open, pid, flags);
}

static void show(const char *what, int ret)
{
	printf("%s = %d%s%s\n", what, ret < 0 ? -1 : ret, ret < 0 ? " " : "",
	       ret < 0 ? strerror(errno) : "");
}

static pid_t napping_child(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct timespec nap = {0, CHILD_NAP_NS};

		nanosleep(&nap, NULL);
		_exit(3);
	}
	return pid;
}

int main(void)
{
	struct pollfd pfd = {.events = POLLIN};
	int status, fd, r;
	fd_set rd;
	pid_t pid;
	char c;

	show("pidfd_open(0, 0)", pidfd_open(0, 0));
	show("pidfd_open(-1, 0)", pidfd_open(-1, 0));
	show("pidfd_open(self, 1)", pidfd_open(getpid(), 1));

	/* A running child: not readable; once it has exited, readable (before wait, a zombie). */
	fflush(stdout);
	pid = napping_child();
	fd = pidfd_open(pid, 0);
	printf("pidfd_open(child) is a descriptor: %s\n", fd >= 0 ? "yes" : "no");
	printf("close-on-exec: %s\n", fcntl(fd, F_GETFD) == FD_CLOEXEC ? "yes" : "no");
	pfd.fd = fd;
	r = poll(&pfd, 1, 0);
	printf("poll now = %d, revents %#x\n", r, pfd.revents);
	r = poll(&pfd, 1, -1);
	printf("poll until it exits = %d, revents %#x\n", r, pfd.revents);
	r = poll(&pfd, 1, 0);
	printf("poll again (a zombie) = %d, revents %#x\n", r, pfd.revents);
	show("read", (int)read(fd, &c, 1));
	show("write", (int)write(fd, "x", 1));
	waitpid(pid, &status, 0);
	printf("child exit status %d\n", WEXITSTATUS(status));
	r = poll(&pfd, 1, 0);
	printf("poll after wait = %d, revents %#x\n", r, pfd.revents);
	close(fd);
	/* Reaped: no such process. */
	show("pidfd_open(reaped child)", pidfd_open(pid, 0));

	/* select too, with PIDFD_NONBLOCK (O_NONBLOCK). */
	fflush(stdout);
	pid = napping_child();
	fd = pidfd_open(pid, O_NONBLOCK);
	printf("O_NONBLOCK set: %s\n", fcntl(fd, F_GETFL) & O_NONBLOCK ? "yes" : "no");
	FD_ZERO(&rd);
	FD_SET(fd, &rd);
	r = select(fd + 1, &rd, NULL, NULL, NULL);
	printf("select until it exits = %d, set %d\n", r, FD_ISSET(fd, &rd) ? 1 : 0);
	waitpid(pid, &status, 0);
	close(fd);
	return 0;
}
