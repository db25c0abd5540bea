/*
 * File system calls on paths and descriptors, over the VFS the kernel shell uses (Linux's
 * fs/open.c, fs/namei.c, fs/file.c and fs/pipe.c, their entry points): open, openat, close,
 * lseek, dup, dup2, dup3, pipe2, chdir, getcwd, mkdir(at), rmdir, unlink(at), rename(at, at2),
 * umask, fcntl, chown (to root only), and the stat family (fs/stat.c) with Linux's x86_64
 * struct stat.
 *
 * Paths come from user memory through getname(), which copies them in with
 * strncpy_from_user: a bad pointer is EFAULT, a path of PATH_MAX bytes or more ENAMETOOLONG,
 * an empty one ENOENT, as Linux. Relative paths are from the cwd (AT_FDCWD) or, for the *at()
 * calls, from the directory open at dfd: getname_at() puts that directory's absolute name in
 * front (the VFS walks from / or the cwd only). So a dfd whose directory was removed gives
 * ENOENT where Linux would still walk from it; nothing else differs.
 */
#include "kernel/syscalls.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

#define AT_FDCWD (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_REMOVEDIR 0x200
#define AT_EACCESS 0x200 /* faccessat2's meaning of the same bit */
#define AT_EMPTY_PATH 0x1000
#define RENAME_NOREPLACE 0x1
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

/*
 * Paths shorter than this are copied to the stack first and then into a small kmalloc'd
 * buffer of their own size: a PATH_MAX buffer is a whole page from alloc_pages, which cost an
 * open of /init about a third of its instructions (docs/design/syscall-cost.md). Linux keeps
 * short names inside its struct filename for the same reason.
 */
#define GETNAME_SHORT 128

/* A user path into a kmalloc'd buffer (putname frees it); NULL with *err on failure. */
static char *getname(const char __user *filename, long *err)
{
	char short_name[GETNAME_SHORT];
	char *name;
	long len = strncpy_from_user(short_name, filename, GETNAME_SHORT);

	if (len > 0 && len < GETNAME_SHORT) {
		name = kmalloc((size_t)len + 1);
		if (!name) {
			*err = -ENOMEM;
			return NULL;
		}
		memcpy(name, short_name, (size_t)len + 1);
		return name;
	}
	if (len <= 0) {
		*err = len < 0 ? len : -ENOENT;
		return NULL;
	}
	name = kmalloc(PATH_MAX); /* a long one: copied again, whole */
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

/*
 * A user path for an *at() call: as getname(), and a relative name is made absolute from the
 * directory open at dfd (EBADF if none, ENOTDIR if not a directory), unless dfd is AT_FDCWD.
 */
static char *getname_at(int dfd, const char __user *filename, long *err)
{
	char *name = getname(filename, err), *full;
	size_t dlen, nlen;
	int ret;

	if (!name || dfd == AT_FDCWD || name[0] == '/')
		return name;
	full = kmalloc(PATH_MAX);
	if (!full) {
		putname(name);
		*err = -ENOMEM;
		return NULL;
	}
	ret = vfs_fd_dirpath(dfd, full, PATH_MAX);
	dlen = ret < 0 ? 0 : strlen(full);
	nlen = strlen(name);
	if (ret >= 0 && dlen + 1 + nlen >= PATH_MAX)
		ret = -ENAMETOOLONG;
	if (ret < 0) {
		kfree(full);
		putname(name);
		*err = ret;
		return NULL;
	}
	if (full[dlen - 1] != '/')
		full[dlen++] = '/';
	memcpy(full + dlen, name, nlen + 1);
	putname(name);
	return full;
}

static umode_t current_umask(void)
{
	return current_fs()->umask;
}

long sys_openat(int dfd, const char __user *filename, int flags, umode_t mode)
{
	long err;
	char *name = getname_at(dfd, filename, &err);

	if (!name)
		return err;
	if (flags & O_CREAT)
		mode &= ~current_umask();
	/* 64-bit Linux opens every file O_LARGEFILE (force_o_largefile): F_GETFL shows it. */
	err = vfs_open(name, flags | O_LARGEFILE, mode);
	putname(name);
	return err;
}

/* openat2's argument (Linux's struct open_how): 24 bytes in its first version. */
struct open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};

#define OPEN_HOW_SIZE_VER0 24
#define OPEN_HOW_SIZE_MAX 4096 /* Linux's PAGE_SIZE bound: more is E2BIG */
#define O_DSYNC 00010000
#define FASYNC 00020000
#define O_DIRECT 00040000
#define O_NOATIME 01000000
#define O_PATH 010000000
#define __O_SYNC 04000000
#define __O_TMPFILE 020000000
/* What openat2 accepts (Linux's VALID_OPEN_FLAGS); openat ignores the rest, openat2 refuses. */
#define VALID_OPEN_FLAGS                                                                        \
	(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | O_NONBLOCK | __O_SYNC | \
	 O_DSYNC | FASYNC | O_DIRECT | O_LARGEFILE | O_DIRECTORY | O_NOFOLLOW | O_NOATIME |     \
	 O_CLOEXEC | O_PATH | __O_TMPFILE)
#define VALID_RESOLVE_FLAGS                                                                \
	(RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | \
	 RESOLVE_IN_ROOT | RESOLVE_CACHED)
#define S_IALLUGO 07777

/*
 * openat2 (Linux 5.6): openat with an extensible struct, strict about what it is given
 * (unknown flags, a mode without O_CREAT, unknown resolve bits: EINVAL), and the RESOLVE_*
 * rules for the lookup (kernel/fs/namei.c's walk_scope). The struct may be larger than Lucid
 * knows if the rest is zero (Linux's copy_struct_from_user; E2BIG otherwise). RESOLVE_CACHED:
 * Lucid's dentries are all in memory, so only a create or truncate is EAGAIN, as Linux's.
 */
long sys_openat2(int dfd, const char __user *filename, struct open_how __user *uhow, size_t usize)
{
	struct open_how how = {0};
	long err;
	char *name;

	if (usize < OPEN_HOW_SIZE_VER0)
		return -EINVAL;
	if (usize > OPEN_HOW_SIZE_MAX)
		return -E2BIG;
	if (copy_from_user(&how, uhow, MIN(usize, sizeof(how))))
		return -EFAULT;
	for (size_t i = sizeof(how); i < usize; i++) {
		char c;

		if (copy_from_user(&c, (const char __user *)uhow + i, 1))
			return -EFAULT;
		if (c)
			return -E2BIG;
	}
	if (how.flags & ~(uint64_t)VALID_OPEN_FLAGS)
		return -EINVAL;
	if (how.resolve & ~(uint64_t)VALID_RESOLVE_FLAGS)
		return -EINVAL;
	if ((how.resolve & RESOLVE_BENEATH) && (how.resolve & RESOLVE_IN_ROOT))
		return -EINVAL;
	if (how.flags & (O_CREAT | __O_TMPFILE)) {
		if (how.mode & ~(uint64_t)S_IALLUGO)
			return -EINVAL;
	} else if (how.mode) {
		return -EINVAL;
	}
	if ((how.resolve & RESOLVE_CACHED) && (how.flags & (O_TRUNC | O_CREAT | __O_TMPFILE)))
		return -EAGAIN;
	name = getname(filename, &err);
	if (!name)
		return err;
	umode_t mode = (umode_t)how.mode;

	if (how.flags & O_CREAT)
		mode &= ~current_umask();
	err = vfs_openat2(dfd, name, (int)how.flags | O_LARGEFILE, mode, (unsigned int)how.resolve);
	putname(name);
	return err;
}

long sys_open(const char __user *filename, int flags, umode_t mode)
{
	return sys_openat(AT_FDCWD, filename, flags, mode);
}

/* The oldest way to make a file, which glibc's creat() still calls on x86_64 (rtla's -t). */
long sys_creat(const char __user *pathname, umode_t mode)
{
	return sys_open(pathname, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

long sys_close(unsigned int fd)
{
	return vfs_close((int)fd);
}

long sys_close_range(unsigned int fd, unsigned int max_fd, unsigned int flags)
{
	return vfs_close_range(fd, max_fd, flags);
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
	long ret;

	if ((flags & ~O_CLOEXEC) || oldfd == newfd)
		return -EINVAL;
	ret = vfs_dup2((int)oldfd, (int)newfd);
	if (ret >= 0 && (flags & O_CLOEXEC))
		vfs_set_cloexec((int)ret, true);
	return ret;
}

long sys_pipe2(int __user *fildes, int flags)
{
	int fds[2];
	int err;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	err = vfs_pipe2(fds, flags);
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

long sys_fchdir(unsigned int fd)
{
	return vfs_fchdir((int)fd);
}

long sys_unlinkat(int dfd, const char __user *pathname, int flag)
{
	long err;
	char *name;

	if (flag & ~AT_REMOVEDIR)
		return -EINVAL;
	name = getname_at(dfd, pathname, &err);
	if (!name)
		return err;
	err = flag & AT_REMOVEDIR ? vfs_rmdir(name) : vfs_unlink(name);
	putname(name);
	return err;
}

long sys_rmdir(const char __user *pathname)
{
	return sys_unlinkat(AT_FDCWD, pathname, AT_REMOVEDIR);
}

long sys_unlink(const char __user *pathname)
{
	return sys_unlinkat(AT_FDCWD, pathname, 0);
}

long sys_mkdirat(int dfd, const char __user *pathname, umode_t mode)
{
	long err;
	char *name = getname_at(dfd, pathname, &err);

	if (!name)
		return err;
	err = vfs_mkdir(name, mode & ~current_umask());
	putname(name);
	return err;
}

/*
 * mknodat: a FIFO, a regular file (type 0 too), or a device or socket node. Linux's may_mknod
 * first: a directory is EPERM, an unknown type EINVAL. Lucid has no device numbers: a device
 * node is made, but opening it is ENXIO, as Linux's for a number no driver has.
 */
long sys_mknodat(int dfd, const char __user *filename, umode_t mode, unsigned int dev)
{
	long err;
	char *name;

	(void)dev;
	switch (mode & S_IFMT) {
	case 0:
		mode |= S_IFREG;
		break;
	case S_IFREG:
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
	case S_IFSOCK:
		break;
	case S_IFDIR:
		return -EPERM;
	default:
		return -EINVAL;
	}
	name = getname_at(dfd, filename, &err);
	if (!name)
		return err;
	err = vfs_mknod_user(name, (mode & S_IFMT) | (mode & ~S_IFMT & ~current_umask()));
	putname(name);
	return err;
}

long sys_mknod(const char __user *filename, umode_t mode, unsigned int dev)
{
	return sys_mknodat(AT_FDCWD, filename, mode, dev);
}

long sys_mkdir(const char __user *pathname, umode_t mode)
{
	return sys_mkdirat(AT_FDCWD, pathname, mode);
}

/*
 * renameat2's flags: RENAME_NOREPLACE fails with EEXIST if the new name exists (checked under
 * no lock, which is safe while a process is one thread and the shell does not race it);
 * RENAME_EXCHANGE and RENAME_WHITEOUT are not in Lucid's VFS: EINVAL.
 */
long sys_renameat2(int olddfd, const char __user *oldname, int newdfd, const char __user *newname,
		   unsigned int flags)
{
	struct kstat st;
	long err;
	char *from, *to;

	if (flags & ~RENAME_NOREPLACE)
		return -EINVAL;
	from = getname_at(olddfd, oldname, &err);
	if (!from)
		return err;
	to = getname_at(newdfd, newname, &err);
	if (to) {
		if ((flags & RENAME_NOREPLACE) && vfs_stat(to, &st) == 0)
			err = vfs_stat(from, &st) ? -ENOENT : -EEXIST;
		else
			err = vfs_rename(from, to);
		putname(to);
	}
	putname(from);
	return err;
}

long sys_renameat(int olddfd, const char __user *oldname, int newdfd, const char __user *newname)
{
	return sys_renameat2(olddfd, oldname, newdfd, newname, 0);
}

long sys_rename(const char __user *oldname, const char __user *newname)
{
	return sys_renameat2(AT_FDCWD, oldname, AT_FDCWD, newname, 0);
}

long sys_fchmodat(int dfd, const char __user *filename, umode_t mode)
{
	long err;
	char *name = getname_at(dfd, filename, &err);

	if (!name)
		return err;
	err = vfs_chmod(name, mode);
	putname(name);
	return err;
}

long sys_chmod(const char __user *filename, umode_t mode)
{
	return sys_fchmodat(AT_FDCWD, filename, mode);
}

long sys_fchmod(unsigned int fd, umode_t mode)
{
	return vfs_fchmod((int)fd, mode);
}

/*
 * What (dfd, filename, flag) names, stat'ed, for the *at() calls that look at a file: the link
 * itself with AT_SYMLINK_NOFOLLOW; with AT_EMPTY_PATH and an empty name, the file open at dfd.
 */
static long vfs_statat(int dfd, const char __user *filename, int flag, struct kstat *k)
{
	long err;
	char *name;

	if (flag & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	name = getname_at(dfd, filename, &err);
	if (!name) {
		if (err == -ENOENT && (flag & AT_EMPTY_PATH) && dfd != AT_FDCWD)
			return vfs_fstat(dfd, k);
		return err;
	}
	err = flag & AT_SYMLINK_NOFOLLOW ? vfs_lstat(name, k) : vfs_stat(name, k);
	putname(name);
	return err;
}

/*
 * chown, fchown, lchown, fchownat. Lucid keeps no owner per file: every file is root's (stat
 * says uid 0, gid 0), and root is the only user. A chown that leaves the owner root's (0, or -1
 * for "unchanged") changes nothing and succeeds, as on Linux; bash does that to its history
 * file when it exits. One to another user could not be kept: EPERM, as for a process without
 * CAP_CHOWN, rather than a success that stat would then contradict. The file must exist.
 */
#define CHOWN_UNCHANGED ((unsigned int)-1)

static long chown_result(long err, unsigned int user, unsigned int group)
{
	bool to_root =
		(user == 0 || user == CHOWN_UNCHANGED) && (group == 0 || group == CHOWN_UNCHANGED);

	if (err)
		return err;
	return to_root ? 0 : -EPERM;
}

long sys_fchownat(int dfd, const char __user *filename, unsigned int user, unsigned int group,
		  int flag)
{
	struct kstat k;

	return chown_result(vfs_statat(dfd, filename, flag, &k), user, group);
}

long sys_chown(const char __user *filename, unsigned int user, unsigned int group)
{
	return sys_fchownat(AT_FDCWD, filename, user, group, 0);
}

long sys_lchown(const char __user *filename, unsigned int user, unsigned int group)
{
	return sys_fchownat(AT_FDCWD, filename, user, group, AT_SYMLINK_NOFOLLOW);
}

long sys_fchown(unsigned int fd, unsigned int user, unsigned int group)
{
	struct kstat k;

	return chown_result(vfs_fstat((int)fd, &k), user, group);
}

/*
 * utimensat: a file's access and modification times, each given, UTIME_NOW or UTIME_OMIT;
 * times NULL: both now. A NULL filename works on dfd itself (what futimens calls), as does ""
 * with AT_EMPTY_PATH. AT_SYMLINK_NOFOLLOW: a link's own times, not its target's.
 */
long sys_utimensat(int dfd, const char __user *filename, const struct timespec64 __user *utimes,
		   int flags)
{
	struct timespec64 t[2];
	long err;
	char *name;

	if (utimes && copy_from_user(t, utimes, sizeof(t)))
		return -EFAULT;
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (!filename) {
		if (dfd == AT_FDCWD || flags)
			return dfd == AT_FDCWD ? -EFAULT : -EINVAL;
		return vfs_futimes(dfd, utimes ? t : NULL);
	}
	name = getname_at(dfd, filename, &err);
	if (!name) {
		if (err == -ENOENT && (flags & AT_EMPTY_PATH) && dfd != AT_FDCWD)
			return vfs_futimes(dfd, utimes ? t : NULL);
		return err;
	}
	err = vfs_utimes(name, utimes ? t : NULL, flags & AT_SYMLINK_NOFOLLOW);
	putname(name);
	return err;
}

long sys_truncate(const char __user *path, long length)
{
	long err;
	char *name = getname(path, &err);

	if (!name)
		return err;
	err = vfs_truncate(name, length);
	putname(name);
	return err;
}

long sys_ftruncate(unsigned int fd, unsigned long length)
{
	return vfs_ftruncate((int)fd, (loff_t)length);
}

long sys_symlinkat(const char __user *oldname, int newdfd, const char __user *newname)
{
	long err;
	char *target = getname(oldname, &err), *name;

	if (!target)
		return err;
	name = getname_at(newdfd, newname, &err);
	if (name) {
		err = vfs_symlink(target, name);
		putname(name);
	}
	putname(target);
	return err;
}

long sys_symlink(const char __user *oldname, const char __user *newname)
{
	return sys_symlinkat(oldname, AT_FDCWD, newname);
}

long sys_readlinkat(int dfd, const char __user *pathname, char __user *buf, int bufsiz)
{
	char *name, *kbuf;
	long err;

	if (bufsiz <= 0)
		return -EINVAL;
	name = getname_at(dfd, pathname, &err);
	if (!name)
		return err;
	kbuf = kmalloc(PATH_MAX);
	err = kbuf ? vfs_readlink(name, kbuf, MIN((size_t)bufsiz, PATH_MAX)) : -ENOMEM;
	if (err > 0 && copy_to_user(buf, kbuf, (size_t)err))
		err = -EFAULT;
	kfree(kbuf);
	putname(name);
	return err;
}

long sys_readlink(const char __user *path, char __user *buf, int bufsiz)
{
	return sys_readlinkat(AT_FDCWD, path, buf, bufsiz);
}

/*
 * access and faccessat: does the file exist (F_OK), and may this process read, write or run
 * it? Lucid's only user is root, so, as Linux's generic_permission grants root
 * (CAP_DAC_OVERRIDE), R_OK and W_OK always and X_OK for a directory or a file with any x bit:
 * EACCES only for X_OK on a file without one (open agrees: kernel/fs/namei.c, may_open).
 */
#define R_OK 4
#define W_OK 2
#define X_OK 1

/*
 * faccessat2 adds flags: AT_EACCESS (check with the effective ids: for root the same answer),
 * AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH (bash's `test -w` calls it first, then falls back).
 */
long sys_faccessat2(int dfd, const char __user *filename, int mode, int flags)
{
	struct kstat k;
	long err;
	char *name;

	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if ((flags & AT_EMPTY_PATH) && dfd != AT_FDCWD) {
		char probe;

		if (!copy_from_user(&probe, filename, 1) && !probe) /* the file dfd names itself */
			return vfs_fstat(dfd, &k);
	}
	name = getname_at(dfd, filename, &err);
	if (!name)
		return err;
	err = (flags & AT_SYMLINK_NOFOLLOW) ? vfs_lstat(name, &k) : vfs_stat(name, &k);
	putname(name);
	if (err || S_ISDIR(k.mode))
		return err;
	if ((mode & X_OK) && !(k.mode & 0111))
		return -EACCES;
	return 0;
}

long sys_faccessat(int dfd, const char __user *filename, int mode)
{
	return sys_faccessat2(dfd, filename, mode, 0);
}

long sys_access(const char __user *filename, int mode)
{
	return sys_faccessat(AT_FDCWD, filename, mode);
}

/* umask: the mode bits new files and directories go without; returns the old mask. */
long sys_umask(int mask)
{
	struct fs_context *fs = current_fs();
	umode_t old = fs->umask;

	fs->umask = (umode_t)mask & 0777;
	return old;
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
	st.st_dev = k->dev;
	st.st_ino = k->ino;
	st.st_nlink = k->nlink;
	st.st_mode = k->mode;
	st.st_size = k->size;
	st.st_blksize = STAT_BLKSIZE;
	/* A link's text is in its inode, as in Linux's fast symlinks (and proc's): no blocks. */
	st.st_blocks = S_ISLNK(k->mode) ? 0 : (k->size + STAT_BLOCK - 1) / STAT_BLOCK;
	st.st_atime = (unsigned long)k->atime.tv_sec;
	st.st_atime_nsec = (unsigned long)k->atime.tv_nsec;
	st.st_mtime = (unsigned long)k->mtime.tv_sec;
	st.st_mtime_nsec = (unsigned long)k->mtime.tv_nsec;
	st.st_ctime = (unsigned long)k->ctime.tv_sec;
	st.st_ctime_nsec = (unsigned long)k->ctime.tv_nsec;
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
	long err = vfs_statat(dfd, filename, flag, &k);

	return err ? err : cp_new_stat(&k, statbuf);
}

/* statfs(2)'s struct on x86_64 (Linux's struct statfs, __kernel_long_t fields). */
struct statfs {
	long f_type;
	long f_bsize;
	unsigned long f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	int f_fsid[2];
	long f_namelen;
	long f_frsize;
	long f_flags;
	long f_spare[4];
};

static long cp_statfs(const struct kstatfs *k, struct statfs __user *ubuf)
{
	struct statfs buf = {
		.f_type = k->f_type,
		.f_bsize = k->f_bsize,
		.f_blocks = k->f_blocks,
		.f_bfree = k->f_bfree,
		.f_bavail = k->f_bavail,
		.f_files = k->f_files,
		.f_ffree = k->f_ffree,
		.f_namelen = k->f_namelen,
		.f_frsize = k->f_frsize,
		.f_flags = k->f_flags,
		.f_fsid = {(int)(k->f_fsid & 0xffffffffUL), (int)(k->f_fsid >> 32)},
	};

	return copy_to_user(ubuf, &buf, sizeof(buf)) ? -EFAULT : 0;
}

/* statfs and fstatfs: what df shows for the file system a file is on (kernel/fs/vfs.c). */
long sys_statfs(const char __user *pathname, struct statfs __user *buf)
{
	struct kstatfs k;
	long err;
	char *name = getname_at(AT_FDCWD, pathname, &err);

	if (!name)
		return err;
	err = vfs_statfs(name, &k);
	putname(name);
	return err ? err : cp_statfs(&k, buf);
}

long sys_fstatfs(unsigned int fd, struct statfs __user *buf)
{
	struct kstatfs k;
	int err = vfs_fstatfs((int)fd, &k);

	return err ? err : cp_statfs(&k, buf);
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
 * fcntl: duplicating (F_DUPFD, F_DUPFD_CLOEXEC), the descriptor's flag (FD_CLOEXEC, which
 * execve obeys), the open file's status flags (F_GETFL; F_SETFL changes O_APPEND and
 * O_NONBLOCK, and ignores the rest, as Linux) and a pipe's size (kernel/fs/pipe.c).
 */
#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_DUPFD_CLOEXEC 1030
#define FD_CLOEXEC 1

long sys_fcntl(unsigned int fd, unsigned int cmd, unsigned long arg)
{
	struct kstat st;
	int err = vfs_fstat((int)fd, &st);

	if (err)
		return err;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		return vfs_dupfd((int)fd, arg, cmd == F_DUPFD_CLOEXEC);
	case F_GETFD:
		err = vfs_get_cloexec((int)fd);
		return err > 0 ? FD_CLOEXEC : err;
	case F_SETFD:
		return vfs_set_cloexec((int)fd, arg & FD_CLOEXEC);
	case F_GETFL:
		return vfs_getfl((int)fd);
	case F_SETFL:
		return vfs_setfl((int)fd, (unsigned int)arg);
	case F_GETPIPE_SZ:
	case F_SETPIPE_SZ:
		return vfs_pipe_fcntl((int)fd, cmd, (unsigned int)arg);
	case F_ADD_SEALS:
	case F_GET_SEALS:
		return memfd_fcntl((int)fd, cmd, arg);
	default:
		return -EINVAL;
	}
}
