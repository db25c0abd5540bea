/*
 * The timer events, as Linux's hrtimer ones (include/trace/events/timer.h, 6.1):
 *
 *   hrtimer_start: hrtimer=ffff888003a0fd58 function=wake_sleeper expires=5140000000
 *                  softexpires=5140000000 mode=ABS
 *   hrtimer_cancel: hrtimer=ffff888003a0fd58
 *   hrtimer_expire_entry: hrtimer=ffff888003a0fd58 function=wake_sleeper now=5140012345
 *   hrtimer_expire_exit: hrtimer=ffff888003a0fd58
 *
 * Two kinds of timer fire them, both counting nanoseconds of ktime_get_ns():
 *   - the high-resolution ones (kernel/time/hrtimer.c: nanosleep's hrtimer_wakeup, timerlat's,
 *     the tick's tick_sched_timer), as Linux's, at Linux's places;
 *   - Lucid's struct timer_list (kernel/time/timer.c: schedule_timeout, alarm(2), modules),
 *     run from the tick like Linux's timer wheel; Linux gives those timer:timer_* events, which
 *     Lucid has not: they fire these, with their own function and expiry.
 * hrtimer_start: a timer is queued (expires absolute); hrtimer_cancel: it leaves the queue,
 * unrun or to run, as Linux's do; hrtimer_expire_entry/exit: its function runs between them.
 * The probes get the timer, its function and its time rather than a struct, so that both kinds
 * can fire them. Defined by kernel/time/hrtimer.c.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM timer
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE "trace/events/timer.h"

#ifndef TRACE_EVENTS_TIMER_DEFS_H
#define TRACE_EVENTS_TIMER_DEFS_H
#include <stdint.h>
typedef int64_t s64; /* as Linux's formats name the times */

/* Linux's enum hrtimer_mode, with its values (the format file shows them as numbers). */
enum hrtimer_mode {
	HRTIMER_MODE_ABS = 0x00,
	HRTIMER_MODE_REL = 0x01,
};
#define __HRTIMER_MODE_PINNED 0x02
#define __HRTIMER_MODE_SOFT 0x04
#define __HRTIMER_MODE_HARD 0x08

/* clang-format off */
#define decode_hrtimer_mode(mode)					\
	__print_symbolic(mode,						\
		{ 0,		"ABS"		},	\
		{ 1,		"REL"		},	\
		{ 2,	"ABS|PINNED"	},	\
		{ 3,	"REL|PINNED"	},	\
		{ 4,	"ABS|SOFT"	},	\
		{ 5,	"REL|SOFT"	},	\
		{ 6,	"ABS|PINNED|SOFT" },	\
		{ 7,	"REL|PINNED|SOFT" },	\
		{ 8,	"ABS|HARD" },		\
		{ 9,	"REL|HARD" },		\
		{ 10, "ABS|PINNED|HARD" },	\
		{ 11,	"REL|PINNED|HARD" })
/* clang-format on */
#endif

#if !defined(TRACE_EVENTS_TIMER_H) || defined(TRACE_HEADER_MULTI_READ)
#define TRACE_EVENTS_TIMER_H

#include "kernel/tracepoint.h"

/*
 * The declarations keep Linux's layout, a field a line (and a print fmt's spacing is its
 * text): clang-format does not know it.
 */
/* clang-format off */

TRACE_EVENT(hrtimer_start,
	TP_PROTO(void *hrtimer, void *function, uint64_t expires, enum hrtimer_mode mode),
	TP_ARGS(hrtimer, function, expires, mode),
	TP_STRUCT__entry(
		__field(void *, hrtimer)
		__field(void *, function)
		__field(s64, expires)
		__field(s64, softexpires)
		__field(enum hrtimer_mode, mode)
	),
	TP_fast_assign(
		__entry->hrtimer = hrtimer;
		__entry->function = function;
		__entry->expires = (s64)expires;
		__entry->softexpires = (s64)expires; /* Lucid's have no slack */
		__entry->mode = mode;
	),
	TP_printk("hrtimer=%p function=%ps expires=%llu softexpires=%llu "
		  "mode=%s", __entry->hrtimer, __entry->function,
		  (unsigned long long) __entry->expires,
		  (unsigned long long) __entry->softexpires,
		  decode_hrtimer_mode(__entry->mode))
);

TRACE_EVENT(hrtimer_expire_entry,
	TP_PROTO(void *hrtimer, void *function, uint64_t now),
	TP_ARGS(hrtimer, function, now),
	TP_STRUCT__entry(
		__field(void *, hrtimer)
		__field(s64, now)
		__field(void *, function)
	),
	TP_fast_assign(
		__entry->hrtimer = hrtimer;
		__entry->now = (s64)now;
		__entry->function = function;
	),
	TP_printk("hrtimer=%p function=%ps now=%llu",
		  __entry->hrtimer, __entry->function,
		  (unsigned long long) __entry->now)
);

DECLARE_EVENT_CLASS(hrtimer_class,
	TP_PROTO(void *hrtimer),
	TP_ARGS(hrtimer),
	TP_STRUCT__entry(
		__field(void *, hrtimer)
	),
	TP_fast_assign(
		__entry->hrtimer = hrtimer;
	),
	TP_printk("hrtimer=%p", __entry->hrtimer)
);
DEFINE_EVENT(hrtimer_class, hrtimer_expire_exit,
	TP_PROTO(void *hrtimer), TP_ARGS(hrtimer));
DEFINE_EVENT(hrtimer_class, hrtimer_cancel,
	TP_PROTO(void *hrtimer), TP_ARGS(hrtimer));

/* clang-format on */

#endif /* TRACE_EVENTS_TIMER_H */

#include "trace/define_trace.h"
