/* The irqsoff, preemptoff and preemptirqsoff tracers: the longest time a CPU would not respond. */

/*
 * Ingo Molnar's latency tracer, the tracer ftrace grew from (Linux's kernel/trace/
 * trace_irqsoff.c). A critical section is the time a CPU runs with interrupts off (irqsoff),
 * preemption off (preemptoff), or either (preemptirqsoff): nothing more urgent can get the CPU
 * meanwhile. The hooks (trace/trace_preemptirq.c) tell the tracer of each transition:
 *
 *   start_critical_timing   the CPU enters a section: note the time and where (critical_start),
 *                           record "trace_hardirqs_off <-caller";
 *   (function-trace)        every traced function called inside, one event each
 *                           (irqsoff_tracer_call, registered with dynamic ftrace);
 *   stop_critical_timing    it leaves: record "trace_hardirqs_on <-caller" and a stack trace,
 *                           and if this section is the worst yet (or over tracing_thresh), make
 *                           this CPU's part of the trace buffer the max buffer's
 *                           (update_max_tr_single, trace/trace_max_latency.c).
 *
 * cat trace then shows the worst section in the latency format, its length in the header:
 *
 *   # irqsoff latency trace v1.1.5 on 6.1.0-lucid
 *   # latency: 512 us, #6/6, CPU#0 | (M:preempt VP:0, KP:0, SP:0 HP:0 #P:2)
 *   #  => started at: latency_demo_irqs_off
 *   #  => ended at:   latency_demo_irqs_off
 *
 * A section's events stay on its CPU, so the per-CPU state below is touched only by its own
 * CPU, with interrupts or preemption off (the section itself). max_sequence makes a section
 * that began before the tracer (re)started not count. Linux's also drops a section during which
 * another CPU found a new worst case (that CPU's console printout might have slowed it); Lucid
 * prints nothing then, and right after a reset every CPU finds a new worst case at once, which
 * would drop a long section most of the time: a section counts here if it is the worst when it
 * ends (checked again under max_trace_lock). The hooks come with interrupts off for the
 * interrupt ones; the preemption ones may not, so the end takes interrupts off itself for the
 * swap.
 *
 * Choices where Lucid differs: "started at" is the function that turned interrupts off (the
 * hook's caller), and the section's first line "trace_hardirqs_off <-that function", as
 * ftrace.rst shows them; Linux 6.1 records one frame further up. The function-trace option is
 * on by default, as in Linux. With display-graph the functions are hooked at entry and return
 * (trace/fgraph.c) and print as function_graph's, under the latency header.
 *
 * Not traced, as all of trace/: the tracer runs inside every section it measures.
 */
#include "trace/trace.h"
#include "trace/trace_ctx.h"
#include "trace/ring_buffer.h"
#include "trace/fgraph.h"
#include "trace/trace_graph_fmt.h"
#include "trace/trace_graph_output.h"
#include "trace/trace_output.h"
#include "trace/events/preemptirq.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/preempt.h"
#include "kernel/locking/spinlock.h"
#include "kernel/smp.h"
#include "arch/x86_64/cpu.h"
#include "lib/errno.h"
#include "lib/string.h"

enum {
	TRACER_IRQS_OFF = 1 << 1,
	TRACER_PREEMPT_OFF = 1 << 2,
};

/* One CPU's section: written by that CPU only, inside the section. */
struct irqsoff_cpu {
	bool tracing; /* inside a section we saw begin (Linux's tracing_cpu) */
	int disabled; /* the tracer's own code is running here: ignore */
	uint64_t preempt_timestamp; /* when it began, on the trace clock */
	unsigned long critical_start; /* where */
	unsigned long critical_sequence; /* max_sequence then */
};

static struct trace_array *irqsoff_trace;
static int tracer_enabled; /* read by the hooks: a tracer of this file is current */
static int trace_type; /* TRACER_IRQS_OFF | TRACER_PREEMPT_OFF */
static unsigned int save_flags; /* the options the tracer set, as they were before */
static struct irqsoff_cpu irqsoff_data[NR_CPUS];
static unsigned long max_sequence;
static DEFINE_SPINLOCK(max_trace_lock); /* one new worst case at a time; interrupts off */
static struct ftrace_ops irqsoff_ops;

/*
 * Recording: tracing_on, and no reader paused it (pause-on-trace, which the tracer sets: a new
 * worst case swapped in while trace is read would mix two sections in one listing).
 */
static bool irqsoff_recording(struct trace_array *tr)
{
	return ring_buffer_record_is_on(tr->buffer);
}

static uint64_t irqsoff_now(struct trace_array *tr)
{
	return ring_buffer_time_stamp(tr->buffer);
}

/* A section's ends: a function event, or with display-graph a call of the hook, "hook();". */
static void irqsoff_mark(struct trace_array *tr, unsigned long ip, unsigned long parent_ip,
			 unsigned int trace_ctx)
{
	uint64_t now;

	if (!latency_display_graph(tr)) {
		latency_trace_function(tr, ip, parent_ip, trace_ctx);
		return;
	}
	now = irqsoff_now(tr);
	if (latency_graph_record_entry(tr, ip, 0, trace_ctx))
		latency_graph_record_return(tr, ip, 0, now, now, trace_ctx);
}

static bool preempt_trace(int pc)
{
	return (trace_type & TRACER_PREEMPT_OFF) && pc;
}

static bool irq_trace(void)
{
	return (trace_type & TRACER_IRQS_OFF) && irqs_disabled();
}

/* Worth keeping: over tracing_thresh if it is set, else worse than the worst so far. */
static bool report_latency(struct trace_array *tr, uint64_t delta)
{
	unsigned long thresh = READ_ONCE(tracing_thresh);

	if (thresh)
		return delta >= thresh;
	return delta > READ_ONCE(tr->max_latency);
}

/* --- the function events inside a section ---------------------------------------------------- */

static void irqsoff_tracer_call(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
				struct ftrace_regs *fregs)
{
	struct trace_array *tr = irqsoff_trace;
	int bit, cpu;

	(void)op, (void)fregs;
	/* Outside every section, interrupts and preemption are on: one look says no. */
	if (!irqs_disabled() && !preempt_count())
		return;
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	cpu = smp_processor_id();
	if (irqsoff_data[cpu].tracing && !irqsoff_data[cpu].disabled)
		latency_trace_function(tr, ip, parent_ip, tracing_gen_ctx_dec());
	ftrace_test_recursion_unlock(bit);
}

/* display-graph: a function entered inside a section is hooked for its return too. */
static bool irqsoff_graph_entry(struct ftrace_graph_ent *trace, struct fgraph_ops *gops)
{
	(void)gops;
	struct irqsoff_cpu *data = &irqsoff_data[smp_processor_id()]; /* interrupts are off */

	if (!data->tracing || data->disabled)
		return false;
	return latency_graph_record_entry(irqsoff_trace, trace->func, trace->depth,
					  tracing_gen_ctx_pc(preempt_count()));
}

static void irqsoff_graph_return(struct ftrace_graph_ret *trace, struct fgraph_ops *gops)
{
	(void)gops;
	struct irqsoff_cpu *data = &irqsoff_data[smp_processor_id()];

	if (data->disabled)
		return;
	latency_graph_record_return(irqsoff_trace, trace->func, trace->depth, trace->calltime,
				    trace->rettime, tracing_gen_ctx_pc(preempt_count()));
}

/*
 * display-graph's user of the graph hook; its filter (irqsoff_ops's, empty) takes every function.
 */
static struct fgraph_ops irqsoff_gops = {
	.entryfunc = irqsoff_graph_entry,
	.retfunc = irqsoff_graph_return,
	.ops = &irqsoff_ops,
};

/* function-trace's hooks (registered while the option is on), and display-graph's. */
static struct latency_hooks irqsoff_hooks = {
	.ops = &irqsoff_ops,
	.gops = &irqsoff_gops,
	.func = irqsoff_tracer_call,
};

/* --- sections --------------------------------------------------------------------------------- */

static void check_critical_timing(struct trace_array *tr, struct irqsoff_cpu *data,
				  unsigned long parent_ip, int cpu)
{
	uint64_t t0 = data->preempt_timestamp, t1 = irqsoff_now(tr), delta = t1 - t0;
	unsigned int trace_ctx;
	unsigned long flags;

	if (!report_latency(tr, delta))
		return;
	trace_ctx = tracing_gen_ctx();
	flags = raw_local_irq_save();
	__raw_spin_lock(&max_trace_lock);
	if (!report_latency(tr, delta)) /* another CPU's was worse meanwhile */
		goto out_unlock;
	/* How the section ended, from the hook's caller on: the section's last event. */
	__trace_stack(tr, trace_ctx, parent_ip);
	if (data->critical_sequence != READ_ONCE(max_sequence))
		goto out_unlock; /* began before the tracer (re)started */
	if (irqsoff_recording(tr)) {
		struct trace_max_data section = {
			.time_start = t0,
			.saved_latency = delta,
			.critical_start = data->critical_start,
			.critical_end = parent_ip,
		};

		update_max_tr_single(tr, current, cpu, &section);
	}
out_unlock:
	__raw_spin_unlock(&max_trace_lock);
	raw_local_irq_restore(flags);
}

static void start_critical_timing(unsigned long ip, unsigned long parent_ip)
{
	struct trace_array *tr = irqsoff_trace;
	struct irqsoff_cpu *data;
	int cpu;

	if (!READ_ONCE(tracer_enabled) || !irqsoff_recording(tr))
		return;
	cpu = smp_processor_id();
	data = &irqsoff_data[cpu];
	if (data->tracing || data->disabled)
		return;
	/*
	 * A CPU that tracing_cpumask leaves out is not measured, as Linux's (its per-CPU data is
	 * disabled there): on a busy host, a vCPU the host stops inside an interrupt looks like a
	 * long section, and the mask keeps the measurement to the CPU the user watches.
	 */
	if (tr->cpumask_cleared & (1UL << cpu))
		return;
	data->disabled++;
	data->critical_sequence = max_sequence;
	data->preempt_timestamp = irqsoff_now(tr);
	data->critical_start = parent_ip ? parent_ip : ip;
	irqsoff_mark(tr, ip, parent_ip, tracing_gen_ctx());
	data->tracing = true;
	data->disabled--;
}

static void stop_critical_timing(unsigned long ip, unsigned long parent_ip)
{
	struct trace_array *tr = irqsoff_trace;
	struct irqsoff_cpu *data;
	int cpu;

	if (!READ_ONCE(tracer_enabled))
		return;
	cpu = smp_processor_id();
	data = &irqsoff_data[cpu];
	if (!data->tracing)
		return;
	data->tracing = false; /* always: a section never outlives its end */
	if (!data->critical_start || data->disabled || !irqsoff_recording(tr))
		return;
	data->disabled++;
	irqsoff_mark(tr, ip, parent_ip, tracing_gen_ctx());
	check_critical_timing(tr, data, parent_ip ? parent_ip : ip, cpu);
	data->critical_start = 0;
	data->disabled--;
}

/*
 * The hooks' calls (trace/trace_preemptirq.c). a0 is the code that turned interrupts or
 * preemption off or on; the hook itself stands in the section's first and last lines.
 */
void tracer_hardirqs_on(unsigned long a0, unsigned long a1)
{
	(void)a1;
	if (!preempt_trace(preempt_count()) && irq_trace())
		stop_critical_timing((unsigned long)trace_hardirqs_on, a0);
}

void tracer_hardirqs_off(unsigned long a0, unsigned long a1)
{
	(void)a1;
	if (!preempt_trace(preempt_count()) && irq_trace())
		start_critical_timing((unsigned long)trace_hardirqs_off, a0);
}

void tracer_preempt_on(unsigned long a0, unsigned long a1)
{
	(void)a1;
	if (preempt_trace(preempt_count()) && !irq_trace())
		stop_critical_timing((unsigned long)trace_preempt_on, a0);
}

void tracer_preempt_off(unsigned long a0, unsigned long a1)
{
	(void)a1;
	if (preempt_trace(preempt_count()) && !irq_trace())
		start_critical_timing((unsigned long)trace_preempt_off, a0);
}

/* --- the tracers ---------------------------------------------------------------------------- */

static int irqsoff_tracer_init_type(struct trace_array *tr, int type)
{
	int ret;

	ret = latency_tracer_init(tr, &save_flags);
	if (ret)
		return ret;
	irqsoff_trace = tr;
	trace_type = type;
	max_sequence++;
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		irqsoff_data[cpu] = (struct irqsoff_cpu){0};
	ret = register_latency_function(tr, &irqsoff_hooks);
	if (ret)
		return ret;
	if (type & TRACER_IRQS_OFF)
		irqflags_hook_get();
	if (type & TRACER_PREEMPT_OFF)
		preempt_hook_get();
	WRITE_ONCE(tracer_enabled, 1);
	return 0;
}

static void irqsoff_tracer_reset(struct trace_array *tr)
{
	WRITE_ONCE(tracer_enabled, 0);
	if (trace_type & TRACER_IRQS_OFF)
		irqflags_hook_put();
	if (trace_type & TRACER_PREEMPT_OFF)
		preempt_hook_put();
	unregister_latency_function(&irqsoff_hooks);
	latency_tracer_restore_flags(tr, save_flags);
}

/*
 * function-trace: the functions inside sections, from now on or no more. display-graph: the
 * other way of hooking them, and of printing: the trace starts afresh (Linux's).
 */
static void irqsoff_flag_changed(struct trace_array *tr, unsigned int mask, int set)
{
	if (mask != TRACE_ITER_FUNCTION && mask != TRACE_ITER_DISPLAY_GRAPH)
		return;
	unregister_latency_function(&irqsoff_hooks);
	if (mask == TRACE_ITER_DISPLAY_GRAPH) {
		tracing_reset_online_cpus(tr);
		latency_max_reset(tr);
	}
	if (tr->trace_flags & TRACE_ITER_FUNCTION)
		register_latency_function(tr, &irqsoff_hooks);
	(void)set;
}

/* tracing_on 0 -> 1: sections that began while it was off do not count. */
static void irqsoff_tracer_start(struct trace_array *tr)
{
	(void)tr;
	max_sequence++;
	WRITE_ONCE(tracer_enabled, 1);
}

static void irqsoff_tracer_stop(struct trace_array *tr)
{
	(void)tr;
	WRITE_ONCE(tracer_enabled, 0);
}

static int irqsoff_tracer_init(struct trace_array *tr)
{
	return irqsoff_tracer_init_type(tr, TRACER_IRQS_OFF);
}

static int preemptoff_tracer_init(struct trace_array *tr)
{
	return irqsoff_tracer_init_type(tr, TRACER_PREEMPT_OFF);
}

static int preemptirqsoff_tracer_init(struct trace_array *tr)
{
	return irqsoff_tracer_init_type(tr, TRACER_IRQS_OFF | TRACER_PREEMPT_OFF);
}

#define LATENCY_TRACER(_var, _name, _init)            \
	static struct tracer _var = {                 \
		.name = _name,                        \
		.init = _init,                        \
		.reset = irqsoff_tracer_reset,        \
		.start = irqsoff_tracer_start,        \
		.stop = irqsoff_tracer_stop,          \
		.flag_changed = irqsoff_flag_changed, \
		LATENCY_TRACER_PRINTING,              \
	};                                            \
	REGISTER_TRACER(_var)

LATENCY_TRACER(irqsoff_tracer, "irqsoff", irqsoff_tracer_init);
LATENCY_TRACER(preemptoff_tracer, "preemptoff", preemptoff_tracer_init);
LATENCY_TRACER(preemptirqsoff_tracer, "preemptirqsoff", preemptirqsoff_tracer_init);
