/*
 * The shell: read a line, run it, print the prompt again.
 *
 * It runs as the kernel thread "sh". The prompt is `[NAME]# `, NAME being the last part of the
 * current directory (`~` at home, /root), as in the ftrace article's transcripts.
 */
#include "kernel/shell.h"
#include "kernel/stdio.h"
#include "kernel/console.h"
#include "kernel/kmalloc.h"
#include "lib/string.h"
#include "lib/printf.h"

#define LINE_MAX 4096
#define MAX_ARGS 64

extern const struct shell_cmd __start_shell_cmds[], __stop_shell_cmds[];
static int last_status;

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

static int run_argv(int argc, char **argv)
{
	const struct shell_cmd *c = shell_find_cmd(argv[0]);
	if (!c) {
		dprintf(STDERR_FILENO, "sh: %s: command not found\n", argv[0]);
		return 127;
	}
	return c->fn(argc, argv);
}

static void run_line(char *line)
{
	char *argv[MAX_ARGS + 1];
	int argc = 0;
	char status[12];
	for (char *p = line; *p;) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			break;
		if (argc == MAX_ARGS) {
			dprintf(STDERR_FILENO, "sh: too many arguments\n");
			last_status = 1;
			return;
		}
		argv[argc++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	argv[argc] = NULL;
	if (!argc)
		return;
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "$?")) {
			snprintf(status, sizeof(status), "%d", last_status);
			argv[i] = status;
		}
	}
	last_status = run_argv(argc, argv);
}

static bool read_line(char *buf, size_t size)
{
	size_t n = 0;
	for (;;) {
		int c = console_getc();
		if (c == '\r' || c == '\n') {
			console_write("\n", 1);
			buf[n] = '\0';
			return n < size - 1;
		}
		if (c == 0x7f || c == '\b') {
			if (n) {
				n--;
				console_write("\b \b", 3);
			}
			continue;
		}
		if (n < size - 1) {
			buf[n++] = (char)c;
			char ch = (char)c;
			console_write(&ch, 1);
		}
	}
}

int shell_main(void *arg)
{
	(void)arg;
	char *line = kmalloc(LINE_MAX + 1);
	if (!line)
		return 1;
	for (;;) {
		printf("[~]# ");
		if (!read_line(line, LINE_MAX + 1)) {
			dprintf(STDERR_FILENO, "sh: line too long (max %d bytes)\n", LINE_MAX);
			continue;
		}
		run_line(line);
	}
}
