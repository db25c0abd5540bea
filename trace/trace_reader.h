/*
 * What every reader of the trace buffer shares (trace/trace_reader.c): the trace file,
 * trace_pipe and ftrace_dump set up their iterators and consume events the same way, so a
 * printer finds the same iterator whichever reader calls it.
 */
#ifndef TRACE_TRACE_READER_H
#define TRACE_TRACE_READER_H

#include "trace/trace.h"

/*
 * Every field a printer may read: tr, the buffer read (tr->buffer, the snapshot, or NULL for
 * none), one CPU or RING_BUFFER_ALL_CPUS, iter_flags (TRACE_FILE_*) plus the clock's, the CPU
 * count, an empty seq, the current tracer; then the tracer's open(). Callers in task context
 * hold trace_types_lock, so that the tracer and clock cannot change under it; ftrace_dump
 * cannot take a lock and reads them as they are. The trace file adds its buffer_iter[] after.
 */
void trace_iterator_init(struct trace_iterator *iter, struct trace_array *tr,
			 struct ring_buffer *buffer, int cpu_file, unsigned int iter_flags);
/* The tracer's close(): the reader is done with the iterator. */
void trace_iterator_release(struct trace_iterator *iter);

/*
 * The consuming readers (trace_pipe, ftrace_dump): the oldest unread event of iter->cpu_file
 * (or of every CPU) as the iterator's current one, not yet consumed; false if there is none.
 */
bool trace_peek_next_event(struct trace_iterator *iter);
/*
 * Prints the current event into iter->seq and consumes it, unless the printer already moved
 * past it (TRACE_TYPE_NO_CONSUME: it consumed it to look at the next one). What
 * print_trace_line() returned.
 */
enum print_line_t trace_consume_line(struct trace_iterator *iter);

#endif
