/*
 * Invariants in code: the checks behind comments such as "called with trace_types_lock held" or
 * "interrupts off", under Linux's names (include/linux/lockdep.h). Each check sits where the
 * comment is, and the comment stays: it says why the condition must hold.
 *
 * Lucid has no lockdep. Linux's lockdep proves lock orders over every path it has seen; these
 * only check the one thing the comment states, on this call: lockdep_assert_held(l) is "held by
 * this task" for a mutex and "held by this CPU" for a spin lock. A failed check WARNs once per
 * place (kernel/panic.h), as Linux's lockdep reports once and goes on, so the report names the
 * function that broke the rule and the kernel keeps running to show what follows.
 *
 * What each check costs decides when it is compiled in:
 *   - lockdep_assert_held() of a mutex: always. Its owner is there anyway
 *     (kernel/locking/mutex.c takes the lock with it), and the functions that require a mutex
 *     are slow paths (tracefs writes);
 *   - lockdep_assert_held() of a spin lock: only in the debug and UBSAN builds, the only ones in
 *     which a spin lock records its holder (kernel/locking/spinlock.h says why);
 *   - lockdep_assert() and the interrupt and preemption checks: only in those builds too. They
 *     sit on the tracer's per-event paths (probes, callbacks, trace_printk) and in the VFS's
 *     inner loops, which make bench keeps as they are in the normal build.
 * "Those builds" are the ones with CONFIG_DEBUG_ASSERT: make DEBUG=1 and make UBSAN=1. Elsewhere
 * the checks compile to nothing. Host unit tests compile some of these files with stand-ins for
 * locks and no CPUs: there every check compiles to nothing.
 */
#ifndef KERNEL_LOCKDEP_H
#define KERNEL_LOCKDEP_H

#if defined(LUCID_HOST)

#define lockdep_assert(cond) ((void)0)
#define lockdep_assert_held(l) ((void)sizeof(l)) /* no reference: the lock may not exist here */
#define lockdep_assert_irqs_disabled() ((void)0)
#define lockdep_assert_irqs_enabled() ((void)0)
#define lockdep_assert_preemption_disabled() ((void)0)
#define lockdep_assert_on_cpu(cpu) ((void)(cpu))

#else

#include <stdbool.h>
#include "lib/compiler.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/sched/preempt.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/mutex.h"
#include "arch/x86_64/cpu.h"

/* A check that costs on hot paths: only in the debug and UBSAN builds. cond is never evaluated
 * otherwise (sizeof keeps it type-checked, so it cannot rot). */
#ifdef CONFIG_DEBUG_ASSERT
#define lockdep_assert(cond) ((void)WARN_ON_ONCE(!(cond)))
#else
#define lockdep_assert(cond) ((void)sizeof(cond))
#endif

static __always_inline bool lockdep_mutex_held(struct mutex *m)
{
	return READ_ONCE(m->owner) == current;
}

/* Always true in the normal build, which does not record a spin lock's holder. */
static __always_inline bool lockdep_spin_held(spinlock_t *l)
{
	return spin_is_held_by_this_cpu(l);
}

/* "Called with l held": by this task (a mutex) or this CPU (a spin lock). */
#define lockdep_assert_held(l)                                                                     \
	((void)WARN_ON_ONCE(!_Generic((l), struct mutex *: lockdep_mutex_held,                     \
				      spinlock_t *: lockdep_spin_held)(l)))

#define lockdep_assert_irqs_disabled() lockdep_assert(irqs_disabled())
#define lockdep_assert_irqs_enabled() lockdep_assert(!irqs_disabled())
/* As Linux's: interrupts off keep this task on this CPU as surely as the preemption count. */
#define lockdep_assert_preemption_disabled() lockdep_assert(preempt_count() || irqs_disabled())
/* "On cpu": only where the caller cannot move meanwhile (preemption or interrupts off). */
#define lockdep_assert_on_cpu(cpu) lockdep_assert((cpu) == smp_processor_id())

#endif /* LUCID_HOST */

#endif
