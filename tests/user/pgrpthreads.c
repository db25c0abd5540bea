/*
 * setpgid and setsid act on the whole process, as Linux keeps the ids in the signal_struct its
 * threads share: after a change by its parent, or by one of its threads, every thread of a
 * child reports the same group (getpgrp, getpgid(0), /proc/self/task/TID/stat). And setpgid's
 * errors in Linux's order: EINVAL for a thread's id, EACCES for a child that has called
 * execve (it could before), ESRCH for a process that is not a child.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NTHREADS 3

static pthread_barrier_t start, moved, checked;
static int fails;

static const char *err(int ret)
{
	if (ret == 0)
		return "ok";
	switch (errno) {
	case EPERM:
		return "EPERM";
	case EINVAL:
		return "EINVAL";
	case ESRCH:
		return "ESRCH";
	case EACCES:
		return "EACCES";
	default:
		return strerror(errno);
	}
}

/* The group this thread's /proc stat line says (its 5th field), or -1. */
static int proc_pgrp(void)
{
	char path[64], line[512];
	int pgrp = -1;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/stat", (long)syscall(SYS_gettid));
	FILE *f = fopen(path, "r");
	if (f && fgets(line, sizeof(line), f)) {
		char *p = strrchr(line, ')');
		char state;
		int ppid;

		if (!p || sscanf(p + 2, "%c %d %d", &state, &ppid, &pgrp) != 3)
			pgrp = -1;
	}
	if (f)
		fclose(f);
	return pgrp;
}

/* Does this thread see its process in group want, by every means it has? */
static void check(int want, int stage)
{
	int bad = (getpgrp() != want) | (getpgid(0) != want) << 1 | (proc_pgrp() != want) << 2 |
		  (getpgid((pid_t)syscall(SYS_gettid)) != want) << 3;

	__atomic_fetch_or(&fails, bad << stage, __ATOMIC_SEQ_CST);
}

static int parent_group;

static void *thread(void *arg)
{
	long i = (long)arg;

	pthread_barrier_wait(&start); /* the parent moved the process */
	check(getpid(), 0);
	pthread_barrier_wait(&moved);
	/* The last thread moves its process back into its parent's group. */
	if (i == NTHREADS - 1 && setpgid(0, parent_group))
		__atomic_fetch_or(&fails, 1 << 8, __ATOMIC_SEQ_CST);
	pthread_barrier_wait(&checked);
	check(parent_group, 4);
	return NULL;
}

/*
 * The child: threads that look at their group as it changes. Its exit status says what failed:
 * bits 0-3 the four means in the first group, 4-7 in the second, 8 the thread's setpgid.
 */
static int threaded_child(int ready_fd, int go_fd)
{
	pthread_t th[NTHREADS];
	char c = 0;

	pthread_barrier_init(&start, NULL, NTHREADS + 1);
	pthread_barrier_init(&moved, NULL, NTHREADS + 1);
	pthread_barrier_init(&checked, NULL, NTHREADS + 1);
	for (long i = 0; i < NTHREADS; i++)
		pthread_create(&th[i], NULL, thread, (void *)i);
	if (write(ready_fd, &c, 1) != 1 || read(go_fd, &c, 1) != 1) /* the parent moves us */
		return 100;
	pthread_barrier_wait(&start);
	check(getpid(), 0);
	pthread_barrier_wait(&moved);
	pthread_barrier_wait(&checked); /* a thread moved us back */
	check(parent_group, 4);
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	return fails;
}

static volatile pid_t idle_tid;

static void *idle_thread(void *arg)
{
	int *fd = arg;
	char c;

	idle_tid = (pid_t)syscall(SYS_gettid);
	if (read(*fd, &c, 1) < 0)
		return NULL;
	return NULL;
}

int main(int argc, char **argv)
{
	int ready[2], go[2], status;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 2 && !strcmp(argv[1], "exec")) { /* the child after its execve */
		char c;

		return read(0, &c, 1) < 0;
	}
	parent_group = getpgrp();

	/* 1. The parent moves a threaded child; then one of the child's threads moves it back. */
	if (pipe(ready) || pipe(go))
		return 1;
	pid_t child = fork();
	if (child == 0)
		_exit(threaded_child(ready[1], go[0]));
	char c;
	if (read(ready[0], &c, 1) != 1)
		return 1;
	printf("setpgid(child, child) of a threaded child: %s\n", err(setpgid(child, child)));
	if (write(go[1], &c, 1) != 1)
		return 1;
	waitpid(child, &status, 0);
	printf("every thread saw each group, by every means: %s (status %d)\n",
	       WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "yes" : "no",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);

	/* 2. A thread's id is no process's: EINVAL, even for the caller's own thread. */
	int fd[2];
	pthread_t th;
	if (pipe(fd))
		return 1;
	pthread_create(&th, NULL, idle_thread, &fd[0]);
	struct timespec step = {0, 1000 * 1000};
	for (int i = 0; i < 5000 && !idle_tid; i++) /* bounded: 5 s */
		nanosleep(&step, NULL);
	printf("setpgid(a thread's id, 0): %s\n", err(setpgid(idle_tid, 0)));
	if (write(fd[1], "x", 1) != 1)
		return 1;
	pthread_join(th, NULL);

	/* 3. A child that has called execve: EACCES; before, it was allowed. */
	int cloexec[2], in[2];
	if (pipe2(cloexec, O_CLOEXEC) || pipe(in))
		return 1;
	child = fork();
	if (child == 0) {
		dup2(in[0], 0);
		close(cloexec[0]);
		if (read(0, &c, 1) != 1) /* go: exec now */
			_exit(1);
		execl("/proc/self/exe", "pgrpthreads", "exec", (char *)NULL);
		_exit(1);
	}
	close(cloexec[1]);
	printf("setpgid(child, child) before its execve: %s\n", err(setpgid(child, child)));
	printf("setpgid(child, parent's group) before its execve: %s\n",
	       err(setpgid(child, parent_group)));
	if (write(in[1], "x", 1) != 1)
		return 1;
	/* EOF once the exec closed the child's end (O_CLOEXEC): the exec has happened. */
	while (read(cloexec[0], &c, 1) > 0)
		;
	printf("setpgid(child, child) after its execve: %s\n", err(setpgid(child, child)));
	printf("the child's group after it: %s\n",
	       getpgid(child) == parent_group ? "the parent's" : "another");
	if (write(in[1], "x", 1) != 1)
		return 1;
	waitpid(child, &status, 0);

	/* 4. Neither the caller nor its child: ESRCH. */
	printf("setpgid(the parent, 0): %s\n", err(setpgid(getppid(), 0)));
	return 0;
}
