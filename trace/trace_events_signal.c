/*
 * The signal:* trace events: declared in trace/events/signal.h, defined here.
 * Not traced, as all of trace/: the probes run where the events are hit.
 */
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#define CREATE_TRACE_EVENTS
#include "trace/events/signal.h"
