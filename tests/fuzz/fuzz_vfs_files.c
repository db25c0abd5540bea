/*
 * Pseudo files for the VFS fuzz target, shaped like the tracer's control files:
 *
 *   fz_value       a number: reads "N\n", a write must parse with kstrtoul (as buffer_size_kb)
 *   fz_list        a seq_file of fz_value lines, long enough to need several buffers
 *   instances/     mkdir makes a directory with its own fz_value, rmdir takes it away
 *   fz_tmp         appears and disappears while it may be open (fuzz_files_toggle_tmp)
 *   a null device  for mknod: reads nothing, takes every write
 *
 * all under /sys/kernel/tracing. Their handlers follow the rules of kernel/fs/vfs.h, so a fault
 * the fuzzer finds through them is the VFS's, not theirs.
 */
#include <stdbool.h>
#include <stdint.h>
#include "kernel/fs/tracefs.h"
#include "kernel/fs/seq_file.h"
#include "lib/compiler.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "tests/fuzz/fuzz_vfs.h"

#define MAX_INSTANCES 4
#define VALUE_WRITE_MAX 64
#define LIST_MAX 300

struct value {
	unsigned long v;
};

static struct value top_value, tmp_value;
static struct dentry *tmp_dentry, *instances_dentry;
static struct {
	char name[NAME_MAX + 1];
	struct dentry *dir;
	struct value value;
} instances[MAX_INSTANCES];

static ssize_t value_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct value *val = file_inode(file)->i_private;
	char text[24];
	int n = scnprintf(text, sizeof(text), "%lu\n", val->v);

	return simple_read_from_buffer(buf, count, pos, text, n);
}

static ssize_t value_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct value *val = file_inode(file)->i_private;
	char text[VALUE_WRITE_MAX + 1];
	unsigned long v;
	int err;

	if (count > VALUE_WRITE_MAX)
		return -EINVAL;
	memcpy(text, buf, count);
	text[count] = '\0';
	err = kstrtoul(text, 0, &v);
	if (err)
		return err;
	val->v = v;
	*pos += count;
	return count;
}

static const struct file_operations value_fops = {
	.read = value_read,
	.write = value_write,
	.llseek = default_llseek,
};

/* fz_list: records are the numbers 0 .. fz_value % LIST_MAX - 1, each a line. */
static void *list_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	return *pos < (loff_t)(top_value.v % LIST_MAX) ? (void *)(uintptr_t)(*pos + 1) : NULL;
}

static void *list_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return list_start(m, pos);
}

static void list_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

static int list_show(struct seq_file *m, void *v)
{
	unsigned long i = (uintptr_t)v - 1;

	if (i % 7 == 3)
		return SEQ_SKIP;
	seq_printf(
		m, "%lu: %.*s\n", i, (int)(i * 13 % 200),
		"................................"
		"................................................................................"
		"................................................................................"
		"........");
	return 0;
}

static const struct seq_operations list_sops = {
	.start = list_start,
	.next = list_next,
	.stop = list_stop,
	.show = list_show,
};

static int list_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return seq_open(file, &list_sops);
}

static const struct file_operations list_fops = {
	.open = list_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

static int instance_mkdir(const char *name)
{
	for (int i = 0; i < MAX_INSTANCES; i++) {
		if (instances[i].dir)
			continue;
		instances[i].dir = tracefs_create_dir(name, instances_dentry);
		if (!instances[i].dir)
			return -ENOMEM;
		if (!tracefs_create_file("fz_value", 0644, instances[i].dir, &instances[i].value,
					 &value_fops)) {
			tracefs_remove(instances[i].dir);
			instances[i].dir = NULL;
			return -ENOMEM;
		}
		strlcpy(instances[i].name, name, sizeof(instances[i].name));
		instances[i].value.v = 0;
		return 0;
	}
	return -ENOSPC;
}

static int instance_rmdir(const char *name)
{
	for (int i = 0; i < MAX_INSTANCES; i++) {
		if (instances[i].dir && !strcmp(instances[i].name, name)) {
			tracefs_remove(instances[i].dir);
			instances[i].dir = NULL;
			return 0;
		}
	}
	return -ENOENT;
}

static ssize_t null_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)file, (void)buf, (void)count, (void)pos;
	return 0;
}

static ssize_t null_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	(void)file, (void)buf, (void)pos;
	return count;
}

const struct file_operations fuzz_null_fops = {
	.read = null_read,
	.write = null_write,
};

void fuzz_files_init(void)
{
	tracefs_create_file("fz_value", 0644, NULL, &top_value, &value_fops);
	tracefs_create_file("fz_list", 0444, NULL, NULL, &list_fops);
	instances_dentry =
		tracefs_create_instance_dir("instances", NULL, instance_mkdir, instance_rmdir);
}

void fuzz_files_toggle_tmp(void)
{
	if (tmp_dentry) {
		tracefs_remove(tmp_dentry);
		tmp_dentry = NULL;
	} else {
		tmp_dentry = tracefs_create_file("fz_tmp", 0644, NULL, &tmp_value, &value_fops);
	}
}

void fuzz_files_reset(void)
{
	if (tmp_dentry)
		fuzz_files_toggle_tmp();
	for (int i = 0; i < MAX_INSTANCES; i++)
		if (instances[i].dir)
			instance_rmdir(instances[i].name);
	top_value.v = 0;
}
