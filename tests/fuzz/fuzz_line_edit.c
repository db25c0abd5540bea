/*
 * Fuzzing the shell's line editor (kernel/shell/line_edit.c): random keystrokes, and a model
 * terminal that checks what the user would see.
 *
 * Every echo byte is applied to a one-line terminal (printable bytes are written at the cursor,
 * "\b" moves it left, "\r\n" starts a fresh line). The editor promises that the echo keeps the
 * screen equal to its buffer with the cursor at the end, so after every byte we compare them;
 * and when a line is entered, what the screen showed is what the shell gets.
 *
 * Input bytes are fed as typed, except 0xff n c, which types c n * 20 times: a few bytes of input
 * then reach the LINE_EDIT_MAX limit. (0xff 0 types 0xff itself.)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/shell/line_edit.h"
#include "lib/ctype.h"
#include "tests/unit/host_kmalloc.h"
#include "tests/fuzz/fuzz_check.h"

#define REPEAT_BYTE 0xff
#define REPEAT_UNIT 20

struct terminal {
	char line[LINE_EDIT_MAX + 64];
	size_t col;
	size_t lo; /* the leftmost column the last echo touched or moved to */
};

static struct line_edit le;
static char *echo_buf;

/* Applies the echo; on Enter checks that the screen showed the line the shell receives. */
static void show(struct terminal *t, const char *echo, size_t n, enum line_edit_event ev)
{
	t->lo = t->col;
	for (size_t i = 0; i < n; i++) {
		char c = echo[i];

		if (c == '\r' && ev == LINE_EDIT_DONE) {
			const char *line = line_edit_line(&le);

			CHECK(t->col == strlen(line) && memcmp(t->line, line, t->col) == 0);
		}
		if (c == '\b') {
			CHECK(t->col > 0); /* the editor never backs up over the prompt */
			t->col--;
			t->lo = t->col < t->lo ? t->col : t->lo;
		} else if (c == '\r') {
			t->col = t->lo = 0;
		} else if (c == '\n') {
			memset(t->line, ' ', sizeof(t->line));
		} else {
			CHECK(isprint(c) && t->col < sizeof(t->line));
			t->line[t->col++] = c;
		}
	}
}

static void type(struct terminal *t, unsigned char c)
{
	size_t echo_len = 0;
	enum line_edit_event ev = line_edit_feed(&le, c, echo_buf, LINE_EDIT_ECHO_MAX, &echo_len);

	CHECK(echo_len < LINE_EDIT_ECHO_MAX); /* never cut off */
	show(t, echo_buf, echo_len, ev);
	CHECK(le.len <= LINE_EDIT_MAX);
	CHECK(le.nhistory >= 0 && le.nhistory <= LINE_EDIT_HISTORY);
	CHECK(le.browse >= 0 && le.browse <= le.nhistory);
	if (ev == LINE_EDIT_NONE) {
		/* Left of lo the screen did not change, nor may the buffer have: the whole line is
		 * compared at the next Enter. Comparing it all every time would be quadratic. */
		CHECK(t->col == le.len &&
		      memcmp(t->line + t->lo, le.buf + t->lo, le.len - t->lo) == 0);
	} else if (ev == LINE_EDIT_DONE) {
		CHECK(t->col == 0);
		for (const char *s = line_edit_line(&le); *s; s++)
			CHECK(isprint(*s));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct terminal t = {.col = 0};

	if (!echo_buf)
		echo_buf = malloc(LINE_EDIT_ECHO_MAX); /* exactly: ASan catches a byte beyond */
	memset(t.line, ' ', sizeof(t.line));
	line_edit_init(&le);
	for (size_t i = 0; i < size; i++) {
		if (data[i] == REPEAT_BYTE && i + 2 < size && data[i + 1]) {
			for (int k = 0; k < data[i + 1] * REPEAT_UNIT; k++)
				type(&t, data[i + 2]);
			i += 2;
		} else if (data[i] == REPEAT_BYTE && i + 1 < size) {
			type(&t, REPEAT_BYTE);
			i++;
		} else {
			type(&t, data[i]);
		}
	}
	line_edit_destroy(&le);
	CHECK(host_kmalloc_live == 0);
	return 0;
}
