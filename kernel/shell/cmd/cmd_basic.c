/* The shell's basic commands: help, echo, true, false, dmesg, uptime, clear, reboot, poweroff. */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/printk.h"
#include "kernel/sched/time.h"
#include "kernel/mm/kmalloc.h"
#include "arch/x86_64/power.h"
#include "kernel/shell/cmd_io.h"
#include "lib/string.h"
#include "lib/ctype.h"

#define CLEAR_LINES 50 /* `clear` scrolls with newlines: no cursor codes on a console programs read */

static int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (const struct shell_cmd *c = shell_cmd_first(); c; c = shell_cmd_next(c))
		printf("%-12s %s\n", c->name, c->help);
	return 0;
}
SHELL_CMD("help", "list the commands", cmd_help);

/* One backslash escape of echo -e, s just past the backslash: its byte in *out, its length. */
static size_t echo_escape(const char *s, char *out, bool *stop)
{
	static const char simple[] = "a\ab\be\033E\033f\fn\nr\rt\tv\v\\\\";
	size_t n = 0;
	int v = 0;

	for (const char *p = simple; *p; p += 2) {
		if (*s == p[0]) {
			*out = p[1];
			return 1;
		}
	}
	if (*s == 'c') { /* \c: no more output at all, not even the newline */
		*stop = true;
		return 1;
	}
	if (*s == '0') { /* \0nnn: up to three octal digits */
		for (n = 1; n < 4 && s[n] >= '0' && s[n] <= '7'; n++)
			v = v * 8 + (s[n] - '0');
		*out = (char)v;
		return n;
	}
	if (*s == 'x' && isxdigit(s[1])) { /* \xHH: one or two hex digits */
		for (n = 1; n < 3 && isxdigit(s[n]); n++)
			v = v * 16 + (isdigit(s[n]) ? s[n] - '0' : (tolower(s[n]) - 'a' + 10));
		*out = (char)v;
		return n;
	}
	return 0; /* not an escape: the backslash stands for itself */
}

static void echo_word(struct cmd_out *o, const char *s, bool escapes, bool *stop)
{
	while (*s && !*stop) {
		size_t n;
		char c;

		if (escapes && *s == '\\' && (n = echo_escape(s + 1, &c, stop)) > 0) {
			if (!*stop)
				out_write(o, &c, 1);
			s += 1 + n;
			continue;
		}
		out_write(o, s++, 1);
	}
}

/*
 * echo [-neE] WORDS: bash's builtin. Only words made of the letters n, e and E are options,
 * so "echo -x" prints -x. Output is one write, and a failed write is reported as bash does:
 * "sh: echo: write error: Invalid argument", status 1.
 */
static int cmd_echo(int argc, char **argv)
{
	bool newline = true, escapes = false, stop = false;
	struct cmd_out o;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *p = argv[i] + 1;

		if (p[strspn(p, "neE")])
			break;
		for (; *p; p++) {
			if (*p == 'n')
				newline = false;
			else
				escapes = *p == 'e';
		}
	}
	out_init(&o, STDOUT_FILENO);
	for (int first = i; i < argc && !stop; i++) {
		if (i > first)
			out_write(&o, " ", 1);
		echo_word(&o, argv[i], escapes, &stop);
	}
	if (newline && !stop)
		out_write(&o, "\n", 1);
	return out_flush(&o) ? write_error("sh: echo", o.err) : 0;
}
SHELL_CMD("echo", "echo [-n] [-e] WORDS: print the words (-e: \\n \\t ... escapes)", cmd_echo);

static int cmd_true(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}
SHELL_CMD("true", "do nothing, successfully", cmd_true);

static int cmd_false(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 1;
}
SHELL_CMD("false", "do nothing, unsuccessfully", cmd_false);

static int cmd_dmesg(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	char buf[512];
	size_t pos = 0, n;
	while ((n = printk_log_read_text(buf, sizeof(buf), &pos)) > 0) {
		long ret = fd_write(STDOUT_FILENO, buf, n);

		if (ret < 0)
			return write_error("dmesg", (int)ret);
	}
	return 0;
}
SHELL_CMD("dmesg", "print the kernel log", cmd_dmesg);

static int cmd_uptime(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	uint64_t ns = ktime_get_ns();
	int ret = printf("%lu.%06lu\n", (unsigned long)(ns / NSEC_PER_SEC),
			 (unsigned long)(ns % NSEC_PER_SEC / NSEC_PER_USEC));
	return ret < 0 ? write_error("uptime", ret) : 0;
}
SHELL_CMD("uptime", "seconds since boot", cmd_uptime);

static int cmd_clear(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (int i = 0; i < CLEAR_LINES; i++)
		printf("\n");
	return 0;
}
SHELL_CMD("clear", "scroll the screen clear", cmd_clear);

static int cmd_reboot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	machine_reboot();
	return 1;
}
SHELL_CMD("reboot", "restart the machine", cmd_reboot);

static int cmd_poweroff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk(KERN_EMERG "reboot: Power down\n");
	machine_power_off();
	return 1;
}
SHELL_CMD("poweroff", "switch the machine off", cmd_poweroff);
