/*
 * Sleeps the seconds given (default 1), then forks one child that writes to /dev/null and
 * exits, and waits for it: a process to trace with set_ftrace_pid and options/function-fork,
 * whose child is born after the tracing files are set.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int status;
	pid_t pid;

	sleep(argc > 1 ? atoi(argv[1]) : 1);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		write(fd, "child\n", 6);
		_exit(0);
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) ? 0 : 1;
}
