/*
 * The rescue console: what Lucid keeps of a shell of its own, for when user space is broken.
 *
 * Linux's console runs init (/sbin/init, or init=PATH), and so does Lucid's; this console runs
 * in its place, as pid 1, only
 *	- with the boot option `rescue` (kernel/main.c, kernel_init),
 *	- when init cannot be run: "Failed to execute /sbin/init (error -2)" (Linux would panic),
 *	- when init dies: "Attempted to kill init!" (kernel/exit.c; Linux would panic).
 * It reads a line with the line editor (kernel/shell/line_edit.c: Backspace, Ctrl-U, Ctrl-C,
 * history on the arrow keys), splits it into blank-separated words, and runs the command the
 * first one names (the SHELL_CMD() table: kernel/shell/cmd/, kernel/debug/sysrq.c) in this
 * thread, until it returns. No pipes, redirections, jobs, quotes or variables: for those,
 * `exec /bin/sh` (or /sbin/init) replaces the console with a program, as init would be run.
 *
 * A kernel thread takes no signals, as Linux's do: Ctrl-C only drops the line being typed; a
 * command that never ends holds the console (Ctrl-O b, SysRq, still reboots).
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/line_edit.h"
#include "kernel/shell/stdio.h"
#include "kernel/drivers/console.h"
#include "kernel/drivers/termios.h"
#include "kernel/drivers/tty.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define RESCUE_ARGS_MAX 32 /* words of a line */
#define RESCUE_METACHARS "|&;<>()`$" /* what a shell's grammar would give a meaning to */

const struct shell_cmd *shell_find_cmd(const char *name)
{
	for (const struct shell_cmd *c = __start_shell_cmds; c < __stop_shell_cmds; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* The editor's echo, with its "\r\n" as "\n": the console adds the "\r" itself. */
static void echo(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!(s[i] == '\r' && i + 1 < n && s[i + 1] == '\n'))
			console_write(&s[i], 1);
	}
}

/*
 * One line, read raw: the console edits it itself, so the terminal gives it every byte, with no
 * echo and Ctrl-C as a key (no ISIG); its settings come back before the line runs, as bash's
 * readline does around each line: a program `exec` starts finds them as the kernel set them.
 */
static enum line_edit_event read_line(struct line_edit *le, char *echo_buf)
{
	struct termios saved, raw;
	enum line_edit_event ev;

	tty_get_termios(&saved);
	raw = saved;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ECHONL | ISIG | IEXTEN);
	raw.c_iflag &= ~(tcflag_t)(ICRNL | INLCR | IGNCR);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	tty_set_termios(&raw);
	do {
		size_t len = 0;

		ev = line_edit_feed(le, (unsigned char)console_getc(), echo_buf, LINE_EDIT_ECHO_MAX,
				    &len);
		echo(echo_buf, len);
	} while (ev == LINE_EDIT_NONE);
	tty_set_termios(&saved);
	return ev;
}

/* Splits line into its blank-separated words; their number, or -1 after saying what is wrong. */
static int split_words(char *line, char **argv)
{
	size_t bad = strcspn(line, RESCUE_METACHARS);
	int argc = 0;

	if (line[bad]) {
		dprintf(STDERR_FILENO,
			"rescue: '%c': no pipes, redirections, jobs or variables here; "
			"'exec /bin/sh' runs a shell\n",
			line[bad]);
		return -1;
	}
	for (char *w; (w = next_word(&line));) {
		if (argc == RESCUE_ARGS_MAX) {
			dprintf(STDERR_FILENO, "rescue: too many words (max %d)\n",
				RESCUE_ARGS_MAX);
			return -1;
		}
		argv[argc++] = w;
	}
	argv[argc] = NULL;
	return argc;
}

static void run_line(char *line)
{
	char *argv[RESCUE_ARGS_MAX + 1];
	const struct shell_cmd *cmd;
	int argc = split_words(line, argv);

	if (argc <= 0)
		return;
	cmd = shell_find_cmd(argv[0]);
	if (!cmd) {
		dprintf(STDERR_FILENO, "rescue: %s: command not found ('help' lists them)\n",
			argv[0]);
		return;
	}
	cmd->fn(argc, argv); /* each command prints its own errors */
	flush_signals(); /* whatever the command's wait was sent is no concern of the console's */
}

/*
 * A fresh start on the console, whatever this task was before (kernel_init's thread, or the
 * init that died): no files open but the console as fds 0, 1 and 2, in /, the leader of the
 * console's session, as run_init_process() sets init up.
 */
static void rescue_setup(void)
{
	int fd;

	fs_context_exit(current->fs);
	fs_context_init(current->fs);
	vfs_chdir("/");
	setpgid_task(current, current->pid);
	tty_claim_console();
	fd = vfs_open("/dev/console", O_RDWR, 0);
	if (fd != 0 || vfs_dup2(0, 1) != 1 || vfs_dup2(0, 2) != 2)
		panic("rescue: cannot open /dev/console");
	strlcpy(current->comm, "rescue", sizeof(current->comm));
}

int __noreturn rescue_console(void *arg __unused)
{
	struct line_edit *le = kmalloc(sizeof(*le));
	char *echo_buf = kmalloc(LINE_EDIT_ECHO_MAX);

	if (!le || !echo_buf)
		panic("rescue: out of memory");
	rescue_setup();
	line_edit_init(le);
	printk(KERN_WARNING "rescue: the kernel's rescue console; 'help' lists its commands\n");
	for (;;) {
		free_dead_tasks(); /* as pid 1, what is left of the orphans that ended */
		printf("[rescue]# ");
		switch (read_line(le, echo_buf)) {
		case LINE_EDIT_DONE:
			run_line((char *)line_edit_line(le));
			break;
		case LINE_EDIT_TOO_LONG:
			dprintf(STDERR_FILENO, "rescue: line too long (max %d bytes)\n",
				LINE_EDIT_MAX);
			break;
		default: /* Ctrl-C: the editor printed ^C and dropped the line */
			break;
		}
	}
}
