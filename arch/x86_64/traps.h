/* CPU exceptions: the oops report and the stop-CPU NMI (arch/x86_64/traps.c). */
#ifndef ARCH_TRAPS_H
#define ARCH_TRAPS_H

#include "arch/x86_64/regs.h"

void trap_init(void);
void do_fatal_exception(struct pt_regs *regs);
void do_nmi(struct pt_regs *regs);
void show_regs(struct pt_regs *regs);
/*
 * Prints where each CPU of mask (a bit per CPU id) is, with its registers and stack, as
 * Linux's trigger_cpumask_backtrace: an NMI reaches a CPU even with interrupts off, so this is
 * how a CPU that stopped answering IPIs is shown. The stopped CPU only copies its registers;
 * the caller prints (printk's lock may be what that CPU holds).
 */
void trigger_cpumask_backtrace(unsigned long mask);
/*
 * Prints " func+0x1a/0x40" for rip, then each caller found through the frame pointers of t's
 * stack (t: current, or a task off its CPU, for sysrq t: whose graph return stack applies), at
 * printk level loglvl (KERN_EMERG for an oops, KERN_INFO for sysrq t), as Linux's show_stack.
 */
struct task;
void show_stack(struct task *t, unsigned long rip, unsigned long rsp, unsigned long rbp,
		const char *loglvl);
void dump_stack(void);
const char *exception_name(unsigned long vector);
/* User space: page faults on demand and the fixups of copy_*_user; user faults. */
void user_traps_init(void);
void do_user_exception(struct pt_regs *regs);

#endif
