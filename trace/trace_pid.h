/*
 * Pid filters: which tasks a tracer records. Two pairs of tracefs files, one mechanism:
 *
 *   set_ftrace_pid, set_ftrace_notrace_pid  the function and function_graph tracers
 *   set_event_pid, set_event_notrace_pid    the trace events
 *
 * Each pair is a struct trace_pid_filter: a list of the pids to trace (NULL: every task) and a
 * list of the pids not to (NULL: none); a task in both is not traced (Linux's
 * trace_ignore_this_task). With the pair's option set (function-fork, event-fork), a fork adds
 * the child to each list that holds its parent, and an exit takes the task out of both.
 *
 * The tracers read the lists without a lock, on every call: in_force is the one load they pay
 * while neither list is set. A writer (under trace_types_lock) fills the copy of a list that is
 * not published and then publishes it. A reader still on the old copy while a second write
 * reuses it could misfilter one event; it cannot fault.
 */
#ifndef TRACE_TRACE_PID_H
#define TRACE_TRACE_PID_H

#include "lib/compiler.h"
#include <stdbool.h>

#define TRACE_PID_MAX 32 /* pids a list holds */

struct trace_pid_list {
	int nr;
	int pids[TRACE_PID_MAX];
};

enum trace_pid_kind {
	TRACE_PIDS, /* set_*_pid: only these */
	TRACE_NO_PIDS, /* set_*_notrace_pid: never these */
	TRACE_PID_KINDS,
};

struct trace_pid_filter {
	bool in_force; /* either list is published: read first, by every event */
	unsigned int fork_option; /* the trace_options bit that follows forks and exits */
	struct trace_pid_list *lists[TRACE_PID_KINDS]; /* published; NULL: not in force */
	struct trace_pid_list copies[TRACE_PID_KINDS][2]; /* what lists[] points into */
};

extern struct trace_pid_filter ftrace_pid_filter; /* set_ftrace_pid, set_ftrace_notrace_pid */
extern struct trace_pid_filter event_pid_filter; /* set_event_pid, set_event_notrace_pid */

/* Is pid filtered out? Only once in_force was seen set. */
bool trace_ignore_this_task(struct trace_pid_filter *f, int pid);
bool trace_ignore_current(struct trace_pid_filter *f);

/*
 * Called by fork and exit (kernel/fork.c, kernel/exit.c): the options' following. Both may
 * sleep.
 */
void trace_pid_follow_fork(int parent_pid, int child_pid);
void trace_pid_follow_exit(int pid);

#endif
