/*
 * Pipes: `a | b` connects a's stdout to b's stdin through a one-page ring buffer.
 *
 * A pipe is an inode that no directory names (it lives in "pipefs", a mount no path reaches,
 * as on Linux) and two open files on it: the read end and the write end. Each end counts as
 * one reader or writer however many descriptors share it (after dup2 or a thread's copy of
 * the fd table), because it is the struct file's release, run at its last close, that
 * counts it down. That gives Unix's rules:
 *   - read: the bytes there are (up to count); none: wait, or end of file (0) once every
 *     writer is gone;
 *   - write: as many bytes as fit; no room: wait; no reader left: -EPIPE, which is how
 *     `cat trace | head -3` stops cat as soon as head has exited.
 * The waiting itself is vfs_block()'s (kernel/fs/vfs_lock.c): the operations here only say
 * -EAGAIN and name the wait queue, which readers and writers share. Everything here runs under
 * the VFS lock.
 */
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/wait.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/signal.h"
#include "lib/errno.h"
#include "lib/string.h"

#define PIPE_SIZE 4096 /* one page, Linux's PIPE_BUF; the buffer is bounded, so is the memory */

struct pipe {
	wait_queue_head_t wait; /* woken at every change: data, room, an end closed */
	char *buf;
	size_t head; /* the next byte to read */
	size_t len; /* bytes in buf, from head on, wrapping around */
	int readers, writers; /* open ends */
};

static struct vfsmount pipe_mnt; /* "pipefs": counts the paths held, shows nowhere */

/*
 * Wakes the pipe's waiters, if there are any: the common read or write, with nobody waiting,
 * then costs no spin lock. Looking at the queue needs no barrier here: a waiter joins it in
 * vfs_block() with the VFS lock held, as we hold it, so none can be joining meanwhile.
 */
static void pipe_wake(struct pipe *p)
{
	if (!list_empty(&p->wait.head))
		wake_up(&p->wait);
}

static ssize_t pipe_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct pipe *p = file->private_data;
	size_t n, first;

	(void)pos;
	if (count == 0)
		return 0;
	if (p->len == 0)
		return p->writers ? -EAGAIN : 0;
	/* The bytes run from head to the end of the ring, then on from its start: two copies. */
	n = MIN(count, p->len);
	first = MIN(n, PIPE_SIZE - p->head);
	memcpy(buf, p->buf + p->head, first);
	if (n > first)
		memcpy(buf + first, p->buf, n - first);
	p->head = (p->head + n) % PIPE_SIZE;
	p->len -= n;
	pipe_wake(p); /* there is room now */
	return (ssize_t)n;
}

/*
 * A write with no reader left. A program is told with SIGPIPE too, which kills it unless it
 * ignores it or has a handler (then write returns EPIPE), as Linux's pipe_write. Out of line:
 * its siginfo on the stack would cost every write a stack-protector canary and a frame.
 */
static noinline ssize_t pipe_write_epipe(void)
{
	if (current->sighand) {
		struct ksiginfo info = {.signo = SIGPIPE, .code = SI_USER, .pid = current->tgid};

		send_sig_info(SIGPIPE, &info, current);
	}
	return -EPIPE;
}

static ssize_t pipe_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct pipe *p = file->private_data;
	size_t n, tail, first;

	(void)pos;
	if (p->readers == 0)
		return pipe_write_epipe();
	if (count == 0)
		return 0;
	if (p->len == PIPE_SIZE)
		return -EAGAIN;
	/* The room runs from the tail to the end of the ring, then on from its start. */
	n = MIN(count, PIPE_SIZE - p->len);
	tail = (p->head + p->len) % PIPE_SIZE;
	first = MIN(n, PIPE_SIZE - tail);
	memcpy(p->buf + tail, buf, first);
	if (n > first)
		memcpy(p->buf, buf + first, n - first);
	p->len += n;
	pipe_wake(p); /* there is data now */
	return (ssize_t)n;
}

static int pipe_release(struct inode *inode, struct file *file)
{
	struct pipe *p = file->private_data;

	if (file->f_mode & FMODE_READ)
		p->readers--;
	else
		p->writers--;
	pipe_wake(p); /* a writer learns of -EPIPE, a reader of end of file */
	if (p->readers == 0 && p->writers == 0) {
		inode->i_private = NULL;
		kfree(p->buf);
		kfree(p);
	}
	return 0;
}

static struct wait_queue_head *pipe_wait_queue(struct file *file)
{
	struct pipe *p = file->private_data;

	return &p->wait;
}

/* poll: the read end is ready with data, and hung up once every writer is gone; the write end
 * is ready with room, and in error once every reader is gone (a write would be EPIPE). */
static unsigned int pipe_poll(struct file *file)
{
	struct pipe *p = file->private_data;
	unsigned int mask = 0;

	if (file->f_mode & FMODE_READ) {
		if (p->len)
			mask |= POLLIN | POLLRDNORM;
		if (!p->writers)
			mask |= POLLHUP;
	}
	if (file->f_mode & FMODE_WRITE) {
		if (p->len < PIPE_SIZE)
			mask |= POLLOUT | POLLWRNORM;
		if (!p->readers)
			mask |= POLLERR;
	}
	return mask;
}

static const struct file_operations pipe_fops = {
	.read = pipe_read,
	.write = pipe_write,
	.llseek = no_llseek,
	.release = pipe_release,
	.wait_queue = pipe_wait_queue,
	.poll = pipe_poll,
};

/*
 * splice (kernel/fs/splice.c): the bytes a write to fd's pipe would take now, or -EINVAL when fd
 * is not the write end of a pipe (-EBADF when there is no fd). splice reads no more than this
 * from a file that cannot give bytes back (trace_pipe_raw consumes what it hands out).
 */
ssize_t vfs_pipe_room(int fd)
{
	struct file *file;
	ssize_t ret;

	vfs_lock();
	file = fget(fd);
	if (!file)
		ret = -EBADF;
	else if (file->f_op != &pipe_fops || !(file->f_mode & FMODE_WRITE))
		ret = -EINVAL;
	else
		ret = (ssize_t)(PIPE_SIZE - ((struct pipe *)file->private_data)->len);
	vfs_unlock();
	return ret;
}

/* One end: an open file on the pipe's dentry, which it holds a reference to. */
static void init_end(struct file *file, struct dentry *dentry, struct pipe *p, int flags)
{
	file->f_path.mnt = &pipe_mnt;
	file->f_path.dentry = dentry;
	path_get(&file->f_path);
	file->f_inode = dentry->d_inode;
	file->f_op = &pipe_fops;
	file->f_flags = (unsigned int)flags;
	file->f_mode = (flags & O_ACCMODE) == O_RDONLY ? FMODE_READ : FMODE_WRITE;
	file->private_data = p;
}

static int do_pipe(int fds[2], int flags)
{
	struct fs_context *fs = current_fs();
	struct pipe *p = kzalloc(sizeof(*p));
	char *buf = kmalloc(PIPE_SIZE);
	struct inode *inode = new_inode(S_IFIFO | 0600);
	struct dentry *dentry = d_alloc(NULL, "pipe:", 5);
	struct file *rd = alloc_file(), *wr = alloc_file();
	int err = -ENOMEM;

	if (!p || !buf || !inode || !dentry || !rd || !wr)
		goto fail;
	fds[0] = get_unused_fd(fs);
	if (fds[0] < 0) {
		err = fds[0];
		goto fail;
	}
	fs->fd[fds[0]] = rd; /* taken, so that the next free one is another */
	fds[1] = get_unused_fd(fs);
	fs->fd[fds[0]] = NULL;
	if (fds[1] < 0) {
		err = fds[1];
		goto fail;
	}
	init_waitqueue_head(&p->wait);
	p->buf = buf;
	p->readers = p->writers = 1;
	inode->i_private = p;
	dentry->d_inode = inode; /* a root of its own: in no directory */
	init_end(rd, dentry, p, O_RDONLY | (flags & O_NONBLOCK));
	init_end(wr, dentry, p, O_WRONLY | (flags & O_NONBLOCK));
	dput(dentry); /* the two ends hold it now */
	fs->fd[fds[0]] = rd;
	fs->fd[fds[1]] = wr;
	if (flags & O_CLOEXEC)
		fs->close_on_exec |= (1UL << fds[0]) | (1UL << fds[1]);
	return 0;
fail:
	kfree(rd);
	kfree(wr);
	if (dentry)
		dput(dentry);
	kfree(inode);
	kfree(buf);
	kfree(p);
	return err;
}

int vfs_pipe2(int fds[2], int flags)
{
	int ret;

	vfs_lock();
	ret = do_pipe(fds, flags);
	vfs_unlock();
	return ret;
}

int vfs_pipe(int fds[2])
{
	return vfs_pipe2(fds, 0);
}
