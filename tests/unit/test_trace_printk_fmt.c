/*
 * printk_formats lines (trace/trace_printk_fmt.c): Linux's `0x%lx : "..."` with its escaping
 * (kernel/trace/trace_printk.c t_show), and snprintf's rules for a buffer too small.
 */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "trace/trace_printk_fmt.h"

#define ADDR 0xffffffff81234567UL

static char buf[256];

static void line_is(const char *fmt, const char *want)
{
	size_t n = trace_printk_fmt_line(buf, sizeof(buf), ADDR, fmt);

	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

static void test_the_articles_format(void **state)
{
	(void)state;
	line_is("read foo %d out of bar %p\n",
		"0xffffffff81234567 : \"read foo %d out of bar %p\\n\"\n");
}

static void test_escapes(void **state)
{
	(void)state;
	line_is("a\tb\n\n", "0xffffffff81234567 : \"a\\tb\\n\\n\"\n");
	line_is("say \"hi\"", "0xffffffff81234567 : \"say \\\"hi\\\"\"\n");
	/* Linux's quirk: a backslash is written as it stands */
	line_is("C:\\dir", "0xffffffff81234567 : \"C:\\dir\"\n");
	line_is("", "0xffffffff81234567 : \"\"\n");
	/* anything else as it stands, even a carriage return */
	line_is("100%%\r", "0xffffffff81234567 : \"100%%\r\"\n");
}

static void test_small_buffers(void **state)
{
	(void)state;
	const char *want = "0xffffffff81234567 : \"x\\n\"\n";
	size_t len = strlen(want);
	char small[8];

	/* the length it needs, whatever the size */
	assert_int_equal(trace_printk_fmt_line(NULL, 0, ADDR, "x\n"), len);
	memset(small, '#', sizeof(small));
	assert_int_equal(trace_printk_fmt_line(small, sizeof(small), ADDR, "x\n"), len);
	assert_string_equal(small, "0xfffff");
	/* exactly enough */
	assert_int_equal(trace_printk_fmt_line(buf, len + 1, ADDR, "x\n"), len);
	assert_string_equal(buf, want);
	/* one short: the newline is what is lost */
	assert_int_equal(trace_printk_fmt_line(buf, len, ADDR, "x\n"), len);
	assert_int_equal(strlen(buf), len - 1);
	assert_int_equal(strncmp(buf, want, len - 1), 0);
	/* size 1: just the NUL */
	buf[0] = '#';
	trace_printk_fmt_line(buf, 1, ADDR, "x\n");
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_articles_format),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_small_buffers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
