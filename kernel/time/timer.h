/* Timers: run a function at a time in the future (kernel/time/timer.c). */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include <stdint.h>
#include "lib/list.h"

struct timer_list {
	uint64_t expires; /* ktime_get_ns() value at which fn runs */
	void (*fn)(struct timer_list *t);
	struct list_head entry;
	void *data;
};

void add_timer(struct timer_list *t);
/* Returns true if the timer was pending (and now will not run). */
bool del_timer(struct timer_list *t);
/* Only from a timer's own fn, which run_timers calls with the timers' lock held: re-arms it. */
void add_timer_from_fn(struct timer_list *t);
/* When t will run (its expires), or 0 if it is not pending. */
uint64_t timer_pending_expires(struct timer_list *t);
void run_timers(void); /* from the tick */
void msleep(unsigned long ms);
/* Ends early if the task is sent a signal: returns the milliseconds left, or 0. */
unsigned long msleep_interruptible(unsigned long ms);
void timer_interrupt_init(void);
/* Each CPU, interrupts off, once its APIC is up: its hrtimer queue, its tick started. */
void tick_setup_sched_timer(void);

struct task;
/* kernel/time/itimer.c: cancels t's alarm(2) and its POSIX timers, as t exits. */
void exit_itimers(struct task *t);
/*
 * execve's de_thread: t takes the place of its process's old leader, which goes; the process's
 * interval timers (alarm, ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF) go on in t, as Linux's stay
 * in the signal_struct its threads share.
 */
void itimer_real_takeover(struct task *t, struct task *old_leader);

#endif
