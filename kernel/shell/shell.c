/*
 * The shell: read a line, run it, print the prompt again.
 *
 * It runs as the kernel thread "sh", in /root, with the console as its fds 0, 1 and 2, which
 * every command it starts inherits. It reads the console raw and edits the line itself
 * (kernel/shell/line_edit.c: Backspace, Ctrl-U, Ctrl-C, history on the arrow keys), then hands the
 * line to kernel/shell/sh_exec.c, which parses and runs it. The prompt is `[NAME]# `, NAME being the
 * last part of the current directory (`~` at home, /root), as in the ftrace article's
 * transcripts.
 */
#include "kernel/shell/shell.h"
#include "kernel/debug/fault_inject.h"
#include "kernel/shell/sh_jobs.h"
#include "kernel/shell/stdio.h"
#include "kernel/drivers/console.h"
#include "kernel/drivers/termios.h"
#include "kernel/drivers/tty.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/sched.h"
#include "kernel/shell/line_edit.h"
#include "kernel/shell/sh_parse.h"
#include "kernel/sched/signal.h"
#include "kernel/fs/vfs.h"
#include "kernel/panic.h"
#include "lib/string.h"
#include "lib/printf.h"

extern const struct shell_cmd __start_shell_cmds[], __stop_shell_cmds[];

const struct shell_cmd *shell_find_cmd(const char *name)
{
	for (const struct shell_cmd *c = __start_shell_cmds; c < __stop_shell_cmds; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* The table in name order, without sorting it: the next name after c's, by a scan. */
const struct shell_cmd *shell_cmd_next(const struct shell_cmd *prev)
{
	const struct shell_cmd *best = NULL;
	for (const struct shell_cmd *c = __start_shell_cmds; c < __stop_shell_cmds; c++) {
		if (prev && strcmp(c->name, prev->name) <= 0)
			continue;
		if (!best || strcmp(c->name, best->name) < 0)
			best = c;
	}
	return best;
}

const struct shell_cmd *shell_cmd_first(void)
{
	return shell_cmd_next(NULL);
}

static void print_prompt(void)
{
	static char cwd[PATH_MAX];
	const char *name = "?"; /* the cwd was removed */

	if (vfs_getcwd(cwd, sizeof(cwd)) >= 0) {
		if (!strcmp(cwd, SH_HOME))
			name = "~";
		else if (!strcmp(cwd, "/"))
			name = "/";
		else
			name = strrchr(cwd, '/') + 1;
	}
	printf("[%s]# ", name);
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
 * The terminal's settings before the prompt: the shell edits the line itself, so it reads raw,
 * with no echo and with Ctrl-C as a key (no ISIG), and gives the settings back before the line
 * runs (sh_tty_restore), as bash's readline does around each line it reads.
 */
static struct termios saved_termios;
static bool tty_raw;

static void tty_raw_begin(void)
{
	struct termios raw;

	if (tty_raw)
		return;
	tty_get_termios(&saved_termios);
	raw = saved_termios;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ECHONL | ISIG | IEXTEN);
	raw.c_iflag &= ~(tcflag_t)(ICRNL | INLCR | IGNCR);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	tty_set_termios(&raw);
	tty_raw = true;
}

void sh_tty_restore(void)
{
	if (!tty_raw)
		return;
	tty_set_termios(&saved_termios);
	tty_raw = false;
}

static enum line_edit_event read_line(struct line_edit *le, char *echo_buf)
{
	enum line_edit_event ev;

	tty_raw_begin();

	do {
		size_t len = 0;

		ev = line_edit_feed(le, (unsigned char)console_getc(), echo_buf, LINE_EDIT_ECHO_MAX,
				    &len);
		echo(echo_buf, len);
	} while (ev == LINE_EDIT_NONE);
	return ev;
}

/*
 * One command, into text: a line, and while it ends in a backslash (sh_line_continues()) the
 * next one, asked for with bash's "> " and joined with the newline the backslash escapes. A
 * command longer than SH_LINE_MAX in all is read to its end, then refused as one line would be.
 */
static enum line_edit_event read_command(struct line_edit *le, char *echo_buf, char *text)
{
	enum line_edit_event ev = read_line(le, echo_buf);
	bool too_long = false;
	size_t len = 0;

	while (ev == LINE_EDIT_DONE) {
		const char *line = line_edit_line(le);
		size_t n = strlen(line);

		if (too_long || len + n > SH_LINE_MAX) {
			too_long = true; /* only this line is known now: does it go on? */
			text = (char *)line;
		} else {
			memcpy(text + len, line, n + 1);
			len += n;
		}
		if (!sh_line_continues(text))
			break;
		if (!too_long) /* the backslash's newline: sh_parse() takes both away */
			text[len++] = '\n';
		printf("> ");
		ev = read_line(le, echo_buf);
	}
	return too_long && ev == LINE_EDIT_DONE ? LINE_EDIT_TOO_LONG : ev;
}

/* Home, and the console as stdin, stdout and stderr. */
static void shell_setup(void)
{
	int fd;

	vfs_chdir(SH_HOME);
	tty_claim_console(); /* the console's session is the shell's, as a login shell's */
	fd = vfs_open("/dev/console", O_RDWR, 0);
	if (fd != 0 || vfs_dup2(0, 1) != 1 || vfs_dup2(0, 2) != 2)
		panic("sh: cannot open /dev/console");
}

int shell_main(void *arg)
{
	struct line_edit *le = kmalloc(sizeof(*le));
	char *echo_buf = kmalloc(LINE_EDIT_ECHO_MAX);
	char *text = kmalloc(SH_LINE_MAX + 1); /* a command, its continued lines joined */
	int status = 0;

	(void)arg;
	if (!le || !echo_buf || !text)
		panic("sh: out of memory");
	shell_setup();
	line_edit_init(le);
	fault_inject_start(); /* fail_kmalloc= and fail_page_alloc= test what runs from here on */
	for (;;) {
		sh_jobs_reap(); /* "[1]+  Done  cmd" comes before the prompt, as in bash */
		free_dead_tasks(); /* and, as pid 1, what is left of the orphans that ended */
		print_prompt();
		switch (read_command(le, echo_buf, text)) {
		case LINE_EDIT_DONE:
			status = sh_run_line(text, status);
			break;
		case LINE_EDIT_CANCEL:
			status = STATUS_SIGINT; /* as bash after Ctrl-C at the prompt */
			break;
		default:
			dprintf(STDERR_FILENO, "%s\n", SH_MSG_LINE_TOO_LONG);
			status = 2; /* the line did not run, as after sh_parse()'s same refusal */
			break;
		}
	}
}
