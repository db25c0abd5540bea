/*
 * membarrier (Linux's kernel/sched/membarrier.c): a memory barrier on every CPU that runs the
 * caller's threads (or anyone's), so that a program's fast path can do without one. A user-space
 * RCU or a garbage collector puts only a compiler barrier in its readers and calls membarrier
 * on the rare slow path: when it returns, every other CPU has executed a full barrier since
 * the call began, so the readers' plain loads and stores are ordered against the caller's.
 *
 * Commands:
 *   QUERY                        which commands work here (a bit each)
 *   GLOBAL                       every CPU passes through a full barrier: synchronize_sched()
 *                                (a CPU that switches tasks or takes an interrupt does)
 *   GLOBAL_EXPEDITED             the same at once, by an IPI to every other CPU
 *   PRIVATE_EXPEDITED(_SYNC_CORE) the same, for a process that registered first (EPERM if not)
 *   REGISTER_*                   the registrations, on the process's mm
 * Lucid has no per-CPU "which mm runs here" to aim the expedited IPIs, so they go to every
 * online CPU: more than Linux sends, never less. An IPI's return (iret) serialises the core,
 * which is what SYNC_CORE asks. The rseq commands are not offered (QUERY leaves them out).
 */
#include "kernel/syscalls.h"
#include "kernel/sched/sched.h"
#include "kernel/mm/mm.h"
#include "kernel/smp.h"
#include "lib/errno.h"

#define MEMBARRIER_CMD_QUERY 0
#define MEMBARRIER_CMD_GLOBAL (1 << 0)
#define MEMBARRIER_CMD_GLOBAL_EXPEDITED (1 << 1)
#define MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED (1 << 2)
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED (1 << 3)
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED (1 << 4)
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE (1 << 5)
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE (1 << 6)
#define MEMBARRIER_CMD_BITMASK                                                                    \
	(MEMBARRIER_CMD_GLOBAL | MEMBARRIER_CMD_GLOBAL_EXPEDITED |                                \
	 MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED | MEMBARRIER_CMD_PRIVATE_EXPEDITED |            \
	 MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED | MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE | \
	 MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE)

static void ipi_mb(void *info)
{
	(void)info;
	__atomic_thread_fence(__ATOMIC_SEQ_CST); /* mfence; the IPI's iret serialises too */
}

/* A full barrier here, then on every other CPU, then here again (Linux's order). */
static void membarrier_expedited(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	smp_call_function(ipi_mb, NULL);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

long sys_membarrier(int cmd, unsigned int flags, int cpu_id)
{
	struct mm_struct *mm = current->mm;

	(void)cpu_id; /* only MEMBARRIER_CMD_FLAG_CPU, an rseq flag, uses it */
	if (flags)
		return -EINVAL; /* no command here takes a flag */
	switch (cmd) {
	case MEMBARRIER_CMD_QUERY:
		return MEMBARRIER_CMD_BITMASK;
	case MEMBARRIER_CMD_GLOBAL:
		synchronize_sched();
		return 0;
	case MEMBARRIER_CMD_GLOBAL_EXPEDITED:
		membarrier_expedited();
		return 0;
	case MEMBARRIER_CMD_PRIVATE_EXPEDITED:
	case MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE:
		/* Its registration is the command's own bit shifted once: Linux's numbering. */
		if (!mm || !(READ_ONCE(mm->membarrier_state) & ((unsigned int)cmd << 1)))
			return -EPERM;
		membarrier_expedited();
		return 0;
	case MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED:
	case MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED:
	case MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE:
		if (mm)
			__atomic_fetch_or(&mm->membarrier_state, (unsigned int)cmd,
					  __ATOMIC_SEQ_CST);
		return 0;
	default:
		return -EINVAL;
	}
}
