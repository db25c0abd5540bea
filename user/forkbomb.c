/* Forks until the kernel says no (EAGAIN), then exits: its children go with it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	int n = 0;

	for (;;) {
		pid_t pid = fork();

		if (pid == 0) {
			pause();
			_exit(0);
		}
		if (pid < 0) {
			printf("fork failed after %d children: %s\n", n, strerror(errno));
			return 0;
		}
		n++;
	}
}
