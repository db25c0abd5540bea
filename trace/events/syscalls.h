/*
 * The raw system-call events (Linux's include/trace/events/syscalls.h): hit in
 * arch/x86_64/syscall_64.c on the way into every system call and out of it; the pair brackets
 * do_syscall_64's call through the table:
 *
 *   sys_enter: NR 1 (1, 4020f0, e, 0, 0, 0)
 *   sys_exit: NR 1 = 14
 *
 * The six argument registers are recorded whatever the call takes, in hex, as Linux records
 * them: what they mean is the system call's business (syscalls:sys_enter_NAME, per call,
 * trace/trace_syscalls.c, shares these tracepoints). Defined by trace/trace_events_syscalls.c.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM raw_syscalls
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE "trace/events/syscalls.h"

#ifndef TRACE_EVENTS_SYSCALLS_DEFS_H
#define TRACE_EVENTS_SYSCALLS_DEFS_H
#define SYSCALL_ARGS 6 /* the x86_64 ABI's argument registers */
#endif

#if !defined(TRACE_EVENTS_SYSCALLS_H) || defined(TRACE_HEADER_MULTI_READ)
#define TRACE_EVENTS_SYSCALLS_H

#include "kernel/tracepoint.h"

/*
 * The declarations keep Linux's layout, a field a line (and a print fmt's spacing is its
 * text): clang-format does not know it.
 */
/* clang-format off */

struct pt_regs;

/* A system call is about to run: its number id, its arguments in regs. */
TRACE_EVENT(sys_enter,
	TP_PROTO(struct pt_regs *regs, long id),
	TP_ARGS(regs, id),
	TP_STRUCT__entry(
		__field(long, id)
		__array(unsigned long, args, SYSCALL_ARGS)
	),
	TP_fast_assign(
		__entry->id = id;
		/* In the ABI's order: R10 stands in for RCX. */
		__entry->args[0] = regs->rdi;
		__entry->args[1] = regs->rsi;
		__entry->args[2] = regs->rdx;
		__entry->args[3] = regs->r10;
		__entry->args[4] = regs->r8;
		__entry->args[5] = regs->r9;
	),
	TP_printk("NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)",
		  __entry->id,
		  __entry->args[0], __entry->args[1], __entry->args[2],
		  __entry->args[3], __entry->args[4], __entry->args[5])
);

/* ... and returns ret (the number is regs->orig_rax). */
TRACE_EVENT(sys_exit,
	TP_PROTO(struct pt_regs *regs, long ret),
	TP_ARGS(regs, ret),
	TP_STRUCT__entry(
		__field(long, id)
		__field(long, ret)
	),
	TP_fast_assign(
		__entry->id = (long)regs->orig_rax;
		__entry->ret = ret;
	),
	TP_printk("NR %ld = %ld", __entry->id, __entry->ret)
);

/* clang-format on */

#endif /* TRACE_EVENTS_SYSCALLS_H */

#include "trace/define_trace.h"
