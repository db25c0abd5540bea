/*
 * The file tree at boot: what vfs_init() builds (/ as ramfs; /proc, /sys/kernel/debug and
 * /sys/kernel/tracing mounted), plus what a Linux system's early user space would add: the
 * home directory /root, /tmp, /dev with the console, null, zero and full, and /proc's own
 * files; and the links udev makes in /dev for a process's own descriptors: /dev/fd to
 * /proc/self/fd, /dev/stdin, /dev/stdout and /dev/stderr to its 0, 1 and 2 (bash's <(cmd) and
 * `cat /dev/stdin` go through them, to kernel/fs/proc/fd.c's links).
 */
#include "kernel/fs/fs_boot.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/drivers/tty.h"
#include "kernel/drivers/mem_devs.h"
#include "kernel/drivers/random.h"
#include "kernel/drivers/serial_dev.h"
#include "kernel/fs/vfs.h"
#include "kernel/panic.h"
#include "lib/errno.h"

void fs_boot_init(void)
{
	static const struct {
		const char *path;
		umode_t mode;
	} dirs[] = {
		{"/root", 0700},
		{"/tmp", 01777},
		{"/dev", 0755},
	};
	static const struct {
		const char *target, *path;
	} links[] = {
		{"/proc/self/fd", "/dev/fd"},
		{"/proc/self/fd/0", "/dev/stdin"},
		{"/proc/self/fd/1", "/dev/stdout"},
		{"/proc/self/fd/2", "/dev/stderr"},
	};
	int err = vfs_init();

	if (!err)
		init_fs_context(); /* from here on, new threads get a cwd and an fd table */
	for (size_t i = 0; i < ARRAY_SIZE(dirs) && !err; i++)
		err = vfs_mkdir(dirs[i].path, dirs[i].mode);
	if (!err)
		err = tty_init();
	if (!err)
		err = mem_devs_init();
	if (!err)
		err = random_devs_init();
	if (!err)
		err = serial_dev_init();
	if (!err)
		err = proc_misc_init();
	for (size_t i = 0; i < ARRAY_SIZE(links) && !err; i++)
		err = vfs_symlink(links[i].target, links[i].path);
	if (err)
		panic("cannot build the file tree: %s", errno_text(-err));
}
