/* The graph tracer's columns and header against lines copied from Linux (ftrace.rst, 6.1). */
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

static void check_header(uint32_t flags, const char *want)
{
	char buf[256];
	trace_graph_header(buf, sizeof(buf), flags);
	assert_string_equal(buf, want);
}

#define DEFAULT_FLAGS                                                                      \
	(TRACE_GRAPH_PRINT_CPU | TRACE_GRAPH_PRINT_OVERHEAD | TRACE_GRAPH_PRINT_DURATION | \
	 TRACE_GRAPH_PRINT_IRQS | TRACE_GRAPH_SLEEP_TIME | TRACE_GRAPH_GRAPH_TIME)

static void test_headers(void **state)
{
	(void)state;
	/* linux-6.1/trace_function_graph_head40.txt */
	check_header(DEFAULT_FLAGS, "# CPU  DURATION                  FUNCTION CALLS\n"
				    "# |     |   |                     |   |   |   |\n");
	/* linux-6.1/trace_function_graph_vfs_write_proc_abstime.txt */
	check_header(
		DEFAULT_FLAGS | TRACE_GRAPH_PRINT_PROC | TRACE_GRAPH_PRINT_ABS_TIME,
		"#     TIME        CPU  TASK/PID         DURATION                  FUNCTION "
		"CALLS\n"
		"#      |          |     |    |           |   |                     |   |   |   "
		"|\n");
	/* ftrace-formats.md: with funcgraph-abstime */
	check_header(DEFAULT_FLAGS | TRACE_GRAPH_PRINT_ABS_TIME,
		     "#     TIME        CPU  DURATION                  FUNCTION CALLS\n"
		     "#      |          |     |   |                     |   |   |   |\n");
	check_header(DEFAULT_FLAGS | TRACE_GRAPH_PRINT_PROC,
		     "# CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
		     "# |     |    |           |   |                     |   |   |   |\n");
	/* funcgraph-cpu and funcgraph-duration off: only the function column is left */
	check_header(TRACE_GRAPH_PRINT_OVERHEAD, "#               FUNCTION CALLS\n"
						 "#               |   |   |   |\n");
}

static void test_cpu_proc_abstime(void **state)
{
	(void)state;
	char buf[64];

	trace_graph_cpu(buf, sizeof(buf), 1, 4);
	assert_string_equal(buf, " 1) ");
	trace_graph_cpu(buf, sizeof(buf), 3, 12); /* as wide as "11" */
	assert_string_equal(buf, "  3) ");
	trace_graph_cpu(buf, sizeof(buf), 0, 1);
	assert_string_equal(buf, " 0) ");
	/* "   56.622374 |   0)     sh-93      |" */
	trace_graph_proc(buf, sizeof(buf), "sh", 93);
	assert_string_equal(buf, "    sh-93     ");
	/* the banner " 1)   migrati-14   =>   sshd-1755   ": comm cut to 7 */
	trace_graph_proc(buf, sizeof(buf), "migration/0", 14);
	assert_string_equal(buf, "  migrati-14  ");
	trace_graph_proc(buf, sizeof(buf), "sshd", 1755);
	assert_string_equal(buf, "  sshd-1755   ");
	trace_graph_proc(buf, sizeof(buf), "kworker", 1234567); /* too long: no padding */
	assert_string_equal(buf, "kworker-1234567");
	trace_graph_abs_time(buf, sizeof(buf), 56622374999ULL); /* truncated, not rounded */
	assert_string_equal(buf, "   56.622374 |  ");
	trace_graph_abs_time(buf, sizeof(buf), 360774522000ULL);
	assert_string_equal(buf, "  360.774522 |  ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linux_samples),
		cmocka_unit_test(test_marks_are_strictly_greater),
		cmocka_unit_test(test_no_duration_and_no_overhead),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_cpu_proc_abstime),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
