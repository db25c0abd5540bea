/*
 * Debugfs files that run a command: Linux's way for what a kernel does on request and a program
 * asks for (lkdtm's DIRECT, kernel/debug/lkdtm.c, is one). /bin/ftest, /bin/run_test and
 * /bin/callsite (user/debugfs_cmd.c) are the programs over them:
 *
 *   write(fd, "delay 100\n")   the words are split and the command runs, inside this write(2),
 *                              under the writer's pid: `trace-cmd record -F ftest call` traces
 *                              ftest_outer() as the program's own call. It returns the count,
 *                              or the command's -errno (-EINVAL: arguments it does not take).
 *   read(fd)                   what the command printed, from its beginning, after each write
 *
 * What it printed belongs to the open file, so two programs never read each other's; bash's
 * `echo call > /sys/kernel/debug/ftest` works too, its error (if any) as write's. Ctrl-C reaches
 * a command as it reaches any process in a system call: a pending signal, which the commands
 * that take long check and answer -EINTR.
 */
#include "kernel/debug/debugfs_cmd.h"
#include "kernel/fs/debugfs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/locking/mutex.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

#define CMD_LINE_MAX 256 /* bytes of the arguments written at once */
#define CMD_ARGS_MAX 16

struct debugfs_cmd_file {
	struct mutex lock; /* one command at a time on this open file, and not read meanwhile */
	struct debugfs_cmd_output out;
};

void cmd_printf(struct debugfs_cmd_output *out, const char *fmt, ...)
{
	size_t room = sizeof(out->text) - out->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out->text + out->len, room, fmt, ap);
	va_end(ap);
	/* vsnprintf returns what it would have written: keep len within the text (its NUL). */
	out->len += n < 0 ? 0 : (size_t)n < room ? (size_t)n : room - 1;
}

static int debugfs_cmd_open(struct inode *inode, struct file *file)
{
	struct debugfs_cmd_file *f = kzalloc(sizeof(*f));

	(void)inode;
	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	file->private_data = f;
	return 0;
}

static int debugfs_cmd_release(struct inode *inode, struct file *file)
{
	(void)inode;
	kfree(file->private_data);
	return 0;
}

/* The file's name then the written words, blank-separated: argc, or -EINVAL. */
static int split_words(const char *name, char *line, char **argv)
{
	int argc = 0;

	argv[argc++] = (char *)name;
	for (char *w; (w = next_word(&line));) {
		if (argc == CMD_ARGS_MAX)
			return -EINVAL;
		argv[argc++] = w;
	}
	argv[argc] = NULL;
	return argc;
}

static ssize_t debugfs_cmd_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	struct debugfs_cmd_file *f = file->private_data;
	const struct debugfs_cmd *cmd = file->f_inode->i_private;
	char line[CMD_LINE_MAX + 1], *argv[CMD_ARGS_MAX + 1];
	int argc, ret;

	if (cnt > CMD_LINE_MAX)
		return -EINVAL;
	memcpy(line, ubuf, cnt);
	line[cnt] = '\0';
	mutex_lock(&f->lock);
	f->out.len = 0;
	f->out.text[0] = '\0';
	argc = split_words(cmd->name, line, argv);
	ret = argc < 0 ? argc : cmd->fn(argc, argv, &f->out);
	*ppos = 0; /* a read after the write starts at what this command printed */
	mutex_unlock(&f->lock);
	return ret ? ret : (ssize_t)cnt;
}

static ssize_t debugfs_cmd_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	struct debugfs_cmd_file *f = file->private_data;
	ssize_t ret;

	mutex_lock(&f->lock);
	ret = simple_read_from_buffer(ubuf, cnt, ppos, f->out.text, f->out.len);
	mutex_unlock(&f->lock);
	return ret;
}

/*
 * No VFS lock around read and write: a command sleeps (run_test waits for its threads, ftest
 * for ticks), and must not hold up every other file meanwhile. The open file's own mutex keeps
 * its output whole; the file stays open while its write runs, as only this task could close it.
 */
static const struct file_operations debugfs_cmd_fops = {
	.open = debugfs_cmd_open,
	.read = debugfs_cmd_read,
	.write = debugfs_cmd_write,
	.release = debugfs_cmd_release,
	.no_vfs_lock = true,
};

bool debugfs_create_cmd(const struct debugfs_cmd *cmd)
{
	if (debugfs_create_file(cmd->name, 0600, NULL, (void *)cmd, &debugfs_cmd_fops))
		return true;
	printk(KERN_WARNING "debugfs: cannot create /sys/kernel/debug/%s\n", cmd->name);
	return false;
}
