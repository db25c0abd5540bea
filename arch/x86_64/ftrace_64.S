/*
 * arch/x86_64/ftrace_64.S - where a patched call site leads.
 *
 * With -pg -mfentry, gcc starts every traceable function with "call __fentry__", before the
 * function's own prologue. So on entry to the code below:
 *
 *        |  ...                  |
 *        | return into parent    |  8(%rsp): parent_ip, where the traced function will return
 *        | return into function  |  0(%rsp): the traced function's call site + 5
 *        +-----------------------+ <- %rsp
 *
 * __fentry__ is a plain ret: the sites call it until ftrace_init() turns them into NOPs at boot.
 *
 * ftrace_caller is what an enabled site calls. Its register contract: the traced function has not
 * run a single instruction yet, so its arguments are still in RDI, RSI, RDX, RCX, R8, R9 (and AL
 * counts vector registers for varargs functions): all of those, and RAX, must reach it unchanged.
 * The other caller-saved registers (R10, R11) hold nothing at a function's entry. ftrace_caller
 * saves the seven, builds a frame so backtraces taken inside the callback walk on through the
 * traced function, and calls the C callback through ftrace_trace_function (trace/ftrace.c) with
 *     rdi = ip        = the call site (return address - 5): identifies the traced function
 *     rsi = parent_ip = the traced function's own return address
 *     rdx = the ftrace_ops
 *     rcx = struct ftrace_regs * (trace/ftrace.h), a picture of the stack below
 *
 * ftrace_regs_caller is what a site calls instead when an ops that wants it asked for every
 * register (FTRACE_OPS_FL_SAVE_REGS: kprobes on a function's entry). It builds the same frames and
 * struct ftrace_regs, then below them a whole struct pt_regs (trace/ftrace.h's struct
 * ftrace_regs_frame), calls the same ftrace_trace_function with the same four arguments, and on
 * the way back takes every register, the flags and the place to return to from that pt_regs, so
 * a callback may change any of them (Linux's ftrace_regs_caller, with its IPMODIFY). The sites
 * no such ops wants keep ftrace_caller, and do not pay for the difference.
 *
 * Not traced, obviously: this is the tracer's entrance.
 */
#include "arch/x86_64/insn.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/asm-offsets.h"

	.text
	.globl __fentry__
__fentry__:
	ret

	.globl ftrace_stub
ftrace_stub:
	ret

	.globl ftrace_caller
ftrace_caller:
	/*
	 * Two fake frames, so that a backtrace taken inside the callback reads
	 * callback -> traced function -> its parent -> ..., as if the traced function had
	 * called us normally (its own prologue has not run yet):
	 *   frame 1 (RBP1): saved RBP, return address = parent_ip
	 *   frame 2 (RBP2): RBP1,      return address = the site + 5, inside the traced function
	 */
	pushq 8(%rsp)		/* parent_ip */
	pushq %rbp
	movq %rsp, %rbp		/* RBP1 */
	pushq 16(%rbp)		/* return address into the traced function */
	pushq %rbp
	movq %rsp, %rbp		/* RBP2 */
	pushq %rax		/* 4 pushes + the call's return + these 7 = 16-byte aligned RSP */
	pushq %rdi
	pushq %rsi
	pushq %rdx
	pushq %rcx
	pushq %r8
	pushq %r9

	movq 8(%rbp), %rdi	/* return address into the traced function ... */
	subq $CALL_INSN_SIZE, %rdi	/* ... minus the call: the site itself */
	movq 24(%rbp), %rsi	/* parent_ip (RBP1 + 8) */
	movq function_trace_op(%rip), %rdx
	movq %rsp, %rcx		/* struct ftrace_regs: everything pushed, from R9 up */
	.globl ftrace_call
ftrace_call:
	call *ftrace_trace_function(%rip)

	popq %r9
	popq %r8
	popq %rcx
	popq %rdx
	popq %rsi
	popq %rdi
	popq %rax
	popq %rbp		/* RBP1 */
	addq $8, %rsp
	popq %rbp		/* the traced function's caller's RBP, untouched */
	addq $8, %rsp
	ret

/*
 * ftrace_regs_caller, where RBP points (RBP2) once the frames are built, as in ftrace_caller:
 *   0: RBP1, 8: the return into the function (a copy), 16: the function's RBP (frame 1's),
 *   24: parent_ip (a copy), 32: the real return into the function, 40: the real parent_ip;
 * and just below, the struct ftrace_regs's RAX.
 */
	.set RBP2_FUNC_RBP, 16
	.set RBP2_RET_INTO_FUNCTION, 32
	.set RBP2_PARENT_RET, 40
	.set RBP2_SAVED_RAX, -8
	.set FREGS_ARGS_SIZE, 7 * 8	/* struct ftrace_regs's copies of RDI ... R9 and RAX */

	.globl ftrace_regs_caller
ftrace_regs_caller:
	/* The frames and struct ftrace_regs, exactly as ftrace_caller builds them. */
	pushq 8(%rsp)		/* parent_ip */
	pushq %rbp
	movq %rsp, %rbp		/* RBP1 */
	pushq 16(%rbp)		/* return address into the traced function */
	pushq %rbp
	movq %rsp, %rbp		/* RBP2 */
	pushq %rax
	pushq %rdi
	pushq %rsi
	pushq %rdx
	pushq %rcx
	pushq %r8
	pushq %r9

	/*
	 * struct pt_regs, from its last field (SS) down to its first (R15): arch/x86_64/regs.h's
	 * order. Its 22 words keep RSP 16-byte aligned as in ftrace_caller. No instruction from
	 * the entry to the pushfq changes the flags (push, mov and lea do not).
	 */
	pushq $GDT_KERNEL_DS	/* ss: also what tells ftrace_get_regs that pt_regs is here */
	leaq RBP2_PARENT_RET(%rbp), %rax
	pushq %rax		/* rsp: at the return address, as at the function's first insn */
	pushfq			/* rflags: the function's */
	pushq $GDT_KERNEL_CS	/* cs */
	pushq RBP2_RET_INTO_FUNCTION(%rbp) /* rip: the site + 5, where we will return */
	pushq $-1		/* orig_rax: no system call */
	pushq $0		/* vector: no interrupt */
	pushq %rdi
	pushq %rsi
	pushq %rdx
	pushq %rcx
	pushq RBP2_SAVED_RAX(%rbp) /* rax, before we used it */
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %rbx
	pushq RBP2_FUNC_RBP(%rbp) /* rbp: the function's, not our frame's */
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15

	movq 8(%rbp), %rdi	/* return address into the traced function ... */
	subq $CALL_INSN_SIZE, %rdi	/* ... minus the call: the site itself */
	movq 24(%rbp), %rsi	/* parent_ip */
	movq function_trace_op(%rip), %rdx
	leaq PTREGS_SIZE(%rsp), %rcx	/* struct ftrace_regs, just above the pt_regs */
	.globl ftrace_regs_call
ftrace_regs_call:
	call *ftrace_trace_function(%rip)

	/*
	 * Everything back from pt_regs, as the callbacks left it. From here on only pop, lea and
	 * popfq: the flags restored by popfq must reach the function unchanged.
	 */
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq RBP2_FUNC_RBP(%rbp) /* restored into RBP below, from frame 1 */
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
	leaq 16(%rsp), %rsp	/* vector, orig_rax */
	popq RBP2_RET_INTO_FUNCTION(%rbp) /* rip: where our ret goes */
	leaq 8(%rsp), %rsp	/* cs */
	popfq			/* rflags */
	leaq 16 + FREGS_ARGS_SIZE(%rsp), %rsp /* rsp, ss, and struct ftrace_regs's copies */
	popq %rbp		/* RBP1 */
	leaq 8(%rsp), %rsp
	popq %rbp		/* the function's RBP, as pt_regs had it */
	leaq 8(%rsp), %rsp
	ret

/*
 * return_to_handler: where a function traced by the function graph tracer "returns" to.
 *
 * On entry the graph tracer (trace/fgraph.c) replaced the function's return address with this
 * one and remembered the real one on the task's return stack. So here the function has just
 * returned: its return value is in RAX (and RDX, for 128-bit values), which we keep. We ask
 * ftrace_return_to_handler(retval) to record the exit, with RAX as the return value it shows
 * (funcgraph-retval), and give back the real return address, then jump there, as if the
 * function had returned normally.
 */
	.globl return_to_handler
return_to_handler:
	/* RSP is where the parent expects it, 16-byte aligned: two pushes keep it so. */
	pushq %rax
	pushq %rdx
	movq %rax, %rdi		/* the return value */
	call ftrace_return_to_handler
	movq %rax, %rdi		/* the real return address */
	popq %rdx
	popq %rax
	jmp *%rdi
