/*
 * printf and friends for the console's commands: format, then write to a file descriptor of
 * the running task (its fs_context's table, kernel/fs/vfs.h), as a program's stdio does.
 */
#include "kernel/shell/stdio.h"
#include "kernel/fs/vfs.h"
#include "kernel/sched/wait.h"
#include "lib/errno.h"
#include "lib/printf.h"

#define PRINTF_BUF 512 /* longer output is cut: no command prints such lines */

/*
 * Writes all n bytes, in as many vfs_write()s as it takes. After a signal (a program's Ctrl-C,
 * through shell_command.c) it writes nothing more (-EINTR): that stops a long output.
 */
long fd_write(int fd, const void *buf, size_t n)
{
	size_t done = 0;

	while (done < n) {
		if (signal_pending_current())
			return -EINTR;
		ssize_t ret = vfs_write(fd, (const char *)buf + done, n - done);
		if (ret < 0)
			return ret;
		done += (size_t)ret;
	}
	return (long)done;
}

static int vdprintf(int fd, const char *fmt, va_list ap)
{
	char buf[PRINTF_BUF];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	long ret = fd_write(fd, buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);

	return ret < 0 ? (int)ret : n;
}

int dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vdprintf(fd, fmt, ap);
	va_end(ap);
	return n;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vdprintf(STDOUT_FILENO, fmt, ap);
	va_end(ap);
	return n;
}
