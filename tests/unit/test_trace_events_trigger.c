/*
 * Tests for trace/trace_events_trigger_parse.c: a trigger write cut the way Linux 6.1's
 * trigger_process_regex(), event_trigger_separate_filter(), event_trigger_parse_num() and
 * set_trigger_filter() cut it, each step's errno, and the trigger file's lines byte for byte
 * as Linux's event_trigger_print() and event_enable_trigger_print() print them.
 */
#include "lib/compiler.h" /* first: glibc's cdefs.h accepts its __always_inline, not the reverse */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <cmocka.h>
#include "trace/trace_events_trigger.h"
#include "lib/errno.h"

/* What one write comes to, the way trace/trace_events_trigger.c walks it. */
struct parsed {
	int ret; /* the first error, in Linux's order */
	bool remove;
	char cmd[32], system[32], event[32], filter[128];
	long count;
	bool has_filter;
};

static struct parsed parse(const char *text, bool needs_event)
{
	struct parsed p = {0};
	struct event_trigger_spec spec;
	char buf[256];
	char *rest, *expr;

	snprintf(buf, sizeof(buf), "%s", text);
	rest = event_trigger_split(buf, &spec);
	p.remove = spec.remove;
	snprintf(p.cmd, sizeof(p.cmd), "%s", spec.cmd);
	p.ret = event_trigger_split_param(&spec, rest, needs_event);
	if (p.ret)
		return p;
	if (spec.system)
		snprintf(p.system, sizeof(p.system), "%s", spec.system);
	if (spec.event)
		snprintf(p.event, sizeof(p.event), "%s", spec.event);
	if (spec.remove)
		return p; /* Linux reads no further for a removal */
	p.ret = event_trigger_parse_num(&spec, &p.count);
	if (p.ret)
		return p;
	expr = event_trigger_filter_expr(&spec, &p.ret);
	if (expr) {
		p.has_filter = true;
		snprintf(p.filter, sizeof(p.filter), "%s", expr);
	}
	return p;
}

static void test_plain_commands(void **state)
{
	struct parsed p;

	(void)state;
	p = parse("traceoff\n", false);
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.cmd, "traceoff");
	assert_false(p.remove);
	assert_int_equal(p.count, TRIGGER_COUNT_UNLIMITED);
	assert_false(p.has_filter);

	p = parse("  traceon:5  \n", false);
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.cmd, "traceon");
	assert_int_equal(p.count, 5);

	p = parse("stacktrace:0x10 if prev_state & 3", false);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.count, 16);
	assert_true(p.has_filter);
	assert_string_equal(p.filter, "prev_state & 3");

	/* No count: all that follows is the filter, after ':' or a blank alike. */
	p = parse("stacktrace if prev_state & 3", false);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.count, TRIGGER_COUNT_UNLIMITED);
	assert_string_equal(p.filter, "prev_state & 3");
	p = parse("snapshot:if pid == 1", false);
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.filter, "pid == 1");

	/* "cmd:" alone is the command without a count (Linux skips the empty rest). */
	p = parse("traceon:", false);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.count, TRIGGER_COUNT_UNLIMITED);

	/* What follows a second ':' of the count is ignored, as kstrtoul never sees it. */
	p = parse("traceon:3:junk", false);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.count, 3);

	/* ULONG_MAX is Linux's -1: unlimited. */
	p = parse("traceon:18446744073709551615", false);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.count, TRIGGER_COUNT_UNLIMITED);
}

static void test_bad_writes(void **state)
{
	(void)state;
	/* Anything after the command that is neither a count nor "if EXPR". */
	assert_int_equal(parse("traceon:abc", false).ret, -EINVAL);
	assert_int_equal(parse("traceon junk", false).ret, -EINVAL);
	assert_int_equal(parse("traceon if", false).ret, -EINVAL);
	assert_int_equal(parse("traceon if   ", false).ret, -EINVAL);
	assert_int_equal(parse("traceon:5 junk", false).ret, -EINVAL);
	assert_int_equal(parse("traceon:-1", false).ret, -EINVAL); /* not a digit: a filter */
	assert_int_equal(parse("traceon:12abc", false).ret, -EINVAL);
	assert_int_equal(parse("traceon:99999999999999999999999", false).ret, -ERANGE);
	/* enable_event needs system and event. */
	assert_int_equal(parse("enable_event", true).ret, -EINVAL);
	assert_int_equal(parse("enable_event:sched", true).ret, -EINVAL);
	assert_int_equal(parse("enable_event:sched:sched_wakeup:", true).ret, -EINVAL);
	assert_int_equal(parse("enable_event:sched:sched_wakeup:x", true).ret, -EINVAL);
}

static void test_empty_write(void **state)
{
	struct parsed p;

	(void)state;
	/* "echo > trigger": no command at all; the caller finds none called "" (EINVAL). */
	p = parse("\n", false);
	assert_string_equal(p.cmd, "");
	p = parse("   \t", false);
	assert_string_equal(p.cmd, "");
}

static void test_event_commands(void **state)
{
	struct parsed p;

	(void)state;
	p = parse("enable_event:sched:sched_wakeup", true);
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.cmd, "enable_event");
	assert_string_equal(p.system, "sched");
	assert_string_equal(p.event, "sched_wakeup");
	assert_int_equal(p.count, TRIGGER_COUNT_UNLIMITED);

	p = parse("disable_event:irq:irq_handler_entry:2 if prev_pid == 7", true);
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.system, "irq");
	assert_string_equal(p.event, "irq_handler_entry");
	assert_int_equal(p.count, 2);
	assert_string_equal(p.filter, "prev_pid == 7");
}

static void test_removal(void **state)
{
	struct parsed p;

	(void)state;
	p = parse("!traceoff", false);
	assert_int_equal(p.ret, 0);
	assert_true(p.remove);
	assert_string_equal(p.cmd, "traceoff");
	/* What trace-cmd writes back: the line as listed, '!' in front. Nothing more is read. */
	p = parse("!stacktrace:unlimited if prev_state & 3", false);
	assert_int_equal(p.ret, 0);
	assert_true(p.remove);
	p = parse("!traceon:count=0", false);
	assert_int_equal(p.ret, 0);
	p = parse("!enable_event:sched:sched_wakeup:count=3", true);
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.event, "sched_wakeup");
	assert_int_equal(parse("!enable_event:sched", true).ret, -EINVAL);
}

static const char *line(const char *name, const char *system, const char *event, long count,
			const char *filter)
{
	static char buf[256];
	int n = event_trigger_format(buf, sizeof(buf), name, system, event, count, filter);

	assert_int_equal(n, (int)strlen(buf));
	assert_int_equal(event_trigger_format(NULL, 0, name, system, event, count, filter), n);
	return buf;
}

/* Linux 6.1's lines, byte for byte. */
static void test_format(void **state)
{
	(void)state;
	assert_string_equal(line("traceoff", NULL, NULL, -1, NULL), "traceoff:unlimited\n");
	assert_string_equal(line("traceon", NULL, NULL, 3, NULL), "traceon:count=3\n");
	assert_string_equal(line("stacktrace", NULL, NULL, -1, "prev_state & 3"),
			    "stacktrace:unlimited if prev_state & 3\n");
	assert_string_equal(line("snapshot", NULL, NULL, 0, "pid == 1"),
			    "snapshot:count=0 if pid == 1\n");
	assert_string_equal(line("enable_event", "sched", "sched_wakeup", -1, NULL),
			    "enable_event:sched:sched_wakeup:unlimited\n");
	assert_string_equal(line("disable_event", "irq", "irq_handler_entry", 2, "prev_pid == 7"),
			    "disable_event:irq:irq_handler_entry:count=2 if prev_pid == 7\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_commands), cmocka_unit_test(test_bad_writes),
		cmocka_unit_test(test_empty_write),    cmocka_unit_test(test_event_commands),
		cmocka_unit_test(test_removal),	       cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
