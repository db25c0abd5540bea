/* The function profiler: hits and time per function, per CPU (trace/ftrace_profile.c). */
#ifndef TRACE_FTRACE_PROFILE_H
#define TRACE_FTRACE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct profile_row {
	int rec; /* the function's call site record */
	unsigned long hits;
	uint64_t time_ns;
	unsigned __int128 time_sq; /* sum of squares, for the variance */
};

extern bool profile_graph_time; /* options/graph-time: a function's time includes its callees */
extern bool profile_sleep_time; /* options/sleep-time: ...and the time its task slept */

/* function_profile_enabled; -EBUSY if the graph hook is taken */
int ftrace_profile_enable(bool on);
bool ftrace_profile_enabled(void);
/* A sorted copy (by time, longest first) of one CPU's rows with hits; kfree() it. */
int ftrace_profile_snapshot(int cpu, struct profile_row **rows);
extern const char ftrace_profile_header[];
/* Boot: function_profile_enabled, trace_stat/functionN, options/graph-time and sleep-time. */
void ftrace_profile_init_files(void);
size_t ftrace_profile_format_row(const struct profile_row *r, char *buf, size_t size);

#endif
