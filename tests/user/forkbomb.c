/*
 * Forks until the kernel says no (EAGAIN), then ends its children and collects them before it
 * exits: an orphan lives on, so a bomb that only exited would leave them all paused.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	int n = 0, size = 0;
	pid_t *kids = NULL;

	for (;;) {
		if (n == size) {
			size = size ? 2 * size : 64;
			kids = realloc(kids, size * sizeof(*kids));
			if (!kids)
				return 1;
		}
		pid_t pid = fork();

		if (pid == 0) {
			pause();
			_exit(0);
		}
		if (pid < 0) {
			printf("fork failed after %d children: %s\n", n, strerror(errno));
			break;
		}
		kids[n++] = pid;
	}
	for (int i = 0; i < n; i++)
		kill(kids[i], SIGKILL);
	for (int i = 0; i < n; i++)
		waitpid(kids[i], NULL, 0);
	return 0;
}
