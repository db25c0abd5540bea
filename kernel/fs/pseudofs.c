/* debugfs, tracefs, proc, sysfs: file systems whose files are made by kernel code, not users. */

/*
 * A pseudo file has no data of its own: it is a name, a mode and a struct file_operations
 * whose read generates text on the fly (often with seq_file) and whose write parses commands.
 * Each of the three file systems is one tree, made at boot and never freed; mounting it
 * anywhere shows that same tree (the mount's root is the tree's root, referenced once more),
 * and unmounting only drops the reference.
 *
 * tracefs's tree is not separate: its root is the directory "tracing" in debugfs's tree, which
 * is how Linux's /sys/kernel/debug/tracing shows the tracing files. Mounting tracefs simply
 * starts a mount at that directory. sysfs, mounted at /sys, holds the directories the other two
 * are mounted on (kernel/debug, kernel/tracing) and /sys/module (kernel/fs/sysfs.h).
 *
 * Users cannot add or remove names here: the directories have no inode operations, so mkdir
 * and unlink fail with -EPERM and creating a file with -EACCES, as on Linux. The one exception
 * is a directory made by tracefs_create_instance_dir(), whose mkdir and rmdir call back into
 * its owner, as Linux's tracefs "instances" do (trace/trace_instances.c).
 */
#include "kernel/fs/vfs_internal.h"
#include "kernel/fs/debugfs.h"
#include "kernel/fs/tracefs.h"
#include "kernel/fs/sysfs.h"
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/mm/kmalloc.h"
#include "lib/errno.h"
#include "lib/string.h"

static struct dentry *debugfs_root, *tracefs_root, *proc_root, *sysfs_root, *sysfs_module;

static struct dentry *pseudo_create(const char *name, umode_t mode, struct dentry *parent,
				    void *data, const struct file_operations *fops,
				    const struct inode_operations *iop)
{
	struct dentry *dentry;
	struct inode *inode;
	size_t len;

	if (!name || !parent)
		return NULL; /* parent is NULL when creation of the parent failed */
	len = strnlen(name, NAME_MAX + 1);
	if (len == 0 || len > NAME_MAX || strchr(name, '/') || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0)
		return NULL;
	if (!S_ISDIR(parent->d_inode->i_mode) || parent->d_unlinked || d_lookup(parent, name, len))
		return NULL;
	inode = new_inode(mode);
	if (!inode)
		return NULL;
	inode->i_op = iop;
	inode->i_fop = fops;
	inode->i_private = data;
	dentry = d_alloc(parent, name, len);
	if (!dentry) {
		kfree(inode);
		return NULL;
	}
	d_add(dentry, inode); /* the tree keeps d_alloc's reference; the caller gets a handle */
	return dentry;
}

static struct dentry *create_file(const char *name, umode_t mode, struct dentry *parent,
				  void *data, const struct file_operations *fops)
{
	return pseudo_create(name, S_IFREG | (mode & 07777), parent, data, fops, NULL);
}

static struct dentry *create_dir(const char *name, struct dentry *parent)
{
	return pseudo_create(name, S_IFDIR | 0755, parent, NULL, NULL, NULL);
}

/*
 * The roots themselves are never removed: mounts and the other trees depend on them. dead_flags
 * is S_DEAD, with S_DEAD_ENODEV for the trees whose removed files Linux answers with -ENODEV.
 */
static void pseudo_remove(struct dentry *dentry, unsigned int dead_flags)
{
	if (!dentry || dentry->d_unlinked || dentry->d_parent == dentry || dentry == tracefs_root)
		return;
	d_kill_tree(dentry, dead_flags);
}

struct dentry *debugfs_create_file(const char *name, umode_t mode, struct dentry *parent,
				   void *data, const struct file_operations *fops)
{
	return create_file(name, mode, parent ? parent : debugfs_root, data, fops);
}

struct dentry *debugfs_create_dir(const char *name, struct dentry *parent)
{
	return create_dir(name, parent ? parent : debugfs_root);
}

void debugfs_remove(struct dentry *dentry)
{
	pseudo_remove(dentry, S_DEAD);
}

struct dentry *tracefs_create_file(const char *name, umode_t mode, struct dentry *parent,
				   void *data, const struct file_operations *fops)
{
	return create_file(name, mode, parent ? parent : tracefs_root, data, fops);
}

struct dentry *tracefs_create_dir(const char *name, struct dentry *parent)
{
	return create_dir(name, parent ? parent : tracefs_root);
}

void tracefs_remove(struct dentry *dentry)
{
	pseudo_remove(dentry, S_DEAD | S_DEAD_ENODEV);
}

/*
 * Is a file or directory below dir in use: open, or someone's working directory? A dentry's
 * count is one for the tree, one per child, and one per open file or cwd (struct dentry), so
 * any count above the first two says so. The VFS lock, held by the caller (rmdir), keeps
 * anyone from opening one meanwhile. dir's own count is not looked at: rmdir holds it.
 */
bool tracefs_tree_busy(struct dentry *dir)
{
	struct dentry *d;

	list_for_each_entry(d, &dir->d_subdirs, d_child)
	{
		int children = 0;
		struct dentry *c;

		list_for_each_entry(c, &d->d_subdirs, d_child)
		{
			children++;
		}
		if (d->d_count > 1 + children || tracefs_tree_busy(d))
			return true;
	}
	return false;
}

struct dentry *sysfs_create_file(const char *name, umode_t mode, struct dentry *parent,
				 void *data, const struct file_operations *fops)
{
	struct dentry *dentry;

	vfs_lock();
	dentry = create_file(name, mode, parent ? parent : sysfs_root, data, fops);
	vfs_unlock();
	return dentry;
}

struct dentry *sysfs_create_dir(const char *name, struct dentry *parent)
{
	struct dentry *dentry;

	vfs_lock();
	dentry = create_dir(name, parent ? parent : sysfs_root);
	vfs_unlock();
	return dentry;
}

void sysfs_remove(struct dentry *dentry)
{
	vfs_lock();
	pseudo_remove(dentry, S_DEAD | S_DEAD_ENODEV);
	vfs_unlock();
}

struct dentry *sysfs_module_dir(void)
{
	return sysfs_module;
}

static int (*instance_mkdir_cb)(const char *name);
static int (*instance_rmdir_cb)(const char *name);

static int instance_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	(void)dir;
	(void)mode;
	/* dentry is the VFS's nameless placeholder: the callback makes the real directory. */
	return instance_mkdir_cb(dentry->d_name);
}

static int instance_rmdir(struct inode *dir, struct dentry *dentry)
{
	int err;

	(void)dir;
	dget(dentry); /* the callback's tracefs_remove() must not free the name it was given */
	err = instance_rmdir_cb(dentry->d_name);
	dput(dentry);
	return err;
}

static const struct inode_operations instance_dir_inode_operations = {
	.mkdir = instance_mkdir,
	.rmdir = instance_rmdir,
};

struct dentry *tracefs_create_instance_dir(const char *name, struct dentry *parent,
					   int (*mkdir)(const char *name),
					   int (*rmdir)(const char *name))
{
	struct dentry *dentry;

	if (instance_mkdir_cb)
		return NULL; /* only one, as in Linux */
	dentry = pseudo_create(name, S_IFDIR | 0755, parent ? parent : tracefs_root, NULL, NULL,
			       &instance_dir_inode_operations);
	if (dentry) {
		instance_mkdir_cb = mkdir;
		instance_rmdir_cb = rmdir;
	}
	return dentry;
}

struct dentry *proc_create_data(const char *name, umode_t mode, struct dentry *parent,
				const struct file_operations *fops, void *data)
{
	struct dentry *dentry;

	if ((mode & 07777) == 0)
		mode |= S_IRUGO;
	dentry = create_file(name, mode, parent ? parent : proc_root, data, fops);
	if (dentry)
		dentry->d_inode->i_flags |= S_PROC_EIO;
	return dentry;
}

struct dentry *proc_create(const char *name, umode_t mode, struct dentry *parent,
			   const struct file_operations *fops)
{
	return proc_create_data(name, mode, parent, fops, NULL);
}

struct dentry *proc_mkdir(const char *name, struct dentry *parent)
{
	return create_dir(name, parent ? parent : proc_root);
}

void proc_remove(struct dentry *dentry)
{
	pseudo_remove(dentry, S_DEAD); /* proc_reg_read: -EIO once use_pde fails */
}

/* /proc's names that are not in its tree (kernel/fs/proc/base.c: the pids) come from iop. */
void proc_root_set_operations(const struct inode_operations *iop)
{
	proc_root->d_inode->i_op = iop;
}

static struct dentry *debugfs_mount(void)
{
	return dget(debugfs_root);
}

static struct dentry *tracefs_mount(void)
{
	return dget(tracefs_root);
}

static struct dentry *proc_mount(void)
{
	return dget(proc_root);
}

static struct dentry *sysfs_mount(void)
{
	return dget(sysfs_root);
}

static void pseudo_kill_sb(struct dentry *root)
{
	dput(root);
}

struct file_system_type debugfs_fs_type = {
	.name = "debugfs",
	.mount = debugfs_mount,
	.kill_sb = pseudo_kill_sb,
	.magic = DEBUGFS_MAGIC,
};
struct file_system_type tracefs_fs_type = {
	.name = "tracefs",
	.mount = tracefs_mount,
	.kill_sb = pseudo_kill_sb,
	.magic = TRACEFS_MAGIC,
};
struct file_system_type proc_fs_type = {
	.name = "proc",
	.mount = proc_mount,
	.kill_sb = pseudo_kill_sb,
	.magic = PROC_SUPER_MAGIC,
};

struct file_system_type sysfs_fs_type = {
	.name = "sysfs",
	.mount = sysfs_mount,
	.kill_sb = pseudo_kill_sb,
	.magic = SYSFS_MAGIC,
};

static struct dentry *pseudo_root(void)
{
	struct inode *inode = new_inode(S_IFDIR | 0755);
	struct dentry *root = inode ? d_make_root(inode) : NULL;

	if (inode && !root)
		kfree(inode);
	return root;
}

/* Makes the (empty) trees, so that kernel code can add files before anything is mounted. */
int pseudofs_init(void)
{
	struct dentry *kernel, *debug, *tracing;

	debugfs_root = pseudo_root();
	proc_root = pseudo_root();
	sysfs_root = pseudo_root();
	tracefs_root = debugfs_create_dir("tracing", NULL);
	/* Where debugfs and tracefs are mounted in /sys, as Linux's sysfs has them. */
	kernel = create_dir("kernel", sysfs_root);
	debug = create_dir("debug", kernel);
	tracing = create_dir("tracing", kernel);
	sysfs_module = create_dir("module", sysfs_root);
	if (!debugfs_root || !proc_root || !tracefs_root || !debug || !tracing || !sysfs_module)
		return -ENOMEM;
	return 0;
}
