/* Open files and each task's table of file descriptors. */

/*
 * A file descriptor is an index into the task's fd array, which points at a struct file: one
 * open of one file, with its position and flags. Several descriptors, in one task or several,
 * can point at the same struct file (after dup2, or after a fork copied the table); they then
 * share the position, as the shell's "cmd > out 2>&1" needs. f_count counts them, and the
 * file's release operation runs when the last one is closed.
 *
 * New descriptors get the lowest free number, as POSIX requires: the shell relies on it to
 * redirect (close 1, open file: it becomes 1).
 */
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "lib/errno.h"
#include "lib/string.h"

/* The open file behind fd, or NULL. Not referenced: the VFS lock keeps it. */
struct file *fget(int fd)
{
	struct fs_context *fs = current_fs();

	if (fd < 0 || fd >= NR_OPEN_DEFAULT)
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

int get_unused_fd(struct fs_context *fs)
{
	for (int fd = 0; fd < NR_OPEN_DEFAULT; fd++) {
		if (!fs->fd[fd])
			return fd;
	}
	return -EMFILE;
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
	if (file->f_op && file->f_op->release)
		file->f_op->release(file->f_inode, file);
	path_put(&file->f_path);
	kfree(file);
}

static int do_close(int fd)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	current_fs()->fd[fd] = NULL;
	current_fs()->close_on_exec &= ~(1UL << fd); /* the next file here starts without it */
	fput(file);
	return 0;
}

int vfs_close(int fd)
{
	int ret;

	vfs_lock();
	ret = do_close(fd);
	vfs_unlock();
	return ret;
}

/* Makes newfd another name for oldfd's open file, closing what newfd named before. */
static int do_dup2(int oldfd, int newfd)
{
	struct fs_context *fs = current_fs();
	struct file *file = fget(oldfd);

	if (!file || newfd < 0 || newfd >= NR_OPEN_DEFAULT)
		return -EBADF;
	if (oldfd == newfd)
		return newfd;
	file->f_count++;
	if (fs->fd[newfd])
		fput(fs->fd[newfd]);
	fs->fd[newfd] = file;
	fs->close_on_exec &= ~(1UL << newfd); /* dup2's copy is kept across exec, as Linux's */
	return newfd;
}

int vfs_dup2(int oldfd, int newfd)
{
	int ret;

	vfs_lock();
	ret = do_dup2(oldfd, newfd);
	vfs_unlock();
	return ret;
}

static int do_dup(int oldfd)
{
	struct file *file = fget(oldfd);
	int fd;

	if (!file)
		return -EBADF;
	fd = get_unused_fd(current_fs());
	if (fd < 0)
		return fd;
	return do_dup2(oldfd, fd);
}

int vfs_dup(int oldfd)
{
	int ret;

	vfs_lock();
	ret = do_dup(oldfd);
	vfs_unlock();
	return ret;
}

#define DEFAULT_UMASK 0022 /* Linux's init starts with it */

/* A fresh context: cwd at /, no open files. The first task gets one at boot. */
static void do_fs_context_init(struct fs_context *fs)
{
	memset(fs, 0, sizeof(*fs));
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

/* For fork: the child starts in the parent's cwd and shares every open file. Cannot fail. */
static void do_fs_context_copy(struct fs_context *dst, const struct fs_context *src)
{
	dst->cwd = src->cwd;
	dst->close_on_exec = src->close_on_exec;
	dst->umask = src->umask;
	path_get(&dst->cwd);
	for (int fd = 0; fd < NR_OPEN_DEFAULT; fd++) {
		dst->fd[fd] = src->fd[fd];
		if (dst->fd[fd])
			dst->fd[fd]->f_count++;
	}
}

void fs_context_copy(struct fs_context *dst, const struct fs_context *src)
{
	vfs_lock();
	do_fs_context_copy(dst, src);
	vfs_unlock();
}

/* For exit: closes every descriptor and lets go of the cwd. */
static void do_fs_context_exit(struct fs_context *fs)
{
	for (int fd = 0; fd < NR_OPEN_DEFAULT; fd++) {
		if (fs->fd[fd]) {
			fput(fs->fd[fd]);
			fs->fd[fd] = NULL;
		}
	}
	fs->close_on_exec = 0;
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
	int ret;

	vfs_lock();
	ret = fget(fd) ? !!(current_fs()->close_on_exec & (1UL << fd)) : -EBADF;
	vfs_unlock();
	return ret;
}

int vfs_set_cloexec(int fd, bool on)
{
	struct fs_context *fs = current_fs();
	int ret = 0;

	vfs_lock();
	if (!fget(fd))
		ret = -EBADF;
	else if (on)
		fs->close_on_exec |= 1UL << fd;
	else
		fs->close_on_exec &= ~(1UL << fd);
	vfs_unlock();
	return ret;
}

/* execve, past its point of no return: the new program never sees these (do_close_on_exec). */
void vfs_close_on_exec(void)
{
	struct fs_context *fs = current_fs();

	vfs_lock();
	for (int fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		if (fs->close_on_exec & (1UL << fd))
			do_close(fd);
	vfs_unlock();
}
