/* Small helpers for single x86_64 instructions: MSRs, control registers, interrupts, TSC. */
#ifndef ARCH_CPU_H
#define ARCH_CPU_H

#include <stdint.h>
#include <stdbool.h>
#include "lib/compiler.h"
#include "kernel/jump_label.h"

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
	__asm__ __volatile__("cpuid"
			     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			     : "a"(leaf), "c"(sub));
}

#define CPUID_1_ECX_HYPERVISOR (1u << 31) /* CPUID leaf 1, ECX bit 31: running under a hypervisor */

/* Is this CPU a virtual one (QEMU, KVM, ...)? Linux's X86_FEATURE_HYPERVISOR. */
static inline bool cpu_has_hypervisor(void)
{
	uint32_t a, b, c, d;

	cpuid(1, 0, &a, &b, &c, &d);
	return c & CPUID_1_ECX_HYPERVISOR;
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

/*
 * DR6 says why a #DB came (a single step: DR6_BS). The CPU sets its condition bits and never
 * clears them: the handler writes DR6_RESERVED back, so that the next #DB says only its own.
 */
#define DR6_BS 0x4000
#define DR6_RESERVED 0xffff0ff0 /* DR6 with no condition recorded */

static __always_inline unsigned long read_dr6(void)
{
	unsigned long v;
	__asm__ __volatile__("mov %%db6, %0" : "=r"(v));
	return v;
}

static __always_inline void write_dr6(unsigned long v)
{
	__asm__ __volatile__("mov %0, %%db6" : : "r"(v));
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

/*
 * The interrupt flag, and its tracing hooks (Linux's CONFIG_TRACE_IRQFLAGS).
 *
 * raw_local_irq_disable/enable are the bare instructions. local_irq_disable/enable are the same
 * plus a hook, trace_hardirqs_off() after cli and trace_hardirqs_on() before sti (trace/
 * trace_preemptirq.c), which the irqsoff tracers and the preemptirq:irq_disable/irq_enable
 * events listen to. The hooks are called only while someone listens: irqflags_hook_key is a
 * static key (kernel/jump_label.h) that trace_preemptirq.c turns on for the first listener and
 * off after the last, so each test is a 5-byte NOP while no latency tracer runs, patched into a
 * jump to the out-of-line call while one does, as a tracepoint's test (kernel/tracepoint.h).
 * Code that runs inside the hooks (the tracer's own recording) uses the raw forms or just nests
 * harmlessly: the hooks act only on a real transition (trace_preemptirq.c).
 */
DECLARE_STATIC_KEY_FALSE(irqflags_hook_key);
/*
 * The hooks are called through thunks (arch/x86_64/thunk_64.S) that keep every register, from
 * inside an asm statement: the compiler sees no call, so a function that toggles interrupts
 * needs no more registers or frame than it would without the hooks.
 */
void trace_hardirqs_on(void);
void trace_hardirqs_off(void);
#define HOOK_CALL(thunk) __asm__ __volatile__("call " #thunk : : : "memory", "cc")

#define IRQFLAGS_HOOK_TEST(label)                                                                  \
	do {                                                                                       \
		if (static_branch_unlikely(&irqflags_hook_key))                                    \
			goto label;                                                                \
	} while (0)

static __always_inline void raw_local_irq_disable(void)
{
	__asm__ __volatile__("cli" : : : "memory");
}

static __always_inline void raw_local_irq_enable(void)
{
	__asm__ __volatile__("sti" : : : "memory");
}

static __always_inline void local_irq_disable(void)
{
	raw_local_irq_disable();
	IRQFLAGS_HOOK_TEST(hook);
	return;
hook:
	__label_cold;
	HOOK_CALL(trace_hardirqs_off);
}

static __always_inline void local_irq_enable(void)
{
	IRQFLAGS_HOOK_TEST(hook);
	raw_local_irq_enable();
	return;
hook:
	__label_cold;
	HOOK_CALL(trace_hardirqs_on);
	raw_local_irq_enable();
}

/*
 * For the entry code: the CPU turned interrupts off itself (an interrupt gate, SYSCALL's mask),
 * or an IRET/SYSRET is about to turn them on. The hook alone, without the instruction.
 */
static __always_inline void trace_hardirqs_off_finish(void)
{
	IRQFLAGS_HOOK_TEST(hook);
	return;
hook:
	__label_cold;
	HOOK_CALL(trace_hardirqs_off);
}

static __always_inline void trace_hardirqs_on_prepare(void)
{
	IRQFLAGS_HOOK_TEST(hook);
	return;
hook:
	__label_cold;
	HOOK_CALL(trace_hardirqs_on);
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

/* The bare forms, for the hooks' own code: no hook runs. */
static __always_inline unsigned long raw_local_irq_save(void)
{
	unsigned long f = read_rflags();
	raw_local_irq_disable();
	return f;
}

static __always_inline void raw_local_irq_restore(unsigned long flags)
{
	if (flags & RFLAGS_IF)
		raw_local_irq_enable();
}

/* Spin-wait hint: lets a hyperthread sibling (or, under QEMU, another vCPU's thread) run. */
static __always_inline void cpu_relax(void)
{
	__asm__ __volatile__("pause" : : : "memory");
}

/* Enable interrupts and halt in one step: sti's one-instruction delay means no wakeup is lost. */
static __always_inline void safe_halt(void)
{
	IRQFLAGS_HOOK_TEST(hook);
	goto halt;
hook:
	__label_cold;
	HOOK_CALL(trace_hardirqs_on); /* the halt is not time with interrupts off */
halt:
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
