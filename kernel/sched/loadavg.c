/*
 * The load average (Linux's kernel/sched/loadavg.c): the number of tasks that want a CPU
 * (running or runnable) or wait uninterruptibly, averaged with exponential decay over 1, 5
 * and 15 minutes, in Linux's fixed point (kernel/sched/loadavg.h).
 *
 * Linux folds each CPU's count into a global one as its tick passes; Lucid has few CPUs and
 * one tick that counts jiffies, so CPU 0's tick samples every run queue at once, every
 * LOAD_FREQ ticks. Uninterruptible sleepers count only when they are user processes: Lucid's
 * kernel threads sleep in TASK_UNINTERRUPTIBLE (msleep) where Linux's daemons use TASK_IDLE,
 * which Linux leaves out of the load; counting them would give an idle machine a load of 1.
 */
#include "kernel/sched/loadavg.h"
#include "kernel/sched/sched.h"
#include "kernel/percpu.h"

static unsigned long avenrun[3]; /* the three averages, FIXED_1 = one task */
uint64_t calc_load_update = LOAD_FREQ;

void get_avenrun(unsigned long *loads, unsigned long offset, int shift)
{
	for (int i = 0; i < 3; i++)
		loads[i] = (READ_ONCE(avenrun[i]) + offset) << shift;
}

unsigned long nr_running_total(void)
{
	unsigned long n = 0;

	for (int c = 0; c < num_online_cpus(); c++)
		n += (unsigned long)nr_running(c);
	return n;
}

unsigned long nr_uninterruptible(void)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock), n = 0;
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->mm && (READ_ONCE(t->state) & TASK_UNINTERRUPTIBLE) &&
		    !(READ_ONCE(t->state) & TASK_DEAD))
			n++;
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return n;
}

void calc_global_load_step(void)
{
	unsigned long active;

	calc_load_update += LOAD_FREQ;
	active = (nr_running_total() + nr_uninterruptible()) * FIXED_1;
	WRITE_ONCE(avenrun[0], calc_load(avenrun[0], EXP_1, active));
	WRITE_ONCE(avenrun[1], calc_load(avenrun[1], EXP_5, active));
	WRITE_ONCE(avenrun[2], calc_load(avenrun[2], EXP_15, active));
}
