/*
 * arch/x86_64/entry_64.S - system calls: from user space into the kernel and back.
 *
 * A user program executes `syscall` with the number in RAX and the arguments in RDI, RSI, RDX,
 * R10, R8, R9 (Linux's x86_64 ABI; R10 replaces RCX, which the instruction overwrites). The CPU
 * then saves the user RIP in RCX and RFLAGS in R11, masks RFLAGS with MSR_SYSCALL_MASK
 * (interrupts off), loads CS and SS from MSR_STAR and jumps to MSR_LSTAR: here. It does not
 * switch stacks: RSP is still the user's. So the first instructions
 *	- swapgs: GS base becomes this CPU's struct cpu (the user's is parked in an MSR),
 *	- park the user RSP in the struct cpu, load the task's kernel stack top from it,
 * and then build a struct pt_regs (arch/x86_64/regs.h) exactly as an interrupt from ring 3
 * would have left it, and call do_syscall_64(regs) in C (arch/x86_64/syscall_64.c), which
 * stores the return value in regs->rax.
 *
 * The way back is SYSRET: RIP from RCX, RFLAGS from R11, CS and SS from MSR_STAR, ring 3. It
 * trusts RCX: a non-canonical address there would fault in ring 0 with the user's RSP
 * (CVE-2012-0217), so a return to any address past the user half goes through IRET instead, as
 * Linux's: a `syscall` in the user half's last two bytes returns to TASK_SIZE_MAX, an unmapped
 * canonical address, and the program takes its page fault in ring 3. IRET itself is never
 * given a non-canonical RIP (rt_sigreturn and the signal code make that a SIGSEGV: signal.c).
 * docs/design/syscalls.md walks through one call.
 *
 * Not traced: no C world yet on the way in; on the way out, the user's GS.
 */
#include "arch/x86_64/asm-offsets.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/calling.h"

#include "arch/x86_64/page_64_types.h" /* TASK_SIZE_MAX: where SYSRET must not return */

#define ENOSYS 38
#define X86_EFLAGS_TF 0x100
#define X86_EFLAGS_RF 0x10000
#define __VIRTUAL_MASK_SHIFT 47 /* as arch/x86_64/regs.h: canonical addresses are 48 bits */

	.section .text.entry, "ax"
	.code64

	.globl entry_SYSCALL_64
	.p2align 4
entry_SYSCALL_64:
	swapgs
	movq %rsp, %gs:CPU_USER_RSP
	movq %gs:CPU_TOP_OF_STACK, %rsp
	/* The frame an interrupt from ring 3 pushes: SS, RSP, RFLAGS, CS, RIP. */
	pushq $__USER_DS
	pushq %gs:CPU_USER_RSP
	pushq %r11
	pushq $__USER_CS
	pushq %rcx
	pushq %rax		/* orig_rax: the system call's number */
	pushq $-1		/* vector: VEC_SYSCALL, not an interrupt */
	PUSH_REGS rax=$-ENOSYS	/* rax: the result, until there is one */
	/* No cld: MSR_SYSCALL_MASK has cleared DF already. */
	xorl %ebp, %ebp		/* the end of the frame chain: backtraces stop at user space */
	movq %rsp, %rdi		/* the number: regs->orig_rax */
	call do_syscall_64	/* returns with interrupts off */

	/* SYSRET takes RIP from RCX and RFLAGS from R11: from the frame, as C may change them. */
	movq 17*8(%rsp), %rcx	/* regs->rip */
	movq 19*8(%rsp), %r11	/* regs->rflags */
	cmpq task_size_max(%rip), %rcx /* no 64-bit immediate: one instruction, not two */
	jae ret_to_user_iret	/* not a user address: let IRET fault it, in ring 3 */
	/*
	 * SYSRET cannot restore RF, and a TF it restores traps at once, before the instruction
	 * after the syscall: IRET's trap comes after that instruction, so that a program stepping
	 * itself (TF set across the call) gets one SIGTRAP per instruction, as on Linux.
	 */
	testl $(X86_EFLAGS_TF | X86_EFLAGS_RF), %r11d
	jnz ret_to_user_iret
	/*
	 * SYSRET loses the frame's RCX and R11: after rt_sigreturn (or a restarted call, or a
	 * handler's frame) they hold the program's own values, so IRET restores every register.
	 */
	cmpq %rcx, 11*8(%rsp)	/* regs->rcx */
	jne ret_to_user_iret
	cmpq %r11, 6*8(%rsp)	/* regs->r11 */
	jne ret_to_user_iret
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbp
	popq %rbx
	addq $16, %rsp		/* r11, r10: r11 is already RFLAGS; r10 below */
	movq -8(%rsp), %r10
	popq %r9
	popq %r8
	popq %rax
	addq $8, %rsp		/* rcx: already RIP */
	popq %rdx
	popq %rsi
	popq %rdi
	movq 5*8(%rsp), %rsp	/* regs->rsp, over vector, orig_rax, rip, cs, rflags */
	swapgs
	sysretq

	.section .rodata
	.p2align 3
task_size_max:
	.quad TASK_SIZE_MAX
	.previous

/*
 * void ret_to_user(struct pt_regs *regs): leave the kernel for ring 3 with every register from
 * regs, through IRET. A new program starts this way (kernel/fs/exec.c): its frame sits at the top
 * of the task's kernel stack, where the next system call or interrupt builds its own.
 */
	.globl ret_to_user
ret_to_user:
	cli
	movq %rdi, %rsp
ret_to_user_iret:
	/*
	 * The invariant above, checked: a non-canonical RIP here is a kernel bug (rt_sigreturn and
	 * the signal code turn every one into the program's SIGSEGV), so a BUG, not a #GP in ring
	 * 0 with the user's GS. Not on the SYSRET path: it never gets this far.
	 */
	movq 17*8(%rsp), %rax	/* regs->rip */
	shlq $(63 - __VIRTUAL_MASK_SHIFT), %rax
	sarq $(63 - __VIRTUAL_MASK_SHIFT), %rax
	cmpq 17*8(%rsp), %rax
	jne 1f
	POP_REGS
	addq $16, %rsp		/* vector and orig_rax */
	swapgs
	iretq
1:	ud2			/* BUG(): IRET to a non-canonical RIP */
