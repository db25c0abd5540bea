/*
 * Generators: seq and yes, the usual way to make a big input for a pipeline or a file
 * (`seq 100000 > big`, `yes | head -3`). Both stop as soon as their output fails, which is
 * how a pipeline's reader going away (-EPIPE) or Ctrl-C (-EINTR) ends them.
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/shell/cmd_io.h"
#include "kernel/mm/kmalloc.h"
#include "lib/kstrtox.h"

/* seq [FIRST [INCR]] LAST: integers only. */
static int cmd_seq(int argc, char **argv)
{
	long v[3] = {1, 1, 0}; /* first, increment, last */
	int n = argc - 1, status;
	struct cmd_out *o;

	if (n < 1 || n > 3) {
		dprintf(STDERR_FILENO, "Usage: seq [FIRST [INCREMENT]] LAST\n");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		int slot = n == 1 ? 2 : n == 2 ? (i ? 2 : 0) : i;

		if (kstrtol(argv[1 + i], 10, &v[slot])) {
			dprintf(STDERR_FILENO, "seq: invalid floating point argument: '%s'\n",
				argv[1 + i]);
			return 1;
		}
	}
	if (v[1] == 0) {
		dprintf(STDERR_FILENO, "seq: invalid Zero increment value: '0'\n");
		return 1;
	}
	o = kmalloc(sizeof(*o));
	if (!o)
		return cmd_nomem("seq", 1);
	out_init(o, STDOUT_FILENO);
	/* A step past LONG_MAX (or LONG_MIN) is past LAST too: stop rather than wrap around. */
	for (long x = v[0]; (v[1] > 0 ? x <= v[2] : x >= v[2]) && !out_failed(o);) {
		out_printf(o, "%ld\n", x);
		if (__builtin_add_overflow(x, v[1], &x))
			break;
	}
	status = out_flush(o) ? write_error("seq", o->err) : 0;
	kfree(o);
	return status;
}
SHELL_CMD("seq", "seq [FIRST [INCR]] LAST: print the numbers from FIRST to LAST", cmd_seq);

/* yes [WORD...]: the words (or "y") on a line, again and again, until the output fails. */
static int cmd_yes(int argc, char **argv)
{
	struct cmd_out *o = kmalloc(sizeof(*o));
	int status;

	if (!o)
		return cmd_nomem("yes", 1);
	out_init(o, STDOUT_FILENO);
	while (!out_failed(o)) {
		for (int i = 1; i < argc; i++)
			out_printf(o, i > 1 ? " %s" : "%s", argv[i]);
		out_write(o, argc > 1 ? "\n" : "y\n", argc > 1 ? 1 : 2);
	}
	status = write_error_as("yes", o->err, "standard output: %s", 1);
	kfree(o);
	return status;
}
SHELL_CMD("yes", "yes [WORD...]: print y (or the words) forever", cmd_yes);
