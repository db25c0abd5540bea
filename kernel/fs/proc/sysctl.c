/* /proc/sys/kernel/NAME: numbers of the kernel as files, from tables (Linux's proc_dointvec). */

/*
 * Each sysctl is a ctl_table line: a name, the variable, its bounds. The file's inode carries
 * the line, so one pair of read and write functions serves every sysctl. Reading formats the
 * value fresh each time: what `cat` shows is the value the kernel uses now.
 */
#include "kernel/fs/proc/sysctl.h"
#include "kernel/fs/proc/proc_fs.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

#define SYSCTL_WRITE_MAX 32 /* a decimal unsigned long, a newline, and room to spare */

static ssize_t sysctl_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	const struct ctl_table *t = file->f_inode->i_private;
	char buf[SYSCTL_WRITE_MAX];

	snprintf(buf, sizeof(buf), "%lu\n", __atomic_load_n(t->data, __ATOMIC_RELAXED));
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, strlen(buf));
}

static ssize_t sysctl_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	const struct ctl_table *t = file->f_inode->i_private;
	char buf[SYSCTL_WRITE_MAX];
	unsigned long val;
	int ret;

	if (cnt >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, ubuf, cnt);
	buf[cnt] = '\0';
	ret = kstrtoul(buf, 10, &val);
	if (ret == -ERANGE)
		ret = -EINVAL; /* Linux's proc_doulongvec_minmax says EINVAL for a number too big */
	if (!ret && (val < t->min || val > t->max))
		ret = -EINVAL;
	if (!ret && t->proc_handler)
		ret = t->proc_handler(t, val);
	if (ret)
		return ret;
	__atomic_store_n(t->data, val, __ATOMIC_RELAXED);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations sysctl_fops = {
	.read = sysctl_read,
	.write = sysctl_write,
};

static ssize_t dointvec_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	char buf[SYSCTL_WRITE_MAX];
	int len = scnprintf(buf, sizeof(buf), "%d\n", READ_ONCE(*(int *)file->f_inode->i_private));

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, (size_t)len);
}

static ssize_t dointvec_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	char buf[SYSCTL_WRITE_MAX];
	int val;

	if (cnt == 0 || cnt >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, ubuf, cnt);
	buf[cnt] = '\0';
	if (kstrtoint(buf, 10, &val))
		return -EINVAL; /* too big for an int too: proc_dointvec says EINVAL, not ERANGE */
	WRITE_ONCE(*(int *)file->f_inode->i_private, val);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

const struct file_operations proc_dointvec_fops = {
	.read = dointvec_read,
	.write = dointvec_write,
};

int register_sysctl_table(const struct ctl_table *table, int n)
{
	for (int i = 0; i < n; i++)
		if (!proc_create_data(table[i].procname, table[i].mode, proc_sys_kernel,
				      &sysctl_fops, (void *)&table[i]))
			return -ENOMEM;
	return 0;
}
