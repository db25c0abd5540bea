/*
 * CPU-time clocks (Linux's kernel/time/posix-cpu-timers.c, their reading): how long a thread,
 * or all the threads of a process, have run, as the tick counts it (kernel/sched/cputime.c:
 * user and system time, a whole tick at a time). clock_gettime and clock_getres reach them as
 * CLOCK_PROCESS_CPUTIME_ID and CLOCK_THREAD_CPUTIME_ID (the caller's), or through the encoded
 * ids of clock_getcpuclockid and pthread_getcpuclockid for other processes and threads
 * (posix-timers.h). Timers on them are posix-timers.c's, run from the tick.
 *
 * Which task an id names follows Linux's pid_for_clock: pid 0 is the caller; a thread clock
 * must name a thread of the caller's own process; a process clock a process (its leader's pid,
 * or the caller's own thread id). A zombie still has its clock, until it is reaped.
 */
#include "kernel/time/posix-timers.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/cputime.h"
#include "lib/errno.h"

/* The task clock names, task_list_lock held: a thread, a process's leader, or NULL. */
static struct task *clock_task(int clock)
{
	struct task *me = current, *t;
	int pid = CPUCLOCK_PID(clock);
	bool thread = CPUCLOCK_PERTHREAD(clock);

	if (CPUCLOCK_WHICH(clock) >= CPUCLOCK_MAX)
		return NULL;
	if (pid == 0)
		return thread ? me : me->group_leader;
	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->pid != pid || t->reaped)
			continue;
		if (thread)
			return t->group_leader == me->group_leader ? t : NULL;
		if (t == me)
			return me->group_leader;
		return t->group_leader == t ? t : NULL;
	}
	return NULL;
}

static uint64_t task_cputime(const struct task *t, int which)
{
	uint64_t utime = READ_ONCE(t->utime);

	return which == CPUCLOCK_VIRT ? utime : utime + READ_ONCE(t->stime);
}

int cpu_clock_read(int clock, uint64_t *ns)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *target = clock_task(clock);
	int which = CPUCLOCK_WHICH(clock);

	*ns = 0;
	if (target && CPUCLOCK_PERTHREAD(clock)) {
		*ns = task_cputime(target, which);
	} else if (target) { /* the process: its threads, those that exited too */
		struct group_usage u;

		thread_group_usage(target, &u, true);
		*ns = which == CPUCLOCK_VIRT ? u.utime : u.utime + u.stime;
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return target ? 0 : -EINVAL;
}

int cpu_clock_valid(int clock)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *target = clock_task(clock);

	spin_unlock_irqrestore(&task_list_lock, flags);
	return target ? 0 : -EINVAL;
}
