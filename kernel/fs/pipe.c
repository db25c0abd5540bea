/*
 * Pipes: `a | b` connects a's stdout to b's stdin through a ring of pages.
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
 *
 * The buffer is Linux's (fs/pipe.c): a ring of slots, struct pipe_buffer, each a page and the
 * bytes in use within it; 16 slots (64 KiB) to start with, which fcntl's F_GETPIPE_SZ and
 * F_SETPIPE_SZ read and change. Programs count on that size: trace-cmd's recorders flush their
 * last pages into a pipe to their parent after it has stopped reading. A write first tops up
 * the last page when its odd bytes (count % PAGE_SIZE) fit there, then fills fresh pages, one a
 * slot. So a write of up to PIPE_BUF bytes (a page) goes in whole or waits for a slot: two
 * writers' lines never interleave, as POSIX asks. A page is freed when a read empties its
 * slot, but one is kept back for the next write (Linux's tmp_page): a pipe that carries a byte
 * at a time, as most do, then allocates nothing after its first write. (One difference is
 * left: a program's write of more than a page reaches the pipe a page at a time, through the
 * system call's bounce buffer in kernel/fs/read_write.c, so its odd bytes come last, when
 * Linux tries them first.)
 */
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/wait.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "arch/x86_64/mmu.h"
#include "lib/errno.h"
#include "lib/string.h"

#define PIPE_DEF_BUFFERS 16 /* slots in a new pipe: Linux's default, 64 KiB */
#define PIPE_MAX_SIZE (1024 * 1024) /* F_SETPIPE_SZ's bound: Linux's pipe-max-size default */

struct pipe_buffer {
	char *page; /* NULL in a free slot */
	unsigned int offset, len; /* the bytes not yet read: page[offset .. offset + len) */
};

struct pipe_inode_info {
	wait_queue_head_t wait; /* woken at every change: data, room, an end closed */
	struct pipe_buffer *bufs; /* ring_size slots; slot n is bufs[n & (ring_size - 1)] */
	unsigned int ring_size; /* a power of two */
	unsigned int head, tail; /* the next slot to fill and the next to read; they only grow */
	char *tmp_page; /* a page a read emptied, kept for the next write */
	int readers, writers; /* open ends */
	/* A FIFO's opens so far of each kind: an opener waiting for its partner waits for a
	 * change, so one that came and went meanwhile still ends the wait (Linux's). */
	unsigned int r_counter, w_counter;
	bool fifo; /* a FIFO mknod made, whose opens wait for the other end */
};

static struct vfsmount pipe_mnt; /* "pipefs": counts the paths held, shows nowhere */

static unsigned int pipe_occupancy(struct pipe_inode_info *p)
{
	return p->head - p->tail; /* unsigned: right when head has wrapped past 2^32 and tail not */
}

static bool pipe_full(struct pipe_inode_info *p)
{
	return pipe_occupancy(p) >= p->ring_size;
}

static struct pipe_buffer *pipe_slot(struct pipe_inode_info *p, unsigned int n)
{
	return &p->bufs[n & (p->ring_size - 1)];
}

/*
 * Wakes the pipe's waiters, if there are any: the common read or write, with nobody waiting,
 * then costs no spin lock. Looking at the queue needs no barrier here: a waiter joins it in
 * vfs_block() with the VFS lock held, as we hold it, so none can be joining meanwhile.
 */
static void pipe_wake(struct pipe_inode_info *p)
{
	if (!list_empty(&p->wait.head))
		wake_up(&p->wait);
}

static ssize_t pipe_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct pipe_inode_info *p = file->private_data;
	size_t done = 0;

	(void)pos;
	if (count == 0)
		return 0;
	if (p->head == p->tail)
		return p->writers ? -EAGAIN : 0;
	/* Slot after slot, until count bytes or the pipe is empty; an emptied slot is freed. */
	while (done < count && p->head != p->tail) {
		struct pipe_buffer *b = pipe_slot(p, p->tail);
		size_t n = MIN(count - done, (size_t)b->len);

		memcpy(buf + done, b->page + b->offset, n);
		done += n;
		b->offset += (unsigned int)n;
		b->len -= (unsigned int)n;
		if (b->len == 0) {
			if (p->tmp_page)
				kfree(b->page);
			else
				p->tmp_page = b->page;
			b->page = NULL;
			p->tail++;
		}
	}
	pipe_wake(p); /* there is room now */
	return (ssize_t)done;
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
	struct pipe_inode_info *p = file->private_data;
	size_t done = 0, odd = count % PAGE_SIZE;

	(void)pos;
	if (p->readers == 0)
		return pipe_write_epipe();
	if (count == 0)
		return 0;
	/* The odd bytes first, into the last page if they fit in it whole. */
	if (odd && p->head != p->tail) {
		struct pipe_buffer *b = pipe_slot(p, p->head - 1);

		if (b->offset + b->len + odd <= PAGE_SIZE) {
			memcpy(b->page + b->offset + b->len, buf, odd);
			b->len += (unsigned int)odd;
			done = odd;
		}
	}
	/* The rest a page at a time, each into a free slot. */
	while (done < count && !pipe_full(p)) {
		struct pipe_buffer *b = pipe_slot(p, p->head);
		size_t n = MIN(count - done, (size_t)PAGE_SIZE);

		b->page = p->tmp_page ? p->tmp_page : kmalloc(PAGE_SIZE);
		if (!b->page)
			break;
		p->tmp_page = NULL;
		memcpy(b->page, buf + done, n);
		b->offset = 0;
		b->len = (unsigned int)n;
		p->head++;
		done += n;
	}
	if (done == 0)
		return pipe_full(p) ? -EAGAIN : -ENOMEM; /* full: wait for a reader */
	pipe_wake(p); /* there is data now */
	return (ssize_t)done;
}

static void free_pipe_info(struct inode *inode, struct pipe_inode_info *p);
static struct pipe_inode_info *alloc_pipe_info(void);

/*
 * Sleeps, the VFS lock let go, until *cnt moves on from what it is now: a FIFO's opener waits
 * for its partner's open (Linux's wait_for_partner). The opener is counted already, so the
 * pipe stays. -ERESTARTSYS if a signal comes first, as Linux's.
 */
static int wait_for_partner(struct pipe_inode_info *p, unsigned int *cnt)
{
	unsigned int cur = *cnt;
	int ret;

	vfs_unlock();
	ret = wait_event_interruptible(&p->wait, READ_ONCE(*cnt) != cur);
	vfs_lock();
	return ret ? (current->sighand ? -ERESTARTSYS : -EINTR) : 0;
}

/*
 * A new open of a pipe by a name. Of an anonymous pipe through /proc/PID/fd/N
 * (kernel/fs/proc/fd.c), as /dev/stdin or bash's <(cmd) reach it: one more reader, writer or
 * both, and no waiting for the other end (Linux's fifo_open for a pipe of pipefs). Of a FIFO
 * mknod made (Linux's fifo_open for any other): the pipe is made at the first open and freed
 * with its data at the last close; a reader waits for a writer and a writer for a reader
 * (O_NONBLOCK: a reader does not, a writer fails with ENXIO), O_RDWR never waits.
 */
static int fifo_open(struct inode *inode, struct file *file)
{
	struct pipe_inode_info *p = inode->i_private;
	int ret = 0;

	if (!p) { /* a FIFO's first open (an anonymous pipe's inode is unreachable by then) */
		p = alloc_pipe_info();
		if (!p)
			return -ENOMEM;
		p->fifo = true;
		inode->i_private = p;
	}
	file->private_data = p;
	switch (file->f_mode & (FMODE_READ | FMODE_WRITE)) {
	case FMODE_READ:
		p->r_counter++;
		p->readers++;
		if (!p->fifo || p->writers)
			break;
		if (!(file->f_flags & O_NONBLOCK))
			ret = wait_for_partner(p, &p->w_counter);
		break;
	case FMODE_WRITE:
		if (p->fifo && (file->f_flags & O_NONBLOCK) && !p->readers) {
			ret = -ENXIO;
			break;
		}
		p->w_counter++;
		p->writers++;
		if (p->fifo && !p->readers)
			ret = wait_for_partner(p, &p->r_counter);
		break;
	default:
		p->readers++;
		p->writers++;
		p->r_counter++;
		p->w_counter++;
		break;
	}
	pipe_wake(p); /* a reader waiting for a writer, or the other way round */
	if (ret && ret != -ENXIO) {
		if (file->f_mode & FMODE_READ)
			p->readers--;
		if (file->f_mode & FMODE_WRITE)
			p->writers--;
	}
	if (ret && !p->readers && !p->writers)
		free_pipe_info(inode, p);
	return ret;
}

static int pipe_release(struct inode *inode, struct file *file)
{
	struct pipe_inode_info *p = file->private_data;

	/* Both for an open with O_RDWR (only an open by name makes one: fifo_open). */
	if (file->f_mode & FMODE_READ)
		p->readers--;
	if (file->f_mode & FMODE_WRITE)
		p->writers--;
	pipe_wake(p); /* a writer learns of -EPIPE, a reader of end of file */
	if (p->readers == 0 && p->writers == 0)
		free_pipe_info(inode, p);
	return 0;
}

/* The last end is closed: the pipe and what was left in it go (a FIFO's next open starts anew). */
static void free_pipe_info(struct inode *inode, struct pipe_inode_info *p)
{
	if (inode)
		inode->i_private = NULL;
	for (unsigned int i = 0; i < p->ring_size; i++)
		kfree(p->bufs[i].page);
	kfree(p->tmp_page);
	kfree(p->bufs);
	kfree(p);
}

/* An empty pipe with no ends yet: PIPE_DEF_BUFFERS slots. */
static struct pipe_inode_info *alloc_pipe_info(void)
{
	struct pipe_inode_info *p = kzalloc(sizeof(*p));
	struct pipe_buffer *bufs = kzalloc(PIPE_DEF_BUFFERS * sizeof(*bufs));

	if (!p || !bufs) {
		kfree(p);
		kfree(bufs);
		return NULL;
	}
	init_waitqueue_head(&p->wait);
	p->bufs = bufs;
	p->ring_size = PIPE_DEF_BUFFERS;
	return p;
}

static struct wait_queue_head *pipe_wait_queue(struct file *file)
{
	struct pipe_inode_info *p = file->private_data;

	return &p->wait;
}

/* poll: the read end is ready with data, and hung up once every writer is gone; the write end
 * is ready with a free slot, and in error once every reader is gone (a write would be EPIPE). */
static unsigned int pipe_poll(struct file *file)
{
	struct pipe_inode_info *p = file->private_data;
	unsigned int mask = 0;

	if (file->f_mode & FMODE_READ) {
		if (p->head != p->tail)
			mask |= POLLIN | POLLRDNORM;
		/*
		 * Not before a FIFO's first writer came (no hang-up for a reader that opened
		 * with O_NONBLOCK before any writer). Linux remembers that per open file
		 * (f_version); Lucid per pipe, which differs only for a reader that opens
		 * after a writer came and went: Linux's says no hang-up, Lucid's says one.
		 */
		if (!p->writers && p->w_counter)
			mask |= POLLHUP;
	}
	if (file->f_mode & FMODE_WRITE) {
		if (!pipe_full(p))
			mask |= POLLOUT | POLLWRNORM;
		if (!p->readers)
			mask |= POLLERR;
	}
	return mask;
}

const struct file_operations pipefifo_fops = {
	.open = fifo_open,
	.read = pipe_read,
	.write = pipe_write,
	.llseek = no_llseek,
	.release = pipe_release,
	.wait_queue = pipe_wait_queue,
	.poll = pipe_poll,
};

/*
 * splice (kernel/fs/splice.c): the bytes a write to fd's pipe is sure to take now, a page for
 * each free slot, or -EINVAL when fd is not the write end of a pipe (-EBADF when there is no
 * fd). splice reads no more than this from a file that cannot give bytes back (trace_pipe_raw
 * consumes what it hands out).
 */
ssize_t vfs_pipe_room(int fd)
{
	struct file *file;
	ssize_t ret;

	vfs_lock();
	file = fget(fd);
	if (!file)
		ret = -EBADF;
	else if (file->f_op != &pipefifo_fops || !(file->f_mode & FMODE_WRITE))
		ret = -EINVAL;
	else {
		struct pipe_inode_info *p = file->private_data;

		ret = (ssize_t)((p->ring_size - pipe_occupancy(p)) * PAGE_SIZE);
	}
	vfs_unlock();
	return ret;
}

/* Moves the pipe's slots into a new ring of nr_slots, in order from its first. */
static long pipe_resize_ring(struct pipe_inode_info *p, unsigned int nr_slots)
{
	unsigned int n = pipe_occupancy(p);
	struct pipe_buffer *bufs;

	if (nr_slots < n)
		return -EBUSY; /* Linux's answer: the pages there would not fit */
	bufs = kzalloc(nr_slots * sizeof(*bufs));
	if (!bufs)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++)
		bufs[i] = *pipe_slot(p, p->tail + i);
	kfree(p->bufs);
	p->bufs = bufs;
	p->ring_size = nr_slots;
	p->tail = 0;
	p->head = n;
	pipe_wake(p); /* a writer may have room now */
	return (long)(nr_slots * PAGE_SIZE);
}

/*
 * fcntl's F_GETPIPE_SZ and F_SETPIPE_SZ, as Linux's pipe_fcntl: the ring's size in bytes, or a
 * new one of at least arg bytes (a power of two pages, one at least). -EBADF when fd is not a
 * pipe. Above PIPE_MAX_SIZE it is -EPERM, Linux's answer to a program without
 * CAP_SYS_RESOURCE: Lucid bounds a pipe's memory for everyone, root too.
 */
long vfs_pipe_fcntl(int fd, unsigned int cmd, unsigned long arg)
{
	struct file *file;
	unsigned int nr_slots = 1;
	long ret;

	vfs_lock();
	file = fget(fd);
	if (!file || file->f_op != &pipefifo_fops)
		ret = -EBADF;
	else if (cmd == F_GETPIPE_SZ)
		ret = (long)(((struct pipe_inode_info *)file->private_data)->ring_size * PAGE_SIZE);
	else if (arg > PIPE_MAX_SIZE)
		ret = -EPERM;
	else {
		while (nr_slots * PAGE_SIZE < arg)
			nr_slots <<= 1;
		ret = pipe_resize_ring(file->private_data, nr_slots);
	}
	vfs_unlock();
	return ret;
}

/* One end: an open file on the pipe's dentry, which it holds a reference to. */
static void init_end(struct file *file, struct dentry *dentry, struct pipe_inode_info *p, int flags)
{
	file->f_path.mnt = &pipe_mnt;
	file->f_path.dentry = dentry;
	path_get(&file->f_path);
	file->f_inode = dentry->d_inode;
	file->f_op = &pipefifo_fops;
	file->f_flags = (unsigned int)flags;
	file->f_mode = (flags & O_ACCMODE) == O_RDONLY ? FMODE_READ : FMODE_WRITE;
	file->private_data = p;
}

/* A function of its own, as Linux's, so that the function tracer sees it (it has one caller). */
static noinline int do_pipe_flags(int fds[2], int flags)
{
	struct fs_context *fs = current_fs();
	struct pipe_inode_info *p = alloc_pipe_info();
	struct inode *inode = new_inode(S_IFIFO | 0600);
	struct dentry *dentry = d_alloc(NULL, "pipe:", 5);
	struct file *rd = alloc_file(), *wr = alloc_file();
	int err = -ENOMEM;

	if (!p || !inode || !dentry || !rd || !wr)
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
	p->readers = p->writers = 1;
	p->r_counter = p->w_counter = 1; /* a writer was seen: poll's hang-up is real (Linux's) */
	inode->i_private = p;
	inode->i_fop = &pipefifo_fops; /* for an open by name (fifo_open), as the two ends have */
	dentry->d_inode = inode; /* a root of its own: in no directory */
	init_end(rd, dentry, p, O_RDONLY | (flags & O_NONBLOCK));
	init_end(wr, dentry, p, O_WRONLY | (flags & O_NONBLOCK));
	dput(dentry); /* the two ends hold it now */
	fs->fd[fds[0]] = rd;
	fs->fd[fds[1]] = wr;
	fd_set_cloexec(fs, fds[0], flags & O_CLOEXEC);
	fd_set_cloexec(fs, fds[1], flags & O_CLOEXEC);
	return 0;
fail:
	kfree(rd);
	kfree(wr);
	if (dentry)
		dput(dentry);
	if (p)
		free_pipe_info(NULL, p);
	kfree(inode);
	return err;
}

int vfs_pipe2(int fds[2], int flags)
{
	return vfs_locked(do_pipe_flags(fds, flags));
}
