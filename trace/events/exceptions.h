/*
 * The page-fault events (Linux's arch/x86/include/asm/trace/exceptions.h, the x86_exceptions
 * class): hit at the top of the page-fault handler (arch/x86_64/traps.c), one for a fault in
 * user mode and one for a fault in the kernel, whatever becomes of the fault after (a page
 * mapped on demand, an -EFAULT fixup, a SIGSEGV, an oops):
 *
 *   page_fault_user: address=0x401000 ip=0x401000 error_code=0x14
 *   page_fault_kernel: address=0x7ffffffde000 ip=__clear_user error_code=0x2
 *
 * The addresses print as %ps does: a kernel symbol's name where there is one, else 0x and hex,
 * which is all a user address ever gets. Defined by trace/trace_events_exceptions.c.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM exceptions
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE "trace/events/exceptions.h"

#if !defined(TRACE_EVENTS_EXCEPTIONS_H) || defined(TRACE_HEADER_MULTI_READ)
#define TRACE_EVENTS_EXCEPTIONS_H

#include "kernel/tracepoint.h"

/*
 * The declarations keep Linux's layout, a field a line (and a print fmt's spacing is its
 * text): clang-format does not know it.
 */
/* clang-format off */

struct pt_regs;

/* The CPU faulted on address (CR2) at regs->rip, with the error code it pushed. */
DECLARE_EVENT_CLASS(x86_exceptions,
	TP_PROTO(unsigned long address, struct pt_regs *regs, unsigned long error_code),
	TP_ARGS(address, regs, error_code),
	TP_STRUCT__entry(
		__field(unsigned long, address)
		__field(unsigned long, ip)
		__field(unsigned long, error_code)
	),
	TP_fast_assign(
		__entry->address = address;
		__entry->ip = regs->rip;
		__entry->error_code = error_code;
	),
	TP_printk("address=%ps ip=%ps error_code=0x%lx",
		  (void *)__entry->address, (void *)__entry->ip,
		  __entry->error_code)
);
DEFINE_EVENT(x86_exceptions, page_fault_user,
	TP_PROTO(unsigned long address, struct pt_regs *regs, unsigned long error_code),
	TP_ARGS(address, regs, error_code));
DEFINE_EVENT(x86_exceptions, page_fault_kernel,
	TP_PROTO(unsigned long address, struct pt_regs *regs, unsigned long error_code),
	TP_ARGS(address, regs, error_code));

/* clang-format on */

#endif /* TRACE_EVENTS_EXCEPTIONS_H */

#include "trace/define_trace.h"
