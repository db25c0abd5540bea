/*
 * The shell's commands share this small "libc": option parsing, opening operands, buffered
 * output that remembers its first error, and a line reader with a bounded buffer, so that a
 * text tool streams any amount of input in constant memory.
 */
#include "kernel/shell/cmd_io.h"
#include "kernel/shell/stdio.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/ctype.h"

void getopt_init(struct getopt *g)
{
	*g = (struct getopt){.ind = 1};
}

int getopt(struct getopt *g, int argc, char **argv, const char *optstring)
{
	const char *spec;
	char c;

	if (!g->next || !*g->next) {
		const char *a = g->ind < argc ? argv[g->ind] : NULL;

		if (!a || a[0] != '-' || a[1] == '\0')
			return -1; /* an operand, or "-" (stdin) */
		g->ind++;
		if (!strcmp(a, "--"))
			return -1;
		if (g->digit_opt && isdigit(a[1])) {
			g->arg = a + 1;
			return g->digit_opt;
		}
		g->next = a + 1;
	}
	c = *g->next++;
	spec = strchr(optstring, c);
	if (!spec || c == ':') {
		dprintf(STDERR_FILENO, "%s: invalid option -- '%c'\n", argv[0], c);
		return '?';
	}
	if (spec[1] != ':')
		return c;
	if (*g->next) {
		g->arg = g->next; /* "-n5" */
	} else if (g->ind < argc) {
		g->arg = argv[g->ind++]; /* "-n 5" */
	} else {
		dprintf(STDERR_FILENO, "%s: option requires an argument -- '%c'\n", argv[0], c);
		return '?';
	}
	g->next = NULL;
	return c;
}

int getopt_none(int argc, char **argv)
{
	struct getopt g;

	getopt_init(&g);
	return getopt(&g, argc, argv, "") == -1 ? g.ind : -1;
}

int input_open(const char *name)
{
	return strcmp(name, "-") ? vfs_open(name, O_RDONLY, 0) : STDIN_FILENO;
}

int open_input(const char *prog, const char *name)
{
	int fd = input_open(name);

	if (fd < 0)
		dprintf(STDERR_FILENO, "%s: %s: %s\n", prog, name, errno_text(-fd));
	return fd;
}

void close_input(int fd)
{
	if (fd != STDIN_FILENO)
		vfs_close(fd);
}

void out_init(struct cmd_out *o, int fd)
{
	o->fd = fd;
	o->err = 0;
	o->len = 0;
}

int out_flush(struct cmd_out *o)
{
	if (o->len && !o->err) {
		long ret = fd_write(o->fd, o->buf, o->len);

		if (ret < 0)
			o->err = (int)ret;
	}
	o->len = 0;
	return o->err;
}

void out_write(struct cmd_out *o, const void *data, size_t n)
{
	const char *p = data;

	while (n && !o->err) {
		size_t k = MIN(n, OUT_BUF_SIZE - o->len);

		memcpy(o->buf + o->len, p, k);
		o->len += k;
		p += k;
		n -= k;
		if (o->len == OUT_BUF_SIZE)
			out_flush(o);
	}
}

void out_printf(struct cmd_out *o, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf)) { /* rare: a long name; format it straight into the heap */
		char *big = kmalloc((size_t)n + 1);

		if (!big) {
			o->err = o->err ? o->err : -ENOMEM;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		out_write(o, big, (size_t)n);
		kfree(big);
		return;
	}
	out_write(o, buf, (size_t)n);
}

int write_error_as(const char *who, int err, const char *what, int status)
{
	char msg[128];

	if (err == -EPIPE)
		return STATUS_SIGPIPE;
	if (err == -EINTR)
		return STATUS_SIGINT;
	snprintf(msg, sizeof(msg), what, errno_text(-err));
	dprintf(STDERR_FILENO, "%s: %s\n", who, msg);
	return status;
}

int write_error(const char *who, int err)
{
	return write_error_as(who, err, "write error: %s", 1);
}

int cmd_nomem(const char *who, int status)
{
	dprintf(STDERR_FILENO, "%s: %s\n", who, errno_text(ENOMEM));
	return status;
}

int line_reader_init(struct line_reader *lr, int fd)
{
	*lr = (struct line_reader){.fd = fd};
	lr->buf = kmalloc(LINE_READER_MAX + 1);
	return lr->buf ? 0 : -ENOMEM;
}

void line_reader_reset(struct line_reader *lr, int fd)
{
	lr->fd = fd;
	lr->start = lr->end = 0;
	lr->eof = false;
}

void line_reader_free(struct line_reader *lr)
{
	kfree(lr->buf);
	lr->buf = NULL;
}

int line_reader_next(struct line_reader *lr, char **line, size_t *len, bool *nl)
{
	for (;;) {
		char *s = lr->buf + lr->start;
		size_t avail = lr->end - lr->start;
		char *eol = memchr(s, '\n', avail);

		/* A whole line, a full buffer's worth, or what is left at the end: hand it out. */
		if (eol || avail == LINE_READER_MAX || (lr->eof && avail)) {
			size_t n = eol ? (size_t)(eol - s) : avail;

			s[n] = '\0'; /* buf has a byte to spare past LINE_READER_MAX */
			lr->start += n + (eol ? 1 : 0);
			*line = s;
			*len = n;
			*nl = eol != NULL;
			return 1;
		}
		if (lr->eof)
			return 0;
		memmove(lr->buf, s, avail); /* make room behind what is left */
		lr->start = 0;
		lr->end = avail;
		long ret = fd_read(lr->fd, lr->buf + lr->end, LINE_READER_MAX - lr->end);
		if (ret < 0)
			return (int)ret;
		if (ret == 0)
			lr->eof = true;
		lr->end += (size_t)ret;
	}
}
