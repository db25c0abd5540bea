/*
 * splice: bytes moved between a pipe and another file (or two pipes) without passing through
 * the caller's memory (Linux's fs/splice.c).
 *
 * Linux moves page references: a page of trace_pipe_raw goes into the pipe and on into the
 * file without a copy. Lucid copies through a kernel buffer, a page at a time, as sendfile
 * does; what a program sees is the same. trace-cmd's recorders are
 * its users: splice(trace_pipe_raw -> pipe), then splice(pipe -> trace file).
 *
 * One rule needs care: a file whose reads consume what they return (trace_pipe_raw, a pipe)
 * must not give more than the pipe it goes into can take, or bytes would be lost between the
 * read and the write. So into a pipe, splice reads at most the room there is now; with none,
 * SPLICE_F_NONBLOCK is EAGAIN and a blocking splice reads one chunk and waits in the write.
 * A chunk is a page, a whole one of trace_pipe_raw's, which gives splice whole pages only.
 * (Two writers racing for the same pipe could still make the non-blocking write short: then
 * the bytes it could not write are lost, a corner no user of splice here has.)
 */
#include "kernel/syscalls.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"

#define SPLICE_F_MOVE 0x01 /* Linux's flags: MOVE and GIFT are hints */
#define SPLICE_F_NONBLOCK 0x02 /* do not wait on the pipe (nor on trace_pipe_raw) */
#define SPLICE_F_MORE 0x04
#define SPLICE_F_GIFT 0x08
#define SPLICE_F_ALL (SPLICE_F_MOVE | SPLICE_F_NONBLOCK | SPLICE_F_MORE | SPLICE_F_GIFT)
#define SPLICE_CHUNK PAGE_SIZE /* bytes copied at a time, the unit of Linux's pipe buffers */

/* The checks of Linux's do_splice, in its order; *in_pipe and *out_pipe say which ends are. */
static long splice_check(int fd_in, const loff_t __user *off_in, int fd_out,
			 const loff_t __user *off_out, bool *in_pipe, bool *out_pipe)
{
	struct kstat in_st, out_st;
	int in_fl = vfs_getfl(fd_in), out_fl = vfs_getfl(fd_out);

	if (in_fl < 0 || out_fl < 0)
		return -EBADF;
	if ((in_fl & O_ACCMODE) == O_WRONLY || (out_fl & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (vfs_fstat(fd_in, &in_st) || vfs_fstat(fd_out, &out_st))
		return -EBADF;
	*in_pipe = S_ISFIFO(in_st.mode);
	*out_pipe = S_ISFIFO(out_st.mode);
	if (!*in_pipe && !*out_pipe)
		return -EINVAL; /* one end at least must be a pipe */
	if ((*in_pipe && off_in) || (*out_pipe && off_out))
		return -ESPIPE; /* a pipe has no offsets */
	if (!*out_pipe && (out_fl & O_APPEND))
		return -EINVAL;
	return 0;
}

/* Reads up to n bytes of fd_in into buf: at *pos if given, else at its position. */
static ssize_t splice_read(int fd_in, loff_t *pos, void *buf, size_t n, bool nonblock)
{
	ssize_t r;

	if (pos) {
		r = vfs_pread(fd_in, buf, n, *pos);
		if (r > 0)
			*pos += r;
		return r;
	}
	return vfs_splice_read(fd_in, buf, n, nonblock);
}

/* Writes all n bytes (the read consumed them): the count written, or the error if none were. */
static ssize_t splice_write(int fd_out, loff_t *pos, const char *buf, size_t n)
{
	size_t done = 0;

	while (done < n) {
		ssize_t w = pos ? vfs_pwrite(fd_out, buf + done, n - done, *pos)
				: vfs_write(fd_out, buf + done, n - done);

		if (w <= 0)
			return done ? (ssize_t)done : (w ? w : -EIO);
		done += (size_t)w;
		if (pos)
			*pos += w;
	}
	return (ssize_t)done;
}

long sys_splice(int fd_in, loff_t __user *off_in, int fd_out, loff_t __user *off_out, size_t len,
		unsigned int flags)
{
	bool in_pipe, out_pipe, nonblock = flags & SPLICE_F_NONBLOCK;
	loff_t in_pos = 0, out_pos = 0;
	size_t want = len, done = 0;
	ssize_t n = 0;

	if (!len)
		return 0;
	if (flags & ~SPLICE_F_ALL)
		return -EINVAL;
	long err = splice_check(fd_in, off_in, fd_out, off_out, &in_pipe, &out_pipe);
	if (err)
		return err;
	if ((off_in && copy_from_user(&in_pos, off_in, sizeof(in_pos))) ||
	    (off_out && copy_from_user(&out_pos, off_out, sizeof(out_pos))))
		return -EFAULT;
	if (in_pos < 0 || out_pos < 0)
		return -EINVAL;
	if (out_pipe) {
		ssize_t room = vfs_pipe_room(fd_out);

		if (room < 0)
			return room;
		if (room == 0 && nonblock)
			return -EAGAIN;
		want = MIN(want, room ? (size_t)room : SPLICE_CHUNK);
	}
	char *buf = kmalloc(SPLICE_CHUNK);
	if (!buf)
		return -ENOMEM;
	/*
	 * A chunk at a time. Only the first read may wait: once some bytes have moved, splice
	 * returns them rather than wait for more, as Linux's does.
	 */
	while (done < want) {
		size_t chunk = MIN(want - done, SPLICE_CHUNK);

		n = splice_read(fd_in, off_in ? &in_pos : NULL, buf, chunk, nonblock || done);
		if (n > 0)
			n = splice_write(fd_out, off_out ? &out_pos : NULL, buf, (size_t)n);
		if (n <= 0)
			break;
		done += (size_t)n;
		if ((size_t)n < chunk)
			break; /* the file had no more now */
	}
	kfree(buf);
	if (done)
		n = (ssize_t)done;
	if (n > 0 && ((off_in && copy_to_user(off_in, &in_pos, sizeof(in_pos))) ||
		      (off_out && copy_to_user(off_out, &out_pos, sizeof(out_pos)))))
		return -EFAULT;
	return n;
}
