/* High-resolution timers: run a function at a nanosecond time, on time (kernel/time/hrtimer.c). */
#ifndef KERNEL_TIME_HRTIMER_H
#define KERNEL_TIME_HRTIMER_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/list.h"
#include "trace/events/timer.h" /* enum hrtimer_mode, with Linux's values */

#define KTIME_MAX ((uint64_t)INT64_MAX) /* Linux's: the last time a ktime_t can say */
#define CLOCK_REALTIME 0 /* Linux's clock ids: those an hrtimer may count on */
#define CLOCK_MONOTONIC 1
#define CLOCK_BOOTTIME 7
#define CLOCK_TAI 11
/* Linux's modes of a per-CPU timer that runs in hard irq (the tick's, timerlat's). */
#define HRTIMER_MODE_ABS_PINNED_HARD \
	(HRTIMER_MODE_ABS | __HRTIMER_MODE_PINNED | __HRTIMER_MODE_HARD)

/* What a timer's function answers: done, or queue me again at my (moved) expires. */
enum hrtimer_restart {
	HRTIMER_NORESTART,
	HRTIMER_RESTART,
};

/* A timer is on its CPU's queue (ENQUEUED) or not (INACTIVE); running is the base's. */
enum hrtimer_state {
	HRTIMER_STATE_INACTIVE,
	HRTIMER_STATE_ENQUEUED,
};

struct hrtimer_cpu_base;

struct hrtimer {
	struct list_head node; /* on base->active, sorted by expires */
	uint64_t expires; /* ktime_get_ns() at which function runs */
	enum hrtimer_restart (*function)(struct hrtimer *timer); /* hard irq, interrupts off */
	struct hrtimer_cpu_base *base; /* the CPU whose queue it is (or was last) on */
	enum hrtimer_state state;
	enum hrtimer_mode mode; /* as started: for the hrtimer_start event */
	/*
	 * On the realtime base (Linux's HRTIMER_BASE_REALTIME, and _TAI): an absolute time of
	 * the date, which moves when the date is set. expires is kept on ktime_get_ns() all the
	 * same, and offs_real is the offset (kernel/time/timekeeping.c) it was converted with:
	 * expires + offs_real is the date it waits for, always.
	 */
	bool is_real;
	uint64_t offs_real;
};

/* A task sleeping until a timer wakes it (nanosleep): task is NULL once it has. */
struct hrtimer_sleeper {
	struct hrtimer timer;
	struct task *task;
};

/*
 * clock_id: CLOCK_MONOTONIC or CLOCK_BOOTTIME (the same line here: ktime_get_ns), or
 * CLOCK_REALTIME or CLOCK_TAI (the date): as Linux's __hrtimer_init, a relative CLOCK_REALTIME
 * timer is a monotonic one (a length of time does not change with the date).
 */
void hrtimer_init(struct hrtimer *timer, int clock_id, enum hrtimer_mode mode);
/*
 * Queue timer on this CPU for tim (ABS: a time on its clock, a date for a realtime timer;
 * REL: that long from now), first taking it off the queue if it was on one. A timer whose
 * function is running stays on that CPU (Linux's rule too). One caller at a time starts or
 * cancels a given timer.
 */
void hrtimer_start(struct hrtimer *timer, uint64_t tim, enum hrtimer_mode mode);
/* Its expiry set to tim (a time on its clock), not queued (Linux's hrtimer_set_expires). */
void hrtimer_set_expires(struct hrtimer *timer, uint64_t tim);
/* Queued again at the expires it has (as hrtimer_forward left it): Linux's hrtimer_restart. */
void hrtimer_start_expires(struct hrtimer *timer);
/*
 * The realtime timer's expires (ktime_get_ns()) as of the date now: a timer neither queued nor
 * running may have missed a clock_was_set; a queued one never does. Others: unchanged.
 */
void hrtimer_update_expires(struct hrtimer *timer);
/*
 * The date was set (kernel/time/timekeeping.c's do_settimeofday64, offs_real already new):
 * every queued realtime timer is moved to wait for the same date (Linux's clock_was_set and
 * hrtimer_update_base), then timerfd's TFD_TIMER_CANCEL_ON_SET files are told.
 */
void clock_was_set(void);
/* kernel/fs/timerfd.c: the date was set (Linux's timerfd_clock_was_set). */
void timerfd_clock_was_set(void);
/* 1: it was queued and now will not run; 0: it was not queued; -1: its function is running. */
int hrtimer_try_to_cancel(struct hrtimer *timer);
/*
 * As try_to_cancel, but waits for a running function to return: after it, the timer is not
 * queued and its function runs nowhere (its memory may go). Never from its own function.
 */
int hrtimer_cancel(struct hrtimer *timer);
/* Moves expires on by whole intervals past now; returns how many (0: it was not due yet). */
uint64_t hrtimer_forward(struct hrtimer *timer, uint64_t now, uint64_t interval);
bool hrtimer_active(const struct hrtimer *timer); /* queued, or its function running */
/* When it will run, or KTIME_MAX if it is not queued. */
uint64_t hrtimer_get_expires(struct hrtimer *timer);

void hrtimer_init_sleeper(struct hrtimer_sleeper *sl, int clock_id, enum hrtimer_mode mode);

/* The timer interrupt of this CPU (arch/x86_64's vector handler calls it): run what expired. */
void hrtimer_interrupt(void);
/* Each CPU, once, interrupts off: its queue, empty (the tick is then started on it). */
void hrtimers_init_this_cpu(void);

#endif
