/*
 * sync(2), as Linux's fs/sync.c: write every file system's cached changes to where they live.
 * Lucid caches nothing that is not already there: ramfs, proc, debugfs and tracefs live in
 * memory, and the shared folder's writes go to the host as they are made (kernel/fs/9p/v9fs.c:
 * QEMU has them in the host's page cache at once). So there is nothing to write, and sync
 * succeeds, as Linux's always does. (fsync(2) on a 9p file does ask the host to reach its disk.)
 */
#include "kernel/syscalls.h"
#include "kernel/fs/vfs.h"

long sys_sync(void)
{
	return 0;
}

/*
 * fsync(2) and fdatasync(2): fd's changes to where its file lives. A file system with a fsync
 * operation does it (9p: Tfsync, the host's fsync); the others keep nothing to write. EBADF for a
 * descriptor that is not open, as Linux. fdatasync may leave the times unwritten: Lucid writes
 * them too, which it may.
 */
long sys_fsync(unsigned int fd)
{
	return vfs_fsync((int)fd);
}

long sys_fdatasync(unsigned int fd)
{
	return vfs_fsync((int)fd);
}
