/*
 * arch/x86_64/kprobes/kretprobe_64.S - where a kretprobed function "returns" to.
 *
 * At the function's entry, pre_handler_kretprobe (kernel/kprobes.c) saved its return address
 * in an instance and wrote __kretprobe_trampoline's in its place. So the function's ret lands
 * here, with RSP just above the slot that held the return address (the instance's fp), and its
 * return value in RAX (RDX for 128-bit values).
 *
 * We push a word into that very slot (it becomes the real return address before any handler
 * runs) and a frame on top of it, so a backtrace taken in a handler reads
 * handler -> kretprobe_trampoline_handler -> __kretprobe_trampoline -> the real caller, and
 * then a struct pt_regs for the handler: ip is the real return address, sp the stack pointer
 * after the return, ax the return value. kretprobe_trampoline_handler returns the real return
 * address; the registers come back as the handler left them (a handler may change RAX), and
 * the final ret goes home.
 *
 * In .kprobes.text: part of the kprobe machinery, never probed, never traced.
 */
#include "arch/x86_64/asm-offsets.h"
#include "arch/x86_64/calling.h"

	.section .kprobes.text, "ax"
	.globl __kretprobe_trampoline
__kretprobe_trampoline:
	pushq $0		/* the slot: the real return address, filled by the handler */
	pushq %rbp
	movq %rsp, %rbp		/* frame: saved RBP, then the return address in the slot */
	/* struct pt_regs, top down: ss rsp rflags cs rip error_code vector, then the GPRs. */
	pushq $0		/* ss */
	pushq $0		/* rsp: set below */
	pushfq
	pushq $0		/* cs: set by the C handler */
	pushq $0		/* rip: set by the C handler */
	pushq $0		/* error_code / orig_rax */
	pushq $0		/* vector */
	PUSH_REGS rbp=0(%rbp)	/* rbp: the function's caller's, as it returned */
	leaq 16(%rbp), %rax	/* RSP after the function's ret */
	movq %rax, 20*8(%rsp)	/* pt_regs.rsp */
	movq %rsp, %rdi
	call kretprobe_trampoline_handler
	movq %rax, 8(%rbp)	/* the real return address, for the ret below */
	POP_REGS		/* its rbp is the caller's, as the popq below restores it */
	addq $7*8, %rsp		/* vector .. ss */
	popq %rbp
	ret
	.globl __kretprobe_trampoline_end
__kretprobe_trampoline_end:
