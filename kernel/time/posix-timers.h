/* POSIX clocks and per-process timers (kernel/time/posix-timers.c, posix-cpu-timers.c). */
#ifndef KERNEL_TIME_POSIX_TIMERS_H
#define KERNEL_TIME_POSIX_TIMERS_H

#include <stdbool.h>
#include <stdint.h>

/* Linux's clock ids (uapi/linux/time.h). */
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1 /* also in hrtimer.h: the one clock the hrtimers count on */
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_REALTIME_COARSE 5
#define CLOCK_MONOTONIC_COARSE 6
#define CLOCK_BOOTTIME 7
#define CLOCK_REALTIME_ALARM 8
#define CLOCK_BOOTTIME_ALARM 9
#define CLOCK_TAI 11 /* CLOCK_REALTIME plus the TAI offset, 0 until NTP sets it, as Linux's */
#define TIMER_ABSTIME 0x01

/* The time types of the system-call ABI (uapi/linux/time_types.h). */
struct __kernel_timespec {
	long tv_sec, tv_nsec;
};

struct __kernel_itimerspec {
	struct __kernel_timespec it_interval, it_value;
};

/*
 * A CPU-time clock id (Linux's posix-cpu-timers.h): negative, ~pid << 3, bit 2 for one thread
 * rather than a process, the low two bits which time (PROF: user + system, VIRT: user, SCHED:
 * the scheduler's count, here the same as PROF). CLOCK_PROCESS_CPUTIME_ID and
 * CLOCK_THREAD_CPUTIME_ID are the SCHED clocks of pid 0, the caller.
 */
#define CPUCLOCK_PROF 0
#define CPUCLOCK_VIRT 1
#define CPUCLOCK_SCHED 2
#define CPUCLOCK_MAX 3
#define CPUCLOCK_PERTHREAD_MASK 4
#define CPUCLOCK_WHICH(clock) ((clock)&3)
#define CPUCLOCK_PERTHREAD(clock) (((clock)&CPUCLOCK_PERTHREAD_MASK) != 0)
#define CPUCLOCK_PID(clock) ((int)(~(clock) >> 3))
#define MAKE_PROCESS_CPUCLOCK(pid, which) ((int)((unsigned int)~(pid) << 3) | (which))
#define MAKE_THREAD_CPUCLOCK(pid, which) \
	(MAKE_PROCESS_CPUCLOCK(pid, which) | CPUCLOCK_PERTHREAD_MASK)
#define CLOCKFD 3 /* (id & 7) == 3: a dynamic clock's file descriptor (PTP): none here */
#define CLOCKFD_MASK 7

/*
 * A CPU-time clock's reading (kernel/time/posix-cpu-timers.c): 0 and *ns, or -EINVAL if the
 * id names no clock, no task, or a thread of another process.
 */
int cpu_clock_read(int clock, uint64_t *ns);
/* Which task it names, for a timer: 0, or -EINVAL as cpu_clock_read. */
int cpu_clock_valid(int clock);

struct ksiginfo;
struct task;
/* A timer's signal was taken (kernel/signal.c's dequeue): a periodic timer goes again. */
void posixtimer_rearm(struct ksiginfo *info);
/* The process's timers end (its last thread exits; exec): leader is its group leader. */
void exit_posix_timers(struct task *leader);
/* The CPU-time timers whose time has come, from the tick (kernel/sched/cputime.c). */
void run_posix_cpu_timers(void);
struct seq_file;
/* /proc/PID/timers: the timers of pid's process, as Linux prints them; 0 or -ESRCH. */
int proc_timers_show(struct seq_file *m, int pid);

#endif
