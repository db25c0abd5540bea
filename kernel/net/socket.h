/*
 * Sockets: the system calls' side (kernel/net/socket.c) and what they hand a family
 * (kernel/net/unix/af_unix.c), with Linux's x86_64 ABI values (include/linux/socket.h,
 * include/uapi/asm-generic/socket.h).
 */
#ifndef KERNEL_NET_SOCKET_H
#define KERNEL_NET_SOCKET_H

#include <stddef.h>
#include <stdbool.h>
#include "kernel/fs/vfs.h"
#include "kernel/syscalls.h" /* __user */

#define AF_UNSPEC 0
#define AF_UNIX 1 /* the one family Lucid has (AF_LOCAL is its other name) */
#define AF_MAX 46 /* families Linux numbers: socket() of one past them is EAFNOSUPPORT too */

#define SOCK_STREAM 1
#define SOCK_DGRAM 2
#define SOCK_RAW 3 /* AF_UNIX takes it as SOCK_DGRAM, as Linux's unix_create */
#define SOCK_SEQPACKET 5
#define SOCK_TYPE_MASK 0xf
#define SOCK_NONBLOCK O_NONBLOCK /* socket() and accept4() flags: the file's and the fd's */
#define SOCK_CLOEXEC O_CLOEXEC

#define SOL_SOCKET 1
#define SO_REUSEADDR 2
#define SO_TYPE 3
#define SO_ERROR 4
#define SO_SNDBUF 7
#define SO_RCVBUF 8
#define SO_PASSCRED 16
#define SO_PEERCRED 17
#define SO_RCVTIMEO 20 /* struct timeval: how long a receive (accept) waits, 0 0 for ever */
#define SO_SNDTIMEO 21 /* the same for a send (connect) */
#define SO_ACCEPTCONN 30
#define SO_PROTOCOL 38
#define SO_DOMAIN 39

#define SCM_RIGHTS 1 /* a control message of file descriptors */
#define SCM_MAX_FD 253 /* at most this many in one message, as Linux's */

/* send and recv flags */
#define MSG_OOB 0x1
#define MSG_PEEK 0x2
#define MSG_CTRUNC 0x8
#define MSG_TRUNC 0x20
#define MSG_DONTWAIT 0x40
#define MSG_WAITALL 0x100
#define MSG_NOSIGNAL 0x4000
#define MSG_CMSG_CLOEXEC 0x40000000

/* shutdown(2)'s how, and the bits a socket keeps of it (sk_shutdown). */
#define SHUT_RD 0
#define SHUT_WR 1
#define SHUT_RDWR 2
#define RCV_SHUTDOWN 1
#define SEND_SHUTDOWN 2
#define SHUTDOWN_MASK 3

/* poll bits sockets add to vfs.h's */
#define POLLWRBAND 0x0200
#define POLLRDHUP 0x2000

typedef unsigned short sa_family_t;

#define UNIX_PATH_MAX 108
struct sockaddr_un {
	sa_family_t sun_family;
	char sun_path[UNIX_PATH_MAX]; /* a path, or a NUL and an abstract name */
};
/* A name's length counts from the start of the struct: the family alone is this long. */
#define UNIX_ADDR_MIN offsetof(struct sockaddr_un, sun_path)

/* SO_PEERCRED's answer: who made the other end (pid 0, uid and gid -1 for no one). */
struct ucred {
	int pid;
	unsigned int uid, gid;
};

/* Open files in flight in an SCM_RIGHTS message: each holds a reference (f_count). */
struct scm_fp_list {
	int count;
	struct file *fp[SCM_MAX_FD];
};

/*
 * One message between socket.c and a family, in kernel memory (socket.c copies the user's
 * bytes in and out around it, as read and write do for every file, kernel/fs/read_write.c):
 *   buf, len   send: the bytes; recv: room for them
 *   name       send: where to (NULL: the peer); recv: filled with the sender's, if not NULL
 *   namelen    send: name's length; recv: the sender's name's length (0: it has none)
 *   fp         send: files to pass, taken by a send that succeeds (NULL'd); recv: files passed
 *   flags      recv: MSG_TRUNC for a datagram longer than len, as recvmsg's msg_flags
 */
struct kmsghdr {
	void *buf;
	size_t len;
	struct sockaddr_un *name;
	int namelen;
	struct scm_fp_list *fp;
	int flags;
};

/*
 * For kernel/fs/read_write.c: is fd a socket? Then a read or write larger than the stack's
 * bounce buffer, and every readv and writev, is one receive or send of all its buffers
 * (sock_rw_iov: iov in kernel memory, already checked), so that a datagram stays one datagram
 * however large, and a stream read gives what there is, as Linux's sock_read_iter. nowait: a
 * receive does not wait (readv's second buffer on).
 */
struct iovec {
	void __user *iov_base;
	size_t iov_len;
};
bool sock_fd_locked(int fd);
/* Inline: readv and writev ask it for every file (musl's stdio writes with writev). */
static inline bool sock_fd(int fd)
{
	struct file *file = fget_unlocked(fd);

	/* Only a socket's file is open on an S_IFSOCK inode (a socket node's open is ENXIO). */
	return file ? S_ISSOCK(file->f_inode->i_mode) : sock_fd_locked(fd);
}
long sock_rw_iov(int fd, struct iovec *iov, unsigned long nr, bool write, bool nowait);

/* Drops the references of the files in fp and frees it (NULL: nothing). VFS lock held. */
void scm_fp_free(struct scm_fp_list *fp);

#endif
