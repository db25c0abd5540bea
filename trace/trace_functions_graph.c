/* The function graph tracer: every traced function's entry and its return, with durations. */

/*
 * "echo function_graph > current_tracer" registers the trace array's fgraph_ops with the
 * function graph hook (trace/fgraph.c), its filter being the array's own ops, so its
 * set_ftrace_filter and set_ftrace_notrace choose the functions, as for the function tracer.
 * The top level and any number of instances may run it at once (Linux 6.11), each with its
 * filters, its set_ftrace_pid and its buffer; the callbacks find the array in gops->private. The
 * hook calls graph_entry() when such a function starts; if it returns true, the hook has swapped
 * the function's return address for return_to_handler, remembering the real one on the task's
 * return stack, and graph_return() runs when the function returns. Each records one event:
 * TRACE_GRAPH_ENT (function, depth, and with funcgraph-args / funcgraph-retaddr the argument
 * registers / the return address) and TRACE_GRAPH_RET (function, return value, depth, entry and
 * return times). trace/trace_graph_output.c pairs them back into a call graph when the trace is
 * read.
 *
 * What graph_entry() lets through, in order (Linux's):
 *   - nothing while the task is inside a set_graph_notrace function; entering one is hooked
 *     (so that its return can end that state) but not recorded;
 *   - set_ftrace_pid's tasks only;
 *   - with set_graph_function, only those functions and what they call: entering one marks
 *     the task (TRACE_GRAPH_BIT, with the depth) until that call returns;
 *   - max_graph_depth: nothing at that depth or deeper (0: no limit);
 *   - with funcgraph-irqs off, no function of a hard irq (unless the set_graph_function
 *     function itself was entered in one);
 *   - with tracing_thresh set, nothing is recorded at entry: graph_return() records the
 *     returns of calls that took at least that long.
 * A call that is not let through is not hooked, so its return costs nothing. An entry the
 * ring buffer refuses (tracing_on is 0, or the buffer is full in producer/consumer mode) is not
 * hooked either, so the trace never holds a return whose entry was refused.
 *
 * The set_graph_* state lives in the task, a word per array running the tracer
 * (fgraph_get_task_var, as Linux 6.11): a task that sleeps or moves to another CPU inside
 * ftest_outer keeps it, and an interrupt, which runs on the interrupted task's return stack,
 * sees it too. Per array, because whether a call was recorded (and so whether its return will
 * end the state) is the array's: its pid lists, its tracing_on.
 * The hook calls both callbacks with interrupts off, so no interrupt comes between reading
 * and writing it.
 *
 * Not traced: a tracer callback.
 */
#include <limits.h>
#include "trace/trace_ctx.h"
#include "trace/trace_graph_output.h"
#include "trace/trace_graph_fmt.h"
#include "trace/trace_fs.h"
#include "trace/ring_buffer.h"
#include "trace/fgraph.h"
#include "trace/ftrace.h"
#include "trace/func_args.h"
#include "trace/ftrace_profile.h"
#include "arch/x86_64/idt.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/preempt.h"
#include "kernel/mm/kmalloc.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "kernel/locking/lockdep.h"
#include "lib/time64.h"

/* The task's word for the array (fgraph_get_task_var) */
#define TRACE_GRAPH_BIT 0x1 /* inside a set_graph_function function: trace its callees */
#define TRACE_GRAPH_NOTRACE_BIT 0x2 /* inside a set_graph_notrace function: trace nothing */
#define TRACE_IRQ_BIT 0x4 /* ... the set_graph_function function began in a hard irq */
#define TRACE_GRAPH_FLAGS (TRACE_GRAPH_BIT | TRACE_GRAPH_NOTRACE_BIT | TRACE_IRQ_BIT)
#define TRACE_GRAPH_DEPTH_SHIFT 8 /* above the bits: that function's depth */

static int graph_filter_depth(unsigned long var)
{
	return (int)(var >> TRACE_GRAPH_DEPTH_SHIFT);
}


/* The option names have dashes, which clang-format would space out. */
/* clang-format off */
static struct tracer_opt graph_opts[] = {
	TRACER_OPT(funcgraph-overrun, TRACE_GRAPH_PRINT_OVERRUN),
	TRACER_OPT(funcgraph-cpu, TRACE_GRAPH_PRINT_CPU),
	TRACER_OPT(funcgraph-overhead, TRACE_GRAPH_PRINT_OVERHEAD),
	TRACER_OPT(funcgraph-proc, TRACE_GRAPH_PRINT_PROC),
	TRACER_OPT(funcgraph-duration, TRACE_GRAPH_PRINT_DURATION),
	TRACER_OPT(funcgraph-abstime, TRACE_GRAPH_PRINT_ABS_TIME),
	TRACER_OPT(funcgraph-irqs, TRACE_GRAPH_PRINT_IRQS),
	TRACER_OPT(funcgraph-tail, TRACE_GRAPH_PRINT_TAIL),
	TRACER_OPT(funcgraph-retval, TRACE_GRAPH_PRINT_RETVAL),
	TRACER_OPT(funcgraph-retval-hex, TRACE_GRAPH_PRINT_RETVAL_HEX),
	TRACER_OPT(funcgraph-retaddr, TRACE_GRAPH_PRINT_RETADDR),
	TRACER_OPT(funcgraph-args, TRACE_GRAPH_ARGS),
	TRACER_OPT(sleep-time, TRACE_GRAPH_SLEEP_TIME),
	TRACER_OPT(graph-time, TRACE_GRAPH_GRAPH_TIME),
	{NULL, 0},
};
/* clang-format on */

/* Linux's defaults: no overruns, task, absolute time, tail, return values, addresses, args. */
static struct tracer_flags graph_flags = {
	.val = TRACE_GRAPH_PRINT_CPU | TRACE_GRAPH_PRINT_OVERHEAD | TRACE_GRAPH_PRINT_DURATION |
	       TRACE_GRAPH_PRINT_IRQS | TRACE_GRAPH_SLEEP_TIME | TRACE_GRAPH_GRAPH_TIME,
	.opts = graph_opts,
};

/* Read by the callbacks; every array's (the top level's files). */
static bool graph_skip_irqs; /* funcgraph-irqs off */
static bool graph_sleep_time = true; /* sleep-time */
static unsigned int fgraph_max_depth; /* max_graph_depth; 0: no limit */
unsigned long tracing_thresh; /* tracing_thresh, in ns; 0: off (here and in the latency tracers) */
static bool graph_rec_args; /* funcgraph-args: entries carry the argument registers */
static bool graph_rec_retaddr; /* funcgraph-retaddr: entries carry the return address */

/*
 * The fast path. Most calls meet no filter and no option: graph_entry() and graph_return()
 * then just record. So that telling this costs one test, the four settings above that can
 * change what a call does are folded into one word, graph_checks, rebuilt (under
 * trace_types_lock) whenever one of them is written. The task's own set_graph_* state, and the
 * set_graph_function and set_graph_notrace sets (which other files write), are tested beside
 * it; any of them set sends the call down the slow path, which applies every rule as before, in
 * Linux's order. The array's set_ftrace_pid is asked on the fast path too (graph_trace_task()).
 */
#define GRAPH_CHECK_DEPTH 0x1 /* max_graph_depth is set */
#define GRAPH_CHECK_IRQS 0x2 /* funcgraph-irqs is off */
#define GRAPH_CHECK_THRESH 0x4 /* tracing_thresh is set */
#define GRAPH_CHECK_SLEEP 0x8 /* sleep-time is off */
#define GRAPH_CHECK_EXTRA 0x10 /* funcgraph-args or funcgraph-retaddr: a longer entry record */
#define GRAPH_ENTRY_CHECKS \
	(GRAPH_CHECK_DEPTH | GRAPH_CHECK_IRQS | GRAPH_CHECK_THRESH | GRAPH_CHECK_EXTRA)
#define GRAPH_RETURN_CHECKS (GRAPH_CHECK_THRESH | GRAPH_CHECK_SLEEP)
static unsigned int graph_checks;

/* After a write to one of the settings above; the caller holds trace_types_lock. */
static void graph_update_checks(void)
{
	lockdep_assert_held(&trace_types_lock);
	unsigned int checks = 0;

	if (READ_ONCE(fgraph_max_depth))
		checks |= GRAPH_CHECK_DEPTH;
	if (READ_ONCE(graph_skip_irqs))
		checks |= GRAPH_CHECK_IRQS;
	if (READ_ONCE(tracing_thresh))
		checks |= GRAPH_CHECK_THRESH;
	if (!READ_ONCE(graph_sleep_time))
		checks |= GRAPH_CHECK_SLEEP;
	if (READ_ONCE(graph_rec_args) || READ_ONCE(graph_rec_retaddr))
		checks |= GRAPH_CHECK_EXTRA;
	WRITE_ONCE(graph_checks, checks);
}

/* set_graph_function, set_graph_notrace */
struct ftrace_ops graph_hash_ops = {.flags = FTRACE_OPS_FL_GRAPH_SET};

/*
 * Linux marks interrupt handlers by their section (__irq_entry); Lucid's are the functions
 * do_interrupt() calls for a vector (arch/x86_64/idt.c), so it asks that table.
 */
bool ftrace_graph_is_irq_entry(unsigned long addr)
{
	return is_irq_handler(addr);
}

/* --- recording ------------------------------------------------------------------------------ */

static __always_inline bool trace_graph_entry_record(struct trace_array *tr,
						     const struct ftrace_graph_ent *trace,
						     unsigned int trace_ctx)
{
	struct ring_buffer_event *event;
	struct ftrace_graph_ent_entry *entry;

	event = ring_buffer_lock_reserve(tr->buffer, sizeof(*entry));
	if (!event)
		return false;
	entry = ring_buffer_event_data(event);
	tracing_entry_update(&entry->ent, TRACE_GRAPH_ENT, trace_ctx);
	entry->func = trace->func;
	entry->depth = trace->depth;
	ring_buffer_unlock_commit(tr->buffer);
	return true;
}

/*
 * The entry record with what funcgraph-args and funcgraph-retaddr add (struct
 * ftrace_graph_ent_entry): the argument registers as the function was entered, and its return
 * address. That slot still holds the caller's address (the hook swaps it after this callback),
 * unless the caller tail-called it from a hooked function: then it is return_to_handler
 * already, and the task's return stack knows the real one (ftrace_graph_ret_addr), as Linux's
 * ftrace_graph_top_ret_addr finds it.
 */
static noinline bool trace_graph_entry_record_extra(struct trace_array *tr,
						    const struct ftrace_graph_ent *trace,
						    unsigned int trace_ctx)
{
	bool args = READ_ONCE(graph_rec_args), retaddr = READ_ONCE(graph_rec_retaddr);
	size_t words = (args ? FGRAPH_ENT_NR_ARGS : 0) + (retaddr ? 1 : 0);
	struct ftrace_regs *fregs = trace->fregs;
	struct ring_buffer_event *event;
	struct ftrace_graph_ent_entry *entry;

	event = ring_buffer_lock_reserve(tr->buffer, sizeof(*entry) + words * sizeof(long));
	if (!event)
		return false;
	entry = ring_buffer_event_data(event);
	tracing_entry_update(&entry->ent, TRACE_GRAPH_ENT, trace_ctx);
	entry->func = trace->func;
	entry->depth = trace->depth;
	if (args)
		ftrace_regs_get_arguments(fregs, entry->args);
	if (retaddr)
		entry->args[words - 1] =
			ftrace_graph_ret_addr(current, fregs->parent_ret, &fregs->parent_ret);
	ring_buffer_unlock_commit(tr->buffer);
	return true;
}

static __always_inline void trace_graph_return_record(struct trace_array *tr,
						      const struct ftrace_graph_ret *trace,
						      uint64_t calltime,
						      unsigned int trace_ctx)
{
	struct ring_buffer_event *event;
	struct ftrace_graph_ret_entry *entry;

	event = ring_buffer_lock_reserve(tr->buffer, sizeof(*entry));
	if (!event)
		return;
	entry = ring_buffer_event_data(event);
	tracing_entry_update(&entry->ent, TRACE_GRAPH_RET, trace_ctx);
	entry->func = trace->func;
	entry->retval = trace->retval;
	entry->depth = trace->depth;
	entry->overrun = (unsigned int)trace->overrun;
	entry->calltime = calltime;
	entry->rettime = trace->rettime;
	ring_buffer_unlock_commit(tr->buffer);
}

/*
 * Is this a set_graph_function function (or is there no such filter)? Marks the task's word
 * if so.
 */
static bool graph_addr(unsigned long *task_var, const struct ftrace_graph_ent *trace)
{
	if (!READ_ONCE(graph_hash_ops.filter_hash.count))
		return true; /* empty: every function */
	if (!ftrace_lookup_ip(&graph_hash_ops.filter_hash, trace->func))
		return false;
	*task_var = (*task_var & TRACE_GRAPH_NOTRACE_BIT) | TRACE_GRAPH_BIT |
		    (in_hardirq() ? TRACE_IRQ_BIT : 0) |
		    (unsigned long)trace->depth << TRACE_GRAPH_DEPTH_SHIFT;
	return true;
}

static bool graph_ignore_func(unsigned long *task_var, const struct ftrace_graph_ent *trace)
{
	unsigned int max = READ_ONCE(fgraph_max_depth);

	/* Before graph_addr: a set_graph_function function too deep must not mark the task. */
	if (max && trace->depth >= (int)max)
		return true;
	return !(*task_var & TRACE_GRAPH_BIT) && !graph_addr(task_var, trace);
}

static bool graph_ignore_irqs(unsigned long task_var)
{
	if (!READ_ONCE(graph_skip_irqs) || (task_var & TRACE_IRQ_BIT))
		return false;
	return in_hardirq();
}

/*
 * set_ftrace_pid, set_ftrace_notrace_pid of the array (the top level's function_pids is
 * ftrace_pid_filter): one load more when neither list is set.
 */
static __always_inline bool graph_trace_task(struct trace_array *tr)
{
	struct trace_pid_filter *pids = tr->function_pids;

	return likely(!READ_ONCE(pids->in_force)) || !trace_ignore_current(pids);
}

/* A set_graph_function mark made at this depth ends: that call is over (or never hooked). */
static void graph_unmark_at(unsigned long *task_var, int depth)
{
	if ((*task_var & TRACE_GRAPH_BIT) && graph_filter_depth(*task_var) == depth)
		*task_var &= TRACE_GRAPH_NOTRACE_BIT;
}

/* graph_entry() when something is set: every rule. */
static noinline bool graph_entry_slow(struct trace_array *tr, unsigned long *task_var,
				      struct ftrace_graph_ent *trace)
{
	if (*task_var & TRACE_GRAPH_NOTRACE_BIT)
		return false;
	if (READ_ONCE(graph_hash_ops.notrace_hash.count) &&
	    ftrace_lookup_ip(&graph_hash_ops.notrace_hash, trace->func)) {
		*task_var |= TRACE_GRAPH_NOTRACE_BIT;
		return true; /* hooked, so that its return ends the notrace state */
	}
	if (!graph_trace_task(tr) || graph_ignore_func(task_var, trace) ||
	    graph_ignore_irqs(*task_var))
		return false;
	if (READ_ONCE(tracing_thresh))
		return true; /* only the return will be recorded, if the call was slow */
	/*
	 * The hook holds no recursion lock (trace/fgraph.c), so the preemption count is the traced
	 * code's. It turned interrupts off, so the events' irqs-off flag is always set;
	 * function_graph's lines do not show the flags.
	 */
	unsigned int trace_ctx = tracing_gen_ctx_pc(preempt_count());
	if (READ_ONCE(graph_rec_args) || READ_ONCE(graph_rec_retaddr)
		    ? trace_graph_entry_record_extra(tr, trace, trace_ctx)
		    : trace_graph_entry_record(tr, trace, trace_ctx))
		return true;
	/*
	 * Nothing recorded (tracing off, as while trace-cmd starts its program), so its return
	 * will not be seen: a set_graph_function mark this very call made must go now, or every
	 * later call of the task would be traced as if inside it.
	 */
	graph_unmark_at(task_var, trace->depth);
	return false;
}

/* Called by the hook at a traced function's entry: true to see (and record) its return. */
static bool graph_entry(struct ftrace_graph_ent *trace, struct fgraph_ops *gops)
{
	lockdep_assert_irqs_disabled();
	struct trace_array *tr = gops->private;
	unsigned long *task_var = fgraph_get_task_var(gops);

	if (unlikely(*task_var | (READ_ONCE(graph_checks) & GRAPH_ENTRY_CHECKS) |
		     READ_ONCE(graph_hash_ops.notrace_hash.count) |
		     READ_ONCE(graph_hash_ops.filter_hash.count)))
		return graph_entry_slow(tr, task_var, trace);
	if (!graph_trace_task(tr))
		return false;
	return trace_graph_entry_record(tr, trace, tracing_gen_ctx_pc(preempt_count()));
}

/* graph_return() when something is set: every rule. */
static noinline void graph_return_slow(struct trace_array *tr, unsigned long *task_var,
				       struct ftrace_graph_ret *trace)
{
	uint64_t calltime = trace->calltime;
	unsigned long thresh;

	graph_unmark_at(task_var, trace->depth);
	if (*task_var & TRACE_GRAPH_NOTRACE_BIT) {
		/* Nothing below it was hooked: this is the set_graph_notrace function's return. */
		*task_var &= ~TRACE_GRAPH_NOTRACE_BIT;
		return;
	}
	/* sleep-time off: as if the call began later by the time the task was switched out. */
	if (!READ_ONCE(graph_sleep_time))
		calltime += MIN(trace->sleeptime, trace->rettime - calltime);
	thresh = READ_ONCE(tracing_thresh);
	if (thresh && trace->rettime - calltime < thresh)
		return;
	trace_graph_return_record(tr, trace, calltime, tracing_gen_ctx_pc(preempt_count()));
}

/* Called by the hook when a function graph_entry() hooked returns. */
static void graph_return(struct ftrace_graph_ret *trace, struct fgraph_ops *gops)
{
	lockdep_assert_irqs_disabled();
	struct trace_array *tr = gops->private;
	unsigned long *task_var = fgraph_get_task_var(gops);

	if (unlikely(*task_var | (READ_ONCE(graph_checks) & GRAPH_RETURN_CHECKS))) {
		graph_return_slow(tr, task_var, trace);
		return;
	}
	trace_graph_return_record(tr, trace, trace->calltime, tracing_gen_ctx_pc(preempt_count()));
}

/* --- the tracer ----------------------------------------------------------------------------- */

/*
 * The top level or an instance (Linux 6.11 allows function_graph in instances, several at
 * once): its fgraph_ops, whose filter is the array's ops, so its set_ftrace_filter and
 * set_ftrace_notrace choose the functions, its set_ftrace_pid lists the tasks, its buffer the
 * records. Each task's word for it starts at zero (register_ftrace_graph clears it), so a
 * previous session that ended inside a set_graph_* function leaves nothing behind.
 * set_graph_function, set_graph_notrace, max_graph_depth, tracing_thresh and the funcgraph-*
 * options are the top level's files and apply to every array running it, as Linux's.
 * trace_types_lock held.
 */
static int graph_trace_init(struct trace_array *tr)
{
	struct fgraph_ops *gops = kzalloc(sizeof(*gops));
	int ret;

	if (!gops)
		return -ENOMEM;
	gops->entryfunc = graph_entry;
	gops->retfunc = graph_return;
	gops->ops = &tr->ops;
	gops->private = tr;
	tr->ops.private = tr;
	ret = register_ftrace_graph(gops);
	if (ret)
		kfree(gops);
	else
		tr->gops = gops;
	return ret;
}

static void graph_trace_reset(struct trace_array *tr)
{
	/* No callback of it runs after this (unregister_ftrace_graph): it can go. */
	unregister_ftrace_graph(tr->gops);
	kfree(tr->gops);
	tr->gops = NULL;
}

static int graph_set_flag(struct trace_array *tr, uint32_t old_flags, uint32_t bit, int set)
{
	(void)tr;
	(void)old_flags;
	if (bit == TRACE_GRAPH_PRINT_IRQS)
		WRITE_ONCE(graph_skip_irqs, !set);
	if (bit == TRACE_GRAPH_SLEEP_TIME) {
		WRITE_ONCE(graph_sleep_time, !!set);
		WRITE_ONCE(profile_sleep_time, !!set); /* the function profiler's too, as Linux */
	}
	if (bit == TRACE_GRAPH_GRAPH_TIME)
		WRITE_ONCE(profile_graph_time, !!set);
	/* These two change what is recorded; the rest of the new ones, only how it prints. */
	if (bit == TRACE_GRAPH_ARGS)
		WRITE_ONCE(graph_rec_args, !!set);
	if (bit == TRACE_GRAPH_PRINT_RETADDR)
		WRITE_ONCE(graph_rec_retaddr, !!set);
	graph_update_checks();
	return 0;
}

static enum print_line_t graph_print_line(struct trace_iterator *iter)
{
	return print_graph_function_flags(iter, graph_flags.val);
}

static void graph_print_header(struct trace_iterator *iter)
{
	print_graph_headers_flags(iter, graph_flags.val);
}

static struct tracer graph_trace = {
	.name = "function_graph",
	.init = graph_trace_init,
	.reset = graph_trace_reset,
	.open = graph_trace_open,
	.close = graph_trace_close,
	.print_header = graph_print_header,
	.print_line = graph_print_line,
	.flags = &graph_flags,
	.set_flag = graph_set_flag,
	.allow_instances = true, /* each array its own fgraph_ops (graph_trace_init) */
};
REGISTER_TRACER(graph_trace);

/* --- max_graph_depth, tracing_thresh -------------------------------------------------------- */

static ssize_t graph_depth_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)file;
	/* As Linux's graph_depth_read, with %d: the write below keeps it true (no -1). */
	return tracing_read_long(ppos, ubuf, cnt, (int)READ_ONCE(fgraph_max_depth));
}

/*
 * A write to max_graph_depth or tracing_thresh: parse the number, refuse one above max (one
 * that would not read back as written), let set() store it, and refresh graph_checks, all
 * under trace_types_lock so that two writers cannot leave the word describing the other's
 * setting.
 */
static ssize_t graph_setting_write(const char *ubuf, size_t cnt, loff_t *ppos,
				   unsigned long max, void (*set)(unsigned long val))
{
	unsigned long val;
	int ret = tracing_write_ulong(ubuf, cnt, &val);

	if (ret)
		return ret;
	if (val > max)
		return -EINVAL;
	mutex_lock(&trace_types_lock);
	set(val);
	graph_update_checks();
	mutex_unlock(&trace_types_lock);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static void graph_depth_set(unsigned long val)
{
	WRITE_ONCE(fgraph_max_depth, (unsigned int)val);
}

/*
 * Up to INT_MAX. Linux takes any unsigned long into its unsigned int and prints it with %d:
 * 4294967295 reads -1 and 4294967296 silently becomes 0, no limit at all. Refusing what %d
 * cannot print keeps Linux's output for every value taken; a depth of 2^31 calls is no limit
 * anyway.
 */
static ssize_t graph_depth_write(struct file *file, const char *ubuf, size_t cnt,
				 loff_t *ppos)
{
	(void)file;
	return graph_setting_write(ubuf, cnt, ppos, INT_MAX, graph_depth_set);
}

const struct file_operations graph_depth_fops = {
	.read = graph_depth_read,
	.write = graph_depth_write,
};

/* Microseconds in the file, nanoseconds inside. */
static ssize_t tracing_thresh_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)file;
	return tracing_read_ulong(ppos, ubuf, cnt, READ_ONCE(tracing_thresh) / NSEC_PER_USEC);
}

static void tracing_thresh_set(unsigned long val)
{
	WRITE_ONCE(tracing_thresh, val * NSEC_PER_USEC);
}

/*
 * Microseconds whose nanoseconds fit an unsigned long. Linux multiplies without looking
 * (tracing_nsecs_write), so 2^64 / 1000 us and more wrapped to a small threshold.
 */
static ssize_t tracing_thresh_write(struct file *file, const char *ubuf, size_t cnt,
				    loff_t *ppos)
{
	(void)file;
	return graph_setting_write(ubuf, cnt, ppos, ULONG_MAX / NSEC_PER_USEC, tracing_thresh_set);
}

const struct file_operations tracing_thresh_fops = {
	.read = tracing_thresh_read,
	.write = tracing_thresh_write,
};
