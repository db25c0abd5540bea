/* Unit tests for kernel/shell/line_edit.c: keystrokes in, echo bytes and events out. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/shell/line_edit.h"
#include "tests/unit/host_kmalloc.h"

#define UP "\x1b[A"
#define DOWN "\x1b[B"
#define BS "\b \b"

static char out[2 * LINE_EDIT_ECHO_MAX]; /* the echo of the last type() */
static size_t out_len;
static char events[64]; /* its events: D done, C cancel, L too long */

/* Feed n bytes; collect their echo in out and their events in events. */
static void type_n(struct line_edit *le, const char *s, size_t n)
{
	size_t nev = 0;

	out_len = 0;
	for (size_t i = 0; i < n; i++) {
		enum line_edit_event ev = line_edit_feed(le, s[i], out, sizeof(out), &out_len);

		assert_true(out_len <= sizeof(out));
		if (ev != LINE_EDIT_NONE && nev < sizeof(events) - 1)
			events[nev++] = " DCL"[ev];
	}
	out[out_len] = '\0';
	events[nev] = '\0';
}

static void type(struct line_edit *le, const char *s)
{
	type_n(le, s, strlen(s));
}

/* Type s and check its echo and events. */
static void check(struct line_edit *le, const char *s, const char *echo, const char *ev)
{
	type(le, s);
	assert_string_equal(out, echo);
	assert_string_equal(events, ev);
}

static struct line_edit *new_editor(void)
{
	struct line_edit *le = malloc(sizeof(*le));

	line_edit_init(le);
	return le;
}

static void free_editor(struct line_edit *le)
{
	line_edit_destroy(le);
	assert_int_equal(host_kmalloc_live, 0);
	free(le);
}

static char *repeat(char c, size_t n)
{
	char *s = malloc(n + 1);

	memset(s, c, n);
	s[n] = '\0';
	return s;
}

static void test_typing(void **state)
{
	struct line_edit *le = new_editor();

	(void)state;
	check(le, "echo hi", "echo hi", "");
	check(le, "\r", "\r\n", "D");
	assert_string_equal(line_edit_line(le), "echo hi");
	/* The line stays until the next byte, which starts a new one. */
	assert_string_equal(line_edit_line(le), "echo hi");
	check(le, "cat trace | head -10\n", "cat trace | head -10\r\n", "D");
	assert_string_equal(line_edit_line(le), "cat trace | head -10");
	check(le, "echo '*lock*' > set_ftrace_filter\r", "echo '*lock*' > set_ftrace_filter\r\n",
	      "D");
	assert_string_equal(line_edit_line(le), "echo '*lock*' > set_ftrace_filter");
	/* An empty line is a line too. */
	check(le, "\r", "\r\n", "D");
	assert_string_equal(line_edit_line(le), "");
	free_editor(le);
}

static void test_backspace(void **state)
{
	struct line_edit *le = new_editor();

	(void)state;
	check(le, "\x7f\x7f\b", "", ""); /* nothing to erase: no echo at all */
	check(le, "ab\x7f", "ab" BS, "");
	check(le, "c\b", "c" BS, "");
	check(le, "d\r", "d\r\n", "D");
	assert_string_equal(line_edit_line(le), "ad");
	check(le, "x\x7f\x7f\x7fy\r", "x" BS "y\r\n", "D");
	assert_string_equal(line_edit_line(le), "y");
	free_editor(le);
}

static void test_ctrl_u_and_ctrl_c(void **state)
{
	struct line_edit *le = new_editor();

	(void)state;
	check(le, "\x15", "", "");
	check(le, "abc\x15", "abc" BS BS BS, "");
	check(le, "\x15\r", "\r\n", "D");
	assert_string_equal(line_edit_line(le), "");
	check(le, "abc\x03", "abc^C\r\n", "C");
	check(le, "\x03", "^C\r\n", "C");
	check(le, "x\r", "x\r\n", "D");
	assert_string_equal(line_edit_line(le), "x");
	/* Neither cancelled nor erased lines reach the history. */
	check(le, "gone\x03" UP UP, "gone^C\r\nx", "C");
	free_editor(le);
}

static void test_enter(void **state)
{
	struct line_edit *le = new_editor();

	(void)state;
	check(le, "a\r\nb\n", "a\r\nb\r\n", "DD");
	assert_string_equal(line_edit_line(le), "b");
	check(le, "\r\n", "\r\n", "D"); /* CR LF is one Enter */
	check(le, "\n", "\r\n", "D"); /* ... but another LF is another */
	check(le, "\n\r", "\r\n\r\n", "DD");
	check(le, "\n", "", ""); /* a CR LF split across two feeds is one Enter too */
	check(le, "\r\r", "\r\n\r\n", "DD");
	check(le, "x\r\n\n", "x\r\n\r\n", "DD");
	check(le, "\ry\n", "\r\ny\r\n", "DD");
	assert_string_equal(line_edit_line(le), "y");
	check(le, "z\r\x03\n", "z\r\n^C\r\n\r\n", "DCD"); /* only right after the CR */
	free_editor(le);
}

static void test_history(void **state)
{
	struct line_edit *le = new_editor();

	(void)state;
	check(le, "one\rtwo\rthree\r", "one\r\ntwo\r\nthree\r\n", "DDD");
	assert_int_equal(le->nhistory, 3);
	check(le, UP, "three", "");
	check(le, UP, BS BS BS BS BS "two", "");
	check(le, UP, BS BS BS "one", "");
	check(le, UP, "", ""); /* the oldest: stays */
	check(le, DOWN, BS BS BS "two", "");
	check(le, DOWN, BS BS BS "three", "");
	check(le, DOWN, BS BS BS BS BS, ""); /* past the newest: an empty line */
	check(le, DOWN, "", "");
	check(le, UP "\r", "three\r\n", "D");
	assert_string_equal(line_edit_line(le), "three");
	assert_int_equal(le->nhistory, 3); /* a repeat of the newest is not kept */
	/* A recalled line can be edited before Enter; the original entry is untouched. */
	check(le,
	      UP UP "\x7f"
		    "o\r",
	      "three" BS BS BS BS BS "two" BS "o\r\n", "D");
	assert_string_equal(line_edit_line(le), "two");
	assert_int_equal(le->nhistory, 4);
	assert_string_equal(le->history[1], "two");
	assert_string_equal(le->history[3], "two");
	/* Up replaces whatever was typed. */
	check(le, "abc" UP, "abc" BS BS BS "two", "");
	check(le, "\x03", "^C\r\n", "C");
	/* The ESC O form of the arrows. */
	check(le, "\x1bOA\x1bOA\x1bOB", "two" BS BS BS "three" BS BS BS BS BS "two", "");
	free_editor(le);
}

static void test_history_skips_and_limit(void **state)
{
	struct line_edit *le = new_editor();
	char line[16];

	(void)state;
	check(le, "\r   \ra\ra\rb\ra\r", "\r\n   \r\na\r\na\r\nb\r\na\r\n", "DDDDDD");
	assert_int_equal(le->nhistory, 3);
	assert_string_equal(le->history[0], "a");
	assert_string_equal(le->history[1], "b");
	assert_string_equal(le->history[2], "a");

	for (int i = 0; i < 40; i++) {
		snprintf(line, sizeof(line), "cmd%d\r", i);
		type(le, line);
	}
	assert_int_equal(le->nhistory, LINE_EDIT_HISTORY);
	assert_string_equal(le->history[0], "cmd8");
	assert_string_equal(le->history[LINE_EDIT_HISTORY - 1], "cmd39");
	for (int i = 0; i < 40; i++)
		type(le, UP);
	check(le, "\r", "\r\n", "D");
	assert_string_equal(line_edit_line(le), "cmd8");
	free_editor(le);
}

static void test_arrows_without_history(void **state)
{
	struct line_edit *le = new_editor();

	(void)state;
	check(le, UP DOWN "\x1bOA\x1bOB", "", "");
	check(le, "ab" UP DOWN, "ab", "");
	check(le, "\r", "\r\n", "D");
	assert_string_equal(line_edit_line(le), "ab");
	free_editor(le);
}

static void test_other_keys_ignored(void **state)
{
	struct line_edit *le = new_editor();

	(void)state;
	/* Right, Left, Delete, F5, Ctrl-Left, Home (ESC O H), Alt-x, ESC ESC [ C. */
	check(le, "a\x1b[C\x1b[D\x1b[3~\x1b[15~\x1b[1;5D\x1bOH\x1bx\x1b\x1b[Cb", "ab", "");
	/* Tab, Ctrl-A, Ctrl-D, BEL, and bytes >= 0x80. */
	check(le,
	      "\t\x01\x04\x07\x80\xc3\xa9\xff"
	      "c\r",
	      "c\r\n", "D");
	assert_string_equal(line_edit_line(le), "abc");
	/* A control byte ends an unfinished sequence and then does its own job. */
	check(le, "x\x1b\r", "x\r\n", "D");
	assert_string_equal(line_edit_line(le), "x");
	check(le, "y\x1b[1\r", "y\r\n", "D");
	assert_string_equal(line_edit_line(le), "y");
	check(le, "z\x1bO\x7f\r", "z" BS "\r\n", "D");
	assert_string_equal(line_edit_line(le), "");
	/* Never an escape sequence in the echo. */
	type(le, "q" UP DOWN "\x1b[5~\x1b[H\r");
	assert_null(memchr(out, 0x1b, out_len));
	free_editor(le);
}

static void test_too_long(void **state)
{
	struct line_edit *le = new_editor();
	char *full = repeat('a', LINE_EDIT_MAX);

	(void)state;
	/* Exactly LINE_EDIT_MAX bytes is a line. */
	type(le, full);
	assert_int_equal(out_len, LINE_EDIT_MAX);
	check(le, "\r", "\r\n", "D");
	assert_string_equal(line_edit_line(le), full);

	/* One more is not: not echoed, and Enter reports it and runs nothing. */
	type(le, full);
	check(le, "bcd", "", "");
	check(le, "\r", "\r\n", "L");
	assert_int_equal(le->nhistory, 1);
	check(le, "ok\r", "ok\r\n", "D");
	assert_string_equal(line_edit_line(le), "ok");

	/* Backspace takes back the unseen bytes first, then erases what is seen. */
	type(le, full);
	check(le, "xyz\x7f\x7f\x7f", "", "");
	check(le, "\x7f\r", BS "\r\n", "D");
	assert_int_equal(strlen(line_edit_line(le)), LINE_EDIT_MAX - 1);

	/* Ctrl-U and Ctrl-C forget them too. */
	type(le, full);
	type(le, "xyz\x15");
	assert_int_equal(out_len, 3 * LINE_EDIT_MAX);
	check(le, "\r", "\r\n", "D");
	assert_string_equal(line_edit_line(le), "");
	type(le, full);
	check(le, "xyz\x03\r", "^C\r\n\r\n", "CD");

	/* So does recalling history. The worst echo: erase a full line, show a full one. */
	type(le, full);
	type(le, "\r");
	type(le, full);
	type(le, "x");
	type(le, UP);
	assert_int_equal(out_len, LINE_EDIT_ECHO_MAX);
	check(le, "\r", "\r\n", "D");
	assert_string_equal(line_edit_line(le), full);
	free(full);
	free_editor(le);
}

static void test_small_echo_buffer(void **state)
{
	struct line_edit *le = new_editor();
	char small[4] = "....";
	size_t len = 2;

	(void)state;
	/* Appends after what is there, and cuts off what does not fit. */
	assert_int_equal(line_edit_feed(le, 'a', small, sizeof(small), &len), LINE_EDIT_NONE);
	assert_int_equal(len, 3);
	assert_int_equal(line_edit_feed(le, '\x03', small, sizeof(small), &len), LINE_EDIT_CANCEL);
	assert_int_equal(len, 4);
	assert_memory_equal(small, "..a^", 4);
	assert_int_equal(line_edit_feed(le, 'b', small, sizeof(small), &len), LINE_EDIT_NONE);
	assert_int_equal(line_edit_feed(le, '\r', small, sizeof(small), &len), LINE_EDIT_DONE);
	assert_int_equal(len, 4);
	assert_string_equal(line_edit_line(le), "b");
	free_editor(le);
}

static void test_out_of_memory(void **state)
{
	struct line_edit *le = new_editor();

	(void)state;
	host_kmalloc_fail_at = 1;
	check(le, "lost\r", "lost\r\n", "D"); /* the line works, it is just not remembered */
	assert_string_equal(line_edit_line(le), "lost");
	assert_int_equal(le->nhistory, 0);
	check(le, "kept\r" UP, "kept\r\nkept", "D");
	assert_int_equal(le->nhistory, 1);
	free_editor(le);
}

/* A failed test leaves its allocations behind: start each test with a clean count. */
static int reset_heap(void **state)
{
	(void)state;
	host_kmalloc_live = 0;
	host_kmalloc_fail_at = 0;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_typing, reset_heap),
		cmocka_unit_test_setup(test_backspace, reset_heap),
		cmocka_unit_test_setup(test_ctrl_u_and_ctrl_c, reset_heap),
		cmocka_unit_test_setup(test_enter, reset_heap),
		cmocka_unit_test_setup(test_history, reset_heap),
		cmocka_unit_test_setup(test_history_skips_and_limit, reset_heap),
		cmocka_unit_test_setup(test_arrows_without_history, reset_heap),
		cmocka_unit_test_setup(test_other_keys_ignored, reset_heap),
		cmocka_unit_test_setup(test_too_long, reset_heap),
		cmocka_unit_test_setup(test_small_echo_buffer, reset_heap),
		cmocka_unit_test_setup(test_out_of_memory, reset_heap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
