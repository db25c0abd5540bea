/*
 * The system-call tracepoints (Linux's include/trace/events/syscalls.h, the hooks only): hit in
 * arch/x86_64/syscall_64.c on the way into every system call and out of it, turned into the
 * raw_syscalls:sys_enter and raw_syscalls:sys_exit trace events by
 * trace/trace_events_syscalls.c. kernel/tracepoint.h says what a tracepoint is.
 */
#ifndef TRACE_EVENTS_SYSCALLS_H
#define TRACE_EVENTS_SYSCALLS_H

#include "kernel/tracepoint.h"

struct pt_regs;

/* A system call is about to run: its number id, its arguments in regs. */
DECLARE_TRACE(sys_enter, TP_PROTO(struct pt_regs *regs, long id), TP_ARGS(regs, id));

/* ... and returns ret (the number is regs->orig_rax). */
DECLARE_TRACE(sys_exit, TP_PROTO(struct pt_regs *regs, long ret), TP_ARGS(regs, ret));

#endif
