/* The exceptions:* trace events: page faults, from user mode and from the kernel. */

/*
 * Linux's (arch/x86/include/asm/trace/exceptions.h, the x86_exceptions class), record and line:
 *
 *   page_fault_user: address=0x401000 ip=0x401000 error_code=0x14
 *   page_fault_kernel: address=0x7ffffffde000 ip=__clear_user error_code=0x2
 *
 * The addresses print as %ps does: a kernel symbol's name where there is one, else 0x and hex,
 * which is all a user address ever gets. A demand-paged stack or heap page shows here as the
 * fault that maps it; a copy_to_user that faults on a bad pointer as a kernel fault.
 *
 * Not traced, as all of trace/: the probes run inside the page-fault handler.
 */
#include "trace/trace_events.h"
#include "trace/events/exceptions.h"
#include "arch/x86_64/regs.h"

struct trace_event_raw_x86_exceptions {
	struct trace_entry ent;
	unsigned long address;
	unsigned long ip;
	unsigned long error_code;
};

#define XE struct trace_event_raw_x86_exceptions
static const struct trace_event_field x86_exceptions_fields[] = {
	TRACE_FIELD(XE, unsigned long, address),
	TRACE_FIELD(XE, unsigned long, ip),
	TRACE_FIELD(XE, unsigned long, error_code),
	TRACE_FIELD_END,
};
#undef XE

/* Both events share the record and the probe, as Linux's share the event class. */
static void probe_x86_exceptions(void *data, unsigned long address, struct pt_regs *regs,
				 unsigned long error_code)
{
	struct trace_event_call *call = data;
	struct trace_event_raw_x86_exceptions *r = trace_event_buffer_reserve(call, sizeof(*r));

	if (!r)
		return;
	r->address = address;
	r->ip = regs->rip;
	r->error_code = error_code;
	trace_event_buffer_commit(call, r, sizeof(*r));
}

static enum print_line_t x86_exceptions_output(struct trace_iterator *iter, unsigned int flags,
					       struct trace_event *event)
{
	struct trace_event_raw_x86_exceptions *r = trace_raw_output_prep(iter, event);
	struct trace_seq *s = &iter->seq;

	(void)flags;
	if (r)
		trace_seq_printf(s, "address=%ps ip=%ps error_code=0x%lx\n", (void *)r->address,
				 (void *)r->ip, r->error_code);
	return trace_handle_return(s);
}

#define X86_EXCEPTIONS_PRINT_FMT                                                     \
	TRACE_PRINT_FMT("address=%ps ip=%ps error_code=0x%lx", (void *)REC->address, \
			(void *)REC->ip, REC->error_code)

struct trace_event_call event_page_fault_user = {
	.system = "exceptions",
	.name = "page_fault_user",
	.fields = x86_exceptions_fields,
	.size = sizeof(struct trace_event_raw_x86_exceptions),
	.print_fmt = X86_EXCEPTIONS_PRINT_FMT,
	.event = {.trace = x86_exceptions_output},
	.tp = &__tracepoint_page_fault_user,
	.probe = TRACEPOINT_PROBE(page_fault_user, probe_x86_exceptions),
};
REGISTER_TRACE_EVENT(event_page_fault_user);

struct trace_event_call event_page_fault_kernel = {
	.system = "exceptions",
	.name = "page_fault_kernel",
	.fields = x86_exceptions_fields,
	.size = sizeof(struct trace_event_raw_x86_exceptions),
	.print_fmt = X86_EXCEPTIONS_PRINT_FMT,
	.event = {.trace = x86_exceptions_output},
	.tp = &__tracepoint_page_fault_kernel,
	.probe = TRACEPOINT_PROBE(page_fault_kernel, probe_x86_exceptions),
};
REGISTER_TRACE_EVENT(event_page_fault_kernel);
