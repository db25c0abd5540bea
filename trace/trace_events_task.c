/*
 * The task:* trace events: declared in trace/events/task.h, defined here.
 * Not traced, as all of trace/: the probes run where the events are hit.
 */
#include "kernel/sched/sched.h"
#include "lib/string.h"
#define CREATE_TRACE_EVENTS
#include "trace/events/task.h"
