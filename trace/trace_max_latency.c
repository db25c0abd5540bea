/* The latency tracers' worst case: tracing_max_latency, and the max buffer that holds it. */

/*
 * A latency tracer (irqsoff and its kin, wakeup and its kin) measures sections: from
 * interrupts off to on, from a wakeup to the task running. It records into the trace buffer
 * as it goes, and when a section is the worst since the last reset (longer than
 * tracing_max_latency) or, with tracing_thresh set, longer than that, the part of the trace
 * buffer that holds it becomes the max buffer's, swapped in one step (Linux's update_max_tr),
 * and tracing_max_latency takes its length. The max buffer is the snapshot buffer: the tracer
 * allocates it when it starts, and the trace file shows it while the tracer is current
 * (tracer->print_max). So the worst section stays, whatever comes after it.
 *
 * The part swapped in holds everything its CPU recorded since the last swap, not only the
 * section: the reader skips what came before the section's start (max_data.time_start), as
 * Linux's tracing_iter_reset does, and the header counts only what it shows. When one CPU's part
 * was swapped (irqsoff), the other CPUs' parts of the max buffer hold older worst cases, which
 * may overlap the section in time: the reader shows the section's CPU only.
 *
 * The swap is made where the section ends: interrupts off, maybe inside an interrupt handler
 * that interrupted a write on this very CPU. So it never waits for this CPU's writers: if one
 * is in progress, this worst case is not kept (ring_buffer_swap_cpu_nowait), as Linux's
 * -EBUSY. The figures of the header (struct trace_max_data) are written under the tracer's
 * own lock, which the caller holds.
 *
 * Not traced, as all of trace/.
 */
#include <limits.h>
#include "trace/trace.h"
#include "trace/trace_fs.h"
#include "trace/ring_buffer.h"
#include "trace/trace_ctx.h"
#include "trace/fgraph.h"
#include "trace/trace_graph_fmt.h"
#include "trace/trace_graph_output.h"
#include "trace/trace_output.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/mutex.h"
#include "kernel/time/time.h"
#include "lib/errno.h"
#include "lib/string.h"

static void update_max_data(struct trace_array *tr, struct task *tsk, int cpu, bool cpu_only,
			    const struct trace_max_data *section)
{
	struct trace_max_data *d = &tr->max_data;

	*d = *section;
	d->cpu = cpu;
	d->cpu_only = cpu_only;
	memcpy(d->comm, tsk->comm, sizeof(d->comm));
	d->pid = tsk->pid;
	d->uid = 0; /* Lucid's tasks are all root's */
	d->nice = task_nice(tsk);
	d->policy = tsk->policy;
	d->rt_priority = tsk->rt_priority;
	WRITE_ONCE(tr->max_latency, section->saved_latency);
}

bool update_max_tr_single(struct trace_array *tr, struct task *tsk, int cpu,
			  const struct trace_max_data *section)
{
	if (!READ_ONCE(tr->allocated_snapshot) || !tr->snapshot_buffer)
		return false;
	if (ring_buffer_swap_cpu_nowait(tr->snapshot_buffer, tr->buffer, cpu))
		return false;
	update_max_data(tr, tsk, cpu, true, section);
	return true;
}

bool update_max_tr(struct trace_array *tr, struct task *tsk, int cpu,
		   const struct trace_max_data *section)
{
	if (!READ_ONCE(tr->allocated_snapshot) || !tr->snapshot_buffer)
		return false;
	if (ring_buffer_swap_nowait(tr->snapshot_buffer, tr->buffer))
		return false;
	update_max_data(tr, tsk, cpu, false, section);
	return true;
}

struct ring_buffer *tracing_shown_buffer(struct trace_array *tr)
{
	if (tr->current_trace->print_max)
		return tr->allocated_snapshot ? tr->snapshot_buffer : NULL;
	return tr->buffer;
}

/* --- what the latency tracers share ------------------------------------------------------- */

#define LATENCY_FLAGS (TRACE_ITER_LATENCY_FMT | TRACE_ITER_OVERWRITE | TRACE_ITER_PAUSE_ON_TRACE)

void latency_max_reset(struct trace_array *tr)
{
	tracing_clear_snapshot(tr);
	tr->max_latency = 0;
	memset(&tr->max_data, 0, sizeof(tr->max_data));
}

int latency_tracer_init(struct trace_array *tr, unsigned int *saved_flags)
{
	int ret = tracing_alloc_snapshot(tr); /* the max buffer */

	if (ret)
		return ret;
	*saved_flags = tr->trace_flags & LATENCY_FLAGS;
	set_tracer_flag(tr, TRACE_ITER_LATENCY_FMT, 1);
	set_tracer_flag(tr, TRACE_ITER_OVERWRITE, 1);
	set_tracer_flag(tr, TRACE_ITER_PAUSE_ON_TRACE, 1);
	latency_max_reset(tr);
	return 0;
}

void latency_tracer_restore_flags(struct trace_array *tr, unsigned int saved_flags)
{
	set_tracer_flag(tr, TRACE_ITER_LATENCY_FMT, saved_flags & TRACE_ITER_LATENCY_FMT);
	set_tracer_flag(tr, TRACE_ITER_OVERWRITE, saved_flags & TRACE_ITER_OVERWRITE);
	set_tracer_flag(tr, TRACE_ITER_PAUSE_ON_TRACE, saved_flags & TRACE_ITER_PAUSE_ON_TRACE);
}

/* One TRACE_FN event into the trace buffer (Linux's trace_function). */
void latency_trace_function(struct trace_array *tr, unsigned long ip, unsigned long parent_ip,
			    unsigned int trace_ctx)
{
	struct ring_buffer_event *event =
		ring_buffer_lock_reserve(tr->buffer, sizeof(struct ftrace_entry));
	struct ftrace_entry *entry;

	if (!event)
		return;
	entry = ring_buffer_event_data(event);
	tracing_entry_update(&entry->ent, TRACE_FN, trace_ctx);
	entry->ip = ip;
	entry->parent_ip = parent_ip;
	ring_buffer_unlock_commit(tr->buffer);
}

/* display-graph's records: a function's entry, its return (Linux's __trace_graph_*). */
bool latency_graph_record_entry(struct trace_array *tr, unsigned long func, int depth,
				unsigned int trace_ctx)
{
	struct ring_buffer_event *event =
		ring_buffer_lock_reserve(tr->buffer, sizeof(struct ftrace_graph_ent_entry));
	struct ftrace_graph_ent_entry *entry;

	if (!event)
		return false;
	entry = ring_buffer_event_data(event);
	tracing_entry_update(&entry->ent, TRACE_GRAPH_ENT, trace_ctx);
	entry->func = func;
	entry->depth = depth;
	ring_buffer_unlock_commit(tr->buffer);
	return true;
}

void latency_graph_record_return(struct trace_array *tr, unsigned long func, int depth,
				 uint64_t calltime, uint64_t rettime, unsigned int trace_ctx)
{
	struct ring_buffer_event *event =
		ring_buffer_lock_reserve(tr->buffer, sizeof(struct ftrace_graph_ret_entry));
	struct ftrace_graph_ret_entry *entry;

	if (!event)
		return;
	entry = ring_buffer_event_data(event);
	tracing_entry_update(&entry->ent, TRACE_GRAPH_RET, trace_ctx);
	entry->func = func;
	entry->retval = 0;
	entry->depth = depth;
	entry->overrun = 0;
	entry->calltime = calltime;
	entry->rettime = rettime;
	ring_buffer_unlock_commit(tr->buffer);
}

int register_latency_function(struct trace_array *tr, struct latency_hooks *hooks)
{
	int ret;

	if (hooks->function_enabled || hooks->graph_enabled ||
	    !(tr->trace_flags & TRACE_ITER_FUNCTION))
		return 0;
	if (latency_display_graph(tr)) {
		hooks->gops->private = tr;
		ret = register_ftrace_graph(hooks->gops);
		if (!ret)
			hooks->graph_enabled = true;
		return ret;
	}
	hooks->ops->func = hooks->func;
	hooks->ops->private = tr;
	ret = register_ftrace_function(hooks->ops);
	if (!ret)
		hooks->function_enabled = true;
	return ret;
}

void unregister_latency_function(struct latency_hooks *hooks)
{
	if (hooks->graph_enabled)
		unregister_ftrace_graph(hooks->gops);
	if (hooks->function_enabled)
		unregister_ftrace_function(hooks->ops);
	hooks->graph_enabled = hooks->function_enabled = false;
}

/* --- tracing_max_latency --------------------------------------------------------------------- */

/* Microseconds in the file, nanoseconds inside (Linux's tracing_nsecs_read/write). */
static ssize_t tracing_max_lat_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = tracing_get_tr(file_inode(file));

	return tracing_read_ulong(ppos, ubuf, cnt, READ_ONCE(tr->max_latency) / NSEC_PER_USEC);
}

/*
 * Any number of microseconds whose nanoseconds fit: 0 starts the search for the worst case
 * afresh. (Linux multiplies without looking, so 2^64 / 1000 us and more wrap.)
 */
static ssize_t tracing_max_lat_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = tracing_get_tr(file_inode(file));
	unsigned long val;
	int ret = tracing_write_ulong(ubuf, cnt, &val);

	if (ret)
		return ret;
	if (val > ULONG_MAX / NSEC_PER_USEC)
		return -EINVAL;
	WRITE_ONCE(tr->max_latency, val * NSEC_PER_USEC);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

const struct file_operations tracing_max_lat_fops = {
	.read = tracing_max_lat_read,
	.write = tracing_max_lat_write,
};

/* --- printing: the latency format, or with display-graph function_graph's lines ----------- */

/* The columns Linux's irqsoff and wakeup tracers print the graph with. */
#define GRAPH_TRACER_FLAGS                                                             \
	(TRACE_GRAPH_PRINT_CPU | TRACE_GRAPH_PRINT_PROC | TRACE_GRAPH_PRINT_DURATION | \
	 TRACE_GRAPH_PRINT_OVERHEAD)

void latency_trace_open(struct trace_iterator *iter)
{
	if (latency_display_graph(iter->tr))
		graph_trace_open(iter);
}

void latency_trace_close(struct trace_iterator *iter)
{
	if (iter->private)
		graph_trace_close(iter);
}

enum print_line_t latency_print_line(struct trace_iterator *iter)
{
	if (latency_display_graph(iter->tr))
		return print_graph_function_flags(iter, GRAPH_TRACER_FLAGS);
	return TRACE_TYPE_UNHANDLED;
}

void latency_print_header(struct trace_iterator *iter)
{
	if (!latency_display_graph(iter->tr)) {
		trace_default_header(iter);
		return;
	}
	if (!(iter->tr->trace_flags & TRACE_ITER_CONTEXT_INFO))
		return;
	if (iter->iter_flags & TRACE_FILE_LAT_FMT)
		trace_print_lat_header(iter);
	print_graph_headers_flags(iter, GRAPH_TRACER_FLAGS);
}
