/*
 * The scheduler's decisions, apart from its mechanism: which CPU a waking task should go to,
 * and which CPU an idle one should steal from. Pure functions of a snapshot of the run queues,
 * so they are unit-tested on the host (tests/unit/test_sched_policy.c).
 */
#ifndef KERNEL_SCHED_POLICY_H
#define KERNEL_SCHED_POLICY_H

#include <stdbool.h>
#include <stdint.h>

struct cpu_load {
	bool online;
	int nr_running; /* queued tasks, plus the running one unless it is the idle task */
	int nr_queued;  /* waiting in the queue (could be stolen) */
};

/* An idle allowed CPU (prev first), else the least loaded allowed one; -1 if none allowed. */
int sched_select_cpu(const struct cpu_load *load, int nr_cpus, uint64_t allowed, int prev);
/* The other CPU with the most queued tasks, of those with more than one to run; else -1. */
int sched_find_busiest(const struct cpu_load *load, int nr_cpus, int self);

#endif
