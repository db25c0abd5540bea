/* The raw_syscalls:* trace events: every system call entering the kernel and leaving it. */

/*
 * Linux's (include/trace/events/syscalls.h), record and line:
 *
 *   sys_enter: NR 1 (1, 4020f0, e, 0, 0, 0)
 *   sys_exit: NR 1 = 14
 *
 * The six argument registers are recorded whatever the call takes, in hex, as Linux records
 * them: what they mean is the system call's business (syscalls:sys_enter_NAME, per call, is
 * for later). The pair brackets do_syscall_64's call through the table.
 *
 * Not traced, as all of trace/: the probes run inside the traced code's tracepoint.
 */
#include "trace/trace_events.h"
#include "trace/events/syscalls.h"
#include "arch/x86_64/regs.h"

#define SYSCALL_ARGS 6

/* --- sys_enter -------------------------------------------------------------------------------- */

struct trace_event_raw_sys_enter {
	struct trace_entry ent;
	long id;
	unsigned long args[SYSCALL_ARGS];
};

static const struct trace_event_field sys_enter_fields[] = {
	TRACE_FIELD(struct trace_event_raw_sys_enter, long, id),
	TRACE_FIELD_ARRAY(struct trace_event_raw_sys_enter, unsigned long, args, SYSCALL_ARGS),
	TRACE_FIELD_END,
};

static void probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	struct trace_event_call *call = data;
	struct trace_event_raw_sys_enter *r = trace_event_buffer_reserve(call, sizeof(*r));

	if (!r)
		return;
	r->id = id;
	/* The x86_64 ABI's argument registers, in order: R10 stands in for RCX. */
	r->args[0] = regs->rdi;
	r->args[1] = regs->rsi;
	r->args[2] = regs->rdx;
	r->args[3] = regs->r10;
	r->args[4] = regs->r8;
	r->args[5] = regs->r9;
	trace_event_buffer_commit(call, r, sizeof(*r));
}

static enum print_line_t sys_enter_output(struct trace_iterator *iter, unsigned int flags,
					  struct trace_event *event)
{
	struct trace_event_raw_sys_enter *r = trace_raw_output_prep(iter, event);
	struct trace_seq *s = &iter->seq;

	(void)flags;
	if (r)
		trace_seq_printf(s, "NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\n", r->id, r->args[0],
				 r->args[1], r->args[2], r->args[3], r->args[4], r->args[5]);
	return trace_handle_return(s);
}

struct trace_event_call event_sys_enter = {
	.system = "raw_syscalls",
	.name = "sys_enter",
	.fields = sys_enter_fields,
	.size = sizeof(struct trace_event_raw_sys_enter),
	.print_fmt = TRACE_PRINT_FMT("NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)", REC->id, REC->args[0],
				     REC->args[1], REC->args[2], REC->args[3], REC->args[4],
				     REC->args[5]),
	.event = {.trace = sys_enter_output},
	.tp = &__tracepoint_sys_enter,
	.probe = TRACEPOINT_PROBE(sys_enter, probe_sys_enter),
};
REGISTER_TRACE_EVENT(event_sys_enter);

/* --- sys_exit --------------------------------------------------------------------------------- */

struct trace_event_raw_sys_exit {
	struct trace_entry ent;
	long id;
	long ret;
};

static const struct trace_event_field sys_exit_fields[] = {
	TRACE_FIELD(struct trace_event_raw_sys_exit, long, id),
	TRACE_FIELD(struct trace_event_raw_sys_exit, long, ret),
	TRACE_FIELD_END,
};

static void probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct trace_event_call *call = data;
	struct trace_event_raw_sys_exit *r = trace_event_buffer_reserve(call, sizeof(*r));

	if (!r)
		return;
	r->id = (long)regs->orig_rax;
	r->ret = ret;
	trace_event_buffer_commit(call, r, sizeof(*r));
}

static enum print_line_t sys_exit_output(struct trace_iterator *iter, unsigned int flags,
					 struct trace_event *event)
{
	struct trace_event_raw_sys_exit *r = trace_raw_output_prep(iter, event);
	struct trace_seq *s = &iter->seq;

	(void)flags;
	if (r)
		trace_seq_printf(s, "NR %ld = %ld\n", r->id, r->ret);
	return trace_handle_return(s);
}

struct trace_event_call event_sys_exit = {
	.system = "raw_syscalls",
	.name = "sys_exit",
	.fields = sys_exit_fields,
	.size = sizeof(struct trace_event_raw_sys_exit),
	.print_fmt = TRACE_PRINT_FMT("NR %ld = %ld", REC->id, REC->ret),
	.event = {.trace = sys_exit_output},
	.tp = &__tracepoint_sys_exit,
	.probe = TRACEPOINT_PROBE(sys_exit, probe_sys_exit),
};
REGISTER_TRACE_EVENT(event_sys_exit);
