/*
 * forkexec N [PROGRAM]: N times, fork a child that execs PROGRAM (by default this program
 * again, told to exit at once) and wait for it. The load the tests put beside run_test: many
 * address spaces made, replaced and freed while other CPUs trace and schedule.
 * Prints "N ok", or the first failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "-x") == 0)
		return 0; /* the exec'd child: done */
	long n = argc > 1 ? atol(argv[1]) : 1000;
	char *self = argc > 2 ? argv[2] : "/bin/forkexec";

	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			char *args[] = {self, "-x", NULL};

			execv(self, args);
			_exit(127); /* exec failed */
		}
		int status;

		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("child %ld: status %#x\n", i, status);
			return 1;
		}
	}
	printf("%ld ok\n", n);
	return 0;
}
