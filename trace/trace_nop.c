/* The nop tracer: records nothing of its own; current_tracer at boot and between tracers. */

/*
 * With nop current, the buffer still takes events from anyone else who writes into it
 * (trace_marker, trace_printk, events): nop only means "no tracer adds its own". Not traced,
 * like the rest of trace/ (there is nothing here to trace anyway).
 */
#include "trace/trace.h"

/* Registered first by tracing_init() itself (the core falls back to it), not by section. */
struct tracer nop_trace = {
	.name = "nop",
	.allow_instances = true,
};
