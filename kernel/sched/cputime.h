/* CPU time: where each CPU and each task spent it, counted at the tick (kernel/sched/cputime.c). */
#ifndef KERNEL_SCHED_CPUTIME_H
#define KERNEL_SCHED_CPUTIME_H

#include <stdint.h>
#include <stdbool.h>
#include "kernel/time/time.h"

/* One tick's worth of time, Linux's TICK_NSEC. */
#define TICK_NSEC (NSEC_PER_SEC / HZ)
/* The unit /proc/stat, times(2) and /proc/PID/stat count in: Linux's USER_HZ on x86. */
#define USER_HZ 100

/* /proc/stat's columns, in its order (Linux's enum cpu_usage_stat, include/linux/kernel_stat.h). */
enum cpu_usage_stat {
	CPUTIME_USER,
	CPUTIME_NICE,
	CPUTIME_SYSTEM,
	CPUTIME_IDLE,
	CPUTIME_IOWAIT,
	CPUTIME_IRQ,
	CPUTIME_SOFTIRQ,
	CPUTIME_STEAL,
	CPUTIME_GUEST,
	CPUTIME_GUEST_NICE,
	NR_STATS,
};

/* A CPU's time in each state, in ns (Linux's struct kernel_cpustat). */
struct kernel_cpustat {
	uint64_t cpustat[NR_STATS];
};

extern struct kernel_cpustat kernel_cpustat[];

/* ns -> clock_t (USER_HZ ticks), as Linux's nsec_to_clock_t. */
static inline uint64_t nsec_to_clock_t(uint64_t ns)
{
	return ns / (NSEC_PER_SEC / USER_HZ);
}

/*
 * The tick on this CPU, with interrupts off: one TICK_NSEC to the running task's user or system
 * time (user: the tick interrupted ring 3), or to the CPU's idle time; and its CPU-time interval
 * timers (ITIMER_VIRTUAL, ITIMER_PROF) run down by as much.
 */
void account_process_tick(bool user);

struct task;
/* What a process (whose leader is given) has used: its live threads and those that exited. */
struct group_usage {
	uint64_t utime, stime, nvcsw, nivcsw, min_flt;
};
/* Sums it; task_list_lock is taken inside unless locked (then the caller holds it). */
void thread_group_usage(const struct task *leader, struct group_usage *u, bool locked);
/* do_exit, task_list_lock held: a thread other than the leader folds its figures into it. */
void account_thread_exit(struct task *t);
/* wait4 collects child: its times and its children's become its parent's cutime and cstime. */
void account_child_times(struct task *parent, const struct task *child);

/* struct rusage on x86_64 (144 bytes), as getrusage and wait4 fill it. */
struct rusage {
	long ru_utime_sec, ru_utime_usec;
	long ru_stime_sec, ru_stime_usec;
	long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss, ru_minflt, ru_majflt, ru_nswap;
	long ru_inblock, ru_oublock, ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw;
};
_Static_assert(sizeof(struct rusage) == 144, "Linux's x86_64 struct rusage");

struct mm_struct;
/*
 * t's resident size in mm, if larger than any seen before, becomes its maxrss: at getrusage,
 * and before exec or exit lets go of the address space (Linux's setmax_mm_hiwater_rss).
 */
void update_maxrss(struct task *t, struct mm_struct *mm);

/* wait4's rusage for a child it reports: the child's own times and its children's. */
void child_rusage(const struct task *child, struct rusage *ru);

struct task;
/*
 * ITIMER_VIRTUAL (which 1) and ITIMER_PROF (2) of the process whose leader is leader: what is
 * left of it and its interval, in ns of the process's CPU time (0: off). setitimer's and
 * getitimer's way to them, under the lock the ticks of every CPU take (kernel/time/itimer.c).
 */
void cpu_itimer_get(struct task *leader, int which, uint64_t *left, uint64_t *incr);
void cpu_itimer_set(struct task *leader, int which, uint64_t left, uint64_t incr);

#endif
