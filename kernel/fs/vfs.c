/* The VFS entry points on open files: open, read, write, lseek, readdir, stat, truncate, cwd. */

/*
 * Each entry point finds its struct file (or path) and hands the work to the file system: the
 * inode's file operations for reading and writing, its inode operations for truncation. What
 * is common to every file system is decided here, once, in Linux's way:
 *   - a file opened O_RDONLY cannot be written (-EBADF) and vice versa;
 *   - a file with no read (write) operation answers -EINVAL (-EIO in /proc), with no llseek
 *     -ESPIPE; its mode does not stop root (CAP_DAC_OVERRIDE), Lucid's only user;
 *   - a pseudo file whose kernel code removed it answers -EIO in debugfs, -ENODEV in tracefs
 *     and sysfs, as Linux's debugfs_file_get and kernfs_get_active (its data may be gone);
 *   - O_TRUNC empties a regular file after a successful open. A pseudo file has no data to
 *     cut, so for it O_TRUNC is just a flag its open() may look at: that is how
 *     "echo > trace" clears the trace buffer on Linux.
 * O_APPEND and O_NONBLOCK are kept in f_flags: ramfs appends; a file that would have to wait
 * for data returns -EAGAIN, and vfs_read/vfs_write wait for it (vfs_block) unless O_NONBLOCK.
 *
 * Every entry point is a do_ function wrapped in the global VFS lock (kernel/fs/vfs.h).
 */
#include "kernel/fs/vfs_internal.h"
#include "kernel/locking/lockdep.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/time/time.h"
#include "lib/errno.h"
#include "lib/string.h"

/* A regular file's data changed (write, truncate): Linux's file_update_time. */
static void file_update_time(struct inode *inode)
{
	if (S_ISREG(inode->i_mode))
		inode->i_mtime = inode->i_ctime = current_time();
}

/*
 * Inline: vfs_open is a system call's fast path (open + close: lbench), openat2 the other caller.
 */
static __always_inline int do_open(const char *pathname, int flags, umode_t mode)
{
	struct fs_context *fs = current_fs();
	int acc = flags & O_ACCMODE, fd, err;
	struct inode *inode;
	struct file *file;

	if (acc == O_ACCMODE)
		return -EINVAL;
	fd = get_unused_fd(fs); /* first, so a full table creates nothing */
	if (fd < 0)
		return fd;
	file = alloc_file();
	if (!file)
		return -ENOMEM;
	err = path_openat(pathname, flags, mode, &file->f_path);
	if (err) {
		kfree(file);
		return err;
	}
	inode = file->f_path.dentry->d_inode;
	file->f_inode = inode;
	file->f_op = inode->i_fop;
	file->f_flags = (unsigned int)flags;
	file->f_mode = (acc != O_WRONLY ? FMODE_READ : 0) | (acc != O_RDONLY ? FMODE_WRITE : 0);
	if (file->f_op && file->f_op->open) {
		err = file->f_op->open(inode, file);
		if (err) {
			path_put(&file->f_path);
			kfree(file);
			return err;
		}
	}
	if ((flags & O_TRUNC) && S_ISREG(inode->i_mode) && inode->i_op && inode->i_op->truncate) {
		err = inode->i_op->truncate(inode, 0);
		if (err) {
			fput(file); /* opened: close it properly, release and all */
			return err;
		}
		file_update_time(inode);
	}
	/* Linux keeps none of the flags that only mattered for the open itself (tracefs's open
	 * looked at O_TRUNC above). */
	file->f_flags &= ~(unsigned int)(O_CREAT | O_EXCL | O_TRUNC | O_CLOEXEC);
	if (__builtin_expect(fs->fd[fd] != NULL, 0)) {
		/* The open let the lock go (a FIFO waiting for its other end) and a thread
		 * sharing the table took fd meanwhile: the lowest free one now. */
		fd = get_unused_fd(fs);
		if (fd < 0) {
			fput(file);
			return fd;
		}
	}
	fs->fd[fd] = file;
	fd_set_cloexec(fs, fd, flags & O_CLOEXEC);
	return fd;
}

int vfs_open(const char *pathname, int flags, umode_t mode)
{
	return vfs_locked(do_open(pathname, flags, mode));
}

int vfs_openat2(int dfd, const char *pathname, int flags, umode_t mode, unsigned int resolve)
{
	int ret;

	vfs_lock();
	ret = namei_scope_begin(dfd, resolve);
	if (!ret)
		ret = do_open(pathname, flags, mode);
	namei_scope_end();
	vfs_unlock();
	return ret;
}

/* The answer of a file without the read or write asked for. */
static inline ssize_t no_rw_op(const struct inode *inode)
{
	return inode->i_flags & S_PROC_EIO ? -EIO : -EINVAL;
}

/*
 * Linux's checks before a file's read and write. Inline in vfs_read's and vfs_write's lock-free
 * way (a call, a frame and saved registers on every read of /dev/zero otherwise); the locked
 * way calls them through vfs_block as do_read_file and do_write_io.
 */
static __always_inline ssize_t __do_read_file(struct file *file, void *buf, size_t count)
{
	if (!file || !(file->f_mode & FMODE_READ))
		return -EBADF;
	if (S_ISDIR(file->f_inode->i_mode))
		return -EISDIR;
	if (file->f_inode->i_flags & S_DEAD)
		return dead_file_error(file->f_inode);
	if (!file->f_op || !file->f_op->read)
		return no_rw_op(file->f_inode);
	return file->f_op->read(file, buf, MIN(count, MAX_RW_COUNT), &file->f_pos);
}

static ssize_t do_read_file(struct file *file, void *buf, size_t count)
{
	return __do_read_file(file, buf, count);
}

/* splice(2)'s read: the file's own splice_read where it has one (trace_pipe_raw), else read. */
static ssize_t do_splice_read_file(struct file *file, void *buf, size_t count)
{
	if (file && (file->f_mode & FMODE_READ) && file->f_op && file->f_op->splice_read)
		return file->f_op->splice_read(file, buf, MIN(count, MAX_RW_COUNT), &file->f_pos);
	return do_read_file(file, buf, count);
}


static __always_inline ssize_t do_write_file(struct file *file, const void *buf, size_t count)
{
	if (!file || !(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (file->f_inode->i_flags & S_DEAD)
		return dead_file_error(file->f_inode);
	if (!file->f_op || !file->f_op->write)
		return no_rw_op(file->f_inode);
	return file->f_op->write(file, buf, MIN(count, MAX_RW_COUNT), &file->f_pos);
}

/*
 * The locked way's write: a regular file's time changes with its data, as Linux's file systems
 * set it in their write. The lock-free files (devices, trace_marker) keep theirs, as Linux's
 * do, and their write is then the last thing vfs_write does: a tail call.
 * buf is only read; it is not const so that reads and writes fit vfs_block() alike.
 */
static ssize_t do_write_io(struct file *file, void *buf, size_t count)
{
	ssize_t ret = do_write_file(file, buf, count);

	if (ret > 0)
		file_update_time(file->f_inode);
	return ret;
}

/* Can file's read and write run without the VFS lock (file_operations.no_vfs_lock)? */
static inline bool no_vfs_lock(const struct file *file)
{
	return file && file->f_op && file->f_op->no_vfs_lock;
}

/*
 * vfs_read's and vfs_write's way for a file that needs the VFS lock (and may wait). Out of line
 * so that the lock-free way (/dev/null, /dev/zero, trace_marker) keeps no registers for it;
 * notrace: a detail of vfs_read and vfs_write, whose traces show vfs_lock and vfs_block.
 */
static noinline notrace ssize_t vfs_rw_locked(int fd, struct file *file, void *buf, size_t count,
					      vfs_io_fn io)
{
	ssize_t ret;

	vfs_lock();
	ret = vfs_block(file ? file : fget(fd), io, fd, buf, count);
	vfs_unlock();
	return ret;
}

/* A read that finds nothing yet waits for it, unless the file was opened O_NONBLOCK. */
ssize_t vfs_read(int fd, void *buf, size_t count)
{
	struct file *file = fget_unlocked(fd);

	if (no_vfs_lock(file))
		return __do_read_file(file, buf, count);
	return vfs_rw_locked(fd, file, buf, count, do_read_file);
}

ssize_t vfs_splice_read(int fd, void *buf, size_t count, bool nonblock)
{
	ssize_t ret;

	vfs_lock();
	ret = nonblock ? do_splice_read_file(fget(fd), buf, count)
		       : vfs_block(fget(fd), do_splice_read_file, fd, buf, count);
	vfs_unlock();
	return ret;
}

bool vfs_read_fills(int fd)
{
	struct file *file;
	bool ret = false;

	vfs_lock();
	file = fget(fd);
	if (file && file->f_inode && file->f_op) {
		umode_t mode = file->f_inode->i_mode;

		ret = S_ISFIFO(mode) ||
		      ((S_ISREG(mode) || S_ISCHR(mode)) && !file->f_op->wait_queue);
	}
	vfs_unlock();
	return ret;
}

bool vfs_write_ignores_data(int fd)
{
	struct file *file;
	bool ret;

	vfs_lock();
	file = fget(fd);
	ret = file && (file->f_mode & FMODE_WRITE) && file->f_op && file->f_op->write_ignores_data;
	vfs_unlock();
	return ret;
}

ssize_t vfs_read_nowait(int fd, void *buf, size_t count)
{
	return vfs_locked(do_read_file(fget(fd), buf, count));
}

long vfs_ioctl(int fd, unsigned int cmd, unsigned long arg)
{
	struct file *file;
	long ret;

	vfs_lock();
	file = fget(fd);
	if (!file) {
		vfs_unlock();
		return -EBADF;
	}
	if (!file->f_op || !file->f_op->unlocked_ioctl) {
		vfs_unlock();
		return -ENOTTY;
	}
	file->f_count++; /* held while the driver runs without the lock */
	vfs_unlock();
	ret = file->f_op->unlocked_ioctl(file, cmd, arg);
	vfs_lock();
	fput(file);
	vfs_unlock();
	return ret;
}

/* May write less than count (a pipe with little room): the caller writes the rest. */
ssize_t vfs_write(int fd, const void *buf, size_t count)
{
	struct file *file = fget_unlocked(fd);

	if (no_vfs_lock(file))
		return do_write_file(file, buf, count);
	return vfs_rw_locked(fd, file, (void *)buf, count, do_write_io);
}

/*
 * pread and pwrite: a read or write at pos, leaving f_pos alone. Only a file that has positions
 * may (Linux's FMODE_PREAD): a pipe, or trace_pipe, answers -ESPIPE. They never wait: a file
 * with positions has its data at hand.
 */
static ssize_t do_pread_pwrite(int fd, void *buf, size_t count, loff_t pos, bool write)
{
	struct file *file = fget(fd); /* as fget_unlocked, when vfs_pread needs no lock */
	ssize_t ret;

	if (pos < 0)
		return -EINVAL;
	if (!file)
		return -EBADF;
	/* A directory has positions (lseek rewinds it) though ramfs gives it no llseek. */
	if (!S_ISDIR(file->f_inode->i_mode) &&
	    (!file->f_op || !file->f_op->llseek || file->f_op->llseek == no_llseek))
		return -ESPIPE;
	if (!(file->f_mode & (write ? FMODE_WRITE : FMODE_READ)))
		return -EBADF;
	if (!write && S_ISDIR(file->f_inode->i_mode))
		return -EISDIR;
	if (file->f_inode->i_flags & S_DEAD)
		return dead_file_error(file->f_inode);
	if (write ? !file->f_op->write : !file->f_op->read)
		return no_rw_op(file->f_inode);
	count = MIN(count, MAX_RW_COUNT);
	if (!write)
		return file->f_op->read(file, buf, count, &pos);
	ret = file->f_op->write(file, buf, count, &pos);
	if (ret > 0)
		file_update_time(file->f_inode);
	return ret;
}

/* As vfs_read: a file that needs no VFS lock is read without it (sendfile from debugfs's bench). */
ssize_t vfs_pread(int fd, void *buf, size_t count, loff_t pos)
{
	ssize_t ret;

	if (no_vfs_lock(fget_unlocked(fd)))
		return do_pread_pwrite(fd, buf, count, pos, false);
	vfs_lock();
	ret = do_pread_pwrite(fd, buf, count, pos, false);
	vfs_unlock();
	return ret;
}

int vfs_mmap_check(int fd, loff_t *size, unsigned int *caps)
{
	struct file *file;
	int ret = 0;

	vfs_lock();
	file = fget(fd);
	*caps = 0;
	if (!file)
		ret = -EBADF;
	else if (!(file->f_mode & FMODE_READ))
		ret = -EACCES; /* even a private mapping reads the file */
	else if (file->f_op && file->f_op->mmap_zero)
		*caps = MMAP_FILE_ZERO;
	else if (!file->f_op || !file->f_op->may_mmap || !S_ISREG(file->f_inode->i_mode))
		ret = -ENODEV;
	else
		*size = file->f_inode->i_size;
	if (!ret && (file->f_mode & FMODE_WRITE))
		*caps |= MMAP_FILE_WRITE;
	vfs_unlock();
	return ret;
}

ssize_t vfs_pwrite(int fd, const void *buf, size_t count, loff_t pos)
{
	return vfs_locked(do_pread_pwrite(fd, (void *)buf, count, pos, true));
}

/* The flags fcntl(F_SETFL) may change (Linux's SETFL_MASK, less what Lucid lacks). */
#define SETFL_MASK (O_APPEND | O_NONBLOCK)

int vfs_getfl(int fd)
{
	struct file *file;
	int ret;

	vfs_lock();
	file = fget(fd);
	ret = file ? (int)file->f_flags : -EBADF;
	vfs_unlock();
	return ret;
}

int vfs_setfl(int fd, unsigned int flags)
{
	struct file *file;
	int ret = 0;

	vfs_lock();
	file = fget(fd);
	if (file)
		file->f_flags = (flags & SETFL_MASK) | (file->f_flags & ~SETFL_MASK);
	else
		ret = -EBADF;
	vfs_unlock();
	return ret;
}

/* lseek for files that know their size: any position from 0 up, even past the end. */
loff_t default_llseek(struct file *file, loff_t offset, int whence)
{
	loff_t base;

	switch (whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = file->f_pos;
		break;
	case SEEK_END:
		base = file->f_inode->i_size;
		break;
	default:
		return -EINVAL;
	}
	if (offset > 0 && base > __LONG_MAX__ - offset)
		return -EINVAL;
	if (base + offset < 0)
		return -EINVAL;
	file->f_pos = base + offset;
	return file->f_pos;
}

ssize_t simple_read_from_buffer(void *to, size_t count, loff_t *ppos, const void *from,
				size_t available)
{
	loff_t pos = *ppos;
	size_t n;

	if (pos < 0)
		return -EINVAL;
	if ((size_t)pos >= available || count == 0)
		return 0;
	n = MIN(count, available - (size_t)pos);
	memcpy(to, (const char *)from + pos, n);
	*ppos = pos + (loff_t)n;
	return (ssize_t)n;
}

/* For files where a position means nothing (pipes, trace_pipe). */
loff_t no_llseek(struct file *file, loff_t offset, int whence)
{
	(void)file;
	(void)offset;
	(void)whence;
	return -ESPIPE;
}

static loff_t do_lseek(int fd, loff_t offset, int whence)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	if (S_ISDIR(file->f_inode->i_mode))
		return default_llseek(file, offset, whence); /* rewinddir: back to entry 0 */
	if (file->f_inode->i_flags & S_DEAD)
		return dead_file_error(file->f_inode);
	if (!file->f_op || !file->f_op->llseek)
		return -ESPIPE;
	return file->f_op->llseek(file, offset, whence);
}

loff_t vfs_lseek(int fd, loff_t offset, int whence)
{
	return vfs_locked(do_lseek(fd, offset, whence));
}

static unsigned char dtype(const struct inode *inode)
{
	if (S_ISDIR(inode->i_mode))
		return DT_DIR;
	if (S_ISCHR(inode->i_mode))
		return DT_CHR;
	if (S_ISLNK(inode->i_mode))
		return DT_LNK;
	if (S_ISSOCK(inode->i_mode))
		return DT_SOCK;
	return S_ISFIFO(inode->i_mode) ? DT_FIFO : DT_REG;
}

/*
 * Returns the directory entry at the file position and moves on: ".", "..", then the names in
 * the order they were made, as Linux's in-memory file systems do (ls sorts, or hides the dot
 * entries, itself). The position is an index, so a name removed while a listing is under way
 * can make the listing skip one entry; Linux's ramfs keeps a cursor in the list to avoid that,
 * not worth it here.
 */
static int do_readdir(int fd, struct dirent *de)
{
	struct file *file = fget(fd);
	struct dentry *dir, *child, *found = NULL;
	loff_t i = 2;

	if (!file)
		return -EBADF;
	dir = file->f_path.dentry;
	if (!S_ISDIR(dir->d_inode->i_mode))
		return -ENOTDIR;
	if (dir->d_unlinked)
		return -ENOENT;
	if (file->f_pos == 2 && dir->d_inode->i_op && dir->d_inode->i_op->populate)
		dir->d_inode->i_op->populate(dir); /* the names come first, then the listing */
	if (file->f_pos < 2) {
		struct dentry *d = file->f_pos == 0 ? dir : dir->d_parent;

		de->d_ino = d->d_inode->i_ino;
		de->d_type = DT_DIR;
		strlcpy(de->d_name, file->f_pos == 0 ? "." : "..", sizeof(de->d_name));
		file->f_pos++;
		return 1;
	}
	list_for_each_entry(child, &dir->d_subdirs, d_child) {
		loff_t pos = i++;

		if (pos < file->f_pos)
			continue;
		file->f_pos = pos; /* past the names not listed */
		if (!child->d_unlisted) {
			found = child;
			break;
		}
	}
	if (!found)
		return 0;
	de->d_ino = found->d_inode->i_ino;
	de->d_type = dtype(found->d_inode);
	strlcpy(de->d_name, found->d_name, sizeof(de->d_name));
	file->f_pos++;
	return 1;
}

int vfs_readdir(int fd, struct dirent *de)
{
	return vfs_locked(do_readdir(fd, de));
}

/* A file system whose files live elsewhere (9p) brings the inode up to date first. */
static int refresh_attr(struct dentry *dentry)
{
	const struct inode_operations *iop = dentry->d_inode->i_op;

	return iop && iop->getattr ? iop->getattr(dentry) : 0;
}

static void fill_stat(const struct path *path, struct kstat *st)
{
	const struct dentry *dentry = path->dentry;
	const struct inode *inode = dentry->d_inode;
	struct dentry *child;

	st->dev = path->mnt->mnt_dev;
	st->ino = inode->i_ino;
	st->mode = inode->i_mode;
	st->size = inode->i_size;
	st->atime = inode->i_atime;
	st->mtime = inode->i_mtime;
	st->ctime = inode->i_ctime;
	/* A directory is linked from its parent, from its own ".", and from each subdir's "..". */
	st->nlink = dentry->d_unlinked ? 0 : S_ISDIR(inode->i_mode) ? 2 : 1;
	if (S_ISDIR(inode->i_mode) && !dentry->d_unlinked) {
		list_for_each_entry(child, &dentry->d_subdirs, d_child) {
			if (S_ISDIR(child->d_inode->i_mode) && !child->d_unlisted)
				st->nlink++; /* as readdir: a thread's /proc/TID is not one */
		}
	}
}

static int do_stat(const char *pathname, unsigned int flags, struct kstat *st)
{
	struct path path;
	int err = kern_path(pathname, flags, &path);

	if (err)
		return err;
	err = refresh_attr(path.dentry);
	if (!err)
		fill_stat(&path, st);
	path_put(&path);
	return err;
}

int vfs_stat(const char *pathname, struct kstat *st)
{
	return vfs_locked(do_stat(pathname, 0, st));
}

/*
 * statfs of the mount path is in, as Linux's statfs_by_dentry: the file system's own figures
 * over simple_statfs's defaults, f_frsize the block size unless said otherwise.
 */
static int statfs_path(const struct path *path, struct kstatfs *st)
{
	struct file_system_type *type = path->mnt->mnt_type;
	int err;

	memset(st, 0, sizeof(*st));
	st->f_type = type->magic;
	st->f_bsize = (long)PAGE_CACHE_SIZE;
	st->f_namelen = NAME_MAX;
	err = type->statfs ? type->statfs(path->mnt->mnt_root, st) : 0;
	if (!st->f_frsize)
		st->f_frsize = st->f_bsize;
	st->f_flags = ST_VALID; /* read-write, and nothing else /proc/mounts shows */
	return err;
}

int vfs_statfs(const char *pathname, struct kstatfs *st)
{
	struct path path;
	int err;

	vfs_lock();
	err = kern_path(pathname, 0, &path);
	if (!err) {
		err = statfs_path(&path, st);
		path_put(&path);
	}
	vfs_unlock();
	return err;
}

int vfs_fstatfs(int fd, struct kstatfs *st)
{
	struct file *file;
	int err;

	vfs_lock();
	file = fget(fd);
	err = file ? statfs_path(&file->f_path, st) : -EBADF;
	vfs_unlock();
	return err;
}

int vfs_lstat(const char *pathname, struct kstat *st)
{
	return vfs_locked(do_stat(pathname, LOOKUP_NOFOLLOW, st));
}

int vfs_symlink(const char *target, const char *linkpath)
{
	return vfs_locked(do_symlinkat(target, linkpath));
}

/* readlink: the target's bytes, at most size, without a NUL; EINVAL if not a link. */
int vfs_readlink(const char *pathname, char *buf, size_t size)
{
	struct path path;
	int err;

	vfs_lock();
	err = kern_path(pathname, LOOKUP_NOFOLLOW, &path);
	if (!err) {
		struct inode *inode = path.dentry->d_inode;

		if (S_ISLNK(inode->i_mode)) {
			err = (int)MIN(size, strlen(inode->i_link));
			memcpy(buf, inode->i_link, (size_t)err);
		} else {
			err = -EINVAL;
		}
		path_put(&path);
	}
	vfs_unlock();
	return err;
}

/*
 * A file system whose files live elsewhere (9p: getattr refreshes the inode from the host) is
 * told of the change first (its setattr: Tsetattr), else refuses it with EPERM rather than
 * make a change that a later stat would undo. 0: the inode may change.
 */
static int notify_change(struct inode *inode, const struct iattr *attr)
{
	if (inode->i_op && inode->i_op->setattr)
		return inode->i_op->setattr(inode, attr);
	return inode->i_op && inode->i_op->getattr ? -EPERM : 0;
}

/* chmod: the permission bits (and setuid, setgid, sticky) change, the file type never. */
static int chmod_common(struct inode *inode, umode_t mode)
{
	struct iattr attr = {.ia_valid = ATTR_MODE,
			     .ia_mode = (umode_t)((inode->i_mode & S_IFMT) | (mode & S_IALLUGO))};
	int err = notify_change(inode, &attr);

	if (err)
		return err;
	inode->i_mode = attr.ia_mode;
	inode->i_ctime = current_time();
	return 0;
}

struct timespec64 current_time(void)
{
	uint64_t ns = ktime_get_real_ns(); /* CLOCK_REALTIME: kernel/time/time.c */

	return (struct timespec64){.tv_sec = (long)(ns / NSEC_PER_SEC),
				   .tv_nsec = (long)(ns % NSEC_PER_SEC)};
}

/* utimensat's work on one inode, with Linux's rules for UTIME_NOW and UTIME_OMIT. */
static int utimes_inode(struct inode *inode, const struct timespec64 *times)
{
	struct timespec64 now = current_time();

	for (int i = 0; times && i < 2; i++) {
		long ns = times[i].tv_nsec;

		if (ns != UTIME_NOW && ns != UTIME_OMIT && (ns < 0 || ns >= (long)NSEC_PER_SEC))
			return -EINVAL;
	}
	struct iattr attr = {0};

	if (!times || times[0].tv_nsec != UTIME_OMIT) {
		attr.ia_valid |= ATTR_ATIME;
		attr.ia_atime = !times || times[0].tv_nsec == UTIME_NOW ? now : times[0];
	}
	if (!times || times[1].tv_nsec != UTIME_OMIT) {
		attr.ia_valid |= ATTR_MTIME;
		attr.ia_mtime = !times || times[1].tv_nsec == UTIME_NOW ? now : times[1];
	}
	int err = notify_change(inode, &attr); /* 9p: the times live on the host */

	if (err)
		return err;
	if (attr.ia_valid & ATTR_ATIME)
		inode->i_atime = attr.ia_atime;
	if (attr.ia_valid & ATTR_MTIME)
		inode->i_mtime = attr.ia_mtime;
	inode->i_ctime = now;
	return 0;
}

int vfs_utimes(const char *pathname, const struct timespec64 *times, bool nofollow)
{
	struct path path;
	int err;

	vfs_lock();
	err = kern_path(pathname, nofollow ? LOOKUP_NOFOLLOW : 0, &path);
	if (!err) {
		err = utimes_inode(path.dentry->d_inode, times);
		path_put(&path);
	}
	vfs_unlock();
	return err;
}

int vfs_futimes(int fd, const struct timespec64 *times)
{
	struct file *file;
	int err;

	vfs_lock();
	file = fget(fd);
	err = file ? utimes_inode(file->f_inode, times) : -EBADF;
	vfs_unlock();
	return err;
}

int vfs_chmod(const char *pathname, umode_t mode)
{
	struct path path;
	int err;

	vfs_lock();
	err = kern_path(pathname, 0, &path);
	if (!err) {
		err = chmod_common(path.dentry->d_inode, mode);
		path_put(&path);
	}
	vfs_unlock();
	return err;
}

int vfs_fchmod(int fd, umode_t mode)
{
	struct file *file;
	int err;

	vfs_lock();
	file = fget(fd);
	err = file ? chmod_common(file->f_inode, mode) : -EBADF;
	vfs_unlock();
	return err;
}

static int do_fstat(int fd, struct kstat *st)
{
	struct file *file = fget(fd);
	int err;

	if (!file)
		return -EBADF;
	err = refresh_attr(file->f_path.dentry);
	if (!err)
		fill_stat(&file->f_path, st);
	return err;
}

int vfs_fstat(int fd, struct kstat *st)
{
	return vfs_locked(do_fstat(fd, st));
}

struct file_pages *vfs_mmap_pages(int fd, int *err)
{
	struct file_pages *fp = NULL;
	struct file *file;

	vfs_lock();
	file = fget(fd);
	*err = !file ? -EBADF : !(file->f_mode & FMODE_READ) ? -EACCES
		: !file->f_op || !file->f_op->mmap_pages ? -ENODEV : 0;
	if (!*err) {
		fp = file->f_op->mmap_pages(file);
		if (!fp)
			*err = -ENOMEM;
	}
	vfs_unlock();
	return fp;
}

struct file_pages *vfs_mmap_shared_pages(int fd, loff_t off, size_t len, bool write, int *err)
{
	struct file_pages *fp = NULL;
	struct file *file;

	vfs_lock();
	file = fget(fd);
	*err = !file ? -EBADF : !file->f_op || !file->f_op->mmap_shared ? -ENODEV : 0;
	if (!*err)
		*err = file->f_op->mmap_shared(file, off, len, write);
	if (!*err) {
		fp = file->f_op->mmap_pages(file);
		if (!fp)
			*err = -ENOMEM;
	}
	vfs_unlock();
	return fp;
}

static int do_truncate(struct inode *inode, loff_t length)
{
	if (length < 0)
		return -EINVAL;
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (inode->i_flags & S_DEAD)
		return dead_file_error(inode);
	if (filemap_running(inode))
		return -ETXTBSY; /* a running program's file, as open for writing (namei.c) */
	/* No truncate operation: a pseudo file without data; Linux accepts and ignores it too. */
	if (!inode->i_op || !inode->i_op->truncate)
		return 0;
	int err = inode->i_op->truncate(inode, length);

	if (!err)
		file_update_time(inode);
	return err;
}

static int do_truncate_path(const char *pathname, loff_t length)
{
	struct path path;
	int err = kern_path(pathname, 0, &path);

	if (err)
		return err;
	/* No w bit needed: root's CAP_DAC_OVERRIDE, as in open (kernel/fs/namei.c). */
	err = do_truncate(path.dentry->d_inode, length);
	path_put(&path);
	return err;
}

int vfs_truncate(const char *pathname, loff_t length)
{
	return vfs_locked(do_truncate_path(pathname, length));
}

static int do_ftruncate(int fd, loff_t length)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	if (!(file->f_mode & FMODE_WRITE))
		return -EINVAL; /* Linux's answer for an fd not open for writing */
	return do_truncate(file->f_inode, length);
}

int vfs_ftruncate(int fd, loff_t length)
{
	return vfs_locked(do_ftruncate(fd, length));
}

static int do_fsync(int fd)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	if (file->f_inode->i_flags & S_DEAD)
		return dead_file_error(file->f_inode);
	return file->f_op && file->f_op->fsync ? file->f_op->fsync(file) : 0;
}

int vfs_fsync(int fd)
{
	return vfs_locked(do_fsync(fd));
}

/* The working directory becomes path (Linux's set_fs_pwd): a reference of its own. */
static void set_fs_pwd(struct fs_context *fs, const struct path *path)
{
	path_get(path);
	path_put(&fs->cwd);
	fs->cwd = *path;
}

static int do_chdir(const char *pathname)
{
	struct path path;
	int err = kern_path(pathname, LOOKUP_DIRECTORY, &path);

	if (err)
		return err;
	set_fs_pwd(current_fs(), &path);
	path_put(&path);
	return 0;
}

int vfs_chdir(const char *pathname)
{
	return vfs_locked(do_chdir(pathname));
}

/* fchdir(2): the directory open at fd becomes the working directory (an O_PATH one too). */
static int do_fchdir(int fd)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	if (!S_ISDIR(file->f_inode->i_mode))
		return -ENOTDIR;
	set_fs_pwd(current_fs(), &file->f_path);
	return 0;
}

int vfs_fchdir(int fd)
{
	return vfs_locked(do_fchdir(fd));
}

static int do_getcwd(char *buf, size_t size)
{
	return d_path(&current_fs()->cwd, buf, size);
}

/* The base of the *at() system calls: the absolute name of the directory open at fd. */
static int do_fd_dirpath(int fd, char *buf, size_t size)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	if (!S_ISDIR(file->f_inode->i_mode))
		return -ENOTDIR;
	return d_path(&file->f_path, buf, size);
}

int vfs_fd_path(int fd, char *buf, size_t size)
{
	struct file *file;
	int ret;

	vfs_lock();
	file = fget(fd);
	ret = file ? d_path(&file->f_path, buf, size) : -EBADF;
	vfs_unlock();
	return ret;
}

struct inode *vfs_fd_inode(int fd)
{
	struct file *file;

	vfs_lock();
	file = fget(fd);
	struct inode *inode = file ? file_inode(file) : NULL;
	vfs_unlock();
	return inode;
}

int vfs_path_get_locked(const char *name, struct path *path)
{
	lockdep_assert(vfs_lock_held());
	return kern_path(name, 0, path);
}

void vfs_path_put_locked(struct path *path)
{
	lockdep_assert(vfs_lock_held());
	path_put(path);
}


int vfs_fd_dirpath(int fd, char *buf, size_t size)
{
	return vfs_locked(do_fd_dirpath(fd, buf, size));
}

/* The absolute name of what pathname names, symbolic links followed, as realpath(3) gives it. */
int vfs_realpath(const char *pathname, char *buf, size_t size)
{
	struct path path;
	int ret;

	vfs_lock();
	ret = kern_path(pathname, 0, &path);
	if (!ret) {
		ret = d_path(&path, buf, size);
		path_put(&path);
	}
	vfs_unlock();
	return ret;
}

int vfs_getcwd(char *buf, size_t size)
{
	return vfs_locked(do_getcwd(buf, size));
}

/*
 * Builds the file system at boot: a ramfs at /, the pseudo file system trees (empty until the
 * tracer and others add files), and the mounts a Linux distribution's init would make. Uses
 * absolute paths only, so it runs before there is any task (current_fs() is not called).
 * Boot cannot go on without it: on failure the caller panics, so nothing is undone here.
 */
int vfs_init(void)
{
	/* /sys/kernel/debug and /sys/kernel/tracing are sysfs's own (pseudofs_init). */
	static const char *const dirs[] = { "/sys", "/proc" };
	static const struct {
		const char *type, *dir;
	} boot_mounts[] = {
		{ "sysfs", "/sys" },
		{ "debugfs", "/sys/kernel/debug" },
		{ "tracefs", "/sys/kernel/tracing" },
		{ "proc", "/proc" },
	};
	int err = pseudofs_init();

	if (!err)
		err = mnt_init();
	for (size_t i = 0; i < ARRAY_SIZE(dirs) && !err; i++)
		err = vfs_mkdir(dirs[i], 0755);
	for (size_t i = 0; i < ARRAY_SIZE(boot_mounts) && !err; i++)
		err = vfs_mount(boot_mounts[i].type, boot_mounts[i].dir);
	return err;
}
