/*
 * The page-fault tracepoints (Linux's arch/x86/include/asm/trace/exceptions.h, the hooks only):
 * hit at the top of the page-fault handler (arch/x86_64/traps.c), one for a fault in user mode
 * and one for a fault in the kernel, whatever becomes of the fault after (a page mapped on
 * demand, an -EFAULT fixup, a SIGSEGV, an oops). Turned into the exceptions:page_fault_user and
 * page_fault_kernel events by trace/trace_events_exceptions.c.
 */
#ifndef TRACE_EVENTS_EXCEPTIONS_H
#define TRACE_EVENTS_EXCEPTIONS_H

#include "kernel/tracepoint.h"

struct pt_regs;

/* The CPU faulted on address (CR2) at regs->rip, with the error code it pushed. */
DECLARE_TRACE(page_fault_user,
	      TP_PROTO(unsigned long address, struct pt_regs *regs, unsigned long error_code),
	      TP_ARGS(address, regs, error_code));
DECLARE_TRACE(page_fault_kernel,
	      TP_PROTO(unsigned long address, struct pt_regs *regs, unsigned long error_code),
	      TP_ARGS(address, regs, error_code));

#endif
