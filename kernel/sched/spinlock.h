/*
 * Spin locks: mutual exclusion between CPUs for short critical sections.
 *
 * A ticket lock: each locker takes the next ticket and waits until "owner" reaches it, so CPUs
 * get the lock in the order they asked (no starvation). While waiting we execute pause: under
 * QEMU, four vCPUs share two host cores, and a vCPU spinning at full speed steals the time the
 * lock holder needs to finish. Holding a spin lock disables preemption; the _irqsave forms also
 * disable interrupts, for locks an interrupt handler takes too.
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
} spinlock_t;

#define SPINLOCK_INIT {0, 0}
#define DEFINE_SPINLOCK(name) spinlock_t name = SPINLOCK_INIT

static inline void spin_lock_init(spinlock_t *l)
{
	l->next = 0;
	l->owner = 0;
}

static __always_inline void arch_spin_lock(spinlock_t *l)
{
	uint16_t me = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != me)
		cpu_relax();
}

static __always_inline bool arch_spin_trylock(spinlock_t *l)
{
	uint16_t owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	uint32_t old = ((uint32_t)owner << 16) | owner; /* free: next == owner */
	uint32_t new = ((uint32_t)owner << 16) | (uint16_t)(owner + 1);
	return __atomic_compare_exchange_n((uint32_t *)l, &old, new, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static __always_inline void arch_spin_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->owner, l->owner + 1, __ATOMIC_RELEASE);
}

static __always_inline bool spin_is_locked(spinlock_t *l)
{
	return __atomic_load_n(&l->owner, __ATOMIC_RELAXED) !=
	       __atomic_load_n(&l->next, __ATOMIC_RELAXED);
}

static __always_inline void spin_lock(spinlock_t *l)
{
	preempt_disable();
	arch_spin_lock(l);
}

static __always_inline bool spin_trylock(spinlock_t *l)
{
	preempt_disable();
	if (arch_spin_trylock(l))
		return true;
	preempt_enable();
	return false;
}

static __always_inline void spin_unlock(spinlock_t *l)
{
	arch_spin_unlock(l);
	preempt_enable();
}

static __always_inline unsigned long spin_lock_irqsave(spinlock_t *l)
{
	unsigned long flags = local_irq_save();
	preempt_disable();
	arch_spin_lock(l);
	return flags;
}

static __always_inline void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags)
{
	arch_spin_unlock(l);
	local_irq_restore(flags);
	preempt_enable();
}

static __always_inline void spin_lock_irq(spinlock_t *l)
{
	local_irq_disable();
	preempt_disable();
	arch_spin_lock(l);
}

static __always_inline void spin_unlock_irq(spinlock_t *l)
{
	arch_spin_unlock(l);
	local_irq_enable();
	preempt_enable();
}

#endif
