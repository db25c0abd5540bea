/*
 * The exceptions:* trace events: declared in trace/events/exceptions.h, defined here.
 * Not traced, as all of trace/: the probes run inside the page-fault handler.
 */
#include "arch/x86_64/regs.h"
#define CREATE_TRACE_EVENTS
#include "trace/events/exceptions.h"
