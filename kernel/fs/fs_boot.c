/*
 * The file tree at boot: what vfs_init() builds (/ as ramfs; /proc, /sys/kernel/debug and
 * /sys/kernel/tracing mounted), plus what a Linux system's early user space would add: the
 * home directory /root, /tmp, /dev with the console, null, zero and full, and /proc's own
 * files.
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
	if (err)
		panic("cannot build the file tree: %s", errno_text(-err));
}
