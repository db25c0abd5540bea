/* The graph tracer's duration column against lines copied from Linux's documentation. */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "trace/trace_graph_fmt.h"

static void check(uint64_t ns, const char *want)
{
	char buf[64];
	trace_graph_duration_column(buf, sizeof(buf), ns, true, true);
	assert_string_equal(buf, want);
}

static void test_linux_samples(void **state)
{
	(void)state;
	/* From " 0)   1.382 us    |", " 0) + 14.237 us   |", ... in ftrace.rst */
	check(1382, "  1.382 us    |  ");
	check(14237, "+ 14.237 us   |  ");
	check(217240, "! 217.240 us  |  ");
	check(1837709, "# 1837.709 us |  ");
	check(33998590, "* 33998.59 us |  ");
	check(119760200, "@ 119760.2 us |  ");
	check(3594274000ULL, "$ 3594274 us  |  ");
	check(0, "  0.000 us    |  ");
}

static void test_marks_are_strictly_greater(void **state)
{
	(void)state;
	assert_int_equal(trace_find_mark(10000), ' ');
	assert_int_equal(trace_find_mark(10001), '+');
	assert_int_equal(trace_find_mark(100001), '!');
	assert_int_equal(trace_find_mark(1000000001ULL), '$');
}

static void test_no_duration_and_no_overhead(void **state)
{
	(void)state;
	char buf[64];
	trace_graph_duration_column(buf, sizeof(buf), 0, false, true);
	assert_string_equal(buf, "              |  ");
	trace_graph_duration_column(buf, sizeof(buf), 14237, true, false);
	assert_string_equal(buf, "  14.237 us   |  ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linux_samples),
		cmocka_unit_test(test_marks_are_strictly_greater),
		cmocka_unit_test(test_no_duration_and_no_overhead),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
