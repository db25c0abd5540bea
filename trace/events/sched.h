/*
 * The scheduler's events (Linux's include/trace/events/sched.h), byte for byte in their records
 * and character for character in their lines:
 *
 *   sched_switch: prev_comm=sh prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=swapper/1 ...
 *   sched_waking: comm=sh pid=1 prio=120 target_cpu=000
 *   sched_wakeup: comm=sh pid=1 prio=120 target_cpu=001
 *   sched_wakeup_new: comm=ls pid=9 prio=120 target_cpu=002
 *   sched_migrate_task: comm=ls pid=9 prio=120 orig_cpu=2 dest_cpu=1
 *   sched_process_exit: comm=ls pid=9 prio=120
 *   sched_process_free: comm=ls pid=9 prio=120
 *   sched_process_fork: comm=spawn pid=20 child_comm=spawn child_pid=21
 *   sched_process_exec: filename=/bin/hello pid=21 old_pid=21
 *   sched_process_wait: comm=spawn pid=21 prio=120
 *
 * Hit in kernel/sched/sched.c, kthread.c, fork.c and kernel/fs/exec.c; defined by
 * trace/trace_events_sched.c (trace/define_trace.h says how). Linux's sched_stat_runtime is
 * not here: it reports CFS's virtual runtime, which Lucid's round-robin scheduler has not.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE "trace/events/sched.h"

#ifndef TRACE_EVENTS_SCHED_DEFS_H
#define TRACE_EVENTS_SCHED_DEFS_H
#include <stdbool.h>
struct task;

/*
 * prev_state is not the task's state word but Linux's report of it: 0 for running ("R"), one
 * bit per letter otherwise, and TASK_REPORT_MAX for a task that was preempted ("R+": it was
 * still runnable). Linux's values (include/linux/sched.h), which its format shows.
 */
#define TASK_REPORT_RUNNING 0x00000000
#define TASK_REPORT_S 0x00000001 /* TASK_INTERRUPTIBLE */
#define TASK_REPORT_D 0x00000002 /* TASK_UNINTERRUPTIBLE */
#define TASK_REPORT_T 0x00000004 /* stopped */
#define TASK_REPORT_t 0x00000008 /* traced */
#define TASK_REPORT_X 0x00000010 /* EXIT_DEAD */
#define TASK_REPORT_Z 0x00000020 /* EXIT_ZOMBIE */
#define TASK_REPORT_P 0x00000040 /* parked */
#define TASK_REPORT_I 0x00000080 /* idle (a kernel thread's sleep) */
#define TASK_REPORT                                                                            \
	(TASK_REPORT_RUNNING | TASK_REPORT_S | TASK_REPORT_D | TASK_REPORT_T | TASK_REPORT_t | \
	 TASK_REPORT_X | TASK_REPORT_Z | TASK_REPORT_P)
#define TASK_REPORT_IDLE (TASK_REPORT + 1)
#define TASK_REPORT_MAX (TASK_REPORT_IDLE << 1) /* "preempted": the '+' */
/* sched_switch's probe has __trace_sched_switch_state() (trace/trace_events_sched.c). */

#endif

#if !defined(TRACE_EVENTS_SCHED_H) || defined(TRACE_HEADER_MULTI_READ)
#define TRACE_EVENTS_SCHED_H

#include "kernel/tracepoint.h"

/*
 * The declarations keep Linux's layout, a field a line (and a print fmt's spacing is its
 * text): clang-format does not know it.
 */
/* clang-format off */

/*
 * __schedule() is about to switch from prev to next; preempt: prev did not ask to sleep.
 * set_event_pid keeps it if it keeps prev (the current task) or next.
 */
TRACE_EVENT_PID(sched_switch,
	TP_PROTO(bool preempt, struct task *prev, struct task *next),
	TP_ARGS(preempt, prev, next),
	next->pid,
	TP_STRUCT__entry(
		__array(char, prev_comm, TASK_COMM_LEN)
		__field(pid_t, prev_pid)
		__field(int, prev_prio)
		__field(long, prev_state)
		__array(char, next_comm, TASK_COMM_LEN)
		__field(pid_t, next_pid)
		__field(int, next_prio)
	),
	TP_fast_assign(
		memcpy(__entry->prev_comm, prev->comm, TASK_COMM_LEN);
		__entry->prev_pid = prev->pid;
		__entry->prev_prio = prev->prio;
		__entry->prev_state = __trace_sched_switch_state(preempt, prev);
		memcpy(__entry->next_comm, next->comm, TASK_COMM_LEN);
		__entry->next_pid = next->pid;
		__entry->next_prio = next->prio;
	),
	TP_printk("prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
		  "next_pid=%d next_prio=%d",
		__entry->prev_comm, __entry->prev_pid, __entry->prev_prio,
		(__entry->prev_state & (TASK_REPORT_MAX - 1)) ?
		__print_flags(__entry->prev_state & (TASK_REPORT_MAX - 1), "|",
			      { TASK_REPORT_S, "S" }, { TASK_REPORT_D, "D" },
			      { TASK_REPORT_T, "T" }, { TASK_REPORT_t, "t" },
			      { TASK_REPORT_X, "X" }, { TASK_REPORT_Z, "Z" },
			      { TASK_REPORT_P, "P" }, { TASK_REPORT_I, "I" }) : "R",
		__entry->prev_state & TASK_REPORT_MAX ? "+" : "",
		__entry->next_comm, __entry->next_pid, __entry->next_prio)
);

/*
 * A task p about to be woken (sched_waking, on the waker's CPU, p->cpu its last one), woken
 * (sched_wakeup: p->cpu is where it will run; hit with that queue locked, so it cannot change
 * under the probe), or woken for the first time after fork (sched_wakeup_new). set_event_pid
 * keeps them if it keeps the waker or p.
 */
DECLARE_EVENT_CLASS_PID(sched_wakeup_template,
	TP_PROTO(struct task *p),
	TP_ARGS(p),
	p->pid,
	TP_STRUCT__entry(
		__array(char, comm, TASK_COMM_LEN)
		__field(pid_t, pid)
		__field(int, prio)
		__field(int, target_cpu)
	),
	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid = p->pid;
		__entry->prio = p->prio;
		__entry->target_cpu = p->cpu;
	),
	TP_printk("comm=%s pid=%d prio=%d target_cpu=%03d",
		  __entry->comm, __entry->pid, __entry->prio, __entry->target_cpu)
);
DEFINE_EVENT(sched_wakeup_template, sched_waking, TP_PROTO(struct task *p), TP_ARGS(p));
DEFINE_EVENT(sched_wakeup_template, sched_wakeup, TP_PROTO(struct task *p), TP_ARGS(p));
DEFINE_EVENT(sched_wakeup_template, sched_wakeup_new, TP_PROTO(struct task *p), TP_ARGS(p));

/* p moves from the queue of p->cpu to dest_cpu's (a wakeup elsewhere, a steal, an affinity). */
TRACE_EVENT(sched_migrate_task,
	TP_PROTO(struct task *p, int dest_cpu),
	TP_ARGS(p, dest_cpu),
	TP_STRUCT__entry(
		__array(char, comm, TASK_COMM_LEN)
		__field(pid_t, pid)
		__field(int, prio)
		__field(int, orig_cpu)
		__field(int, dest_cpu)
	),
	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid = p->pid;
		__entry->prio = p->prio;
		__entry->orig_cpu = p->cpu;
		__entry->dest_cpu = dest_cpu;
	),
	TP_printk("comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d",
		  __entry->comm, __entry->pid, __entry->prio,
		  __entry->orig_cpu, __entry->dest_cpu)
);

/* p (current) is exiting (sched_process_exit); p, dead and reaped, is freed (..._free). */
DECLARE_EVENT_CLASS(sched_process_template,
	TP_PROTO(struct task *p),
	TP_ARGS(p),
	TP_STRUCT__entry(
		__array(char, comm, TASK_COMM_LEN)
		__field(pid_t, pid)
		__field(int, prio)
	),
	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid = p->pid;
		__entry->prio = p->prio;
	),
	TP_printk("comm=%s pid=%d prio=%d",
		  __entry->comm, __entry->pid, __entry->prio)
);
DEFINE_EVENT(sched_process_template, sched_process_exit, TP_PROTO(struct task *p), TP_ARGS(p));
DEFINE_EVENT(sched_process_template, sched_process_free, TP_PROTO(struct task *p), TP_ARGS(p));

/* p (current) waits for pid (0: any child), in wait4: its comm and prio, the pid waited for. */
TRACE_EVENT(sched_process_wait,
	TP_PROTO(struct task *p, int pid),
	TP_ARGS(p, pid),
	TP_STRUCT__entry(
		__array(char, comm, TASK_COMM_LEN)
		__field(pid_t, pid)
		__field(int, prio)
	),
	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid = pid;
		__entry->prio = p->prio;
	),
	TP_printk("comm=%s pid=%d prio=%d",
		  __entry->comm, __entry->pid, __entry->prio)
);

/* parent (current) forked child, which is not yet running (kernel/fork.c). */
TRACE_EVENT(sched_process_fork,
	TP_PROTO(struct task *parent, struct task *child),
	TP_ARGS(parent, child),
	TP_STRUCT__entry(
		__array(char, parent_comm, TASK_COMM_LEN)
		__field(pid_t, parent_pid)
		__array(char, child_comm, TASK_COMM_LEN)
		__field(pid_t, child_pid)
	),
	TP_fast_assign(
		memcpy(__entry->parent_comm, parent->comm, TASK_COMM_LEN);
		__entry->parent_pid = parent->pid;
		memcpy(__entry->child_comm, child->comm, TASK_COMM_LEN);
		__entry->child_pid = child->pid;
	),
	TP_printk("comm=%s pid=%d child_comm=%s child_pid=%d",
		__entry->parent_comm, __entry->parent_pid,
		__entry->child_comm, __entry->child_pid)
);

/*
 * p (current) became the program in filename (as exec was given it), its comm set already
 * (kernel/fs/exec.c).
 */
TRACE_EVENT(sched_process_exec,
	TP_PROTO(struct task *p, int old_pid, const char *filename),
	TP_ARGS(p, old_pid, filename),
	TP_STRUCT__entry(
		__string(filename, filename)
		__field(pid_t, pid)
		__field(pid_t, old_pid)
	),
	TP_fast_assign(
		__assign_str(filename, filename);
		__entry->pid = p->pid;
		__entry->old_pid = old_pid;
	),
	TP_printk("filename=%s pid=%d old_pid=%d", __get_str(filename),
		  __entry->pid, __entry->old_pid)
);

/* clang-format on */

#endif /* TRACE_EVENTS_SCHED_H */

#include "trace/define_trace.h"
