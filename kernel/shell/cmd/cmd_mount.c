/*
 * mount and umount, with util-linux's usage and messages:
 *	mount				list the mounts
 *	mount -t TYPE nodev DIR		mount a new TYPE (ramfs, debugfs, tracefs, proc) on DIR;
 *	mount -t TYPE DIR		"nodev" is the device, which these file systems have none of
 *	mount -t 9p TAG DIR		the host folder QEMU shares with mount tag TAG (host)
 *	umount DIR
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/shell/cmd_io.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "lib/errno.h"

static int mount_list(void)
{
	int len = vfs_mount_list(NULL, 0);
	char *buf = len >= 0 ? kmalloc((size_t)len + 1) : NULL;
	long ret;

	if (!buf) {
		dprintf(STDERR_FILENO, "mount: %s\n", errno_text(ENOMEM));
		return 1;
	}
	len = vfs_mount_list(buf, (size_t)len + 1); /* a mount made meanwhile is cut off */
	ret = len >= 0 ? fd_write(STDOUT_FILENO, buf, (size_t)len) : len;
	kfree(buf);
	return ret < 0 ? write_error("mount", (int)ret) : 0;
}

static int cmd_mount(int argc, char **argv)
{
	const char *type = NULL, *source, *dir;
	struct kstat st;
	struct getopt g;
	int c, err;

	getopt_init(&g);
	while ((c = getopt(&g, argc, argv, "t:")) != -1) {
		if (c == '?')
			return 1;
		type = g.arg;
	}
	if (g.ind == argc && !type)
		return mount_list();
	if (!type || argc - g.ind < 1 || argc - g.ind > 2) {
		dprintf(STDERR_FILENO, "Usage: mount -t TYPE nodev DIR\n");
		return 1;
	}
	dir = argv[argc - 1];
	/* The device: 9p's mount tag ("host"); the in-memory file systems take none ("nodev"). */
	source = argc - g.ind == 2 ? argv[g.ind] : NULL;
	err = vfs_mount_source(type, source, dir);
	if (err == -ENODEV)
		dprintf(STDERR_FILENO, "mount: %s: unknown filesystem type '%s'.\n", dir, type);
	else if (err == -ENOENT && source && vfs_stat(dir, &st) == 0)
		dprintf(STDERR_FILENO, "mount: %s: special device %s does not exist.\n", dir,
			source); /* 9p: no device has that mount tag */
	else if (err == -ENOENT)
		dprintf(STDERR_FILENO, "mount: %s: mount point does not exist.\n", dir);
	else if (err == -ENOTDIR)
		dprintf(STDERR_FILENO, "mount: %s: mount point is not a directory.\n", dir);
	else if (err)
		dprintf(STDERR_FILENO, "mount: %s: %s.\n", dir, errno_text(-err));
	return err ? 32 : 0; /* util-linux's "mount failure" */
}
SHELL_CMD("mount", "mount [-t TYPE nodev DIR]: list mounts, or mount ramfs/debugfs/tracefs/proc",
	  cmd_mount);

static int cmd_umount(int argc, char **argv)
{
	int first = getopt_none(argc, argv), err;
	const char *dir;

	if (first < 0)
		return 1;
	if (argc - first != 1) {
		dprintf(STDERR_FILENO, "Usage: umount DIR\n");
		return 1;
	}
	dir = argv[first];
	err = vfs_umount(dir);
	if (err == -EINVAL)
		dprintf(STDERR_FILENO, "umount: %s: not mounted.\n", dir);
	else if (err == -EBUSY)
		dprintf(STDERR_FILENO, "umount: %s: target is busy.\n", dir);
	else if (err)
		dprintf(STDERR_FILENO, "umount: %s: %s.\n", dir, errno_text(-err));
	return err ? 32 : 0;
}
SHELL_CMD("umount", "umount DIR: unmount the file system on DIR", cmd_umount);
