/*
 * The stack tracer's files: stack_trace and stack_max_size in tracefs, and
 * /proc/sys/kernel/stack_tracer_enabled, as Linux names them. The boot option `stacktrace`
 * turns the tracer on from boot; `stacktrace_filter=LIST` (comma-separated names or globs)
 * turns it on too, checking only those functions, as in Linux.
 *
 * stack_trace is formatted once, when opened, into a buffer the reads then copy from: the table
 * is small (at most STACK_TRACE_ENTRIES lines), and a reader sees one consistent maximum.
 *
 * Not traced: part of the tracer.
 */
#include "trace/trace_stack.h"
#include "trace/trace_fs.h"
#include "trace/ftrace.h"
#include "kernel/cmdline.h"
#include "kernel/mm/kmalloc.h"
#include "arch/x86_64/multiboot2.h"
#include "kernel/printk.h"
#include "kernel/fs/proc/sysctl.h"
#include <limits.h>
#include "kernel/fs/tracefs.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

#define STACK_TRACE_TEXT (STACK_TRACE_ENTRIES * 96 + 512)
#define FILTER_LIST_MAX BOOT_CMDLINE_MAX /* stacktrace_filter= may fill the command line */

static int stack_trace_open(struct inode *inode, struct file *file)
{
	(void)inode;
	char *buf = kmalloc(STACK_TRACE_TEXT);
	if (!buf)
		return -ENOMEM;
	stack_trace_format(buf, STACK_TRACE_TEXT);
	file->private_data = buf;
	return 0;
}

static ssize_t stack_trace_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	const char *buf = file->private_data;
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, strlen(buf));
}

static int stack_trace_release(struct inode *inode, struct file *file)
{
	(void)inode;
	kfree(file->private_data);
	return 0;
}

static const struct file_operations stack_trace_fops = {
	.open = stack_trace_open,
	.read = stack_trace_read,
	.release = stack_trace_release,
};

static ssize_t max_size_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)file;
	return tracing_read_ulong(ppos, ubuf, cnt, stack_tracer_max_size());
}

/* Any number resets the maximum (Linux stores it; 0 is what people write to re-arm). */
static ssize_t max_size_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)file;
	unsigned long v;
	int ret = tracing_write_ulong(ubuf, cnt, &v);
	if (ret)
		return ret;
	stack_tracer_reset_max();
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations stack_max_size_fops = {
	.read = max_size_read,
	.write = max_size_write,
};

/* /proc/sys/kernel/stack_tracer_enabled, a sysctl as in Linux: it reads what was written. */
static unsigned long stack_tracer_enabled_val;

static int stack_enabled_handler(const struct ctl_table *t, unsigned long val)
{
	(void)t;
	return stack_tracer_enable(val != 0);
}

static const struct ctl_table stack_sysctls[] = {
	{"stack_tracer_enabled", &stack_tracer_enabled_val, 0644, 0, INT_MAX,
	 stack_enabled_handler},
};

/* stacktrace_filter=LIST: the functions the tracer checks. True if the option is there. */
static bool boot_filter(void)
{
	static char list[FILTER_LIST_MAX]; /* too big for the stack; only kmain calls this */
	char *p = list, *word;

	if (!cmdline_get("stacktrace_filter", list, sizeof(list)))
		return false;
	while ((word = strsep(&p, ",")))
		if (*word && ftrace_set_filter(&stack_trace_ops, word, false))
			printk(KERN_WARNING "stack tracer: stacktrace_filter: cannot use '%s'\n",
			       word);
	return true;
}

void stack_tracer_init_files(void)
{
	if (!tracefs_create_file("stack_trace", 0444, NULL, NULL, &stack_trace_fops) ||
	    !tracefs_create_file("stack_max_size", 0644, NULL, NULL, &stack_max_size_fops) ||
	    register_sysctl_table(stack_sysctls, ARRAY_SIZE(stack_sysctls)))
		printk(KERN_ERR "stack tracer: cannot create its files\n");
	if (cmdline_has("stacktrace") || boot_filter()) {
		if (stack_tracer_enable(true))
			printk(KERN_ERR "stack tracer: cannot start it at boot\n");
		else
			stack_tracer_enabled_val = 1;
	}
}
