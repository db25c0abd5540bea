/*
 * How a C library runs a helper: system(), popen() both ways, posix_spawn(p) with file actions,
 * and the clone(CLONE_VM | CLONE_VFORK, stack) and vfork() under them, whose child runs in the
 * parent's memory while the parent waits. Built with musl (user/) and with glibc (gcc -static,
 * /opt/dyn/spawn2-glibc): each library's own way in, the same output as on Linux.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHILD_STACK_SIZE (64 * 1024)

extern char **environ;

static volatile int shared; /* written by children that run in this memory */

static void status_line(const char *what, int status)
{
	if (status == -1)
		printf("%s: -1 %s\n", what, strerror(errno));
	else if (WIFEXITED(status))
		printf("%s: exited %d\n", what, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		printf("%s: killed by signal %d\n", what, WTERMSIG(status));
}

static void run_system(const char *cmd)
{
	fflush(stdout); /* the command writes to the same file: ours first */
	int status = system(cmd);

	status_line(cmd, status);
}

static void popen_read(void)
{
	char line[128];
	FILE *f = popen("echo from-popen; echo second line; exit 4", "r");

	if (!f) {
		printf("popen r: %s\n", strerror(errno));
		return;
	}
	while (fgets(line, sizeof(line), f))
		printf("popen r read: %s", line);
	status_line("pclose r", pclose(f));
}

static void popen_write(void)
{
	fflush(stdout);
	FILE *f = popen("tr a-z A-Z", "w");

	if (!f) {
		printf("popen w: %s\n", strerror(errno));
		return;
	}
	fputs("to popen's reader\n", f);
	status_line("pclose w", pclose(f));
}

static void spawn_with_pipe(void)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = {"sh", "-c", "echo spawned $0 $1", "x", "y", NULL};
	char buf[128];
	int p[2], status;
	pid_t pid;

	if (pipe(p)) {
		printf("pipe: %s\n", strerror(errno));
		return;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	int err = posix_spawnp(&pid, "sh", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	printf("posix_spawnp: %s\n", err ? strerror(err) : "ok");
	ssize_t n = err ? 0 : read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	buf[n > 0 ? n : 0] = '\0';
	printf("from the pipe: %s", buf);
	if (!err)
		status_line("spawned", waitpid(pid, &status, 0) == pid ? status : -1);
}

static void spawn_errors(void)
{
	char *argv[] = {"nothere", NULL};
	pid_t pid = 0;

	/* The exec's error comes back from posix_spawn itself, as both libraries report it. */
	printf("posix_spawn /nonexistent: %s\n",
	       strerror(posix_spawn(&pid, "/nonexistent/nothere", NULL, NULL, argv, environ)));
	printf("posix_spawnp nothere: %s\n",
	       strerror(posix_spawnp(&pid, "nothere-at-all", NULL, NULL, argv, environ)));
	/* Each library collected its failed child itself. */
	pid = waitpid(-1, NULL, WNOHANG);
	printf("wait after failed spawns: %d %s\n", pid, errno == ECHILD ? "ECHILD" : "?");
}

/* vfork: the child writes the parent's memory, and the parent runs only once it has exited. */
static void vfork_shares_memory(void)
{
	struct timespec nap = {0, 100 * 1000 * 1000};
	int status;

	shared = 0;
	pid_t pid = vfork();
	if (pid == 0) {
		nanosleep(&nap, NULL); /* the parent, if it ran, would see 0 */
		shared = 7;
		_exit(5);
	}
	printf("vfork: the parent sees %d\n", shared);
	status_line("vfork child", waitpid(pid, &status, 0) == pid ? status : -1);
}

static int clone_child(void *arg)
{
	char here;

	/* On the stack it was given, in the parent's memory. */
	shared = (char *)arg - CHILD_STACK_SIZE <= &here && &here < (char *)arg ? 42 : -1;
	return 6;
}

static void clone_vm_vfork(void)
{
	char *stack = malloc(CHILD_STACK_SIZE);
	int status;

	shared = 0;
	pid_t pid = clone(clone_child, stack + CHILD_STACK_SIZE, CLONE_VM | CLONE_VFORK | SIGCHLD,
			  stack + CHILD_STACK_SIZE);
	if (pid < 0) {
		printf("clone: %s\n", strerror(errno));
		return;
	}
	printf("clone vm vfork: the child wrote %d\n", shared);
	status_line("clone child", waitpid(pid, &status, 0) == pid ? status : -1);
	free(stack);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	run_system("echo from-system");
	run_system("exit 3");
	run_system("kill -9 $$");
	run_system("/nonexistent/cmd 2>/dev/null");
	popen_read();
	popen_write();
	spawn_with_pipe();
	spawn_errors();
	vfork_shares_memory();
	clone_vm_vfork();
	return 0;
}
