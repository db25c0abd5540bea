/*
 * High-resolution timers (Linux's kernel/time/hrtimer.c, much shortened).
 *
 * A timer runs its function at a time in nanoseconds of ktime_get_ns(), in hard-irq context,
 * within the interrupt latency of that time: not at the next tick. Each CPU has a queue of its
 * timers (struct hrtimer_cpu_base) sorted by expiry, and its local APIC timer is programmed
 * one-shot for the first of them (arch/x86_64/lapic.c: lapic_timer_set_next_event). When it
 * fires, hrtimer_interrupt() runs every timer whose time has come, then programs the next.
 *
 * The tick is one of these timers (tick_sched_timer, kernel/time/timer.c), re-armed every
 * TICK_NSEC, as in Linux's high-resolution mode: the APIC has one timer, and once it is
 * one-shot for the timers it cannot also be periodic. So every CPU always has a timer queued,
 * and the next interrupt is never more than a tick away.
 *
 * Choices, and why:
 *   - The queue is a sorted list, not Linux's red-black tree: a CPU holds a handful of timers
 *     (its tick, a sleeper or two, timerlat's), so insertion's walk is short, and the first
 *     timer, the only one the interrupt looks at, is the head.
 *   - A timer is queued on the CPU that starts it. A sleeper wakes on the CPU it slept on,
 *     timerlat's thread (pinned) gets its CPU's interrupt, as Linux's pinned hrtimer does.
 *   - The function runs with its base's lock dropped (so it may start timers, wake tasks) and
 *     base->running pointing at it: hrtimer_cancel() waits until it has returned, so a sleeper
 *     whose timer lives on its stack may return once cancel has.
 *   - No slack: softexpires is expires (Linux's timer_slack_ns lets it batch nearby timers).
 *   - Two clock bases, not Linux's eight queues: every expires is a ktime_get_ns() time, and a
 *     timer on the realtime base (an absolute CLOCK_REALTIME or CLOCK_TAI time, is_real)
 *     also keeps the offset of the date it was converted with (offs_real, Linux's
 *     timekeeping offset of the same name). When the date is set, clock_was_set() walks each
 *     CPU's queue and moves those timers by the change, so they still wait for their date:
 *     Linux instead keeps their expiry as a date and adds the base's offset as it compares.
 *     A timer off the queue meanwhile (its function running) is moved as it is queued again.
 *
 * Invariants, checked below: a queued timer is on its own base's list, in order; a queued
 * realtime timer's offs_real is the date's once clock_was_set() is done (but for one due at
 * once, whose date is before ktime_get_ns()'s 0); only the base's CPU programs that CPU's
 * APIC; a timer is queued on another CPU's base only while its function runs there (that CPU
 * then programs its APIC on the way out of the interrupt). The trace events show a realtime
 * timer's times as dates, as Linux's show each base's own clock.
 *
 * Traced (hrtimer_interrupt shows under timer_interrupt in function_graph); the events
 * hrtimer_start/cancel/expire_entry/expire_exit are Linux's, at Linux's places.
 */
#include "kernel/time/hrtimer.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/lockdep.h"
#include "kernel/time/time.h"
#include "kernel/percpu.h"
#include "kernel/panic.h"
#include "arch/x86_64/lapic.h"

#define HRTIMER_MAX_RETRIES 3 /* passes over the queue in one interrupt (Linux's too) */

struct hrtimer_cpu_base {
	spinlock_t lock;
	struct list_head active; /* queued timers, soonest first */
	struct hrtimer *running; /* whose function runs now (lock dropped), or NULL */
	bool in_hrtirq; /* inside hrtimer_interrupt: it programs the APIC on the way out */
	uint64_t next_event; /* what the APIC is programmed for; KTIME_MAX: nothing */
	int cpu;
};

static struct hrtimer_cpu_base hrtimer_bases[NR_CPUS];

DEFINE_TRACE(hrtimer_start); /* trace/events/timer.h */
DEFINE_TRACE(hrtimer_cancel);
DEFINE_TRACE(hrtimer_expire_entry);
DEFINE_TRACE(hrtimer_expire_exit);

static struct hrtimer_cpu_base *this_cpu_base(void)
{
	return &hrtimer_bases[smp_processor_id()];
}

void hrtimers_init_this_cpu(void)
{
	struct hrtimer_cpu_base *base = this_cpu_base();

	spin_lock_init(&base->lock);
	INIT_LIST_HEAD(&base->active);
	base->running = NULL;
	base->next_event = KTIME_MAX;
	base->cpu = smp_processor_id();
}

void hrtimer_init(struct hrtimer *timer, int clock_id, enum hrtimer_mode mode)
{
	WARN_ON(clock_id != CLOCK_MONOTONIC && clock_id != CLOCK_BOOTTIME &&
		clock_id != CLOCK_REALTIME && clock_id != CLOCK_TAI);
	INIT_LIST_HEAD(&timer->node);
	timer->expires = 0;
	timer->function = NULL;
	timer->base = this_cpu_base();
	timer->state = HRTIMER_STATE_INACTIVE;
	timer->mode = mode;
	/* Linux: a relative CLOCK_REALTIME timer goes on the monotonic base; a TAI one stays. */
	timer->is_real =
		clock_id == CLOCK_TAI || (clock_id == CLOCK_REALTIME && !(mode & HRTIMER_MODE_REL));
	timer->offs_real = 0;
}

/*
 * A realtime timer set to wait for the date tim, with offs the date's offset over
 * ktime_get_ns(): afterwards expires + offs_real == tim. A date before ktime_get_ns()'s 0 is
 * due at once (expires 0, offs_real tim); KTIME_MAX, never, stays never whatever the date.
 */
static void set_expires_real(struct hrtimer *timer, uint64_t tim, uint64_t offs)
{
	if (tim == KTIME_MAX) {
		timer->expires = KTIME_MAX;
		timer->offs_real = 0;
		return;
	}
	timer->expires = tim > offs ? tim - offs : 0;
	timer->offs_real = tim - timer->expires;
}

/*
 * A realtime timer brought to the date's offset now (not on a queue: its place would change).
 * Inline, and nothing called for the other timers: every enqueue passes here, the tick's too.
 */
static __always_inline void hrtimer_update_real(struct hrtimer *timer)
{
	if (!timer->is_real || timer->expires == KTIME_MAX)
		return;
	uint64_t offs = ktime_get_real_offset_ns();

	if (timer->offs_real != offs)
		set_expires_real(timer, timer->expires + timer->offs_real, offs);
}

/* The time a trace event shows: on the timer's own clock, as Linux's (a date if realtime). */
static uint64_t base_time(const struct hrtimer *timer, uint64_t ns)
{
	return timer->is_real && ns != KTIME_MAX ? ns + timer->offs_real : ns;
}

/* Lock the base timer is on. It may move meanwhile (hrtimer_start): then try the new one. */
static struct hrtimer_cpu_base *lock_hrtimer_base(struct hrtimer *timer, unsigned long *flags)
{
	for (;;) {
		struct hrtimer_cpu_base *base = READ_ONCE(timer->base);

		*flags = spin_lock_irqsave(&base->lock);
		if (base == READ_ONCE(timer->base))
			return base;
		spin_unlock_irqrestore(&base->lock, *flags);
	}
}

/* Onto base's list, before the first later timer. */
static void hrtimer_insert(struct hrtimer *timer, struct hrtimer_cpu_base *base)
{
	struct hrtimer *pos;

	list_for_each_entry(pos, &base->active, node)
		if (pos->expires > timer->expires)
			break;
	list_add_tail(&timer->node, &pos->node);
}

/*
 * Into the queue, a realtime timer first moved to the date's offset now: read under the base's
 * lock, which clock_was_set() takes after the offset changed, so no queued timer misses it.
 * Returns whether it is now the first.
 */
static bool enqueue_hrtimer(struct hrtimer *timer, struct hrtimer_cpu_base *base)
{
	lockdep_assert_held(&base->lock);
	WARN_ON(timer->base != base || timer->state != HRTIMER_STATE_INACTIVE);
	hrtimer_update_real(timer);
	trace_hrtimer_start(timer, (void *)timer->function, base_time(timer, timer->expires),
			    timer->mode);
	hrtimer_insert(timer, base);
	timer->state = HRTIMER_STATE_ENQUEUED;
	return base->active.next == &timer->node;
}

static void __remove_hrtimer(struct hrtimer *timer)
{
	lockdep_assert_held(&timer->base->lock);
	trace_hrtimer_cancel(timer); /* off the queue, to run or not: Linux's debug_deactivate */
	list_del_init(&timer->node);
	timer->state = HRTIMER_STATE_INACTIVE;
}

/* Program this CPU's APIC for its first timer, unless the interrupt will do it on its way out. */
static void hrtimer_reprogram(struct hrtimer_cpu_base *base, uint64_t expires)
{
	WARN_ON(base != this_cpu_base()); /* only a CPU programs its own APIC */
	if (base->in_hrtirq || expires >= base->next_event)
		return;
	base->next_event = expires;
	lapic_timer_set_next_event(expires);
}

void hrtimer_start(struct hrtimer *timer, uint64_t tim, enum hrtimer_mode mode)
{
	unsigned long flags;
	struct hrtimer_cpu_base *base = lock_hrtimer_base(timer, &flags);
	struct hrtimer_cpu_base *new_base = this_cpu_base();

	if (timer->state == HRTIMER_STATE_ENQUEUED)
		__remove_hrtimer(timer);
	if (mode & HRTIMER_MODE_REL) {
		uint64_t now = timer->is_real ? ktime_get_real_ns() : ktime_get_ns();

		tim = tim > KTIME_MAX - now ? KTIME_MAX : tim + now; /* saturated, as Linux's */
	}
	hrtimer_set_expires(timer, tim);
	timer->mode = mode;
	/* Move it to this CPU, unless its function runs on its own (it would lose the restart). */
	if (new_base != base && base->running != timer) {
		WRITE_ONCE(timer->base, new_base);
		spin_unlock(&base->lock); /* interrupts stay off: flags are restored below */
		spin_lock(&new_base->lock);
		base = new_base;
	}
	if (enqueue_hrtimer(timer, base)) {
		if (base == new_base)
			hrtimer_reprogram(base, timer->expires);
		else
			/* its function runs there: it programs its own */
			WARN_ON(!base->in_hrtirq);
	}
	spin_unlock_irqrestore(&base->lock, flags);
}

void hrtimer_set_expires(struct hrtimer *timer, uint64_t tim)
{
	if (timer->is_real)
		set_expires_real(timer, tim, ktime_get_real_offset_ns());
	else
		timer->expires = tim;
}

void hrtimer_start_expires(struct hrtimer *timer)
{
	/* The date it waits for, exactly: expires + offs_real (see struct hrtimer). */
	hrtimer_start(timer, base_time(timer, timer->expires), HRTIMER_MODE_ABS);
}

void hrtimer_update_expires(struct hrtimer *timer)
{
	unsigned long flags;
	struct hrtimer_cpu_base *base = lock_hrtimer_base(timer, &flags);

	if (timer->state != HRTIMER_STATE_ENQUEUED && base->running != timer)
		hrtimer_update_real(timer);
	spin_unlock_irqrestore(&base->lock, flags);
}

/*
 * The date was set: on each CPU's queue, the realtime timers taken off and put back in their
 * new places (Linux's clock_was_set, retrigger_next_event on each CPU). This CPU's APIC is
 * programmed for its new first timer at once; another CPU's is not (only a CPU programs its
 * own, and Lucid sends no IPI for it): its tick, never more than TICK_NSEC away, runs what the
 * change made due and programs the rest. Then timerfd's files (Linux calls it from here too).
 * Callers are one at a time (do_settimeofday64's mutex): offs stays the date's throughout.
 */
void clock_was_set(void)
{
	uint64_t offs = ktime_get_real_offset_ns();

	for (int cpu = 0; cpu < num_online_cpus(); cpu++) {
		struct hrtimer_cpu_base *base = &hrtimer_bases[cpu];
		struct hrtimer *timer, *tmp;
		LIST_HEAD(moved);
		unsigned long flags = spin_lock_irqsave(&base->lock);

		list_for_each_entry_safe(timer, tmp, &base->active, node)
			if (timer->is_real)
				list_move_tail(&timer->node, &moved);
		list_for_each_entry_safe(timer, tmp, &moved, node) {
			list_del(&timer->node);
			hrtimer_update_real(timer);
			hrtimer_insert(timer, base);
		}
		/* Every queued one moved (but those due at once: a date before the boot). */
		list_for_each_entry(timer, &base->active, node)
			WARN_ON(timer->is_real && timer->expires != KTIME_MAX && timer->expires &&
				timer->offs_real != offs);
		if (base == this_cpu_base() && !list_empty(&base->active)) {
			/* the first may have moved later: program it */
			base->next_event = KTIME_MAX;
			hrtimer_reprogram(
				base,
				list_first_entry(&base->active, struct hrtimer, node)->expires);
		}
		spin_unlock_irqrestore(&base->lock, flags);
	}
	timerfd_clock_was_set();
}

int hrtimer_try_to_cancel(struct hrtimer *timer)
{
	unsigned long flags;
	struct hrtimer_cpu_base *base = lock_hrtimer_base(timer, &flags);
	int ret = 0;

	if (base->running == timer)
		ret = -1;
	else if (timer->state == HRTIMER_STATE_ENQUEUED) {
		/* The APIC may still fire for it: one interrupt that finds nothing to do. */
		__remove_hrtimer(timer);
		ret = 1;
	}
	spin_unlock_irqrestore(&base->lock, flags);
	return ret;
}

int hrtimer_cancel(struct hrtimer *timer)
{
	for (;;) {
		int ret = hrtimer_try_to_cancel(timer);

		if (ret >= 0)
			return ret;
		cpu_relax(); /* its function runs on another CPU, interrupts off there: short */
	}
}

uint64_t hrtimer_forward(struct hrtimer *timer, uint64_t now, uint64_t interval)
{
	uint64_t overruns;

	if (now < timer->expires)
		return 0;
	overruns = (now - timer->expires) / interval + 1;
	timer->expires += overruns * interval;
	return overruns;
}

bool hrtimer_active(const struct hrtimer *timer)
{
	struct hrtimer_cpu_base *base = READ_ONCE(timer->base);

	return READ_ONCE(timer->state) == HRTIMER_STATE_ENQUEUED ||
	       READ_ONCE(base->running) == timer;
}

uint64_t hrtimer_get_expires(struct hrtimer *timer)
{
	unsigned long flags;
	struct hrtimer_cpu_base *base = lock_hrtimer_base(timer, &flags);
	uint64_t expires = timer->state == HRTIMER_STATE_ENQUEUED ? timer->expires : KTIME_MAX;

	spin_unlock_irqrestore(&base->lock, flags);
	return expires;
}

/* One expired timer, off the queue; its function runs with the lock dropped (see the top). */
static void __run_hrtimer(struct hrtimer_cpu_base *base, struct hrtimer *timer, uint64_t now)
{
	enum hrtimer_restart restart;

	__remove_hrtimer(timer);
	base->running = timer;
	spin_unlock(&base->lock);
	trace_hrtimer_expire_entry(timer, (void *)timer->function, base_time(timer, now));
	restart = timer->function(timer);
	trace_hrtimer_expire_exit(timer);
	spin_lock(&base->lock);
	/* Queued again already, if its function started it: then that start stands. */
	if (restart == HRTIMER_RESTART && timer->state == HRTIMER_STATE_INACTIVE)
		enqueue_hrtimer(timer, base);
	base->running = NULL;
}

void hrtimer_interrupt(void)
{
	struct hrtimer_cpu_base *base = this_cpu_base();
	uint64_t next = KTIME_MAX;

	spin_lock(&base->lock); /* interrupts are off: a handler's */
	base->in_hrtirq = true;
	for (int pass = 0; pass < HRTIMER_MAX_RETRIES; pass++) {
		uint64_t now = ktime_get_ns();

		while (!list_empty(&base->active)) {
			struct hrtimer *timer =
				list_first_entry(&base->active, struct hrtimer, node);

			if (timer->expires > now)
				break;
			__run_hrtimer(base, timer, now);
		}
		next = list_empty(&base->active)
			       ? KTIME_MAX
			       : list_first_entry(&base->active, struct hrtimer, node)->expires;
		/* The functions took so long that the next is due already: another pass. */
		if (next > ktime_get_ns())
			break;
	}
	base->in_hrtirq = false;
	base->next_event = next;
	if (next != KTIME_MAX)
		lapic_timer_set_next_event(next); /* past, after the last pass: at once */
	spin_unlock(&base->lock);
}

/* --- sleeping on a timer (nanosleep) ---------------------------------------------------------- */

static enum hrtimer_restart hrtimer_wakeup(struct hrtimer *timer)
{
	struct hrtimer_sleeper *sl = container_of(timer, struct hrtimer_sleeper, timer);
	struct task *task = sl->task;

	WRITE_ONCE(sl->task, NULL); /* before the wakeup: the sleeper sees it when it runs */
	if (task)
		wake_up_process(task);
	return HRTIMER_NORESTART;
}

void hrtimer_init_sleeper(struct hrtimer_sleeper *sl, int clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(&sl->timer, clock_id, mode);
	sl->timer.function = hrtimer_wakeup;
	sl->task = current;
}
