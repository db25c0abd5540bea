/*
 * Spin locks: mutual exclusion between CPUs for short critical sections.
 *
 * A ticket lock: each locker takes the next ticket and waits until "owner" reaches it, so CPUs
 * get the lock in the order they asked (no starvation). While waiting we execute pause: under
 * QEMU, four vCPUs share two host cores, and a vCPU spinning at full speed steals the time the
 * lock holder needs to finish. Holding a spin lock disables preemption; the _irqsave forms also
 * disable interrupts, for locks an interrupt handler takes too.
 *
 * Under a hypervisor the ticket order is a trap, so there the lock is taken test-and-set, as
 * Linux's virt_spin_lock() does in a guest without paravirtual spin locks. A vCPU is a host
 * thread the host may stop at any moment. If it holds the next ticket while stopped, every CPU
 * behind it spins, lock free, until the host runs it again: "lock waiter preemption", on top
 * of the holder's own. Test-and-set lets whichever CPU is running take a free lock. Both ways
 * use the same two fields (a test-and-set locker takes a ticket only when no one waits, and the
 * unlock is the same), so they mix safely. Measured with four vCPUs on two host cores, 20
 * run_test took 1.75 s and 2.5 s of host CPU with tickets, 0.8 s and 0.7 s test-and-set; beside two
 * busy host processes, 6.5 s and 7 s against 1.35 s and 0.85 s. The price is fairness, which
 * a guest cannot have anyway while the host decides who runs, and a few instructions when no
 * one waits (the flag, and a load before the compare-and-swap); measured with make bench, a
 * lock and unlock pair inline 28 -> 35 instructions, a context switch 932 -> 1011, a remote
 * wakeup 1452 -> 1533, bench's workload 6.7% more. native_pv_lock_init() decides at
 * boot, from CPUID (the name is Linux's, whose paravirtual locks are the same decision); the
 * boot option nopvspin keeps tickets in a guest, as Linux's does.
 *
 * In the debug and UBSAN builds (CONFIG_DEBUG_ASSERT) a lock also records which CPU holds it, so
 * that lockdep_assert_held() (kernel/locking/lockdep.h) can check a "called with the lock held"
 * comment. Not in the normal build: it is a %gs load and a store on every lock and a store on every
 * unlock, and a wakeup and switch takes several locks. Measured with make bench: 802 -> 861
 * instructions a context switch, 1264 -> 1347 a remote wakeup, 6% more for the workload.
 *
 * Out of line and traceable, as Linux's: spin_lock() calls _raw_spin_lock()
 * (kernel/locking/spinlock.c), a function with its own call site, so the function tracer can show
 * who takes which lock how often (`echo '*spin*lock*' > set_ftrace_filter`, as on Linux). The
 * price, measured with make bench: a lock and unlock pair is 43 instructions instead of 26 inline
 * when nobody traces it (the calls, the NOPs, the frames), 531 when the function tracer records
 * both; a context switch 904 -> 945 instructions, bench's workload (three pairs in it) 17% more.
 *
 * The tracer must not trace itself through a lock. A callback that fires at the entry of
 * _raw_spin_unlock_irqrestore(&l) runs while its caller holds l: if the callback then takes l
 * too (printk's lock for a WARN, the module list's for a backtrace, the stack tracer's), its CPU
 * waits for itself forever; and every traced lock inside a callback is one more trip into
 * the tracer, which its recursion guard only cuts short. So code that is never traced takes
 * its locks with the inline __raw_spin_*() forms, which call nothing:
 *   - files built without -pg (trace/, lib/, the code patchers) get them from spin_lock() itself:
 *     the Makefile defines CC_USING_FENTRY only for files it builds with -mfentry;
 *   - notrace functions in traced files, and every user of a lock that such a function takes
 *     (printk_lock, modules_lock, the page allocator's and mmu.c's), call __raw_spin_*() by name.
 * Linux's tracer does the same with arch_spinlock_t. scripts/check_notrace_locks.py, run at every
 * link, checks it: no function without a __fentry__ call may call a _raw_spin_*() function.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <stdint.h>
#include "lib/compiler.h"
#include "arch/x86_64/cpu.h"
#include "kernel/sched/preempt.h"

typedef struct spinlock {
	uint16_t next;  /* the ticket the next locker takes */
	uint16_t owner; /* the ticket now allowed in */
#ifdef CONFIG_DEBUG_ASSERT
	uint16_t owner_cpu; /* smp_processor_id() + 1 of the holder; 0 (as zeroed memory) if free */
#endif
} spinlock_t;

#define SPINLOCK_INIT {.next = 0, .owner = 0} /* designated: owner_cpu, if any, is 0 */
#define DEFINE_SPINLOCK(name) spinlock_t name = SPINLOCK_INIT

static inline void spin_lock_init(spinlock_t *l)
{
	*l = (spinlock_t)SPINLOCK_INIT;
}

/* The raw lock's owner CPU, for the checks only: the holder itself sets and clears it. */
static __always_inline void spin_acquired(spinlock_t *l)
{
#ifdef CONFIG_DEBUG_ASSERT
	WRITE_ONCE(l->owner_cpu, (uint16_t)(smp_processor_id() + 1));
#else
	(void)l;
#endif
}

static __always_inline void spin_releasing(spinlock_t *l)
{
#ifdef CONFIG_DEBUG_ASSERT
	WRITE_ONCE(l->owner_cpu, 0);
#else
	(void)l;
#endif
}

/* Whether this CPU holds l; only the debug and UBSAN builds know (lockdep_assert_held()). */
static __always_inline bool spin_is_held_by_this_cpu(spinlock_t *l)
{
#ifdef CONFIG_DEBUG_ASSERT
	return READ_ONCE(l->owner_cpu) == smp_processor_id() + 1;
#else
	(void)l;
	return true;
#endif
}

static __always_inline bool arch_spin_trylock(spinlock_t *l)
{
	uint16_t owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	uint32_t old = ((uint32_t)owner << 16) | owner; /* free: next == owner */
	uint32_t new = ((uint32_t)owner << 16) | (uint16_t)(owner + 1);
	if (!__atomic_compare_exchange_n((uint32_t *)l, &old, new, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return false;
	spin_acquired(l);
	return true;
}

static __always_inline void arch_spin_unlock(spinlock_t *l)
{
	spin_releasing(l);
	__atomic_store_n(&l->owner, l->owner + 1, __ATOMIC_RELEASE);
}

static __always_inline bool spin_is_locked(spinlock_t *l)
{
	return __atomic_load_n(&l->owner, __ATOMIC_RELAXED) !=
	       __atomic_load_n(&l->next, __ATOMIC_RELAXED);
}

/*
 * Take locks test-and-set (above): true at boot, false on real hardware. A flag and not a static
 * key: every inlined lock would be a site, and patching code takes spin locks itself.
 */
extern bool virt_spin_lock_enabled;
void native_pv_lock_init(void);

/* Under a hypervisor: wait until the lock looks free, then try to take it; true once taken. */
static __always_inline bool virt_spin_lock(spinlock_t *l)
{
	if (!READ_ONCE(virt_spin_lock_enabled))
		return false;
	while (!arch_spin_trylock(l))
		while (spin_is_locked(l))
			cpu_relax();
	return true;
}

static __always_inline void arch_spin_lock(spinlock_t *l)
{
	if (virt_spin_lock(l))
		return; /* trylock noted the owner CPU */
	uint16_t me = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != me)
		cpu_relax();
	spin_acquired(l);
}

/*
 * The lock operations themselves, inline (Linux's include/linux/spinlock_api_smp.h). Code that
 * must never be traced takes its locks with these; everything else calls the out-of-line
 * _raw_spin_*() below, which are these bodies in kernel/locking/spinlock.c.
 */
static __always_inline void __raw_spin_lock(spinlock_t *l)
{
	preempt_disable();
	arch_spin_lock(l);
}

static __always_inline bool __raw_spin_trylock(spinlock_t *l)
{
	preempt_disable();
	if (arch_spin_trylock(l))
		return true;
	preempt_enable();
	return false;
}

static __always_inline void __raw_spin_unlock(spinlock_t *l)
{
	arch_spin_unlock(l);
	preempt_enable();
}

/*
 * The forms that turn interrupts and preemption off (or on) together test the latency hooks
 * once for both (PREEMPTIRQ_HOOK_TEST, kernel/sched/preempt.h): a lock pair is on every path,
 * and each test is two instructions while no latency tracer runs. The hooks are then called in
 * the order the separate forms would call them.
 */
static __always_inline unsigned long __raw_spin_lock_irqsave(spinlock_t *l)
{
	unsigned long flags = raw_local_irq_save();

	PREEMPTIRQ_HOOK_TEST(hook);
	preempt_count_add(1);
	barrier();
	arch_spin_lock(l);
	return flags;
hook:
	__label_cold;
	HOOK_CALL(trace_hardirqs_off); /* with the count as it was: preemptirqsoff starts here */
	preempt_count_add(1);
	barrier();
	HOOK_CALL(trace_preempt_off);
	arch_spin_lock(l);
	return flags;
}

static __always_inline void __raw_spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
{
	arch_spin_unlock(l);
	PREEMPTIRQ_HOOK_TEST(hook);
	raw_local_irq_restore(flags);
	goto enable;
hook:
	__label_cold;
	if (flags & RFLAGS_IF)
		HOOK_CALL(trace_hardirqs_on);
	raw_local_irq_restore(flags);
	HOOK_CALL(trace_preempt_on);
enable:
	barrier();
	preempt_count_sub(1);
	if (unlikely(preempt_count() == 0 && READ_ONCE(this_cpu()->need_resched)))
		preempt_schedule();
}

static __always_inline void __raw_spin_lock_irq(spinlock_t *l)
{
	raw_local_irq_disable();
	PREEMPTIRQ_HOOK_TEST(hook);
	preempt_count_add(1);
	barrier();
	arch_spin_lock(l);
	return;
hook:
	__label_cold;
	HOOK_CALL(trace_hardirqs_off);
	preempt_count_add(1);
	barrier();
	HOOK_CALL(trace_preempt_off);
	arch_spin_lock(l);
}

static __always_inline void __raw_spin_unlock_irq(spinlock_t *l)
{
	arch_spin_unlock(l);
	PREEMPTIRQ_HOOK_TEST(hook);
	raw_local_irq_enable();
	goto enable;
hook:
	__label_cold;
	HOOK_CALL(trace_hardirqs_on);
	raw_local_irq_enable();
	HOOK_CALL(trace_preempt_on);
enable:
	barrier();
	preempt_count_sub(1);
	if (unlikely(preempt_count() == 0 && READ_ONCE(this_cpu()->need_resched)))
		preempt_schedule();
}

/* Out of line and traceable, under Linux's names (kernel/locking/spinlock.c). */
void _raw_spin_lock(spinlock_t *l);
bool _raw_spin_trylock(spinlock_t *l);
void _raw_spin_unlock(spinlock_t *l);
unsigned long _raw_spin_lock_irqsave(spinlock_t *l);
void _raw_spin_unlock_irqrestore(spinlock_t *l, unsigned long flags);
void _raw_spin_lock_irq(spinlock_t *l);
void _raw_spin_unlock_irq(spinlock_t *l);

/*
 * What the kernel calls. A file that is compiled with -pg -mfentry (the Makefile defines
 * CC_USING_FENTRY for exactly those) calls the traceable functions. A file the tracer never
 * traces (trace/, lib/, the code patchers) gets the inline forms: a lock taken there calls no
 * traced code either, so the tracer's own paths cannot come back into the tracer through a lock.
 */
#ifdef CC_USING_FENTRY
#define spin_lock(l) _raw_spin_lock(l)
#define spin_trylock(l) _raw_spin_trylock(l)
#define spin_unlock(l) _raw_spin_unlock(l)
#define spin_lock_irqsave(l) _raw_spin_lock_irqsave(l)
#define spin_unlock_irqrestore(l, flags) _raw_spin_unlock_irqrestore(l, flags)
#define spin_lock_irq(l) _raw_spin_lock_irq(l)
#define spin_unlock_irq(l) _raw_spin_unlock_irq(l)
#else
#define spin_lock(l) __raw_spin_lock(l)
#define spin_trylock(l) __raw_spin_trylock(l)
#define spin_unlock(l) __raw_spin_unlock(l)
#define spin_lock_irqsave(l) __raw_spin_lock_irqsave(l)
#define spin_unlock_irqrestore(l, flags) __raw_spin_unlock_irqrestore(l, flags)
#define spin_lock_irq(l) __raw_spin_lock_irq(l)
#define spin_unlock_irq(l) __raw_spin_unlock_irq(l)
#endif

#endif
