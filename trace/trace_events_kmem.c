/*
 * The kmem:* trace events: declared in trace/events/kmem.h, defined here.
 * Not traced, as all of trace/: the probes run inside the allocators.
 */
#include "kernel/mm/page_alloc.h"
#define CREATE_TRACE_EVENTS
#include "trace/events/kmem.h"
