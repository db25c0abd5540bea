/* The shell's line editor: typed bytes in, a finished line and the bytes to echo out. */
#ifndef KERNEL_LINE_EDIT_H
#define KERNEL_LINE_EDIT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A state machine with no I/O of its own, so it can be tested on the host: the caller reads a
 * byte from the console, feeds it in, writes the echo bytes back out, and acts on the event.
 *
 *	printable ASCII		appended and echoed
 *	Backspace, Ctrl-H	erase the last character: "\b \b"
 *	Ctrl-U			erase the whole line, one "\b \b" per character
 *	Ctrl-C			"^C\r\n", the line is dropped: LINE_EDIT_CANCEL
 *	CR, LF, CR LF		"\r\n", the line is finished: LINE_EDIT_DONE
 *	Up, Down		ESC [ A / ESC [ B or ESC O A / ESC O B: the previous / next history
 *				line replaces the current one (past the newest: an empty line)
 *	anything else		ignored: Tab, other control bytes, bytes >= 0x80, and whole escape
 *				sequences (Left, Delete, F1, Alt+key, ...)
 *
 * The echo is plain text and never contains an escape sequence, because programs read the
 * console too. The cursor stays at the end of the line, which is what lets "\b \b" erase.
 *
 * A line holds LINE_EDIT_MAX bytes. Bytes typed beyond that are counted but neither stored nor
 * echoed (Backspace takes them back first); Enter then gives LINE_EDIT_TOO_LONG and the line
 * is dropped, so that a cut-off command never runs.
 *
 * History keeps the last LINE_EDIT_HISTORY finished lines, skipping blank lines and a repeat of
 * the newest; entries are kmalloc'd (if that fails the line is just not remembered).
 */

#define LINE_EDIT_MAX 4096 /* bytes in a line, not counting the NUL */
#define LINE_EDIT_HISTORY 32 /* lines remembered */

/* The most echo bytes one byte can produce: erase a full line (3 each), print a full one. */
#define LINE_EDIT_ECHO_MAX (4 * LINE_EDIT_MAX)

enum line_edit_event {
	LINE_EDIT_NONE, /* keep feeding */
	LINE_EDIT_DONE, /* Enter: line_edit_line() is the line */
	LINE_EDIT_CANCEL, /* Ctrl-C: the line was dropped */
	LINE_EDIT_TOO_LONG, /* Enter after more than LINE_EDIT_MAX bytes: dropped */
};

enum line_edit_esc {
	LINE_EDIT_ESC_NONE, /* not in an escape sequence */
	LINE_EDIT_ESC_START, /* after ESC */
	LINE_EDIT_ESC_CSI, /* after ESC [ : parameters until a final byte @ to ~ */
	LINE_EDIT_ESC_SS3, /* after ESC O : one final byte */
};

struct line_edit {
	char buf[LINE_EDIT_MAX + 1];
	size_t len; /* bytes in buf, all echoed */
	size_t dropped; /* bytes typed past LINE_EDIT_MAX and not yet erased */
	bool done; /* buf holds a finished line; the next byte starts a new one */
	bool after_cr; /* the last byte was CR, so an LF now is the same Enter */
	enum line_edit_esc esc;
	char *history[LINE_EDIT_HISTORY]; /* oldest first */
	int nhistory;
	int browse; /* the history entry shown; nhistory when none is */
};

void line_edit_init(struct line_edit *le);

/* Free the history. */
void line_edit_destroy(struct line_edit *le);

/*
 * Take one byte typed. The bytes to echo are appended to echo[*echo_len ...] and *echo_len is
 * advanced; with echo_size - *echo_len >= LINE_EDIT_ECHO_MAX nothing is ever cut off.
 */
enum line_edit_event line_edit_feed(struct line_edit *le, unsigned char c, char *echo,
				    size_t echo_size, size_t *echo_len);

/* The finished line, NUL-terminated, without the Enter; valid after LINE_EDIT_DONE until the
 * next line_edit_feed(). */
const char *line_edit_line(const struct line_edit *le);

#endif
