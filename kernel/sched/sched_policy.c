/* Scheduling decisions as pure functions (see kernel/sched/sched_policy.h for why). */
#include "kernel/sched/sched_policy.h"

static bool allowed_on(uint64_t allowed, int cpu)
{
	return cpu >= 0 && cpu < 64 && (allowed >> cpu & 1);
}

int sched_select_cpu(const struct cpu_load *load, int nr_cpus, uint64_t allowed, int prev)
{
	/* Its previous CPU, if idle: its data may still be in that CPU's caches. */
	if (prev >= 0 && prev < nr_cpus && allowed_on(allowed, prev) && load[prev].online &&
	    load[prev].nr_running == 0)
		return prev;
	int best = -1;
	for (int c = 0; c < nr_cpus; c++) {
		if (!allowed_on(allowed, c) || !load[c].online)
			continue;
		if (best < 0 || load[c].nr_running < load[best].nr_running)
			best = c;
	}
	return best;
}

int sched_find_busiest(const struct cpu_load *load, int nr_cpus, int self)
{
	int busiest = -1;
	for (int c = 0; c < nr_cpus; c++) {
		/*
		 * Only a task that would otherwise wait: a CPU's one task to run is about to run
		 * there (its idle task is being kicked), and taking it would only move it and race
		 * with that CPU. Linux's load_balance pulls only from a queue of more than one.
		 * (Two to run means one at least queued: only one runs.)
		 */
		if (c == self || !load[c].online || load[c].nr_running < 2)
			continue;
		if (busiest < 0 || load[c].nr_queued > load[busiest].nr_queued)
			busiest = c;
	}
	return busiest;
}
