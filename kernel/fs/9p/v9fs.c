/*
 * v9fs: files on the host, reached with 9P2000.L, as a Lucid file system.
 *
 * Lucid's VFS keeps every name in its dentry tree (kernel/fs/dcache.c); for 9p that tree is a
 * cache of what is on the host, filled from two sides:
 *   - lookup: a path names something the tree does not have: one Twalk finds it on the host
 *     (Tgetattr tells what it is), and it gets a dentry and inode;
 *   - opening a directory (ls): Treaddir lists it on the host, names new to us are added, and
 *     names the host no longer has are dropped (unless something holds them: an open file).
 * A name removed on the host while we still have it fails when used: the server answers
 * ENOENT, which the caller sees.
 *
 * Each inode keeps a fid walked to its file, made when first needed (from its parent's fid,
 * recursively up to the mount's root, which Tattach made) and clunked when the inode is freed.
 * Each open file has a fid of its own, cloned from the inode's (Twalk with no names) and
 * opened with Tlopen: reads and writes use it, `sync FILE` sends Tfsync on it (the host's
 * fsync), and closing clunks it. As with Linux's v9fs, close does not wait for the host's
 * disk: QEMU's writes are in the host's page cache, which every reader there sees at once.
 *
 * Locking: everything runs under the VFS lock, as every file system does (kernel/fs/vfs.h),
 * except the data transfers of read and write: they let the lock go while their requests are
 * in flight, so that several tasks on several CPUs can each have requests out at once and one
 * slow transfer does not stop every other file operation. They touch only the open file's fid
 * and the caller's buffer meanwhile, which nothing else can free: the caller holds the file.
 */
#include "kernel/fs/9p/v9fs.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/string.h"

#define V9FS_BOOT_TAG "host"
#define V9FS_BOOT_DIR "/mnt/host"
#define V9FS_MAX_FILE_SIZE __LONG_MAX__

struct v9fs_inode {
	struct p9_client *clnt;
	uint32_t fid; /* walked to the file, never opened; P9_NOFID until needed */
	struct dentry *dentry; /* its one name: Lucid has no hard links */
	unsigned int seen; /* the directory listing that last saw it on the host */
};

struct v9fs_file {
	uint32_t fid; /* opened with Tlopen */
};

static const struct inode_operations v9fs_dir_inode_operations;
static const struct inode_operations v9fs_file_inode_operations;
static const struct inode_operations v9fs_symlink_inode_operations;
static const struct file_operations v9fs_dir_operations;
static const struct file_operations v9fs_file_operations;
static unsigned int v9fs_generation;

static struct v9fs_inode *V9FS_I(const struct inode *inode)
{
	return inode->i_private;
}

static struct inode *v9fs_get_inode(struct p9_client *c, umode_t mode, uint64_t qid_path)
{
	struct inode *inode = new_inode(mode);
	struct v9fs_inode *v = kzalloc(sizeof(*v));

	if (!inode || !v) {
		kfree(inode);
		kfree(v);
		return NULL;
	}
	v->clnt = c;
	v->fid = P9_NOFID;
	inode->i_private = v;
	if (qid_path)
		inode->i_ino = (unsigned long)qid_path;
	if (S_ISDIR(mode)) {
		inode->i_op = &v9fs_dir_inode_operations;
		inode->i_fop = &v9fs_dir_operations;
	} else if (S_ISLNK(mode)) {
		/* Never opened: the walk follows it, or O_NOFOLLOW stops at it (ELOOP). */
		inode->i_op = &v9fs_symlink_inode_operations;
	} else {
		inode->i_op = &v9fs_file_inode_operations;
		inode->i_fop = &v9fs_file_operations;
	}
	return inode;
}

/*
 * Host mode -> ours: directories and symbolic links stay what they are; anything else (a
 * device, a fifo, a socket) reads as a regular file, whose data is the host's to serve or
 * refuse.
 */
static umode_t v9fs_mode(uint32_t mode)
{
	umode_t type = S_ISDIR(mode) ? S_IFDIR : S_ISLNK(mode) ? S_IFLNK : S_IFREG;

	return type | (mode & 07777);
}

/* An inode that never got a dentry: freed here, as d_add would have had the VFS free it. */
static void v9fs_free_inode(struct inode *inode)
{
	if (!inode)
		return;
	kfree(inode->i_private);
	kfree(inode->i_link);
	kfree(inode);
}

/* Gives a new dentry its inode, in the tree (which takes a reference), as ramfs does. */
static void v9fs_attach(struct dentry *dentry, struct inode *inode)
{
	V9FS_I(inode)->dentry = dentry;
	d_add(dentry, inode);
	dget(dentry);
}

static void v9fs_apply_attr(struct inode *inode, const struct p9_stat_dotl *st)
{
	/* A name that changed type on the host keeps ours: its operations then fail. */
	if ((inode->i_mode & S_IFMT) == (v9fs_mode(st->mode) & S_IFMT))
		inode->i_mode = v9fs_mode(st->mode);
	inode->i_size =
		st->size > (uint64_t)V9FS_MAX_FILE_SIZE ? V9FS_MAX_FILE_SIZE : (loff_t)st->size;
}

/* The inode's fid, walking to it from its parent's if it has none yet. */
static int v9fs_fid(struct inode *inode, uint32_t *fid)
{
	struct v9fs_inode *v = V9FS_I(inode);
	struct dentry *d = v->dentry;
	const char *name;
	uint32_t pfid, newfid;
	int err;

	if (v->fid != P9_NOFID) {
		*fid = v->fid;
		return 0;
	}
	if (!d || d->d_parent == d)
		return -EIO; /* the root got its fid from Tattach */
	err = v9fs_fid(d->d_parent->d_inode, &pfid);
	if (err)
		return err;
	newfid = p9_fid_alloc(v->clnt);
	name = d->d_name;
	err = p9_client_walk(v->clnt, pfid, newfid, 1, &name, NULL);
	if (err)
		return err;
	v->fid = newfid;
	*fid = newfid;
	return 0;
}

/* A new fid for the same file as the inode's (Twalk with no names), to be opened. */
static int v9fs_clone_fid(struct inode *inode, uint32_t *newfid)
{
	struct p9_client *c = V9FS_I(inode)->clnt;
	uint32_t fid;
	int err = v9fs_fid(inode, &fid);

	if (err)
		return err;
	*newfid = p9_fid_alloc(c);
	return p9_client_walk(c, fid, *newfid, 0, NULL, NULL);
}

static int v9fs_lookup(struct inode *dir, struct dentry *dentry)
{
	struct p9_client *c = V9FS_I(dir)->clnt;
	const char *name = dentry->d_name;
	struct p9_stat_dotl st;
	struct inode *inode;
	uint32_t dfid, fid;
	int err = v9fs_fid(dir, &dfid);

	if (err)
		return err;
	fid = p9_fid_alloc(c);
	err = p9_client_walk(c, dfid, fid, 1, &name, NULL);
	if (err)
		return err;
	err = p9_client_getattr(c, fid, &st);
	inode = err ? NULL : v9fs_get_inode(c, v9fs_mode(st.mode), st.qid.path);
	if (inode && S_ISLNK(inode->i_mode))
		err = p9_client_readlink(c, fid, &inode->i_link);
	if (!inode || err) {
		p9_client_clunk(c, fid);
		v9fs_free_inode(inode);
		return err ? err : -ENOMEM;
	}
	V9FS_I(inode)->fid = fid;
	v9fs_apply_attr(inode, &st);
	v9fs_attach(dentry, inode);
	return 0;
}

/* stat: the host's mode and size. A file gone from the host leaves our tree too. */
static int v9fs_getattr(struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;
	struct p9_stat_dotl st;
	uint32_t fid;
	int err = v9fs_fid(inode, &fid);

	if (!err)
		err = p9_client_getattr(V9FS_I(inode)->clnt, fid, &st);
	if (!err)
		v9fs_apply_attr(inode, &st);
	else if (err == -ENOENT && dentry->d_parent != dentry && !dentry->d_unlinked &&
		 !dentry->d_mounted)
		d_delete(dentry);
	return err;
}

static int v9fs_create(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	struct p9_client *c = V9FS_I(dir)->clnt;
	struct inode *inode;
	struct p9_qid qid;
	uint32_t fid;
	int err;

	if (!S_ISREG(mode))
		return -EPERM; /* no device nodes on the host from here */
	err = v9fs_clone_fid(dir, &fid);
	if (err)
		return err;
	/* Tlcreate opens fid on the new file; we open it again when the caller opens it. */
	err = p9_client_lcreate(c, fid, dentry->d_name, O_RDWR, mode & 07777, &qid);
	p9_client_clunk(c, fid);
	if (err)
		return err;
	inode = v9fs_get_inode(c, S_IFREG | (mode & 07777), qid.path);
	if (!inode)
		return -ENOMEM;
	v9fs_attach(dentry, inode);
	return 0;
}

static int v9fs_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	struct p9_client *c = V9FS_I(dir)->clnt;
	struct inode *inode;
	struct p9_qid qid;
	uint32_t dfid;
	int err = v9fs_fid(dir, &dfid);

	if (!err)
		err = p9_client_mkdir(c, dfid, dentry->d_name, mode & 07777, &qid);
	if (err)
		return err;
	inode = v9fs_get_inode(c, S_IFDIR | (mode & 07777), qid.path);
	if (!inode)
		return -ENOMEM;
	v9fs_attach(dentry, inode);
	return 0;
}

/* symlink(2) on the share: Tsymlink makes the link on the host, with target as its text. */
static int v9fs_symlink(struct inode *dir, struct dentry *dentry, const char *target)
{
	struct p9_client *c = V9FS_I(dir)->clnt;
	struct inode *inode;
	struct p9_qid qid;
	uint32_t dfid;
	int err = v9fs_fid(dir, &dfid);

	if (!err)
		err = p9_client_symlink(c, dfid, dentry->d_name, target, &qid);
	if (err)
		return err;
	inode = v9fs_get_inode(c, S_IFLNK | 0777, qid.path);
	if (inode)
		inode->i_link = kstrdup(target);
	if (!inode || !inode->i_link) {
		v9fs_free_inode(inode);
		return -ENOMEM; /* made on the host: a listing or lookup finds it */
	}
	inode->i_size = (loff_t)strlen(target);
	v9fs_attach(dentry, inode);
	return 0;
}

static int v9fs_remove(struct inode *dir, struct dentry *dentry, uint32_t flags)
{
	uint32_t dfid;
	int err = v9fs_fid(dir, &dfid);

	if (!err)
		err = p9_client_unlinkat(V9FS_I(dir)->clnt, dfid, dentry->d_name, flags);
	if (!err || err == -ENOENT)
		d_kill_tree(dentry, 0); /* gone from the host either way: gone from the tree */
	return err;
}

static int v9fs_unlink(struct inode *dir, struct dentry *dentry)
{
	return v9fs_remove(dir, dentry, 0);
}

static int v9fs_rmdir(struct inode *dir, struct dentry *dentry)
{
	return v9fs_remove(dir, dentry, P9_AT_REMOVEDIR);
}

static int v9fs_rename(struct inode *old_dir, struct dentry *old_dentry, struct inode *new_dir,
		       struct dentry *new_dentry)
{
	uint32_t ofid, nfid;
	int err = v9fs_fid(old_dir, &ofid);

	if (!err)
		err = v9fs_fid(new_dir, &nfid);
	if (!err)
		err = p9_client_renameat(V9FS_I(old_dir)->clnt, ofid, old_dentry->d_name, nfid,
					 new_dentry->d_name);
	if (err)
		return err;
	if (new_dentry->d_inode)
		d_kill_tree(new_dentry, 0); /* replaced on the host; the VFS still holds it */
	d_move(old_dentry, new_dentry);
	return 0;
}

static int v9fs_truncate(struct inode *inode, loff_t size)
{
	uint32_t fid;
	int err = v9fs_fid(inode, &fid);

	if (!err)
		err = p9_client_setattr_size(V9FS_I(inode)->clnt, fid, (uint64_t)size);
	if (!err)
		inode->i_size = size;
	return err;
}

/* chmod and utimensat on the host's file (Linux's v9fs_vfs_setattr_dotl): Tsetattr. */
static int v9fs_setattr(struct inode *inode, const struct iattr *attr)
{
	struct p9_iattr_dotl a = {0};
	uint32_t fid;
	int err = v9fs_fid(inode, &fid);

	if (err)
		return err;
	if (attr->ia_valid & ATTR_MODE) {
		a.valid |= P9_ATTR_MODE;
		a.mode = attr->ia_mode;
	}
	if (attr->ia_valid & ATTR_ATIME) {
		a.valid |= P9_ATTR_ATIME | P9_ATTR_ATIME_SET;
		a.atime_sec = (uint64_t)attr->ia_atime.tv_sec;
		a.atime_nsec = (uint64_t)attr->ia_atime.tv_nsec;
	}
	if (attr->ia_valid & ATTR_MTIME) {
		a.valid |= P9_ATTR_MTIME | P9_ATTR_MTIME_SET;
		a.mtime_sec = (uint64_t)attr->ia_mtime.tv_sec;
		a.mtime_nsec = (uint64_t)attr->ia_mtime.tv_nsec;
	}
	return p9_client_setattr(V9FS_I(inode)->clnt, fid, &a);
}

static void v9fs_evict(struct inode *inode)
{
	struct v9fs_inode *v = V9FS_I(inode);

	if (v && v->fid != P9_NOFID)
		p9_client_clunk(v->clnt, v->fid);
	kfree(v);
	inode->i_private = NULL;
}

/*
 * Treaddirs one listing may take: each brings at least one entry, and msize holds hundreds, so
 * this is millions of names, more than any host directory a student shares.
 */
#define V9FS_READDIR_MAX_ROUNDS 65536

/* The mode a name from a listing starts with, until a Tgetattr tells the host's. */
static umode_t v9fs_dirent_mode(uint8_t d_type)
{
	return d_type == DT_DIR	  ? S_IFDIR | 0755
	       : d_type == DT_LNK ? S_IFLNK | 0777
				  : S_IFREG | 0644;
}

/*
 * A link's target (Treadlink), which its inode must have before any walk meets it: the path
 * walk follows inode->i_link (kernel/fs/namei.c), in Lucid's own tree, as Linux's v9fs does.
 */
static int v9fs_get_link(struct inode *inode)
{
	uint32_t fid;
	int err = v9fs_fid(inode, &fid);

	return err ? err : p9_client_readlink(V9FS_I(inode)->clnt, fid, &inode->i_link);
}

/*
 * Brings a directory's children in line with the host's listing: adds the names we did not
 * have, drops those the host no longer has (and nobody here holds).
 */
static int v9fs_dir_sync(struct dentry *dir, struct p9_client *c, uint32_t fid)
{
	unsigned int gen = ++v9fs_generation;
	struct dentry *child, *tmp;
	uint64_t offset = 0, start;
	int r = 0;

	for (unsigned int round = 0;; round++) {
		const uint8_t *data;
		struct p9_req *req;
		struct p9_dirent de;
		uint32_t count, pos = 0;

		/* Offsets that come round again (A, B, A...) would list for ever: a bound. */
		if (round == V9FS_READDIR_MAX_ROUNDS)
			return -EIO;
		int err = p9_rpc(c, &req, P9_TREADDIR, "dqd", "D", fid, offset,
				 c->msize - P9_READDIRHDRSZ, &count, &data);

		if (err)
			return err;
		if (count == 0) {
			p9_req_put(c, req);
			break;
		}
		start = offset;
		while ((r = p9_readdir_next(data, count, &pos, &de)) > 0) {
			struct inode *inode;

			offset = de.offset;
			if (de.name.s[0] == '.' &&
			    (de.name.len == 1 || (de.name.len == 2 && de.name.s[1] == '.')))
				continue;
			child = d_lookup(dir, de.name.s, de.name.len);
			if (!child) {
				child = d_alloc(dir, de.name.s, de.name.len);
				inode = child ? v9fs_get_inode(c, v9fs_dirent_mode(de.d_type),
							       de.qid.path)
					      : NULL;
				if (!inode) {
					dput(child);
					r = -ENOMEM;
					break;
				}
				v9fs_attach(child, inode);
				dput(child);
				if (S_ISLNK(inode->i_mode) && v9fs_get_link(inode)) {
					d_delete(child); /* a lookup will try again */
					continue;
				}
			}
			V9FS_I(child->d_inode)->seen = gen;
		}
		p9_req_put(c, req);
		if (r < 0)
			return r;
		/* entries, but no way on: a server that would loop us forever */
		if (offset == start)
			return -EIO;
	}
	list_for_each_entry_safe(child, tmp, &dir->d_subdirs, d_child)
	{
		if (V9FS_I(child->d_inode)->seen != gen && child->d_count == 1 && !child->d_mounted)
			d_delete(child);
	}
	return 0;
}

/*
 * What the host opens the file with: the access mode, and O_APPEND, so that two descriptors
 * (here or on the host) appending to one file each land at its end: the host's O_APPEND makes
 * each Twrite an append there, which no size asked for first could (another writer may add to
 * the file between the Tgetattr and the Twrite), as Linux's v9fs passes P9_DOTL_APPEND on.
 */
static uint32_t v9fs_open_flags(const struct file *file)
{
	return (file->f_flags & O_ACCMODE) | (file->f_flags & O_APPEND ? P9_DOTL_APPEND : 0);
}

/*
 * open(O_CREAT) of a name we have but the host removed meanwhile: made again on the host, as
 * it would have been had we not known the name. Tlcreate leaves fid open on the new file.
 */
static int v9fs_recreate(struct inode *inode, struct file *file, uint32_t *fid)
{
	struct v9fs_inode *v = V9FS_I(inode);
	struct dentry *d = file->f_path.dentry;
	struct p9_qid qid;
	int err;

	if (d->d_parent == d)
		return -ENOENT;
	err = v9fs_clone_fid(d->d_parent->d_inode, fid);
	if (err)
		return err;
	err = p9_client_lcreate(v->clnt, *fid, d->d_name, v9fs_open_flags(file),
				inode->i_mode & 07777, &qid);
	if (err) {
		p9_client_clunk(v->clnt, *fid);
		return err;
	}
	if (v->fid != P9_NOFID) /* walked to the old file: walk again when next needed */
		p9_client_clunk(v->clnt, v->fid);
	v->fid = P9_NOFID;
	inode->i_size = 0;
	return 0;
}

static int v9fs_open(struct inode *inode, struct file *file)
{
	struct p9_client *c = V9FS_I(inode)->clnt;
	bool dir = S_ISDIR(inode->i_mode);
	struct v9fs_file *f;
	uint32_t fid, iounit;
	int err = v9fs_clone_fid(inode, &fid);

	if (err == -ENOENT && !dir && (file->f_flags & O_CREAT)) {
		err = v9fs_recreate(inode, file, &fid);
		if (err)
			return err;
		goto opened;
	}
	if (err)
		return err;
	err = p9_client_lopen(c, fid, dir ? O_RDONLY : v9fs_open_flags(file), &iounit);
	if (!err && dir)
		err = v9fs_dir_sync(file->f_path.dentry, c, fid);
	if (err || dir) {
		p9_client_clunk(c, fid);
		return err;
	}
opened:
	f = kzalloc(sizeof(*f));
	if (!f) {
		p9_client_clunk(c, fid);
		return -ENOMEM;
	}
	f->fid = fid;
	file->private_data = f;
	return 0;
}

static int v9fs_release(struct inode *inode, struct file *file)
{
	struct v9fs_file *f = file->private_data;
	struct p9_client *c = V9FS_I(inode)->clnt;

	if (!f)
		return 0;
	p9_client_clunk(c, f->fid);
	kfree(f);
	return 0;
}

/* sync FILE: the host writes the file's data to its disk (fsync(2) there). */
static int v9fs_fsync(struct file *file)
{
	struct v9fs_file *f = file->private_data;

	return p9_client_fsync(V9FS_I(file_inode(file))->clnt, f->fid);
}

static ssize_t v9fs_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct v9fs_file *f = file->private_data;
	struct p9_client *c = V9FS_I(file_inode(file))->clnt;
	loff_t off = *pos;
	long n;

	vfs_unlock(); /* the transfer runs without the VFS lock: see the top of this file */
	n = p9_client_read(c, f->fid, (uint64_t)off, buf, (uint32_t)MIN(count, INT32_MAX));
	vfs_lock();
	if (n > 0)
		*pos = off + n;
	return n;
}

/*
 * A write at the file position, or for O_APPEND at the end of the file: the host appends each
 * Twrite itself (v9fs_open_flags), and the Tgetattr first tells where that is, for the file
 * position after it (and for a descriptor that fcntl made O_APPEND after the open, which the
 * host does not know of). An append goes one Twrite at a time: pieces in flight at once could
 * reach the host's file in another order.
 */
static ssize_t v9fs_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct v9fs_file *f = file->private_data;
	struct inode *inode = file_inode(file);
	struct p9_client *c = V9FS_I(inode)->clnt;
	bool append = file->f_flags & O_APPEND;
	size_t done = 0;
	long n = 0;
	loff_t off;

	if (count == 0)
		return 0;
	if (append) {
		struct p9_stat_dotl st;
		int err = p9_client_getattr(c, f->fid, &st);

		if (err)
			return err;
		v9fs_apply_attr(inode, &st);
		*pos = inode->i_size;
	}
	off = *pos;
	vfs_unlock(); /* the transfer runs without the VFS lock: see the top of this file */
	do {
		size_t piece = MIN(count - done, append ? p9_client_iosize(c) : INT32_MAX);

		n = p9_client_write(c, f->fid, (uint64_t)(off + (loff_t)done), buf + done,
				    (uint32_t)piece);
		if (n > 0)
			done += (size_t)n;
	} while (append && n > 0 && done < count);
	vfs_lock();
	*pos = off + (loff_t)done;
	if (*pos > inode->i_size)
		inode->i_size = *pos;
	return done ? (ssize_t)done : (n < 0 ? n : -EIO);
}

static loff_t v9fs_llseek(struct file *file, loff_t offset, int whence)
{
	struct v9fs_file *f = file->private_data;
	struct inode *inode = file_inode(file);
	struct p9_stat_dotl st;

	if (whence == SEEK_END) { /* the host may have changed the size */
		int err = p9_client_getattr(V9FS_I(inode)->clnt, f->fid, &st);

		if (err)
			return err;
		v9fs_apply_attr(inode, &st);
	}
	return default_llseek(file, offset, whence);
}

static const struct inode_operations v9fs_dir_inode_operations = {
	.create = v9fs_create,
	.mkdir = v9fs_mkdir,
	.unlink = v9fs_unlink,
	.rmdir = v9fs_rmdir,
	.rename = v9fs_rename,
	.symlink = v9fs_symlink,
	.lookup = v9fs_lookup,
	.setattr = v9fs_setattr,
	.getattr = v9fs_getattr,
	.evict = v9fs_evict,
};

static const struct inode_operations v9fs_file_inode_operations = {
	.truncate = v9fs_truncate,
	.setattr = v9fs_setattr,
	.getattr = v9fs_getattr,
	.evict = v9fs_evict,
};

static const struct inode_operations v9fs_symlink_inode_operations = {
	.setattr = v9fs_setattr,
	.getattr = v9fs_getattr,
	.evict = v9fs_evict,
};

static const struct file_operations v9fs_dir_operations = {
	.open = v9fs_open,
};

static const struct file_operations v9fs_file_operations = {
	.open = v9fs_open,
	.read = v9fs_read,
	.write = v9fs_write,
	.llseek = v9fs_llseek,
	.release = v9fs_release,
	.fsync = v9fs_fsync,
	.may_mmap = true,
};

/* A mount: Tattach gives the root's fid. Each mount is a tree of its own, with its own fids. */
static int v9fs_mount(const char *source, struct dentry **rootp)
{
	struct p9_stat_dotl st;
	struct p9_client *c;
	struct inode *inode;
	struct p9_qid qid;
	struct dentry *root;
	uint32_t fid;
	int err = p9_virtio_client(source, &c);

	if (err)
		return err;
	fid = p9_fid_alloc(c);
	err = p9_client_attach(c, fid, &qid);
	if (err)
		return err;
	err = p9_client_getattr(c, fid, &st);
	inode = err ? NULL : v9fs_get_inode(c, S_IFDIR | (st.mode & 07777), qid.path);
	root = inode ? d_make_root(inode) : NULL;
	if (!root) {
		p9_client_clunk(c, fid);
		kfree(inode ? inode->i_private : NULL);
		kfree(inode);
		return err ? err : -ENOMEM;
	}
	V9FS_I(inode)->fid = fid;
	V9FS_I(inode)->dentry = root;
	*rootp = root;
	return 0;
}

static void v9fs_kill_sb(struct dentry *root)
{
	d_kill_tree(root, 0);
}

/*
 * statfs: the host's figures for the shared folder's file system (Tstatfs on the mount's root),
 * its f_type too (ext4's, say), as Linux's v9fs_statfs passes them on.
 */
static int v9fs_statfs(struct dentry *root, struct kstatfs *buf)
{
	struct v9fs_inode *v = V9FS_I(root->d_inode);
	struct p9_rstatfs st;
	int err = p9_client_statfs(v->clnt, v->fid, &st);

	if (err)
		return err;
	buf->f_type = st.type;
	buf->f_bsize = st.bsize;
	buf->f_blocks = st.blocks;
	buf->f_bfree = st.bfree;
	buf->f_bavail = st.bavail;
	buf->f_files = st.files;
	buf->f_ffree = st.ffree;
	buf->f_fsid = st.fsid;
	buf->f_namelen = st.namelen;
	return 0;
}

static struct file_system_type v9fs_fs_type = {
	.name = "9p",
	.mount_source = v9fs_mount,
	.kill_sb = v9fs_kill_sb,
	.magic = V9FS_MAGIC,
	.statfs = v9fs_statfs,
};

void v9fs_init(void)
{
	struct p9_rstatfs st = {0};
	struct p9_client *c;
	int err;

	register_filesystem(&v9fs_fs_type);
	p9_virtio_init();
	if (!p9_virtio_has_channel())
		return;
	err = vfs_mkdir("/mnt", 0755);
	if (!err || err == -EEXIST)
		err = vfs_mkdir(V9FS_BOOT_DIR, 0755);
	if (!err)
		err = vfs_mount_source("9p", V9FS_BOOT_TAG, V9FS_BOOT_DIR);
	if (err) {
		printk(KERN_ERR "9p: cannot mount the host's folder at %s: %s\n", V9FS_BOOT_DIR,
		       errno_text(-err));
		return;
	}
	/* Tstatfs on the export's root, for the boot log: how much room the host has. */
	if (!p9_virtio_client(V9FS_BOOT_TAG, &c)) {
		uint32_t fid = p9_fid_alloc(c);

		if (!p9_client_attach(c, fid, &(struct p9_qid){0})) {
			p9_client_statfs(c, fid, &st);
			p9_client_clunk(c, fid);
		}
		printk(KERN_INFO "9p: host folder mounted at %s (msize %u, %llu MiB free)\n",
		       V9FS_BOOT_DIR, c->msize, (unsigned long long)(st.bavail * st.bsize >> 20));
	}
}
