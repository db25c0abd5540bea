/* What the shell's commands share: options, input files, buffered output, lines (cmd_io.c). */
#ifndef KERNEL_CMD_IO_H
#define KERNEL_CMD_IO_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/compiler.h"
#include "kernel/sched/signal.h" /* STATUS_SIGPIPE, STATUS_SIGINT: the statuses of -EPIPE and -EINTR */

/*
 * POSIX getopt without globals: options come first, may be grouped ("-vc"), and an option
 * that takes an argument gets it attached ("-n5") or as the next word ("-n 5"); "--" ends
 * them. optstring lists the letters, ':' after those that take an argument; if digit_opt is
 * set, "-5" is also accepted and returned as digit_opt with its digits as the argument (head
 * -5). Returns the letter, -1 after the last option (argv[g->ind] is the first operand), or
 * '?' after printing GNU's "prog: invalid option -- 'x'".
 */
struct getopt {
	int ind; /* the next argv[] to look at: start at 1 */
	const char *arg; /* the option's argument */
	const char *next; /* the rest of a group of letters */
	char digit_opt;
};
void getopt_init(struct getopt *g);
int getopt(struct getopt *g, int argc, char **argv, const char *optstring);
/*
 * For a command that has no options: skips a "--" and refuses "-x" as getopt() does. Returns
 * the index of the first operand, or -1 after the message.
 */
int getopt_none(int argc, char **argv);

/*
 * Opens name for reading, "-" meaning stdin (fd 0). On failure prints "prog: name: error" and
 * returns the negative errno; input_open() prints nothing, for the commands whose message
 * differs (head: cannot open 'name' for reading: error). close_input() leaves stdin open.
 */
int open_input(const char *prog, const char *name);
int input_open(const char *name);
void close_input(int fd);

/*
 * Buffered output. The first write error is kept (err) and stops all output: a command
 * checks out_flush()'s result at the end (or out_failed() in a loop) and returns
 * write_error().
 */
#define OUT_BUF_SIZE 2048
struct cmd_out {
	int fd;
	int err; /* 0, or the first write's negative errno */
	size_t len;
	char buf[OUT_BUF_SIZE];
};
void out_init(struct cmd_out *o, int fd);
void out_write(struct cmd_out *o, const void *data, size_t n);
void out_printf(struct cmd_out *o, const char *fmt, ...) __printf(2, 3);
int out_flush(struct cmd_out *o);
static inline bool out_failed(const struct cmd_out *o)
{
	return o->err != 0;
}
/*
 * The exit status after a write error err: a reader that went away (-EPIPE) or a Ctrl-C
 * (-EINTR) end the command quietly, as SIGPIPE and SIGINT would; anything else prints
 * "who: write error: text" (who is "cat", or "sh: echo" for a builtin) and gives 1.
 */
int write_error(const char *who, int err);
/*
 * The same in a command's own words, as GNU's prints them: what follows "who: ", a format that
 * may take the errno text (wc and cksum say only "write error": they find out when they close
 * stdout; yes says "standard output: %s"), and the status (2 for grep, sort and ls).
 */
int write_error_as(const char *who, int err, const char *what, int status);

/*
 * A command that cannot get the memory it needs says so, and says for what: a command that
 * reads files asks for its buffers once the first file is open, and reports their failure as
 * that file's read error ("cat: trace: Cannot allocate memory", "head: error reading 'trace':
 * Cannot allocate memory"), as Linux reports a read() that failed with ENOMEM. Memory that no
 * file is involved in (ps's table, seq's output, grep's pattern) has no file to name:
 * cmd_nomem() prints "who: Cannot allocate memory".
 */
int cmd_nomem(const char *who, int status);

/*
 * Line input: the next line of fd, without its "\n", NUL-terminated in the reader's buffer
 * (valid until the next call). A line longer than LINE_READER_MAX comes in pieces of that
 * size; memory stays bounded whatever the input. Returns 1 with a line, 0 at the end, or a
 * negative errno; *nl says whether the line ended with "\n" (the last one may not).
 */
#define LINE_READER_MAX 16384
struct line_reader {
	int fd;
	char *buf;
	size_t start, end; /* unread bytes: buf[start .. end) */
	bool eof;
};
int line_reader_init(struct line_reader *lr, int fd);
int line_reader_next(struct line_reader *lr, char **line, size_t *len, bool *nl);
void line_reader_free(struct line_reader *lr);
/* Starts reading fd afresh with the same buffer: for a command that reads several files. */
void line_reader_reset(struct line_reader *lr, int fd);

#endif
