/*
 * printf and friends for shell commands: format, then write to a file descriptor of the
 * running task (its fs_context's table, kernel/fs/vfs.h), as a program's stdio does. What fds 0,
 * 1 and 2 are is the shell's business: the console, a file, a pipe.
 */
#include "kernel/shell/stdio.h"
#include "kernel/shell/cmd_io.h"
#include "kernel/fs/vfs.h"
#include "kernel/sched/wait.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "kernel/mm/kmalloc.h"

#define PRINTF_BUF 512

/*
 * Writes all n bytes, in as many vfs_write()s as it takes (a pipe takes what fits). After a
 * Ctrl-C it writes nothing more (-EINTR): that is what stops a command printing a long file.
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

/*
 * One read: may return fewer bytes than asked (a line from the console, a pipe's contents).
 * After a Ctrl-C it reads nothing more (-EINTR), as fd_write: a command reading a source that
 * never ends and never blocks (/dev/zero) would otherwise never notice it.
 */
long fd_read(int fd, void *buf, size_t n)
{
	if (signal_pending_current())
		return -EINTR;
	return vfs_read(fd, buf, n);
}

int vdprintf(int fd, const char *fmt, va_list ap)
{
	char buf[PRINTF_BUF];
	va_list copy;
	long ret;
	va_copy(copy, ap);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < (int)sizeof(buf)) {
		ret = fd_write(fd, buf, n);
	} else {
		/* Too long for the stack buffer: format again into the heap. */
		char *big = kmalloc(n + 1);
		if (big) {
			vsnprintf(big, n + 1, fmt, copy);
			ret = fd_write(fd, big, n);
			kfree(big);
		} else {
			ret = fd_write(fd, buf, sizeof(buf) - 1);
		}
	}
	va_end(copy);
	return ret < 0 ? (int)ret : n; /* a command reports the errno: "pwd: write error: ..." */
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

int cmd_nomem(const char *who, int status)
{
	dprintf(STDERR_FILENO, "%s: %s\n", who, errno_text(ENOMEM));
	return status;
}
