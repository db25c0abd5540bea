/*
 * The function profiler's files, as Linux names them: function_profile_enabled (0 or 1),
 * trace_stat/functionN (one per CPU: hits and time per function, longest total time first),
 * and options/graph-time and options/sleep-time.
 *
 * The counting is trace/ftrace_profile.c's. A trace_stat file takes a sorted copy of its CPU's
 * rows when it is opened (ftrace_profile_snapshot) and prints one row per seq_file record, so
 * a reader sees one consistent table while the counts go on changing.
 *
 * graph-time and sleep-time are options of Linux's function_graph tracer, which the profiler
 * shares; they are listed in trace_options only while that tracer is current. Here the files
 * are made for the profiler, unless a tracer registered options of those names first: then
 * that tracer's files are the ones (and its set_flag must set profile_graph_time and
 * profile_sleep_time, as Linux's does).
 *
 * Not traced: part of the tracer.
 */
#include "trace/ftrace_profile.h"
#include "trace/trace_fs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/mutex.h"
#include "kernel/printk.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

#define NUMBER_MAX 32
#define ROW_MAX 160 /* "  name (30)  hits (10)    time    avg    s^2\n" */

static DEFINE_MUTEX(ftrace_profile_lock); /* enabling and disabling */

/* --- function_profile_enabled --------------------------------------------------------------- */

static ssize_t profile_enabled_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)file;
	return tracing_read_ulong(ppos, ubuf, cnt, !!(ftrace_profile_enabled()));
}

/* Any number but 0 enables (Linux's !!val); enabling starts every count from zero. */
static ssize_t profile_enabled_write(struct file *file, const char *ubuf, size_t cnt,
				     loff_t *ppos)
{
	unsigned long val;
	int ret = tracing_write_ulong(ubuf, cnt, &val);

	(void)file;
	if (ret)
		return ret;
	mutex_lock(&ftrace_profile_lock);
	ret = ftrace_profile_enable(val != 0);
	mutex_unlock(&ftrace_profile_lock);
	if (ret)
		return ret; /* -EBUSY: the function graph hook is taken (function_graph) */
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations ftrace_profile_fops = {
	.read = profile_enabled_read,
	.write = profile_enabled_write,
};

/* --- trace_stat/functionN ------------------------------------------------------------------- */

struct stat_session {
	struct profile_row *rows; /* sorted, longest total time first */
	int nr;
};

/* Record 0 is the header, record i the i-th row. */
static void *stat_start(struct seq_file *m, loff_t *pos)
{
	struct stat_session *s = m->private;

	if (*pos == 0)
		return SEQ_START_TOKEN;
	return *pos <= s->nr ? &s->rows[*pos - 1] : NULL;
}

static void *stat_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return stat_start(m, pos);
}

static void stat_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

static int stat_show(struct seq_file *m, void *v)
{
	char row[ROW_MAX];

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, ftrace_profile_header);
		return 0;
	}
	ftrace_profile_format_row(v, row, sizeof(row));
	seq_puts(m, row);
	return 0;
}

static const struct seq_operations stat_seq_ops = {
	.start = stat_start,
	.next = stat_next,
	.stop = stat_stop,
	.show = stat_show,
};

static int stat_open(struct inode *inode, struct file *file)
{
	struct stat_session *s = __seq_open_private(file, &stat_seq_ops, sizeof(*s));
	int cpu = (int)(long)inode->i_private;

	if (!s)
		return -ENOMEM;
	s->nr = ftrace_profile_snapshot(cpu, &s->rows);
	if (s->nr < 0) {
		seq_release_private(inode, file);
		return -ENOMEM;
	}
	return 0;
}

static int stat_release(struct inode *inode, struct file *file)
{
	struct stat_session *s = ((struct seq_file *)file->private_data)->private;

	kfree(s->rows);
	return seq_release_private(inode, file);
}

static const struct file_operations tracing_stat_fops = {
	.open = stat_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = stat_release,
};

/* --- options/graph-time, options/sleep-time ------------------------------------------------- */

static ssize_t profile_option_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	bool *opt = file_inode(file)->i_private;

	return tracing_read_ulong(ppos, ubuf, cnt, !!(READ_ONCE(*opt)));
}

static ssize_t profile_option_write(struct file *file, const char *ubuf, size_t cnt,
				    loff_t *ppos)
{
	bool *opt = file_inode(file)->i_private;
	unsigned long val;
	int ret = tracing_write_ulong(ubuf, cnt, &val);

	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL; /* as every options/ file */
	WRITE_ONCE(*opt, val == 1);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations profile_option_fops = {
	.read = profile_option_read,
	.write = profile_option_write,
};

/* --- boot --------------------------------------------------------------------------------- */

void ftrace_profile_init_files(void)
{
	struct dentry *stat_dir = tracefs_create_dir("trace_stat", NULL);
	struct dentry *options = tracing_options_dir();
	char name[NUMBER_MAX];
	bool ok = stat_dir != NULL;

	ok &= tracefs_create_file("function_profile_enabled", TRACE_MODE_WRITE, NULL, NULL,
				  &ftrace_profile_fops) != NULL;
	for (int cpu = 0; stat_dir && cpu < global_trace.nr_cpus; cpu++) {
		snprintf(name, sizeof(name), "function%d", cpu);
		ok &= tracefs_create_file(name, TRACE_MODE_READ, stat_dir, (void *)(long)cpu,
					  &tracing_stat_fops) != NULL;
	}
	/* NULL if a tracer has them already: then its files are the ones (see above). */
	if (options) {
		tracefs_create_file("graph-time", TRACE_MODE_WRITE, options, &profile_graph_time,
				    &profile_option_fops);
		tracefs_create_file("sleep-time", TRACE_MODE_WRITE, options, &profile_sleep_time,
				    &profile_option_fops);
	}
	if (!ok)
		printk(KERN_WARNING "function profiler: cannot create its files\n");
}
