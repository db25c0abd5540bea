/*
 * The preemption counter, laid out as Linux's so the trace's flag columns can be read off it:
 * bits 0-7 count preempt_disable() nesting, 8-15 softirq, 16-19 hardirq, 20-23 NMI. The
 * scheduler may switch tasks only when the whole counter is zero.
 */
#ifndef KERNEL_PREEMPT_H
#define KERNEL_PREEMPT_H

#include "kernel/percpu.h"
#include "arch/x86_64/cpu.h" /* HOOK_CALL */

#define PREEMPT_MASK 0x000000ff
#define SOFTIRQ_OFFSET 0x00000100
#define SOFTIRQ_MASK 0x0000ff00
#define HARDIRQ_OFFSET 0x00010000
#define HARDIRQ_MASK 0x000f0000
#define NMI_OFFSET 0x00100000
#define NMI_MASK 0x00f00000

static __always_inline int preempt_count(void)
{
	int v;
	__asm__ __volatile__("movl %%gs:%c1, %0"
			     : "=r"(v)
			     : "i"(offsetof(struct cpu, preempt_count)));
	return v;
}

/* One instruction, so an interrupt can never see the counter half updated. */
static __always_inline void preempt_count_add(int v)
{
	__asm__ __volatile__("addl %0, %%gs:%c1"
			     :
			     : "ri"(v), "i"(offsetof(struct cpu, preempt_count))
			     : "memory");
}

static __always_inline void preempt_count_sub(int v)
{
	__asm__ __volatile__("subl %0, %%gs:%c1"
			     :
			     : "ri"(v), "i"(offsetof(struct cpu, preempt_count))
			     : "memory");
}

#define in_nmi() (preempt_count() & NMI_MASK)
#define in_hardirq() (preempt_count() & HARDIRQ_MASK)
#define in_softirq() (preempt_count() & SOFTIRQ_MASK)
#define in_interrupt() (preempt_count() & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_MASK))

void preempt_schedule(void);

/*
 * The preemption hooks (Linux's CONFIG_PREEMPT_TRACER / DEBUG_PREEMPT): preempt_disable()
 * that makes the count 1 calls trace_preempt_off(), preempt_enable() that will make it 0 calls
 * trace_preempt_on() first (trace/trace_preemptirq.c: the preemptoff tracers, the
 * preemptirq:preempt_disable/enable events). As the interrupt-flag hooks (arch/x86_64/cpu.h),
 * only while someone listens: a static key, one NOP otherwise; the count is looked at out of
 * line. The counter's raw add and sub (interrupt entry, the scheduler) are not hooked.
 */
DECLARE_STATIC_KEY_FALSE(preempt_hook_key);
/*
 * On while either kind listens: a spin lock that turns interrupts and preemption off together
 * (spin_lock_irqsave) tests once for both (kernel/locking/spinlock.h), half the cost.
 */
DECLARE_STATIC_KEY_FALSE(preemptirq_hook_key);
void trace_preempt_off(void);
void trace_preempt_on(void);

#define PREEMPT_HOOK_TEST(label)                                                                   \
	do {                                                                                       \
		if (static_branch_unlikely(&preempt_hook_key))                                     \
			goto label;                                                                \
	} while (0)
#define PREEMPTIRQ_HOOK_TEST(label)                                                                \
	do {                                                                                       \
		if (static_branch_unlikely(&preemptirq_hook_key))                                  \
			goto label;                                                                \
	} while (0)

static __always_inline void preempt_disable(void)
{
	preempt_count_add(1);
	barrier();
	PREEMPT_HOOK_TEST(hook);
	return;
hook:
	__label_cold;
	HOOK_CALL(trace_preempt_off);
}

static __always_inline void preempt_enable_no_resched(void)
{
	barrier();
	PREEMPT_HOOK_TEST(hook);
	preempt_count_sub(1);
	return;
hook:
	__label_cold;
	HOOK_CALL(trace_preempt_on);
	preempt_count_sub(1);
}

/* Without the hooks (Linux's _notrace forms): for the tracing code's own sections. */
static __always_inline void preempt_disable_notrace(void)
{
	preempt_count_add(1);
	barrier();
}

static __always_inline void preempt_enable_no_resched_notrace(void)
{
	barrier();
	preempt_count_sub(1);
}

/* Re-enabling preemption is a scheduling point: a wakeup may have asked for one meanwhile. */
static __always_inline void preempt_enable(void)
{
	preempt_enable_no_resched();
	if (unlikely(preempt_count() == 0 && READ_ONCE(this_cpu()->need_resched)))
		preempt_schedule();
}

#endif
