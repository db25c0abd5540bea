/* proc: files that show the kernel's state, at /proc. */
#ifndef KERNEL_PROC_FS_H
#define KERNEL_PROC_FS_H

#include "kernel/fs/vfs.h"

/*
 * The same rules as tracefs (see kernel/fs/tracefs.h), with parent NULL meaning /proc. A mode
 * without permission bits means 0444, as in Linux. Linux returns a struct proc_dir_entry;
 * Lucid has one kind of node for every file system, the dentry.
 */
struct dentry *proc_create(const char *name, umode_t mode, struct dentry *parent,
			   const struct file_operations *fops);
struct dentry *proc_create_data(const char *name, umode_t mode, struct dentry *parent,
				const struct file_operations *fops, void *data);
struct dentry *proc_mkdir(const char *name, struct dentry *parent);
void proc_remove(struct dentry *dentry);

/* Boot (kernel/fs/proc/proc_misc.c): uptime, cpuinfo, meminfo, interrupts, and /proc/sys/kernel. */
int proc_misc_init(void);
extern struct dentry *proc_sys_kernel; /* the parent for sysctl files, e.g. ftrace_enabled */
/* /proc's own lookup (kernel/fs/proc/base.c): the directories /proc/PID and /proc/self. */
extern const struct inode_operations proc_root_inode_operations;
void proc_root_set_operations(const struct inode_operations *iop);
/* /proc/PID/fd and /proc/PID/fdinfo in the directory of task pid (kernel/fs/proc/fd.c). */
int proc_fd_dirs_create(struct dentry *pid_dir, int pid);

#endif
