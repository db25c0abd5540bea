/* struct pt_regs: the registers saved on the stack by arch/x86_64/entry.S at an interrupt. */
#ifndef ARCH_REGS_H
#define ARCH_REGS_H

#include <stdint.h>

/* Field order is the reverse of the pushes in common_interrupt; keep the two in step. */
struct pt_regs {
	uint64_t r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
	uint64_t rax, rcx, rdx, rsi, rdi;
	uint64_t vector;     /* pushed by the stub */
	uint64_t error_code; /* pushed by the CPU, or 0 by the stub */
	uint64_t rip, cs, rflags, rsp, ss; /* pushed by the CPU */
};

#endif
