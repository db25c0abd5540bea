/* The shell's line editor: a byte-at-a-time state machine, see kernel/shell/line_edit.h. */
#include <stddef.h>
#include <stdbool.h>
#include "kernel/shell/line_edit.h"
#include "kernel/mm/kmalloc.h"
#include "lib/ctype.h"
#include "lib/string.h"

#define CTRL(c) ((c)&0x1f)
#define ESC 0x1b
#define DEL 0x7f

/* Where echo bytes go; what does not fit is cut off rather than overflowing. */
struct echo {
	char *buf;
	size_t size;
	size_t *len;
};

static void echo(struct echo *e, const char *s, size_t n)
{
	while (n-- && *e->len < e->size)
		e->buf[(*e->len)++] = *s++;
}

/* Take n characters off the end of the line and off the screen. */
static void erase(struct line_edit *le, struct echo *e, size_t n)
{
	while (n-- && le->len) {
		le->len--;
		echo(e, "\b \b", 3);
	}
}

/* Replace the line with s (a history entry, so it fits). */
static void show(struct line_edit *le, struct echo *e, const char *s)
{
	size_t n = strnlen(s, LINE_EDIT_MAX);

	erase(le, e, le->len);
	le->dropped = 0;
	memcpy(le->buf, s, n);
	le->len = n;
	echo(e, s, n);
}

static bool is_blank(const char *s)
{
	while (*s == ' ')
		s++;
	return *s == '\0';
}

static void remember(struct line_edit *le, const char *line)
{
	char *copy;

	if (is_blank(line) || (le->nhistory && strcmp(le->history[le->nhistory - 1], line) == 0))
		return;
	copy = kmalloc(strlen(line) + 1);
	if (!copy)
		return; /* history is a convenience: losing a line is harmless */
	strcpy(copy, line);
	if (le->nhistory == LINE_EDIT_HISTORY) {
		kfree(le->history[0]);
		memmove(le->history, le->history + 1, (LINE_EDIT_HISTORY - 1) * sizeof(char *));
		le->nhistory--;
	}
	le->history[le->nhistory++] = copy;
}

/* Start over with an empty line, browsing no history entry. */
static void reset_line(struct line_edit *le)
{
	le->len = 0;
	le->dropped = 0;
	le->buf[0] = '\0';
	le->browse = le->nhistory;
}

static enum line_edit_event enter(struct line_edit *le, struct echo *e)
{
	echo(e, "\r\n", 2);
	if (le->dropped) {
		reset_line(le);
		return LINE_EDIT_TOO_LONG;
	}
	le->buf[le->len] = '\0';
	remember(le, le->buf);
	le->browse = le->nhistory;
	le->done = true;
	return LINE_EDIT_DONE;
}

static void history_up(struct line_edit *le, struct echo *e)
{
	if (le->browse > 0)
		show(le, e, le->history[--le->browse]);
}

static void history_down(struct line_edit *le, struct echo *e)
{
	if (le->browse >= le->nhistory)
		return;
	le->browse++;
	show(le, e, le->browse == le->nhistory ? "" : le->history[le->browse]);
}

/*
 * Escape sequences: ESC [ params final (CSI) and ESC O final (SS3) carry the arrow keys; any
 * other printable byte after ESC is Alt+key. All are swallowed. A control byte in the middle
 * cannot belong to a sequence (the terminal sends them whole), so it ends the sequence and is
 * handled as typed: an ESC followed by Enter still enters. Returns true if c was swallowed.
 */
static bool escape(struct line_edit *le, struct echo *e, unsigned char c)
{
	enum line_edit_esc state = le->esc;

	le->esc = LINE_EDIT_ESC_NONE;
	if (state == LINE_EDIT_ESC_NONE || c < ' ' || c >= DEL)
		return false;
	if (state == LINE_EDIT_ESC_START) {
		if (c == '[')
			le->esc = LINE_EDIT_ESC_CSI;
		else if (c == 'O')
			le->esc = LINE_EDIT_ESC_SS3;
		return true;
	}
	if (state == LINE_EDIT_ESC_CSI && c < '@') {
		le->esc = LINE_EDIT_ESC_CSI; /* a parameter such as the 3 of ESC [ 3 ~ */
		return true;
	}
	if (c == 'A')
		history_up(le, e);
	else if (c == 'B')
		history_down(le, e);
	return true;
}

enum line_edit_event line_edit_feed(struct line_edit *le, unsigned char c, char *buf, size_t size,
				    size_t *len)
{
	struct echo e = {buf, size, len};
	bool after_cr = le->after_cr;

	if (le->done) {
		le->done = false;
		reset_line(le);
	}
	le->after_cr = false;
	if (escape(le, &e, c))
		return LINE_EDIT_NONE;

	switch (c) {
	case '\r':
		le->after_cr = true;
		return enter(le, &e);
	case '\n':
		return after_cr ? LINE_EDIT_NONE : enter(le, &e);
	case DEL:
	case CTRL('H'):
		if (le->dropped)
			le->dropped--; /* those bytes were never shown: nothing to erase */
		else
			erase(le, &e, 1);
		return LINE_EDIT_NONE;
	case CTRL('U'):
		erase(le, &e, le->len);
		le->dropped = 0;
		return LINE_EDIT_NONE;
	case CTRL('C'):
		echo(&e, "^C\r\n", 4);
		reset_line(le);
		return LINE_EDIT_CANCEL;
	case ESC:
		le->esc = LINE_EDIT_ESC_START;
		return LINE_EDIT_NONE;
	}
	/* Tab, other controls, and non-ASCII: "\b \b" is one column */
	if (!isprint(c))
		return LINE_EDIT_NONE;
	if (le->len == LINE_EDIT_MAX) {
		le->dropped++;
		return LINE_EDIT_NONE;
	}
	le->buf[le->len++] = c;
	echo(&e, (const char *)&c, 1);
	return LINE_EDIT_NONE;
}

const char *line_edit_line(const struct line_edit *le)
{
	return le->buf;
}

void line_edit_init(struct line_edit *le)
{
	*le = (struct line_edit){0};
}

void line_edit_destroy(struct line_edit *le)
{
	for (int i = 0; i < le->nhistory; i++)
		kfree(le->history[i]);
	line_edit_init(le);
}
