/*
 * The raw_syscalls:* trace events: declared in trace/events/syscalls.h, defined here.
 * Not traced, as all of trace/: the probes run inside the traced code's tracepoint.
 */
#include "arch/x86_64/regs.h"
#define CREATE_TRACE_EVENTS
#include "trace/events/syscalls.h"
