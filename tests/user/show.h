/*
 * SHOW(label, call): runs a system call (or libc wrapper) and prints "label: ok", or
 * "label: -1 " and strerror(errno) when it failed: one line a program's output can be compared
 * on, in Lucid and on Linux, whatever the call returned on success.
 */
#ifndef USER_SHOW_H
#define USER_SHOW_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define SHOW(label, call)                                                                       \
	do {                                                                                    \
		errno = 0;                                                                      \
		long r_ = (long)(call);                                                         \
		int e_ = errno;                                                                 \
		printf("%s: %s%s\n", label, r_ < 0 ? "-1 " : "ok", r_ < 0 ? strerror(e_) : ""); \
	} while (0)

#endif
