/*
 * Reading a struct pt_regs the way probes do (Linux: arch/x86/include/asm/ptrace.h): a register
 * by its name ("ax", "di", ... as kprobe_events' %REG writes them), a function's Nth argument at
 * its entry, a word of the kernel stack, the return value. Inline and notrace: they run inside
 * probe handlers, which must not call into traced code.
 */
#ifndef ARCH_X86_64_PTRACE_H
#define ARCH_X86_64_PTRACE_H

#include <stddef.h>
#include <stdbool.h>
#include "arch/x86_64/regs.h"
#include "lib/compiler.h"

/* The System V calling convention: the first six integer arguments travel in registers. */
#define NR_REG_ARGUMENTS 6

/*
 * The offset of the register called name in struct pt_regs ("ax", "r8", "ip", "flags", ...,
 * Linux's names for x86_64), or -22 (-EINVAL) if there is none (arch/x86_64/ptrace.c).
 */
int regs_query_register_offset(const char *name);
/* The name of the register at offset, or NULL (Linux's regs_query_register_name). */
const char *regs_query_register_name(unsigned int offset);

#define MAX_REG_OFFSET (offsetof(struct pt_regs, ss))

static __always_inline unsigned long regs_get_register(struct pt_regs *regs, unsigned int offset)
{
	if (unlikely(offset > MAX_REG_OFFSET))
		return 0;
	return *(unsigned long *)((unsigned long)regs + offset);
}

static __always_inline unsigned long kernel_stack_pointer(struct pt_regs *regs)
{
	return regs->rsp;
}

static __always_inline unsigned long instruction_pointer(struct pt_regs *regs)
{
	return regs->rip;
}

static __always_inline void instruction_pointer_set(struct pt_regs *regs, unsigned long val)
{
	regs->rip = val;
}

static __always_inline unsigned long regs_return_value(struct pt_regs *regs)
{
	return regs->rax;
}

/*
 * Is addr on the same kernel stack as regs's stack pointer? A stack is THREAD_SIZE-aligned in
 * Linux; Lucid's kernel stacks are too (arch/x86_64/ptrace.c checks the stack's bounds).
 */
bool regs_within_kernel_stack(struct pt_regs *regs, unsigned long addr);

/* The nth word of the kernel stack at regs (0: the word at RSP), or 0 if it is off the stack. */
static __always_inline unsigned long regs_get_kernel_stack_nth(struct pt_regs *regs, unsigned int n)
{
	unsigned long *addr = (unsigned long *)kernel_stack_pointer(regs) + n;

	if (regs_within_kernel_stack(regs, (unsigned long)addr))
		return *addr;
	return 0;
}

/*
 * The nth argument (from 0) of a function whose first instruction is about to run: RDI, RSI,
 * RDX, RCX, R8, R9, then the stack above the return address (so argument 6 is stack word 1).
 */
static __always_inline unsigned long regs_get_kernel_argument(struct pt_regs *regs, unsigned int n)
{
	static const unsigned int argument_offs[NR_REG_ARGUMENTS] = {
		offsetof(struct pt_regs, rdi), offsetof(struct pt_regs, rsi),
		offsetof(struct pt_regs, rdx), offsetof(struct pt_regs, rcx),
		offsetof(struct pt_regs, r8),  offsetof(struct pt_regs, r9),
	};

	if (n >= NR_REG_ARGUMENTS) {
		n -= NR_REG_ARGUMENTS - 1;
		return regs_get_kernel_stack_nth(regs, n);
	}
	return regs_get_register(regs, argument_offs[n]);
}

#endif
