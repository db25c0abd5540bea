/* tracefs: the tracer's control files, at /sys/kernel/tracing and /sys/kernel/debug/tracing. */
#ifndef KERNEL_TRACEFS_H
#define KERNEL_TRACEFS_H

#include "kernel/fs/vfs.h"

/*
 * tracefs is one tree built by kernel code (kernel/fs/pseudofs.c). Its root is the "tracing"
 * directory of debugfs, so it shows both where tracefs is mounted and inside every debugfs
 * mount. A parent of NULL means that root. Each call returns the new dentry, to be used as a
 * parent or given to tracefs_remove(), or NULL if the name is taken or invalid or memory is
 * short.
 *
 * A file is a name, a mode (0444 read-only, 0644 read-write, 0200 write-only, ...), a data
 * pointer and its operations. open() finds data in inode->i_private; whatever it sets up goes
 * in file->private_data. As on Linux, root (everyone, in Lucid) opens any file for writing
 * whatever its mode; a read-only file is one without a write operation, whose writes then fail
 * with -EINVAL (and a write-only file one without read). So a file's mode and its operations
 * must agree: no write operation behind a mode without w bits.
 */
struct dentry *tracefs_create_file(const char *name, umode_t mode, struct dentry *parent,
				   void *data, const struct file_operations *fops);
struct dentry *tracefs_create_dir(const char *name, struct dentry *parent);

/*
 * The "instances" directory: a user's mkdir/rmdir inside it calls mkdir(name)/rmdir(name),
 * which build or remove the instance's directory themselves (with tracefs_create_dir() on this
 * directory, and tracefs_remove()) and return 0 or a negative errno. They run inside the
 * user's vfs_mkdir()/vfs_rmdir(), i.e. with the VFS lock held. There is one such directory.
 */
struct dentry *tracefs_create_instance_dir(const char *name, struct dentry *parent,
					   int (*mkdir)(const char *name),
					   int (*rmdir)(const char *name));

/* Is a file below dir open, or a directory below it someone's cwd? VFS lock held. */
bool tracefs_tree_busy(struct dentry *dir);

/*
 * Removes a file, or a directory with everything in it. Files still open stay allocated but
 * their read/write/llseek fail with -ENODEV from then on (as Linux's event files once their
 * file_data is cleared); their release still runs at close, so whatever release uses must
 * outlive the open files. NULL is ignored.
 */
void tracefs_remove(struct dentry *dentry);

#endif
