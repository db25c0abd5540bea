/*
 * memfd_create and file seals (Linux's mm/memfd.c): an anonymous regular file in memory, for a
 * program to fill and hand to another (over a socket, or by fork) as a descriptor, and the seals
 * that let the receiver trust it: once F_SEAL_WRITE is on, nobody can change the bytes again.
 *
 * The file is a ramfs file (kernel/fs/ramfs.c: pages in the inode's page cache) that no
 * directory names: read, write, lseek, ftruncate, fstat and mmap are ramfs's, and
 * /proc/PID/fd shows "/memfd:NAME (deleted)", as Linux's shmem file does. Its memory goes with
 * its last descriptor (and the last mapping of its pages).
 *
 * Seals (fcntl F_ADD_SEALS, F_GET_SEALS) are bits on the inode that only ever get added:
 *   F_SEAL_SHRINK  no ftruncate to a smaller size
 *   F_SEAL_GROW    no ftruncate to a larger size, no write past the end
 *   F_SEAL_WRITE, F_SEAL_FUTURE_WRITE  no write at all
 *   F_SEAL_SEAL    no more seals
 * A memfd made without MFD_ALLOW_SEALING starts with F_SEAL_SEAL. A write that would grow a
 * file sealed against growing stops, as Linux's page by page, at the last page boundary it may
 * reach (EPERM if that is no byte). A writable MAP_SHARED mapping of a sealed file is EPERM,
 * and F_SEAL_WRITE on a file mapped shared from a descriptor open for writing is EBUSY (Linux
 * 6.1's rule: even a PROT_READ one). Everything runs under the VFS lock.
 */
#include "kernel/fs/anon_inodes.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/filemap.h"
#include "kernel/syscalls.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

#define MFD_CLOEXEC 0x0001U
#define MFD_ALLOW_SEALING 0x0002U
#define MFD_HUGETLB 0x0004U
#define MFD_ALL_FLAGS (MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_HUGETLB)
#define MFD_NAME_PREFIX "memfd:"
#define MFD_NAME_MAX_LEN (NAME_MAX - (sizeof(MFD_NAME_PREFIX) - 1)) /* 249, as Linux's */
#define MEMFD_MODE (S_IFREG | 0777) /* shmem_file_setup's S_IRWXUGO */

#define F_SEAL_SEAL 0x0001
#define F_SEAL_SHRINK 0x0002
#define F_SEAL_GROW 0x0004
#define F_SEAL_WRITE 0x0008
#define F_SEAL_FUTURE_WRITE 0x0010
#define F_ALL_SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)

static const struct file_operations memfd_fops;

/* The seals: in i_private, kept in the pointer itself (no allocation to free). */
static unsigned int *seals_ptr(struct inode *inode)
{
	return (unsigned int *)&inode->i_private;
}

static unsigned int memfd_seals(struct inode *inode)
{
	return *seals_ptr(inode);
}

static ssize_t memfd_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct inode *inode = file_inode(file);
	unsigned int seals = memfd_seals(inode);

	if (file->f_flags & O_APPEND)
		*pos = inode->i_size;
	if (count && (seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)))
		return -EPERM;
	if (count && (seals & F_SEAL_GROW) && *pos + (loff_t)count > inode->i_size) {
		/* Linux writes a page at a time and stops at the first that would grow it. */
		loff_t limit = inode->i_size / (loff_t)PAGE_CACHE_SIZE * (loff_t)PAGE_CACHE_SIZE;

		if (limit <= *pos)
			return -EPERM;
		count = (size_t)(limit - *pos);
	}
	return ramfs_write(file, buf, count, pos);
}

static int memfd_truncate(struct inode *inode, loff_t size)
{
	unsigned int seals = memfd_seals(inode);

	if ((size < inode->i_size && (seals & F_SEAL_SHRINK)) ||
	    (size > inode->i_size && (seals & F_SEAL_GROW)))
		return -EPERM;
	return ramfs_truncate(inode, size);
}

static const struct inode_operations memfd_inode_ops = {
	.truncate = memfd_truncate,
};

/*
 * A writable shared mapping of a file sealed against writing is EPERM, as Linux's (its
 * mapping_map_writable and seal_check_future_write).
 */
static int memfd_mmap_shared(struct file *file, loff_t off, size_t len, bool write)
{
	if (write && (memfd_seals(file_inode(file)) & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)))
		return -EPERM;
	return ramfs_mmap_shared(file, off, len, write);
}

static const struct file_operations memfd_fops = {
	.read = ramfs_read,
	.write = memfd_write,
	.llseek = default_llseek,
	.may_mmap = true,
	.mmap_pages = ramfs_mmap_pages,
	.mmap_shared = memfd_mmap_shared,
};

long sys_memfd_create(const char __user *uname, unsigned int flags)
{
	char name[sizeof(MFD_NAME_PREFIX) + MFD_NAME_MAX_LEN + sizeof(" (deleted)") + 1];
	char uname_k[MFD_NAME_MAX_LEN + 2];
	struct inode *inode;
	long len;
	int fd;

	if (flags & ~MFD_ALL_FLAGS)
		return -EINVAL;
	len = strncpy_from_user(uname_k, uname, (long)sizeof(uname_k));
	if (len < 0)
		return -EFAULT;
	if ((size_t)len > MFD_NAME_MAX_LEN)
		return -EINVAL; /* Linux: the name and its NUL must fit 250 bytes */
	if (flags & MFD_HUGETLB)
		return -ENOSYS; /* no huge pages: Linux's answer without CONFIG_HUGETLBFS */
	uname_k[len] = '\0';
	/* What /proc/PID/fd shows: Linux's d_path of the shmem file, which is in no directory. */
	snprintf(name, sizeof(name), "/" MFD_NAME_PREFIX "%s (deleted)", uname_k);
	inode = new_inode(MEMFD_MODE);
	if (!inode)
		return -ENOMEM;
	inode->i_op = &memfd_inode_ops;
	inode->i_fop = &memfd_fops; /* reopened through /proc/PID/fd/N: the same file again */
	*seals_ptr(inode) = (flags & MFD_ALLOW_SEALING) ? 0 : F_SEAL_SEAL;
	fd = pseudo_file_fd(inode, name, &memfd_fops, NULL, O_RDWR | O_LARGEFILE,
			    flags & MFD_CLOEXEC);
	if (fd < 0) {
		kfree(inode);
		return fd;
	}
	vfs_lock();
	struct file *file = fget(fd);

	if (file)
		file->f_path.dentry->d_unlinked = true; /* no name: stat's st_nlink 0, as Linux's */
	vfs_unlock();
	return fd;
}

/* fcntl's F_ADD_SEALS and F_GET_SEALS, Linux's memfd_fcntl: EINVAL for a file not a memfd. */
long memfd_fcntl(int fd, unsigned int cmd, unsigned long arg)
{
	struct file *file;
	long err;

	vfs_lock();
	file = fget(fd);
	err = -EBADF;
	if (!file)
		goto out;
	if (cmd == F_ADD_SEALS) {
		unsigned int seals = (unsigned int)arg;

		err = -EPERM;
		if (!(file->f_mode & FMODE_WRITE))
			goto out;
		err = -EINVAL;
		if ((seals & ~(unsigned int)F_ALL_SEALS) || file->f_op != &memfd_fops)
			goto out;
		err = -EPERM;
		if (memfd_seals(file_inode(file)) & F_SEAL_SEAL)
			goto out;
		err = -EBUSY; /* a write through a mapping could not be stopped */
		if ((seals & F_SEAL_WRITE) && mapping_writably_mapped(file_inode(file)))
			goto out;
		*seals_ptr(file_inode(file)) |= seals;
		err = 0;
	} else {
		err = file->f_op == &memfd_fops ? (long)memfd_seals(file_inode(file)) : -EINVAL;
	}
out:
	vfs_unlock();
	return err;
}
