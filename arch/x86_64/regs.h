/*
 * struct pt_regs: the registers saved on the stack at an interrupt (arch/x86_64/irqentry_64.S) or a
 * system call (arch/x86_64/entry_64.S), in Linux's order. One difference: Linux keeps a single
 * orig_rax word (the error code of an exception, the number of a system call); Lucid's
 * interrupt stubs also record the vector below it, so the two share a union.
 */
#ifndef ARCH_REGS_H
#define ARCH_REGS_H

#include <stdint.h>
#include "arch/x86_64/asm-offsets.h"

/* Field order is the reverse of the pushes in common_interrupt; keep the two in step. */
struct pt_regs {
	uint64_t r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
	uint64_t rax, rcx, rdx, rsi, rdi;
	uint64_t vector;     /* pushed by the stub; VEC_SYSCALL for a system call */
	union {
		uint64_t error_code; /* pushed by the CPU, or 0 by the stub */
		uint64_t orig_rax;   /* a system call: its number (RAX becomes the return value) */
		int32_t syscall_nr; /* orig_rax's low half: the number as Linux reads it, an int */
	};
	uint64_t rip, cs, rflags, rsp, ss; /* pushed by the CPU, or by entry_SYSCALL_64 */
};

#define VEC_SYSCALL (~0UL) /* pt_regs.vector of a system call's frame: not an interrupt */

/* Did the CPU come from ring 3? (The low two bits of the saved CS are its privilege level.) */
static inline int user_mode(const struct pt_regs *regs)
{
	return (regs->cs & 3) == 3;
}

/*
 * 4-level paging translates 48-bit addresses, sign-extended to 64: bits 63 to 47 all alike. On
 * Intel CPUs IRET and SYSRET to any other (non-canonical) RIP fault in ring 0, SYSRET's with
 * the user's RSP already loaded (CVE-2012-0217): the kernel never returns to one
 * (arch/x86_64/signal.c turns it into the user's SIGSEGV, entry_64.S takes no SYSRET there).
 */
#define __VIRTUAL_MASK_SHIFT 47
static inline int is_canonical_address(uint64_t addr)
{
	return (uint64_t)((int64_t)(addr << (63 - __VIRTUAL_MASK_SHIFT)) >>
			  (63 - __VIRTUAL_MASK_SHIFT)) == addr;
}

_Static_assert(sizeof(struct pt_regs) == PTREGS_SIZE, "entry_64.S");

#endif
