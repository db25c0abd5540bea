/* The wakeup and wakeup_rt tracers: how long an urgent task waits from its wakeup to running. */

/*
 * Linux's kernel/trace/trace_sched_wakeup.c. A task more urgent than the one that wakes it
 * (wakeup: any such task; wakeup_rt: a real-time one, SCHED_FIFO or SCHED_RR, as chrt makes
 * them) is woken: the tracer notes the time and the task, and records the wakeup, its stack,
 * and from then on every function on the task's CPU. When that CPU switches to the task, the
 * wait is over: the switch and its stack are recorded, and if the wait is the worst yet (or
 * over tracing_thresh) the whole trace buffer becomes the max buffer (update_max_tr, trace/
 * trace_max_latency.c): the waker's CPU holds the wakeup, the task's CPU what ran meanwhile.
 * cat trace shows it in the latency format:
 *
 *   # wakeup_rt latency trace v1.1.5 on 6.1.0-lucid
 *   # latency: 81 us, #20/20, CPU#1 | (M:preempt VP:0, KP:0, SP:0 HP:0 #P:2)
 *   #    | task: rtprog-45 (uid:0 nice:0 policy:1 rt_prio:50)
 *       bash-3       0d..4    0us :        3:120:R   + [001]      45: 49:R rtprog
 *       ...
 *     <idle>-0       1d..2   81us :        0:120:R ==> [001]      45: 49:R rtprog
 *
 * One wakeup is followed at a time (wakeup_task): a more urgent one replaces it. Everything
 * here runs from the scheduler's tracepoints, with interrupts off and a run queue locked, under
 * wakeup_lock. wakeup_dl (SCHED_DEADLINE) is not here: Lucid has no deadline class.
 *
 * With the display-graph option (as Linux's, and as the irqsoff tracers here) the functions on
 * the task's CPU are hooked at entry and return (trace/fgraph.c) instead, and the trace prints
 * as function_graph's under the latency header: what the CPU did while the task waited, nested,
 * each call with its duration; the wakeup and the switch are comments among them, their usual
 * text between the comment's marks.
 *
 * Not traced, as all of trace/.
 */
#include "trace/trace.h"
#include "trace/trace_ctx.h"
#include "trace/trace_output.h"
#include "trace/ring_buffer.h"
#include "trace/fgraph.h"
#include "trace/trace_graph_fmt.h"
#include "trace/trace_graph_output.h"
#include "trace/events/sched.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/spinlock.h"
#include "kernel/smp.h"
#include "arch/x86_64/cpu.h"
#include "lib/string.h"

#define WAKEUP_PRIO_NONE 0x7fffffff /* no task followed: any urgent wakeup is taken */

static struct trace_array *wakeup_trace;
static int tracer_enabled;
static bool wakeup_rt; /* wakeup_rt: real-time tasks only */
static struct task *wakeup_task;
static int wakeup_cpu = -1;
static int wakeup_prio = WAKEUP_PRIO_NONE;
static uint64_t wakeup_timestamp;
static unsigned int save_flags;
static DEFINE_SPINLOCK(wakeup_lock);
static struct ftrace_ops wakeup_ops;

/* --- the records: a wakeup and a switch (Linux's trace_wake_print, trace_ctx_print) ---------- */

static enum print_line_t trace_ctxwake_print(struct trace_iterator *iter, const char *delim)
{
	struct ctx_switch_entry *field = (struct ctx_switch_entry *)iter->ent;
	char comm[TRACE_COMM_LEN];

	trace_find_cmdline(field->next_pid, comm);
	trace_seq_printf(&iter->seq, " %7d:%3d:%c %s [%03d] %7d:%3d:%c %s\n", field->prev_pid,
			 field->prev_prio, field->prev_state, delim, field->next_cpu,
			 field->next_pid, field->next_prio, field->next_state, comm);
	return trace_handle_return(&iter->seq);
}

static enum print_line_t trace_ctx_print(struct trace_iterator *iter, unsigned int flags,
					 struct trace_event *event)
{
	(void)flags, (void)event;
	return trace_ctxwake_print(iter, "==>");
}

static enum print_line_t trace_wake_print(struct trace_iterator *iter, unsigned int flags,
					  struct trace_event *event)
{
	(void)flags, (void)event;
	return trace_ctxwake_print(iter, "  +");
}

static struct trace_event trace_ctx_event = {.type = TRACE_CTX, .trace = trace_ctx_print};
static struct trace_event trace_wake_event = {.type = TRACE_WAKE, .trace = trace_wake_print};

static void wakeup_record(struct trace_array *tr, int type, struct task *prev, struct task *next,
			  unsigned int trace_ctx)
{
	struct ring_buffer_event *event =
		ring_buffer_lock_reserve(tr->buffer, sizeof(struct ctx_switch_entry));
	struct ctx_switch_entry *entry;

	if (!event)
		return;
	entry = ring_buffer_event_data(event);
	tracing_entry_update(&entry->ent, (unsigned short)type, trace_ctx);
	entry->prev_pid = prev->pid;
	entry->prev_prio = (unsigned char)prev->prio;
	entry->prev_state = task_state_char(prev->state);
	entry->next_pid = next->pid;
	entry->next_prio = (unsigned char)next->prio;
	entry->next_state = task_state_char(next->state);
	entry->next_cpu = next->cpu;
	ring_buffer_unlock_commit(tr->buffer);
	tracing_record_cmdline(next); /* its name, for the line's end */
}

static bool wakeup_recording(struct trace_array *tr)
{
	return ring_buffer_record_is_on(tr->buffer); /* tracing_on, and not paused by a reader */
}

/* Forget the task followed (wakeup_lock held, or the tracer stopped). */
static void __wakeup_reset(void)
{
	wakeup_cpu = -1;
	wakeup_prio = WAKEUP_PRIO_NONE;
	WRITE_ONCE(wakeup_task, NULL);
}

/* --- functions on the woken task's CPU while it waits ----------------------------------------- */

static void wakeup_tracer_call(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			       struct ftrace_regs *fregs)
{
	int bit;

	(void)op, (void)fregs;
	if (!READ_ONCE(wakeup_task))
		return;
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	if (READ_ONCE(wakeup_task) && smp_processor_id() == READ_ONCE(wakeup_cpu))
		latency_trace_function(wakeup_trace, ip, parent_ip, tracing_gen_ctx_dec());
	ftrace_test_recursion_unlock(bit);
}

/*
 * display-graph: a function entered on the task's CPU while it waits is hooked for its return
 * too (Linux's wakeup_graph_entry). The callbacks run with interrupts off (trace/fgraph.c), so
 * the CPU cannot change under them; a return is recorded only while the wait goes on, as Linux's.
 */
static bool wakeup_graph_wanted(void)
{
	return READ_ONCE(wakeup_task) && smp_processor_id() == READ_ONCE(wakeup_cpu);
}

static bool wakeup_graph_entry(struct ftrace_graph_ent *trace, struct fgraph_ops *gops)
{
	(void)gops;
	if (!wakeup_graph_wanted())
		return false;
	return latency_graph_record_entry(wakeup_trace, trace->func, trace->depth,
					  tracing_gen_ctx_pc(preempt_count()));
}

static void wakeup_graph_return(struct ftrace_graph_ret *trace, struct fgraph_ops *gops)
{
	(void)gops;
	if (!wakeup_graph_wanted())
		return;
	latency_graph_record_return(wakeup_trace, trace->func, trace->depth, trace->calltime,
				    trace->rettime, tracing_gen_ctx_pc(preempt_count()));
}

/* display-graph's user of the graph hook; its filter (wakeup_ops's, empty) takes every function. */
static struct fgraph_ops wakeup_gops = {
	.entryfunc = wakeup_graph_entry,
	.retfunc = wakeup_graph_return,
	.ops = &wakeup_ops,
};

/* function-trace's hooks (registered while the option is on), and display-graph's. */
static struct latency_hooks wakeup_hooks = {
	.ops = &wakeup_ops,
	.gops = &wakeup_gops,
	.func = wakeup_tracer_call,
};

/* --- the scheduler's tracepoints -------------------------------------------------------------- */

static void probe_wakeup(void *ignore, struct task *p)
{
	struct trace_array *tr = wakeup_trace;
	unsigned int trace_ctx;
	unsigned long flags;

	(void)ignore;
	if (!READ_ONCE(tracer_enabled) || !wakeup_recording(tr))
		return;
	/* Only a task more urgent than its waker, and than the one followed, is worth it. */
	if ((wakeup_rt && !rt_task(p)) || p->prio >= READ_ONCE(wakeup_prio) ||
	    p->prio >= current->prio)
		return;
	trace_ctx = tracing_gen_ctx_dec();
	flags = raw_local_irq_save();
	__raw_spin_lock(&wakeup_lock);
	if (!tracer_enabled || p->prio >= wakeup_prio) /* raced with another wakeup */
		goto out;
	wakeup_cpu = p->cpu;
	wakeup_prio = p->prio;
	wakeup_timestamp = ring_buffer_time_stamp(tr->buffer);
	WRITE_ONCE(wakeup_task, p);
	wakeup_record(tr, TRACE_WAKE, current, p, trace_ctx);
	/* From the code that woke it: above the tracepoint's own frame. */
	__trace_stack(tr, trace_ctx, trace_parent_ip());
out:
	__raw_spin_unlock(&wakeup_lock);
	raw_local_irq_restore(flags);
}

static void probe_wakeup_sched_switch(void *ignore, bool preempt, struct task *prev,
				      struct task *next)
{
	struct trace_array *tr = wakeup_trace;
	unsigned int trace_ctx;
	unsigned long flags;
	uint64_t delta;

	(void)ignore, (void)preempt;
	if (!READ_ONCE(tracer_enabled) || next != READ_ONCE(wakeup_task))
		return;
	trace_ctx = tracing_gen_ctx_dec();
	flags = raw_local_irq_save();
	__raw_spin_lock(&wakeup_lock);
	if (!tracer_enabled || next != wakeup_task) /* raced */
		goto out;
	wakeup_record(tr, TRACE_CTX, prev, next, trace_ctx);
	__trace_stack(tr, trace_ctx, trace_parent_ip());
	delta = ring_buffer_time_stamp(tr->buffer) - wakeup_timestamp;
	if (wakeup_recording(tr) &&
	    (READ_ONCE(tracing_thresh) ? delta >= READ_ONCE(tracing_thresh)
				       : delta > READ_ONCE(tr->max_latency))) {
		struct trace_max_data section = {
			.time_start = wakeup_timestamp,
			.saved_latency = delta,
		};

		update_max_tr(tr, next, wakeup_cpu, &section);
	}
out:
	__wakeup_reset();
	__raw_spin_unlock(&wakeup_lock);
	raw_local_irq_restore(flags);
}

/* --- the tracers ---------------------------------------------------------------------------- */

static int __wakeup_tracer_init(struct trace_array *tr, bool rt)
{
	static bool events_registered;
	int ret;

	if (!events_registered) {
		register_trace_event(&trace_ctx_event);
		register_trace_event(&trace_wake_event);
		events_registered = true;
	}
	ret = latency_tracer_init(tr, &save_flags);
	if (ret)
		return ret;
	wakeup_trace = tr;
	wakeup_rt = rt;
	__wakeup_reset();
	ret = register_trace_sched_wakeup(probe_wakeup, NULL);
	if (!ret)
		ret = register_trace_sched_wakeup_new(probe_wakeup, NULL);
	if (!ret)
		ret = register_trace_sched_switch(probe_wakeup_sched_switch, NULL);
	if (!ret)
		ret = register_latency_function(tr, &wakeup_hooks);
	if (ret) {
		unregister_trace_sched_wakeup(probe_wakeup, NULL);
		unregister_trace_sched_wakeup_new(probe_wakeup, NULL);
		unregister_trace_sched_switch(probe_wakeup_sched_switch, NULL);
		return ret;
	}
	WRITE_ONCE(tracer_enabled, 1);
	return 0;
}

static void wakeup_tracer_reset(struct trace_array *tr)
{
	WRITE_ONCE(tracer_enabled, 0);
	unregister_trace_sched_wakeup(probe_wakeup, NULL);
	unregister_trace_sched_wakeup_new(probe_wakeup, NULL);
	unregister_trace_sched_switch(probe_wakeup_sched_switch, NULL); /* waits for the probes */
	unregister_latency_function(&wakeup_hooks);
	__wakeup_reset();
	latency_tracer_restore_flags(tr, save_flags);
}

/*
 * function-trace: the functions on the task's CPU, from now on or no more. display-graph: the
 * other way of hooking them, and of printing: the trace starts afresh (Linux's
 * wakeup_display_graph), with no wakeup followed.
 */
static void wakeup_flag_changed(struct trace_array *tr, unsigned int mask, int set)
{
	unsigned long flags;

	(void)set;
	if (mask != TRACE_ITER_FUNCTION && mask != TRACE_ITER_DISPLAY_GRAPH)
		return;
	unregister_latency_function(&wakeup_hooks);
	if (mask == TRACE_ITER_DISPLAY_GRAPH) {
		flags = raw_local_irq_save();
		__raw_spin_lock(&wakeup_lock);
		__wakeup_reset();
		__raw_spin_unlock(&wakeup_lock);
		raw_local_irq_restore(flags);
		tracing_reset_online_cpus(tr);
		latency_max_reset(tr);
	}
	if (tr->trace_flags & TRACE_ITER_FUNCTION)
		register_latency_function(tr, &wakeup_hooks);
}

static void wakeup_tracer_start(struct trace_array *tr)
{
	(void)tr;
	WRITE_ONCE(tracer_enabled, 1);
}

static void wakeup_tracer_stop(struct trace_array *tr)
{
	(void)tr;
	WRITE_ONCE(tracer_enabled, 0);
}

static int wakeup_tracer_init(struct trace_array *tr)
{
	return __wakeup_tracer_init(tr, false);
}

static int wakeup_rt_tracer_init(struct trace_array *tr)
{
	return __wakeup_tracer_init(tr, true);
}

#define WAKEUP_TRACER(_var, _name, _init)            \
	static struct tracer _var = {                \
		.name = _name,                       \
		.init = _init,                       \
		.reset = wakeup_tracer_reset,        \
		.start = wakeup_tracer_start,        \
		.stop = wakeup_tracer_stop,          \
		.flag_changed = wakeup_flag_changed, \
		LATENCY_TRACER_PRINTING,             \
	};                                           \
	REGISTER_TRACER(_var)

WAKEUP_TRACER(wakeup_tracer, "wakeup", wakeup_tracer_init);
WAKEUP_TRACER(wakeup_rt_tracer, "wakeup_rt", wakeup_rt_tracer_init);
