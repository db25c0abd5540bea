/*
 * fork, execve and wait4: children that exit, are killed, exec another program, talk through
 * a pipe; wait4's status words; ECHILD and WNOHANG. One line per fact.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Called with wait's result already in got and status (argument order is unspecified). */
static void report(const char *what, pid_t pid, pid_t got, int status)
{
	if (got != pid) {
		printf("%s: wait4 returned %d, not %d\n", what, got, pid);
		return;
	}
	if (WIFEXITED(status))
		printf("%s: exited %d\n", what, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		printf("%s: killed by signal %d\n", what, WTERMSIG(status));
}

int main(void)
{
	int status, p[2];
	pid_t pid, got, me = getpid();

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(getppid() == me ? 3 : 4);
	got = waitpid(pid, &status, 0);
	report("exit", pid, got, status);

	pid = fork();
	if (pid == 0) {
		volatile int *bad = NULL;
		*bad = 1;
		_exit(0);
	}
	got = waitpid(pid, &status, 0);
	report("segv", pid, got, status);

	pid = fork();
	if (pid == 0) {
		char *argv[] = {"exitcode", "5", NULL};
		execve("/bin/exitcode", argv, environ);
		_exit(100);
	}
	got = waitpid(pid, &status, 0);
	report("execve", pid, got, status);

	pid = fork();
	if (pid == 0) {
		char *argv[] = {"notelf", NULL};
		execve("/bin/notelf", argv, environ);
		_exit(errno == ENOEXEC ? 8 : 9);
	}
	got = waitpid(pid, &status, 0);
	report("execve notelf", pid, got, status);

	pipe(p);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		write(p[1], "from the child", 14);
		_exit(0);
	}
	close(p[1]);
	char buf[32] = {0};
	read(p[0], buf, sizeof(buf) - 1);
	printf("pipe: %s\n", buf);
	got = waitpid(pid, &status, 0);
	report("pipe child", pid, got, status);

	pid = fork();
	if (pid == 0) {
		sleep(1);
		_exit(6);
	}
	printf("wnohang: %d\n", waitpid(pid, &status, WNOHANG));
	got = wait(&status);
	report("any", pid, got, status);
	int r = wait(&status);
	printf("no children: %d %s\n", r, strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		char *argv[] = {"hello", NULL};
		execve("/bin/hello", argv, environ);
		_exit(1);
	}
	got = waitpid(pid, &status, 0);
	report("hello", pid, got, status);
	return 0;
}
