/*
 * Reading files: cat, head, tail. Each streams: cat a page at a time, head and tail a line at
 * a time (kernel/shell/cmd_io.h), so `cat trace | head -10` costs a few pages however big the
 * trace. tail keeps only the last N lines it has seen. Messages are coreutils'.
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/shell/cmd_io.h"
#include "kernel/mm/kmalloc.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/string.h"

#define CAT_BUF 4096
#define TAIL_MAX_LINES 100000 /* tail -n beyond this would hold too much */

/* Operand i of the n operands at argv; with none, the one operand "-" (stdin). */
static const char *input_name(char **argv, int n, int i)
{
	return n ? argv[i] : "-";
}

static int cmd_cat(int argc, char **argv)
{
	int first = getopt_none(argc, argv), status = 0;
	char *buf = NULL; /* once a file is open: its failure is that file's (cmd_io.h) */

	if (first < 0)
		return 1;
	for (int i = 0; i < (argc > first ? argc - first : 1); i++) {
		const char *name = input_name(argv + first, argc - first, i);
		int fd = open_input("cat", name);
		long n = -ENOMEM;

		if (fd < 0) {
			status = 1;
			continue;
		}
		while ((buf || (buf = kmalloc(CAT_BUF))) && (n = fd_read(fd, buf, CAT_BUF)) > 0) {
			long w = fd_write(STDOUT_FILENO, buf, (size_t)n);

			if (w < 0) {
				close_input(fd);
				kfree(buf);
				return write_error("cat", (int)w);
			}
		}
		if (n == -EINTR) {
			close_input(fd);
			kfree(buf);
			return STATUS_SIGINT;
		}
		if (n < 0) {
			dprintf(STDERR_FILENO, "cat: %s: %s\n", name, errno_text((int)-n));
			status = 1;
		}
		close_input(fd);
	}
	kfree(buf);
	return status;
}
SHELL_CMD("cat", "cat [FILE...]: print files (or stdin) one after the other", cmd_cat);

/*
 * "10", or for tail (plus_ok) "+10" (from line 10 on) or "-10" (the last 10, as GNU tail
 * reads it); -1 if malformed.
 */
static long parse_count(const char *s, bool plus_ok, bool *plus)
{
	unsigned long v;

	*plus = plus_ok && *s == '+';
	if (*plus || (plus_ok && *s == '-'))
		s++;
	if (kstrtoul(s, 10, &v) || v > (unsigned long)__LONG_MAX__)
		return -1;
	return (long)v;
}

/* head's or tail's options: -n N, -N, and head's -c N. */
struct count_opts {
	long count;
	bool bytes; /* head -c */
	bool from; /* tail -n +N */
};

static int parse_count_opts(int argc, char **argv, bool head, struct count_opts *c, int *first)
{
	struct getopt g;
	int opt;

	*c = (struct count_opts){.count = 10};
	getopt_init(&g);
	g.digit_opt = 'n';
	while ((opt = getopt(&g, argc, argv, head ? "n:c:" : "n:")) != -1) {
		if (opt == '?')
			return 1;
		c->bytes = opt == 'c';
		c->count = parse_count(g.arg, !head, &c->from);
		if (c->count < 0) {
			dprintf(STDERR_FILENO, "%s: invalid number of %s: '%s'\n", argv[0],
				c->bytes ? "bytes" : "lines", g.arg);
			return 1;
		}
	}
	*first = g.ind;
	return 0;
}

/* The first c->count lines (or bytes) of fd. */
static int head_fd(struct cmd_out *o, struct line_reader *lr, const struct count_opts *c)
{
	long done = 0;
	char *line;
	size_t len;
	bool nl;
	int ret = 1;

	while (done < c->count && !out_failed(o)) {
		if (c->bytes) {
			long n = fd_read(lr->fd, lr->buf, MIN((size_t)(c->count - done), CAT_BUF));

			if (n <= 0) {
				ret = (int)n;
				break;
			}
			out_write(o, lr->buf, (size_t)n);
			done += n;
			continue;
		}
		ret = line_reader_next(lr, &line, &len, &nl);
		if (ret <= 0)
			break;
		out_write(o, line, len);
		if (nl) {
			out_write(o, "\n", 1);
			done++; /* a piece of a very long line is not a line yet */
		}
	}
	return ret < 0 ? ret : 0;
}

/* The last c->count lines of fd, or (tail -n +N) from line N on. */
static int tail_fd(struct cmd_out *o, struct line_reader *lr, const struct count_opts *c)
{
	struct {
		char *text;
		size_t len;
		bool nl;
	} *ring = NULL;
	long seen = 0, keep = c->from ? 0 : c->count;
	char *line;
	size_t len;
	bool nl;
	int ret;

	if (keep && !(ring = kzalloc((size_t)keep * sizeof(*ring))))
		return -ENOMEM;
	while ((ret = line_reader_next(lr, &line, &len, &nl)) > 0 && !out_failed(o)) {
		long slot;

		seen++;
		if (c->from) { /* no need to remember anything: print from line N on */
			if (seen >= c->count) {
				out_write(o, line, len);
				if (nl)
					out_write(o, "\n", 1);
			}
			continue;
		}
		if (!keep)
			continue;
		slot = (seen - 1) % keep;
		kfree(ring[slot].text);
		ring[slot].text = kmalloc(len + 1);
		if (!ring[slot].text) {
			ret = -ENOMEM;
			break;
		}
		memcpy(ring[slot].text, line, len);
		ring[slot].len = len;
		ring[slot].nl = nl;
	}
	for (long i = seen > keep ? seen - keep : 0; ring && i < seen && ret == 0; i++) {
		out_write(o, ring[i % keep].text, ring[i % keep].len);
		if (ring[i % keep].nl)
			out_write(o, "\n", 1);
	}
	for (long i = 0; ring && i < keep; i++)
		kfree(ring[i].text);
	kfree(ring);
	return ret < 0 ? ret : 0;
}

static int head_or_tail(int argc, char **argv, bool head)
{
	const char *prog = argv[0];
	struct count_opts c;
	struct line_reader lr;
	struct cmd_out *o;
	int first, status = 0, headed = 0;

	if (parse_count_opts(argc, argv, head, &c, &first))
		return 1;
	if (!head && !c.from && c.count > TAIL_MAX_LINES) {
		dprintf(STDERR_FILENO, "tail: at most %d lines\n", TAIL_MAX_LINES);
		return 1;
	}
	o = NULL; /* once a file is open: its failure is that file's (cmd_io.h) */
	lr.buf = NULL;
	for (int i = 0; i < (argc > first ? argc - first : 1); i++) {
		const char *name = input_name(argv + first, argc - first, i);
		const char *shown = strcmp(name, "-") ? name : "standard input"; /* as GNU's */
		int fd, err;

		if (o && out_failed(o))
			break;
		fd = input_open(name);
		if (fd < 0) {
			if (o) /* what came before comes first, as a terminal shows it */
				out_flush(o);
			dprintf(STDERR_FILENO, "%s: cannot open '%s' for reading: %s\n", prog, name,
				errno_text(-fd));
			status = 1;
			continue;
		}
		if (!o && (o = kmalloc(sizeof(*o))))
			out_init(o, STDOUT_FILENO);
		if (o && argc - first > 1) /* GNU's headers, a blank after the first one printed */
			out_printf(o, "%s==> %s <==\n", headed++ ? "\n" : "", shown);
		if (!o || (!lr.buf && line_reader_init(&lr, fd))) { /* the memory to read it */
			if (o)
				out_flush(o);
			dprintf(STDERR_FILENO, "%s: error reading '%s': %s\n", prog, shown,
				errno_text(ENOMEM));
			close_input(fd);
			status = 1;
			continue;
		}
		line_reader_reset(&lr, fd);
		err = head ? head_fd(o, &lr, &c) : tail_fd(o, &lr, &c);
		close_input(fd);
		if (err == -EINTR) {
			status = STATUS_SIGINT;
			break;
		}
		if (err) {
			out_flush(o);
			dprintf(STDERR_FILENO, "%s: error reading '%s': %s\n", prog, shown,
				errno_text(-err));
			status = 1;
		}
	}
	if (o && out_flush(o))
		status = write_error(prog, o->err);
	line_reader_free(&lr);
	kfree(o);
	return status;
}

static int cmd_head(int argc, char **argv)
{
	return head_or_tail(argc, argv, true);
}
SHELL_CMD("head", "head [-n N | -N | -c N] [FILE...]: the first 10 (N) lines or N bytes", cmd_head);

static int cmd_tail(int argc, char **argv)
{
	return head_or_tail(argc, argv, false);
}
SHELL_CMD("tail", "tail [-n N | -N | -n +N] [FILE...]: the last 10 (N) lines", cmd_tail);
