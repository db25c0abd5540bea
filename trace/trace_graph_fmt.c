/*
 * How the function graph tracer prints a duration, exactly as Linux does:
 *
 *    0)   1.382 us    |      __might_sleep();
 *    0) + 14.237 us   |  }
 *    3) * 33998.59 us |  }
 *
 * The number is microseconds, with as many decimals (nanoseconds) as fit in 7 digits in all,
 * then " us ", then spaces to a fixed width, so the '|' always lines up. Before it, a mark that
 * says at a glance how long the call took ('+' over 10 us up to '$' over a second).
 *
 * notrace: used while printing the trace, which must not record itself.
 */
#include "trace/trace_graph_fmt.h"
#include "lib/printf.h"
#include "lib/string.h"

#define DURATION_DIGITS 7 /* the number never takes more than 7 digits... */
#define DURATION_WIDTH 8  /* ...plus the point: it is padded to this many characters */
#define NSEC_PER_USEC 1000

static const struct {
	uint64_t over_ns;
	char mark;
} marks[] = {
	{1000000000ULL, '$'}, {100000000ULL, '@'}, {10000000ULL, '*'},
	{1000000ULL, '#'},    {100000ULL, '!'},    {10000ULL, '+'},
};

notrace char trace_find_mark(uint64_t ns)
{
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (ns > marks[i].over_ns)
			return marks[i].mark;
	return ' ';
}

notrace size_t trace_graph_duration(char *buf, size_t size, uint64_t ns)
{
	char usecs[24], nsecs[8];
	int len = scnprintf(usecs, sizeof(usecs), "%lu", (unsigned long)(ns / NSEC_PER_USEC));
	size_t out = scnprintf(buf, size, "%s", usecs);

	if (len < DURATION_DIGITS) {
		/* Three decimals at most, and only as many as keep the total at 7 digits. */
		int decimals = MIN(3, DURATION_DIGITS - len);
		scnprintf(nsecs, sizeof(nsecs), "%03lu", (unsigned long)(ns % NSEC_PER_USEC));
		nsecs[decimals] = '\0';
		out += scnprintf(buf + out, size - out, ".%s", nsecs);
		len += decimals + 1;
	}
	out += scnprintf(buf + out, size - out, " us ");
	for (; len < DURATION_WIDTH; len++)
		out += scnprintf(buf + out, size - out, " ");
	return out;
}

notrace size_t trace_graph_duration_column(char *buf, size_t size, uint64_t ns, bool known,
					   bool overhead)
{
	if (!known)
		return scnprintf(buf, size, "              |  ");
	size_t out = scnprintf(buf, size, "%c ", overhead ? trace_find_mark(ns) : ' ');
	out += trace_graph_duration(buf + out, size - out, ns);
	return out + scnprintf(buf + out, size - out, "|  ");
}
