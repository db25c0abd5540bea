/* System-call entry and the way back to user space (arch/x86_64/syscall_64.c, entry_64.S). */
#ifndef ARCH_SYSCALL_H
#define ARCH_SYSCALL_H

#include <stdbool.h>
#include "arch/x86_64/regs.h"

void syscall_init(void); /* each CPU: MSR_LSTAR and friends, SSE on */
void do_syscall_64(struct pt_regs *regs);
void exit_to_user_mode(struct pt_regs *regs);
void syscall_exit_exec(void); /* a program's execve returns 0: its sys_exit events */
/* Delivers a pending signal or restarts an interrupted call (arch/x86_64/signal.c). */
void arch_do_signal_or_restart(struct pt_regs *regs);
/*
 * A non-canonical RIP or RSP to return to: SIGSEGV (or SIGBUS) sent and true, as Linux's #GP on
 * IRET (arch/x86_64/signal.c). Inline, the test alone: the uretprobe trampoline pays for it.
 */
bool __bad_user_return(struct pt_regs *regs);
static inline bool bad_user_return(struct pt_regs *regs)
{
	if (__builtin_expect(is_canonical_address(regs->rip) && is_canonical_address(regs->rsp), 1))
		return false;
	return __bad_user_return(regs);
}

struct task;
void arch_switch_to(struct task *prev, struct task *next); /* process_64.c */
void __attribute__((noreturn)) start_thread(unsigned long ip, unsigned long sp);

#endif
