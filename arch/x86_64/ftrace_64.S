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
 * Not traced, obviously: this is the tracer's entrance.
 */
#include "arch/x86_64/insn.h"

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
