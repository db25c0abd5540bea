/*
 * Function commands in set_ftrace_filter (trace/ftrace_cmd_parse.c): how a word is cut, how
 * its count reads, and the listing line, by Linux's rules (ftrace_process_regex,
 * ftrace_trace_probe_callback, ftrace_probe_print) and the README's examples.
 */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "trace/ftrace_cmd_parse.h"
#include "lib/printf.h"
#include "lib/errno.h"

static char word[128];
static struct ftrace_cmd_spec spec;

static bool split(const char *w)
{
	strcpy(word, w);
	memset(&spec, 0, sizeof(spec));
	return ftrace_cmd_split(word, &spec);
}

static void test_plain_words_are_not_commands(void **state)
{
	(void)state;
	assert_false(split("ftest_leaf"));
	assert_false(split("!ftest_*"));
	assert_false(split(""));
	assert_string_equal(word, ""); /* untouched */
	assert_false(split("*lock*"));
	assert_string_equal(word, "*lock*");
}

static void test_split(void **state)
{
	(void)state;
	assert_true(split("do_fault:traceoff"));
	assert_false(spec.remove);
	assert_string_equal(spec.glob, "do_fault");
	assert_string_equal(spec.cmd, "traceoff");
	assert_null(spec.param);

	assert_true(split("do_trap:traceoff:3"));
	assert_string_equal(spec.glob, "do_trap");
	assert_string_equal(spec.cmd, "traceoff");
	assert_string_equal(spec.param, "3");

	assert_true(split("!__bad_area_nosemaphore:traceoff:0"));
	assert_true(spec.remove);
	assert_string_equal(spec.glob, "__bad_area_nosemaphore");
	assert_string_equal(spec.param, "0");

	/* a glob; an empty glob; an empty command; the rest after the count stays in param */
	assert_true(split("ftest_*:stacktrace:"));
	assert_string_equal(spec.glob, "ftest_*");
	assert_string_equal(spec.param, "");
	assert_true(split(":traceon"));
	assert_string_equal(spec.glob, "");
	assert_string_equal(spec.cmd, "traceon");
	assert_true(split("f::"));
	assert_string_equal(spec.cmd, "");
	assert_string_equal(spec.param, "");
	assert_true(split("f:enable_event:sched:sched_switch:2"));
	assert_string_equal(spec.cmd, "enable_event");
	assert_string_equal(spec.param, "sched:sched_switch:2");
	assert_true(split("!"
			  ":traceoff"));
	assert_true(spec.remove);
	assert_string_equal(spec.glob, "");
}

static void count_is(const char *param, int ret, bool counted, long count)
{
	bool c = !counted;
	long n = 12345;

	assert_int_equal(ftrace_cmd_count(param, &c, &n), ret);
	if (ret)
		return;
	assert_int_equal(c, counted);
	assert_int_equal(n, count);
}

static void test_mod_split(void **state)
{
	struct ftrace_mod_spec spec;
	char longname[FTRACE_MODNAME_LEN + 1];

	(void)state;
	assert_int_equal(ftrace_mod_split("*:mod:foo", &spec), 1);
	assert_string_equal(spec.func, "*");
	assert_string_equal(spec.module, "foo");
	assert_int_equal(ftrace_mod_split("foo_*:mod:foo", &spec), 1);
	assert_string_equal(spec.func, "foo_*");
	assert_string_equal(spec.module, "foo");
	/* An empty glob is the caller's to refuse; the rest after "mod:" is the name. */
	assert_int_equal(ftrace_mod_split(":mod:a:b", &spec), 1);
	assert_string_equal(spec.func, "");
	assert_string_equal(spec.module, "a:b");
	/* Not the mod command: plain words and other commands. */
	assert_int_equal(ftrace_mod_split("schedule", &spec), 0);
	assert_int_equal(ftrace_mod_split("do_trap:traceoff:3", &spec), 0);
	assert_int_equal(ftrace_mod_split("do_trap:modx:foo", &spec), 0);
	assert_int_equal(ftrace_mod_split("do_trap:mo:foo", &spec), 0);
	/* The mod command without a module, or with one too long for a module's name. */
	assert_int_equal(ftrace_mod_split("*:mod", &spec), -EINVAL);
	assert_int_equal(ftrace_mod_split("*:mod:", &spec), -EINVAL);
	memset(longname, 'm', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	char word[FTRACE_MODNAME_LEN + 16];
	snprintf(word, sizeof(word), "*:mod:%s", longname);
	assert_int_equal(ftrace_mod_split(word, &spec), -EINVAL);
	word[strlen(word) - 1] = '\0'; /* 55 characters and the NUL: the longest name */
	assert_int_equal(ftrace_mod_split(word, &spec), 1);
	assert_int_equal(strlen(spec.module), FTRACE_MODNAME_LEN - 1);
}

static void test_count(void **state)
{
	(void)state;
	count_is(NULL, 0, false, -1); /* unlimited */
	count_is("3", 0, true, 3);
	count_is("0", 0, true, 0);
	count_is("0x10", 0, true, 16); /* kstrtoul with base 0 */
	count_is("010", 0, true, 8);
	count_is("", 0, true, -1); /* Linux: counted, count -1 */
	count_is("5:whatever", 0, true, 5); /* only up to the next ':' */
	count_is(":5", 0, true, -1);
	count_is("x", -EINVAL, false, 0);
	count_is("-1", -EINVAL, false, 0);
	count_is("3x", -EINVAL, false, 0);
	count_is("99999999999999999999", -ERANGE, false, 0);
	count_is("1234567890123456789012345678901234567890", -EINVAL, false, 0);
}

static void test_listing(void **state)
{
	(void)state;
	char buf[128];

	/* the article's sample */
	assert_int_equal(ftrace_probe_line(buf, sizeof(buf), "__bad_area_nosemaphore", "traceoff",
					   false, -1),
			 strlen("__bad_area_nosemaphore:traceoff:unlimited\n"));
	assert_string_equal(buf, "__bad_area_nosemaphore:traceoff:unlimited\n");
	ftrace_probe_line(buf, sizeof(buf), "ftest_leaf", "traceoff", true, 2);
	assert_string_equal(buf, "ftest_leaf:traceoff:count=2\n");
	ftrace_probe_line(buf, sizeof(buf), "ftest_leaf", "stacktrace", true, 0);
	assert_string_equal(buf, "ftest_leaf:stacktrace:count=0\n");
	ftrace_probe_line(buf, sizeof(buf), "f", "traceon", true, -1);
	assert_string_equal(buf, "f:traceon:count=-1\n");
	/* too small: cut, NUL-terminated, the full length returned */
	assert_int_equal(ftrace_probe_line(buf, 5, "ftest_leaf", "traceon", false, -1),
			 strlen("ftest_leaf:traceon:unlimited\n"));
	assert_string_equal(buf, "ftes");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_words_are_not_commands),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_mod_split),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_listing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
