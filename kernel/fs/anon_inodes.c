/*
 * Anonymous inodes (Linux's fs/anon_inodes.c): the file behind a descriptor that names no file
 * in any directory, as epoll_create1, eventfd, signalfd and timerfd_create return. Each is an
 * inode of its own with no file type bits and mode 0600, and a dentry that is the root of a
 * tree of its own, named "anon_inode:[KIND]": what /proc/PID/fd/N shows, as on Linux.
 *
 * Opening one again by that name (/proc/PID/fd/N) is ENXIO, Linux's no_open.
 */
#include "kernel/fs/anon_inodes.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/printf.h"

#define ANON_INODE_MODE 0600 /* Linux's anon inode: no file type bits */
#define ANON_NAME_MAX 64

/* "anon_inodefs" (and memfd's shmem): counts the paths held, shows nowhere */
static struct vfsmount anon_inode_mnt;

static int no_open(struct inode *inode, struct file *file)
{
	(void)inode;
	(void)file;
	return -ENXIO;
}

const struct file_operations no_open_fops = {
	.open = no_open,
};

int pseudo_file_fd(struct inode *inode, const char *name, const struct file_operations *fops,
		   void *priv, unsigned int f_flags, bool cloexec)
{
	struct fs_context *fs = current_fs();
	struct dentry *dentry;
	struct file *file;
	int fd = -ENOMEM;

	vfs_lock();
	dentry = d_alloc(NULL, name, strlen(name));
	file = alloc_file();
	if (!dentry || !file)
		goto fail;
	fd = get_unused_fd(fs);
	if (fd < 0)
		goto fail;
	dentry->d_inode = inode; /* a root of its own: in no directory */
	file->f_path.mnt = &anon_inode_mnt;
	file->f_path.dentry = dentry;
	path_get(&file->f_path);
	dput(dentry); /* the file holds it now */
	file->f_inode = inode;
	file->f_op = fops;
	file->f_flags = f_flags;
	file->f_mode = FMODE_READ | FMODE_WRITE;
	file->private_data = priv;
	fs->fd[fd] = file;
	fd_set_cloexec(fs, fd, cloexec);
	vfs_unlock();
	return fd;
fail:
	kfree(file);
	if (dentry)
		dput(dentry);
	vfs_unlock();
	return fd;
}

int anon_inode_getfd(const char *kind, const struct file_operations *fops, void *priv, int flags)
{
	struct inode *inode = new_inode(ANON_INODE_MODE);
	char name[ANON_NAME_MAX];
	int fd;

	if (!inode)
		return -ENOMEM;
	inode->i_fop = &no_open_fops;
	snprintf(name, sizeof(name), "anon_inode:%s", kind);
	fd = pseudo_file_fd(inode, name, fops, priv, O_RDWR | ((unsigned int)flags & O_NONBLOCK),
			    flags & O_CLOEXEC);
	if (fd < 0)
		kfree(inode); /* not yet a dentry's */
	return fd;
}

struct file *fget_anon(int fd, const struct file_operations *fops, int *err)
{
	struct file *file = fget(fd);

	*err = 0;
	if (!file)
		*err = -EBADF;
	else if (file->f_op != fops)
		*err = -EINVAL;
	return *err ? NULL : file;
}
