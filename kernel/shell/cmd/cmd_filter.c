/*
 * Filters: grep, sort, uniq. grep and uniq stream a line at a time; sort must see every line
 * before it prints the first, so it holds its input, up to SORT_MAX_BYTES, and says so
 * clearly beyond that. grep's patterns are POSIX regular expressions (lib/regex.c: basic by
 * default, extended with -E), matched anywhere in the line, as GNU grep does.
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/shell/cmd_io.h"
#include "kernel/mm/kmalloc.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/regex.h"
#include "lib/sort.h"
#include "lib/string.h"

#define SORT_MAX_BYTES (8UL << 20) /* of memory held: lines, with what each costs to keep */

struct grep_opts {
	bool invert, count, quiet, number, names;
};

/*
 * Counts the selected lines of lr's input in *selected, those before a read error too (GNU
 * grep -c prints them after the error). Returns 0 or the read's negative errno.
 */
static int grep_fd(struct line_reader *lr, const struct regex *re, const struct grep_opts *opt,
		   const char *name, struct cmd_out *o, long *selected)
{
	long lineno = 0;
	char *line;
	size_t len;
	bool nl;
	int ret;

	while ((ret = line_reader_next(lr, &line, &len, &nl)) > 0 && !out_failed(o)) {
		lineno++;
		if (regex_search(re, line) == opt->invert)
			continue;
		++*selected;
		if (opt->quiet)
			return 0; /* one is enough: stop reading */
		if (opt->count)
			continue;
		if (opt->names)
			out_printf(o, "%s:", name);
		if (opt->number)
			out_printf(o, "%ld:", lineno);
		out_write(o, line, len);
		out_write(o, "\n", 1);
	}
	return ret < 0 ? ret : 0;
}

/* grep [-vciqnE] PATTERN [FILE...]: status 0 if a line was selected, 1 if none, 2 on error. */
static int cmd_grep(int argc, char **argv)
{
	struct grep_opts opt = {0};
	struct line_reader lr;
	struct cmd_out *o;
	struct regex re;
	struct getopt g;
	int c, flags = 0, nfiles, status = 1, err = 0;

	getopt_init(&g);
	while ((c = getopt(&g, argc, argv, "vciqnE")) != -1) {
		switch (c) {
		case 'v':
			opt.invert = true;
			break;
		case 'c':
			opt.count = true;
			break;
		case 'q':
			opt.quiet = true;
			break;
		case 'n':
			opt.number = true;
			break;
		case 'i':
			flags |= REGEX_ICASE;
			break;
		case 'E':
			flags |= REGEX_EXTENDED;
			break;
		default:
			return 2;
		}
	}
	if (g.ind == argc) {
		dprintf(STDERR_FILENO, "Usage: grep [-vciqnE] PATTERN [FILE...]\n");
		return 2;
	}
	err = regex_compile(&re, argv[g.ind], flags);
	if (err) {
		dprintf(STDERR_FILENO, "grep: %s\n",
			err == -EINVAL ? "Invalid regular expression" : errno_text(-err));
		return 2;
	}
	o = NULL; /* once a file is open: its failure is that file's (cmd_io.h) */
	lr.buf = NULL;
	nfiles = argc - g.ind - 1;
	opt.names = nfiles > 1;
	for (int i = 0; i < (nfiles ? nfiles : 1) && !(o && out_failed(o)); i++) {
		const char *name = nfiles ? argv[g.ind + 1 + i] : "-";
		int fd = open_input("grep", name), rerr;
		long n = 0;

		if (fd < 0) {
			err = 1;
			continue;
		}
		line_reader_reset(&lr, fd);
		if (!o && (o = kmalloc(sizeof(*o))))
			out_init(o, STDOUT_FILENO);
		if (!o || (!lr.buf && line_reader_init(&lr, fd)))
			rerr = -ENOMEM;
		else
			rerr = grep_fd(&lr, &re, &opt,
				       strcmp(name, "-") ? name : "(standard input)", o, &n);
		close_input(fd);
		if (rerr == -EINTR) {
			status = STATUS_SIGINT;
			break;
		}
		if (rerr < 0) {
			if (o)
				out_flush(o);
			dprintf(STDERR_FILENO, "grep: %s: %s\n",
				strcmp(name, "-") ? name : "(standard input)", errno_text(-rerr));
			err = 1;
			if (!o)
				continue;
		}
		if (n > 0)
			status = 0;
		if (opt.quiet && n > 0)
			break;
		if (opt.count && opt.names)
			out_printf(o, "%s:%ld\n", name, n);
		else if (opt.count)
			out_printf(o, "%ld\n", n);
	}
	if (o && out_flush(o))
		status = write_error_as("grep", o->err, "write error: %s", 2);
	else if (err && !(opt.quiet && status == 0))
		status = 2;
	line_reader_free(&lr);
	kfree(o);
	regex_free(&re);
	return status;
}
SHELL_CMD("grep", "grep [-vciqnE] PATTERN [FILE...]: print the lines that match", cmd_grep);

struct sort_line {
	char *text;
	size_t len;
};

/* sort's options, handed to each comparison: two sorts may run at once (sort -r | sort -n). */
struct sort_opts {
	bool numeric, reverse;
};

/*
 * sort -n's key: an optional '-' and digits, after blanks; none is 0. The digits are compared
 * as text, never converted, so a number of any length (99999999999999999999) sorts right, as
 * in GNU sort, instead of overflowing a long.
 */
struct number_key {
	bool neg;
	const char *digits; /* without leading zeros */
	size_t len;
};

static struct number_key number_key(const char *s)
{
	struct number_key k;

	while (*s == ' ' || *s == '\t')
		s++;
	k.neg = *s == '-';
	for (s += k.neg; *s == '0'; s++)
		;
	k.digits = s;
	for (k.len = 0; isdigit(s[k.len]); k.len++)
		;
	if (!k.len)
		k.neg = false; /* -0 is 0 */
	return k;
}

static int cmp_numbers(const char *a, const char *b)
{
	struct number_key x = number_key(a), y = number_key(b);
	int r;

	if (x.neg != y.neg)
		return x.neg ? -1 : 1;
	if (x.len != y.len) /* no leading zeros: the longer is the larger */
		r = x.len > y.len ? 1 : -1;
	else
		r = memcmp(x.digits, y.digits, x.len);
	r = (r > 0) - (r < 0);
	return x.neg ? -r : r;
}

/* As GNU sort in the C locale: by the key, then by all bytes as the last resort. */
static int cmp_lines(const void *a, const void *b, const void *priv)
{
	const struct sort_line *x = a, *y = b;
	const struct sort_opts *opts = priv;
	int r = 0;

	if (opts->numeric)
		r = cmp_numbers(x->text, y->text);
	if (!r)
		r = strcmp(x->text, y->text);
	return opts->reverse ? -r : r;
}

static int read_lines(int fd, struct sort_line **v, size_t *n, size_t *cap, size_t *bytes)
{
	struct line_reader lr;
	char *line;
	size_t len;
	bool nl;
	int ret;

	if (line_reader_init(&lr, fd))
		return -ENOMEM;
	while ((ret = line_reader_next(&lr, &line, &len, &nl)) > 0) {
		*bytes += ALIGN_UP(len + 1, 16) + sizeof(**v); /* kmalloc's smallest object is 16 */
		if (*bytes > SORT_MAX_BYTES) {
			ret = -EFBIG;
			break;
		}
		if (*n == *cap) {
			size_t c = *cap ? 2 * *cap : 256;
			struct sort_line *nv = krealloc(*v, c * sizeof(*nv));

			if (!nv) {
				ret = -ENOMEM;
				break;
			}
			*v = nv;
			*cap = c;
		}
		(*v)[*n].text = kmalloc(len + 1);
		if (!(*v)[*n].text) {
			ret = -ENOMEM;
			break;
		}
		memcpy((*v)[*n].text, line, len + 1);
		(*v)[(*n)++].len = len;
	}
	line_reader_free(&lr);
	return ret;
}

/* sort [-n] [-r] [FILE...] */
static int cmd_sort(int argc, char **argv)
{
	struct sort_line *v = NULL;
	size_t n = 0, cap = 0, bytes = 0;
	struct cmd_out *o = NULL;
	struct sort_opts opts = {false, false};
	struct getopt g;
	int c, nfiles, status = 0;

	getopt_init(&g);
	while ((c = getopt(&g, argc, argv, "nr")) != -1) {
		if (c == '?')
			return 2;
		opts.numeric |= c == 'n';
		opts.reverse |= c == 'r';
	}
	nfiles = argc - g.ind;
	/* As GNU sort, every operand is checked before any is read: "cannot read: f: error". */
	for (int i = 0; i < nfiles; i++) {
		int fd = input_open(argv[g.ind + i]);

		if (fd < 0) {
			dprintf(STDERR_FILENO, "sort: cannot read: %s: %s\n", argv[g.ind + i],
				errno_text(-fd));
			return 2;
		}
		close_input(fd);
	}
	for (int i = 0; i < (nfiles ? nfiles : 1) && !status; i++) {
		const char *name = nfiles ? argv[g.ind + i] : "-";
		int fd = input_open(name), err;

		if (fd < 0) { /* gone since it was checked */
			dprintf(STDERR_FILENO, "sort: cannot read: %s: %s\n", name,
				errno_text(-fd));
			status = 2;
			break;
		}
		if (!o) /* once a file is open: its failure is that file's (cmd_io.h) */
			o = kmalloc(sizeof(*o));
		err = o ? read_lines(fd, &v, &n, &cap, &bytes) : -ENOMEM;
		close_input(fd);
		if (err == -EFBIG)
			dprintf(STDERR_FILENO,
				"sort: input too large (at most %lu MiB in memory)\n",
				SORT_MAX_BYTES >> 20);
		else if (err == -EINTR)
			status = STATUS_SIGINT;
		else if (err)
			dprintf(STDERR_FILENO, "sort: read failed: %s: %s\n", name,
				errno_text(-err));
		if (err && !status)
			status = 2;
	}
	if (!status) {
		sort_r(v, n, sizeof(*v), cmp_lines, &opts);
		out_init(o, STDOUT_FILENO);
		for (size_t i = 0; i < n && !out_failed(o); i++) {
			out_write(o, v[i].text, v[i].len);
			out_write(o, "\n", 1);
		}
		if (out_flush(o))
			status = write_error_as(
				"sort", o->err,
				"fflush failed: 'standard output': %s\nsort: write error", 2);
	}
	for (size_t i = 0; i < n; i++)
		kfree(v[i].text);
	kfree(v);
	kfree(o);
	return status;
}
SHELL_CMD("sort", "sort [-n] [-r] [FILE...]: print the lines in order", cmd_sort);

/* uniq [-c] [FILE]: adjacent repeated lines once (-c: with their count, as GNU's "%7lu "). */
static int cmd_uniq(int argc, char **argv)
{
	struct line_reader lr;
	struct cmd_out *o;
	struct getopt g;
	char *prev = NULL, *line;
	const char *name;
	unsigned long count = 0;
	bool counts = false, nl;
	size_t len;
	int c, fd, ret;

	getopt_init(&g);
	while ((c = getopt(&g, argc, argv, "c")) != -1) {
		if (c == '?')
			return 1;
		counts = true;
	}
	name = g.ind < argc ? argv[g.ind] : "-";
	fd = open_input("uniq", name);
	if (fd < 0)
		return 1;
	o = kmalloc(sizeof(*o)); /* once the file is open: its failure is the file's (cmd_io.h) */
	if (!o || line_reader_init(&lr, fd)) {
		dprintf(STDERR_FILENO, "uniq: %s: %s\n", name, errno_text(ENOMEM));
		kfree(o);
		close_input(fd);
		return 1;
	}
	out_init(o, STDOUT_FILENO);
	do {
		ret = line_reader_next(&lr, &line, &len, &nl);
		if (prev && (ret <= 0 || strcmp(prev, line))) { /* the run of prev ended */
			if (counts)
				out_printf(o, "%7lu ", count);
			out_write(o, prev, strlen(prev));
			out_write(o, "\n", 1);
			kfree(prev);
			prev = NULL;
		}
		if (ret > 0 && !prev) {
			prev = kmalloc(len + 1);
			if (!prev) {
				ret = -ENOMEM;
				break;
			}
			memcpy(prev, line, len + 1);
			count = 0;
		}
		count++;
	} while (ret > 0 && !out_failed(o));
	kfree(prev);
	line_reader_free(&lr);
	close_input(fd);
	/* GNU uniq's read error names the file, not the errno; memory is ours to name */
	if (ret == -ENOMEM)
		dprintf(STDERR_FILENO, "uniq: %s: %s\n", name, errno_text(ENOMEM));
	else if (ret < 0 && ret != -EINTR)
		dprintf(STDERR_FILENO, "uniq: error reading '%s'\n", name);
	ret = out_flush(o) ? write_error("uniq", o->err) : ret == -EINTR ? STATUS_SIGINT : ret < 0;
	kfree(o);
	return ret;
}
SHELL_CMD("uniq", "uniq [-c] [FILE]: drop adjacent repeated lines (-c: count them)", cmd_uniq);
