/* printf and friends for shell commands: format, then write to a file descriptor. */
#include "kernel/stdio.h"
#include "kernel/console.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "kernel/kmalloc.h"

#define PRINTF_BUF 512

long fd_write(int fd, const void *buf, size_t n)
{
	(void)fd;
	console_write(buf, n);
	return (long)n;
}

long fd_read(int fd, void *buf, size_t n)
{
	(void)fd;
	if (!n)
		return 0;
	((char *)buf)[0] = (char)console_getc();
	return 1;
}

int vdprintf(int fd, const char *fmt, va_list ap)
{
	char buf[PRINTF_BUF];
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < (int)sizeof(buf)) {
		fd_write(fd, buf, n);
	} else {
		/* Too long for the stack buffer: format again into the heap. */
		char *big = kmalloc(n + 1);
		if (big) {
			vsnprintf(big, n + 1, fmt, copy);
			fd_write(fd, big, n);
			kfree(big);
		} else {
			fd_write(fd, buf, sizeof(buf) - 1);
		}
	}
	va_end(copy);
	return n;
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
