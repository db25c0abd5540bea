/* The irq:* trace events: a device interrupt's handler starting and returning. */

/*
 * Linux's (include/trace/events/irq.h), record and line:
 *
 *   irq_handler_entry: irq=4 name=ttyS0
 *   irq_handler_exit: irq=4 ret=handled
 *
 * The pair brackets the handler in arch/x86_64/idt.c, so the time between them is the
 * handler's, and events recorded in between happened inside it. Only device interrupts have
 * them (those given a name with request_irq()); the tick and the IPIs do not, as in Linux.
 *
 * The handler's name is a string of any length: the record keeps it after its fixed part,
 * and the name field (a "__data_loc char[]") says where (trace/trace_events.h).
 *
 * Not traced, as all of trace/: the probes run in interrupt context.
 */
#include "trace/trace_events.h"
#include "trace/events/irq.h"
#include "lib/string.h"

#define IRQ_NAME_MAX 64 /* longer handler names are cut: a record must fit a buffer page */

/* --- irq_handler_entry ------------------------------------------------------------------------ */

struct trace_event_raw_irq_handler_entry {
	struct trace_entry ent;
	int irq;
	uint32_t __data_loc_name;
	char __data[]; /* the name */
};

static const struct trace_event_field irq_handler_entry_fields[] = {
	TRACE_FIELD(struct trace_event_raw_irq_handler_entry, int, irq),
	TRACE_FIELD_STRING(struct trace_event_raw_irq_handler_entry, name),
	TRACE_FIELD_END,
};

static void probe_irq_handler_entry(void *data, int irq, const char *name)
{
	struct trace_event_call *call = data;
	struct trace_event_raw_irq_handler_entry *r;
	unsigned int len = (unsigned int)strnlen(name, IRQ_NAME_MAX - 1) + 1; /* with its NUL */

	r = trace_event_buffer_reserve(call, sizeof(*r) + len);
	if (!r)
		return;
	r->irq = irq;
	trace_event_set_str(r, &r->__data_loc_name, offsetof(typeof(*r), __data), name, len);
	trace_event_buffer_commit(call, r, sizeof(*r) + len);
}

static enum print_line_t
irq_handler_entry_output(struct trace_iterator *iter, unsigned int flags, struct trace_event *event)
{
	struct trace_event_raw_irq_handler_entry *r = trace_raw_output_prep(iter, event);
	struct trace_seq *s = &iter->seq;
	const char *name;
	int len;

	(void)flags;
	if (r) {
		name = trace_event_get_str(iter, r->__data_loc_name, &len);
		trace_seq_printf(s, "irq=%d name=%.*s\n", r->irq, len, name);
	}
	return trace_handle_return(s);
}

struct trace_event_call event_irq_handler_entry = {
	.system = "irq",
	.name = "irq_handler_entry",
	.fields = irq_handler_entry_fields,
	.size = sizeof(struct trace_event_raw_irq_handler_entry),
	.print_fmt = TRACE_PRINT_FMT("irq=%d name=%s", REC->irq, __get_str(name)),
	.event = {.trace = irq_handler_entry_output},
	.tp = &__tracepoint_irq_handler_entry,
	.probe = TRACEPOINT_PROBE(irq_handler_entry, probe_irq_handler_entry),
};
REGISTER_TRACE_EVENT(event_irq_handler_entry);

/* --- irq_handler_exit ------------------------------------------------------------------------- */

struct trace_event_raw_irq_handler_exit {
	struct trace_entry ent;
	int irq;
	int ret;
};

static const struct trace_event_field irq_handler_exit_fields[] = {
	TRACE_FIELD(struct trace_event_raw_irq_handler_exit, int, irq),
	TRACE_FIELD(struct trace_event_raw_irq_handler_exit, int, ret),
	TRACE_FIELD_END,
};

static void probe_irq_handler_exit(void *data, int irq, int ret)
{
	struct trace_event_call *call = data;
	struct trace_event_raw_irq_handler_exit *r = trace_event_buffer_reserve(call, sizeof(*r));

	if (!r)
		return;
	r->irq = irq;
	r->ret = ret;
	trace_event_buffer_commit(call, r, sizeof(*r));
}

static enum print_line_t
irq_handler_exit_output(struct trace_iterator *iter, unsigned int flags, struct trace_event *event)
{
	struct trace_event_raw_irq_handler_exit *r = trace_raw_output_prep(iter, event);
	struct trace_seq *s = &iter->seq;

	(void)flags;
	if (r)
		trace_seq_printf(s, "irq=%d ret=%s\n", r->irq, r->ret ? "handled" : "unhandled");
	return trace_handle_return(s);
}

struct trace_event_call event_irq_handler_exit = {
	.system = "irq",
	.name = "irq_handler_exit",
	.fields = irq_handler_exit_fields,
	.size = sizeof(struct trace_event_raw_irq_handler_exit),
	.print_fmt = TRACE_PRINT_FMT("irq=%d ret=%s", REC->irq, REC->ret ? "handled" : "unhandled"),
	.event = {.trace = irq_handler_exit_output},
	.tp = &__tracepoint_irq_handler_exit,
	.probe = TRACEPOINT_PROBE(irq_handler_exit, probe_irq_handler_exit),
};
REGISTER_TRACE_EVENT(event_irq_handler_exit);
