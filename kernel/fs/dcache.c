/* The tree of names: dentries, their inodes, and the operations every in-memory fs shares. */

/*
 * Every Lucid file system lives in memory, so the dentry tree is not a cache of something on a
 * disk (as Linux's dcache is): it is the file system. ramfs and the pseudo file systems differ
 * only in who adds and removes names (users, or kernel code) and in their file operations.
 *
 * Lifetime is a reference count, d_count. References are held by:
 *   - the tree itself, for every dentry linked into it (one);
 *   - each child, on its parent, so ".." of a removed directory still leads somewhere;
 *   - each struct path kept beyond one call: open files, cwds, mounts.
 * Removing a name (d_delete) takes it out of its parent's list and drops the tree's reference.
 * Whoever still holds one (an open file, a cwd) keeps a working but nameless object, as on
 * Linux and Unix: an unlinked file stays readable until its last close. When the count reaches
 * zero the dentry, its inode and the inode's pages are freed, and the parent loses a reference.
 *
 * No locking here: callers hold the VFS lock (see kernel/fs/vfs.h). The checks of that are in the
 * debug and UBSAN builds only (lockdep_assert): they would run many times per file operation.
 */
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/page_alloc.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/locking/lockdep.h"

struct inode *new_inode(umode_t mode)
{
	static unsigned long last_ino;
	struct inode *inode = kzalloc(sizeof(*inode));

	if (!inode)
		return NULL;
	inode->i_ino = ++last_ino;
	inode->i_mode = mode;
	inode->i_atime = inode->i_mtime = inode->i_ctime = current_time();
	return inode;
}

static void free_inode(struct inode *inode)
{
	if (!inode)
		return;
	if (inode->i_op && inode->i_op->evict)
		inode->i_op->evict(inode);
	filemap_invalidate(inode);
	for (unsigned long i = 0; i < inode->i_nr_slots; i++) {
		if (inode->i_pages[i])
			put_page(inode->i_pages[i]); /* a process mapping it keeps it */
	}
	kfree(inode->i_pages);
	kfree(inode->i_link);
	kfree(inode);
}

/* A new, nameless-in-the-tree dentry under parent (NULL: a root). The caller owns its reference. */
struct dentry *d_alloc(struct dentry *parent, const char *name, size_t len)
{
	lockdep_assert(vfs_lock_held()); /* see the top of this file */
	struct dentry *dentry = kzalloc(sizeof(*dentry));

	if (!dentry)
		return NULL;
	dentry->d_name = kmalloc(len + 1);
	if (!dentry->d_name) {
		kfree(dentry);
		return NULL;
	}
	memcpy(dentry->d_name, name, len);
	dentry->d_name[len] = '\0';
	dentry->d_count = 1;
	dentry->d_parent = parent ? dget(parent) : dentry;
	INIT_LIST_HEAD(&dentry->d_child);
	INIT_LIST_HEAD(&dentry->d_subdirs);
	return dentry;
}

/* The root of a new tree; its one reference belongs to whoever keeps the tree (a mount, a fs). */
struct dentry *d_make_root(struct inode *inode)
{
	struct dentry *root = d_alloc(NULL, "/", 1);

	if (root)
		root->d_inode = inode;
	return root;
}

/* Gives a new dentry its inode and links it into the tree, which takes over the reference. */
void d_add(struct dentry *dentry, struct inode *inode)
{
	dentry->d_inode = inode;
	list_add_tail(&dentry->d_child, &dentry->d_parent->d_subdirs);
}

/*
 * A linear search: directories here hold tens of names, and a list keeps readdir's order
 * stable and the code short. Linux hashes (parent, name) for its huge dcache.
 */
struct dentry *d_lookup(struct dentry *parent, const char *name, size_t len)
{
	lockdep_assert(vfs_lock_held()); /* see the top of this file */
	struct dentry *child;

	/* The first byte inline: most siblings differ there, and it spares a call of strncmp. */
	list_for_each_entry(child, &parent->d_subdirs, d_child) {
		if (child->d_name[0] == name[0] && strncmp(child->d_name, name, len) == 0 &&
		    child->d_name[len] == '\0')
			return child;
	}
	return NULL;
}

struct dentry *dget(struct dentry *dentry)
{
	dentry->d_count++;
	return dentry;
}

/*
 * Drops a reference. Freeing a dentry drops its reference on its parent, which may free the
 * parent too: a loop rather than recursion, so a deep chain of removed directories cannot
 * overflow the kernel stack.
 */
void dput(struct dentry *dentry)
{
	while (dentry && --dentry->d_count == 0) {
		struct dentry *parent = dentry->d_parent == dentry ? NULL : dentry->d_parent;

		free_inode(dentry->d_inode);
		kfree(dentry->d_name);
		kfree(dentry);
		dentry = parent;
	}
}

/* Takes dentry out of the tree and drops the tree's reference: the name is gone. */
void d_delete(struct dentry *dentry)
{
	lockdep_assert(vfs_lock_held()); /* see the top of this file */
	list_del_init(&dentry->d_child);
	dentry->d_unlinked = true;
	dput(dentry);
}

/*
 * Rename: dentry takes target's name and place in the tree; target, already out of the tree,
 * takes dentry's old name and parent. Swapping (rather than copying) means rename never
 * allocates after the checks, and each parent keeps exactly the references it had.
 */
void d_move(struct dentry *dentry, struct dentry *target)
{
	lockdep_assert(vfs_lock_held()); /* see the top of this file */
	char *name = dentry->d_name;
	struct dentry *old_parent = dentry->d_parent;

	dentry->d_name = target->d_name;
	target->d_name = name;
	dentry->d_parent = target->d_parent;
	target->d_parent = old_parent;
	list_del(&dentry->d_child);
	list_add_tail(&dentry->d_child, &dentry->d_parent->d_subdirs);
}

/*
 * Removes dentry and everything below it, marking each inode with inode_flags (S_DEAD for the
 * pseudo file systems, whose data goes away with them). Leaves first; iterative, for the same
 * reason as dput().
 */
void d_kill_tree(struct dentry *dentry, unsigned int inode_flags)
{
	lockdep_assert(vfs_lock_held()); /* see the top of this file */
	struct dentry *d = dentry;

	for (;;) {
		while (!list_empty(&d->d_subdirs))
			d = list_first_entry(&d->d_subdirs, struct dentry, d_child);
		struct dentry *parent = d->d_parent;
		bool last = d == dentry;

		if (d->d_inode)
			d->d_inode->i_flags |= inode_flags;
		d_delete(d);
		if (last)
			return;
		d = parent;
	}
}

bool simple_empty(struct dentry *dentry)
{
	return list_empty(&dentry->d_subdirs);
}

/* unlink/rmdir/rename for file systems whose tree is all there is (ramfs; Linux's libfs). */
int simple_unlink(struct inode *dir, struct dentry *dentry)
{
	(void)dir;
	d_delete(dentry);
	return 0;
}

int simple_rmdir(struct inode *dir, struct dentry *dentry)
{
	if (!simple_empty(dentry))
		return -ENOTEMPTY;
	return simple_unlink(dir, dentry);
}

/* new_dentry is the name being replaced (positive) or a fresh one (negative), held by the VFS. */
int simple_rename(struct inode *old_dir, struct dentry *old_dentry, struct inode *new_dir,
		  struct dentry *new_dentry)
{
	if (new_dentry->d_inode) {
		int err = S_ISDIR(new_dentry->d_inode->i_mode) ? simple_rmdir(new_dir, new_dentry)
							      : simple_unlink(new_dir, new_dentry);
		if (err)
			return err;
	}
	(void)old_dir;
	d_move(old_dentry, new_dentry);
	return 0;
}

void path_get(const struct path *path)
{
	path->mnt->mnt_count++;
	dget(path->dentry);
}

void path_put(const struct path *path)
{
	path->mnt->mnt_count--;
	dput(path->dentry);
}

/*
 * Writes the absolute name of path into buf and returns its length. It climbs from the dentry
 * to the root of its tree, then across the mount to the directory it is mounted on, and so on
 * up to /, filling buf from the end. -ENOENT if a directory on the way was removed (Linux's
 * getcwd says the same), -ERANGE if buf is too small.
 */
int d_path(const struct path *path, char *buf, size_t size)
{
	struct path root, p = *path;
	size_t pos = size;

	if (size == 0)
		return -ERANGE;
	get_fs_root(&root);
	buf[--pos] = '\0';
	while (p.dentry != root.dentry || p.mnt != root.mnt) {
		if (p.dentry == p.mnt->mnt_root) {
			if (p.mnt->mnt_parent == p.mnt)
				break; /* cannot happen: the root mount's root is / */
			p.dentry = p.mnt->mnt_mountpoint;
			p.mnt = p.mnt->mnt_parent;
			continue;
		}
		if (p.dentry->d_unlinked)
			return -ENOENT;
		size_t len = strlen(p.dentry->d_name);

		if (pos < len + 1)
			return -ERANGE;
		pos -= len;
		memcpy(buf + pos, p.dentry->d_name, len);
		buf[--pos] = '/';
		p.dentry = p.dentry->d_parent;
	}
	if (pos == size - 1) {
		if (pos == 0)
			return -ERANGE;
		buf[--pos] = '/';
	}
	memmove(buf, buf + pos, size - pos);
	return (int)(size - pos - 1);
}
