/*
 * read, write, readv, writev and ioctl from user space: the system calls on top of the VFS the
 * kernel shell uses (kernel/fs/vfs.h), named as Linux's fs/read_write.c names them, so that a
 * trace of a program's write reads do_syscall_64 -> sys_write -> ksys_write -> vfs_write.
 *
 * Lucid's VFS works on kernel buffers, so the user's bytes go through a bounce buffer, copied
 * with copy_from_user/copy_to_user: a bad pointer is -EFAULT, never a fault in the VFS. A small
 * transfer (a byte into a pipe, a line to the console: most of them) bounces through a buffer
 * on the kernel stack, which costs nothing to get; only a larger one allocates a chunk, whose
 * allocation and freeing would otherwise cost more than the whole system call
 * (docs/design/syscall-cost.md).
 */
#include "kernel/syscalls.h"
#include "kernel/fs/vfs.h"
#include "kernel/net/socket.h" /* struct iovec, and a socket's reads and writes */
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/wait.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"

#define RW_CHUNK 4096 /* the bounce buffer: larger transfers go a chunk at a time */
#define RW_STACK_CHUNK 256 /* transfers up to this size bounce on the stack (16 KiB deep) */
#define UIO_MAXIOV 1024 /* Linux's limit on iovecs per call */
#define UIO_FASTIOV 8 /* iovecs that fit the stack array of a readv or writev, as Linux's */


/*
 * Linux's first checks on a read or write of count bytes at buf (vfs_read, vfs_write): the
 * whole range must lie in user space, whatever is mapped there (-EFAULT before anything
 * moves), and one call moves at most MAX_RW_COUNT bytes. Returns the count to move, or 0 with
 * *err set.
 */
static inline size_t rw_verify_area(const void __user *buf, size_t count, long *err)
{
	*err = access_ok(buf, count) ? 0 : -EFAULT;
	return *err ? 0 : MIN(count, MAX_RW_COUNT);
}

/*
 * What a transfer that stopped at a fault answers, as Linux's copy loops do: the bytes moved
 * before it, or -EFAULT if none.
 */
static inline long rw_result(size_t done, long err)
{
	return done ? (long)done : err;
}

/*
 * What a transfer whose buffer is bad answers: Linux looks at the descriptor first, so one
 * that is not open (or not open for this) is -EBADF, and only then the buffer -EFAULT.
 * notrace: a detail of the system calls, only on their failure paths.
 */
static noinline notrace long rw_fault(unsigned int fd, bool write)
{
	int fl = vfs_getfl((int)fd);

	if (fl < 0)
		return fl;
	if ((fl & O_ACCMODE) == (write ? O_RDONLY : O_WRONLY))
		return -EBADF;
	return -EFAULT;
}

/*
 * The write of a file that never looks at the bytes (file_operations.write_ignores_data:
 * /dev/null, /dev/zero, /dev/full): the count goes to the file without them, so a buffer that
 * is not all mapped answers as Linux's write_null, which never touches it. -EFAULT otherwise.
 */
static noinline notrace long write_unread(unsigned int fd, size_t count)
{
	return vfs_write_ignores_data((int)fd) ? vfs_write((int)fd, NULL, count)
					       : rw_fault(fd, true);
}

/*
 * A write larger than the stack's bounce buffer: chunk by chunk through an allocated one,
 * until count is written, a write comes up short or the caller's buffer ends (a page that is
 * not mapped: what came before it is written, as Linux's generic_perform_write does).
 * notrace: a detail of ksys_write, so that traces read ksys_write -> vfs_write, as Linux's.
 */
static noinline notrace long ksys_write_chunks(unsigned int fd, const char __user *buf,
					       size_t count)
{
	size_t done = 0;
	long err;
	char *kbuf;

	count = rw_verify_area(buf, count, &err);
	if (err)
		return rw_fault(fd, true);
	if (vfs_write_ignores_data((int)fd))
		return vfs_write((int)fd, NULL, count);
	if (sock_fd((int)fd)) /* one send: a datagram is not cut into chunks */
		return sock_rw_iov((int)fd, &(struct iovec){(void __user *)buf, count}, 1, true,
				   false);
	kbuf = kmalloc(RW_CHUNK);
	if (!kbuf)
		return -ENOMEM;
	do {
		size_t n = MIN(count - done, RW_CHUNK);
		size_t got = n - copy_from_user(kbuf, buf + done, n);
		long ret = got ? vfs_write((int)fd, kbuf, got) : -EFAULT;

		if (ret < 0) {
			err = ret;
			break;
		}
		done += (size_t)ret;
		if ((size_t)ret < n)
			break; /* a short write (a full pipe whose reader left...), or a fault */
	} while (done < count);
	kfree(kbuf);
	return rw_result(done, err);
}

noinline long ksys_write(unsigned int fd, const char __user *buf, size_t count)
{
	char kbuf[RW_STACK_CHUNK];

	if (count > RW_STACK_CHUNK)
		return ksys_write_chunks(fd, buf, count);
	if (copy_from_user(kbuf, buf, count))
		return access_ok(buf, count) ? write_unread(fd, count) : rw_fault(fd, true);
	return vfs_write((int)fd, kbuf, count);
}

long sys_write(unsigned int fd, const char __user *buf, size_t count)
{
	return ksys_write(fd, buf, count);
}

/*
 * One read of n bytes (at most a chunk) through kbuf into buf. A read may always return fewer
 * bytes than asked. nowait: never wait for data (-EAGAIN instead), as the chunks after the
 * first must not. If buf ends early (a page not mapped), the bytes that fit are returned and a
 * file with positions gets the others back (its position moves back over them), as Linux's
 * copy_to_user in the file's own read would have stopped there.
 */
static inline notrace long read_once(unsigned int fd, char *kbuf, char __user *buf, size_t n,
				     bool nowait)
{
	long ret = nowait ? vfs_read_nowait((int)fd, kbuf, n) : vfs_read((int)fd, kbuf, n);
	size_t left;

	if (ret <= 0)
		return ret;
	left = copy_to_user(buf, kbuf, (size_t)ret);
	if (left) {
		vfs_lseek((int)fd, -(loff_t)left, SEEK_CUR); /* ESPIPE for a pipe: they are lost */
		ret = rw_result((size_t)ret - left, -EFAULT);
	}
	return ret;
}

/*
 * A read of more than the stack's buffer. From a pipe, a regular file or a character device
 * that never waits (/dev/zero, /dev/urandom), Linux returns all the bytes there are, up to
 * count: after the first chunk the rest follow without waiting, until one comes up short, the
 * caller's buffer ends, or a signal comes (as Linux's read_zero stops for one), see
 * vfs_read_fills. Others (the console, trace_pipe) give a chunk a read, as Linux's give a
 * line or a page. nowait: not even the first chunk waits (readv's iovecs after the first).
 * notrace: a detail of ksys_read and readv, so that traces read ksys_read -> vfs_read.
 */
static noinline notrace long read_chunks(unsigned int fd, char __user *buf, size_t count,
					 bool nowait)
{
	size_t done = 0;
	long ret;
	char *kbuf;

	count = rw_verify_area(buf, count, &ret);
	if (ret)
		return rw_fault(fd, false);
	if (sock_fd((int)fd)) /* one receive: a datagram whole, a stream's bytes up to count */
		return sock_rw_iov((int)fd, &(struct iovec){buf, count}, 1, false, nowait);
	kbuf = kmalloc(RW_CHUNK);
	if (!kbuf)
		return -ENOMEM;
	ret = read_once(fd, kbuf, buf, MIN(count, RW_CHUNK), nowait);
	if (ret == RW_CHUNK && count > RW_CHUNK && vfs_read_fills((int)fd)) {
		done = RW_CHUNK;
		while (done < count && !signal_pending_current()) {
			size_t n = MIN(count - done, RW_CHUNK);

			ret = read_once(fd, kbuf, buf + done, n, true);
			if (ret <= 0)
				break;
			done += (size_t)ret;
			if ((size_t)ret < n)
				break;
		}
		ret = (long)done;
	}
	kfree(kbuf);
	return ret;
}

/* The common small read straight through the stack's buffer; the rest by read_chunks. */
noinline long ksys_read(unsigned int fd, char __user *buf, size_t count)
{
	char kbuf[RW_STACK_CHUNK];

	if (count > RW_STACK_CHUNK)
		return read_chunks(fd, buf, count, false);
	if (!access_ok(buf, count))
		return rw_fault(fd, false);
	return read_once(fd, kbuf, buf, count, false);
}

long sys_read(unsigned int fd, char __user *buf, size_t count)
{
	return ksys_read(fd, buf, count);
}

/*
 * The vector, copied in whole and checked before any transfer, as Linux's import_iovec: a
 * length that does not fit a ssize_t is -EINVAL, a buffer that reaches the kernel half -EFAULT
 * (even for /dev/null, which would not look at it), and the lengths are cut so that the total
 * is at most MAX_RW_COUNT. Up to UIO_FASTIOV entries go in the caller's array on the stack, as
 * Linux's iovstack: the writev of a line (musl's stdio writes stderr with two) needs no memory,
 * so a program can still say that it ran out of it.
 */
static struct iovec *import_iovec(const void __user *vec, unsigned long vlen,
				  struct iovec fast[UIO_FASTIOV], long *err)
{
	struct iovec *iov = fast;
	size_t total = 0;

	*err = -EINVAL;
	if (vlen > UIO_MAXIOV)
		return NULL;
	*err = -ENOMEM;
	if (vlen > UIO_FASTIOV)
		iov = kmalloc(vlen * sizeof(*iov));
	if (!iov)
		return NULL;
	*err = copy_from_user(iov, vec, vlen * sizeof(*iov)) ? -EFAULT : 0;
	for (unsigned long i = 0; i < vlen && !*err; i++) {
		if ((long)iov[i].iov_len < 0)
			*err = -EINVAL;
		else if (!access_ok(iov[i].iov_base, iov[i].iov_len))
			*err = -EFAULT;
		iov[i].iov_len = MIN(iov[i].iov_len, MAX_RW_COUNT - total);
		total += iov[i].iov_len;
	}
	if (*err) {
		if (iov != fast)
			kfree(iov);
		return NULL;
	}
	return iov;
}

/*
 * readv and writev (pos NULL: at f_pos, moving it), preadv and pwritev (at *pos, f_pos left
 * alone): each buffer in turn, until a short transfer. At a position, Linux's order of errors:
 * a negative pos (EINVAL), then the descriptor (EBADF, ESPIPE: a pread or pwrite of nothing),
 * then the vector.
 */
static long do_readv_writev(bool write, unsigned long fd, const void __user *vec,
			    unsigned long vlen, const loff_t *pos)
{
	struct iovec iovstack[UIO_FASTIOV];
	long err, total = 0;
	char none = 0;

	if (pos) {
		if (*pos < 0)
			return -EINVAL;
		err = write ? vfs_pwrite((int)fd, &none, 0, *pos)
			    : vfs_pread((int)fd, &none, 0, *pos);
		if (err < 0)
			return err;
	}
	struct iovec *iov = import_iovec(vec, vlen, iovstack, &err);

	if (!iov)
		return err == -EFAULT ? rw_fault((unsigned int)fd, write) : err;
	if (!pos && sock_fd((int)fd)) { /* the buffers in one message, as Linux's sock_write_iter */
		total = sock_rw_iov((int)fd, iov, vlen, write, false);
		vlen = 0;
	}
	for (unsigned long i = 0; i < vlen; i++) {
		void __user *base = iov[i].iov_base;
		size_t len = iov[i].iov_len;
		long ret;

		if (!len)
			continue;
		/* Once some bytes are in, a read returns them rather than wait for more (Linux's
		 * pipe_read fills what it has across the iovecs and returns). */
		if (pos)
			ret = write ? ksys_pwrite64((unsigned int)fd, base, len, *pos + total)
				    : ksys_pread64((unsigned int)fd, base, len, *pos + total);
		else if (write)
			ret = ksys_write((unsigned int)fd, base, len);
		else if (total)
			ret = read_chunks((unsigned int)fd, base, len, true);
		else
			ret = ksys_read((unsigned int)fd, base, len);
		if (ret < 0) {
			if (!total)
				total = ret;
			break;
		}
		total += ret;
		if ((size_t)ret < len)
			break;
	}
	if (iov != iovstack)
		kfree(iov);
	return total;
}

long sys_readv(unsigned long fd, const void __user *vec, unsigned long vlen)
{
	return do_readv_writev(false, fd, vec, vlen, NULL);
}

long sys_writev(unsigned long fd, const void __user *vec, unsigned long vlen)
{
	return do_readv_writev(true, fd, vec, vlen, NULL);
}

/*
 * pread64 and pwrite64: a transfer at pos, f_pos left alone. ESPIPE on a pipe; EINVAL for a
 * negative pos (checked first, as Linux). A file read at positions never waits, so the chunks
 * follow one another as read_chunks's do: the whole count, up to the end of the file, a short
 * transfer or the end of the caller's buffer.
 */
long ksys_pread64(unsigned int fd, char __user *buf, size_t count, loff_t pos)
{
	size_t done = 0;
	long ret;
	char *kbuf;

	if (pos < 0)
		return -EINVAL;
	count = rw_verify_area(buf, count, &ret);
	if (ret)
		return rw_fault(fd, false);
	kbuf = kmalloc(RW_CHUNK);
	if (!kbuf)
		return -ENOMEM;
	do {
		size_t n = MIN(count - done, RW_CHUNK), left;

		ret = vfs_pread((int)fd, kbuf, n, pos + (loff_t)done);
		if (ret <= 0)
			break;
		left = copy_to_user(buf + done, kbuf, (size_t)ret);
		done += (size_t)ret - left;
		if (left) {
			ret = -EFAULT;
			break;
		}
		if ((size_t)ret < n)
			break;
	} while (done < count && !signal_pending_current());
	kfree(kbuf);
	return rw_result(done, ret);
}

long ksys_pwrite64(unsigned int fd, const char __user *buf, size_t count, loff_t pos)
{
	size_t done = 0;
	long ret;
	char *kbuf;

	if (pos < 0)
		return -EINVAL;
	count = rw_verify_area(buf, count, &ret);
	if (ret)
		return rw_fault(fd, true);
	if (vfs_write_ignores_data((int)fd))
		return vfs_pwrite((int)fd, NULL, count, pos);
	kbuf = kmalloc(RW_CHUNK);
	if (!kbuf)
		return -ENOMEM;
	do {
		size_t n = MIN(count - done, RW_CHUNK);
		size_t got = n - copy_from_user(kbuf, buf + done, n);

		ret = got ? vfs_pwrite((int)fd, kbuf, got, pos + (loff_t)done) : -EFAULT;
		if (ret <= 0)
			break;
		done += (size_t)ret;
		if ((size_t)ret < n)
			break;
	} while (done < count);
	kfree(kbuf);
	return rw_result(done, ret);
}

long sys_pread64(unsigned int fd, char __user *buf, size_t count, loff_t pos)
{
	return ksys_pread64(fd, buf, count, pos);
}

long sys_pwrite64(unsigned int fd, const char __user *buf, size_t count, loff_t pos)
{
	return ksys_pwrite64(fd, buf, count, pos);
}

/* x86_64 passes the whole offset in pos_l; pos_h is for the 32-bit ABIs (Linux's pos_from_hilo). */
long sys_preadv(unsigned long fd, const void __user *vec, unsigned long vlen, unsigned long pos_l,
		unsigned long pos_h)
{
	loff_t pos = (loff_t)pos_l;

	(void)pos_h;
	return do_readv_writev(false, fd, vec, vlen, &pos);
}

long sys_pwritev(unsigned long fd, const void __user *vec, unsigned long vlen, unsigned long pos_l,
		 unsigned long pos_h)
{
	loff_t pos = (loff_t)pos_l;

	(void)pos_h;
	return do_readv_writev(true, fd, vec, vlen, &pos);
}

/*
 * preadv2 and pwritev2: the same with RWF_* flags, and pos -1 for "at f_pos, moving it" (readv
 * and writev). RWF_HIPRI, RWF_DSYNC and RWF_SYNC change nothing here (no device to poll, no
 * cache to write back); RWF_NOWAIT and RWF_APPEND are not there yet, and say EOPNOTSUPP as
 * Linux's does for a flag a file does not support.
 */
#define RWF_HIPRI 0x01
#define RWF_DSYNC 0x02
#define RWF_SYNC 0x04

static long do_rw2(bool write, unsigned long fd, const void __user *vec, unsigned long vlen,
		   loff_t pos, int flags)
{
	if (flags & ~(RWF_HIPRI | RWF_DSYNC | RWF_SYNC))
		return -EOPNOTSUPP;
	return do_readv_writev(write, fd, vec, vlen, pos == -1 ? NULL : &pos);
}

long sys_preadv2(unsigned long fd, const void __user *vec, unsigned long vlen,
		 unsigned long pos_l, unsigned long pos_h, int flags)
{
	(void)pos_h;
	return do_rw2(false, fd, vec, vlen, (loff_t)pos_l, flags);
}

long sys_pwritev2(unsigned long fd, const void __user *vec, unsigned long vlen,
		  unsigned long pos_l, unsigned long pos_h, int flags)
{
	(void)pos_h;
	return do_rw2(true, fd, vec, vlen, (loff_t)pos_l, flags);
}

/*
 * sendfile: count bytes of in_fd, from *offset (which then moves, f_pos staying put) or from its
 * file position, written to out_fd. Linux splices them through the page cache; Lucid copies
 * through a kernel buffer, a chunk at a time, until count, the end of the file or a short
 * write. Linux's rules that programs see: in_fd must be a file read at positions (a pipe or a
 * directory there is EINVAL, and busybox cat then falls back to read and write), and an out_fd
 * opened O_APPEND is EINVAL.
 */
long sys_sendfile64(int out_fd, int in_fd, long __user *offset, size_t count)
{
	struct kstat st;
	loff_t pos;
	long done = 0, err;
	int fl = vfs_getfl(out_fd);
	char *kbuf;

	err = vfs_fstat(in_fd, &st);
	if (err)
		return err;
	if (fl < 0)
		return fl;
	if (!S_ISREG(st.mode) || (fl & O_APPEND))
		return -EINVAL;
	if (offset) {
		if (copy_from_user(&pos, offset, sizeof(pos)))
			return -EFAULT;
	} else {
		pos = vfs_lseek(in_fd, 0, SEEK_CUR);
	}
	if (pos < 0)
		return -EINVAL;
	kbuf = kmalloc(RW_CHUNK);
	if (!kbuf)
		return -ENOMEM;
	count = MIN(count, MAX_RW_COUNT);
	while ((size_t)done < count) {
		long n = vfs_pread(in_fd, kbuf, MIN(count - (size_t)done, RW_CHUNK), pos);

		if (n <= 0) {
			err = n;
			break;
		}
		long w = vfs_write(out_fd, kbuf, (size_t)n);
		if (w <= 0) {
			err = w;
			break;
		}
		done += w;
		pos += w;
		if (w < n)
			break;
	}
	kfree(kbuf);
	if (!offset)
		vfs_lseek(in_fd, pos, SEEK_SET); /* a regular file: cannot fail */
	else if (copy_to_user(offset, &pos, sizeof(pos)))
		return -EFAULT;
	return done ? done : err;
}

/* A device's own requests (the tty's termios, kernel/drivers/tty.c); any other file: ENOTTY, as
 * Linux answers a file that is not a terminal. */
long sys_ioctl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	return vfs_ioctl((int)fd, cmd, arg);
}
