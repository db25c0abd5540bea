/*
 * /bin/ftest and /bin/run_test: the kernel shell's command named by argv[0], run in this
 * process (kernel/shell/shell_command.c), so that bash, busybox sh and trace-cmd can run it as
 * a program: `trace-cmd record -p function -F ftest call` traces ftest_outer() under this
 * process's pid. Its output is the command's; its exit status the command's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SHELL_COMMAND "/sys/kernel/debug/shell_command"
#define LINE_MAX_BYTES 256 /* the kernel's limit for one command line */
#define STATUS_FAILED 126 /* bash's status for a command found but not run */

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	char line[LINE_MAX_BYTES + 1], status[16];
	size_t len = 0;
	ssize_t n;
	int fd;

	for (int i = 0; i < argc; i++) {
		const char *word = i ? argv[i] : name;
		size_t w = strlen(word);

		if (len + w + 1 > LINE_MAX_BYTES || !w || strpbrk(word, " \t\n")) {
			fprintf(stderr, "%s: arguments must be words, %d bytes in all at most\n", name,
				LINE_MAX_BYTES);
			return STATUS_FAILED;
		}
		memcpy(line + len, word, w);
		len += w;
		line[len++] = i + 1 < argc ? ' ' : '\n';
	}
	fd = open(SHELL_COMMAND, O_RDWR);
	if (fd < 0 || write(fd, line, len) != (ssize_t)len) {
		fprintf(stderr, "%s: %s: %s\n", name, SHELL_COMMAND, strerror(errno));
		return STATUS_FAILED;
	}
	n = read(fd, status, sizeof(status) - 1);
	if (n <= 0) {
		fprintf(stderr, "%s: %s: no status\n", name, SHELL_COMMAND);
		return STATUS_FAILED;
	}
	status[n] = '\0';
	return atoi(status);
}
