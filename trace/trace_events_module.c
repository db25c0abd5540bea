/*
 * The module:* trace events: declared in trace/events/module.h, defined here.
 * Not traced, as all of trace/: the probes run where the events are hit.
 */
#include "kernel/module/module.h"
#define CREATE_TRACE_EVENTS
#include "trace/events/module.h"
