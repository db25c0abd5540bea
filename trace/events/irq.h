/*
 * The interrupt tracepoints (Linux's include/trace/events/irq.h, the hooks only): defined and
 * hit in arch/x86_64/idt.c around every device interrupt handler, turned into the irq:* trace
 * events by trace/trace_events_irq.c. kernel/tracepoint.h says what a tracepoint is.
 */
#ifndef TRACE_EVENTS_IRQ_H
#define TRACE_EVENTS_IRQ_H

#include "kernel/tracepoint.h"

/* What a handler did with its interrupt, as Linux's irqreturn_t. */
#define IRQ_NONE 0 /* not ours */
#define IRQ_HANDLED 1 /* dealt with */

/* The handler of device interrupt irq, named name (as /proc/interrupts names it), is called. */
DECLARE_TRACE(irq_handler_entry, TP_PROTO(int irq, const char *name), TP_ARGS(irq, name));

/* ... and returned ret (IRQ_HANDLED or IRQ_NONE). */
DECLARE_TRACE(irq_handler_exit, TP_PROTO(int irq, int ret), TP_ARGS(irq, ret));

#endif
