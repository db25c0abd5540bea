/* The mount table: which file system tree shows at which directory. */

/*
 * A mount grafts the root of one tree onto a directory (the mount point) of another. The
 * mount point's dentry only learns that it is covered (d_mounted); the table says by what. Path
 * lookup asks lookup_mnt() whenever it steps onto a covered directory, and ".." at a mount's
 * root climbs back out to the mount point (kernel/fs/namei.c).
 *
 * The table is a list, searched linearly: a handful of mounts, and the list order is the order
 * mount(8) and /proc/mounts print. Stacking works without extra code: mounting on a covered
 * directory finds the top mount's root first, so the new mount sits on that.
 *
 * A mount is busy while paths inside it are held (open files, cwds: mnt_count) or other mounts
 * sit on it; umount then fails with -EBUSY, as on Linux. The root mount never goes.
 */
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/fs/seq_file.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

static LIST_HEAD(mounts);
static struct vfsmount *root_mnt;

#define MAX_FS_TYPES 8

/* The built-in types, then those register_filesystem() added (9p). */
static struct file_system_type *fs_types[MAX_FS_TYPES] = {
	&ramfs_fs_type,
	&debugfs_fs_type,
	&tracefs_fs_type,
	&proc_fs_type,
	&sysfs_fs_type,
};

int register_filesystem(struct file_system_type *type)
{
	for (size_t i = 0; i < ARRAY_SIZE(fs_types); i++) {
		if (!fs_types[i]) {
			fs_types[i] = type;
			return 0;
		}
	}
	return -EBUSY;
}

/* The root of everything: "/". Not referenced; it never goes away. */
void get_fs_root(struct path *root)
{
	root->mnt = root_mnt;
	root->dentry = root_mnt->mnt_root;
}

/* The mount sitting on mountpoint as seen through parent, or NULL. */
struct vfsmount *lookup_mnt(struct vfsmount *parent, struct dentry *mountpoint)
{
	struct vfsmount *mnt;

	list_for_each_entry(mnt, &mounts, mnt_list) {
		if (mnt->mnt_parent == parent && mnt->mnt_mountpoint == mountpoint && mnt != parent)
			return mnt;
	}
	return NULL;
}

/* If path is covered by a mount, moves it to the root of what is mounted there, repeatedly. */
void follow_mount(struct path *path)
{
	while (path->dentry->d_mounted) {
		struct vfsmount *mnt = lookup_mnt(path->mnt, path->dentry);

		if (!mnt)
			return; /* covered in another mount of the same tree, not in this one */
		path->mnt = mnt;
		path->dentry = mnt->mnt_root;
	}
}

static struct file_system_type *get_fs_type(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(fs_types) && fs_types[i]; i++) {
		if (strcmp(fs_types[i]->name, name) == 0)
			return fs_types[i];
	}
	return NULL;
}

/*
 * The device number stat shows for the files of the tree at root (st_dev): the one its other
 * mounts have, else a new one, as Linux gives each in-memory file system instance an anonymous
 * device (major 0: "0:21"). Tools tell file systems apart by it: busybox df finds the mount a
 * file is on by comparing st_dev with each mount point's, find -xdev stops at a change.
 */
static unsigned long tree_dev(const struct dentry *root)
{
	static unsigned long last_anon_dev;
	struct vfsmount *mnt;

	list_for_each_entry(mnt, &mounts, mnt_list) {
		if (mnt->mnt_root == root)
			return mnt->mnt_dev;
	}
	if (root_mnt && root_mnt->mnt_root == root)
		return root_mnt->mnt_dev;
	return ++last_anon_dev;
}

static struct vfsmount *alloc_mnt(struct file_system_type *type, const char *source, int *err)
{
	static int last_mnt_id; /* Linux's mnt_id: each mount's own, never reused */
	struct vfsmount *mnt = kzalloc(sizeof(*mnt));

	*err = -ENOMEM;
	if (!mnt)
		return NULL;
	mnt->mnt_id = ++last_mnt_id;
	/* Only a file system made from its source shows it: "nodev" stays out of the listing. */
	if (source && type->mount_source) {
		mnt->mnt_source = kstrdup(source);
		if (!mnt->mnt_source) {
			kfree(mnt);
			return NULL;
		}
	}
	if (type->mount_source)
		*err = type->mount_source(source, &mnt->mnt_root);
	else
		mnt->mnt_root = type->mount();
	if (!mnt->mnt_root) {
		kfree(mnt->mnt_source);
		kfree(mnt);
		return NULL;
	}
	*err = 0;
	mnt->mnt_type = type;
	mnt->mnt_dev = tree_dev(mnt->mnt_root);
	return mnt;
}

/*
 * Mounts a new instance of fstype ("ramfs", "debugfs", "tracefs", "proc", "9p") on directory
 * dir; source is what the file system is made from (9p: the mount tag), NULL for the others.
 */
static int do_mount(const char *fstype, const char *source, const char *dir)
{
	struct file_system_type *type = get_fs_type(fstype);
	struct vfsmount *mnt;
	struct path path;
	int err;

	if (!type)
		return -ENODEV; /* Linux: "unknown filesystem type" */
	err = kern_path(dir, LOOKUP_DIRECTORY, &path);
	if (err)
		return err;
	if (path.dentry->d_unlinked) {
		path_put(&path);
		return -ENOENT;
	}
	if (path.dentry == root_mnt->mnt_root) {
		path_put(&path);
		return -EBUSY; /* / stays the root: lookups start there without following mounts */
	}
	mnt = alloc_mnt(type, source, &err);
	if (!mnt) {
		path_put(&path);
		return err;
	}
	/* The mount keeps the mount point's dentry, not a path: it makes its parent busy by
	 * being in the table, not by mnt_count. */
	mnt->mnt_parent = path.mnt;
	mnt->mnt_mountpoint = dget(path.dentry);
	path.dentry->d_mounted++;
	list_add_tail(&mnt->mnt_list, &mounts);
	path_put(&path);
	return 0;
}

int vfs_mount_source(const char *fstype, const char *source, const char *dir)
{
	return vfs_locked(do_mount(fstype, source, dir));
}

int vfs_mount(const char *fstype, const char *dir)
{
	return vfs_mount_source(fstype, NULL, dir);
}

static bool has_submounts(const struct vfsmount *parent)
{
	struct vfsmount *mnt;

	list_for_each_entry(mnt, &mounts, mnt_list) {
		if (mnt->mnt_parent == parent && mnt != parent)
			return true;
	}
	return false;
}

static int do_umount(const char *dir)
{
	struct vfsmount *mnt;
	struct path path;
	int err = kern_path(dir, 0, &path);

	if (err)
		return err;
	path_put(&path); /* the VFS lock keeps it; mnt_count must not count us */
	mnt = path.mnt;
	if (path.dentry != mnt->mnt_root)
		return -EINVAL; /* not a mount point */
	if (mnt == root_mnt || mnt->mnt_count > 0 || has_submounts(mnt))
		return -EBUSY;
	list_del(&mnt->mnt_list);
	mnt->mnt_mountpoint->d_mounted--;
	dput(mnt->mnt_mountpoint);
	mnt->mnt_type->kill_sb(mnt->mnt_root);
	kfree(mnt->mnt_source);
	kfree(mnt);
	return 0;
}

int vfs_umount(const char *dir)
{
	return vfs_locked(do_umount(dir));
}

/* Where mnt is mounted, as an absolute name. */
static int mnt_path(const struct vfsmount *mnt, char *buf, size_t size)
{
	struct path where = { mnt->mnt_parent, mnt->mnt_mountpoint };

	if (mnt == root_mnt)
		return (int)strlcpy(buf, "/", size);
	return d_path(&where, buf, size);
}

/* The first column of the listings: the device (9p: the mount tag), else the type's name. */
static const char *mnt_source(const struct vfsmount *mnt)
{
	return mnt->mnt_source ? mnt->mnt_source : mnt->mnt_type->name;
}

/*
 * mount(8)'s listing: "debugfs on /sys/kernel/debug type debugfs (rw)". Lucid's file systems
 * have no device, so the first column is the type, as Linux shows for these file systems when
 * mounted by name.
 */
static int do_mount_list(char *buf, size_t size)
{
	struct vfsmount *mnt;
	char *name = kmalloc(PATH_MAX);
	size_t len = 0;

	if (!name)
		return -ENOMEM;
	list_for_each_entry(mnt, &mounts, mnt_list) {
		if (mnt_path(mnt, name, PATH_MAX) < 0)
			continue;
		len += snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0,
				"%s on %s type %s (rw)\n", mnt_source(mnt), name,
				mnt->mnt_type->name);
	}
	kfree(name);
	return (int)len;
}

int vfs_mount_list(char *buf, size_t size)
{
	return vfs_locked(do_mount_list(buf, size));
}

/* /proc/mounts, in Linux's format: "debugfs /sys/kernel/debug debugfs rw 0 0". */
static int mounts_show(struct seq_file *m, void *v)
{
	struct vfsmount *mnt;
	char *name = kmalloc(PATH_MAX);

	(void)v;
	if (!name)
		return -ENOMEM;
	list_for_each_entry(mnt, &mounts, mnt_list) {
		if (mnt_path(mnt, name, PATH_MAX) >= 0)
			seq_printf(m, "%s %s %s rw 0 0\n", mnt_source(mnt), name,
				   mnt->mnt_type->name);
	}
	kfree(name);
	return 0;
}

static int mounts_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return single_open(file, mounts_show, NULL);
}

static const struct file_operations proc_mounts_operations = {
	.open = mounts_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* Mounts a ramfs as "/" and publishes the table as /proc/mounts. */
int mnt_init(void)
{
	int err;

	root_mnt = alloc_mnt(&ramfs_fs_type, NULL, &err);
	if (!root_mnt)
		return err;
	root_mnt->mnt_parent = root_mnt;
	root_mnt->mnt_mountpoint = root_mnt->mnt_root;
	list_add_tail(&root_mnt->mnt_list, &mounts);
	if (!proc_create("mounts", 0444, NULL, &proc_mounts_operations))
		return -ENOMEM;
	return 0;
}
