/*
 * /bin/ftest, /bin/run_test and /bin/callsite: the kernel's command of the same name, through
 * its debugfs file (kernel/debug/debugfs_cmd.c). The arguments are written to
 * /sys/kernel/debug/NAME, where NAME is argv[0]'s last part; the command runs inside that write,
 * in this process, so `trace-cmd record -p function -F ftest call` traces ftest_outer() under
 * this process's pid; then what it printed is read back from the same open file.
 *
 * Exit status, as the commands always had: 0 when the write succeeded (its text on stdout);
 * 2 for arguments the command does not take (EINVAL: its usage on stderr); 1 for a run that
 * failed: a result that says no (EIO: run_test's counter is off; ENXIO: callsite's function has
 * no call site) on stdout, an error (no such function, no memory, ...) on stderr, as strerror's
 * text if the command printed none; 126 when the file cannot be used at all (bash's status for
 * a command found but not run). Ctrl-C interrupts the write, and this process ends by SIGINT
 * as any would.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define DEBUGFS "/sys/kernel/debug/"
#define LINE_MAX_BYTES 256 /* the kernel's limit for the arguments written at once */
#define OUTPUT_MAX 4096 /* more than the kernel keeps of what a command printed */
#define STATUS_USAGE 2
#define STATUS_FAILED 1
#define STATUS_CANNOT_RUN 126

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	char path[sizeof(DEBUGFS) + 64], line[LINE_MAX_BYTES + 1], text[OUTPUT_MAX];
	size_t len = 0;
	ssize_t n, w;
	int fd, err;

	/* The words, blank-separated as the kernel splits them: a word with a blank would split. */
	for (int i = 1; i < argc; i++) {
		size_t wl = strlen(argv[i]);

		if (len + wl + 1 > LINE_MAX_BYTES || !wl || strpbrk(argv[i], " \t\n")) {
			fprintf(stderr, "%s: arguments must be words, %d bytes in all at most\n",
				name, LINE_MAX_BYTES);
			return STATUS_USAGE;
		}
		memcpy(line + len, argv[i], wl);
		len += wl;
		line[len++] = ' ';
	}
	line[len ? len - 1 : len++] = '\n';
	snprintf(path, sizeof(path), DEBUGFS "%s", name);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", name, path, strerror(errno));
		return STATUS_CANNOT_RUN;
	}
	w = write(fd, line, len);
	err = errno;
	n = read(fd, text, sizeof(text));
	if (n < 0)
		n = 0;
	if (w == (ssize_t)len) {
		fwrite(text, 1, (size_t)n, stdout);
		return 0;
	}
	if (err == EINVAL) {
		fwrite(text, 1, (size_t)n, stderr);
		return STATUS_USAGE;
	}
	if (n)
		fwrite(text, 1, (size_t)n, err == EIO || err == ENXIO ? stdout : stderr);
	else
		fprintf(stderr, "%s: %s\n", name, strerror(err));
	return STATUS_FAILED;
}
