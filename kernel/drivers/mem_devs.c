/*
 * /dev/null, /dev/zero and /dev/full, as Linux's drivers/char/mem.c: devices with no hardware
 * behind them. /dev/full, whose writes always fail with -ENOSPC, is the classic way to watch a
 * command report a write error ("sh: echo: write error: No space left on device").
 */
#include "kernel/drivers/mem_devs.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"
#include "lib/string.h"

/* /dev/null: reads end at once, writes vanish. */
static ssize_t null_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)file;
	(void)buf;
	(void)count;
	(void)pos;
	return 0;
}

static ssize_t null_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	(void)file;
	(void)buf;
	(void)pos;
	return (ssize_t)count;
}

/* /dev/zero and /dev/full: as many zeros as asked for. */
static ssize_t zero_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)file;
	(void)pos;
	memset(buf, 0, count);
	return (ssize_t)count;
}

static ssize_t full_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	(void)file;
	(void)buf;
	(void)count;
	(void)pos;
	return -ENOSPC;
}

/* Seeking them succeeds and puts the position at 0, as Linux's null_lseek. */
static loff_t null_lseek(struct file *file, loff_t offset, int whence)
{
	(void)offset;
	(void)whence;
	return file->f_pos = 0;
}

/*
 * No state at all: no VFS lock needed (file_operations.no_vfs_lock). Their writes never look at
 * the bytes, so the system call does not copy them in (write_ignores_data).
 */
static const struct file_operations null_fops = {.read = null_read,
						 .write = null_write,
						 .llseek = null_lseek,
						 .no_vfs_lock = true,
						 .write_ignores_data = true};
/* A mapping of /dev/zero is anonymous memory, shared or private (kernel/mm/mmap_file.c). */
static const struct file_operations zero_fops = {.read = zero_read,
						 .write = null_write,
						 .llseek = null_lseek,
						 .no_vfs_lock = true,
						 .write_ignores_data = true,
						 .mmap_zero = true};
static const struct file_operations full_fops = {.read = zero_read,
						 .write = full_write,
						 .llseek = null_lseek,
						 .no_vfs_lock = true,
						 .write_ignores_data = true};

int mem_devs_init(void)
{
	int err = vfs_mknod("/dev/null", S_IFCHR | 0666, &null_fops);

	if (!err)
		err = vfs_mknod("/dev/zero", S_IFCHR | 0666, &zero_fops);
	if (!err)
		err = vfs_mknod("/dev/full", S_IFCHR | 0666, &full_fops);
	return err;
}
