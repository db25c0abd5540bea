/* Error numbers: Linux's values, so that messages and tests read as they do on Linux. */
#ifndef LIB_ERRNO_H
#define LIB_ERRNO_H

#define EPERM 1
#define ENOENT 2
#define ESRCH 3
#define EINTR 4
#define EIO 5
#define ENXIO 6
#define E2BIG 7
#define ENOEXEC 8
#define EBADF 9
#define ECHILD 10
#define EAGAIN 11
#define EWOULDBLOCK EAGAIN /* the same number in Linux */
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define EBUSY 16
#define EEXIST 17
#define EXDEV 18
#define ENODEV 19
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define ENFILE 23
#define EMFILE 24
#define ENOTTY 25
#define ETXTBSY 26
#define EFBIG 27
#define ENOSPC 28
#define ESPIPE 29
#define EROFS 30
#define EPIPE 32
#define EDOM 33 /* a hist expression's division by zero, as Linux */
#define ERANGE 34
#define ENAMETOOLONG 36
#define ENOSYS 38
#define ENOTEMPTY 39
#define ELOOP 40
#define EOVERFLOW 75
#define ELIBBAD 80
#define EILSEQ 84 /* a kprobe not on an instruction boundary */
#define ENOTSOCK 88
#define EDESTADDRREQ 89
#define EMSGSIZE 90
#define EPROTOTYPE 91
#define ENOPROTOOPT 92
#define EPROTONOSUPPORT 93
#define ESOCKTNOSUPPORT 94
#define EOPNOTSUPP 95 /* a clock that cannot be slept on */
#define EAFNOSUPPORT 97
#define EADDRINUSE 98
#define EADDRNOTAVAIL 99
#define ECONNRESET 104
#define ENOBUFS 105
#define EISCONN 106
#define ENOTCONN 107
#define ETIMEDOUT 110
#define ECONNREFUSED 111
#define ECANCELED 125 /* a dynamic event definition not of this kind */

/*
 * Never seen by user space (include/linux/errno.h): an interrupted system call asks the signal
 * code (arch/x86_64/signal.c) to restart it or to make it -EINTR, depending on the handler.
 */
#define ERESTARTSYS 512     /* restart if the handler has SA_RESTART, else -EINTR */
#define ERESTARTNOINTR 513  /* always restart */
#define ERESTARTNOHAND 514  /* restart if no handler runs, else -EINTR */
#define ERESTART_RESTARTBLOCK 516 /* restart through restart_syscall if no handler, else -EINTR */
/* Linux's kernel-internal "operation not supported", which a write may still return (a uprobe
 * on an instruction that cannot be probed): the shell says "Unknown error 524". */
#define ENOTSUPP 524

/* Linux's text for err ("Invalid argument" for EINVAL); "Unknown error N" for others. */
const char *errno_text(int err);

#endif
