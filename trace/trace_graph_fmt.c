/*
 * How the function graph tracer prints its columns, exactly as Linux does. A duration:
 *
 *    0)   1.382 us    |      __might_sleep();
 *    0) + 14.237 us   |  }
 *    3) * 33998.59 us |  }
 *
 * The number is microseconds, with as many decimals (nanoseconds) as fit in 7 digits in all,
 * then " us ", then spaces to a fixed width, so the '|' always lines up. Before it, a mark that
 * says at a glance how long the call took ('+' over 10 us up to '$' over a second).
 *
 * The other columns come before it, each if its option is on: the absolute time, the CPU, the
 * task; the header names the columns the options chose:
 *
 *   #     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS
 *   #      |          |     |    |           |   |                     |   |   |   |
 *      56.622374 |   0)     sh-93      |   2.884 us    |            __rcu_read_lock();
 *
 * Not traced (trace/ is built without -pg): used while printing the trace, which must not
 * record itself.
 */
#include "trace/trace_graph_fmt.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/time64.h"

#define DURATION_DIGITS 7 /* the number never takes more than 7 digits... */
#define DURATION_WIDTH 8  /* ...plus the point: it is padded to this many characters */

static const struct {
	uint64_t over_ns;
	char mark;
} marks[] = {
	{1000000000ULL, '$'}, {100000000ULL, '@'}, {10000000ULL, '*'},
	{1000000ULL, '#'},    {100000ULL, '!'},    {10000ULL, '+'},
};

char trace_find_mark(uint64_t ns)
{
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (ns > marks[i].over_ns)
			return marks[i].mark;
	return ' ';
}

size_t trace_graph_duration(char *buf, size_t size, uint64_t ns)
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

size_t trace_graph_duration_column(char *buf, size_t size, uint64_t ns, bool known,
				   bool overhead)
{
	if (!known)
		return scnprintf(buf, size, "              |  ");
	size_t out = scnprintf(buf, size, "%c ", overhead ? trace_find_mark(ns) : ' ');
	out += trace_graph_duration(buf + out, size - out, ns);
	return out + scnprintf(buf + out, size - out, "|  ");
}

/* Each column's two header lines, in the order the columns are printed. */
static const struct {
	uint32_t flag;
	const char *title, *bars;
} header_columns[] = {
	{TRACE_GRAPH_PRINT_ABS_TIME, "     TIME       ", "      |         "},
	{TRACE_GRAPH_PRINT_CPU, " CPU", " |  "},
	{TRACE_GRAPH_PRINT_PROC, "  TASK/PID       ", "   |    |        "},
	{TRACE_GRAPH_PRINT_DURATION, "  DURATION   ", "   |   |      "},
};

size_t trace_graph_header(char *buf, size_t size, uint32_t flags)
{
	size_t out = 0;

	for (int line = 0; line < 2; line++) {
		out += scnprintf(buf + out, size - out, "#");
		for (size_t i = 0; i < sizeof(header_columns) / sizeof(header_columns[0]); i++)
			if (flags & header_columns[i].flag)
				out += scnprintf(buf + out, size - out, "%s",
						 line ? header_columns[i].bars
						      : header_columns[i].title);
		out += scnprintf(buf + out, size - out, "%s",
				 line ? "               |   |   |   |\n"
				      : "               FUNCTION CALLS\n");
	}
	return out;
}

size_t trace_graph_cpu(char *buf, size_t size, int cpu, int nr_cpus)
{
	char highest[16];
	int width = scnprintf(highest, sizeof(highest), "%d", nr_cpus > 1 ? nr_cpus - 1 : 0);

	return scnprintf(buf, size, " %*d) ", width, cpu);
}

#define PROC_COMM_MAX 7 /* the comm is cut to this many characters */
#define PROC_WIDTH 14   /* "comm-pid" is centred in this many columns */

size_t trace_graph_proc(char *buf, size_t size, const char *comm, int pid)
{
	char text[32];
	int len = scnprintf(text, sizeof(text), "%.*s-%d", PROC_COMM_MAX, comm, pid);
	int spaces = len < PROC_WIDTH ? PROC_WIDTH - len : 0;

	/* The odd space goes after: "  sshd-1755   ". */
	return scnprintf(buf, size, "%*s%s%*s", spaces / 2, "", text, spaces - spaces / 2, "");
}


size_t trace_graph_abs_time(char *buf, size_t size, uint64_t ns)
{
	return scnprintf(buf, size, "%5lu.%06lu |  ", (unsigned long)(ns / NSEC_PER_SEC),
			 (unsigned long)(ns % NSEC_PER_SEC / NSEC_PER_USEC));
}
