/* Open files and each task's table of file descriptors. */

/*
 * A file descriptor is an index into the task's fd array, which points at a struct file: one
 * open of one file, with its position and flags. Several descriptors, in one task or several,
 * can point at the same struct file (after dup2, or after a fork copied the table); they then
 * share the position, as the shell's "cmd > out 2>&1" needs. f_count counts them, and the
 * file's release operation runs when the last one is closed.
 *
 * New descriptors get the lowest free number, as POSIX requires: the shell relies on it to
 * redirect (close 1, open file: it becomes 1). None may be at or past RLIMIT_NOFILE's soft
 * limit: EMFILE for a new one, EBADF for dup2's target (Linux's answers).
 *
 * The table (struct fs_context, kernel/fs/vfs.h) starts with NR_OPEN_DEFAULT slots inside the
 * struct and grows on demand (expand_files): a task that never has more than 64 open costs
 * nothing more; one with 1024 has an 8 KiB array of pointers and 128 bytes of close-on-exec
 * bits, freed when it exits (or copied, sized to its open files, by a fork).
 */
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/resource.h"
#include "lib/errno.h"
#include "lib/string.h"

/* The open file behind fd, or NULL. Not referenced: the VFS lock keeps it. */
struct file *fget(int fd)
{
	struct fs_context *fs = current_fs();

	if (fd < 0 || (unsigned int)fd >= fs->max_fds)
		return NULL;
	return fs->fd[fd];
}

/*
 * fget_unlocked (kernel/fs/vfs.h) is the same without the VFS lock, for the files whose
 * operations need none (no_vfs_lock). A task's own table changes only through the task's own
 * calls (open, close, dup, exec, exit), never another's: a task that is looking in it is in
 * none of them, so the slot stays as read, and the file it names stays open (the table's
 * reference) until the task itself closes it. Not so for init_fs, which every task made before
 * the VFS shares: those take the lock.
 */

/* The largest number of descriptors the task may have: its RLIMIT_NOFILE, as an int. */
static unsigned int nofile_limit(void)
{
	uint64_t lim = rlimit(RLIMIT_NOFILE);

	return lim < NR_OPEN_MAX ? (unsigned int)lim : NR_OPEN_MAX;
}

static bool table_is_inline(const struct fs_context *fs)
{
	return fs->fd == fs->fd_array;
}

static size_t cloexec_words(unsigned int nr)
{
	return (nr + FD_BITS_PER_LONG - 1) / FD_BITS_PER_LONG;
}

/* Points fs at arrays of nr slots (the inline ones for NR_OPEN_DEFAULT); 0 or -ENOMEM. */
static int alloc_fdtable(struct fs_context *fs, unsigned int nr)
{
	if (nr <= NR_OPEN_DEFAULT) {
		fs->max_fds = NR_OPEN_DEFAULT;
		fs->fd = fs->fd_array;
		fs->close_on_exec = fs->cloexec_init;
		return 0;
	}
	struct file **fd = kzalloc(nr * sizeof(*fd));
	unsigned long *bits = kzalloc(cloexec_words(nr) * sizeof(*bits));

	if (!fd || !bits) {
		kfree(fd);
		kfree(bits);
		return -ENOMEM;
	}
	fs->max_fds = nr;
	fs->fd = fd;
	fs->close_on_exec = bits;
	return 0;
}

static void free_fdtable(struct fs_context *fs)
{
	if (!table_is_inline(fs)) {
		kfree(fs->fd);
		kfree(fs->close_on_exec);
	}
	alloc_fdtable(fs, NR_OPEN_DEFAULT); /* never fails: the inline arrays */
}

/*
 * Linux's expand_files: makes room for descriptor nr, doubling the table until it holds it
 * (nr is below RLIMIT_NOFILE: the callers check). The old arrays' contents move over.
 */
static int expand_files(struct fs_context *fs, unsigned int nr)
{
	unsigned int size = fs->max_fds, old_size = fs->max_fds;
	struct file **old_fd = fs->fd;
	unsigned long *old_bits = fs->close_on_exec;

	if (nr < size)
		return 0;
	while (size <= nr)
		size *= 2;
	if (alloc_fdtable(fs, size)) {
		fs->max_fds = old_size;
		fs->fd = old_fd;
		fs->close_on_exec = old_bits;
		return -ENOMEM;
	}
	memcpy(fs->fd, old_fd, old_size * sizeof(*old_fd));
	memcpy(fs->close_on_exec, old_bits, cloexec_words(old_size) * sizeof(*old_bits));
	if (old_fd != fs->fd_array) {
		kfree(old_fd);
		kfree(old_bits);
	} else {
		memset(fs->fd_array, 0, sizeof(fs->fd_array)); /* unused now: no stale pointers */
		memset(fs->cloexec_init, 0, sizeof(fs->cloexec_init));
	}
	return 0;
}

/* The lowest free descriptor at or above start, the table grown for it; or EMFILE. */
int alloc_fd(struct fs_context *fs, unsigned int start)
{
	unsigned int limit = nofile_limit(), fd = start;

	while (fd < fs->max_fds && fs->fd[fd])
		fd++;
	if (fd >= limit)
		return -EMFILE;
	int err = expand_files(fs, fd);

	return err ? err : (int)fd;
}

int get_unused_fd(struct fs_context *fs)
{
	return alloc_fd(fs, 0);
}

int vfs_max_fds(void)
{
	return (int)current_fs()->max_fds; /* the task's own table: only it changes it */
}

struct file *alloc_file(void)
{
	struct file *file = kzalloc(sizeof(*file));

	if (file)
		file->f_count = 1;
	return file;
}

/* Drops one reference; the last one closes the file for good. */
void fput(struct file *file)
{
	if (--file->f_count > 0)
		return;
	eventpoll_release(file); /* no epoll watches it after this (Linux's __fput) */
	if (file->f_op && file->f_op->release)
		file->f_op->release(file->f_inode, file);
	path_put(&file->f_path);
	kfree(file);
}

static int close_fd(int fd)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	current_fs()->fd[fd] = NULL;
	fd_set_cloexec(current_fs(), fd, false); /* the next file here starts without it */
	fput(file);
	return 0;
}

int vfs_close(int fd)
{
	return vfs_locked(close_fd(fd));
}

/*
 * close_range(2): every open descriptor in [first, last] closed, or (CLOSE_RANGE_CLOEXEC)
 * marked close-on-exec. last may be ~0U, "to the end": the walk stops at the table's size.
 * CLOSE_RANGE_UNSHARE asks for a table of one's own first; Lucid's threads share theirs with
 * the working directory (CLONE_FILES and CLONE_FS are one struct) and unshare(CLONE_FILES)
 * does not split it yet, so a thread's close_range still acts on its siblings' table.
 */
static int do_close_range(unsigned int first, unsigned int last, unsigned int flags)
{
	struct fs_context *fs = current_fs();

	for (unsigned int fd = first; fd <= last && fd < fs->max_fds; fd++) {
		if (!fs->fd[fd])
			continue;
		if (flags & CLOSE_RANGE_CLOEXEC)
			fd_set_cloexec(fs, (int)fd, true);
		else
			close_fd((int)fd);
	}
	return 0;
}

int vfs_close_range(unsigned int first, unsigned int last, unsigned int flags)
{
	if ((flags & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC)) || first > last)
		return -EINVAL;
	return vfs_locked(do_close_range(first, last, flags));
}

/* Makes newfd another name for oldfd's open file, closing what newfd named before. */
static int do_dup2(int oldfd, int newfd)
{
	struct fs_context *fs = current_fs();
	struct file *file = fget(oldfd);

	if (!file || newfd < 0 || (unsigned int)newfd >= nofile_limit())
		return -EBADF;
	if (oldfd == newfd)
		return newfd;
	int err = expand_files(fs, (unsigned int)newfd);
	if (err)
		return err;
	file->f_count++;
	if (fs->fd[newfd])
		fput(fs->fd[newfd]);
	fs->fd[newfd] = file;
	fd_set_cloexec(fs, newfd, false); /* dup2's copy is kept across exec, as Linux's */
	return newfd;
}

int vfs_dup2(int oldfd, int newfd)
{
	return vfs_locked(do_dup2(oldfd, newfd));
}

/* dup, and fcntl's F_DUPFD: the lowest free descriptor at or above start. */
static int do_dup_from(int oldfd, unsigned int start)
{
	struct file *file = fget(oldfd);
	int fd;

	if (!file)
		return -EBADF;
	fd = alloc_fd(current_fs(), start);
	if (fd < 0)
		return fd;
	return do_dup2(oldfd, fd);
}

int vfs_dup(int oldfd)
{
	return vfs_locked(do_dup_from(oldfd, 0));
}

int vfs_dupfd(int oldfd, unsigned long start, bool cloexec)
{
	int ret;

	if (start >= nofile_limit())
		return -EINVAL; /* Linux's F_DUPFD past RLIMIT_NOFILE */
	vfs_lock();
	ret = do_dup_from(oldfd, (unsigned int)start);
	if (ret >= 0)
		fd_set_cloexec(current_fs(), ret, cloexec);
	vfs_unlock();
	return ret;
}

#define DEFAULT_UMASK 0022 /* Linux's init starts with it */

/* A fresh context: cwd at /, no open files. The first task gets one at boot. */
static void do_fs_context_init(struct fs_context *fs)
{
	memset(fs, 0, sizeof(*fs));
	alloc_fdtable(fs, NR_OPEN_DEFAULT);
	fs->umask = DEFAULT_UMASK;
	get_fs_root(&fs->cwd);
	path_get(&fs->cwd);
}

void fs_context_init(struct fs_context *fs)
{
	vfs_lock();
	do_fs_context_init(fs);
	vfs_unlock();
}

/*
 * For fork: the child starts in the parent's cwd and shares every open file, in a table as
 * large as the parent's open descriptors need (Linux's dup_fd). -ENOMEM if that cannot be had.
 */
static int do_fs_context_copy(struct fs_context *dst, const struct fs_context *src)
{
	unsigned int open = src->max_fds;

	memset(dst, 0, sizeof(*dst));
	while (open > NR_OPEN_DEFAULT && !src->fd[open - 1])
		open--;
	unsigned int size = NR_OPEN_DEFAULT;
	while (size < open)
		size *= 2;
	if (alloc_fdtable(dst, size))
		return -ENOMEM;
	dst->cwd = src->cwd;
	dst->umask = src->umask;
	path_get(&dst->cwd);
	for (unsigned int fd = 0; fd < MIN(open, dst->max_fds); fd++) {
		dst->fd[fd] = src->fd[fd];
		if (dst->fd[fd])
			dst->fd[fd]->f_count++;
	}
	memcpy(dst->close_on_exec, src->close_on_exec,
	       cloexec_words(MIN(open, dst->max_fds)) * sizeof(unsigned long));
	return 0;
}

int fs_context_copy(struct fs_context *dst, const struct fs_context *src)
{
	return vfs_locked(do_fs_context_copy(dst, src));
}

/* For exit: closes every descriptor and lets go of the cwd. */
static void do_fs_context_exit(struct fs_context *fs)
{
	for (unsigned int fd = 0; fd < fs->max_fds; fd++) {
		if (fs->fd[fd]) {
			fput(fs->fd[fd]);
			fs->fd[fd] = NULL;
		}
	}
	free_fdtable(fs); /* back to the empty inline arrays */
	memset(fs->cloexec_init, 0, sizeof(fs->cloexec_init));
	path_put(&fs->cwd);
	fs->cwd.mnt = NULL;
	fs->cwd.dentry = NULL;
}

void fs_context_exit(struct fs_context *fs)
{
	vfs_lock();
	do_fs_context_exit(fs);
	vfs_unlock();
}

int vfs_get_cloexec(int fd)
{
	return vfs_locked(fget(fd) ? fd_is_cloexec(current_fs(), fd) : -EBADF);
}

int vfs_set_cloexec(int fd, bool on)
{
	struct fs_context *fs = current_fs();
	int ret = 0;

	vfs_lock();
	if (!fget(fd))
		ret = -EBADF;
	else
		fd_set_cloexec(fs, fd, on);
	vfs_unlock();
	return ret;
}

/* execve, past its point of no return: the new program never sees these. */
void do_close_on_exec(void)
{
	struct fs_context *fs = current_fs();

	vfs_lock();
	for (unsigned int fd = 0; fd < fs->max_fds; fd++)
		if (fd_is_cloexec(fs, (int)fd))
			close_fd((int)fd);
	vfs_unlock();
}
