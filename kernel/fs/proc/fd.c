/*
 * /proc/PID/fd and /proc/PID/fdinfo (Linux's fs/proc/fd.c): a process's open files, one name
 * per descriptor. fd/N is a symbolic link whose text names the file as Linux does (its path,
 * "pipe:[INODE]" for a pipe, "anon_inode:[pidfd]"), and whose mode says how the file is
 * open (lr-x------ read, l-wx------ write, lrwx------ both); fdinfo/N is a file with its
 * position, flags, mount and inode.
 *
 * An fd link is not followed by its text: it leads to the open file itself (Linux's "magic
 * links", proc_fd_link and nd_jump_link), through inode_operations.proc_get_link. So opening
 * /proc/self/fd/N (or /dev/fd/N, /dev/stdin: links to it) opens the same file again, even one
 * no name reaches: a pipe opened so is a new open of the same pipe, which is how bash's
 * `cat <(echo x)` gives cat the pipe, and a removed file is still there.
 *
 * As /proc/PID itself (base.c), the names are made when asked for: a lookup of "3" makes the
 * link if the process has descriptor 3 open, and revalidate drops it once that descriptor
 * is closed or names another file; a listing first makes the names of all the open ones, in
 * descriptor order as Linux lists them. Everything here runs under the VFS lock, which is
 * what keeps another process's descriptor table and its files still while they are read
 * (a table is changed, and freed at exit, only under that lock: kernel/fs/fs_struct.c).
 */
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/lockdep.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"

#define PROC_FD_LINK_SIZE 64 /* what stat says of an fd link's size, as Linux */
#define PROC_FD_NAME_MAX 12 /* a descriptor's number in decimal and a NUL */
#define FD_DIR_MODE (S_IFDIR | 0500) /* dr-x------, as Linux's fd */
#define FDINFO_DIR_MODE (S_IFDIR | 0555) /* dr-xr-xr-x, as Linux's fdinfo */

/* An fd link's or fdinfo file's i_private: the process and the descriptor, in one word. */
#define FD_KEY(pid, fd) ((void *)(((unsigned long)(pid) << 32) | (unsigned int)(fd)))
#define KEY_PID(key) ((int)((unsigned long)(key) >> 32))
#define KEY_FD(key) ((int)((unsigned long)(key)&0xffffffffUL))

static const struct inode_operations proc_fd_inode_operations;
static const struct inode_operations proc_fdinfo_inode_operations;
static const struct inode_operations proc_fd_link_inode_operations;
static const struct file_operations proc_fdinfo_fops;

/* The descriptor table of task pid, or NULL (gone, or a kernel thread's: none of its own). */
static struct fs_context *task_files(int pid)
{
	lockdep_assert(vfs_lock_held()); /* it keeps the table from being freed: see above */
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct fs_context *fs = NULL;
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->pid == pid) {
			fs = t->reaped ? NULL : t->fs;
			break;
		}
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return fs;
}

/* The file open at descriptor fd of the table fs (NULL: none), or NULL. */
static struct file *files_fget(struct fs_context *fs, int fd)
{
	if (!fs || fd < 0 || (unsigned int)fd >= fs->max_fds)
		return NULL;
	return fs->fd[fd];
}

/* The file open at descriptor fd of task pid, or NULL. */
static struct file *task_fget(int pid, int fd)
{
	return files_fget(task_files(pid), fd);
}

/*
 * What readlink says of an open file: its path, or for a file in no directory (a pipe, a
 * pidfd) the name Linux's d_dname makes: "pipe:[INODE]" (a name ending in ':' takes the
 * inode's number), "anon_inode:[pidfd]". A file removed since: its name and " (deleted)".
 */
static void file_link_text(struct file *file, char *buf, size_t size)
{
	struct dentry *d = file->f_path.dentry;
	size_t len = strlen(d->d_name);

	if (d->d_parent == d && d != file->f_path.mnt->mnt_root) {
		if (len && d->d_name[len - 1] == ':')
			snprintf(buf, size, "%s[%lu]", d->d_name, d->d_inode->i_ino);
		else
			strlcpy(buf, d->d_name, size);
		return;
	}
	if (d_path(&file->f_path, buf, size) >= 0)
		return;
	/* Removed: where it was, as Linux's d_path says it. */
	struct path dir = {file->f_path.mnt, d->d_parent};

	if (d->d_parent == d || d_path(&dir, buf, size) < 0)
		buf[0] = '\0';
	len = strlen(buf);
	/* "/tmp" + "/" + name; "/" + name: the root's path ends in the slash already. */
	snprintf(buf + len, size - len, "%s%s (deleted)", len == 1 ? "" : "/", d->d_name);
}

/* The link's mode: r-x for reading, -wx for writing, as Linux's tid_fd_update_inode. */
static umode_t fd_link_mode(const struct file *file)
{
	umode_t mode = S_IFLNK;

	if (file->f_mode & FMODE_READ)
		mode |= 0500;
	if (file->f_mode & FMODE_WRITE)
		mode |= 0300;
	return mode;
}

/* The name of a descriptor: "0", "1", ...; -1 if not one (Linux: no leading zeros, no sign). */
static int name_to_fd(const char *name)
{
	int fd;

	if (name[0] < '0' || name[0] > '9' || (name[0] == '0' && name[1]) ||
	    kstrtoint(name, 10, &fd))
		return -1;
	return fd;
}

/* Makes dentry (named for a descriptor of pid) the fd link or the fdinfo file. */
static int fd_instantiate(struct dentry *dentry, int pid, bool info)
{
	int fd = name_to_fd(dentry->d_name);
	struct file *file = fd < 0 ? NULL : task_fget(pid, fd);
	struct inode *inode;

	if (!file)
		return -ENOENT;
	inode = new_inode(info ? S_IFREG | 0444 : fd_link_mode(file));
	if (!inode)
		return -ENOMEM;
	inode->i_private = FD_KEY(pid, fd);
	if (info) {
		inode->i_fop = &proc_fdinfo_fops;
	} else {
		inode->i_op = &proc_fd_link_inode_operations;
		inode->i_size = PROC_FD_LINK_SIZE;
		inode->i_link = kmalloc(PATH_MAX);
		if (!inode->i_link) {
			kfree(inode);
			return -ENOMEM;
		}
		file_link_text(file, inode->i_link, PATH_MAX);
	}
	dget(dentry); /* the tree's reference, as d_add's callers give it */
	d_add(dentry, inode);
	return 0;
}

static int proc_fd_lookup(struct inode *dir, struct dentry *dentry)
{
	return fd_instantiate(dentry, (int)(long)dir->i_private, false);
}

static int proc_fdinfo_lookup(struct inode *dir, struct dentry *dentry)
{
	return fd_instantiate(dentry, (int)(long)dir->i_private, true);
}

/* A cached fd name stays while its descriptor is open on the same file, the same way. */
static bool proc_fd_revalidate(struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;
	void *key = inode->i_private;
	struct file *file = task_fget(KEY_PID(key), KEY_FD(key));
	char *text;
	bool same;

	if (!file)
		return false;
	if (!S_ISLNK(inode->i_mode))
		return true; /* an fdinfo file: reads what is open at the time */
	if (inode->i_mode != fd_link_mode(file))
		return false;
	text = kmalloc(PATH_MAX);
	if (!text)
		return false; /* made again at the lookup */
	file_link_text(file, text, PATH_MAX);
	same = strcmp(text, inode->i_link) == 0;
	kfree(text);
	return same;
}

/* Before a listing: every open descriptor's name, afresh and in order (0, 1, 2, ..., 10). */
static void proc_fd_populate(struct dentry *dir)
{
	int pid = (int)(long)dir->d_inode->i_private;
	bool info = dir->d_inode->i_op == &proc_fdinfo_inode_operations;
	struct dentry *d, *next;

	list_for_each_entry_safe(d, next, &dir->d_subdirs, d_child)
	{
		if (d->d_inode)
			d_kill_tree(d, 0);
	}
	struct fs_context *fs = task_files(pid);

	for (int fd = 0; fs && (unsigned int)fd < fs->max_fds; fd++) {
		char name[PROC_FD_NAME_MAX];
		size_t len;

		if (!fs->fd[fd])
			continue;
		len = (size_t)snprintf(name, sizeof(name), "%d", fd);
		d = d_alloc(dir, name, len);
		if (!d)
			return; /* the listing shows what there is */
		fd_instantiate(d, pid, info);
		dput(d); /* ours; the tree keeps its own */
	}
}

/*
 * A name made here by a user: Linux's lookup answers ENOENT for a name that is no open
 * descriptor before mkdir, symlink or open's create is tried, so that is what they say.
 */
static int proc_fd_no_create(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	(void)dir;
	(void)dentry;
	(void)mode;
	return -ENOENT;
}

static int proc_fd_no_symlink(struct inode *dir, struct dentry *dentry, const char *target)
{
	(void)dir;
	(void)dentry;
	(void)target;
	return -ENOENT;
}

static const struct inode_operations proc_fd_inode_operations = {
	.create = proc_fd_no_create,
	.mkdir = proc_fd_no_create,
	.symlink = proc_fd_no_symlink,
	.lookup = proc_fd_lookup,
	.revalidate = proc_fd_revalidate,
	.populate = proc_fd_populate,
};

static const struct inode_operations proc_fdinfo_inode_operations = {
	.create = proc_fd_no_create,
	.mkdir = proc_fd_no_create,
	.symlink = proc_fd_no_symlink,
	.lookup = proc_fdinfo_lookup,
	.revalidate = proc_fd_revalidate,
	.populate = proc_fd_populate,
};

/* Following fd/N: the open file's own path, not its text (see the top of this file). */
static int proc_fd_link(struct dentry *link, struct path *path)
{
	void *key = link->d_inode->i_private;
	struct file *file = task_fget(KEY_PID(key), KEY_FD(key));

	if (!file)
		return -ENOENT; /* closed since the lookup */
	*path = file->f_path;
	return 0;
}

static const struct inode_operations proc_fd_link_inode_operations = {
	.proc_get_link = proc_fd_link,
};

/* Linux 6.1's seq_show (fs/proc/fd.c): the flags in octal, O_CLOEXEC from the table. */
static int fdinfo_show(struct seq_file *m, void *v)
{
	void *key = m->private;
	struct fs_context *fs = task_files(KEY_PID(key));
	int fd = KEY_FD(key);
	struct file *file = files_fget(fs, fd);
	unsigned int flags;

	(void)v;
	if (!file)
		return -ENOENT;
	flags = file->f_flags;
	if (fd_is_cloexec(fs, fd))
		flags |= O_CLOEXEC;
	seq_printf(m, "pos:\t%li\nflags:\t0%o\nmnt_id:\t%d\nino:\t%lu\n", (long)file->f_pos, flags,
		   file->f_path.mnt->mnt_id, file->f_inode->i_ino);
	return 0;
}

static int fdinfo_open(struct inode *inode, struct file *file)
{
	return single_open(file, fdinfo_show, inode->i_private);
}

static const struct file_operations proc_fdinfo_fops = {
	.open = fdinfo_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

int proc_fd_dirs_create(struct dentry *pid_dir, int pid)
{
	struct dentry *fd = proc_mkdir("fd", pid_dir);
	struct dentry *fdinfo = fd ? proc_mkdir("fdinfo", pid_dir) : NULL;

	if (!fdinfo)
		return -ENOMEM;
	fd->d_inode->i_mode = FD_DIR_MODE;
	fd->d_inode->i_op = &proc_fd_inode_operations;
	fd->d_inode->i_private = (void *)(long)pid;
	fdinfo->d_inode->i_mode = FDINFO_DIR_MODE;
	fdinfo->d_inode->i_op = &proc_fdinfo_inode_operations;
	fdinfo->d_inode->i_private = (void *)(long)pid;
	return 0;
}
