/* UNIX-domain sockets (kernel/net/unix/af_unix.c), as kernel/net/socket.c calls them. */
#ifndef KERNEL_NET_UNIX_AF_UNIX_H
#define KERNEL_NET_UNIX_AF_UNIX_H

#include "kernel/net/socket.h"
#include "kernel/sched/wait.h"
#include "lib/list.h"

/*
 * SO_RCVTIMEO and SO_SNDTIMEO are kept in Linux's ticks, so that getsockopt gives back what
 * Linux's does (its rounding): Debian's CONFIG_HZ. SOCK_NO_TIMEOUT: wait as long as it takes.
 */
#define SOCK_HZ 250
#define SOCK_NO_TIMEOUT __LONG_MAX__
#define SOCK_MSEC_PER_TICK (1000 / SOCK_HZ)

/* sk_state: Linux keeps TCP's names for AF_UNIX's states too. */
#define TCP_ESTABLISHED 1 /* connected: a socketpair, a connect, an accepted socket */
#define TCP_CLOSE 7 /* not connected (a new socket), or closed */
#define TCP_LISTEN 10 /* listen()ed: connects queue on it until accept */

/*
 * One socket: Linux's struct sock and struct unix_sock in one. It lives while referenced
 * (refcnt): by its open file, by its peer, by each message it sent that is not read yet, by a
 * waiter; the file's last close (unix_release) takes it out of use, the last reference frees
 * it. Every field is under the VFS lock.
 */
struct unix_sock {
	int refcnt;
	unsigned char type; /* SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET */
	unsigned char state; /* TCP_CLOSE, TCP_LISTEN, TCP_ESTABLISHED */
	unsigned char shutdown; /* RCV_SHUTDOWN, SEND_SHUTDOWN: what this end may no longer do */
	bool dead; /* released: its file is closed (Linux's SOCK_DEAD) */
	int err; /* a pending error for the next call (SO_ERROR): ECONNRESET */
	struct unix_sock *peer; /* the other end (referenced), or NULL */
	struct list_head receive_queue; /* struct sk_buff: what was sent to this socket */
	unsigned int qlen; /* skbs on it */
	struct list_head accept_queue; /* a listener's: connected sockets accept has not taken */
	struct list_head accept_link; /* an embryo's place on its listener's accept_queue */
	unsigned int accept_qlen;
	unsigned int max_backlog; /* listen's backlog; a datagram socket's queue limit */
	unsigned int wmem; /* bytes sent and not yet read, what sndbuf bounds */
	int sndbuf; /* SO_SNDBUF */
	int rcvbuf; /* SO_RCVBUF: kept for getsockopt, bounds nothing (as Linux's) */
	bool reuseaddr, passcred; /* SO_REUSEADDR, SO_PASSCRED: kept, no effect on AF_UNIX here */
	long rcvtimeo, sndtimeo; /* SO_RCVTIMEO, SO_SNDTIMEO in SOCK_HZ ticks, or SOCK_NO_TIMEOUT */
	wait_queue_head_t wait; /* woken for anything a reader, writer or poller waits on */
	struct sockaddr_un addr; /* the bound name... */
	int addr_len; /* ...and its length, 0 when not bound */
	struct path path; /* a bound path's node (referenced), mnt NULL otherwise */
	struct list_head abstract_link; /* on the abstract names' list, when bound to one */
	struct ucred peercred; /* SO_PEERCRED */
	struct file *file; /* its open file, NULL for an embryo or once closed */
	/* The garbage collector's (garbage.c): messages holding its file, and its state. */
	unsigned int inflight;
	struct list_head gc_link;
	bool gc_candidate, gc_maybe_cycle;
};

/* What is sent: a buffer of bytes, Linux's struct sk_buff (the AF_UNIX part of it). */
struct sk_buff {
	struct list_head list; /* on the receiver's receive_queue */
	struct unix_sock *sk; /* the sender, referenced and charged truesize (its wmem) */
	unsigned int len, off; /* the bytes not yet read: data[off .. off + len) */
	unsigned int truesize;
	struct scm_fp_list *fp; /* files passed with it (SCM_RIGHTS), or NULL */
	char data[];
};

/* A buffer read or thrown away: its files dropped, its sender's room given back. */
void kfree_skb(struct sk_buff *skb);
/* The socket behind an open file, or NULL if it is not one (kernel/net/socket.c). */
struct unix_sock *unix_sock_of_file(struct file *file);
/* garbage.c: fp's sockets go into (delta 1) or out of (-1) flight; the collector. */
void unix_inflight(struct scm_fp_list *fp, int delta);
void unix_gc(void);

/* A new socket of type (SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET), or NULL for no memory. */
struct unix_sock *unix_create(int type);
/* socketpair: a and b connected to each other, both new. */
void unix_socketpair(struct unix_sock *a, struct unix_sock *b);
/* The calls by name: 0 or Linux's -errno. Each may let go of the VFS lock to wait. */
int unix_bind(struct unix_sock *u, struct sockaddr_un *addr, int addr_len);
int unix_listen(struct unix_sock *u, int backlog);
int unix_connect(struct unix_sock *u, struct sockaddr_un *addr, int addr_len, bool nonblock);
/* The next connected socket (its reference is the caller's), or NULL with *err. */
struct unix_sock *unix_accept(struct unix_sock *u, bool nonblock, int *err);
ssize_t unix_sendmsg(struct unix_sock *u, struct kmsghdr *m, int flags, bool nonblock);
ssize_t unix_recvmsg(struct unix_sock *u, struct kmsghdr *m, int flags, bool nonblock);
int unix_shutdown(struct unix_sock *u, int how);
/* getsockname (peer false) and getpeername: the name's length, -ENOTCONN for no peer. */
int unix_getname(struct unix_sock *u, struct sockaddr_un *addr, bool peer);
unsigned int unix_poll(struct unix_sock *u);
/* FIONREAD: the bytes queued (a datagram socket: the next datagram's), -EINVAL if listening. */
int unix_inq_len(struct unix_sock *u);
/* The file's last close: the socket is shut down, its queue freed, its reference dropped. */
void unix_release(struct unix_sock *u);
void sock_put(struct unix_sock *u);

#endif
