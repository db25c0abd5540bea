/*
 * Sockets: Lucid has no networking, not even AF_UNIX. What a program sees is Linux's answer when
 * the address family it asks for is not there: socket() fails with EAFNOSUPPORT for every
 * family, so nothing can ever be a socket; getsockname() and getpeername() on a descriptor that
 * is open fail with ENOTSOCK, on one that is not with EBADF (Linux looks the descriptor up first).
 *
 * Why these and not ENOSYS: bash asks at start-up whether its standard input is a network
 * connection (getpeername(0), for rshd's "run ~/.bashrc" rule), and programs probe for sockets
 * before they choose another way (syslog() to /dev/log). They take these answers as "no", as on a
 * Linux without the family; ENOSYS would also put a "not implemented" line in the kernel log
 * (arch/x86_64/syscall_64.c) in the middle of their output.
 */
#include "kernel/syscalls.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"

long sys_socket(int family, int type, int protocol)
{
	(void)family;
	(void)type;
	(void)protocol;
	return -EAFNOSUPPORT;
}

/* No file is a socket: an open descriptor is ENOTSOCK, a closed one EBADF. */
static long not_a_socket(int fd)
{
	int open = vfs_get_cloexec(fd); /* 1 or 0 for an open descriptor, else -EBADF */

	return open < 0 ? open : -ENOTSOCK;
}

long sys_getsockname(int fd, void __user *usockaddr, int __user *usockaddr_len)
{
	(void)usockaddr;
	(void)usockaddr_len;
	return not_a_socket(fd);
}

long sys_getpeername(int fd, void __user *usockaddr, int __user *usockaddr_len)
{
	(void)usockaddr;
	(void)usockaddr_len;
	return not_a_socket(fd);
}
