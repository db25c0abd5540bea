/* uprobe events (trace/trace_uprobe.c): uprobe_events and uprobe_profile. */
#ifndef TRACE_TRACE_UPROBE_H
#define TRACE_TRACE_UPROBE_H

void init_uprobe_trace(void); /* boot: the two files, at the top of tracefs */

#endif
