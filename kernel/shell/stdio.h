/*
 * What the console's commands use to talk: file descriptors 0, 1 and 2 of the running task,
 * as in user space: the console, or (shell_command.c) the calling program's files.
 */
#ifndef KERNEL_STDIO_H
#define KERNEL_STDIO_H

#include <stddef.h>
#include "lib/compiler.h"

#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2

/* All n bytes, or a negative errno. */
long fd_write(int fd, const void *buf, size_t n);
/* Bytes written, or (as C's printf) a negative value, the errno, if the write failed. */
int printf(const char *fmt, ...) __printf(1, 2);
int dprintf(int fd, const char *fmt, ...) __printf(2, 3);

#endif
