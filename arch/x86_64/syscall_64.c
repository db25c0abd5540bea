/*
 * System calls, the C side: the table indexed by Linux's x86_64 numbers, and what happens on
 * the way back to user space.
 *
 * entry_SYSCALL_64 (entry_64.S) saves the registers as a struct pt_regs and calls
 * do_syscall_64(regs), which enables interrupts (the CPU masked them: MSR_SYSCALL_MASK),
 * calls the table's function with the arguments from RDI, RSI, RDX, R10, R8, R9, and stores
 * the result in regs->rax, which becomes the user's RAX. Errors are small negative numbers
 * (-ENOSYS...): the C library turns them into -1 and errno.
 *
 * A number Lucid lacks gets -ENOSYS, and the first time each one is asked for, one line in the
 * kernel log names it and the program, so that what a program needs is visible in dmesg.
 *
 * syscall_init() points the CPU at the entry: each CPU runs it as it comes up.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/syscall.h"
#include "arch/x86_64/syscall_64_names.h"
#include "kernel/syscalls.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/kstack.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "kernel/events/uprobes.h" /* uprobe_deny_signal */
#include "kernel/printk.h"
#include "lib/errno.h"
#include "trace/events/syscalls.h"
#include "lib/compiler.h"

#define MSR_EFER 0xc0000080
#define EFER_SCE (1UL << 0) /* SYSCALL/SYSRET enabled */
#define MSR_STAR 0xc0000081
#define MSR_LSTAR 0xc0000082
#define MSR_SYSCALL_MASK 0xc0000084
#define MSR_KERNEL_GS_BASE 0xc0000102
#define X86_EFLAGS_TF (1UL << 8)
#define X86_EFLAGS_IF (1UL << 9)
#define X86_EFLAGS_DF (1UL << 10)
#define X86_EFLAGS_IOPL (3UL << 12)
#define X86_EFLAGS_NT (1UL << 14)
#define X86_EFLAGS_AC (1UL << 18)
#define STAR_SYSCALL_SHIFT 32 /* SYSCALL: CS = this, SS = this + 8 */
#define STAR_SYSRET_SHIFT 48 /* SYSRET: CS = this + 16, SS = this + 8 */

extern char entry_SYSCALL_64[];

typedef long (*sys_call_ptr_t)(unsigned long, unsigned long, unsigned long, unsigned long,
			       unsigned long, unsigned long);

static long sys_ni_syscall(void);

/*
 * Each entry point takes the arguments it declares; the extra registers are ignored. Every
 * number Lucid lacks calls sys_ni_syscall, as in Linux's table, so that the way in needs no
 * test for a hole (the range initializer is overridden by the listed calls on purpose).
 */
#define __SYSCALL(nr, name, entry) [nr] = (sys_call_ptr_t)(void *)entry,
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
static const sys_call_ptr_t sys_call_table[NR_SYSCALL_NAMES] = {
	[0 ... NR_SYSCALL_NAMES - 1] = (sys_call_ptr_t)(void *)sys_ni_syscall,
#include "arch/x86_64/syscall_64_tbl.h"
};
#pragma GCC diagnostic pop
#undef __SYSCALL

/*
 * Numbers already reported missing: one line each per boot (those past the end share one), in
 * the log only (KERN_INFO, dmesg shows it): Linux says nothing, and a program's output on the
 * console must not have the kernel's lines in its middle.
 */
#define NR_REPORTED 1024
static unsigned long ni_reported[NR_REPORTED / 64];

static long ni_syscall(unsigned long nr)
{
	const char *name = nr < NR_SYSCALL_NAMES && syscall_names[nr] ? syscall_names[nr] : NULL;
	unsigned long slot = MIN(nr, (unsigned long)NR_REPORTED - 1);
	unsigned long bit = 1UL << (slot % 64);

	if (!(__atomic_fetch_or(&ni_reported[slot / 64], bit, __ATOMIC_RELAXED) & bit))
		printk(KERN_INFO "%s[%d]: system call %lu (%s) is not implemented: ENOSYS\n",
		       current->comm, current->pid, nr, name ? name : "unknown");
	return -ENOSYS;
}

/* A hole in the table: the number is the frame's (entry_SYSCALL_64 builds it at the stack top). */
static long sys_ni_syscall(void)
{
	const struct pt_regs *regs = (struct pt_regs *)((char *)current->stack + KSTACK_SIZE) - 1;

	return ni_syscall((unsigned int)regs->orig_rax); /* the int do_syscall_64 used */
}

/* A system call's return value that asks the signal code what to do (arch/x86_64/signal.c). */
static __always_inline bool is_restart_value(long ret)
{
	return ret >= -ERESTART_RESTARTBLOCK && ret <= -ERESTARTSYS;
}

static bool restart_pending(const struct pt_regs *regs)
{
	return regs->vector == VEC_SYSCALL && regs->orig_rax != (uint64_t)-1 &&
	       is_restart_value((long)regs->rax);
}

/* Signal work for the way out: a signal to act on, a parent to tell, a mask to put back. */
static bool signal_work(struct task *t, const struct pt_regs *regs)
{
	return signal_pending_current() || READ_ONCE(t->group_leader->cont_notify) ||
	       t->restore_sigmask || restart_pending(regs);
}

/*
 * The last stop before ring 3, after a system call or an interrupt that came from there: a
 * signal is acted on (its handler's frame built, or its default action taken: Ctrl-C ends the
 * program), an interrupted system call is restarted or fails with EINTR, and a reschedule
 * asked for meanwhile happens now. Returns with interrupts off, as the assembly wants them.
 *
 * The signal work is looked at only while TIF_SIGPENDING is set (or a system call asks for a
 * restart); the flag is cleared when a look finds nothing, and the look is then made once more,
 * since a signal sent between the look and the clearing set the flag before the clearing.
 */
void exit_to_user_mode(struct pt_regs *regs)
{
	struct task *t = current;

	for (;;) {
		local_irq_disable();
		if (test_tsk_thread_flag(t, TIF_SIGPENDING) || restart_pending(regs)) {
			if (signal_work(t, regs)) {
				local_irq_enable();
				if (unlikely(t->utask) && uprobe_deny_signal(regs)) {
					/* a uprobe's step first: its #DB sets the flag again */
					local_irq_disable();
					clear_tsk_thread_flag(t, TIF_SIGPENDING);
					goto resched;
				}
				arch_do_signal_or_restart(regs);
				continue; /* the flag stays: the next pass looks again */
			}
			clear_tsk_thread_flag(t, TIF_SIGPENDING);
			if (signal_work(t, regs)) {
				set_tsk_thread_flag(t, TIF_SIGPENDING);
				continue;
			}
		}
	resched:
		if (!need_resched())
			return;
		local_irq_enable();
		schedule();
	}
}

DEFINE_TRACE(sys_enter); /* trace/events/syscalls.h: raw_syscalls:sys_enter and sys_exit */
DEFINE_TRACE(sys_exit);

/*
 * The way back tests one word of the task's (thread_flags) and the CPU's need_resched, with
 * interrupts off so that nothing is set unseen before SYSRET: most calls have nothing to do and
 * leave at once, as Linux's syscall_exit_to_user_mode tests ti_work. A call that asks for a
 * restart (-ERESTARTSYS...) has seen a signal pending and unblocked, whose sending (or
 * unblocking) set TIF_SIGPENDING, which nothing but this task's way out clears: the flag covers
 * it too.
 */
void do_syscall_64(struct pt_regs *regs)
{
	local_irq_enable();
	trace_sys_enter(regs, (long)regs->orig_rax); /* the whole register, as Linux's trace */
	/*
	 * The number is an int, as Linux's do_syscall_64(regs, int nr) takes it: RAX's high half
	 * is ignored (0x100000027 is getpid), a negative one is no call (ENOSYS), and the x32 bit
	 * (0x40000000) is past the table (ENOSYS: no x32 ABI, as Debian's kernel by default).
	 * Read from the frame after the trace (no probe changes it), so that only regs stays in a
	 * register across calls.
	 */
	unsigned int unr = (unsigned int)regs->syscall_nr;

	if (likely(unr < NR_SYSCALL_NAMES))
		regs->rax = sys_call_table[unr](regs->rdi, regs->rsi, regs->rdx, regs->r10,
						regs->r8, regs->r9);
	else if (regs->syscall_nr != -1) /* -1: Linux's "no call", RAX stays -ENOSYS */
		regs->rax = ni_syscall(unr);
	trace_sys_exit(regs, (long)regs->rax);
	if (unlikely(preempt_count()))
		preempt_count_leaked(unr < NR_SYSCALL_NAMES ? syscall_names[unr] : "a system call",
				     0);
	local_irq_disable();
	if (unlikely(READ_ONCE(current->thread_flags)) || unlikely(need_resched()))
		exit_to_user_mode(regs);
	trace_hardirqs_on_prepare(); /* SYSRET turns them on */
}

/*
 * A program's execve that worked never comes back through do_syscall_64: start_thread leaves
 * for the new program from a frame of its own. Linux's does come back (the new program's
 * registers replace the old ones in the same frame), so its trace shows the call return 0, as
 * the new program (sys_exit_execve, raw_syscalls:sys_exit): exec calls this once the task is
 * the new program, and the system call's frame at the top of the stack, still the execve's,
 * says which call returns.
 */
void syscall_exit_exec(void)
{
	struct pt_regs *regs = (struct pt_regs *)((char *)current->stack + KSTACK_SIZE) - 1;

	unsigned int unr = (unsigned int)regs->orig_rax;

	if (regs->vector != VEC_SYSCALL || unr >= NR_SYSCALL_NAMES ||
	    sys_call_table[unr] != (sys_call_ptr_t)(void *)sys_execve)
		return; /* not a program's execve (the kernel's, of init) */
	regs->rax = 0;
	trace_sys_exit(regs, 0);
}

void syscall_init(void)
{
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	wrmsr(MSR_STAR, ((uint64_t)__USER32_CS << STAR_SYSRET_SHIFT) |
				((uint64_t)GDT_KERNEL_CS << STAR_SYSCALL_SHIFT));
	wrmsr(MSR_LSTAR, (uint64_t)entry_SYSCALL_64);
	/* Entered with interrupts off, no single-step, string ops upward, as Linux masks. */
	wrmsr(MSR_SYSCALL_MASK, X86_EFLAGS_TF | X86_EFLAGS_DF | X86_EFLAGS_IF | X86_EFLAGS_IOPL |
					X86_EFLAGS_AC | X86_EFLAGS_NT);
	wrmsr(MSR_KERNEL_GS_BASE, 0); /* user space's GS base, until it sets one */
	fpu_init_this_cpu();
}
