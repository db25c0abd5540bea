/* debugfs: a tree of files kernel code makes for debugging, at /sys/kernel/debug. */
#ifndef KERNEL_DEBUGFS_H
#define KERNEL_DEBUGFS_H

#include "kernel/fs/vfs.h"

/*
 * The same rules as tracefs (see kernel/fs/tracefs.h): parent NULL is debugfs's root, NULL is
 * returned on failure, and removal is recursive. Every mount of debugfs shows this one tree,
 * with tracefs inside it as "tracing" (mkdir /debug; mount -t debugfs nodev /debug;
 * ls /debug/tracing works as on Linux).
 */
struct dentry *debugfs_create_file(const char *name, umode_t mode, struct dentry *parent,
				   void *data, const struct file_operations *fops);
struct dentry *debugfs_create_dir(const char *name, struct dentry *parent);
void debugfs_remove(struct dentry *dentry);

#endif
