/* The commands of set_ftrace_filter: traceon, traceoff and stacktrace, with or without a count. */

/*
 * "func:traceoff" stops recording each time func is called: the trace then ends where func was
 * called, however long it takes a user to notice and "echo 0 > tracing_on". "func:traceon"
 * starts it again. "func:stacktrace" records the stack of each call: who called func.
 *
 * With a count, ":N", a command does its work at most N times per function, and only the times
 * it did something count, as Linux's README says: traceoff decrements when it turned tracing
 * off, not when it was off already; stacktrace decrements only while recording is on. The
 * decrement is a compare-and-swap from the value the command started with, so two CPUs calling
 * func at once never use up one count twice (and never fire once too often: only one of them
 * can turn tracing off).
 *
 * These run from the probe callback (trace/ftrace_probe.c), in the traced function's context,
 * with preemption off. Not traced, as all of trace/.
 */
#include "trace/ftrace_probe.h"
#include "trace/trace.h"
#include "arch/x86_64/ftrace.h"
#include "lib/string.h"

/* --- traceon, traceoff -------------------------------------------------------------------- */

static void set_tracing(struct trace_array *tr, bool on)
{
	if (on)
		tracer_tracing_on(tr);
	else
		tracer_tracing_off(tr);
}

static void ftrace_traceon(unsigned long ip, unsigned long parent_ip,
			   struct trace_array *tr, long *count)
{
	(void)ip;
	(void)parent_ip;
	(void)count;
	if (!tracer_tracing_is_on(tr))
		set_tracing(tr, true);
}

static void ftrace_traceoff(unsigned long ip, unsigned long parent_ip,
			    struct trace_array *tr, long *count)
{
	(void)ip;
	(void)parent_ip;
	(void)count;
	if (tracer_tracing_is_on(tr))
		set_tracing(tr, false);
}

/* Switches tracing to on if it is not, and then uses up one count. */
static void update_traceon_count(struct trace_array *tr, long *count, bool on)
{
	long old = __atomic_load_n(count, __ATOMIC_ACQUIRE);

	if (old <= 0)
		return;
	if (on == tracer_tracing_is_on(tr))
		return; /* nothing to do: it does not count */
	set_tracing(tr, on);
	/* Lost to another CPU that did the same at the same time: one count for the two. */
	__atomic_compare_exchange_n(count, &old, old - 1, false, __ATOMIC_RELEASE,
				    __ATOMIC_RELAXED);
}

static void ftrace_traceon_count(unsigned long ip, unsigned long parent_ip,
				 struct trace_array *tr, long *count)
{
	(void)ip;
	(void)parent_ip;
	update_traceon_count(tr, count, true);
}

static void ftrace_traceoff_count(unsigned long ip, unsigned long parent_ip,
				  struct trace_array *tr, long *count)
{
	(void)ip;
	(void)parent_ip;
	update_traceon_count(tr, count, false);
}

/* --- stacktrace --------------------------------------------------------------------------- */

/* The stack from the function on: ftrace_caller's frame returns just past its call site. */
static void trace_probe_stack(struct trace_array *tr, unsigned long ip)
{
	__trace_stack(tr, tracing_gen_ctx_dec(), ip + MCOUNT_INSN_SIZE);
}

static void ftrace_stacktrace(unsigned long ip, unsigned long parent_ip,
			      struct trace_array *tr, long *count)
{
	(void)parent_ip;
	(void)count;
	trace_probe_stack(tr, ip);
}

static void ftrace_stacktrace_count(unsigned long ip, unsigned long parent_ip,
				    struct trace_array *tr, long *count)
{
	long old;

	(void)parent_ip;
	if (!tracer_tracing_is_on(tr))
		return;
	old = __atomic_load_n(count, __ATOMIC_RELAXED);
	/* Retry if another CPU took a count meanwhile: a stack per count, no more. */
	while (old != 0) {
		if (__atomic_compare_exchange_n(count, &old, old - 1, false, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED)) {
			trace_probe_stack(tr, ip);
			return;
		}
		if (!tracer_tracing_is_on(tr))
			return;
	}
}

/* --- the table ---------------------------------------------------------------------------- */

static const struct ftrace_probe_ops traceon_probe_ops = {"traceon", false, ftrace_traceon};
static const struct ftrace_probe_ops traceon_count_probe_ops = {"traceon", true,
								ftrace_traceon_count};
static const struct ftrace_probe_ops traceoff_probe_ops = {"traceoff", false, ftrace_traceoff};
static const struct ftrace_probe_ops traceoff_count_probe_ops = {"traceoff", true,
								 ftrace_traceoff_count};
static const struct ftrace_probe_ops stacktrace_probe_ops = {"stacktrace", false,
							     ftrace_stacktrace};
static const struct ftrace_probe_ops stacktrace_count_probe_ops = {"stacktrace", true,
								   ftrace_stacktrace_count};

static const struct ftrace_func_command ftrace_commands[] = {
	{"traceon", &traceon_probe_ops, &traceon_count_probe_ops, NULL},
	{"traceoff", &traceoff_probe_ops, &traceoff_count_probe_ops, NULL},
	{"stacktrace", &stacktrace_probe_ops, &stacktrace_count_probe_ops, NULL},
	{"snapshot", &snapshot_probe_ops, &snapshot_count_probe_ops, /* trace_snapshot_trigger.c */
	 trace_snapshot_trigger_setup},
};

const struct ftrace_func_command *ftrace_find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(ftrace_commands); i++)
		if (!strcmp(ftrace_commands[i].name, name))
			return &ftrace_commands[i];
	return NULL;
}
