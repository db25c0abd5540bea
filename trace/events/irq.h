/*
 * The interrupt events (Linux's include/trace/events/irq.h): hit in arch/x86_64/idt.c around
 * every device interrupt handler, so the time between them is the handler's, and events
 * recorded in between happened inside it. Only device interrupts have them (those given a
 * name with request_irq()); the tick and the IPIs do not, as in Linux:
 *
 *   irq_handler_entry: irq=4 name=ttyS0
 *   irq_handler_exit: irq=4 ret=handled
 *
 * Declared once each (trace/define_trace.h); trace/trace_events_irq.c defines them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM irq
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE "trace/events/irq.h"

#ifndef TRACE_EVENTS_IRQ_DEFS_H
#define TRACE_EVENTS_IRQ_DEFS_H
/* What a handler did with its interrupt, as Linux's irqreturn_t. */
#define IRQ_NONE 0 /* not ours */
#define IRQ_HANDLED 1 /* dealt with */
#endif

#if !defined(TRACE_EVENTS_IRQ_H) || defined(TRACE_HEADER_MULTI_READ)
#define TRACE_EVENTS_IRQ_H

#include "kernel/tracepoint.h"

/*
 * The declarations keep Linux's layout, a field a line (and a print fmt's spacing is its
 * text): clang-format does not know it.
 */
/* clang-format off */

/* The handler of device interrupt irq, named name (as /proc/interrupts names it), is called. */
TRACE_EVENT(irq_handler_entry,
	TP_PROTO(int irq, const char *name),
	TP_ARGS(irq, name),
	TP_STRUCT__entry(
		__field(int, irq)
		__string(name, name)
	),
	TP_fast_assign(
		__entry->irq = irq;
		__assign_str(name, name);
	),
	TP_printk("irq=%d name=%s", __entry->irq, __get_str(name))
);

/*
 * ... and returned ret (IRQ_HANDLED or IRQ_NONE). Written out by hand in
 * trace/trace_events_irq.c, as the exhibit of what TRACE_EVENT() makes: TRACE_EVENT_BY_HAND
 * is its tracepoint only, and tests/unit/test_trace_events.c checks the two agree.
 */
#ifndef TRACE_EVENT_BY_HAND
#define TRACE_EVENT_BY_HAND(name, proto, args, tstruct, assign, print) \
	DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
#endif
TRACE_EVENT_BY_HAND(irq_handler_exit,
	TP_PROTO(int irq, int ret),
	TP_ARGS(irq, ret),
	TP_STRUCT__entry(
		__field(int, irq)
		__field(int, ret)
	),
	TP_fast_assign(
		__entry->irq = irq;
		__entry->ret = ret;
	),
	TP_printk("irq=%d ret=%s", __entry->irq, __entry->ret ? "handled" : "unhandled")
);

/* clang-format on */

#endif /* TRACE_EVENTS_IRQ_H */

#include "trace/define_trace.h"
