/* Host stand-in for the VFS lock (see host_vfs_lock.c). */
#ifndef TESTS_UNIT_HOST_VFS_LOCK_H
#define TESTS_UNIT_HOST_VFS_LOCK_H
extern int host_vfs_lock_depth; /* 1 while an entry point holds the lock, else 0 */
#endif
