/* Small helpers for single x86_64 instructions: MSRs, control registers, interrupts, TSC. */
#ifndef ARCH_CPU_H
#define ARCH_CPU_H

#include <stdint.h>
#include <stdbool.h>
#include "lib/compiler.h"

#define RFLAGS_IF (1UL << 9) /* interrupts enabled */

#define MSR_EFER 0xc0000080
#define MSR_FS_BASE 0xc0000100
#define MSR_GS_BASE 0xc0000101
#define MSR_APIC_BASE 0x1b

static __always_inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static __always_inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ __volatile__("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

static __always_inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static __always_inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t *a, uint32_t *b,
				  uint32_t *c, uint32_t *d)
{
	__asm__ __volatile__("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(sub));
}

static __always_inline uint64_t read_cr2(void)
{
	uint64_t v;
	__asm__ __volatile__("mov %%cr2, %0" : "=r"(v));
	return v;
}

static __always_inline uint64_t read_cr3(void)
{
	uint64_t v;
	__asm__ __volatile__("mov %%cr3, %0" : "=r"(v));
	return v;
}

static __always_inline void write_cr3(uint64_t v)
{
	__asm__ __volatile__("mov %0, %%cr3" : : "r"(v) : "memory");
}

static __always_inline void invlpg(unsigned long addr)
{
	__asm__ __volatile__("invlpg (%0)" : : "r"(addr) : "memory");
}

static __always_inline unsigned long read_rflags(void)
{
	unsigned long f;
	__asm__ __volatile__("pushfq; popq %0" : "=r"(f) : : "memory");
	return f;
}

static __always_inline void local_irq_disable(void)
{
	__asm__ __volatile__("cli" : : : "memory");
}

static __always_inline void local_irq_enable(void)
{
	__asm__ __volatile__("sti" : : : "memory");
}

static __always_inline bool irqs_disabled(void)
{
	return !(read_rflags() & RFLAGS_IF);
}

static __always_inline unsigned long local_irq_save(void)
{
	unsigned long f = read_rflags();
	local_irq_disable();
	return f;
}

static __always_inline void local_irq_restore(unsigned long flags)
{
	if (flags & RFLAGS_IF)
		local_irq_enable();
}

/* Spin-wait hint: lets a hyperthread sibling (or, under QEMU, another vCPU's thread) run. */
static __always_inline void cpu_relax(void)
{
	__asm__ __volatile__("pause" : : : "memory");
}

/* Enable interrupts and halt in one step: sti's one-instruction delay means no wakeup is lost. */
static __always_inline void safe_halt(void)
{
	__asm__ __volatile__("sti; hlt" : : : "memory");
}

static __always_inline void halt(void)
{
	__asm__ __volatile__("hlt" : : : "memory");
}

static __always_inline void *return_address0(void)
{
	return __builtin_return_address(0);
}

#endif
