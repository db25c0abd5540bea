/*
 * arch/x86_64/irqentry_64.S - the first instructions of every exception and interrupt (the IDT's
 * stubs; system calls enter through entry_64.S).
 *
 * The CPU pushes SS, RSP, RFLAGS, CS, RIP (and, for some exceptions, an error code), then jumps
 * through the IDT to one of the 256 stubs below. Each stub makes the frame uniform (a fake error
 * code of 0 where the CPU pushes none, then the vector number) and jumps to common_interrupt,
 * which saves the general registers so that the whole frame is a struct pt_regs
 * (arch/x86_64/regs.h), and calls do_interrupt(regs) in C.
 *
 * From ring 3 (a user program was running), GS holds the user's base, not the per-CPU one:
 * swapgs exchanges it with MSR_KERNEL_GS_BASE on the way in, and back on the way out. The saved
 * CS says which ring the CPU came from. (Known gap: an NMI in the two instructions of
 * entry_SYSCALL_64 and its exit that run in ring 0 with the user's GS would see the wrong base;
 * Linux's NMI entry reads the MSR to know. Lucid's NMIs only stop CPUs at a panic.)
 *
 * Nothing here is traced: this code runs before the C world exists for this interrupt.
 */

#include "arch/x86_64/calling.h"

	.section .text.entry, "ax"
	.code64

.macro isr_stub vec
	.p2align 4
isr_stub_\vec:
	.if !((\vec == 8) || (\vec >= 10 && \vec <= 14) || (\vec == 17) || (\vec == 21) || \
	      (\vec == 29) || (\vec == 30))
	pushq $0
	.endif
	pushq $\vec
	jmp common_interrupt
.endm

	.globl common_interrupt
common_interrupt:
	testb $3, 24(%rsp)	/* the CS the CPU pushed: from ring 3? */
	jz 1f
	swapgs
1:
	PUSH_REGS
	cld
	/*
	 * Make this frame part of the frame-pointer chain: the saved RBP and RIP look like a
	 * normal call frame, so a backtrace taken inside the handler walks on into the code that
	 * was interrupted.
	 */
	pushq 16*8(%rsp)	/* regs->rip */
	pushq %rbp
	movq %rsp, %rbp
	leaq 16(%rsp), %rdi
	call do_interrupt
	addq $16, %rsp
	POP_REGS
	addq $16, %rsp		/* vector and error code */
	testb $3, 8(%rsp)	/* back to ring 3? then the user's GS again */
	jz 2f
	swapgs
2:
	iretq

.altmacro
.macro isr_stub_n n
	isr_stub %n
.endm
.set i, 0
.rept 256
	isr_stub_n %i
	.set i, i + 1
.endr

/* The table idt.c reads to fill in the IDT: the address of each stub. */
.macro isr_addr n
	.quad isr_stub_\n
.endm
	.section .rodata
	.p2align 3
	.globl isr_stub_table
isr_stub_table:
.set i, 0
.rept 256
	isr_addr %i
	.set i, i + 1
.endr
