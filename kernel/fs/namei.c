/* Path name lookup, and the calls that make and remove names: open's create, mkdir, rmdir, ... */

/*
 * A path is walked one component at a time from / (absolute) or the task's cwd (relative).
 * Repeated slashes are one slash; "." stays; ".." goes to the parent, and at the root of a
 * mounted tree first climbs back out through the mount to the directory it covers (so
 * /debug/.. is /, even though debugfs's own root has no parent); after every step down, a
 * directory that has something mounted on it is replaced by that mount's root (follow_mount).
 * That is why a position is a struct path, (mount, dentry), and not a dentry alone: the same
 * debugfs dentry can be reached through /debug and /sys/kernel/debug, and ".." must know which.
 *
 * Most calls want the directory that holds the last component plus that component's name
 * (mkdir "a/b/c" must create "c" in "a/b"), so the walk stops one short: path_parentat().
 * A trailing slash ("dir/") says the last component must be a directory.
 *
 * A symbolic link met on the way is followed: its target is walked from the directory holding
 * the link (or from / if absolute), and the walk goes on from where that lands. The last
 * component is followed too unless the caller says not to (lstat, readlink, unlink, rename:
 * those work on the link itself). At most MAXSYMLINKS links per lookup, then ELOOP, as Linux.
 *
 * The walk takes no references: everything runs under the VFS lock, so nothing can be removed
 * under it. Only a path kept after the call (an open file, a cwd) is pinned, with path_get().
 */
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/filemap.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/locking/lockdep.h"

enum { LAST_NORM, LAST_ROOT, LAST_DOT, LAST_DOTDOT };

#define MAXSYMLINKS 40 /* links followed in one lookup before ELOOP (Linux's) */

/*
 * openat2's RESOLVE_* rules (kernel/fs/open.c) for the lookup in progress: set around one open
 * and cleared after it, both under the VFS lock, which every walk runs under, so that there is
 * never more than one. Inactive, every walk is as above. Active:
 *   start  where a relative name starts (openat2's dirfd, or the cwd), and for RESOLVE_BENEATH
 *          and RESOLVE_IN_ROOT the root of the scope: an absolute name, an absolute link or a
 *          ".." above it is EXDEV (BENEATH) or stays at it (IN_ROOT, as "/.." stays at "/");
 *   RESOLVE_NO_SYMLINKS    a link to follow is ELOOP;
 *   RESOLVE_NO_MAGICLINKS  a /proc/PID/fd/N-style link to follow is ELOOP (EXDEV when scoped);
 *   RESOLVE_NO_XDEV        a step onto another mount, down, up or by a link, is EXDEV.
 */
static bool is_dir(const struct dentry *dentry);

static struct {
	bool active;
	struct fs_context *owner; /* whose: an open may let the lock go after its walk (a FIFO's) */
	unsigned int resolve;
	struct path start;
} walk_scope;

/* Inline and unlikely: every walk of every open asks, and almost none is openat2's. */
static inline bool scope_active(void)
{
	return __builtin_expect(walk_scope.active, 0) && walk_scope.owner == current_fs();
}

static inline bool scoped(unsigned int flag)
{
	return scope_active() && (walk_scope.resolve & flag);
}

static bool path_equal(const struct path *a, const struct path *b)
{
	return a->mnt == b->mnt && a->dentry == b->dentry;
}

/* follow_mount, and EXDEV if that crossed onto another mount under RESOLVE_NO_XDEV. */
static inline int scope_follow_mount(struct path *path)
{
	struct vfsmount *before = path->mnt;

	follow_mount(path);
	return __builtin_expect(scoped(RESOLVE_NO_XDEV) && path->mnt != before, 0) ? -EXDEV : 0;
}

int namei_scope_begin(int dfd, unsigned int resolve)
{
	lockdep_assert(vfs_lock_held());
	if (dfd == AT_FDCWD) {
		walk_scope.start = current_fs()->cwd;
	} else {
		struct file *file = fget(dfd);

		if (!file)
			return -EBADF;
		if (!is_dir(file->f_path.dentry))
			return -ENOTDIR;
		walk_scope.start = file->f_path;
	}
	walk_scope.resolve = resolve;
	walk_scope.owner = current_fs();
	walk_scope.active = true;
	return 0;
}

void namei_scope_end(void)
{
	if (walk_scope.owner == current_fs())
		walk_scope.active = false;
}

struct nameidata {
	struct path path;	/* the directory holding last */
	const char *last;	/* the last component, not NUL-terminated */
	size_t last_len;
	int last_type;		/* LAST_ROOT: the name was only slashes, there is no last */
	bool trailing_slash;
	int *links;		/* links followed so far, shared with the walks of their targets */
	int link_count;		/* the storage links points at for a top-level lookup */
};

static int walk_component(struct path *path, const char *name, size_t len, int type, int *links,
			  bool follow);

static bool is_dir(const struct dentry *dentry)
{
	return S_ISDIR(dentry->d_inode->i_mode);
}

static int follow_dotdot(struct path *path)
{
	struct path root;

	get_fs_root(&root);
	if (scoped(RESOLVE_BENEATH | RESOLVE_IN_ROOT) && path_equal(path, &walk_scope.start))
		return scoped(RESOLVE_BENEATH) ? -EXDEV : 0; /* IN_ROOT: its ".." is itself */
	for (;;) {
		if (path->dentry == root.dentry && path->mnt == root.mnt)
			return 0; /* "/.." is "/" */
		if (path->dentry != path->mnt->mnt_root) {
			path->dentry = path->dentry->d_parent;
			break;
		}
		if (scoped(RESOLVE_NO_XDEV))
			return -EXDEV;
		/* At the top of a mounted tree: continue from the directory it is mounted on. */
		path->dentry = path->mnt->mnt_mountpoint;
		path->mnt = path->mnt->mnt_parent;
	}
	/* The parent may itself have been mounted on since we came down through it. */
	return scope_follow_mount(path);
}

/*
 * The child called name in dir: from the dentry tree, or else, for a file system whose files
 * are elsewhere (9p), asked of it: its lookup attaches an inode to a new dentry if the name
 * exists. NULL: there is no such name (or the file system could not tell: an I/O error reads
 * as "not there").
 */
static struct dentry *lookup_one(struct dentry *dir, const char *name, size_t len)
{
	const struct inode_operations *iop = dir->d_inode->i_op;
	struct dentry *child = d_lookup(dir, name, len);
	int err;

	if (child && iop && iop->revalidate && !iop->revalidate(child)) {
		d_kill_tree(child, 0); /* its open files are the file system's to answer */
		child = NULL;
	}
	if (child || !iop || !iop->lookup || dir->d_unlinked)
		return child;
	child = d_alloc(dir, name, len);
	if (!child)
		return NULL;
	err = iop->lookup(dir->d_inode, child);
	dput(child); /* ours; the tree holds its own if lookup found the name */
	return err ? NULL : child;
}

static int walk_path(const char *name, const struct path *start, int *links, struct nameidata *nd);
static int lookup_last_follow(struct nameidata *nd, bool follow);

/*
 * Where the link at dentry, found in the directory dir, leads: *path. A link that stands for
 * an open file (/proc/PID/fd/N) leads to that file, whatever its text says.
 */
static int follow_link(const struct path *dir, struct dentry *link, int *links, struct path *path)
{
	const struct inode_operations *iop = link->d_inode->i_op;
	struct nameidata nd;
	int err;

	if (++*links > MAXSYMLINKS)
		return -ELOOP;
	if (scoped(RESOLVE_NO_SYMLINKS))
		return -ELOOP;
	if (iop && iop->proc_get_link) {
		/* A magic link: Linux's nd_jump_link checks. */
		if (scoped(RESOLVE_NO_MAGICLINKS))
			return -ELOOP;
		err = iop->proc_get_link(link, path);
		if (!err && scoped(RESOLVE_NO_XDEV) && path->mnt != dir->mnt)
			err = -EXDEV;
		if (!err && scoped(RESOLVE_BENEATH | RESOLVE_IN_ROOT))
			err = -EXDEV; /* not safe for a scoped lookup (Linux's) */
		return err;
	}
	err = walk_path(link->d_inode->i_link, dir, links, &nd);
	if (!err)
		err = lookup_last_follow(&nd, true);
	if (!err)
		*path = nd.path;
	return err;
}

/* One step from the directory at *path to its component name; follow: through a link too. */
static int walk_component(struct path *path, const char *name, size_t len, int type, int *links,
			  bool follow)
{
	lockdep_assert(vfs_lock_held()); /* see the top of this file */
	struct dentry *child;
	struct path dir = *path;

	if (!is_dir(path->dentry))
		return -ENOTDIR;
	if (type == LAST_DOT)
		return 0;
	if (type == LAST_DOTDOT)
		return follow_dotdot(path);
	/* A removed directory has no children left, so lookups in it fail with -ENOENT. */
	child = lookup_one(path->dentry, name, len);
	if (!child)
		return -ENOENT;
	if (follow && S_ISLNK(child->d_inode->i_mode))
		return follow_link(&dir, child, links, path);
	path->dentry = child;
	return scope_follow_mount(path);
}

static int component_type(const char *name, size_t len)
{
	if (len == 1 && name[0] == '.')
		return LAST_DOT;
	if (len == 2 && name[0] == '.' && name[1] == '.')
		return LAST_DOTDOT;
	return LAST_NORM;
}

/*
 * Walks all of name but its last component, from start for a relative name (NULL: the cwd);
 * leaves nd->path at the directory holding it. links counts the symbolic links followed.
 */
static int walk_path(const char *name, const struct path *start, int *links, struct nameidata *nd)
{
	size_t len = strnlen(name, PATH_MAX);

	nd->links = links;
	if (len == 0)
		return -ENOENT; /* Linux: the empty name names nothing */
	if (len == PATH_MAX)
		return -ENAMETOOLONG;
	if (*name == '/' && !scope_active()) {
		get_fs_root(&nd->path);
	} else if (*name == '/') {
		struct path root;

		if (scoped(RESOLVE_BENEATH))
			return -EXDEV;
		if (scoped(RESOLVE_IN_ROOT))
			root = walk_scope.start;
		else
			get_fs_root(&root);
		/* An absolute link from another mount (the name openat2 was given may be). */
		if (scoped(RESOLVE_NO_XDEV) && start && start->mnt != root.mnt)
			return -EXDEV;
		nd->path = root;
	} else {
		nd->path = start ? *start : scope_active() ? walk_scope.start : current_fs()->cwd;
	}
	nd->last = NULL;
	nd->last_len = 0;
	nd->last_type = LAST_ROOT;
	nd->trailing_slash = false;

	for (;;) {
		while (*name == '/')
			name++;
		if (!*name)
			break;
		const char *comp = name;

		while (*name && *name != '/')
			name++;
		if ((size_t)(name - comp) > NAME_MAX)
			return -ENAMETOOLONG;
		/* There is a further component, so the previous one must be a directory: go in. */
		if (nd->last_type != LAST_ROOT) {
			int err = walk_component(&nd->path, nd->last, nd->last_len, nd->last_type,
						 nd->links, true);

			if (err)
				return err;
		}
		nd->last = comp;
		nd->last_len = (size_t)(name - comp);
		nd->last_type = component_type(comp, nd->last_len);
	}
	if (nd->last_type == LAST_ROOT)
		return 0;
	nd->trailing_slash = nd->last[nd->last_len] == '/';
	return is_dir(nd->path.dentry) ? 0 : -ENOTDIR;
}

/* A top-level lookup of name's directory, from the cwd. */
static int path_parentat(const char *name, struct nameidata *nd)
{
	nd->link_count = 0;
	return walk_path(name, NULL, &nd->link_count, nd);
}

/* Steps into the last component too; through a link there if follow (or a trailing slash). */
static int lookup_last_follow(struct nameidata *nd, bool follow)
{
	int err = 0;

	if (nd->last_type != LAST_ROOT)
		err = walk_component(&nd->path, nd->last, nd->last_len, nd->last_type, nd->links,
				     follow || nd->trailing_slash);
	if (!err && nd->trailing_slash && !is_dir(nd->path.dentry))
		err = -ENOTDIR;
	return err;
}

/* Looks name up and returns its path, referenced: the caller must path_put() it. */
int kern_path(const char *name, unsigned int flags, struct path *path)
{
	struct nameidata nd;
	int err = path_parentat(name, &nd);

	if (!err)
		err = lookup_last_follow(&nd, !(flags & LOOKUP_NOFOLLOW));
	if (err)
		return err;
	if ((flags & LOOKUP_DIRECTORY) && !is_dir(nd.path.dentry))
		return -ENOTDIR;
	*path = nd.path;
	path_get(path);
	return 0;
}

/* Makes a new regular file last in nd's directory; returns its dentry, referenced. */
static int vfs_create(struct nameidata *nd, umode_t mode, struct dentry **res)
{
	struct dentry *dir = nd->path.dentry, *dentry;
	int err;

	if (dir->d_unlinked)
		return -ENOENT;
	if (!dir->d_inode->i_op || !dir->d_inode->i_op->create)
		return -EACCES; /* as Linux says for "echo x > /sys/kernel/tracing/new" */
	dentry = d_alloc(dir, nd->last, nd->last_len);
	if (!dentry)
		return -ENOMEM;
	err = dir->d_inode->i_op->create(dir->d_inode, dentry, S_IFREG | (mode & 07777));
	if (err) {
		dput(dentry);
		return err;
	}
	*res = dentry;
	return 0;
}

/*
 * May an existing file be opened with these flags? Lucid runs everything as root, and Linux's
 * root has CAP_DAC_OVERRIDE: the r and w bits do not stop it (generic_permission), so a 0444
 * file opens for writing (cp over a read-only copy works, as on Linux). What a file cannot do
 * is its operations' to say: a tracefs or proc file without a write operation opens, and its
 * write fails (-EINVAL, or proc's -EIO), as Linux's do. O_TRUNC counts as writing; a
 * directory cannot be opened for writing at all, nor the file of a running program (Linux's
 * ETXTBSY, "Text file busy").
 */
static int may_open(const struct dentry *dentry, int flags)
{
	int acc = flags & O_ACCMODE;
	bool write = acc != O_RDONLY || (flags & O_TRUNC);

	if (is_dir(dentry))
		return write ? -EISDIR : 0;
	if (flags & O_DIRECTORY)
		return -ENOTDIR;
	/* A running program's file: its processes map its pages, a write would change them. */
	if (write && filemap_running(dentry->d_inode))
		return -ETXTBSY;
	return 0;
}

/*
 * open()'s lookup: finds or (O_CREAT) creates the file and checks the flags against it.
 * Returns the referenced path. A file this very call created is not checked against its mode
 * (open("f", O_CREAT | O_WRONLY, 0444) succeeds once, as on Unix).
 */
int path_openat(const char *name, int flags, umode_t mode, struct path *path)
{
	struct nameidata nd;
	struct dentry *child;
	int err = path_parentat(name, &nd);

	if (err)
		return err;
	if (!(flags & O_CREAT)) {
		err = lookup_last_follow(&nd, !(flags & O_NOFOLLOW));
		if (!err && S_ISLNK(nd.path.dentry->d_inode->i_mode))
			err = -ELOOP; /* O_NOFOLLOW met a link */
		if (!err)
			err = may_open(nd.path.dentry, flags);
		if (err)
			return err;
		*path = nd.path;
		path_get(path);
		return 0;
	}
	if (nd.last_type != LAST_NORM)
		return -EISDIR; /* "/", "." and ".." are directories */
	child = lookup_one(nd.path.dentry, nd.last, nd.last_len);
	if (child) {
		if (flags & O_EXCL)
			return -EEXIST;
		if (S_ISLNK(child->d_inode->i_mode)) {
			/*
			 * To an existing file; a link to nothing gives ENOENT (Linux creates it).
			 */
			if (flags & O_NOFOLLOW)
				return -ELOOP;
			err = follow_link(&nd.path, child, nd.links, &nd.path);
			if (err)
				return err;
			child = nd.path.dentry;
		}
		nd.path.dentry = child;
		err = scope_follow_mount(&nd.path);
		if (err)
			return err;
		if (is_dir(nd.path.dentry))
			return -EISDIR;
		if (nd.trailing_slash)
			return -ENOTDIR;
		err = may_open(nd.path.dentry, flags);
		if (err)
			return err;
		*path = nd.path;
		path_get(path);
		return 0;
	}
	if (nd.trailing_slash)
		return -EISDIR; /* Linux: "newfile/" cannot be created as a regular file */
	if (flags & O_DIRECTORY)
		return -ENOTDIR;
	err = vfs_create(&nd, mode, &child);
	if (err)
		return err;
	path->mnt = nd.path.mnt;
	path->mnt->mnt_count++;
	path->dentry = child; /* vfs_create's reference */
	return 0;
}

/*
 * A name about to be made (Linux's filename_create): nd holds its parent and last part, which
 * must be free: -EEXIST for "/", ".", ".." (and with slash_taken, a trailing slash) or a name
 * in use, -ENOENT in a directory that was removed.
 */
static int filename_create(const char *pathname, struct nameidata *nd, bool slash_taken)
{
	int err = path_parentat(pathname, nd);

	if (err)
		return err;
	if (nd->last_type != LAST_NORM || (slash_taken && nd->trailing_slash))
		return -EEXIST; /* "/", ".", ".." exist */
	if (lookup_one(nd->path.dentry, nd->last, nd->last_len))
		return -EEXIST;
	if (nd->path.dentry->d_unlinked)
		return -ENOENT;
	return 0;
}

static int do_mkdir(const char *pathname, umode_t mode)
{
	struct nameidata nd;
	struct dentry *dir, *dentry;
	int err = filename_create(pathname, &nd, false);

	if (err)
		return err;
	dir = nd.path.dentry;
	if (!dir->d_inode->i_op || !dir->d_inode->i_op->mkdir)
		return -EPERM;
	dentry = d_alloc(dir, nd.last, nd.last_len);
	if (!dentry)
		return -ENOMEM;
	err = dir->d_inode->i_op->mkdir(dir->d_inode, dentry, S_IFDIR | (mode & 07777));
	dput(dentry); /* ours; the tree holds its own if mkdir added it */
	return err;
}

int vfs_mkdir(const char *pathname, umode_t mode)
{
	return vfs_locked(do_mkdir(pathname, mode));
}

/*
 * A special file: a name whose operations come from a driver, not from the file system it is
 * in, as Linux's mknod makes /dev/console. Linux finds the driver through a device number;
 * Lucid is handed the operations directly.
 */
static int do_mknod(const char *pathname, umode_t mode, const struct file_operations *fops)
{
	struct nameidata nd;
	struct dentry *dir, *dentry;
	int err;

	err = filename_create(pathname, &nd, false);
	if (err)
		return err;
	dir = nd.path.dentry;
	if (!dir->d_inode->i_op || !dir->d_inode->i_op->create)
		return -EPERM;
	dentry = d_alloc(dir, nd.last, nd.last_len);
	if (!dentry)
		return -ENOMEM;
	err = dir->d_inode->i_op->create(dir->d_inode, dentry, mode);
	if (!err && fops)
		dentry->d_inode->i_fop = fops;
	dput(dentry); /* ours; the tree holds its own */
	return err;
}

int vfs_mknod(const char *pathname, umode_t mode, const struct file_operations *fops)
{
	if (!S_ISCHR(mode) && !S_ISFIFO(mode))
		return -EINVAL; /* a driver's node; mknod(2)'s other kinds are vfs_mknod_user's */
	return vfs_locked(do_mknod(pathname, mode, fops));
}

#ifndef LUCID_HOST /* mknod(2): the host tests have no pipes (kernel/fs/pipe.c) */
/* A device or socket node made by mknod(2): no driver behind it, as Linux's for such a number. */
static int no_device_open(struct inode *inode, struct file *file)
{
	(void)inode;
	(void)file;
	return -ENXIO;
}

static const struct file_operations no_device_fops = {
	.open = no_device_open,
};

int vfs_mknod_user(const char *pathname, umode_t mode)
{
	const struct file_operations *fops = NULL; /* a regular file: ramfs's own */
	int ret;

	if (S_ISFIFO(mode))
		fops = &pipefifo_fops;
	else if (!S_ISREG(mode))
		fops = &no_device_fops;
	vfs_lock();
	ret = do_mknod(pathname, mode, fops);
	vfs_unlock();
	return ret;
}
#endif

/* The dentry that unlink/rmdir should remove: last in its directory, looked up in nd. */
static int lookup_victim(const char *pathname, struct nameidata *nd, struct dentry **victim)
{
	int err = path_parentat(pathname, nd);

	if (err)
		return err;
	if (nd->last_type != LAST_NORM)
		return 1; /* the caller says what "/", "." or ".." mean for it */
	*victim = lookup_one(nd->path.dentry, nd->last, nd->last_len);
	return *victim ? 0 : -ENOENT;
}

static int do_rmdir(const char *pathname)
{
	static const int not_norm_err[] = { [LAST_ROOT] = -EBUSY, [LAST_DOT] = -EINVAL,
					     [LAST_DOTDOT] = -ENOTEMPTY };
	struct nameidata nd;
	struct dentry *victim;
	struct inode *dir;
	int err = lookup_victim(pathname, &nd, &victim);

	if (err > 0)
		return not_norm_err[nd.last_type];
	if (err)
		return err;
	if (!is_dir(victim))
		return -ENOTDIR;
	dir = nd.path.dentry->d_inode;
	if (!dir->i_op || !dir->i_op->rmdir)
		return -EPERM;
	if (victim->d_mounted)
		return -EBUSY;
	return dir->i_op->rmdir(dir, victim);
}

int vfs_rmdir(const char *pathname)
{
	return vfs_locked(do_rmdir(pathname));
}

static int do_unlink(const char *pathname)
{
	struct nameidata nd;
	struct dentry *victim;
	struct inode *dir;
	int err = lookup_victim(pathname, &nd, &victim);

	if (err > 0)
		return -EISDIR;
	if (err)
		return err;
	if (is_dir(victim))
		return -EISDIR;
	if (nd.trailing_slash)
		return -ENOTDIR;
	dir = nd.path.dentry->d_inode;
	if (!dir->i_op || !dir->i_op->unlink)
		return -EPERM;
	return dir->i_op->unlink(dir, victim);
}

int vfs_unlink(const char *pathname)
{
	return vfs_locked(do_unlink(pathname));
}

int vfs_unlink_locked(const char *pathname)
{
	return do_unlink(pathname);
}

int vfs_mknod_path_locked(const char *pathname, umode_t mode, const struct file_operations *fops,
			  struct path *path)
{
	int err = do_mknod(pathname, mode, fops);

	return err ? err : kern_path(pathname, LOOKUP_NOFOLLOW, path);
}

/*
 * Moves oldpath to newpath, replacing what newpath names if that is a file (or an empty
 * directory, when moving a directory). Both must be in the same mount: a rename cannot carry a
 * file from one tree to another (-EXDEV), and a directory cannot move into itself (-EINVAL).
 */
static int do_rename(const char *oldpath, const char *newpath)
{
	struct nameidata ond, nnd;
	struct dentry *old_dir, *new_dir, *old, *target, *new;
	bool dir;
	int err = path_parentat(oldpath, &ond);

	if (!err)
		err = path_parentat(newpath, &nnd);
	if (err)
		return err;
	if (ond.last_type != LAST_NORM || nnd.last_type != LAST_NORM)
		return -EBUSY;
	if (ond.path.mnt != nnd.path.mnt)
		return -EXDEV;
	old_dir = ond.path.dentry;
	new_dir = nnd.path.dentry;
	old = lookup_one(old_dir, ond.last, ond.last_len);
	if (!old)
		return -ENOENT;
	dir = is_dir(old);
	if (!dir && (ond.trailing_slash || nnd.trailing_slash))
		return -ENOTDIR;
	if (dir) {
		/* Into itself or below: the moved tree would hang from its own branch. */
		for (struct dentry *d = new_dir;; d = d->d_parent) {
			if (d == old)
				return -EINVAL;
			if (d->d_parent == d)
				break;
		}
	}
	target = lookup_one(new_dir, nnd.last, nnd.last_len);
	if (target == old)
		return 0;
	if (target && dir && !is_dir(target))
		return -ENOTDIR;
	if (target && !dir && is_dir(target))
		return -EISDIR;
	if (old->d_mounted || (target && target->d_mounted))
		return -EBUSY;
	if (new_dir->d_unlinked)
		return -ENOENT;
	if (!old_dir->d_inode->i_op || !old_dir->d_inode->i_op->rename)
		return -EPERM;
	new = target ? dget(target) : d_alloc(new_dir, nnd.last, nnd.last_len);
	if (!new)
		return -ENOMEM;
	err = old_dir->d_inode->i_op->rename(old_dir->d_inode, old, new_dir->d_inode, new);
	dput(new);
	return err;
}

int vfs_rename(const char *oldpath, const char *newpath)
{
	return vfs_locked(do_rename(oldpath, newpath));
}

/* symlink(2): linkpath becomes a new name whose content is target (not looked at now). */
int do_symlinkat(const char *target, const char *linkpath)
{
	struct nameidata nd;
	struct dentry *dir, *dentry;
	int err;

	if (!*target)
		return -ENOENT; /* Linux: an empty target names nothing */
	err = filename_create(linkpath, &nd, true);
	if (err)
		return err;
	dir = nd.path.dentry;
	if (!dir->d_inode->i_op || !dir->d_inode->i_op->symlink)
		return -EPERM; /* as Linux's debugfs and tracefs */
	dentry = d_alloc(dir, nd.last, nd.last_len);
	if (!dentry)
		return -ENOMEM;
	err = dir->d_inode->i_op->symlink(dir->d_inode, dentry, target);
	dput(dentry);
	return err;
}
