/* What the VFS files (dcache, namei, file, mount, ramfs, pseudofs) share among themselves. */
#ifndef KERNEL_VFS_INTERNAL_H
#define KERNEL_VFS_INTERNAL_H

#include "kernel/fs/vfs.h"
#include "lib/errno.h"
#include <stdint.h>

/*
 * A file system type. "sb" (super block) is Linux's name for one mounted instance of a file
 * system; Lucid's instance is just the root dentry of its tree. ramfs makes a new tree on every
 * mount, the pseudo file systems hand out their one tree again and again.
 */
struct file_system_type {
	const char *name;
	struct dentry *(*mount)(void);		 /* a referenced root, or NULL for -ENOMEM */
	void (*kill_sb)(struct dentry *root); /* the last mount of this tree has gone */
	/* Instead of mount, for a file system that has a source (9p): 0 or -errno. */
	int (*mount_source)(const char *source, struct dentry **root);
	long magic; /* statfs's f_type: Linux's number for this kind (RAMFS_MAGIC...) */
	/*
	 * statfs's figures for the tree at root: blocks, files, and f_type if the file system
	 * knows better (9p: the host's). NULL: none, as Linux's simple_statfs gives the pseudo
	 * file systems (f_bsize a page, f_namelen NAME_MAX, the rest 0).
	 */
	int (*statfs)(struct dentry *root, struct kstatfs *buf);
};

/* statfs's f_type values, Linux's (include/uapi/linux/magic.h). */
#define RAMFS_MAGIC 0x858458f6
#define DEBUGFS_MAGIC 0x64626720
#define TRACEFS_MAGIC 0x74726163
#define PROC_SUPER_MAGIC 0x9fa0
#define V9FS_MAGIC 0x01021997
#define SYSFS_MAGIC 0x62656572

/* Adds a file system type that is not built into the table (9p); -EBUSY if the table is full. */
int register_filesystem(struct file_system_type *type);

extern struct file_system_type ramfs_fs_type;
extern struct file_system_type debugfs_fs_type;
extern struct file_system_type tracefs_fs_type;
extern struct file_system_type proc_fs_type;
extern struct file_system_type sysfs_fs_type;

struct vfsmount {
	struct list_head mnt_list;	/* in the mount table, oldest first */
	struct vfsmount *mnt_parent;	/* the mount we sit on; the root mount: itself */
	struct dentry *mnt_mountpoint;	/* the directory of mnt_parent we cover */
	struct dentry *mnt_root;	/* the tree we show there */
	struct file_system_type *mnt_type;
	char *mnt_source;		/* what mount was given as the device, or NULL */
	int mnt_count;			/* paths held inside: open files, cwds. Busy if > 0 */
	int mnt_id;			/* its number (/proc/PID/fdinfo); 0: pipefs, pidfs */
	unsigned long mnt_dev;		/* stat's st_dev for the files in this tree */
};

/* The page cache's block: one page. */
#define PAGE_CACHE_SIZE 4096UL

/* dcache.c: the tree of dentries and their inodes */
struct inode *new_inode(umode_t mode);
void d_add(struct dentry *dentry, struct inode *inode);
struct dentry *d_alloc(struct dentry *parent, const char *name, size_t len);
struct dentry *d_make_root(struct inode *inode);
struct dentry *d_lookup(struct dentry *parent, const char *name, size_t len);
struct dentry *dget(struct dentry *dentry);
void dput(struct dentry *dentry);
void d_delete(struct dentry *dentry);
void d_move(struct dentry *dentry, struct dentry *target);
void d_kill_tree(struct dentry *root, unsigned int inode_flags);

/* What an open file of a removed pseudo file (S_DEAD) answers to every operation. */
static inline int dead_file_error(const struct inode *inode)
{
	return inode->i_flags & S_DEAD_ENODEV ? -ENODEV : -EIO;
}
bool simple_empty(struct dentry *dentry);
int simple_unlink(struct inode *dir, struct dentry *dentry);
int simple_rmdir(struct inode *dir, struct dentry *dentry);
int simple_rename(struct inode *old_dir, struct dentry *old_dentry, struct inode *new_dir,
		  struct dentry *new_dentry);
void path_get(const struct path *path);
void path_put(const struct path *path);
int d_path(const struct path *path, char *buf, size_t size);

/* namei.c: from names to paths */
#define LOOKUP_DIRECTORY 0x1 /* the result must be a directory */
#define LOOKUP_NOFOLLOW 0x2 /* a symbolic link as the last component is the result itself */
int kern_path(const char *name, unsigned int flags, struct path *path);
int path_openat(const char *name, int flags, umode_t mode, struct path *path);
int do_symlinkat(const char *target, const char *linkpath);
/*
 * openat2's RESOLVE_* rules (vfs.h) for the lookups until namei_scope_end, relative names
 * starting at dfd's directory (AT_FDCWD: the cwd). VFS lock held throughout. -EBADF, -ENOTDIR.
 */
int namei_scope_begin(int dfd, unsigned int resolve);
void namei_scope_end(void);

/* mount.c */
int mnt_init(void);
void get_fs_root(struct path *root);
struct vfsmount *lookup_mnt(struct vfsmount *parent, struct dentry *mountpoint);
void follow_mount(struct path *path);

/* file.c: struct file and the descriptor table */
struct file *fget(int fd);
int get_unused_fd(struct fs_context *fs);
int alloc_fd(struct fs_context *fs, unsigned int start); /* lowest free >= start, or EMFILE */
struct file *alloc_file(void);
void fput(struct file *file);

/*
 * kernel/fs/eventpoll.c: a file's last close takes it out of every epoll that watches it
 * (Linux's include/linux/eventpoll.h). Linux finds them from the file (f_ep); Lucid keeps them
 * on one list and looks only while there are any, so that struct file stays 64 bytes, one
 * kmalloc class, on every open's way (lbench's open + close). The host tests have no epoll.
 */
#ifdef LUCID_HOST
static inline void eventpoll_release(struct file *file)
{
	(void)file;
}
#else
extern unsigned int nr_epitems; /* items in every epoll; changed under the VFS lock */
void eventpoll_release_file(struct file *file);
static inline void eventpoll_release(struct file *file)
{
	if (__builtin_expect(nr_epitems != 0, 0))
		eventpoll_release_file(file);
}
#endif

/* ramfs.c: a regular file's operations, for files kept the same way elsewhere (memfd) */
ssize_t ramfs_read(struct file *file, char *buf, size_t count, loff_t *pos);
ssize_t ramfs_write(struct file *file, const char *buf, size_t count, loff_t *pos);
int ramfs_truncate(struct inode *inode, loff_t size);
struct file_pages *ramfs_mmap_pages(struct file *file);
int ramfs_mmap_shared(struct file *file, loff_t off, size_t len, bool write);

/* pipe.c: a pipe's and a FIFO's operations (mknod gives a FIFO these) */
extern const struct file_operations pipefifo_fops;

/* pseudofs.c */
int pseudofs_init(void);

/*
 * The global VFS lock and waiting (kernel/fs/vfs_lock.c; the host tests stand in for them).
 * vfs_block() runs io(file, buf, count) with the lock held and, while it answers -EAGAIN for
 * a file that waits (file_operations.wait_queue, no O_NONBLOCK), sleeps on the file's wait
 * queue with the lock let go and tries again, with fd looked up again (the lock was let go);
 * Ctrl-C ends the wait with -EINTR. file is fd's file (or NULL: io says -EBADF).
 */
void vfs_lock(void);
void vfs_unlock(void);
/*
 * expr's value, evaluated with the lock held: most public vfs_* calls are their do_* under the
 * lock, "return vfs_locked(do_unlink(pathname));".
 */
#define vfs_locked(expr)                \
	({                              \
		__typeof__(expr) __ret; \
		vfs_lock();             \
		__ret = (expr);         \
		vfs_unlock();           \
		__ret;                  \
	})
/* This task holds the lock, or it is kmain making the boot files (vfs.h): for the checks. */
bool vfs_lock_held(void);
typedef ssize_t (*vfs_io_fn)(struct file *file, void *buf, size_t count);
ssize_t vfs_block(struct file *file, vfs_io_fn io, int fd, void *buf, size_t count);

/* select, poll and epoll (kernel/fs/select.c): a deadline that never comes, and their wait. */
#define NO_TIMEOUT UINT64_MAX
void poll_schedule_timeout(uint64_t deadline);

#endif
