/*
 * The socket system calls (Linux's net/socket.c): socket, socketpair, bind, listen, accept,
 * connect, the sends and receives, shutdown, the names and the options.
 *
 * A socket is an open file whose inode is S_IFSOCK (fstat shows it, /proc/PID/fd names it
 * "socket:[INODE]") and whose private_data is the family's socket; read, write, poll, select,
 * epoll and close reach it through socket_file_ops, like any file. The calls here do what every
 * family shares, in Linux's order: the descriptor (EBADF, ENOTSOCK), the user's buffers, names
 * and control messages copied in and out, SCM_RIGHTS files looked up and installed. Lucid has
 * one family, AF_UNIX (kernel/net/unix/af_unix.c), and calls it directly where Linux goes
 * through the socket's proto_ops; any other family is EAFNOSUPPORT, as on a Linux without it.
 *
 * The user's bytes go through a kernel buffer, as read's and write's do (the stack's for a
 * small one), copied outside the VFS lock; the family runs under it.
 */
#include "kernel/syscalls.h"
#include "kernel/net/socket.h"
#include "kernel/net/unix/af_unix.h"
#include "kernel/fs/anon_inodes.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/time/time.h"
#include "lib/time64.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

#define SOCK_MAX 11 /* types Linux numbers (SOCK_PACKET is 10) */
#define SOMAXCONN 4096 /* listen's backlog is cut to net.core.somaxconn */
#define SOCKADDR_STORAGE 128 /* the largest name a call takes (struct sockaddr_storage) */
#define SOCK_STACK_BUF 256 /* sends and receives up to this bounce on the stack */
#define SOCK_STREAM_CHUNK (64 * 1024) /* a stream's bytes cross a kernel buffer this large */
#define SOCK_MAX_DGRAM (2 * 212992) /* the largest datagram any SO_SNDBUF lets through */
#define SOCK_OPTMEM_MAX 20480 /* control messages: net.core.optmem_max, ENOBUFS past it */
#define UIO_MAXIOV 1024
#define WMEM_MAX 212992 /* net.core.wmem_max and rmem_max: SO_SNDBUF's and SO_RCVBUF's cap */
#define SOCK_MIN_SNDBUF 4608 /* Linux's floors, twice a small buffer's true size */
#define SOCK_MIN_RCVBUF 2304

/* The user's struct msghdr and struct cmsghdr, x86_64 layout. */
struct user_msghdr {
	void __user *msg_name;
	int msg_namelen;
	struct iovec __user *msg_iov;
	size_t msg_iovlen;
	void __user *msg_control;
	size_t msg_controllen;
	unsigned int msg_flags;
};

struct timespec_user {
	long tv_sec, tv_nsec;
};

struct cmsghdr {
	size_t cmsg_len;
	int cmsg_level;
	int cmsg_type;
};

#define CMSG_ALIGN(len) (((len) + sizeof(long) - 1) & ~(sizeof(long) - 1))
#define CMSG_LEN(len) (sizeof(struct cmsghdr) + (len))
#define CMSG_SPACE(len) (sizeof(struct cmsghdr) + CMSG_ALIGN(len))

static struct vfsmount sock_mnt; /* "sockfs": counts the paths held, shows nowhere */

void scm_fp_free(struct scm_fp_list *fp)
{
	if (!fp)
		return;
	for (int i = 0; i < fp->count; i++)
		if (fp->fp[i])
			fput(fp->fp[i]);
	kfree(fp);
}

static struct unix_sock *sock_of(struct file *file)
{
	return file->private_data;
}

static const struct file_operations socket_file_ops;

struct unix_sock *unix_sock_of_file(struct file *file)
{
	return file->f_op == &socket_file_ops ? file->private_data : NULL;
}

/* --- the socket as a file --------------------------------------------------------------------- */

/* read and write: a receive and a send without flags. The file is held while they may sleep. */
static ssize_t sock_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct kmsghdr m = {.buf = buf, .len = count};
	ssize_t ret;

	(void)pos;
	file->f_count++;
	ret = unix_recvmsg(file->private_data, &m, 0, file->f_flags & O_NONBLOCK);
	scm_fp_free(m.fp); /* files passed to a read, which has nowhere to put them, are closed */
	fput(file);
	return ret;
}

static ssize_t sock_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct kmsghdr m = {.buf = (void *)buf, .len = count};
	ssize_t ret;

	(void)pos;
	file->f_count++;
	ret = unix_sendmsg(file->private_data, &m, 0, file->f_flags & O_NONBLOCK);
	fput(file);
	return ret;
}

static unsigned int sock_poll(struct file *file)
{
	return unix_poll(file->private_data);
}

static struct wait_queue_head *sock_wait_queue(struct file *file)
{
	return &((struct unix_sock *)file->private_data)->wait;
}

static int sock_close(struct inode *inode, struct file *file)
{
	(void)inode;
	sock_of(file)->file = NULL;
	unix_release(file->private_data);
	return 0;
}

#define SIOCINQ 0x541B /* FIONREAD: the bytes waiting to be read */

/* ioctl: FIONREAD; anything else is ENOTTY, as a socket is no terminal. Without the VFS lock. */
static long sock_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int n;

	if (cmd != SIOCINQ)
		return -ENOTTY;
	vfs_lock();
	n = unix_inq_len(file->private_data);
	vfs_unlock();
	if (n < 0)
		return n;
	return copy_to_user((int __user *)arg, &n, sizeof(n)) ? -EFAULT : 0;
}

static const struct file_operations socket_file_ops = {
	.read = sock_read,
	.write = sock_write,
	.llseek = no_llseek,
	.release = sock_close,
	.wait_queue = sock_wait_queue,
	.waits_itself = true, /* af_unix.c's waits, with SO_RCVTIMEO and SO_SNDTIMEO */
	.poll = sock_poll,
	.unlocked_ioctl = sock_ioctl,
};

/*
 * A descriptor for socket u (Linux's sock_map_fd): a file on a new S_IFSOCK inode. flags:
 * SOCK_NONBLOCK, SOCK_CLOEXEC. The file takes the caller's reference on u. VFS lock held.
 */
static int sock_map_fd(struct unix_sock *u, int flags)
{
	struct fs_context *fs = current_fs();
	struct inode *inode = new_inode(S_IFSOCK | 0777);
	struct dentry *dentry = d_alloc(NULL, "socket:", 7); /* "socket:[INODE]" in /proc */
	struct file *file = alloc_file();
	int fd = get_unused_fd(fs);

	if (fd < 0 || !inode || !dentry || !file) {
		kfree(file);
		if (dentry)
			dput(dentry);
		kfree(inode);
		return fd < 0 ? fd : -ENOMEM;
	}
	inode->i_fop = &no_open_fops; /* opened by name: ENXIO, as Linux's sockfs */
	dentry->d_inode = inode; /* a root of its own: in no directory */
	file->f_path.mnt = &sock_mnt;
	file->f_path.dentry = dentry;
	path_get(&file->f_path);
	dput(dentry); /* the file holds it now */
	file->f_inode = inode;
	file->f_op = &socket_file_ops;
	file->f_flags = O_RDWR | ((unsigned int)flags & O_NONBLOCK);
	file->f_mode = FMODE_READ | FMODE_WRITE;
	file->private_data = u;
	u->file = file;
	fs->fd[fd] = file;
	fd_set_cloexec(fs, fd, flags & O_CLOEXEC);
	return fd;
}

/* fd's socket file, referenced (fput when done): NULL with -EBADF or -ENOTSOCK. Lock held. */
static struct file *sockfd_lookup(int fd, int *err)
{
	struct file *file = fget(fd);

	*err = !file ? -EBADF : file->f_op != &socket_file_ops ? -ENOTSOCK : 0;
	if (*err)
		return NULL;
	file->f_count++;
	return file;
}

/* Only whether fd is a socket: Linux looks at the descriptor before the user's buffers. */
static int sockfd_check(int fd)
{
	int err;
	struct file *file;

	vfs_lock();
	file = sockfd_lookup(fd, &err);
	if (file)
		fput(file);
	vfs_unlock();
	return err;
}

/* --- names ------------------------------------------------------------------------------------ */

/* A name from the user (Linux's move_addr_to_kernel): EINVAL for a length out of range. */
static int move_addr_to_kernel(const void __user *uaddr, int ulen, struct sockaddr_un *kaddr)
{
	if (ulen < 0 || ulen > SOCKADDR_STORAGE)
		return -EINVAL;
	if (ulen == 0)
		return 0;
	return copy_from_user(kaddr, uaddr, (size_t)ulen) ? -EFAULT : 0;
}

/*
 * A name to the user (move_addr_to_user): as much as *ulen has room for, and *ulen set to its
 * whole length, so that a program sees it was cut.
 */
static int move_addr_to_user(const struct sockaddr_un *kaddr, int klen, void __user *uaddr,
			     int __user *ulen)
{
	int len;

	if (copy_from_user(&len, ulen, sizeof(len)))
		return -EFAULT;
	if (len > klen)
		len = klen;
	if (len < 0)
		return -EINVAL;
	if (len && copy_to_user(uaddr, kaddr, (size_t)len))
		return -EFAULT;
	return copy_to_user(ulen, &klen, sizeof(klen)) ? -EFAULT : 0;
}

/* --- creating and connecting ------------------------------------------------------------------ */

/* socket()'s checks, in Linux's order; the type with its flags taken off, or -errno. */
static int sock_check(int family, int type, int protocol, int *flags)
{
	*flags = type & ~SOCK_TYPE_MASK;
	type &= SOCK_TYPE_MASK;
	if (*flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	if (family < 0 || family >= AF_MAX)
		return -EAFNOSUPPORT;
	if (type >= SOCK_MAX)
		return -EINVAL;
	if (family != AF_UNIX)
		return -EAFNOSUPPORT;
	if (protocol && protocol != AF_UNIX)
		return -EPROTONOSUPPORT;
	switch (type) {
	case SOCK_STREAM:
	case SOCK_SEQPACKET:
	case SOCK_DGRAM:
		return type;
	case SOCK_RAW:
		return SOCK_DGRAM; /* as Linux's unix_create */
	default:
		return -ESOCKTNOSUPPORT;
	}
}

long sys_socket(int family, int type, int protocol)
{
	int flags, fd;
	struct unix_sock *u;

	type = sock_check(family, type, protocol, &flags);
	if (type < 0)
		return type;
	u = unix_create(type);
	if (!u)
		return -ENOMEM;
	vfs_lock();
	fd = sock_map_fd(u, flags);
	if (fd < 0)
		unix_release(u);
	vfs_unlock();
	return fd;
}

long sys_socketpair(int family, int type, int protocol, int __user *usockvec)
{
	struct unix_sock *a, *b;
	int flags, fd[2];

	type = sock_check(family, type, protocol, &flags);
	if (type < 0)
		return type;
	a = unix_create(type);
	b = unix_create(type);
	vfs_lock();
	if (!a || !b) {
		fd[0] = -ENOMEM;
		goto fail;
	}
	unix_socketpair(a, b);
	fd[0] = sock_map_fd(a, flags);
	if (fd[0] < 0)
		goto fail;
	a = NULL; /* its file's now */
	fd[1] = sock_map_fd(b, flags);
	if (fd[1] < 0) {
		struct file *file = current_fs()->fd[fd[0]];

		current_fs()->fd[fd[0]] = NULL;
		fput(file);
		fd[0] = fd[1];
		goto fail;
	}
	vfs_unlock();
	if (copy_to_user(usockvec, fd, sizeof(fd))) {
		vfs_close(fd[0]);
		vfs_close(fd[1]);
		return -EFAULT;
	}
	return 0;
fail:
	if (a)
		unix_release(a);
	if (b)
		unix_release(b);
	vfs_unlock();
	return fd[0];
}

/* bind and connect: fd's socket and an address copied in, op called under the VFS lock. */
static long sock_addr_call(int fd, void __user *uaddr, int addrlen,
			   int (*op)(struct file *file, struct sockaddr_un *addr, int addrlen))
{
	struct sockaddr_un addr[2] = {0}; /* room for sockaddr_storage */
	struct file *file;
	int err = sockfd_check(fd);

	if (!err)
		err = move_addr_to_kernel(uaddr, addrlen, addr);
	if (err)
		return err;
	vfs_lock();
	file = sockfd_lookup(fd, &err);
	if (file) {
		err = op(file, addr, addrlen);
		fput(file);
	}
	vfs_unlock();
	return err;
}

static int sock_bind(struct file *file, struct sockaddr_un *addr, int addrlen)
{
	return unix_bind(sock_of(file), addr, addrlen);
}

long sys_bind(int fd, void __user *umyaddr, int addrlen)
{
	return sock_addr_call(fd, umyaddr, addrlen, sock_bind);
}

long sys_listen(int fd, int backlog)
{
	struct file *file;
	int err;

	if ((unsigned int)backlog > SOMAXCONN)
		backlog = SOMAXCONN;
	vfs_lock();
	file = sockfd_lookup(fd, &err);
	if (file) {
		err = unix_listen(sock_of(file), backlog);
		fput(file);
	}
	vfs_unlock();
	return err;
}

static int sock_connect(struct file *file, struct sockaddr_un *addr, int addrlen)
{
	return unix_connect(sock_of(file), addr, addrlen, file->f_flags & O_NONBLOCK);
}

long sys_connect(int fd, void __user *uservaddr, int addrlen)
{
	return sock_addr_call(fd, uservaddr, addrlen, sock_connect);
}

/*
 * accept4: the next connection as a new descriptor (EMFILE is known before the wait), and the
 * client's name if asked; a name that cannot be written drops the connection, as Linux's.
 */
long sys_accept4(int fd, void __user *upeer_sockaddr, int __user *upeer_addrlen, int flags)
{
	struct sockaddr_un addr[2] = {0};
	struct unix_sock *newsk = NULL;
	struct file *file;
	int err, len = 0;

	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	vfs_lock();
	file = sockfd_lookup(fd, &err);
	if (!file)
		goto out;
	err = get_unused_fd(current_fs());
	if (err >= 0)
		newsk = unix_accept(sock_of(file), file->f_flags & O_NONBLOCK, &err);
	fput(file);
	if (newsk && upeer_sockaddr)
		len = unix_getname(newsk, addr, true);
	vfs_unlock();
	if (newsk && upeer_sockaddr) {
		err = move_addr_to_user(addr, len, upeer_sockaddr, upeer_addrlen);
		if (err) {
			vfs_lock();
			unix_release(newsk);
			vfs_unlock();
			return err;
		}
	}
	if (!newsk)
		return err;
	vfs_lock();
	err = sock_map_fd(newsk, flags);
	if (err < 0)
		unix_release(newsk);
out:
	vfs_unlock();
	return err;
}

long sys_accept(int fd, void __user *upeer_sockaddr, int __user *upeer_addrlen)
{
	return sys_accept4(fd, upeer_sockaddr, upeer_addrlen, 0);
}

static long sock_getname(int fd, void __user *usockaddr, int __user *usockaddr_len, bool peer)
{
	struct sockaddr_un addr[2] = {0};
	struct file *file;
	int err;

	vfs_lock();
	file = sockfd_lookup(fd, &err);
	if (file) {
		err = unix_getname(sock_of(file), addr, peer);
		fput(file);
	}
	vfs_unlock();
	if (err < 0)
		return err;
	return move_addr_to_user(addr, err, usockaddr, usockaddr_len);
}

long sys_getsockname(int fd, void __user *usockaddr, int __user *usockaddr_len)
{
	return sock_getname(fd, usockaddr, usockaddr_len, false);
}

long sys_getpeername(int fd, void __user *usockaddr, int __user *usockaddr_len)
{
	return sock_getname(fd, usockaddr, usockaddr_len, true);
}

long sys_shutdown(int fd, int how)
{
	struct file *file;
	int err;

	vfs_lock();
	file = sockfd_lookup(fd, &err);
	if (file) {
		err = unix_shutdown(sock_of(file), how);
		fput(file);
	}
	vfs_unlock();
	return err;
}

/* --- sending and receiving -------------------------------------------------------------------- */

/*
 * A message as the calls gather it: the user's buffers (an iovec array, one for send and
 * recv), the name, the control messages. Then the family's kmsghdr.
 */
struct user_msg {
	struct iovec *iov;
	unsigned long nr;
	size_t total;
	struct sockaddr_un name[2]; /* room for sockaddr_storage */
	int namelen;
	void __user *control;
	size_t controllen;
	int flags;
};

/* The iovecs, checked as Linux's import_iovec: EINVAL for a length past ssize_t, EFAULT. */
static int import_iovec(struct user_msg *um, const struct iovec __user *uiov, size_t nr,
			struct iovec *fast)
{
	um->iov = fast;
	um->nr = nr;
	um->total = 0;
	if (nr > UIO_MAXIOV)
		return -EMSGSIZE;
	if (nr > 1) {
		um->iov = kmalloc(nr * sizeof(struct iovec));
		if (!um->iov)
			return -ENOMEM;
	}
	if (copy_from_user(um->iov, uiov, nr * sizeof(struct iovec)))
		return -EFAULT;
	for (size_t i = 0; i < nr; i++) {
		if ((long)um->iov[i].iov_len < 0)
			return -EINVAL;
		if (!access_ok(um->iov[i].iov_base, um->iov[i].iov_len))
			return -EFAULT;
		um->iov[i].iov_len = MIN(um->iov[i].iov_len, MAX_RW_COUNT - um->total);
		um->total += um->iov[i].iov_len;
	}
	return 0;
}

static void free_iovec(struct user_msg *um, struct iovec *fast)
{
	if (um->iov != fast)
		kfree(um->iov);
}

/* Copies n bytes at offset off of the user's buffers to or from kbuf: 0 or -EFAULT. */
static int iov_copy(struct user_msg *um, size_t off, char *kbuf, size_t n, bool to_user)
{
	for (unsigned long i = 0; i < um->nr && n; i++) {
		size_t len = um->iov[i].iov_len, k;

		if (off >= len) {
			off -= len;
			continue;
		}
		k = MIN(len - off, n);
		if (to_user ? copy_to_user((char *)um->iov[i].iov_base + off, kbuf, k)
			    : copy_from_user(kbuf, (char *)um->iov[i].iov_base + off, k))
			return -EFAULT;
		kbuf += k;
		n -= k;
		off = 0;
	}
	return 0;
}

/*
 * The files of a message's SCM_RIGHTS control messages, referenced: each cmsghdr checked as
 * Linux's __scm_send (EINVAL for a bad length or type, more than SCM_MAX_FD files; EBADF for
 * a descriptor not open). Levels other than SOL_SOCKET are not the socket layer's: skipped.
 * VFS lock held.
 */
static int scm_send(const char *ctl, size_t ctllen, struct scm_fp_list **fpp)
{
	size_t off = 0;

	while (off + sizeof(struct cmsghdr) <= ctllen) {
		const struct cmsghdr *c = (const struct cmsghdr *)(ctl + off);
		const int *fds = (const int *)(c + 1);
		struct scm_fp_list *fp = *fpp;
		size_t n;

		if (c->cmsg_len < sizeof(*c) || c->cmsg_len > ctllen - off)
			return -EINVAL;
		if (c->cmsg_level == SOL_SOCKET) {
			if (c->cmsg_type != SCM_RIGHTS)
				return -EINVAL;
			n = (c->cmsg_len - sizeof(*c)) / sizeof(int);
			if (n && !fp) {
				fp = *fpp = kzalloc(sizeof(*fp));
				if (!fp)
					return -ENOMEM;
			}
			if (n && fp->count + n > SCM_MAX_FD)
				return -EINVAL;
			for (size_t i = 0; i < n; i++) {
				struct file *f = fget(fds[i]);

				if (!f)
					return -EBADF;
				f->f_count++;
				fp->fp[fp->count++] = f;
			}
		}
		off += CMSG_ALIGN(c->cmsg_len);
	}
	return 0;
}

/*
 * One send: um's bytes from offset off, len of them, through a kernel buffer, with the control
 * messages' files on the first. The bytes sent, or -errno.
 */
static long sock_send_part(int fd, struct user_msg *um, size_t off, size_t len, bool first)
{
	char stack_buf[SOCK_STACK_BUF], *ctl = NULL, *kbuf = stack_buf;
	struct kmsghdr m = {.len = len};
	long ret = 0;
	struct file *file;
	int err;

	if (len > SOCK_MAX_DGRAM) {
		/* a datagram too large for any send buffer: the family says EMSGSIZE */
		kbuf = NULL;
	} else if (len > SOCK_STACK_BUF) {
		kbuf = kmalloc(len);
		if (!kbuf)
			return -ENOBUFS;
	}
	err = kbuf ? iov_copy(um, off, kbuf, len, false) : 0;
	if (!err && first && um->controllen) {
		ctl = kmalloc(um->controllen);
		err = !ctl						 ? -ENOBUFS
		      : copy_from_user(ctl, um->control, um->controllen) ? -EFAULT
									 : 0;
	}
	m.buf = kbuf;
	if (um->namelen) {
		m.name = um->name;
		m.namelen = um->namelen;
	}
	if (!err) {
		vfs_lock();
		file = sockfd_lookup(fd, &err);
		if (file) {
			if (ctl)
				err = scm_send(ctl, um->controllen, &m.fp);
			if (!err)
				ret = unix_sendmsg(sock_of(file), &m, um->flags,
						   (file->f_flags & O_NONBLOCK) ||
							   (um->flags & MSG_DONTWAIT));
			scm_fp_free(m.fp); /* what a failed send did not take */
			fput(file);
		}
		vfs_unlock();
	}
	kfree(ctl);
	if (kbuf != stack_buf)
		kfree(kbuf); /* NULL too */
	return err ? err : ret;
}

/*
 * A send of the whole message: a datagram in one piece (a length past any SO_SNDBUF is
 * EMSGSIZE, said by the family without copying), a stream's bytes a chunk at a time, until one
 * comes up short.
 */
static long sock_sendmsg_user(int fd, struct user_msg *um)
{
	size_t sent = 0;
	int type;
	long ret;

	vfs_lock();
	{
		struct file *file = sockfd_lookup(fd, &type);

		type = file ? sock_of(file)->type : type;
		if (file)
			fput(file);
	}
	vfs_unlock();
	if (type < 0)
		return type;
	if (type != SOCK_STREAM)
		return sock_send_part(fd, um, 0, um->total, true);
	do {
		size_t n = MIN(um->total - sent, SOCK_STREAM_CHUNK);

		ret = sock_send_part(fd, um, sent, n, sent == 0);
		if (ret < 0)
			return sent ? (long)sent : ret;
		sent += (size_t)ret;
		if ((size_t)ret < n)
			break;
	} while (sent < um->total);
	return (long)sent;
}

long sys_sendto(int fd, void __user *buff, size_t len, unsigned int flags, void __user *addr,
		int addr_len)
{
	struct iovec iov = {.iov_base = buff, .iov_len = MIN(len, MAX_RW_COUNT)};
	struct user_msg um = {.iov = &iov, .nr = 1, .total = iov.iov_len, .flags = (int)flags};
	int err;

	if (!access_ok(buff, len))
		return -EFAULT;
	err = sockfd_check(fd);
	if (!err && addr) {
		err = move_addr_to_kernel(addr, addr_len, um.name);
		um.namelen = addr_len;
	}
	return err ? err : sock_sendmsg_user(fd, &um);
}

/* The user's msghdr: its buffers, name and control messages (Linux's copy_msghdr_from_user). */
static int copy_msghdr_from_user(struct user_msg *um, const struct user_msghdr *msg,
				 struct iovec *fast)
{
	int err = import_iovec(um, msg->msg_iov, msg->msg_iovlen, fast);

	if (err)
		return err;
	if (msg->msg_namelen < 0)
		return -EINVAL;
	um->namelen = MIN(msg->msg_namelen, SOCKADDR_STORAGE);
	um->control = msg->msg_control;
	um->controllen = msg->msg_controllen;
	return 0;
}

long sys_sendmsg(int fd, struct user_msghdr __user *umsg, unsigned int flags)
{
	struct iovec fast;
	struct user_msghdr msg;
	struct user_msg um = {.iov = &fast, .flags = (int)flags};
	long err = sockfd_check(fd);

	if (err)
		return err;
	if (copy_from_user(&msg, umsg, sizeof(msg)))
		return -EFAULT;
	err = copy_msghdr_from_user(&um, &msg, &fast);
	if (!err && um.namelen && msg.msg_name)
		err = copy_from_user(um.name, msg.msg_name, (size_t)um.namelen) ? -EFAULT : 0;
	if (!msg.msg_name)
		um.namelen = 0;
	if (!err && msg.msg_controllen > SOCK_OPTMEM_MAX)
		err = -ENOBUFS;
	if (!err)
		err = sock_sendmsg_user(fd, &um);
	free_iovec(&um, &fast);
	return err;
}

/*
 * The files a receive brought, as new descriptors in a SCM_RIGHTS control message (Linux's
 * scm_detach_fds): as many as the control buffer has room for, MSG_CTRUNC if not all; the
 * rest are closed. Installs under the VFS lock; the fds and the header are written after.
 * Returns the control bytes used, with the header to write in *cm and the fds in fds[].
 */
static size_t scm_detach_fds(struct user_msg *um, struct scm_fp_list *fp, struct cmsghdr *cm,
			     int *fds, int *msg_flags)
{
	struct fs_context *fs = current_fs();
	int fdmax = um->controllen <= sizeof(*cm)
			    ? 0
			    : (int)MIN((um->controllen - sizeof(*cm)) / sizeof(int),
				       (size_t)SCM_MAX_FD);
	int i;

	if (!um->control) {
		*msg_flags |= MSG_CTRUNC;
		return 0;
	}
	for (i = 0; i < fdmax && i < fp->count; i++) {
		int fd = get_unused_fd(fs);

		if (fd < 0)
			break;
		fs->fd[fd] = fp->fp[i];
		fp->fp[i] = NULL; /* the descriptor's reference now */
		fd_set_cloexec(fs, fd, um->flags & MSG_CMSG_CLOEXEC);
		fds[i] = fd;
	}
	if (i < fp->count)
		*msg_flags |= MSG_CTRUNC;
	if (!i)
		return 0;
	cm->cmsg_len = CMSG_LEN((size_t)i * sizeof(int));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	return MIN(CMSG_SPACE((size_t)i * sizeof(int)), um->controllen);
}

/*
 * One receive into the user's buffers: the bytes (or a datagram's whole length with
 * MSG_TRUNC), the sender's name into um->name (namelen), files into descriptors. *msg_flags
 * gets MSG_TRUNC, MSG_CTRUNC; *ctl_used the control bytes written.
 */
static long sock_recvmsg_user(int fd, struct user_msg *um, int *msg_flags, size_t *ctl_used)
{
	char stack_buf[SOCK_STACK_BUF], *kbuf = stack_buf;
	struct kmsghdr m = {.name = um->name};
	struct cmsghdr cm;
	int *fds = NULL;
	struct file *file;
	long ret;
	int type;

	vfs_lock();
	file = sockfd_lookup(fd, &type);
	type = file ? sock_of(file)->type : type;
	if (file)
		fput(file);
	vfs_unlock();
	if (type < 0)
		return type;
	m.len = MIN(um->total, type == SOCK_STREAM ? SOCK_STREAM_CHUNK : SOCK_MAX_DGRAM);
	if (m.len > SOCK_STACK_BUF) {
		kbuf = kmalloc(m.len);
		if (!kbuf)
			return -ENOMEM;
	}
	m.buf = kbuf;
	*ctl_used = 0;
	vfs_lock();
	file = sockfd_lookup(fd, &type);
	ret = type;
	if (file) {
		ret = unix_recvmsg(sock_of(file), &m, um->flags,
				   (file->f_flags & O_NONBLOCK) || (um->flags & MSG_DONTWAIT));
		fput(file);
	}
	if (m.fp) {
		fds = kmalloc(SCM_MAX_FD * sizeof(int));
		if (fds)
			*ctl_used = scm_detach_fds(um, m.fp, &cm, fds, &m.flags);
		scm_fp_free(m.fp); /* those that found no room */
	}
	vfs_unlock();
	if (ret > 0 && iov_copy(um, 0, kbuf, MIN((size_t)ret, m.len), true))
		ret = -EFAULT;
	if (*ctl_used &&
	    (copy_to_user(um->control, &cm, sizeof(cm)) ||
	     copy_to_user((char *)um->control + sizeof(cm), fds, cm.cmsg_len - sizeof(cm))))
		ret = -EFAULT;
	kfree(fds);
	if (kbuf != stack_buf)
		kfree(kbuf);
	um->namelen = m.namelen;
	*msg_flags = m.flags;
	return ret;
}

long sys_recvfrom(int fd, void __user *ubuf, size_t size, unsigned int flags, void __user *addr,
		  int __user *addr_len)
{
	struct iovec iov = {.iov_base = ubuf, .iov_len = MIN(size, MAX_RW_COUNT)};
	struct user_msg um = {.iov = &iov, .nr = 1, .total = iov.iov_len, .flags = (int)flags};
	int msg_flags;
	size_t ctl_used;
	long ret, err;

	if (!access_ok(ubuf, size))
		return -EFAULT;
	ret = sock_recvmsg_user(fd, &um, &msg_flags, &ctl_used);
	if (ret >= 0 && addr) {
		err = move_addr_to_user(um.name, um.namelen, addr, addr_len);
		if (err)
			ret = err;
	}
	return ret;
}

long sys_recvmsg(int fd, struct user_msghdr __user *umsg, unsigned int flags)
{
	struct iovec fast;
	struct user_msghdr msg;
	struct user_msg um = {.iov = &fast, .flags = (int)flags};
	int msg_flags;
	size_t ctl_used;
	long err = sockfd_check(fd), ret;

	if (err)
		return err;
	if (copy_from_user(&msg, umsg, sizeof(msg)))
		return -EFAULT;
	err = copy_msghdr_from_user(&um, &msg, &fast);
	if (err) {
		free_iovec(&um, &fast);
		return err;
	}
	ret = sock_recvmsg_user(fd, &um, &msg_flags, &ctl_used);
	free_iovec(&um, &fast);
	if (ret < 0)
		return ret;
	/* recvmsg tells back MSG_CMSG_CLOEXEC among the flags, as Linux's does */
	msg_flags |= (int)(flags & MSG_CMSG_CLOEXEC);
	if (msg.msg_name) {
		err = move_addr_to_user(um.name, um.namelen, msg.msg_name, &umsg->msg_namelen);
		if (err)
			return err;
	}
	if (copy_to_user(&umsg->msg_flags, &msg_flags, sizeof(msg_flags)) ||
	    copy_to_user(&umsg->msg_controllen, &ctl_used, sizeof(ctl_used)))
		return -EFAULT;
	return ret;
}

/* sendmmsg and recvmmsg: a msghdr and the bytes its call moved. */
struct mmsghdr {
	struct user_msghdr msg_hdr;
	unsigned int msg_len;
};

#define MSG_WAITFORONE 0x10000 /* recvmmsg: after the first message, wait for no more */

/* Several sendmsg in one call: how many went, or the first one's error (Linux's). */
long sys_sendmmsg(int fd, struct mmsghdr __user *mmsg, unsigned int vlen, unsigned int flags)
{
	unsigned int datagrams = 0;
	long err = sockfd_check(fd);

	if (err)
		return err;
	vlen = MIN(vlen, UIO_MAXIOV);
	for (; datagrams < vlen; datagrams++) {
		unsigned int len;

		err = sys_sendmsg(fd, &mmsg[datagrams].msg_hdr, flags);
		if (err < 0)
			break;
		len = (unsigned int)err;
		if (copy_to_user(&mmsg[datagrams].msg_len, &len, sizeof(len))) {
			err = -EFAULT;
			break;
		}
	}
	return datagrams ? (long)datagrams : err;
}

/*
 * Several recvmsg in one call, Linux's do_recvmmsg: up to vlen messages; MSG_WAITFORONE waits
 * for the first only; timeout (if given) is looked at between messages, not during a wait
 * (Linux's too), and gets what is left. An error after some messages is kept for the next call
 * (SO_ERROR), but EAGAIN.
 */
long sys_recvmmsg(int fd, struct mmsghdr __user *mmsg, unsigned int vlen, unsigned int flags,
		  struct timespec_user __user *timeout)
{
	struct timespec_user ts;
	uint64_t end = 0;
	unsigned int datagrams = 0;
	struct file *file;
	int err;
	long ret = 0;

	if (timeout) {
		if (copy_from_user(&ts, timeout, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || (uint64_t)ts.tv_nsec >= NSEC_PER_SEC)
			return -EINVAL;
		end = ktime_get_ns() + (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	}
	vfs_lock();
	file = sockfd_lookup(fd, &err);
	if (file) {
		err = -sock_of(file)->err;
		sock_of(file)->err = 0;
		fput(file);
	}
	vfs_unlock();
	if (err)
		return err;
	while (datagrams < vlen) {
		unsigned int len;

		ret = sys_recvmsg(fd, &mmsg[datagrams].msg_hdr, flags & ~MSG_WAITFORONE);
		if (ret < 0)
			break;
		len = (unsigned int)ret;
		if (copy_to_user(&mmsg[datagrams].msg_len, &len, sizeof(len))) {
			ret = -EFAULT;
			break;
		}
		datagrams++;
		if (flags & MSG_WAITFORONE)
			flags |= MSG_DONTWAIT;
		if (timeout) {
			uint64_t now = ktime_get_ns(), left = now < end ? end - now : 0;

			ts.tv_sec = (long)(left / NSEC_PER_SEC);
			ts.tv_nsec = (long)(left % NSEC_PER_SEC);
			if (!left)
				break;
		}
	}
	if (datagrams && timeout && copy_to_user(timeout, &ts, sizeof(ts)))
		return -EFAULT;
	if (!datagrams || ret >= 0)
		return datagrams ? (long)datagrams : ret;
	if (ret != -EAGAIN) {
		vfs_lock();
		file = sockfd_lookup(fd, &err);
		if (file) {
			sock_of(file)->err = (int)-ret;
			fput(file);
		}
		vfs_unlock();
	}
	return datagrams;
}

bool sock_fd_locked(int fd)
{
	struct file *file;
	bool ret;

	vfs_lock();
	file = fget(fd);
	ret = file && file->f_op == &socket_file_ops;
	vfs_unlock();
	return ret;
}

long sock_rw_iov(int fd, struct iovec *iov, unsigned long nr, bool write, bool nowait)
{
	struct user_msg um = {.iov = iov, .nr = nr, .flags = nowait ? MSG_DONTWAIT : 0};
	int msg_flags;
	size_t ctl_used;

	for (unsigned long i = 0; i < nr; i++)
		um.total += iov[i].iov_len; /* checked and cut to MAX_RW_COUNT by the caller */
	if (write)
		return sock_sendmsg_user(fd, &um);
	return sock_recvmsg_user(fd, &um, &msg_flags, &ctl_used);
}

/* --- options ---------------------------------------------------------------------------------- */

struct timeval_user {
	long tv_sec, tv_usec;
};

/*
 * SO_RCVTIMEO, SO_SNDTIMEO: a timeval into ticks, Linux's sock_set_timeout: EDOM for
 * microseconds out of range, a negative time is "do not wait", 0 0 "for ever".
 */
static int sock_set_timeout(long *timeo, const void __user *optval, int optlen)
{
	struct timeval_user tv;

	if (optlen < (int)sizeof(tv))
		return -EINVAL;
	if (copy_from_user(&tv, optval, sizeof(tv)))
		return -EFAULT;
	if (tv.tv_usec < 0 || tv.tv_usec >= (long)USEC_PER_SEC)
		return -EDOM;
	if (tv.tv_sec < 0) {
		*timeo = 0;
		return 0;
	}
	*timeo = SOCK_NO_TIMEOUT;
	if ((tv.tv_sec || tv.tv_usec) && tv.tv_sec < SOCK_NO_TIMEOUT / SOCK_HZ - 1)
		*timeo = tv.tv_sec * SOCK_HZ + (tv.tv_usec + (long)USEC_PER_SEC / SOCK_HZ - 1) /
						       ((long)USEC_PER_SEC / SOCK_HZ);
	return 0;
}

static struct timeval_user sock_get_timeout(long timeo)
{
	if (timeo == SOCK_NO_TIMEOUT)
		return (struct timeval_user){0, 0};
	return (struct timeval_user){timeo / SOCK_HZ,
				     (timeo % SOCK_HZ) * (long)USEC_PER_SEC / SOCK_HZ};
}

long sys_setsockopt(int fd, int level, int optname, void __user *optval, int optlen)
{
	struct file *file;
	struct unix_sock *u;
	int val, err;

	vfs_lock();
	file = sockfd_lookup(fd, &err);
	vfs_unlock();
	if (!file)
		return err;
	if (level != SOL_SOCKET)
		err = -EOPNOTSUPP; /* AF_UNIX has no options of its own level */
	else if (optname == SO_RCVTIMEO || optname == SO_SNDTIMEO) {
		long timeo;

		err = sock_set_timeout(&timeo, optval, optlen);
		vfs_lock();
		if (!err)
			*(optname == SO_RCVTIMEO ? &sock_of(file)->rcvtimeo
						 : &sock_of(file)->sndtimeo) = timeo;
		fput(file);
		vfs_unlock();
		return err;
	} else if (optlen < (int)sizeof(int))
		err = -EINVAL;
	else if (copy_from_user(&val, optval, sizeof(val)))
		err = -EFAULT;
	vfs_lock();
	u = sock_of(file);
	if (!err) {
		switch (optname) {
		case SO_SNDBUF:
			val = (int)MIN((unsigned int)val, WMEM_MAX);
			u->sndbuf = MAX(val * 2, SOCK_MIN_SNDBUF);
			break;
		case SO_RCVBUF:
			val = (int)MIN((unsigned int)val, WMEM_MAX);
			u->rcvbuf = MAX(val * 2, SOCK_MIN_RCVBUF);
			break;
		case SO_REUSEADDR:
			u->reuseaddr = val != 0;
			break;
		case SO_PASSCRED:
			u->passcred = val != 0;
			break;
		default:
			err = -ENOPROTOOPT;
		}
	}
	fput(file);
	vfs_unlock();
	return err;
}

long sys_getsockopt(int fd, int level, int optname, void __user *optval, int __user *optlen)
{
	struct file *file;
	struct unix_sock *u;
	struct ucred cred;
	struct timeval_user tv;
	int len = 0, val = 0, err;
	void *v = &val;
	int lv = sizeof(int);

	vfs_lock();
	file = sockfd_lookup(fd, &err);
	vfs_unlock();
	if (!file)
		return err;
	/* SOL_SOCKET's code reads the length first (EFAULT, EINVAL), as Linux's sock_getsockopt */
	if (level != SOL_SOCKET)
		err = -EOPNOTSUPP;
	else if (copy_from_user(&len, optlen, sizeof(len)))
		err = -EFAULT;
	else if (len < 0)
		err = -EINVAL;
	vfs_lock();
	u = sock_of(file);
	if (!err) {
		switch (optname) {
		case SO_TYPE:
			val = u->type;
			break;
		case SO_ERROR:
			val = u->err;
			u->err = 0;
			break;
		case SO_SNDBUF:
			val = u->sndbuf;
			break;
		case SO_RCVBUF:
			val = u->rcvbuf;
			break;
		case SO_REUSEADDR:
			val = u->reuseaddr;
			break;
		case SO_PASSCRED:
			val = u->passcred;
			break;
		case SO_ACCEPTCONN:
			val = u->state == TCP_LISTEN;
			break;
		case SO_DOMAIN:
			val = AF_UNIX;
			break;
		case SO_PROTOCOL:
			val = 0;
			break;
		case SO_RCVTIMEO:
		case SO_SNDTIMEO:
			tv = sock_get_timeout(optname == SO_RCVTIMEO ? u->rcvtimeo : u->sndtimeo);
			v = &tv;
			lv = sizeof(tv);
			break;
		case SO_PEERCRED:
			cred = u->peercred;
			v = &cred;
			lv = sizeof(cred);
			break;
		default:
			err = -ENOPROTOOPT;
		}
	}
	fput(file);
	vfs_unlock();
	if (err)
		return err;
	len = MIN(len, lv);
	if (copy_to_user(optval, v, (size_t)len) || copy_to_user(optlen, &len, sizeof(len)))
		return -EFAULT;
	return 0;
}
