/*
 * arch/x86_64/thunk_64.S - the calls of the interrupt and preemption tracing hooks (Linux's
 * thunk_64.S).
 *
 * local_irq_disable(), preempt_disable() and friends are inline everywhere. Their hooks
 * (arch/x86_64/cpu.h) are called from inside an asm statement, through these thunks, so that the
 * compiler does not see a function call: a C call would make it keep values in callee-saved
 * registers and build frames in functions that otherwise need none, and that costs on every
 * toggle even while the hooks are off. A thunk saves every register a C function may change,
 * aligns the stack as C expects, and calls the hook with two arguments: where the thunk returns
 * (the code that turned interrupts or preemption off or on) and that code's frame pointer (where
 * its own caller is found). The asm statement tells the compiler the flags and memory change.
 *
 * Not traced: assembly, and the hooks must never come back into the tracer.
 */
	.section .text, "ax"
	.code64

.macro HOOK_THUNK name, func
	.globl \name
	.p2align 4
\name:
	pushq %rbp
	movq %rsp, %rbp
	pushq %rax
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	andq $-16, %rsp		/* the call's return address then at 16n + 8, as C expects */
	movq 8(%rbp), %rdi	/* a0: the code the thunk returns to */
	movq (%rbp), %rsi	/* that code's frame pointer */
	call \func
	leaq -72(%rbp), %rsp	/* the nine registers, below the frame */
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rax
	popq %rbp
	ret
.endm

HOOK_THUNK trace_hardirqs_off, trace_hardirqs_off_caller
HOOK_THUNK trace_hardirqs_on, trace_hardirqs_on_caller
HOOK_THUNK trace_preempt_off, trace_preempt_off_caller
HOOK_THUNK trace_preempt_on, trace_preempt_on_caller
