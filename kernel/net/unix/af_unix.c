/*
 * UNIX-domain sockets (Linux's net/unix/af_unix.c): two programs on one machine talking
 * through the kernel, as a pipe lets them, but both ways, by name, and with files passed along.
 *
 * A socket is a struct unix_sock (af_unix.h) behind an open file (kernel/net/socket.c makes
 * the file and turns the system calls into the calls here). What is sent is a struct sk_buff,
 * Linux's name for a buffer of bytes, queued on the receiver's receive_queue:
 *   - SOCK_STREAM: a byte stream; a read takes what is there across buffers, as a pipe's;
 *   - SOCK_DGRAM: each send one datagram, read whole or cut short (MSG_TRUNC), never merged;
 *   - SOCK_SEQPACKET: connected as a stream, with a datagram's boundaries.
 * Connecting (stream, seqpacket): connect() finds the listener by name, makes the server's
 * end at once (an "embryo", connected to the client, which may write to it) and queues it on
 * the listener's accept_queue; accept() takes it and gives it a file. listen's backlog bounds
 * that queue: a connect past it waits, or is EAGAIN when non-blocking.
 * Names: a path on the file system, where bind makes a socket node (S_IFSOCK: `ls -l` shows
 * an `s`; its inode's i_private is the socket while it is bound, so connect finds it), or an
 * abstract name (a leading NUL), on a list here; neither is ever reused while bound.
 * Flow control as Linux's: a sender's bytes in flight (wmem, each buffer with Linux's
 * overhead) are bounded by its SO_SNDBUF; the reader frees them and wakes the sender. A
 * datagram socket also bounds its queue (net.unix.max_dgram_qlen) for senders that are not its
 * peer.
 * Passing files (SCM_RIGHTS): a buffer carries references on the sender's open files; the
 * receiver gets new descriptors on them (socket.c installs them).
 *
 * Locking: everything runs under the VFS lock, as pipes do (kernel/fs/pipe.c): one lock for a
 * whole send or receive. A wait lets it go (unix_wait_event), each socket has one wait queue
 * that every change wakes (data, room, a connect, a close), which is also what poll, select and
 * epoll sleep on. A caller that sleeps holds references on what it uses: its own file
 * (socket.c) and the other socket (here).
 * Sockets passed into queues that only they reach (a cycle) are found and freed by the garbage
 * collector, garbage.c. What Linux has and Lucid not: SCM_CREDENTIALS and SO_PASSCRED, MSG_OOB,
 * sk_peek_off.
 */
#include "kernel/net/unix/af_unix.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "kernel/syscalls.h"
#include "kernel/panic.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

#define UNIX_SNDBUF 212992 /* a new socket's SO_SNDBUF: Linux's net.core.wmem_default */
#define UNIX_MAX_DGRAM_QLEN 10 /* a datagram socket's queue bound: net.unix.max_dgram_qlen */
/* What Linux charges a buffer beyond its bytes (SKB_TRUESIZE: sk_buff and skb_shared_info). */
#define SKB_TRUESIZE_OVERHEAD 576
/* A datagram may be at most this much smaller than SO_SNDBUF (Linux's unix_dgram_sendmsg). */
#define UNIX_DGRAM_SLACK 32
/* A stream send goes in buffers of at most half the send buffer, as Linux's. */
#define UNIX_STREAM_SKB_MAX(u) ((size_t)((u)->sndbuf >> 1) - 64)
#define AUTOBIND_NAME_LEN 6 /* a NUL and five hex digits: Linux's autobind names */
#define AUTOBIND_MAX 0xfffff

static LIST_HEAD(unix_abstract_sockets); /* bound to an abstract name: abstract_link */
static unsigned int autobind_next;

void sock_put(struct unix_sock *u)
{
	if (--u->refcnt > 0)
		return;
	/* The last reference: release emptied both queues, and nothing points here. */
	WARN_ON(!u->dead || !list_empty(&u->receive_queue) || !list_empty(&u->accept_queue));
	kfree(u);
}

static void sock_hold(struct unix_sock *u)
{
	u->refcnt++;
}

/*
 * Wakes u's waiters, if there are any (poll's and epoll's entries are waiters too). Looking at
 * the queue needs no lock: waiters join it under the VFS lock, which we hold (as pipe_wake).
 */
static void unix_wake(struct unix_sock *u)
{
	if (!list_empty(&u->wait.head))
		wake_up(&u->wait);
}

/* Room to send: a quarter of SO_SNDBUF in flight or less, as Linux's unix_writable. */
static bool unix_writable(const struct unix_sock *u)
{
	return u->state != TCP_LISTEN && ((size_t)u->wmem << 2) <= (size_t)u->sndbuf;
}

/* The error a call reports once (SO_ERROR reads it too), as Linux's sock_error. */
static int sock_error(struct unix_sock *u)
{
	int err = u->err;

	u->err = 0;
	return -err;
}

static struct ucred current_cred(void)
{
	return (struct ucred){.pid = current->tgid,
			      .uid = (unsigned int)sys_getuid(),
			      .gid = (unsigned int)sys_getgid()};
}

/*
 * A wait's time left, in milliseconds: 0 for a call that must not wait (O_NONBLOCK,
 * MSG_DONTWAIT), SOCK_NO_TIMEOUT for one that waits as long as it takes, else what
 * SO_RCVTIMEO or SO_SNDTIMEO allow (Linux's sock_rcvtimeo and sock_sndtimeo).
 */
static long sock_timeo(long jiffies, bool nonblock)
{
	if (nonblock)
		return 0;
	return jiffies == SOCK_NO_TIMEOUT ? SOCK_NO_TIMEOUT : jiffies * SOCK_MSEC_PER_TICK;
}

/*
 * Whether a sleep may start now: -EAGAIN when there is no time left, a signal's error (a
 * program's call starts again after an SA_RESTART handler if it waits without a timeout, else
 * -EINTR: Linux's sock_intr_errno), else 0.
 */
static int unix_may_sleep(long timeo)
{
	if (timeo <= 0)
		return -EAGAIN;
	if (signal_pending_current())
		return current->sighand && timeo == SOCK_NO_TIMEOUT ? -ERESTARTSYS : -EINTR;
	return 0;
}

/* Sleeps until woken, or until *timeo passes (what is left goes back into it). */
static void unix_sleep(long *timeo)
{
	vfs_unlock();
	if (*timeo == SOCK_NO_TIMEOUT)
		schedule();
	else
		*timeo = schedule_timeout(*timeo);
	vfs_lock();
}

/*
 * Waits on wq until cond holds, with the VFS lock let go while asleep: 0, or unix_may_sleep's
 * error (-EAGAIN once *timeo has passed). cond is looked at with the task already on the queue,
 * so a wakeup between the look and the sleep is not lost (as vfs_block). The caller holds
 * references on what cond reads.
 */
#define unix_wait_event(wq, cond, timeo)                                         \
	({                                                                       \
		struct wait_queue_entry __w = {0};                               \
		int __ret = 0;                                                   \
		if (!(cond)) { /* the common case waits for nothing */           \
			for (;;) {                                               \
				prepare_to_wait((wq), &__w, TASK_INTERRUPTIBLE); \
				if (cond)                                        \
					break;                                   \
				__ret = unix_may_sleep(*(timeo));                \
				if (__ret)                                       \
					break;                                   \
				unix_sleep(timeo);                               \
			}                                                        \
			finish_wait((wq), &__w);                                 \
		}                                                                \
		__ret;                                                           \
	})

struct unix_sock *unix_create(int type)
{
	struct unix_sock *u = kzalloc(sizeof(*u));

	if (!u)
		return NULL;
	u->refcnt = 1; /* the file's, or for an embryo its listener's queue's */
	u->type = (unsigned char)type;
	u->state = TCP_CLOSE;
	INIT_LIST_HEAD(&u->receive_queue);
	INIT_LIST_HEAD(&u->accept_queue);
	INIT_LIST_HEAD(&u->accept_link);
	INIT_LIST_HEAD(&u->abstract_link);
	INIT_LIST_HEAD(&u->gc_link);
	init_waitqueue_head(&u->wait);
	u->max_backlog = UNIX_MAX_DGRAM_QLEN;
	u->sndbuf = u->rcvbuf = UNIX_SNDBUF;
	u->rcvtimeo = u->sndtimeo = SOCK_NO_TIMEOUT;
	u->peercred = (struct ucred){.pid = 0, .uid = -1U, .gid = -1U}; /* Linux's "no one" */
	return u;
}

void unix_socketpair(struct unix_sock *a, struct unix_sock *b)
{
	sock_hold(a);
	sock_hold(b);
	a->peer = b;
	b->peer = a;
	a->state = b->state = TCP_ESTABLISHED;
	a->peercred = b->peercred = current_cred();
}

/* --- buffers ---------------------------------------------------------------------------------- */

static struct sk_buff *alloc_skb(struct unix_sock *sender, size_t len)
{
	struct sk_buff *skb = kmalloc(sizeof(*skb) + len);

	if (!skb)
		return NULL;
	skb->sk = sender;
	sock_hold(sender);
	skb->len = (unsigned int)len;
	skb->off = 0;
	skb->truesize = (unsigned int)len + SKB_TRUESIZE_OVERHEAD;
	sender->wmem += skb->truesize;
	skb->fp = NULL;
	return skb;
}

/* A buffer read or thrown away: its files dropped, its sender's room given back. */
void kfree_skb(struct sk_buff *skb)
{
	struct unix_sock *sender = skb->sk;

	sender->wmem -= skb->truesize;
	if (skb->fp)
		unix_inflight(skb->fp, -1);
	scm_fp_free(skb->fp);
	if (unix_writable(sender))
		unix_wake(sender); /* a writer waiting for room (Linux's unix_write_space) */
	sock_put(sender);
	kfree(skb);
}

static void queue_skb(struct unix_sock *other, struct sk_buff *skb)
{
	if (skb->fp)
		unix_inflight(skb->fp, 1); /* its sockets are in flight now (garbage.c) */
	list_add_tail(&skb->list, &other->receive_queue);
	other->qlen++;
	unix_wake(other);
}

static void unlink_skb(struct unix_sock *u, struct sk_buff *skb)
{
	list_del(&skb->list);
	u->qlen--;
}

/* The files of fp again, for a MSG_PEEK that leaves them with the message. */
static struct scm_fp_list *scm_fp_dup(const struct scm_fp_list *fp)
{
	struct scm_fp_list *copy = kmalloc(sizeof(*copy));

	if (!copy)
		return NULL;
	copy->count = fp->count;
	for (int i = 0; i < fp->count; i++) {
		copy->fp[i] = fp->fp[i];
		copy->fp[i]->f_count++;
	}
	return copy;
}

/* The files a receive takes from skb: moved, or copied for a peek. */
static void take_fds(struct kmsghdr *m, struct sk_buff *skb, bool peek)
{
	if (!skb->fp || m->fp)
		return;
	if (peek) {
		m->fp = scm_fp_dup(skb->fp);
	} else {
		unix_inflight(skb->fp, -1);
		m->fp = skb->fp;
		skb->fp = NULL;
	}
}

/* The sender's name for recvfrom, as it is now (Linux's unix_copy_addr); 0: it has none. */
static void unix_copy_addr(struct kmsghdr *m, const struct unix_sock *sender)
{
	m->namelen = sender->addr_len;
	if (sender->addr_len)
		memcpy(m->name, &sender->addr, (size_t)sender->addr_len);
}

/* --- names ------------------------------------------------------------------------------------ */

/* A name as bind, connect and sendto take it: Linux's unix_validate_addr. */
static int unix_validate_addr(const struct sockaddr_un *addr, int addr_len)
{
	if (addr_len <= (int)UNIX_ADDR_MIN || addr_len > (int)sizeof(*addr))
		return -EINVAL;
	return addr->sun_family == AF_UNIX ? 0 : -EINVAL;
}

/* A path name's text, NUL-terminated, and the name's length as getsockname gives it back. */
static int unix_mkname_bsd(const struct sockaddr_un *addr, int addr_len,
			   char path[UNIX_PATH_MAX + 1])
{
	size_t n = (size_t)addr_len - UNIX_ADDR_MIN;

	memcpy(path, addr->sun_path, n);
	path[n] = '\0';
	return (int)(strlen(path) + UNIX_ADDR_MIN + 1);
}

static struct unix_sock *find_abstract(const struct sockaddr_un *addr, int len, int type)
{
	struct unix_sock *u;

	list_for_each_entry(u, &unix_abstract_sockets, abstract_link)
	{
		if (u->addr_len == len && u->type == type && !memcmp(&u->addr, addr, (size_t)len))
			return u;
	}
	return NULL;
}

/* Opening a bound socket's node is ENXIO, as Linux's (a socket is reached by connect). */
static int sock_no_open(struct inode *inode, struct file *file)
{
	(void)inode;
	(void)file;
	return -ENXIO;
}

static const struct file_operations unix_node_fops = {
	.open = sock_no_open,
};

/*
 * The socket bound to addr, referenced, or NULL with *err: a path that is not there (ENOENT,
 * namei's errors), a node that is not a socket or whose socket is gone (ECONNREFUSED, as a
 * missing abstract name), a socket of another type (EPROTOTYPE). Linux's unix_find_other.
 */
static struct unix_sock *unix_find_other(const struct sockaddr_un *addr, int addr_len, int type,
					 int *err)
{
	struct unix_sock *u = NULL;

	if (addr->sun_path[0]) {
		char path[UNIX_PATH_MAX + 1];
		struct path p;

		unix_mkname_bsd(addr, addr_len, path);
		*err = kern_path(path, 0, &p);
		if (*err)
			return NULL;
		if (S_ISSOCK(p.dentry->d_inode->i_mode))
			u = p.dentry->d_inode->i_private;
		path_put(&p);
		*err = !u ? -ECONNREFUSED : u->type != type ? -EPROTOTYPE : 0;
		if (*err)
			return NULL;
	} else {
		u = find_abstract(addr, addr_len, type);
		if (!u) {
			*err = -ECONNREFUSED;
			return NULL;
		}
	}
	sock_hold(u);
	return u;
}

static void set_addr(struct unix_sock *u, const struct sockaddr_un *addr, int len)
{
	memcpy(&u->addr, addr, (size_t)len);
	u->addr.sun_family = AF_UNIX;
	u->addr_len = len;
}

/* bind with only the family: a fresh abstract name, "\0" and five hex digits. */
static int unix_autobind(struct unix_sock *u)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	int len = (int)UNIX_ADDR_MIN + AUTOBIND_NAME_LEN;

	if (u->addr_len)
		return 0;
	for (unsigned int tries = 0; tries <= AUTOBIND_MAX; tries++) {
		char hex[AUTOBIND_NAME_LEN + 1];

		snprintf(hex, sizeof(hex), "%05x", autobind_next++ & AUTOBIND_MAX);
		memcpy(addr.sun_path + 1, hex, AUTOBIND_NAME_LEN - 1);
		if (!find_abstract(&addr, len, u->type)) {
			set_addr(u, &addr, len);
			list_add_tail(&u->abstract_link, &unix_abstract_sockets);
			return 0;
		}
	}
	return -ENOSPC;
}

/*
 * A path name: the node first (EADDRINUSE if the name is taken, namei's errors for the rest),
 * then EINVAL for a socket bound already, its node taken back: Linux's order.
 */
static int unix_bind_bsd(struct unix_sock *u, const struct sockaddr_un *addr, int addr_len)
{
	umode_t mode = S_IFSOCK | (0777 & ~current_fs()->umask);
	char path[UNIX_PATH_MAX + 1];
	int len = unix_mkname_bsd(addr, addr_len, path);
	struct path p;
	int err = vfs_mknod_path_locked(path, mode, &unix_node_fops, &p);

	if (err)
		return err == -EEXIST ? -EADDRINUSE : err;
	if (u->addr_len) {
		path_put(&p);
		vfs_unlink_locked(path);
		return -EINVAL;
	}
	p.dentry->d_inode->i_private = u;
	u->path = p;
	set_addr(u, addr, len);
	return 0;
}

static int unix_bind_abstract(struct unix_sock *u, const struct sockaddr_un *addr, int addr_len)
{
	if (u->addr_len)
		return -EINVAL;
	if (find_abstract(addr, addr_len, u->type))
		return -EADDRINUSE;
	set_addr(u, addr, addr_len);
	list_add_tail(&u->abstract_link, &unix_abstract_sockets);
	return 0;
}

int unix_bind(struct unix_sock *u, struct sockaddr_un *addr, int addr_len)
{
	int err;

	if (addr_len == (int)UNIX_ADDR_MIN && addr->sun_family == AF_UNIX)
		return unix_autobind(u);
	err = unix_validate_addr(addr, addr_len);
	if (err)
		return err;
	return addr->sun_path[0] ? unix_bind_bsd(u, addr, addr_len)
				 : unix_bind_abstract(u, addr, addr_len);
}

int unix_getname(struct unix_sock *u, struct sockaddr_un *addr, bool peer)
{
	struct unix_sock *src = peer ? u->peer : u;

	if (!src)
		return -ENOTCONN;
	if (!src->addr_len) {
		addr->sun_family = AF_UNIX;
		return (int)UNIX_ADDR_MIN;
	}
	memcpy(addr, &src->addr, (size_t)src->addr_len);
	return src->addr_len;
}

/* --- connections ------------------------------------------------------------------------------ */

static bool connection_based(const struct unix_sock *u)
{
	return u->type == SOCK_STREAM || u->type == SOCK_SEQPACKET;
}

/* A listener's queue (or a datagram socket's) is over its bound: Linux's unix_recvq_full. */
static bool unix_recvq_full(const struct unix_sock *u)
{
	return (u->state == TCP_LISTEN ? u->accept_qlen : u->qlen) > u->max_backlog;
}

int unix_listen(struct unix_sock *u, int backlog)
{
	if (!connection_based(u))
		return -EOPNOTSUPP;
	if (!u->addr_len)
		return -EINVAL; /* no listening on an unbound socket */
	if (u->state != TCP_CLOSE && u->state != TCP_LISTEN)
		return -EINVAL;
	u->max_backlog = (unsigned int)backlog;
	u->state = TCP_LISTEN;
	u->peercred = current_cred(); /* what a connecting client's SO_PEERCRED shows */
	unix_wake(u); /* connects waiting for a larger backlog */
	return 0;
}

/*
 * connect of a datagram socket: where sends without a name go, and the only sender whose
 * datagrams it takes from then on. AF_UNSPEC undoes it.
 */
static int unix_dgram_connect(struct unix_sock *u, struct sockaddr_un *addr, int addr_len)
{
	struct unix_sock *other = NULL, *old = u->peer;
	int err;

	if (addr_len < (int)sizeof(sa_family_t))
		return -EINVAL;
	if (addr->sun_family != AF_UNSPEC) {
		err = unix_validate_addr(addr, addr_len);
		if (err)
			return err;
		other = unix_find_other(addr, addr_len, u->type, &err);
		if (!other)
			return err;
		if (other->peer && other->peer != u) { /* Linux's unix_may_send */
			sock_put(other);
			return -EPERM;
		}
	}
	u->peer = other; /* our reference on other, from the lookup */
	u->state = other ? TCP_ESTABLISHED : TCP_CLOSE;
	if (old)
		sock_put(old);
	return 0;
}

static int unix_stream_connect(struct unix_sock *u, struct sockaddr_un *addr, int addr_len,
			       bool nonblock)
{
	struct unix_sock *other, *newsk;
	int err = unix_validate_addr(addr, addr_len);
	long timeo = sock_timeo(u->sndtimeo, nonblock);

	if (err)
		return err;
	for (;;) {
		other = unix_find_other(addr, addr_len, u->type, &err);
		if (!other)
			return err;
		if (other->state != TCP_LISTEN) {
			sock_put(other);
			return -ECONNREFUSED;
		}
		if (!unix_recvq_full(other))
			break;
		/*
		 * The backlog is full: wait for an accept (or the listener's end), then look again.
		 */
		err = unix_wait_event(&other->wait, !unix_recvq_full(other) || other->dead, &timeo);
		sock_put(other);
		if (err)
			return err;
	}
	if (u->state != TCP_CLOSE) {
		sock_put(other);
		return u->state == TCP_ESTABLISHED ? -EISCONN : -EINVAL;
	}
	newsk = unix_create(u->type);
	if (!newsk) {
		sock_put(other);
		return -ENOMEM;
	}
	/* The server's end, connected now: the client may write before the accept. */
	newsk->state = TCP_ESTABLISHED;
	newsk->peer = u;
	sock_hold(u);
	newsk->peercred = current_cred();
	if (other->addr_len)
		set_addr(newsk, &other->addr,
			 other->addr_len); /* getsockname: the listener's name */
	u->peer = newsk;
	sock_hold(newsk);
	u->state = TCP_ESTABLISHED;
	u->peercred = other->peercred;
	list_add_tail(&newsk->accept_link, &other->accept_queue); /* newsk's first reference */
	other->accept_qlen++;
	unix_wake(other);
	sock_put(other);
	return 0;
}

int unix_connect(struct unix_sock *u, struct sockaddr_un *addr, int addr_len, bool nonblock)
{
	if (connection_based(u))
		return unix_stream_connect(u, addr, addr_len, nonblock);
	return unix_dgram_connect(u, addr, addr_len);
}

struct unix_sock *unix_accept(struct unix_sock *u, bool nonblock, int *err)
{
	struct unix_sock *newsk;
	long timeo = sock_timeo(u->rcvtimeo, nonblock);

	*err = connection_based(u) ? 0 : -EOPNOTSUPP;
	if (!*err && u->state != TCP_LISTEN)
		*err = -EINVAL;
	if (!*err)
		*err = unix_wait_event(&u->wait, u->accept_qlen || u->state != TCP_LISTEN, &timeo);
	if (!*err && !u->accept_qlen)
		*err = -EINVAL; /* no longer listening */
	if (*err)
		return NULL;
	newsk = list_first_entry(&u->accept_queue, struct unix_sock, accept_link);
	list_del_init(&newsk->accept_link);
	u->accept_qlen--;
	unix_wake(u); /* a connect waiting for room in the backlog */
	return newsk;
}

int unix_shutdown(struct unix_sock *u, int how)
{
	unsigned char mode, peer_mode = 0;

	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;
	mode = (unsigned char)(how + 1); /* SHUT_RD: RCV_SHUTDOWN, SHUT_WR: SEND_SHUTDOWN, both */
	u->shutdown |= mode;
	unix_wake(u);
	/* A connection's other end learns it: no more to read there, or no one reading here. */
	if (u->peer && connection_based(u)) {
		if (mode & RCV_SHUTDOWN)
			peer_mode |= SEND_SHUTDOWN;
		if (mode & SEND_SHUTDOWN)
			peer_mode |= RCV_SHUTDOWN;
		u->peer->shutdown |= peer_mode;
		unix_wake(u->peer);
	}
	return 0;
}

/* --- sending ---------------------------------------------------------------------------------- */

/* A write with no reader left: SIGPIPE too, unless MSG_NOSIGNAL (as pipe_write_epipe). */
static noinline ssize_t unix_epipe(int flags)
{
	if (!(flags & MSG_NOSIGNAL) && current->sighand) {
		struct ksiginfo info = {.signo = SIGPIPE, .code = SI_USER, .pid = current->tgid};

		send_sig_info(SIGPIPE, &info, current);
	}
	return -EPIPE;
}

/*
 * Room in the send buffer for one more buffer, as Linux's sock_alloc_send_pskb waits for it:
 * 0, a pending error, EPIPE once this end may not send, EAGAIN or a signal's error.
 */
static int wait_for_wmem(struct unix_sock *u, long *timeo)
{
	int err = unix_wait_event(
		&u->wait, u->err || (u->shutdown & SEND_SHUTDOWN) || u->wmem < (unsigned)u->sndbuf,
		timeo);

	if (u->err)
		return sock_error(u);
	if (u->shutdown & SEND_SHUTDOWN)
		return -EPIPE;
	return err;
}

static ssize_t unix_stream_sendmsg(struct unix_sock *u, struct kmsghdr *m, int flags, bool nonblock)
{
	struct unix_sock *other = u->peer; /* held by u, which our caller's file holds */
	long timeo = sock_timeo(u->sndtimeo, nonblock);
	size_t sent = 0;
	ssize_t err;

	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	if (m->name)
		return u->state == TCP_ESTABLISHED ? -EISCONN : -EOPNOTSUPP;
	if (!other)
		return -ENOTCONN;
	if (u->shutdown & SEND_SHUTDOWN)
		return unix_epipe(flags);
	while (sent < m->len) {
		size_t size = MIN(m->len - sent, UNIX_STREAM_SKB_MAX(u));
		struct sk_buff *skb;

		err = wait_for_wmem(u, &timeo);
		if (err == -EPIPE)
			goto pipe_err;
		if (err)
			return sent ? (ssize_t)sent : err;
		skb = alloc_skb(u, size);
		if (!skb)
			return sent ? (ssize_t)sent : -ENOBUFS;
		memcpy(skb->data, (char *)m->buf + sent, size);
		if (other->dead || (other->shutdown & RCV_SHUTDOWN)) {
			kfree_skb(skb);
			goto pipe_err;
		}
		skb->fp = m->fp; /* the files go with the first buffer */
		m->fp = NULL;
		queue_skb(other, skb);
		sent += size;
	}
	return (ssize_t)sent;
pipe_err:
	return sent ? (ssize_t)sent : unix_epipe(flags);
}

/* A datagram, or a seqpacket record: one buffer, queued whole or not at all. */
static ssize_t unix_dgram_sendmsg(struct unix_sock *u, struct kmsghdr *m, int flags, bool nonblock)
{
	struct unix_sock *other = NULL;
	long timeo = sock_timeo(u->sndtimeo, nonblock);
	struct sk_buff *skb;
	int err;

	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	if (m->name) {
		err = unix_validate_addr(m->name, m->namelen);
		if (err)
			return err;
	} else {
		other = u->peer;
		if (!other)
			return -ENOTCONN;
		sock_hold(other);
	}
	err = m->len > (size_t)(u->sndbuf - UNIX_DGRAM_SLACK) ? -EMSGSIZE : 0;
	if (!err)
		err = wait_for_wmem(u, &timeo);
	if (err)
		goto out;
	skb = alloc_skb(u, m->len);
	err = -ENOBUFS;
	if (!skb)
		goto out;
	memcpy(skb->data, m->buf, m->len);
	for (;;) {
		if (!other) {
			other = unix_find_other(m->name, m->namelen, u->type, &err);
			if (!other)
				goto out_free;
		}
		err = -EPERM;
		if (other->peer && other->peer != u) /* it takes datagrams from its peer only */
			goto out_free;
		if (other->dead) {
			/* Our peer has closed: we are disconnected, and told so once. */
			err = u->type == SOCK_SEQPACKET ? -EPIPE : -ECONNREFUSED;
			if (u->peer == other) {
				u->peer = NULL;
				u->state = TCP_CLOSE;
				sock_put(other);
			}
			goto out_free;
		}
		err = -EPIPE;
		if (other->shutdown & RCV_SHUTDOWN)
			goto out_free;
		if (other == u || other->peer == u || !unix_recvq_full(other))
			break;
		/* Its queue is full: wait for its reader (who wakes its queue) and look again. */
		err = unix_wait_event(&other->wait, !unix_recvq_full(other) || other->dead, &timeo);
		if (err)
			goto out_free;
	}
	skb->fp = m->fp;
	m->fp = NULL;
	queue_skb(other, skb);
	sock_put(other);
	return (ssize_t)m->len;
out_free:
	kfree_skb(skb);
out:
	if (other)
		sock_put(other);
	return err;
}

ssize_t unix_sendmsg(struct unix_sock *u, struct kmsghdr *m, int flags, bool nonblock)
{
	ssize_t err;

	switch (u->type) {
	case SOCK_STREAM:
		return unix_stream_sendmsg(u, m, flags, nonblock);
	case SOCK_SEQPACKET:
		err = sock_error(u);
		if (err)
			return err;
		if (u->state != TCP_ESTABLISHED)
			return -ENOTCONN;
		m->name = NULL; /* a seqpacket socket sends to its peer only */
		return unix_dgram_sendmsg(u, m, flags, nonblock);
	default:
		return unix_dgram_sendmsg(u, m, flags, nonblock);
	}
}

/* --- receiving -------------------------------------------------------------------------------- */

static bool unix_readable(const struct unix_sock *u)
{
	return !list_empty(&u->receive_queue) || u->err || (u->shutdown & RCV_SHUTDOWN);
}

/*
 * A stream read: bytes across buffers until the count, as a pipe's, but not past a buffer that
 * carried files (they belong with its bytes, Linux's rule). MSG_WAITALL waits for the whole
 * count; MSG_PEEK leaves everything queued.
 */
static ssize_t unix_stream_recvmsg(struct unix_sock *u, struct kmsghdr *m, int flags, bool nonblock)
{
	size_t copied = 0, target = (flags & MSG_WAITALL) && m->len ? m->len : 1;
	bool peek = flags & MSG_PEEK, named = false;
	struct list_head *pos = u->receive_queue.next; /* a peek's place in the queue */
	unsigned int skip = 0; /* and its bytes into that buffer */
	long timeo = sock_timeo(u->rcvtimeo, nonblock);
	ssize_t err = 0;

	if (u->state != TCP_ESTABLISHED)
		return -EINVAL;
	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	if (m->name)
		m->namelen = 0;
	for (;;) {
		struct sk_buff *skb;
		size_t chunk;

		if (!peek)
			pos = u->receive_queue.next;
		if (pos == &u->receive_queue) {
			if (copied >= target || (peek && copied))
				break;
			err = sock_error(u);
			if (err || (u->shutdown & RCV_SHUTDOWN))
				break;
			err = unix_wait_event(&u->wait, unix_readable(u), &timeo);
			if (err)
				break;
			pos = u->receive_queue.next;
			skip = 0;
			continue;
		}
		skb = list_entry(pos, struct sk_buff, list);
		chunk = MIN((size_t)(skb->len - skip), m->len - copied);
		memcpy((char *)m->buf + copied, skb->data + skb->off + skip, chunk);
		copied += chunk;
		if (m->name && !named) {
			unix_copy_addr(m, skb->sk);
			named = true;
		}
		take_fds(m, skb, peek);
		if (peek) {
			skip = 0;
			pos = pos->next;
		} else {
			skb->off += (unsigned int)chunk;
			skb->len -= (unsigned int)chunk;
			if (skb->len)
				break; /* the count is reached inside this buffer */
			unlink_skb(u, skb);
			kfree_skb(skb);
		}
		if (m->fp || copied == m->len)
			break;
	}
	return copied ? (ssize_t)copied : err;
}

static ssize_t unix_dgram_recvmsg(struct unix_sock *u, struct kmsghdr *m, int flags, bool nonblock)
{
	bool seqpacket = u->type == SOCK_SEQPACKET;
	long timeo = sock_timeo(u->rcvtimeo, false); /* nonblock is looked at below */
	struct sk_buff *skb;
	size_t size, copy;
	bool was_full;
	int err;

	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	if (seqpacket && u->state != TCP_ESTABLISHED)
		return -ENOTCONN;
	while (list_empty(&u->receive_queue)) {
		err = sock_error(u);
		if (err)
			return err;
		if (nonblock)
			return seqpacket && (u->shutdown & RCV_SHUTDOWN) ? 0 : -EAGAIN;
		if (u->shutdown & RCV_SHUTDOWN)
			return 0;
		err = unix_wait_event(&u->wait, unix_readable(u), &timeo);
		if (err)
			return err;
	}
	skb = list_first_entry(&u->receive_queue, struct sk_buff, list);
	size = skb->len;
	copy = MIN(size, m->len);
	memcpy(m->buf, skb->data, copy);
	if (size > m->len)
		m->flags |= MSG_TRUNC; /* the rest of the datagram is lost */
	if (m->name)
		unix_copy_addr(m, skb->sk);
	take_fds(m, skb, flags & MSG_PEEK);
	if (!(flags & MSG_PEEK)) {
		was_full = unix_recvq_full(u);
		unlink_skb(u, skb);
		kfree_skb(skb);
		if (was_full)
			unix_wake(u); /* senders waiting for room in our queue */
	}
	return (ssize_t)((flags & MSG_TRUNC) ? size : copy);
}

ssize_t unix_recvmsg(struct unix_sock *u, struct kmsghdr *m, int flags, bool nonblock)
{
	if (u->type == SOCK_STREAM)
		return unix_stream_recvmsg(u, m, flags, nonblock);
	return unix_dgram_recvmsg(u, m, flags, nonblock);
}

/* FIONREAD (SIOCINQ): the bytes a read would find, a datagram socket's next datagram's. */
int unix_inq_len(struct unix_sock *u)
{
	struct sk_buff *skb;
	int amount = 0;

	if (u->state == TCP_LISTEN)
		return -EINVAL;
	if (u->type == SOCK_DGRAM) {
		if (!list_empty(&u->receive_queue))
			amount =
				(int)list_first_entry(&u->receive_queue, struct sk_buff, list)->len;
		return amount;
	}
	list_for_each_entry(skb, &u->receive_queue, list)
	{
		amount += (int)skb->len;
	}
	return amount;
}

/* --- poll and close --------------------------------------------------------------------------- */

/* Linux's unix_poll (stream) and unix_dgram_poll (datagram and seqpacket), the same bits. */
unsigned int unix_poll(struct unix_sock *u)
{
	unsigned int mask = 0;
	bool writable = unix_writable(u);

	if (u->err)
		mask |= POLLERR;
	if (u->shutdown == SHUTDOWN_MASK)
		mask |= POLLHUP;
	if (u->shutdown & RCV_SHUTDOWN)
		mask |= POLLRDHUP | POLLIN | POLLRDNORM;
	if (!list_empty(&u->receive_queue) || u->accept_qlen)
		mask |= POLLIN | POLLRDNORM;
	if (connection_based(u) && u->state == TCP_CLOSE)
		mask |= POLLHUP;
	/* A datagram socket whose peer's queue is full cannot send to it yet. */
	if (writable && u->type != SOCK_STREAM && u->peer && u->peer->peer != u &&
	    unix_recvq_full(u->peer))
		writable = false;
	if (writable)
		mask |= POLLOUT | POLLWRNORM | POLLWRBAND;
	return mask;
}

/*
 * The end of a socket (embryo: one a listener never accepted): its names go, a connected peer
 * sees end of file, or ECONNRESET if we leave data unread, the connections waiting in a
 * listener's queue are reset, and what was queued for us is freed with its files.
 */
static void unix_release_sock(struct unix_sock *u, bool embryo)
{
	struct unix_sock *skpair = u->peer, *e, *next;
	struct sk_buff *skb, *tmp;

	u->dead = true;
	u->state = TCP_CLOSE;
	u->shutdown = SHUTDOWN_MASK;
	if (u->path.dentry) {
		struct inode *inode = u->path.dentry->d_inode;

		if (inode->i_private == u)
			inode->i_private = NULL; /* connect to the name: ECONNREFUSED from now on */
		path_put(&u->path);
		u->path.dentry = NULL;
	}
	list_del_init(&u->abstract_link);
	u->peer = NULL;
	if (skpair) {
		if (connection_based(u)) {
			skpair->shutdown = SHUTDOWN_MASK;
			if (!list_empty(&u->receive_queue) || embryo)
				skpair->err = ECONNRESET;
			unix_wake(skpair);
		}
		sock_put(skpair);
	}
	unix_wake(u); /* connects waiting on a listener that is gone */
	list_for_each_entry_safe(e, next, &u->accept_queue, accept_link)
	{
		list_del_init(&e->accept_link);
		u->accept_qlen--;
		unix_release_sock(e, true);
	}
	list_for_each_entry_safe(skb, tmp, &u->receive_queue, list)
	{
		unlink_skb(u, skb);
		kfree_skb(skb);
	}
	sock_put(u);
}

void unix_release(struct unix_sock *u)
{
	unix_release_sock(u, false);
	unix_gc(); /* this close may have left sockets only a cycle of messages holds */
}
