/*
 * arch/x86_64/switch.S - switching from one task's kernel stack to another's.
 *
 * void __switch_to(struct task *prev, struct task *next)
 *
 * The C calling convention says RBX, RBP and R12-R15 survive a call; everything else the caller
 * has already saved. So a switch pushes those six on prev's stack, saves RSP in prev->saved_rsp
 * (offset 0 of struct task), loads next's RSP and pops next's six. The final ret returns into
 * wherever next called __switch_to from: or, for a brand-new task, into ret_from_kthread, whose
 * address kthread_create left on the new stack.
 *
 * Not traced: the function tracer must never see a half-switched stack.
 */
	.text
	.globl __switch_to
__switch_to:
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, 0(%rdi)
	movq 0(%rsi), %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret

/*
 * The first code a new kernel thread runs. kthread_create put the task in RBX; the C helper
 * finishes the switch (unlocks the run queue, enables interrupts) and calls the thread's function.
 * A zero return address on top ends every backtrace here.
 */
	.globl ret_from_kthread
ret_from_kthread:
	xorl %ebp, %ebp
	movq %rbx, %rdi
	pushq $0
	jmp kthread_start
