/*
 * arch/x86_64/calling.h - the general registers of a struct pt_regs (arch/x86_64/regs.h),
 * saved and restored in the one order the structure fixes. Assembly only: irqentry_64.S (interrupts
 * and exceptions) and entry_64.S (system calls) both build and unwind that frame, as Linux's
 * PUSH_REGS and POP_REGS (arch/x86/entry/calling.h) serve its entries.
 */
#ifndef ARCH_X86_64_CALLING_H
#define ARCH_X86_64_CALLING_H

#ifndef __ASSEMBLY__
#error "calling.h is for assembly files"
#endif

/* Pushed in reverse order of struct pt_regs, so that RSP then points at one. rax: what goes in
 * its slot (a system call's frame holds -ENOSYS there until it has a result); rbp likewise (the
 * ftrace and kretprobe trampolines put the traced function's there, not their own frame's). */
.macro PUSH_REGS rax=%rax, rbp=%rbp
	pushq %rdi
	pushq %rsi
	pushq %rdx
	pushq %rcx
	pushq \rax
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %rbx
	pushq \rbp
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
.endm

/* The reverse: RSP at a struct pt_regs, left at its vector field. rbp: where its slot goes. */
.macro POP_REGS rbp=%rbp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq \rbp
	popq %rbx
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rax
	popq %rcx
	popq %rdx
	popq %rsi
	popq %rdi
.endm

#endif
