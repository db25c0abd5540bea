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
#include "kernel/mm/kmalloc.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"

#define RW_CHUNK 4096 /* the bounce buffer: larger transfers go a chunk at a time */
#define RW_STACK_CHUNK 256 /* transfers up to this size bounce on the stack (16 KiB deep) */
#define UIO_MAXIOV 1024 /* Linux's limit on iovecs per call */

struct iovec {
	void __user *iov_base;
	size_t iov_len;
};

/* The bounce buffer for count bytes: stack_buf if they fit, else a chunk (NULL: no memory). */
static inline char *rw_buf_get(char *stack_buf, size_t count, size_t *chunk)
{
	if (count <= RW_STACK_CHUNK) {
		*chunk = RW_STACK_CHUNK;
		return stack_buf;
	}
	*chunk = RW_CHUNK;
	return kmalloc(RW_CHUNK);
}

static inline void rw_buf_put(char *kbuf, char *stack_buf)
{
	if (kbuf != stack_buf)
		kfree(kbuf);
}

/*
 * A write larger than the stack's bounce buffer: chunk by chunk through an allocated one.
 * notrace: a detail of ksys_write, so that traces read ksys_write -> vfs_write, as Linux's.
 */
static noinline notrace long ksys_write_chunks(unsigned int fd, const char __user *buf,
					       size_t count)
{
	size_t done = 0;
	char *kbuf = kmalloc(RW_CHUNK);

	if (!kbuf)
		return -ENOMEM;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	do {
		size_t n = MIN(count - done, RW_CHUNK);
		long ret;

		if (copy_from_user(kbuf, buf + done, n)) {
			ret = -EFAULT;
		} else {
			ret = vfs_write((int)fd, kbuf, n);
		}
		if (ret < 0) {
			kfree(kbuf);
			return done ? (long)done : ret;
		}
		done += (size_t)ret;
		if ((size_t)ret < n)
			break; /* a short write (a full pipe whose reader left...): say so */
	} while (done < count);
	kfree(kbuf);
	return (long)done;
}

noinline long ksys_write(unsigned int fd, const char __user *buf, size_t count)
{
	char kbuf[RW_STACK_CHUNK];

	if (count > RW_STACK_CHUNK)
		return ksys_write_chunks(fd, buf, count);
	if (copy_from_user(kbuf, buf, count))
		return -EFAULT;
	return vfs_write((int)fd, kbuf, count);
}

long sys_write(unsigned int fd, const char __user *buf, size_t count)
{
	return ksys_write(fd, buf, count);
}

/*
 * One read, at most a chunk: a read may always return fewer bytes than asked. nowait: never
 * wait for data (-EAGAIN instead), as readv's later iovecs must not. notrace: a detail of
 * ksys_read and readv, so that traces read ksys_read -> vfs_read, as Linux's.
 */
static noinline notrace long read_chunk(unsigned int fd, char __user *buf, size_t count,
					bool nowait)
{
	char stack_buf[RW_STACK_CHUNK];
	size_t chunk;
	char *kbuf;
	long ret;

	if (!access_ok(buf, count))
		return -EFAULT;
	kbuf = rw_buf_get(stack_buf, count, &chunk);
	if (!kbuf)
		return -ENOMEM;
	ret = nowait ? vfs_read_nowait((int)fd, kbuf, MIN(count, chunk))
		     : vfs_read((int)fd, kbuf, MIN(count, chunk));
	if (ret > 0 && copy_to_user(buf, kbuf, (size_t)ret))
		ret = -EFAULT;
	rw_buf_put(kbuf, stack_buf);
	return ret;
}

/*
 * A read of more than a chunk. From a pipe or a file that never waits, Linux returns all the
 * bytes there are, up to count: after the first chunk the rest follow without waiting, until
 * one comes up short (vfs_read_fills). Others (the console, trace_pipe) give a chunk a read,
 * as Linux's give a line or a page.
 */
static noinline notrace long read_chunks(unsigned int fd, char __user *buf, size_t count)
{
	long ret = read_chunk(fd, buf, count, false);
	size_t done = ret > 0 ? (size_t)ret : 0;

	if (done != RW_CHUNK || count <= RW_CHUNK || !vfs_read_fills((int)fd))
		return ret;
	while (done < count) {
		size_t n = MIN(count - done, RW_CHUNK);

		ret = read_chunk(fd, buf + done, n, true);
		if (ret <= 0)
			break;
		done += (size_t)ret;
		if ((size_t)ret < n)
			break;
	}
	return (long)done;
}

/* The common small read straight through the stack's buffer; the rest by read_chunks. */
noinline long ksys_read(unsigned int fd, char __user *buf, size_t count)
{
	char kbuf[RW_STACK_CHUNK];
	long ret;

	if (count > RW_STACK_CHUNK)
		return read_chunks(fd, buf, count);
	if (!access_ok(buf, count))
		return -EFAULT;
	ret = vfs_read((int)fd, kbuf, count);
	if (ret > 0 && copy_to_user(buf, kbuf, (size_t)ret))
		ret = -EFAULT;
	return ret;
}

long sys_read(unsigned int fd, char __user *buf, size_t count)
{
	return ksys_read(fd, buf, count);
}

/* The vector, copied in whole before any transfer, as Linux's import_iovec. */
static struct iovec *import_iovec(const void __user *vec, unsigned long vlen, long *err)
{
	struct iovec *iov;

	*err = -EINVAL;
	if (vlen > UIO_MAXIOV)
		return NULL;
	*err = -ENOMEM;
	iov = kmalloc(vlen ? vlen * sizeof(*iov) : 1);
	if (!iov)
		return NULL;
	if (copy_from_user(iov, vec, vlen * sizeof(*iov))) {
		kfree(iov);
		*err = -EFAULT;
		return NULL;
	}
	return iov;
}

static long do_readv_writev(bool write, unsigned long fd, const void __user *vec,
			    unsigned long vlen)
{
	long err, total = 0;
	struct iovec *iov = import_iovec(vec, vlen, &err);

	if (!iov)
		return err;
	for (unsigned long i = 0; i < vlen; i++) {
		long ret;

		if (!iov[i].iov_len)
			continue;
		/* Once some bytes are in, a read returns them rather than wait for more (Linux's
		 * pipe_read fills what it has across the iovecs and returns). */
		if (write)
			ret = ksys_write((unsigned int)fd, iov[i].iov_base, iov[i].iov_len);
		else if (total)
			ret = read_chunk((unsigned int)fd, iov[i].iov_base, iov[i].iov_len, true);
		else
			ret = ksys_read((unsigned int)fd, iov[i].iov_base, iov[i].iov_len);
		if (ret < 0) {
			if (!total)
				total = ret;
			break;
		}
		total += ret;
		if ((size_t)ret < iov[i].iov_len)
			break;
	}
	kfree(iov);
	return total;
}

long sys_readv(unsigned long fd, const void __user *vec, unsigned long vlen)
{
	return do_readv_writev(false, fd, vec, vlen);
}

long sys_writev(unsigned long fd, const void __user *vec, unsigned long vlen)
{
	return do_readv_writev(true, fd, vec, vlen);
}

/*
 * pread64 and pwrite64: one transfer at pos (at most a chunk, as read), f_pos left alone.
 * ESPIPE on a pipe; EINVAL for a negative pos (checked first, as Linux).
 */
long ksys_pread64(unsigned int fd, char __user *buf, size_t count, loff_t pos)
{
	char *kbuf;
	long ret;

	if (pos < 0)
		return -EINVAL;
	if (!access_ok(buf, count))
		return -EFAULT;
	kbuf = kmalloc(RW_CHUNK);
	if (!kbuf)
		return -ENOMEM;
	ret = vfs_pread((int)fd, kbuf, MIN(count, RW_CHUNK), pos);
	if (ret > 0 && copy_to_user(buf, kbuf, (size_t)ret))
		ret = -EFAULT;
	kfree(kbuf);
	return ret;
}

long ksys_pwrite64(unsigned int fd, const char __user *buf, size_t count, loff_t pos)
{
	char *kbuf;
	long ret;

	if (pos < 0)
		return -EINVAL;
	kbuf = kmalloc(RW_CHUNK);
	if (!kbuf)
		return -ENOMEM;
	count = MIN(count, RW_CHUNK);
	ret = copy_from_user(kbuf, buf, count) ? -EFAULT : vfs_pwrite((int)fd, kbuf, count, pos);
	kfree(kbuf);
	return ret;
}

long sys_pread64(unsigned int fd, char __user *buf, size_t count, loff_t pos)
{
	return ksys_pread64(fd, buf, count, pos);
}

long sys_pwrite64(unsigned int fd, const char __user *buf, size_t count, loff_t pos)
{
	return ksys_pwrite64(fd, buf, count, pos);
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
