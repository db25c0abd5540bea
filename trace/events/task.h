/*
 * The task events (Linux's include/trace/events/task.h, 6.1):
 *
 *   task_newtask: pid=21 comm=bash clone_flags=1200011 oom_score_adj=0
 *   task_rename: pid=21 oldcomm=bash newcomm=ls oom_score_adj=0
 *
 * task_newtask: fork/clone made task (its comm still the parent's); task_rename: task's comm
 * becomes comm (exec, prctl(PR_SET_NAME)). Lucid has no OOM killer: oom_score_adj is 0, Linux's
 * default. Hit in kernel/fork.c, kernel/fs/exec.c, kernel/sys.c; defined by
 * trace/trace_events_task.c.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM task
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE "trace/events/task.h"

#ifndef TRACE_EVENTS_TASK_DEFS_H
#define TRACE_EVENTS_TASK_DEFS_H
struct task;
#define TRACE_OOM_SCORE_ADJ 0 /* Linux's default, the only one Lucid has */
#endif

#if !defined(TRACE_EVENTS_TASK_H) || defined(TRACE_HEADER_MULTI_READ)
#define TRACE_EVENTS_TASK_H

#include "kernel/tracepoint.h"

/*
 * The declarations keep Linux's layout, a field a line (and a print fmt's spacing is its
 * text): clang-format does not know it.
 */
/* clang-format off */

TRACE_EVENT(task_newtask,
	TP_PROTO(struct task *task, unsigned long clone_flags),
	TP_ARGS(task, clone_flags),
	TP_STRUCT__entry(
		__field(pid_t, pid)
		__array(char, comm, TASK_COMM_LEN)
		__field(unsigned long, clone_flags)
		__field(short, oom_score_adj)
	),
	TP_fast_assign(
		__entry->pid = task->pid;
		memcpy(__entry->comm, task->comm, TASK_COMM_LEN);
		__entry->clone_flags = clone_flags;
		__entry->oom_score_adj = TRACE_OOM_SCORE_ADJ;
	),
	TP_printk("pid=%d comm=%s clone_flags=%lx oom_score_adj=%hd",
		__entry->pid, __entry->comm,
		__entry->clone_flags, __entry->oom_score_adj)
);

TRACE_EVENT(task_rename,
	TP_PROTO(struct task *task, const char *comm),
	TP_ARGS(task, comm),
	TP_STRUCT__entry(
		__field(pid_t, pid)
		__array(char, oldcomm, TASK_COMM_LEN)
		__array(char, newcomm, TASK_COMM_LEN)
		__field(short, oom_score_adj)
	),
	TP_fast_assign(
		__entry->pid = task->pid;
		memcpy(__entry->oldcomm, task->comm, TASK_COMM_LEN);
		strlcpy(__entry->newcomm, comm, TASK_COMM_LEN);
		__entry->oom_score_adj = TRACE_OOM_SCORE_ADJ;
	),
	TP_printk("pid=%d oldcomm=%s newcomm=%s oom_score_adj=%hd",
		__entry->pid, __entry->oldcomm,
		__entry->newcomm, __entry->oom_score_adj)
);

/* clang-format on */

#endif /* TRACE_EVENTS_TASK_H */

#include "trace/define_trace.h"
