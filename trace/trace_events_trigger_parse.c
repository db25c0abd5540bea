/* The words of an event trigger: cutting a write to a trigger file, printing a trigger. */

/*
 * Linux reads a trigger in steps, and each step decides which error a bad write gets, so
 * they are kept apart here and called in Linux's order by trace/trace_events_trigger.c:
 *
 *   "traceon:5 if pid == 1"   command "traceon", then "5 if pid == 1": a part that begins
 *                              with a digit is the count, up to a blank; the rest the filter
 *   "traceon if pid == 1"     no digit: all of it is the filter, which must be "if EXPR"
 *   "enable_event:sched:sched_wakeup:2 if prio < 100"
 *                              system and event come first, then the count, then the filter
 *   "!traceon:whatever"        removal: Linux looks no further than the command (and, for
 *                              enable_event, system and event), so neither is checked
 *
 * Pure string work on the caller's buffer: no allocation, no kernel state, so the host unit
 * test and the fuzzer run it as it is. Not traced, as all of trace/.
 */
#include "trace/trace_events_trigger.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

#define TRIGGER_CMD_DELIMS ": \t" /* what ends the command's name */
#define TRIGGER_BLANKS " \t" /* what ends a count, and "if" */

/* NULL for an empty or all-blank rest, as Linux's skip_spaces() + "if (!*next)". */
static char *rest_or_null(char *s)
{
	if (!s)
		return NULL;
	s = skip_spaces(s);
	return *s ? s : NULL;
}

char *event_trigger_split(char *buf, struct event_trigger_spec *spec)
{
	char *next, *command;

	memset(spec, 0, sizeof(*spec));
	strim(buf); /* trailing blanks, the newline of echo; the leading ones: */
	next = skip_spaces(buf);
	command = strsep(&next, TRIGGER_CMD_DELIMS);
	spec->remove = command[0] == '!';
	spec->cmd = command + spec->remove;
	return rest_or_null(next);
}

int event_trigger_split_param(struct event_trigger_spec *spec, char *param_and_filter,
			      bool needs_event)
{
	char *param;

	if (!param_and_filter)
		return needs_event ? -EINVAL : 0;
	/* Without a count, what follows a command of no parameter can only be its filter. */
	if (!needs_event && !isdigit((unsigned char)param_and_filter[0])) {
		spec->filter = param_and_filter;
		return 0;
	}
	param = strsep(&param_and_filter, TRIGGER_BLANKS);
	spec->filter = rest_or_null(param_and_filter);
	if (needs_event) {
		spec->system = strsep(&param, ":");
		if (!param)
			return -EINVAL; /* "enable_event:sched": no event */
		spec->event = strsep(&param, ":");
	}
	spec->num = param;
	return 0;
}

int event_trigger_parse_num(struct event_trigger_spec *spec, long *count)
{
	unsigned long n;
	char *param = spec->num, *number;
	int ret;

	*count = TRIGGER_COUNT_UNLIMITED;
	if (!param)
		return 0;
	number = strsep(&param, ":"); /* what follows a second ':' is ignored, as Linux */
	if (!*number)
		return -EINVAL;
	ret = kstrtoul(number, 0, &n);
	if (ret)
		return ret;
	*count = (long)n; /* Linux keeps it in an unsigned long: ULONG_MAX is "unlimited" too */
	return 0;
}

char *event_trigger_filter_expr(struct event_trigger_spec *spec, int *err)
{
	char *text = spec->filter, *word;

	*err = 0;
	if (!text)
		return NULL;
	word = strsep(&text, TRIGGER_BLANKS);
	if (strcmp(word, "if") != 0 || !text) {
		*err = -EINVAL; /* "traceon:5 junk", "traceon if" */
		return NULL;
	}
	return text;
}

int event_trigger_format(char *buf, size_t size, const char *name, const char *system,
			 const char *event, long count, const char *filter)
{
	char count_text[32];

	if (count == TRIGGER_COUNT_UNLIMITED)
		snprintf(count_text, sizeof(count_text), "unlimited");
	else
		snprintf(count_text, sizeof(count_text), "count=%ld", count);
	return snprintf(buf, size, "%s%s%s%s%s:%s%s%s\n", name, system ? ":" : "",
			system ? system : "", event ? ":" : "", event ? event : "", count_text,
			filter ? " if " : "", filter ? filter : "");
}
