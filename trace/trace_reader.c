/* What every reader of the trace buffer shares: its iterator, and consuming what it printed. */

/*
 * Three readers turn events into text: the trace file (non-consuming, trace/trace_iter.c),
 * trace_pipe (consuming, the same file) and ftrace_dump (consuming, from an oops, a panic or
 * sysrq-z: trace/trace_dump.c). They all print through the same printers, print_trace_line()
 * and the tracer's print_line, and a printer may use any part of the iterator: the buffer it
 * reads (function_graph looks at the event after the current one to see whether a call is a
 * leaf), the tracer's per-reader state that open() made (iter->private), the flags, the CPU
 * count. A reader that set up its iterator by hand, field by field, once forgot one, and the
 * printer dereferenced NULL in the middle of a crash dump. So, as Linux's readers do (its
 * ftrace_dump simulates the trace file's iterator with trace_init_global_iter), every reader
 * sets up its iterator here, in one place, and consumes through one function that keeps the
 * printer's contract (TRACE_TYPE_NO_CONSUME: the printer already moved past the event).
 *
 * Nothing here sleeps, takes a lock or allocates (a tracer's open() may allocate, except for
 * the dump's reader: TRACE_FILE_DUMP), so the dump can use it from anywhere.
 *
 * Not traced: the tracer formats here while recording goes on, and the dump runs in an oops.
 */
#include "trace/trace_reader.h"
#include "trace/trace_output.h"
#include "trace/ring_buffer.h"
#include "lib/string.h"

void trace_iterator_init(struct trace_iterator *iter, struct trace_array *tr,
			 struct ring_buffer *buffer, int cpu_file, unsigned int iter_flags)
{
	memset(iter, 0, sizeof(*iter));
	iter->tr = tr;
	iter->buffer = buffer;
	iter->cpu_file = cpu_file;
	iter->trace = READ_ONCE(tr->current_trace);
	iter->iter_flags = iter_flags;
	if (READ_ONCE(tr->trace_flags) & TRACE_ITER_LATENCY_FMT)
		iter->iter_flags |= TRACE_FILE_LAT_FMT; /* trace and trace_pipe, as Linux's */
	if (trace_clocks[READ_ONCE(tr->clock_id)].in_ns)
		iter->iter_flags |= TRACE_FILE_TIME_IN_NS;
	iter->cpus_online = tracing_num_online_cpus();
	trace_seq_init(&iter->seq);
	/* Last: the tracer's open() may look at anything above. */
	if (iter->trace && iter->trace->open)
		iter->trace->open(iter);
}

void trace_iterator_release(struct trace_iterator *iter)
{
	if (iter->trace && iter->trace->close)
		iter->trace->close(iter);
}

bool trace_peek_next_event(struct trace_iterator *iter)
{
	struct ring_buffer_event *event;
	int cpu = iter->cpu_file;

	if (!iter->buffer)
		return false; /* the snapshot file with no snapshot: nothing to read */
	if (cpu == RING_BUFFER_ALL_CPUS)
		event = ring_buffer_peek_oldest(iter->buffer, &cpu, &iter->ts, &iter->lost_events);
	else
		event = ring_buffer_peek(iter->buffer, cpu, &iter->ts, &iter->lost_events);
	if (!event)
		return false;
	iter->cpu = cpu;
	iter->ent = ring_buffer_event_data(event);
	iter->ent_size = ring_buffer_event_length(event);
	return true;
}

enum print_line_t trace_consume_line(struct trace_iterator *iter)
{
	int cpu = iter->cpu; /* the printer may move to another event: consume the peeked one's */
	enum print_line_t ret = print_trace_line(iter);

	/* A line too long for the seq is cut (PARTIAL_LINE) and consumed all the same. */
	if (ret != TRACE_TYPE_NO_CONSUME)
		ring_buffer_consume(iter->buffer, cpu, NULL, NULL);
	iter->ent = NULL; /* consumed: the memory may be reused by the writer */
	return ret;
}
