/* The irq:* trace events: a device interrupt's handler starting and returning. */

/*
 * Declared in trace/events/irq.h; this file defines them (trace/define_trace.h says how).
 * irq_handler_exit is written out by hand below, as the exhibit of what TRACE_EVENT() makes
 * of a declaration: the record's struct, the fields table, the probe, the output function,
 * the print fmt and the struct trace_event_call, each as the macro writes it (the unit test,
 * tests/unit/test_trace_events.c, makes it with the macro too and checks the two agree).
 *
 * Not traced, as all of trace/: the probes run in interrupt context.
 */
#define CREATE_TRACE_EVENTS
#include "trace/events/irq.h"

/* --- irq_handler_exit, by hand ---------------------------------------------------------------- */

/* 1. The record: TP_STRUCT__entry's fields after the header every record has. */
struct trace_event_raw_irq_handler_exit {
	struct trace_entry ent;
	int irq;
	int ret;
	char __data[]; /* the strings of __string() fields: it has none */
};

/* 2. The fields table, for the format file and the filters. */
static notrace const struct trace_event_field *trace_event_fields_irq_handler_exit(void)
{
	typedef struct trace_event_raw_irq_handler_exit rec_t;
	static const struct trace_event_field fields[] = {
		{.type = "int",
		 .name = "irq",
		 .offset = offsetof(rec_t, irq),
		 .size = sizeof(((rec_t *)0)->irq),
		 .is_signed = is_signed_type(int)},
		{.type = "int",
		 .name = "ret",
		 .offset = offsetof(rec_t, ret),
		 .size = sizeof(((rec_t *)0)->ret),
		 .is_signed = is_signed_type(int)},
		TRACE_FIELD_END,
	};
	return fields;
}

/*
 * 3. Where the strings go: nowhere, it has none (trace_event_get_offsets_NAME() returns 0).
 * 4. The probe: reserve, fill (TP_fast_assign), commit.
 */
static notrace void trace_event_raw_event_irq_handler_exit(void *__data, int irq, int ret)
{
	struct trace_event_call *__call = __data;
	struct trace_event_raw_irq_handler_exit *__entry;

	__entry = trace_event_buffer_reserve_pid(__call, sizeof(*__entry), TRACE_NO_OTHER_PID);
	if (!__entry)
		return;
	__entry->irq = irq;
	__entry->ret = ret;
	trace_event_buffer_commit(__call, __entry, sizeof(*__entry));
}

/* 5. The line in trace: TP_printk's format and arguments, on the record. */
static notrace enum print_line_t trace_raw_output_irq_handler_exit(struct trace_iterator *iter,
								   unsigned int flags,
								   struct trace_event *event)
{
	struct trace_event_raw_irq_handler_exit *field = trace_raw_output_prep(iter, event);

	(void)flags;
	if (field)
		trace_seq_printf(&iter->seq, "irq=%d ret=%s\n", field->irq,
				 field->ret ? "handled" : "unhandled");
	return trace_handle_return(&iter->seq);
}

/* 6. TP_printk as text, with the record called REC, for tools; and the event. */
static const char print_fmt_irq_handler_exit[] =
	"\"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"";

struct trace_event_call event_irq_handler_exit = {
	.system = "irq",
	.name = "irq_handler_exit",
	.define_fields = trace_event_fields_irq_handler_exit,
	.size = sizeof(struct trace_event_raw_irq_handler_exit),
	.print_fmt = print_fmt_irq_handler_exit,
	.event = {.trace = trace_raw_output_irq_handler_exit},
	.tp = &__tracepoint_irq_handler_exit,
	.probe = TRACEPOINT_PROBE(irq_handler_exit, trace_event_raw_event_irq_handler_exit),
};
REGISTER_TRACE_EVENT(event_irq_handler_exit);
