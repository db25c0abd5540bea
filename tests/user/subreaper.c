/*
 * Orphans: a process whose parent exits lives on, adopted by the nearest ancestor that asked
 * for orphans with prctl(PR_SET_CHILD_SUBREAPER) (else by init), which sees it in getppid() and
 * collects it with wait. One line per fact, the same on Linux.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define GRANDCHILD_STATUS 7

/*
 * Forks a child that forks a grandchild and exits at once; the grandchild waits for a byte on
 * go (sent once its parent is surely gone: reaped), then writes its getppid() to out and exits.
 */
static pid_t orphan_maker(int go[2], int out[2])
{
	pid_t child = fork();

	if (child == 0) {
		if (fork() == 0) {
			char c;
			pid_t ppid;

			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(1);
			ppid = getppid();
			if (write(out[1], &ppid, sizeof(ppid)) != sizeof(ppid))
				_exit(1);
			_exit(GRANDCHILD_STATUS);
		}
		_exit(0);
	}
	return child;
}

static void adopted(int subreaper)
{
	int go[2], out[2], status, on = -1;
	pid_t ppid = 0;

	prctl(PR_SET_CHILD_SUBREAPER, subreaper, 0, 0, 0);
	prctl(PR_GET_CHILD_SUBREAPER, &on, 0, 0, 0);
	printf("subreaper %d: PR_GET_CHILD_SUBREAPER says %d\n", subreaper, on);
	if (pipe(go) || pipe(out))
		return;
	pid_t child = orphan_maker(go, out);
	printf("the child exited %d\n",
	       waitpid(child, &status, 0) == child && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	/* Its parent is reaped: the grandchild was given away before that. */
	if (write(go[1], "g", 1) != 1 || read(out[0], &ppid, sizeof(ppid)) != sizeof(ppid))
		printf("no answer from the grandchild\n");
	if (subreaper) {
		printf("the orphan's getppid is ours: %s\n", ppid == getpid() ? "yes" : "no");
		pid_t got = waitpid(-1, &status, 0);
		printf("we reaped it: %s, exited %d\n", got > 0 ? "yes" : strerror(errno),
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	} else {
		printf("the orphan's getppid is ours: %s\n", ppid == getpid() ? "yes" : "no");
		pid_t got = waitpid(-1, &status, 0);
		printf("waitpid: %s\n", got < 0 ? strerror(errno) : "a child");
	}
	close(go[0]);
	close(go[1]);
	close(out[0]);
	close(out[1]);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	adopted(1);
	adopted(0);
	return 0;
}
