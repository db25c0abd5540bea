/*
 * The timer:* trace events: declared in trace/events/timer.h, defined here.
 * Not traced, as all of trace/: the probes run where the events are hit.
 */
#include "kernel/time/timer.h"
#define CREATE_TRACE_EVENTS
#include "trace/events/timer.h"
