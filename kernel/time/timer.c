/*
 * Timers (struct timer_list) and the tick.
 *
 * The tick is a high-resolution timer of each CPU's (tick_sched_timer, kernel/time/hrtimer.c)
 * that comes back every TICK_NSEC (HZ times a second). It accounts the tick (to the running
 * task's user or system time, or to idle: kernel/sched/cputime.c), looks at the head of the
 * timer_list queue and runs whatever has expired, then lets the scheduler account the tick.
 *
 * So a timer_list is as precise as the tick, 10 ms, as Linux's timer wheel (which counts
 * jiffies) is: schedule_timeout(), alarm(2), the modules' timers. What must end on time
 * (nanosleep, timerlat) uses an hrtimer instead.
 *
 * One global list (not one per CPU) keeps this short; with a handful of sleepers it is never
 * contended enough to matter.
 */
#include "kernel/time/timer.h"
#include "kernel/time/posix-timers.h"
#include "kernel/time/time.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/cputime.h"
#include "kernel/sched/loadavg.h"
#include "kernel/locking/lockdep.h"
#include "kernel/printk.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/lapic.h"
#include "kernel/watchdog.h"
#include "kernel/debug/ftest.h"
#include "trace/ftrace_probe.h"
#include "trace/events/timer.h"
#include "kernel/time/hrtimer.h"

static LIST_HEAD(timers);
static DEFINE_SPINLOCK(timer_lock);

static void __add_timer(struct timer_list *t)
{
	struct timer_list *pos;

	/* ABS: expires is a time, not a delay */
	trace_hrtimer_start(t, (void *)t->fn, t->expires, HRTIMER_MODE_ABS);
	list_for_each_entry(pos, &timers, entry)
		if (pos->expires > t->expires)
			break;
	list_add_tail(&t->entry, &pos->entry); /* before the first later timer */
}

void add_timer(struct timer_list *t)
{
	unsigned long flags = spin_lock_irqsave(&timer_lock);
	__add_timer(t);
	spin_unlock_irqrestore(&timer_lock, flags);
}

/*
 * A periodic timer's fn puts itself back with a later expires (Linux's hrtimer callback that
 * returns HRTIMER_RESTART): run_timers holds the lock that add_timer would take.
 */
void add_timer_from_fn(struct timer_list *t)
{
	lockdep_assert_held(&timer_lock);
	__add_timer(t);
}

bool del_timer(struct timer_list *t)
{
	unsigned long flags = spin_lock_irqsave(&timer_lock);
	bool pending = t->entry.next && !list_empty(&t->entry);
	if (pending) {
		trace_hrtimer_cancel(t);
		list_del_init(&t->entry);
	}
	spin_unlock_irqrestore(&timer_lock, flags);
	return pending;
}

uint64_t timer_pending_expires(struct timer_list *t)
{
	unsigned long flags = spin_lock_irqsave(&timer_lock);
	uint64_t expires = t->entry.next && !list_empty(&t->entry) ? t->expires : 0;

	spin_unlock_irqrestore(&timer_lock, flags);
	return expires;
}

void run_timers(void)
{
	uint64_t now = ktime_get_ns();
	for (;;) {
		unsigned long flags = spin_lock_irqsave(&timer_lock);
		struct timer_list *t =
			list_empty(&timers) ? NULL
					    : list_first_entry(&timers, struct timer_list, entry);
		if (!t || t->expires > now) {
			spin_unlock_irqrestore(&timer_lock, flags);
			return;
		}
		trace_hrtimer_cancel(t); /* off the queue: Linux's __run_hrtimer() says so too */
		list_del_init(&t->entry);
		/*
		 * Run it with the lock held: then del_timer() cannot return while fn still runs,
		 * so a sleeper whose timer lives on its stack can safely return and reuse that
		 * stack. The price: fn must not add or delete timers.
		 */
		trace_hrtimer_expire_entry(t, (void *)t->fn, now);
		t->fn(t);
		trace_hrtimer_expire_exit(t);
		spin_unlock_irqrestore(&timer_lock, flags);
	}
}

static void wake_sleeper(struct timer_list *t)
{
	wake_up_process(t->data);
}

long schedule_timeout(long ms)
{
	struct timer_list t = {.expires = ktime_get_ns() + (uint64_t)ms * NSEC_PER_MSEC,
			       .fn = wake_sleeper,
			       .data = current};
	INIT_LIST_HEAD(&t.entry);
	add_timer(&t);
	schedule();
	del_timer(&t);
	uint64_t now = ktime_get_ns();
	return now >= t.expires ? 0 : (long)((t.expires - now) / NSEC_PER_MSEC);
}

void msleep(unsigned long ms)
{
	uint64_t end = ktime_get_ns() + ms * NSEC_PER_MSEC;
	while (ktime_get_ns() < end) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule_timeout((long)((end - ktime_get_ns()) / NSEC_PER_MSEC) + 1);
	}
}

/*
 * As msleep, but a signal ends the sleep early (the sleep a user waits on: `sleep 60`). Returns
 * the milliseconds left, 0 if it slept them all. Asleep before it tests for a signal, so a
 * signal sent meanwhile wakes it (kernel/signal.c).
 */
unsigned long msleep_interruptible(unsigned long ms)
{
	uint64_t end = ktime_get_ns() + ms * NSEC_PER_MSEC;
	uint64_t now;

	while ((now = ktime_get_ns()) < end) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (signal_pending_current()) {
			set_current_state(TASK_RUNNING);
			return (end - now) / NSEC_PER_MSEC + 1;
		}
		schedule_timeout((long)((end - now) / NSEC_PER_MSEC) + 1);
	}
	return 0;
}

/*
 * The tick's work, as a timer of each CPU's (Linux's tick_sched_timer, an hrtimer): its
 * expire events frame it, with this function's name. It runs inside the timer interrupt, whose
 * registers timer_interrupt() left in irq_regs: user or kernel time, the watchdog's report.
 */
static struct hrtimer tick_timers[NR_CPUS];
static struct pt_regs *irq_regs[NR_CPUS];

static enum hrtimer_restart tick_sched_timer(struct hrtimer *tick)
{
	struct cpu *cpu = this_cpu();
	struct pt_regs *regs = irq_regs[cpu->id];
	uint64_t missed = hrtimer_forward(tick, ktime_get_ns(), TICK_NSEC); /* >= 1: it expired */

	watchdog_tick(regs);
	cpu->ticks++;
	account_process_tick(user_mode(regs)); /* user, system or idle time (cputime.c) */
	if (cpu->id == 0) {
		jiffies += missed; /* ticks a long interrupts-off stretch delayed still count */
		update_vsyscall(); /* the coarse clocks move: the vDSO's data (vsyscall.c) */
		calc_global_load(); /* the load average, every LOAD_FREQ (loadavg.c) */
	}
	run_timers();
	scheduler_tick();
	/* timer_create's on CPU-time clocks, as Linux's update_process_times */
	run_posix_cpu_timers();
	ftest_tick(); /* `ftest tick N`: trace_printk from the tick */
	trace_snapshot_tick(); /* "func:snapshot" fired: wake the thread that swaps */
	printk_tick(); /* something was logged: wake syslog(2)'s readers */
	return HRTIMER_RESTART;
}

/* The local APIC timer's vector: Linux's sysvec_apic_timer_interrupt. */
static void timer_interrupt(struct pt_regs *regs)
{
	irq_regs[this_cpu()->id] = regs;
	hrtimer_interrupt();
}

void timer_interrupt_init(void)
{
	set_irq_handler(VEC_TIMER, timer_interrupt);
}

/*
 * Each CPU, once its APIC is up (interrupts off): its timer queue, and its tick in it. The
 * ticks of all CPUs fall on the same multiples of TICK_NSEC (Linux aligns them too).
 */
void tick_setup_sched_timer(void)
{
	struct hrtimer *tick = &tick_timers[this_cpu()->id];
	uint64_t now = ktime_get_ns();

	hrtimers_init_this_cpu();
	hrtimer_init(tick, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_HARD);
	tick->function = tick_sched_timer;
	hrtimer_start(tick, now - now % TICK_NSEC + TICK_NSEC, HRTIMER_MODE_ABS_PINNED_HARD);
}
