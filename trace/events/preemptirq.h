/*
 * The interrupt-flag and preemption tracepoints (Linux's include/trace/events/preemptirq.h):
 * hit by trace/trace_preemptirq.c's hooks when a CPU turns interrupts (or preemption) off or
 * back on, turned into the preemptirq:* trace events there. caller is the code that did it,
 * parent its caller. Turning the first probe on turns the hooks on (DEFINE_TRACE_FN).
 */
#ifndef TRACE_EVENTS_PREEMPTIRQ_H
#define TRACE_EVENTS_PREEMPTIRQ_H

#include "kernel/tracepoint.h"

DECLARE_TRACE(irq_disable, TP_PROTO(unsigned long ip, unsigned long parent_ip),
	      TP_ARGS(ip, parent_ip));
DECLARE_TRACE(irq_enable, TP_PROTO(unsigned long ip, unsigned long parent_ip),
	      TP_ARGS(ip, parent_ip));
DECLARE_TRACE(preempt_disable, TP_PROTO(unsigned long ip, unsigned long parent_ip),
	      TP_ARGS(ip, parent_ip));
DECLARE_TRACE(preempt_enable, TP_PROTO(unsigned long ip, unsigned long parent_ip),
	      TP_ARGS(ip, parent_ip));

/*
 * The latency tracers (trace/trace_irqsoff.c), called by the hooks on each real transition, as
 * Linux's tracer_hardirqs_off & co; a0 is the caller, a1 its parent.
 */
void tracer_hardirqs_on(unsigned long a0, unsigned long a1);
void tracer_hardirqs_off(unsigned long a0, unsigned long a1);
void tracer_preempt_on(unsigned long a0, unsigned long a1);
void tracer_preempt_off(unsigned long a0, unsigned long a1);

/* The hooks' C halves, which the thunks call (arch/x86_64/thunk_64.S). */
void trace_hardirqs_off_caller(unsigned long a0, const unsigned long *fp);
void trace_hardirqs_on_caller(unsigned long a0, const unsigned long *fp);
void trace_preempt_off_caller(unsigned long a0, const unsigned long *fp);
void trace_preempt_on_caller(unsigned long a0, const unsigned long *fp);

/* The tracers take the hooks while they run (a count: the events take them too). */
void irqflags_hook_get(void);
void irqflags_hook_put(void);
void preempt_hook_get(void);
void preempt_hook_put(void);

#endif
