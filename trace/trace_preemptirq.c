/* The hooks on interrupts and preemption turning off and on, and the preemptirq:* events. */

/*
 * local_irq_disable() and local_irq_enable() (arch/x86_64/cpu.h), and preempt_disable() and
 * preempt_enable() (kernel/sched/preempt.h), call here while someone listens: the irqsoff,
 * preemptoff and preemptirqsoff tracers (trace/trace_irqsoff.c), or the events
 *
 *   irq_disable: caller=do_work+0x1c/0x80 parent=worker+0x31/0x60
 *
 * Who listens is counted in three static keys (irqflags_hook_key, preempt_hook_key, and
 * preemptirq_hook_key for either; kernel/jump_label.h); with no one, the NOP at each call site
 * is all that runs. Linux calls its hooks always and keys only the tracers; Lucid's key makes
 * the off case cost one NOP.
 *
 * Only real transitions count. Interrupts: local_irq_save() with interrupts already off calls
 * the off hook again, so each CPU remembers whether it is inside a traced section
 * (tracing_irq_cpu, Linux's): the first off starts it, the on ends it. Preemption: the count
 * going from 0 to 1 and from 1 to 0 (the hooks look at it out of line).
 *
 * The hooks record events, and recording may itself turn interrupts or preemption off and on:
 * a CPU already inside a hook only keeps its state right (hook_busy) and calls nothing. An NMI
 * may come anywhere, even inside a hook: it is not traced.
 *
 * Not traced, as all of trace/: the hooks run wherever interrupts or preemption change, the
 * function tracer's own path included.
 */
#include "trace/trace.h"
#include "trace/trace_events.h"
#include "trace/trace_output.h"
#include "trace/events/preemptirq.h"
#include "kernel/sched/preempt.h"
#include "kernel/smp.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/mmu.h"

typedef int32_t s32; /* Linux's field type: an offset from _stext */

DEFINE_STATIC_KEY_FALSE(irqflags_hook_key);
DEFINE_STATIC_KEY_FALSE(preempt_hook_key);
DEFINE_STATIC_KEY_FALSE(preemptirq_hook_key); /* the two together: the spin locks' one test */
static bool tracing_irq_cpu[NR_CPUS]; /* inside an interrupts-off section we saw begin */
static int hook_busy[NR_CPUS]; /* inside a hook: nested changes call nothing */

/*
 * The first probe of an event, or a tracer, turns the hooks on; the last one off. A CPU may be
 * inside a section that began while they were off: forget what each CPU thought, so that no
 * stale "inside" survives a pause (a section begun unseen ends unseen).
 */
void irqflags_hook_get(void)
{
	if (!static_key_enabled(&irqflags_hook_key))
		for (int cpu = 0; cpu < NR_CPUS; cpu++)
			WRITE_ONCE(tracing_irq_cpu[cpu], false);
	static_branch_inc(&irqflags_hook_key);
	static_branch_inc(&preemptirq_hook_key);
}

void irqflags_hook_put(void)
{
	static_branch_dec(&preemptirq_hook_key);
	static_branch_dec(&irqflags_hook_key);
}

void preempt_hook_get(void)
{
	static_branch_inc(&preempt_hook_key);
	static_branch_inc(&preemptirq_hook_key);
}

void preempt_hook_put(void)
{
	static_branch_dec(&preemptirq_hook_key);
	static_branch_dec(&preempt_hook_key);
}

static void irqflags_regfunc(bool on)
{
	if (on)
		irqflags_hook_get();
	else
		irqflags_hook_put();
}

static void preempt_regfunc(bool on)
{
	if (on)
		preempt_hook_get();
	else
		preempt_hook_put();
}

DEFINE_TRACE_FN(irq_disable, irqflags_regfunc);
DEFINE_TRACE_FN(irq_enable, irqflags_regfunc);
DEFINE_TRACE_FN(preempt_disable, preempt_regfunc);
DEFINE_TRACE_FN(preempt_enable, preempt_regfunc);

/* --- the hooks (interrupts off, or preemption off: the CPU cannot change under them) ---------- */

/*
 * Called by the thunks (arch/x86_64/thunk_64.S) with a0, the code that turned interrupts or
 * preemption off or on, and fp, that code's frame pointer: its caller's return address is just
 * above it, if fp is a frame (the entry code, in assembly, leaves none).
 */
#define KERNEL_HALF_START 0xffff800000000000UL /* every kernel stack is above */
static unsigned long frame_parent(const unsigned long *fp)
{
	if ((unsigned long)fp < KERNEL_HALF_START || ((unsigned long)fp & (sizeof(long) - 1)))
		return 0;
	return fp[1];
}

/* Just after cli (or the CPU's own, on an interrupt's entry). */
void trace_hardirqs_off_caller(unsigned long a0, const unsigned long *fp)
{
	int cpu = smp_processor_id();

	if (tracing_irq_cpu[cpu])
		return; /* already off: not a transition */
	tracing_irq_cpu[cpu] = true;
	if (in_nmi() || hook_busy[cpu])
		return;
	hook_busy[cpu]++;
	tracer_hardirqs_off(a0, frame_parent(fp));
	trace_irq_disable(a0, frame_parent(fp));
	hook_busy[cpu]--;
}

/* Just before sti (or an IRET or SYSRET that turns them on). Interrupts are still off. */
void trace_hardirqs_on_caller(unsigned long a0, const unsigned long *fp)
{
	int cpu = smp_processor_id();

	if (!tracing_irq_cpu[cpu])
		return;
	if (!in_nmi() && !hook_busy[cpu]) {
		hook_busy[cpu]++;
		trace_irq_enable(a0, frame_parent(fp));
		tracer_hardirqs_on(a0, frame_parent(fp));
		hook_busy[cpu]--;
	}
	tracing_irq_cpu[cpu] = false;
}

/* preempt_disable() made the count what it is: a transition if it is 1 now. */
void trace_preempt_off_caller(unsigned long a0, const unsigned long *fp)
{
	int cpu = smp_processor_id(); /* preemption is off */

	if (preempt_count() != 1 || in_nmi() || hook_busy[cpu])
		return;
	hook_busy[cpu]++;
	trace_preempt_disable(a0, frame_parent(fp));
	tracer_preempt_off(a0, frame_parent(fp));
	hook_busy[cpu]--;
}

/* preempt_enable() is about to take the count down by one: a transition if it is 1 now. */
void trace_preempt_on_caller(unsigned long a0, const unsigned long *fp)
{
	int cpu = smp_processor_id();

	if (preempt_count() != 1 || in_nmi() || hook_busy[cpu])
		return;
	hook_busy[cpu]++;
	tracer_preempt_on(a0, frame_parent(fp));
	trace_preempt_enable(a0, frame_parent(fp));
	hook_busy[cpu]--;
}

/* --- the events ------------------------------------------------------------------------------- */

/* Linux's record: two offsets from _stext, 4 bytes each rather than two addresses of 8. */
struct trace_event_raw_preemptirq_template {
	struct trace_entry ent;
	s32 caller_offs;
	s32 parent_offs;
};

static const struct trace_event_field preemptirq_fields[] = {
	TRACE_FIELD(struct trace_event_raw_preemptirq_template, s32, caller_offs),
	TRACE_FIELD(struct trace_event_raw_preemptirq_template, s32, parent_offs),
	TRACE_FIELD_END,
};

static void probe_preemptirq(void *data, unsigned long ip, unsigned long parent_ip)
{
	struct trace_event_call *call = data;
	struct trace_event_raw_preemptirq_template *r =
		trace_event_buffer_reserve(call, sizeof(*r));

	if (!r)
		return;
	r->caller_offs = (s32)(ip - (unsigned long)_text);
	r->parent_offs = (s32)(parent_ip - (unsigned long)_text);
	trace_event_buffer_commit(call, r, sizeof(*r));
}

static enum print_line_t preemptirq_output(struct trace_iterator *iter, unsigned int flags,
					   struct trace_event *event)
{
	struct trace_event_raw_preemptirq_template *r = trace_raw_output_prep(iter, event);
	struct trace_seq *s = &iter->seq;

	(void)flags;
	if (r) {
		trace_seq_puts(s, "caller=");
		seq_print_ip_sym(s, (unsigned long)_text + r->caller_offs, TRACE_ITER_SYM_OFFSET);
		trace_seq_puts(s, " parent=");
		seq_print_ip_sym(s, (unsigned long)_text + r->parent_offs, TRACE_ITER_SYM_OFFSET);
		trace_seq_putc(s, '\n');
	}
	return trace_handle_return(s);
}

#define PREEMPTIRQ_EVENT(_name)                                                                \
	struct trace_event_call event_##_name = {                                              \
		.system = "preemptirq",                                                        \
		.name = #_name,                                                                \
		.fields = preemptirq_fields,                                                   \
		.size = sizeof(struct trace_event_raw_preemptirq_template),                    \
		.print_fmt =                                                                   \
			TRACE_PRINT_FMT("caller=%pS parent=%pS",                               \
					(void *)((unsigned long)(_stext) + REC->caller_offs),  \
					(void *)((unsigned long)(_stext) + REC->parent_offs)), \
		.event = {.trace = preemptirq_output},                                         \
		.tp = &__tracepoint_##_name,                                                   \
		.probe = TRACEPOINT_PROBE(_name, probe_preemptirq),                            \
	};                                                                                     \
	REGISTER_TRACE_EVENT(event_##_name)

PREEMPTIRQ_EVENT(irq_disable);
PREEMPTIRQ_EVENT(irq_enable);
PREEMPTIRQ_EVENT(preempt_disable);
PREEMPTIRQ_EVENT(preempt_enable);
