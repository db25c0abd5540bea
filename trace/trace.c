/* The tracer core: the trace buffer, registering and switching tracers, recording events. */

/*
 * global_trace is the top level's trace (each instance is another struct trace_array, made
 * by trace/trace_instances.c): a ring buffer with one part per CPU, and the settings its files
 * show. Two worlds meet here:
 *
 *  - Recording (__trace_stack, tracing_gen_ctx; the function event is in trace_functions.c):
 *    called by tracer callbacks on any CPU, in any context, even NMI, up to millions of times a
 *    second. It takes no lock, never sleeps, and calls only code that is itself untraced and
 *    safe anywhere: the ring buffer, the clock, the comm cache. Stopping it is the ring
 *    buffer's business (tracing_on only flips ring_buffer_record_off/on; callbacks still run,
 *    find the buffer off, and record nothing).
 *
 *  - Control (register_tracer, tracing_set_tracer, options, sizes, clock): task context, from
 *    the tracefs files, serialized by trace_types_lock.
 *
 * Switching tracer is Linux's sequence: the old tracer's reset() (it stops producing events),
 * nop as current meanwhile, the buffer cleared, then the new tracer's init() (it starts). So
 * the trace never mixes two tracers' events, and "echo function > current_tracer" starts on a
 * clean buffer.
 *
 * Not traced: everything here either records or is called while recording is set up, and a
 * traced function in here would record itself recording.
 */
#include "kernel/kprobes.h"
#include "trace/trace.h"
#include "trace/trace_osnoise.h"
#include "trace/trace_dynevent.h"
#include "trace/trace_uprobe.h"
#include "trace/trace_ctx.h"
#include "trace/ftrace_probe.h"
#include "trace/trace_events.h"
#include "trace/trace_output.h"
#include "kernel/drivers/random.h"
#include "trace/trace_dump.h"
#include "trace/trace_pid.h"
#include "trace/ring_buffer.h"
#include "trace/fgraph.h"
#include "arch/x86_64/kprobes/kprobes.h" /* unwind_recover_ret_addr */
#include "kernel/sched/sched.h"
#include "kernel/locking/mutex.h"
#include "kernel/printk.h"
#include "kernel/time/time.h"
#include "kernel/cmdline.h"
#include "kernel/mm/kstack.h"
#include "kernel/sched/preempt.h"
#include "kernel/smp.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/mmu.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/locking/lockdep.h"

#define TRACE_FLAGS_DEFAULT                                                                        \
	(TRACE_ITER_PRINT_PARENT | TRACE_ITER_PRINTK | TRACE_ITER_ANNOTATE |                       \
	 TRACE_ITER_CONTEXT_INFO | TRACE_ITER_RECORD_CMD | TRACE_ITER_OVERWRITE |                 \
	 TRACE_ITER_IRQ_INFO | TRACE_ITER_MARKERS | TRACE_ITER_HASH_PTR | TRACE_ITER_FUNCTION)
#define MAX_TRACER_SIZE 100
#define STACK_SKIP_SLACK 8 /* frames of the tracer itself, above what a stack event shows */

DEFINE_MUTEX(trace_types_lock);
struct tracer *trace_types;

struct trace_array global_trace = {
	.trace_flags = TRACE_FLAGS_DEFAULT,
	.current_trace = &nop_trace,
	.buffer_percent = BUFFER_PERCENT_DEFAULT,
};

/* In the order trace_options and options/ show them: Linux 6.1's (its TRACE_FLAGS list). */
const struct trace_option trace_options[] = {
	{"print-parent", TRACE_ITER_PRINT_PARENT},
	{"sym-offset", TRACE_ITER_SYM_OFFSET},
	{"sym-addr", TRACE_ITER_SYM_ADDR},
	{"verbose", TRACE_ITER_VERBOSE},
	{"raw", TRACE_ITER_RAW},
	{"hex", TRACE_ITER_HEX},
	{"bin", TRACE_ITER_BIN},
	{"block", TRACE_ITER_BLOCK},
	{"trace_printk", TRACE_ITER_PRINTK},
	{"annotate", TRACE_ITER_ANNOTATE},
	{"userstacktrace", TRACE_ITER_USERSTACKTRACE},
	{"sym-userobj", TRACE_ITER_SYM_USEROBJ},
	{"printk-msg-only", TRACE_ITER_PRINTK_MSGONLY},
	{"context-info", TRACE_ITER_CONTEXT_INFO},
	{"latency-format", TRACE_ITER_LATENCY_FMT},
	{"record-cmd", TRACE_ITER_RECORD_CMD},
	{"record-tgid", TRACE_ITER_RECORD_TGID},
	{"overwrite", TRACE_ITER_OVERWRITE},
	{"disable_on_free", TRACE_ITER_DISABLE_ON_FREE},
	{"irq-info", TRACE_ITER_IRQ_INFO},
	{"markers", TRACE_ITER_MARKERS},
	{"event-fork", TRACE_ITER_EVENT_FORK},
	{"pause-on-trace", TRACE_ITER_PAUSE_ON_TRACE},
	{"hash-ptr", TRACE_ITER_HASH_PTR},
	{"function-trace", TRACE_ITER_FUNCTION},
	{"function-fork", TRACE_ITER_FUNCTION_FORK},
	{"display-graph", TRACE_ITER_DISPLAY_GRAPH},
	{"stacktrace", TRACE_ITER_STACKTRACE},
};
const int nr_trace_options = ARRAY_SIZE(trace_options);

/* --- clocks -------------------------------------------------------------------------------- */

/*
 * Linux's global clock is slower than local because it must stay ordered across CPUs. Lucid's
 * TSC-based ktime_get_ns already is (one TSC for all CPUs, as QEMU provides), so the two agree.
 */
static uint64_t trace_clock_global(void)
{
	return ktime_get_ns();
}

/* Not a time at all: one more for every event, so events are ordered even across CPUs. */
static uint64_t trace_counter;
static uint64_t trace_clock_counter(void)
{
	return __atomic_add_fetch(&trace_counter, 1, __ATOMIC_RELAXED);
}

/* Ticks since boot: coarse (HZ = 100) but the same on every CPU. */
static uint64_t trace_clock_jiffies(void)
{
	return jiffies;
}

static uint64_t trace_clock_x86_tsc(void)
{
	return rdtsc();
}

const struct trace_clock trace_clocks[] = {
	{"local", ktime_get_ns, true}, /* itself: every event reads it, one call less */
	{"global", trace_clock_global, true},
	{"counter", trace_clock_counter, false},
	{"uptime", trace_clock_jiffies, false},
	{"x86-tsc", trace_clock_x86_tsc, false},
};
const int nr_trace_clocks = ARRAY_SIZE(trace_clocks);

/* Events of two clocks cannot be compared, so a new clock starts with an empty buffer. */
int tracing_set_clock(struct trace_array *tr, const char *name)
{
	int i;

	for (i = 0; i < nr_trace_clocks; i++)
		if (strcmp(trace_clocks[i].name, name) == 0)
			break;
	if (i == nr_trace_clocks)
		return -EINVAL;
	mutex_lock(&trace_types_lock);
	if (i != tr->clock_id) {
		ring_buffer_set_clock(tr->buffer, trace_clocks[i].func);
		tr->clock_id = i;
		tracing_reset_online_cpus(tr);
		if (tr->snapshot_buffer) { /* a swap must not mix two clocks either */
			ring_buffer_set_clock(tr->snapshot_buffer, trace_clocks[i].func);
			tracing_clear_snapshot(tr);
		}
	}
	mutex_unlock(&trace_types_lock);
	return 0;
}

/* --- recording ----------------------------------------------------------------------------- */

unsigned int tracing_gen_ctx(void)
{
	return tracing_gen_ctx_pc(preempt_count());
}

unsigned int tracing_gen_ctx_dec(void)
{
	return tracing_gen_ctx_dec_inline();
}

/*
 * The comm cache (trace/trace_cmdline.c) hears of a task when it shows up in this CPU's event
 * stream. Each CPU remembers the last task it saved (struct cpu's trace_cmdline_task and _pid:
 * a freed task's memory may come back as a new task, hence the pid too), so that while one task
 * keeps producing events this costs two compares (trace/trace_ctx.h). Written by this CPU only.
 * With record-cmd off nothing is saved, but the task is still marked seen: turning the option
 * on forgets every CPU's mark.
 */
void __tracing_record_cmdline(struct task *t)
{
	struct cpu *c = this_cpu();

	if (READ_ONCE(global_trace.trace_flags) & TRACE_ITER_RECORD_TGID)
		trace_save_tgid(t);
	if ((READ_ONCE(global_trace.trace_flags) & TRACE_ITER_RECORD_CMD) &&
	    !trace_save_cmdline(t->pid, t->comm)) {
		WRITE_ONCE(t->trace_cmdline_pending, true); /* busy: at its next event, or exit */
		return;
	}
	WRITE_ONCE(t->trace_cmdline_pending, false);
	c->trace_cmdline_task = t;
	c->trace_cmdline_pid = t->pid;
}

/*
 * A task changed its name (exec, prctl's PR_SET_NAME): no CPU may count it as saved, so that its
 * next event saves the new name and the trace names all its lines so (`readfil-8` rather than
 * `bash-8` for a bash that exec'd readfile), as Linux's does from the task's next switch on.
 * Only a CPU whose mark is still t is cleared: one that moved on to another task keeps its mark.
 */
void tracing_task_renamed(struct task *t)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct task *expected = t;

		__atomic_compare_exchange_n(&cpus[cpu].trace_cmdline_task, &expected, NULL, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	}
}

/* A task ends whose name no try could save (see trace/trace_cmdline.c): save it now. */
void tracing_record_cmdline_exit(struct task *t)
{
	if (READ_ONCE(t->trace_cmdline_pending) &&
	    (READ_ONCE(global_trace.trace_flags) & TRACE_ITER_RECORD_CMD))
		trace_save_cmdline_wait(t->pid, t->comm);
	WRITE_ONCE(t->trace_cmdline_pending, false);
}

/* After record-cmd was off: the next event of each task saves its name again. */
void tracing_forget_cmdline_tasks(void)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		WRITE_ONCE(cpus[cpu].trace_cmdline_task, NULL);
}

void tracing_generic_entry_update(struct trace_entry *entry, unsigned short type,
				  unsigned int trace_ctx)
{
	tracing_entry_update(entry, type, trace_ctx);
}

/*
 * The frame-pointer walk of arch/x86_64/traps.c show_stack(), made safe to run anywhere
 * without asking the page tables: a frame is believed only if it lies inside the current
 * task's stack, above the previous one, and returns into kernel text. (An NMI on its own stack
 * gets no frames: fine for a trace.)
 */
int trace_save_stack(unsigned long *store, int size)
{
	unsigned long rbp = (unsigned long)__builtin_frame_address(0);
	struct task *t = current;
	unsigned long lo, hi;
	int n = 0;

	if (!t || !t->stack)
		return 0;
	lo = (unsigned long)t->stack;
	hi = lo + KSTACK_SIZE;
	while (n < size && rbp >= lo && rbp + 2 * sizeof(long) <= hi && !(rbp & 7)) {
		/* the graph tracer or a kretprobe may have borrowed it: the real one */
		unsigned long ret = unwind_recover_ret_addr(t, ((unsigned long *)rbp)[1],
							    (unsigned long *)rbp + 1);
		unsigned long next = ((unsigned long *)rbp)[0];

		if (ret < (unsigned long)_text || ret >= (unsigned long)_etext)
			break;
		store[n++] = ret;
		if (next <= rbp)
			break; /* frames go up the stack; anything else is not a frame */
		rbp = next;
	}
	return n;
}

/*
 * Records a TRACE_STACK event. The walk starts inside the tracer; from, if found among the
 * return addresses, is where the interesting part begins (for the function tracer: the return
 * into the traced function from ftrace_caller's fake frame), so the tracer's own frames are
 * left out whatever the compiler inlined.
 */
void __trace_stack(struct trace_array *tr, unsigned int trace_ctx, unsigned long from)
{
	unsigned long frames[FTRACE_STACK_ENTRIES + STACK_SKIP_SLACK];
	struct ring_buffer_event *event;
	struct stack_entry *entry;
	int n = trace_save_stack(frames, ARRAY_SIZE(frames)), first = 0, count;

	for (int i = 0; from && i < n; i++) {
		if (frames[i] == from) {
			first = i;
			break;
		}
	}
	count = MIN(n - first, FTRACE_STACK_ENTRIES);
	event = ring_buffer_lock_reserve(tr->buffer,
					 sizeof(*entry) + (unsigned long)count * sizeof(long));
	if (!event)
		return;
	entry = ring_buffer_event_data(event);
	tracing_generic_entry_update(&entry->ent, TRACE_STACK, trace_ctx);
	entry->size = count;
	for (int i = 0; i < count; i++)
		entry->caller[i] = frames[first + i];
	ring_buffer_unlock_commit(tr->buffer);
}

/* --- on and off ---------------------------------------------------------------------------- */

void tracer_tracing_on(struct trace_array *tr)
{
	if (tr->buffer)
		ring_buffer_record_on(tr->buffer);
}

void tracer_tracing_off(struct trace_array *tr)
{
	if (tr->buffer)
		ring_buffer_record_off(tr->buffer);
}

bool tracer_tracing_is_on(struct trace_array *tr)
{
	return tr->buffer && ring_buffer_record_is_set_on(tr->buffer);
}

/* For kernel code: freeze the trace at the moment something interesting happened. */
void tracing_on(void)
{
	tracer_tracing_on(&global_trace);
}

void tracing_off(void)
{
	tracer_tracing_off(&global_trace);
}

bool tracing_is_on(void)
{
	return tracer_tracing_is_on(&global_trace);
}

void tracing_reset_online_cpus(struct trace_array *tr)
{
	if (!tr->buffer)
		return;
	ring_buffer_reset(tr->buffer);
	tr->time_start = ring_buffer_time_stamp(tr->buffer);
}

void tracing_reset_cpu(struct trace_array *tr, int cpu)
{
	if (tr->buffer)
		ring_buffer_reset_cpu(tr->buffer, cpu);
}

int tracing_num_online_cpus(void)
{
	return num_online_cpus();
}

/* --- sizes and options --------------------------------------------------------------------- */

/* size in bytes per CPU; -ENOMEM (nothing changed) if it cannot be had, as Linux says. */
int tracing_resize_ring_buffer(struct trace_array *tr, unsigned long size, int cpu)
{
	int ret;

	if (cpu != RING_BUFFER_ALL_CPUS && (cpu < 0 || cpu >= tr->nr_cpus))
		return -EINVAL;
	mutex_lock(&trace_types_lock);
	ret = ring_buffer_resize(tr->buffer, size, cpu);
	if (!ret) {
		for (int c = 0; c < tr->nr_cpus; c++)
			if (cpu == RING_BUFFER_ALL_CPUS || c == cpu)
				tr->buffer_size[c] = size;
	}
	mutex_unlock(&trace_types_lock);
	return ret;
}

/* A core option; the caller holds trace_types_lock. */
void set_tracer_flag(struct trace_array *tr, unsigned int mask, int enabled)
{
	lockdep_assert_held(&trace_types_lock);
	if (!!(tr->trace_flags & mask) == !!enabled)
		return;
	if (mask == TRACE_ITER_RECORD_TGID && enabled && trace_alloc_tgid_map()) {
		printk(KERN_WARNING "tracing: no memory for record-tgid's map\n");
		return;
	}
	if (mask == TRACE_ITER_OVERWRITE) {
		ring_buffer_change_overwrite(tr->buffer, enabled);
		if (tr->snapshot_buffer) /* its per-CPU parts may be swapped in */
			ring_buffer_change_overwrite(tr->snapshot_buffer, enabled);
	}
	WRITE_ONCE(tr->trace_flags, enabled ? tr->trace_flags | mask : tr->trace_flags & ~mask);
	if (tr->current_trace->flag_changed)
		tr->current_trace->flag_changed(tr, mask, enabled);
	if ((mask == TRACE_ITER_RECORD_CMD || mask == TRACE_ITER_RECORD_TGID) && enabled)
		tracing_forget_cmdline_tasks(); /* names (tgids) of tasks seen while it was off */
}

/* A tracer's option; the tracer may refuse. The caller holds trace_types_lock. */
int set_tracer_option(struct trace_array *tr, struct tracer_flags *flags,
		      struct tracer_opt *opt, int set)
{
	lockdep_assert_held(&trace_types_lock);
	int ret = 0;

	if (!!(flags->val & opt->bit) == !!set)
		return 0;
	if (flags->trace && flags->trace->set_flag)
		ret = flags->trace->set_flag(tr, flags->val, opt->bit, set);
	if (ret)
		return ret;
	flags->val = set ? flags->val | opt->bit : flags->val & ~opt->bit;
	return 0;
}

/* --- tracers ------------------------------------------------------------------------------- */

int register_tracer(struct tracer *t)
{
	int ret = 0;

	if (!t->name || !t->name[0] || strlen(t->name) >= MAX_TRACER_SIZE) {
		pr_err("tracer with a bad name: not registered\n");
		return -EINVAL;
	}
	mutex_lock(&trace_types_lock);
	for (struct tracer *p = trace_types; p; p = p->next) {
		if (strcmp(p->name, t->name) == 0) {
			pr_err("tracer %s already registered\n", t->name);
			ret = -EBUSY;
			goto out;
		}
	}
	if (t->flags)
		t->flags->trace = t;
	t->next = trace_types;
	trace_types = t; /* newest first: available_tracers lists them so */
	tracing_create_tracer_options(t);
out:
	mutex_unlock(&trace_types_lock);
	return ret;
}

/*
 * A module's tracer leaves with its module (its exit calls this). A module keeps a reference
 * while its tracer is current (its init takes one), so rmmod refuses until another tracer is
 * chosen; should one still be current here, nop takes over, as a tracer that failed would.
 * Tracer options (t->flags) would leave files behind: a module's tracer has none.
 */
void unregister_tracer(struct tracer *t)
{
	struct tracer **p;

	mutex_lock(&trace_types_lock);
	if (global_trace.current_trace == t) {
		if (t->reset)
			t->reset(&global_trace);
		global_trace.current_trace = &nop_trace;
		tracing_reset_online_cpus(&global_trace);
	}
	for (p = &trace_types; *p; p = &(*p)->next) {
		if (*p == t) {
			*p = t->next;
			break;
		}
	}
	mutex_unlock(&trace_types_lock);
}

int tracing_set_tracer(struct trace_array *tr, const char *name)
{
	struct tracer *t;
	int ret = 0;

	mutex_lock(&trace_types_lock);
	for (t = trace_types; t; t = t->next)
		if (strcmp(t->name, name) == 0)
			break;
	if (!t || (tr != &global_trace && !t->allow_instances)) {
		ret = -EINVAL;
	} else if (t == tr->current_trace) {
		ret = 0; /* writing the current name changes nothing, not even the buffer */
	} else if (tr->trace_ref) {
		ret = -EBUSY; /* a trace_pipe reader is printing with the current tracer */
	} else {
		if (tr->current_trace->reset)
			tr->current_trace->reset(tr);
		tr->current_trace = &nop_trace;
		tracing_reset_online_cpus(tr);
		if (t->init)
			ret = t->init(tr);
		if (!ret)
			tr->current_trace = t;
	}
	mutex_unlock(&trace_types_lock);
	return ret;
}

/* --- boot ---------------------------------------------------------------------------------- */

extern struct tracer *const __start_tracers[], *const __stop_tracers[];

/*
 * Linux sizes the buffers for the possible CPUs: those the firmware lists, online or not yet
 * (maxcpus=N leaves some never started; nosmp makes the boot CPU the only possible one).
 */
static int tracing_possible_cpus(void)
{
	return MAX(num_possible_cpus(), num_online_cpus());
}

/*
 * Boot, in two steps. tracing_init() runs before the other CPUs start (it needs the heap,
 * ftrace_init() and the scheduler): the buffer, the events, the tracers, and the command line's
 * filters, options and ftrace=NAME, so that `ftrace=function` sees the other CPUs come up.
 * tracing_init_tracefs() runs once the VFS exists: the files. ftrace_selftest runs the
 * self-tests (trace/trace_selftest.c); trace/trace_boot.c has the other options.
 */
void tracing_init(void)
{
	struct trace_array *tr = &global_trace;
	unsigned long size = trace_boot_buf_size();
	char name[MAX_TRACER_SIZE];

	tr->nr_cpus = tracing_possible_cpus(); /* from the MADT: the CPUs that will start */
	tr->buffer = ring_buffer_alloc(size, RB_FL_OVERWRITE, tr->nr_cpus);
	if (!tr->buffer && size != TRACE_BUF_SIZE_DEFAULT) {
		pr_warn("tracing: trace_buf_size=%lu is too big: the default size instead\n", size);
		size = TRACE_BUF_SIZE_DEFAULT;
		tr->buffer = ring_buffer_alloc(size, RB_FL_OVERWRITE, tr->nr_cpus);
	}
	if (!tr->buffer) {
		pr_err("tracing: cannot allocate the trace buffer\n");
		return;
	}
	for (int cpu = 0; cpu < tr->nr_cpus; cpu++)
		tr->buffer_size[cpu] = size;
	ring_buffer_set_clock(tr->buffer, trace_clocks[tr->clock_id].func);
	trace_boot_clock(tr); /* trace_clock=: before the first event, as Linux */
	trace_boot_snapshot(tr); /* alloc_snapshot: the spare, from boot */
	trace_boot_traceoff_on_warning();
	tr->ops.private = tr;
	tr->event_pids = &event_pid_filter;
	tr->function_pids = &ftrace_pid_filter;
	event_trace_early_init(); /* the trace events, before tracers that use them */
	register_trace_event(&trace_user_stack_event); /* kept apart: it asks for tasks */
	register_tracer(&nop_trace);
	for (struct tracer *const *p = __start_tracers; p < __stop_tracers; p++)
		register_tracer(*p);
	if (cmdline_has("ftrace_selftest"))
		trace_selftest_run(); /* before ftrace=: the tests start from nop */
	trace_boot_filters(tr);        /* the tracer starts with its filters in place */
	trace_boot_options(tr, true);  /* core options before the first event */
	if (cmdline_get("ftrace", name, sizeof(name)) && tracing_set_tracer(tr, name))
		pr_info("ftrace bootup tracer '%s' not registered.\n", name); /* Linux's words */
	trace_boot_options(tr, false); /* again: the tracer's own options exist now */
}

/*
 * Linux's late_trace_init(), at the end of boot, before the first user task (here the shell):
 * tp_printk_stop_on_boot turns tp_printk off, so that events print on the console while the
 * kernel boots, and not once someone is typing at it.
 */
void late_trace_init(void)
{
	if (READ_ONCE(tracepoint_printk) && cmdline_has("tp_printk_stop_on_boot"))
		WRITE_ONCE(tracepoint_printk, 0);
}

void tracing_init_tracefs(void)
{
	struct trace_array *tr = &global_trace;
	uint64_t ptr_key;

	if (!tr->buffer)
		return;
	tracer_init_tracefs(tr);
	mutex_lock(&trace_types_lock);
	for (struct tracer *t = trace_types; t; t = t->next)
		tracing_create_tracer_options(t); /* registered before options/ existed */
	mutex_unlock(&trace_types_lock);
	get_random_bytes(&ptr_key, sizeof(ptr_key)); /* hash-ptr's key: the boot's own */
	trace_hash_ptr_init(ptr_key);
	event_trace_init(); /* the events' files, and trace_event= */
	trace_instances_init_tracefs(); /* instances/: mkdir makes one */
	init_dynamic_event(); /* dynamic_events, then its kinds: */
	init_kprobe_trace();
	trace_events_eprobe_init();
	trace_events_synth_init(); /* synthetic_events */
	init_uprobe_trace(); /* uprobe_events, uprobe_profile */
	ftrace_dump_init(); /* ftrace_dump_on_oops: the option, its /proc file, the notifier */
	traceoff_on_warning_init_sysctl();
	ftrace_init_sysctl(); /* /proc/sys/kernel/ftrace_enabled */
	trace_snapshot_trigger_init(); /* "func:snapshot"'s thread, asleep until needed */
	osnoise_init_tracefs(); /* osnoise/: the osnoise and timerlat tracers' settings */
	hwlat_init_tracefs(); /* hwlat_detector/ */
}

/* Never probed: every event records its context with these (kernel/kprobes.h). */
NOKPROBE_SYMBOL(tracing_gen_ctx);
NOKPROBE_SYMBOL(tracing_gen_ctx_dec);
