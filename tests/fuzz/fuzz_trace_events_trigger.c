/*
 * Fuzzing the event trigger parser (trace/trace_events_trigger_parse.c): any text must be cut
 * without reading or writing outside it, and refused only with Linux's errnos (EINVAL, ERANGE).
 * What is accepted must print as one line of the trigger file (the command first, one '\n'
 * last, the length snprintf said), and that line with a '!' in front, as trace-cmd writes it
 * back to remove a trigger, must parse as a removal of the same command and target.
 *
 * Input: the write, up to a NUL.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace/trace_events_trigger.h"
#include "tests/fuzz/fuzz_check.h"

#define L_EINVAL 22
#define L_ERANGE 34

static bool needs_event(const char *cmd)
{
	return !strcmp(cmd, "enable_event") || !strcmp(cmd, "disable_event");
}

static bool inside(const char *p, const char *buf, size_t size)
{
	return !p || (p >= buf && p + strlen(p) <= buf + size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[TRIGGER_WRITE_MAX], line[3 * TRIGGER_WRITE_MAX],
		back[3 * TRIGGER_WRITE_MAX];
	struct event_trigger_spec spec, again;
	char *rest, *expr;
	long count;
	size_t len;
	int ret, n;
	bool ev;

	for (len = 0; len < size && len < sizeof(buf) - 1 && data[len]; len++)
		buf[len] = (char)data[len];
	buf[len] = '\0';

	rest = event_trigger_split(buf, &spec);
	CHECK(inside(spec.cmd, buf, len) && inside(rest, buf, len));
	ev = needs_event(spec.cmd);
	ret = event_trigger_split_param(&spec, rest, ev);
	CHECK(ret == 0 || ret == -L_EINVAL);
	if (ret)
		return 0;
	CHECK(inside(spec.system, buf, len) && inside(spec.event, buf, len));
	CHECK(inside(spec.num, buf, len) && inside(spec.filter, buf, len));
	CHECK(!ev || (spec.system && spec.event));
	if (spec.remove)
		return 0;
	ret = event_trigger_parse_num(&spec, &count);
	CHECK(ret == 0 || ret == -L_EINVAL || ret == -L_ERANGE);
	if (ret)
		return 0;
	expr = event_trigger_filter_expr(&spec, &ret);
	CHECK(ret == 0 || ret == -L_EINVAL);
	CHECK(!expr || spec.filter);
	if (ret)
		return 0;

	n = event_trigger_format(line, sizeof(line), spec.cmd, spec.system, spec.event, count,
				 expr);
	CHECK(n > 0 && (size_t)n == strlen(line) && line[n - 1] == '\n');
	CHECK(strncmp(line, spec.cmd, strlen(spec.cmd)) == 0);
	CHECK(event_trigger_format(NULL, 0, spec.cmd, spec.system, spec.event, count, expr) == n);

	if (!*spec.cmd || strpbrk(spec.cmd, " \t\n\v\f\r"))
		return 0; /* a name no command has: never listed */
	snprintf(back, sizeof(back), "!%s", line);
	rest = event_trigger_split(back, &again);
	CHECK(again.remove && strcmp(again.cmd, spec.cmd) == 0);
	ret = event_trigger_split_param(&again, rest, ev);
	if (ev && !strchr(spec.system, ' ') && !strchr(spec.system, '\t') &&
	    !strpbrk(spec.event, " \t\n\v\f\r")) {
		CHECK(ret == 0);
		CHECK(strcmp(again.system, spec.system) == 0 &&
		      strcmp(again.event, spec.event) == 0);
	}
	return 0;
}
