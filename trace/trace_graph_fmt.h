/* The function graph tracer's duration column and markers (trace/trace_graph_fmt.c). */
#ifndef TRACE_TRACE_GRAPH_FMT_H
#define TRACE_TRACE_GRAPH_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* '$' > 1 s, '@' > 100 ms, '*' > 10 ms, '#' > 1 ms, '!' > 100 us, '+' > 10 us, else ' '. */
char trace_find_mark(uint64_t ns);
/* "1.382 us    ": the duration in microseconds, at most 7 digits, padded to a fixed width. */
size_t trace_graph_duration(char *buf, size_t size, uint64_t ns);
/* The whole column: mark (if overhead), duration, "|  "; or blanks and "|  " (ns unknown). */
size_t trace_graph_duration_column(char *buf, size_t size, uint64_t ns, bool known, bool overhead);

#endif
