/*
 * The scheduler's tracepoints (Linux's include/trace/events/sched.h, the hooks only): defined
 * in kernel/sched/sched.c, kernel/sched/kthread.c and kernel/sched/fork.c, turned into the sched:* trace events by
 * trace/trace_events_sched.c. kernel/tracepoint.h says what a tracepoint is.
 */
#ifndef TRACE_EVENTS_SCHED_H
#define TRACE_EVENTS_SCHED_H

#include <stdbool.h>
#include "kernel/tracepoint.h"

struct task;

/* __schedule() is about to switch from prev to next; preempt: prev did not ask to sleep. */
DECLARE_TRACE(sched_switch, TP_PROTO(bool preempt, struct task *prev, struct task *next),
	      TP_ARGS(preempt, prev, next));

/* p became runnable (p->cpu is where it will run). */
DECLARE_TRACE(sched_wakeup, TP_PROTO(struct task *p), TP_ARGS(p));

/* A new task was woken for the first time (wake_up_new_task). */
DECLARE_TRACE(sched_wakeup_new, TP_PROTO(struct task *p), TP_ARGS(p));

/* p (current) is exiting. */
DECLARE_TRACE(sched_process_exit, TP_PROTO(struct task *p), TP_ARGS(p));

/* parent (current) forked child, which is not yet running (kernel/sched/fork.c). */
DECLARE_TRACE(sched_process_fork, TP_PROTO(struct task *parent, struct task *child),
	      TP_ARGS(parent, child));

/* p (current) became the program in filename, its comm set already (kernel/fs/exec.c). */
DECLARE_TRACE(sched_process_exec, TP_PROTO(struct task *p, int old_pid, const char *filename),
	      TP_ARGS(p, old_pid, filename));

/* p (current) waits for pid (0: any child), in wait4 (kernel/sched/fork.c). */
DECLARE_TRACE(sched_process_wait, TP_PROTO(struct task *p, int pid), TP_ARGS(p, pid));

#endif
