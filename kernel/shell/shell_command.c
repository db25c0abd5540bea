/*
 * /sys/kernel/debug/shell_command: one of the kernel shell's commands run by a program, in the
 * program's own context, as Linux's lkdtm runs what is written to its debugfs file.
 *
 * A program writes a command line ("ftest call"); the command runs inside that write(2),
 * under the program's pid, with the program's open files as its stdin, stdout and stderr
 * (kernel/shell/stdio.c writes to the running task's descriptors); a read of the same open
 * file then gives its exit status. /bin/ftest and /bin/run_test (user/shellcmd.c) are such
 * programs, so that what only the kernel shell could run can be run by anything that execs:
 * `trace-cmd record -p function -F ftest call` traces ftest_outer() under the pid it follows,
 * and bash runs `ftest call` as the kernel shell does.
 *
 * Only the words of one command: no pipes, redirections or variables (the program's own shell
 * did those). Errors: EINVAL for a line that is empty or too long, ENOENT for a name that is
 * no command. Ctrl-C reaches the command as it reaches the program: a pending signal, which
 * the commands check as they do in the kernel shell's own threads.
 */
#include "kernel/shell/shell.h"
#include "kernel/fs/debugfs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

#define COMMAND_LINE_MAX 256 /* bytes of a command line, as the console's */
#define COMMAND_ARGS_MAX 32
#define STATUS_TEXT_MAX 16 /* "-2147483648\n" */

/* One open file's last command: its exit status, once one has run. */
struct command_status {
	bool ran;
	int status;
};

static int shell_command_open(struct inode *inode, struct file *file)
{
	(void)inode;
	file->private_data = kzalloc(sizeof(struct command_status));
	return file->private_data ? 0 : -ENOMEM;
}

static int shell_command_release(struct inode *inode, struct file *file)
{
	(void)inode;
	kfree(file->private_data);
	return 0;
}

/* Splits line into its blank-separated words (lib's next_word); their number, or -EINVAL. */
static int split_words(char *line, char **argv)
{
	int argc = 0;

	for (char *w; (w = next_word(&line));) {
		if (argc == COMMAND_ARGS_MAX)
			return -EINVAL;
		argv[argc++] = w;
	}
	argv[argc] = NULL;
	return argc ? argc : -EINVAL;
}

static ssize_t shell_command_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	struct command_status *s = file->private_data;
	char *line, *argv[COMMAND_ARGS_MAX + 1];
	const struct shell_cmd *cmd;
	int argc;

	if (cnt > COMMAND_LINE_MAX)
		return -EINVAL;
	line = kmalloc(cnt + 1);
	if (!line)
		return -ENOMEM;
	memcpy(line, ubuf, cnt);
	line[cnt] = '\0';
	argc = split_words(line, argv);
	cmd = argc > 0 ? shell_find_cmd(argv[0]) : NULL;
	if (cmd) {
		s->status = cmd->fn(argc, argv);
		s->ran = true;
	}
	(void)ppos; /* the position stays at 0: a read after the write starts at the status */
	kfree(line);
	if (argc < 0)
		return argc;
	return cmd ? (ssize_t)cnt : -ENOENT;
}

static ssize_t shell_command_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	struct command_status *s = file->private_data;
	char text[STATUS_TEXT_MAX];
	size_t len = s->ran ? (size_t)snprintf(text, sizeof(text), "%d\n", s->status) : 0;

	return simple_read_from_buffer(ubuf, cnt, ppos, text, len);
}

/*
 * No VFS lock around read and write: the command takes it itself for every file it touches,
 * and sleeps (run_test waits for its threads). The file stays open meanwhile: only this task
 * could close it (kernel/fs/file.c, fget_unlocked).
 */
static const struct file_operations shell_command_fops = {
	.open = shell_command_open,
	.read = shell_command_read,
	.write = shell_command_write,
	.release = shell_command_release,
	.no_vfs_lock = true,
};

void shell_command_init(void)
{
	if (!debugfs_create_file("shell_command", 0600, NULL, NULL, &shell_command_fops))
		printk(KERN_WARNING "shell: cannot create /sys/kernel/debug/shell_command\n");
}
