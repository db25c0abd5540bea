/*
 * The signal events (Linux's include/trace/events/signal.h, 6.1):
 *
 *   signal_generate: sig=2 errno=0 code=128 comm=sleep pid=12 grp=1 res=0
 *   signal_deliver: sig=2 errno=0 code=128 sa_handler=0 sa_flags=0
 *
 * signal_generate: a signal sent to task, whatever became of it (res: TRACE_SIGNAL_*, below);
 * grp: to the whole process (kill, a job's signal, SIGCHLD), or to that one thread (tkill, a
 * fault's). signal_deliver: the task takes the next of its signals, with the action it will
 * take (sa_handler 0: the default, 1: ignore). Hit in kernel/signal.c; defined by
 * trace/trace_events_signal.c. Lucid's siginfo has no errno: it is 0, as Linux's usually is.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM signal
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE "trace/events/signal.h"

#ifndef TRACE_EVENTS_SIGNAL_DEFS_H
#define TRACE_EVENTS_SIGNAL_DEFS_H
struct task;
struct ksiginfo;
struct k_sigaction;

/* What became of a signal sent (Linux's enum, its values). */
enum {
	TRACE_SIGNAL_DELIVERED, /* pending now */
	TRACE_SIGNAL_IGNORED,
	TRACE_SIGNAL_ALREADY_PENDING, /* a standard signal: the two are one */
	TRACE_SIGNAL_OVERFLOW_FAIL, /* a real-time signal's queue was full: not sent */
	TRACE_SIGNAL_LOSE_INFO, /* ... full, but kill()'s signal is pending all the same */
};
#endif

#if !defined(TRACE_EVENTS_SIGNAL_H) || defined(TRACE_HEADER_MULTI_READ)
#define TRACE_EVENTS_SIGNAL_H

#include "kernel/tracepoint.h"

/*
 * The declarations keep Linux's layout, a field a line (and a print fmt's spacing is its
 * text): clang-format does not know it.
 */
/* clang-format off */

TRACE_EVENT(signal_generate,
	TP_PROTO(int sig, const struct ksiginfo *info, struct task *task, int group, int result),
	TP_ARGS(sig, info, task, group, result),
	TP_STRUCT__entry(
		__field(int, sig)
		__field(int, errno)
		__field(int, code)
		__array(char, comm, TASK_COMM_LEN)
		__field(pid_t, pid)
		__field(int, group)
		__field(int, result)
	),
	TP_fast_assign(
		__entry->sig = sig;
		__entry->errno = 0;
		__entry->code = info->code;
		memcpy(__entry->comm, task->comm, TASK_COMM_LEN);
		__entry->pid = task->pid;
		__entry->group = group;
		__entry->result = result;
	),
	TP_printk("sig=%d errno=%d code=%d comm=%s pid=%d grp=%d res=%d",
		  __entry->sig, __entry->errno, __entry->code,
		  __entry->comm, __entry->pid, __entry->group,
		  __entry->result)
);

TRACE_EVENT(signal_deliver,
	TP_PROTO(int sig, const struct ksiginfo *info, const struct k_sigaction *ka),
	TP_ARGS(sig, info, ka),
	TP_STRUCT__entry(
		__field(int, sig)
		__field(int, errno)
		__field(int, code)
		__field(unsigned long, sa_handler)
		__field(unsigned long, sa_flags)
	),
	TP_fast_assign(
		__entry->sig = sig;
		__entry->errno = 0;
		__entry->code = info->code;
		__entry->sa_handler = ka->handler;
		__entry->sa_flags = ka->flags;
	),
	TP_printk("sig=%d errno=%d code=%d sa_handler=%lx sa_flags=%lx",
		  __entry->sig, __entry->errno, __entry->code,
		  __entry->sa_handler, __entry->sa_flags)
);

/* clang-format on */

#endif /* TRACE_EVENTS_SIGNAL_H */

#include "trace/define_trace.h"
