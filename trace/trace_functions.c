/* The function tracer: one event per call of every traced kernel function. */

/*
 * "echo function > current_tracer" registers global_trace.ops with dynamic ftrace, which turns
 * the NOP at the start of each wanted function (set_ftrace_filter, set_ftrace_notrace) into a
 * call to ftrace_caller; that calls function_trace_call() with the function's address and its
 * caller's. The callback records one TRACE_FN event: "func <-parent".
 *
 * The callback runs inside every traced function, so it must be cheap and must never run
 * itself: the recursion lock (trace/ftrace.h) turns away a second entry in the same context on
 * this CPU (an interrupt may still trace), and everything it calls is untraced. Not traced, for
 * that reason.
 *
 * Options: func_stack_trace adds a stack trace event after each function event (expensive:
 * use it with a filter). set_ftrace_pid and set_ftrace_notrace_pid restrict recording to some
 * tasks (trace/trace_pid.h).
 */
#include "trace/trace.h"
#include "trace/trace_ctx.h"
#include "trace/ring_buffer.h"
#include "trace/func_args.h"
#include "arch/x86_64/ftrace.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "kernel/locking/lockdep.h"

#define TRACE_FUNC_OPT_STACK 0x1
#define TRACE_FUNC_OPT_ARGS 0x4 /* Linux's bit (0x2 is func-no-repeats, which Lucid lacks) */

/* The option names have dashes, which clang-format would space out. */
/* clang-format off */
static struct tracer_opt func_opts[] = {
	TRACER_OPT(func_stack_trace, TRACE_FUNC_OPT_STACK),
	TRACER_OPT(func-args, TRACE_FUNC_OPT_ARGS),
	{NULL, 0},
};
/* clang-format on */
static struct tracer_flags func_flags = {.val = 0, .opts = func_opts};
static bool func_stack_trace; /* read by the callback on every call */

/*
 * One TRACE_FN event: "func <-parent". Here rather than in trace.c as in Linux, and inline: it
 * runs on every traced call, and a call would cost the registers it saves.
 */
static __always_inline void trace_function(struct trace_array *tr, unsigned long ip,
					   unsigned long parent_ip, unsigned int trace_ctx)
{
	struct ring_buffer_event *event;
	struct ftrace_entry *entry;

	event = ring_buffer_lock_reserve(tr->buffer, sizeof(*entry));
	if (!event)
		return; /* tracing is off, or the buffer is full in producer/consumer mode */
	entry = ring_buffer_event_data(event);
	tracing_entry_update(&entry->ent, TRACE_FN, trace_ctx);
	entry->ip = ip;
	entry->parent_ip = parent_ip;
	ring_buffer_unlock_commit(tr->buffer);
}

static void function_trace_call(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct trace_array *tr = op->private;
	unsigned int trace_ctx;
	int bit;

	(void)fregs;
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	if (ftrace_trace_task_inline()) {
		trace_ctx = tracing_gen_ctx_dec_inline();
		trace_function(tr, ip, parent_ip, trace_ctx);
		/* The stack from the traced function on: ftrace_caller's frame returns there. */
		if (unlikely(READ_ONCE(func_stack_trace)))
			__trace_stack(tr, trace_ctx, ip + MCOUNT_INSN_SIZE);
	}
	ftrace_test_recursion_unlock(bit);
}

/*
 * func-args (Linux 6.15): the same event, with the traced function's six argument registers
 * after it, "func(a=1, b=0x...) <-parent" (trace/func_args.c). A callback of its own, chosen
 * when the tracer starts or the option changes, so that function_trace_call, the common case,
 * costs not one instruction more.
 */
static void function_args_trace_call(unsigned long ip, unsigned long parent_ip,
				     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct trace_array *tr = op->private;
	struct ring_buffer_event *event;
	struct ftrace_entry *entry;
	unsigned int trace_ctx;
	int bit;

	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	if (ftrace_trace_task_inline()) {
		trace_ctx = tracing_gen_ctx_dec_inline();
		event = ring_buffer_lock_reserve(tr->buffer, sizeof(*entry) + FGRAPH_ENT_NR_ARGS *
										      sizeof(long));
		if (event) {
			entry = ring_buffer_event_data(event);
			tracing_entry_update(&entry->ent, TRACE_FN, trace_ctx);
			entry->ip = ip;
			entry->parent_ip = parent_ip;
			ftrace_regs_get_arguments(fregs, entry->args);
			ring_buffer_unlock_commit(tr->buffer);
		}
		if (unlikely(READ_ONCE(func_stack_trace)))
			__trace_stack(tr, trace_ctx, ip + MCOUNT_INSN_SIZE);
	}
	ftrace_test_recursion_unlock(bit);
}

static bool func_args; /* func-args: which callback function_trace_init registers */

/*
 * An instance's callback (trace/trace_instances.c): its own set_ftrace_pid lists
 * (tr->function_pids); func_stack_trace is the top level's (one value in Lucid), so an
 * instance records no stacks. A callback of its own keeps the top level's path as it was.
 */
static void instance_function_trace_call(unsigned long ip, unsigned long parent_ip,
					 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct trace_array *tr = op->private;
	struct trace_pid_filter *pids = tr->function_pids;
	int bit;

	(void)fregs;
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	if (!READ_ONCE(pids->in_force) || !trace_ignore_current(pids))
		trace_function(tr, ip, parent_ip, tracing_gen_ctx_dec_inline());
	ftrace_test_recursion_unlock(bit);
}

static int function_trace_init(struct trace_array *tr)
{
	if (tr != &global_trace)
		tr->ops.func = instance_function_trace_call;
	else
		tr->ops.func =
			READ_ONCE(func_args) ? function_args_trace_call : function_trace_call;
	tr->ops.private = tr;
	return register_ftrace_function(&tr->ops);
}

static void function_trace_reset(struct trace_array *tr)
{
	unregister_ftrace_function(&tr->ops);
}

/*
 * tracing_on 0 -> 1 starts a fresh trace, as Linux's function tracer does: "echo 1 >
 * tracing_on; run_test; echo 0 > tracing_on" then shows just run_test.
 */
static void function_trace_start(struct trace_array *tr)
{
	tracing_reset_online_cpus(tr);
}

static struct tracer function_trace;

static int func_set_flag(struct trace_array *tr, uint32_t old_flags, uint32_t bit,
			 int set)
{
	(void)old_flags;
	if (bit == TRACE_FUNC_OPT_STACK) {
		WRITE_ONCE(func_stack_trace, !!set);
		return 0;
	}
	if (bit != TRACE_FUNC_OPT_ARGS)
		return -EINVAL;
	if (READ_ONCE(func_args) == !!set)
		return 0;
	WRITE_ONCE(func_args, !!set);
	/* Running: switch callbacks, as Linux does (unregister, then register the other). */
	if (tr->current_trace == &function_trace) {
		unregister_ftrace_function(&tr->ops);
		return function_trace_init(tr);
	}
	return 0;
}

static struct tracer function_trace = {
	.name = "function",
	.init = function_trace_init,
	.reset = function_trace_reset,
	.start = function_trace_start,
	.flags = &func_flags,
	.set_flag = func_set_flag,
	.allow_instances = true, /* each instance's ops: its own set_ftrace_filter */
};
REGISTER_TRACER(function_trace);
