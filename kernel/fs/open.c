/*
 * File system calls on paths and descriptors, over the VFS the kernel shell uses (Linux's
 * fs/open.c, fs/namei.c, fs/file.c and fs/pipe.c, their entry points): open, openat, close,
 * lseek, dup, dup2, dup3, pipe2, chdir, getcwd, mkdir, rmdir, unlink, rename, and the stat
 * family (fs/stat.c) with Linux's x86_64 struct stat.
 *
 * Paths come from user memory through getname(), which copies them in with
 * strncpy_from_user: a bad pointer is EFAULT, a path of PATH_MAX bytes or more ENAMETOOLONG,
 * an empty one ENOENT, as Linux. Relative paths are from the cwd (AT_FDCWD); a directory fd as
 * the base of the *at() calls is not supported yet: EBADF unless the path is absolute.
 */
#include "kernel/syscalls.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

#define AT_FDCWD (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EMPTY_PATH 0x1000
#define O_CLOEXEC 02000000 /* accepted: there is no execve from user space to close on yet */
#define STAT_BLKSIZE 4096
#define STAT_BLOCK 512 /* st_blocks counts 512-byte units */

/* Linux's struct stat on x86_64 (arch/x86/include/uapi/asm/stat.h): 144 bytes. */
struct stat {
	unsigned long st_dev, st_ino, st_nlink;
	unsigned int st_mode, st_uid, st_gid, __pad0;
	unsigned long st_rdev;
	long st_size, st_blksize, st_blocks;
	unsigned long st_atime, st_atime_nsec, st_mtime, st_mtime_nsec, st_ctime, st_ctime_nsec;
	long reserved[3];
};
_Static_assert(sizeof(struct stat) == 144, "struct stat is Linux's x86_64 layout");

/* A user path into a kmalloc'd buffer (putname frees it); NULL with *err on failure. */
static char *getname(const char __user *filename, long *err)
{
	char *name = kmalloc(PATH_MAX);
	long len;

	if (!name) {
		*err = -ENOMEM;
		return NULL;
	}
	len = strncpy_from_user(name, filename, PATH_MAX);
	if (len < 0 || len == PATH_MAX || len == 0) {
		*err = len < 0 ? len : len ? -ENAMETOOLONG : -ENOENT;
		kfree(name);
		return NULL;
	}
	return name;
}

static void putname(char *name)
{
	kfree(name);
}

/* The *at() calls: only the cwd, or any dirfd with an absolute path, as the VFS walks. */
static bool dirfd_ok(int dfd, const char *name)
{
	return dfd == AT_FDCWD || name[0] == '/';
}

long sys_openat(int dfd, const char __user *filename, int flags, umode_t mode)
{
	long err;
	char *name = getname(filename, &err);

	if (!name)
		return err;
	err = dirfd_ok(dfd, name) ? vfs_open(name, flags & ~O_CLOEXEC, mode) : -EBADF;
	putname(name);
	return err;
}

long sys_open(const char __user *filename, int flags, umode_t mode)
{
	return sys_openat(AT_FDCWD, filename, flags, mode);
}

long sys_close(unsigned int fd)
{
	return vfs_close((int)fd);
}

long sys_lseek(unsigned int fd, long offset, unsigned int whence)
{
	return vfs_lseek((int)fd, offset, (int)whence);
}

long sys_dup(unsigned int fildes)
{
	return vfs_dup((int)fildes);
}

long sys_dup2(unsigned int oldfd, unsigned int newfd)
{
	return vfs_dup2((int)oldfd, (int)newfd);
}

long sys_dup3(unsigned int oldfd, unsigned int newfd, int flags)
{
	if ((flags & ~O_CLOEXEC) || oldfd == newfd)
		return -EINVAL;
	return vfs_dup2((int)oldfd, (int)newfd);
}

long sys_pipe2(int __user *fildes, int flags)
{
	int fds[2];
	int err;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	err = vfs_pipe(fds);
	if (err)
		return err;
	if (copy_to_user(fildes, fds, sizeof(fds))) {
		vfs_close(fds[0]);
		vfs_close(fds[1]);
		return -EFAULT;
	}
	return 0;
}

long sys_pipe(int __user *fildes)
{
	return sys_pipe2(fildes, 0);
}

/* One path argument, then vfs_fn on it. */
static long path_call(const char __user *pathname, int (*vfs_fn)(const char *))
{
	long err;
	char *name = getname(pathname, &err);

	if (!name)
		return err;
	err = vfs_fn(name);
	putname(name);
	return err;
}

long sys_chdir(const char __user *filename)
{
	return path_call(filename, vfs_chdir);
}

long sys_rmdir(const char __user *pathname)
{
	return path_call(pathname, vfs_rmdir);
}

long sys_unlink(const char __user *pathname)
{
	return path_call(pathname, vfs_unlink);
}

long sys_mkdir(const char __user *pathname, umode_t mode)
{
	long err;
	char *name = getname(pathname, &err);

	if (!name)
		return err;
	err = vfs_mkdir(name, mode);
	putname(name);
	return err;
}

long sys_rename(const char __user *oldname, const char __user *newname)
{
	long err;
	char *from = getname(oldname, &err), *to;

	if (!from)
		return err;
	to = getname(newname, &err);
	if (to) {
		err = vfs_rename(from, to);
		putname(to);
	}
	putname(from);
	return err;
}

/* Linux's getcwd returns the length with the NUL; ERANGE if it does not fit. */
long sys_getcwd(char __user *buf, unsigned long size)
{
	char *kbuf = kmalloc(PATH_MAX);
	long len;

	if (!kbuf)
		return -ENOMEM;
	len = vfs_getcwd(kbuf, PATH_MAX);
	if (len >= 0) {
		if ((unsigned long)len + 1 > size)
			len = -ERANGE;
		else if (copy_to_user(buf, kbuf, (unsigned long)len + 1))
			len = -EFAULT;
		else
			len++;
	}
	kfree(kbuf);
	return len;
}

static long cp_new_stat(const struct kstat *k, struct stat __user *statbuf)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	st.st_ino = k->ino;
	st.st_nlink = k->nlink;
	st.st_mode = k->mode;
	st.st_size = k->size;
	st.st_blksize = STAT_BLKSIZE;
	st.st_blocks = (k->size + STAT_BLOCK - 1) / STAT_BLOCK;
	return copy_to_user(statbuf, &st, sizeof(st)) ? -EFAULT : 0;
}

long sys_newfstat(unsigned int fd, struct stat __user *statbuf)
{
	struct kstat k;
	int err = vfs_fstat((int)fd, &k);

	return err ? err : cp_new_stat(&k, statbuf);
}

long sys_newfstatat(int dfd, const char __user *filename, struct stat __user *statbuf, int flag)
{
	struct kstat k;
	long err;
	char *name;

	if (flag & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	name = getname(filename, &err);
	if (!name) {
		if (err == -ENOENT && (flag & AT_EMPTY_PATH))
			return sys_newfstat((unsigned int)dfd, statbuf);
		return err;
	}
	/* No symbolic links in Lucid's file systems: lstat is stat. */
	err = dirfd_ok(dfd, name) ? vfs_stat(name, &k) : -EBADF;
	putname(name);
	return err ? err : cp_new_stat(&k, statbuf);
}

long sys_newstat(const char __user *filename, struct stat __user *statbuf)
{
	return sys_newfstatat(AT_FDCWD, filename, statbuf, 0);
}

long sys_newlstat(const char __user *filename, struct stat __user *statbuf)
{
	return sys_newfstatat(AT_FDCWD, filename, statbuf, AT_SYMLINK_NOFOLLOW);
}

/*
 * fcntl: duplicating (F_DUPFD, F_DUPFD_CLOEXEC) and the descriptor flags. FD_CLOEXEC is
 * accepted and not kept: nothing execs from user space yet, so there is nothing to close on.
 * The file status flags (F_GETFL/F_SETFL) need the VFS to keep them: EINVAL until then.
 */
#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_DUPFD_CLOEXEC 1030

long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	struct kstat st;
	int err = vfs_fstat((int)fd, &st);

	if (err)
		return err;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if (arg >= NR_OPEN_DEFAULT)
			return -EINVAL;
		for (int newfd = (int)arg; newfd < NR_OPEN_DEFAULT; newfd++)
			if (vfs_fstat(newfd, &st) == -EBADF)
				return vfs_dup2((int)fd, newfd);
		return -EMFILE;
	case F_GETFD:
		return 0;
	case F_SETFD:
		return 0;
	default:
		return -EINVAL;
	}
}
