/* Files that no directory names: epoll, eventfd, signalfd, timerfd (kernel/fs/anon_inodes.c). */
#ifndef KERNEL_FS_ANON_INODES_H
#define KERNEL_FS_ANON_INODES_H

#include <stdbool.h>

struct file;
struct file_operations;
struct inode;

/*
 * A new descriptor for a new anonymous file named "anon_inode:KIND" ("[eventfd]"), whose
 * operations are fops and private_data priv; flags may hold O_NONBLOCK (the file's) and
 * O_CLOEXEC (the descriptor's). Takes the VFS lock. The descriptor, or -EMFILE, -ENOMEM: then
 * priv is still the caller's to free.
 */
int anon_inode_getfd(const char *kind, const struct file_operations *fops, void *priv, int flags);
/*
 * The same for a file whose inode the caller made (memfd: a regular file), named name as
 * /proc/PID/fd shows it, the file's f_flags as given. On failure the inode is still the
 * caller's to free.
 */
int pseudo_file_fd(struct inode *inode, const char *name, const struct file_operations *fops,
		   void *priv, unsigned int f_flags, bool cloexec);
/*
 * Under the VFS lock: fd's file if its operations are fops; NULL with *err -EBADF (no such
 * descriptor) or -EINVAL (another kind of file), Linux's answers for the wrong kind.
 */
struct file *fget_anon(int fd, const struct file_operations *fops, int *err);

/*
 * The inode operations of a file no directory names (anon inodes, pidfds, sockets): an open by
 * name, through /proc/PID/fd/N, is ENXIO, Linux's no_open (fs/inode.c).
 */
extern const struct file_operations no_open_fops;

#endif
