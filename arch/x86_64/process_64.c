/*
 * The architecture's part of a user process: what the scheduler switches besides the kernel
 * stack, the TLS register (arch_prctl), and the first entry into a new program.
 */
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/uaccess.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/mm.h"
#include "kernel/sched/sched.h"
#include "kernel/syscalls.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "trace/fgraph.h"

#define MSR_FS_BASE 0xc0000100
#define ARCH_SET_GS 0x1001 /* arch_prctl's codes, Linux's values */
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004
#define RFLAGS_USER_START 0x202 /* interrupts on (IF), and bit 1, which is always set */

/*
 * Called by the scheduler just before __switch_to: next's kernel stack becomes the one ring 3
 * enters on (TSS.RSP0 for interrupts, struct cpu for SYSCALL); a user task's FPU/SSE registers
 * are saved as it leaves and restored as it comes back; next's page tables and TLS base are
 * loaded. A kernel thread runs on the kernel's tables alone, so that a process's can be freed
 * while no CPU has them loaded.
 *
 * notrace: runs with the run queue locked, halfway between two tasks.
 */
notrace void arch_switch_to(struct task *prev, struct task *next)
{
	unsigned long top = (unsigned long)next->stack + KSTACK_SIZE;

	this_cpu()->top_of_stack = top;
	tss_set_rsp0(top);
	if (prev->fpu)
		fpu_save(prev->fpu);
	switch_mm(next->mm);
	if (next->mm) {
		fpu_restore(next->fpu);
		wrmsr(MSR_FS_BASE, next->fsbase);
	}
}

long sys_arch_prctl(int option, unsigned long arg2)
{
	switch (option) {
	case ARCH_SET_FS:
		if (arg2 >= TASK_SIZE_MAX)
			return -EPERM;
		current->fsbase = arg2;
		wrmsr(MSR_FS_BASE, arg2);
		return 0;
	case ARCH_GET_FS:
		return copy_to_user((void *)arg2, &current->fsbase, sizeof(current->fsbase))
			       ? -EFAULT
			       : 0;
	default:
		return -EINVAL;
	}
}

void ret_to_user(struct pt_regs *regs) __noreturn;

/*
 * Leaves the kernel for the new program's first instruction: a frame as an interrupt from
 * ring 3 would have left it, with every register zero (RDX 0 at entry: the ABI says it would
 * hold a function for atexit), then IRET. The frame is on this stack, below the frames of the
 * kernel thread that became the program; none of them will ever return, and the next system
 * call or interrupt starts again from the top of the stack.
 */
void __noreturn start_thread(unsigned long ip, unsigned long sp)
{
	struct task *t = current;
	struct pt_regs regs = {
		.vector = VEC_SYSCALL,
		.rip = ip,
		.cs = __USER_CS,
		.rflags = RFLAGS_USER_START,
		.rsp = sp,
		.ss = __USER_DS,
	};

	local_irq_disable();
	this_cpu()->top_of_stack = (unsigned long)t->stack + KSTACK_SIZE;
	tss_set_rsp0(this_cpu()->top_of_stack);
	switch_mm(t->mm);
	fpu_restore(t->fpu);
	wrmsr(MSR_FS_BASE, 0);
	/* The kernel frames of the thread that became this program never return. */
	ftrace_graph_drop_frames();
	trace_hardirqs_on_prepare(); /* IRET turns them on */
	ret_to_user(&regs);
}
