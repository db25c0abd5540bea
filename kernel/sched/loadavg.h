/* The load average: /proc/loadavg and sysinfo's loads (kernel/sched/loadavg.c). */
#ifndef KERNEL_SCHED_LOADAVG_H
#define KERNEL_SCHED_LOADAVG_H

#include <stdint.h>
#include "kernel/time/time.h"

/*
 * Linux's fixed point (include/linux/sched/loadavg.h): a load is a number of tasks times
 * FIXED_1, 11 bits of fraction. Every LOAD_FREQ the three averages move towards the number of
 * active tasks by a factor: EXP_n = FIXED_1 / e^(5 s / n min), so after n minutes an old load
 * has faded to 1/e.
 */
#define FSHIFT 11 /* bits of precision */
#define FIXED_1 (1UL << FSHIFT) /* 1.0 */
#define LOAD_FREQ (5 * HZ + 1) /* every 5 s, and a tick: not in step with a 5 s periodic job */
#define EXP_1 1884 /* 1 / exp(5 s / 1 min) in fixed point */
#define EXP_5 2014 /* 1 / exp(5 s / 5 min) */
#define EXP_15 2037 /* 1 / exp(5 s / 15 min) */

#define LOAD_INT(x) ((x) >> FSHIFT)
#define LOAD_FRAC(x) LOAD_INT(((x) & (FIXED_1 - 1)) * 100)

/* One step of an average towards active (tasks * FIXED_1), rounded up while it rises. */
static inline unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	unsigned long newload = load * exp + active * (FIXED_1 - exp);

	if (active >= load)
		newload += FIXED_1 - 1;
	return newload / FIXED_1;
}

/* The 1, 5 and 15 minute averages, plus offset (FIXED_1 / 200 rounds them to 2 decimals). */
void get_avenrun(unsigned long *loads, unsigned long offset, int shift);
extern uint64_t calc_load_update; /* the jiffies of the next step */
void calc_global_load_step(void);

/*
 * From CPU 0's tick: every LOAD_FREQ, the averages take a step. Inline, the test of the time:
 * the tick (and a function_graph trace of it) pays a call only once in LOAD_FREQ ticks.
 */
static inline void calc_global_load(void)
{
	if (jiffies >= calc_load_update)
		calc_global_load_step();
}
/* Tasks runnable now on every CPU (the running ones too), and user processes in D. */
unsigned long nr_running_total(void);
unsigned long nr_uninterruptible(void);

#endif
