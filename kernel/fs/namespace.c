/*
 * The mount system calls, kernel side only (kernel/fs/mount.c, the table itself, is built for the
 * host tests too, which have no user memory).
 *
 * mount(2) and umount2(2), as Linux's fs/namespace.c, for what Lucid's mount table can do: a
 * new instance of a file system type on a directory (busybox's `mount -t proc proc /proc`,
 * `mount -t 9p host /mnt/host`). The source names 9p's mount tag and is ignored by the
 * others, as Linux ignores it for proc or tracefs. The options string (data) is not parsed:
 * Lucid's file systems take none, and 9p's "trans=virtio,version=9p2000.L" are its only way.
 *
 * Flags: MS_SILENT only quiets Linux's own messages (Lucid prints none), and the old magic
 * number in the top half (MS_MGC_VAL) is dropped, as Linux does. Lucid lacks remount, bind and
 * move mounts and the per-mount restrictions (read-only, nosuid, noexec...): those flags get
 * EINVAL rather than a mount that silently ignores them. Mounting what is mounted there already
 * stacks a second instance, as on Linux; init (user/init.c) reads /proc/mounts first.
 */
#include "kernel/syscalls.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"

#define MS_SILENT 0x8000
#define MS_MGC_MSK 0xffff0000UL
#define MS_MGC_VAL 0xc0ed0000UL
#define MOUNT_TYPE_MAX 64 /* longer than any type's name: such a type is unknown (ENODEV) */
#define MOUNT_SOURCE_MAX 256 /* a 9p mount tag is at most 32 bytes (virtio's config) */
#define MNT_FORCE 0x1 /* umount2: only network file systems do something with it */
#define UMOUNT_NOFOLLOW 0x8 /* umount2: do not follow a symbolic link at the end */

/* A user string into buf of size bytes: its length, -EFAULT, or too_long if it does not fit. */
static long copy_mount_string(char *buf, long size, const char __user *ustr, long too_long)
{
	long len = strncpy_from_user(buf, ustr, size);

	if (len < 0)
		return len;
	return len == size ? too_long : len;
}

long sys_mount(char __user *dev_name, char __user *dir_name, char __user *type, unsigned long flags,
	       void __user *data)
{
	char fstype[MOUNT_TYPE_MAX], source[MOUNT_SOURCE_MAX];
	char *dir = kmalloc(PATH_MAX);
	long err = -ENOMEM;

	(void)data;
	if ((flags & MS_MGC_MSK) == MS_MGC_VAL)
		flags &= ~MS_MGC_MSK;
	if (!dir)
		return err;
	err = copy_mount_string(dir, PATH_MAX, dir_name, -ENAMETOOLONG);
	if (err == 0)
		err = -ENOENT;
	if (err > 0)
		err = type ? copy_mount_string(fstype, sizeof(fstype), type, -ENODEV) : -EINVAL;
	if (err > 0 && dev_name)
		err = copy_mount_string(source, sizeof(source), dev_name, -ENAMETOOLONG);
	else if (err > 0)
		source[0] = '\0';
	if (err >= 0 && (flags & ~(unsigned long)MS_SILENT))
		err = -EINVAL; /* remount, bind, move, ro, nosuid...: not in Lucid's mount table */
	if (err >= 0)
		err = vfs_mount_source(fstype, source[0] ? source : NULL, dir);
	kfree(dir);
	return err;
}

long sys_umount(char __user *name, int flags)
{
	char *dir;
	long err;

	/* MNT_DETACH and MNT_EXPIRE: Lucid's mounts go at once or not at all */
	if (flags & ~(MNT_FORCE | UMOUNT_NOFOLLOW))
		return -EINVAL;
	dir = kmalloc(PATH_MAX);
	if (!dir)
		return -ENOMEM;
	err = copy_mount_string(dir, PATH_MAX, name, -ENAMETOOLONG);
	if (err == 0)
		err = -ENOENT;
	if (err > 0)
		err = vfs_umount(dir);
	kfree(dir);
	return err;
}
