/*
 * How the function graph tracer's events read: entries and returns paired into a C-like call
 * graph (trace/trace_graph_output.c). The tracer itself is trace/trace_functions_graph.c.
 */
#ifndef TRACE_TRACE_GRAPH_OUTPUT_H
#define TRACE_TRACE_GRAPH_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include "trace/trace.h"

/*
 * A reader opened the trace or trace_pipe, or ftrace_dump began (TRACE_FILE_DUMP: static state,
 * nothing allocated): its per-CPU printing state (iter->private).
 */
void graph_trace_open(struct trace_iterator *iter);
void graph_trace_close(struct trace_iterator *iter);

/*
 * One event, with the options flags (TRACE_GRAPH_PRINT_*). TRACE_TYPE_NO_CONSUME: the reader
 * was moved past the event already (a function entry that was not a leaf).
 */
enum print_line_t print_graph_function_flags(struct trace_iterator *iter, uint32_t flags);
/* The column legend for those options, after "# tracer: function_graph" and "#". */
void print_graph_headers_flags(struct trace_iterator *iter, uint32_t flags);

/* Is addr an interrupt handler's entry function? trace/trace_functions_graph.c. */
bool ftrace_graph_is_irq_entry(unsigned long addr);

#endif
