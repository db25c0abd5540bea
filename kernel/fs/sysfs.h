/* sysfs: the kernel's objects as directories and files, at /sys (kernel/fs/pseudofs.c). */
#ifndef KERNEL_SYSFS_H
#define KERNEL_SYSFS_H

#include "kernel/fs/vfs.h"

/*
 * Linux's /sys shows the kernel's objects (devices, buses, modules) one directory each, their
 * attributes one file each. Lucid's has the part that exists here: /sys/module/NAME/parameters
 * for each loaded module (kernel/module/params.c), and the empty directories /sys/kernel/debug
 * and /sys/kernel/tracing, where debugfs and tracefs are mounted, as Linux makes them.
 *
 * The same rules as tracefs (kernel/fs/tracefs.h): NULL on failure, removal is recursive and
 * leaves open files answering -ENODEV (Linux's kernfs_get_active fails). Unlike tracefs, a
 * file refuses to be opened for what its mode does not allow, even by root, as Linux's sysfs
 * does (-EACCES): that is the open() of its operations (a mode without w bits, no write
 * operation and an open that says so).
 * Creating and removing take the VFS lock themselves (task context, VFS lock not held).
 */
struct dentry *sysfs_create_file(const char *name, umode_t mode, struct dentry *parent, void *data,
				 const struct file_operations *fops);
struct dentry *sysfs_create_dir(const char *name, struct dentry *parent);
void sysfs_remove(struct dentry *dentry);

/* /sys/module: the parent of each module's directory. */
struct dentry *sysfs_module_dir(void);

#endif
