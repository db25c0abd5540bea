/*
 * sync [FILE...]: as coreutils' sync. Lucid keeps no dirty data in memory for any file system,
 * so plain `sync` has nothing to write; `sync FILE` asks FILE's file system to make its data
 * durable (vfs_fsync): on the shared folder, the host fsync()s it (Tfsync).
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/shell/cmd_io.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"

static int cmd_sync(int argc, char **argv)
{
	int first = getopt_none(argc, argv), status = 0;

	if (first < 0)
		return 1;
	for (int i = first; i < argc; i++) {
		int fd = vfs_open(argv[i], O_RDONLY | O_NONBLOCK, 0), err;

		if (fd < 0) {
			dprintf(STDERR_FILENO, "sync: error opening '%s': %s\n", argv[i],
				errno_text(-fd));
			status = 1;
			continue;
		}
		err = vfs_fsync(fd);
		if (err) {
			dprintf(STDERR_FILENO, "sync: error syncing '%s': %s\n", argv[i],
				errno_text(-err));
			status = 1;
		}
		vfs_close(fd);
	}
	return status;
}
SHELL_CMD("sync", "sync [FILE...]: write FILE's data to where it lives (the host's disk)",
	  cmd_sync);
