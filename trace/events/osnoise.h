/*
 * The osnoise events (Linux's include/trace/events/osnoise.h): what took a CPU away from the
 * osnoise and timerlat tracers' threads (trace/trace_osnoise.c), one event per interference,
 * with when it started and how long it ran (interference by something of higher priority
 * already taken out):
 *
 *   sample_threshold: start 51.374261066 duration 10047 ns interference 1
 *   irq_noise: local_timer:236 start 51.374261127 duration 9932 ns
 *   thread_noise:       sh:45 start 51.380000000 duration 120000 ns
 *
 * They are hit only while one of those tracers runs. softirq_noise is declared as Linux has it,
 * but never hit: Lucid has no softirqs (interrupt handlers do all their work themselves).
 *
 * Declared once each (trace/define_trace.h); trace/trace_osnoise.c defines them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM osnoise
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE "trace/events/osnoise.h"

#ifndef TRACE_EVENTS_OSNOISE_DEFS_H
#define TRACE_EVENTS_OSNOISE_DEFS_H
#include <stdint.h>
#include "kernel/time/time.h"
typedef unsigned long long u64; /* Linux's, as its format files name the fields */
struct task;
/*
 * A time in ns as seconds and the nanoseconds after them, for "%llu.%09u" (Linux's macros),
 * the same text in the format file as Linux's: a plain number, which libtraceevent parses
 * (NSEC_PER_SEC would print as 1000000000ULL).
 */
#define OSNOISE_NSEC_PER_SEC 1000000000
#define __print_ns_to_secs(value) ((value) / OSNOISE_NSEC_PER_SEC)
#define __print_ns_without_secs(value) ((unsigned int)((value) % OSNOISE_NSEC_PER_SEC))
/* Linux's softirq names by vector; Lucid has none, so the table is Linux's first one only. */
#define show_softirq_name(val) __print_symbolic(val, {0, "HI"})
#endif

#if !defined(TRACE_EVENTS_OSNOISE_H) || defined(TRACE_HEADER_MULTI_READ)
#define TRACE_EVENTS_OSNOISE_H

#include "kernel/tracepoint.h"

/* clang-format off */

/* Another thread ran on the measured CPU from start for duration ns. */
TRACE_EVENT(thread_noise,
	TP_PROTO(struct task *t, u64 start, u64 duration),
	TP_ARGS(t, start, duration),
	TP_STRUCT__entry(
		__array(char, comm, TASK_COMM_LEN)
		__field(u64, start)
		__field(u64, duration)
		__field(pid_t, pid)
	),
	TP_fast_assign(
		memcpy(__entry->comm, t->comm, TASK_COMM_LEN);
		__entry->pid = t->pid;
		__entry->start = start;
		__entry->duration = duration;
	),
	TP_printk("%8s:%d start %llu.%09u duration %llu ns",
		__entry->comm,
		__entry->pid,
		__print_ns_to_secs(__entry->start),
		__print_ns_without_secs(__entry->start),
		__entry->duration)
);

/* A softirq ran (never on Lucid: see above). */
TRACE_EVENT(softirq_noise,
	TP_PROTO(int vector, u64 start, u64 duration),
	TP_ARGS(vector, start, duration),
	TP_STRUCT__entry(
		__field(u64, start)
		__field(u64, duration)
		__field(int, vector)
	),
	TP_fast_assign(
		__entry->vector = vector;
		__entry->start = start;
		__entry->duration = duration;
	),
	TP_printk("%8s:%d start %llu.%09u duration %llu ns",
		show_softirq_name(__entry->vector),
		__entry->vector,
		__print_ns_to_secs(__entry->start),
		__print_ns_without_secs(__entry->start),
		__entry->duration)
);

/*
 * An interrupt handler ran: desc names it (local_timer, or the device's name), vector its number.
 */
TRACE_EVENT(irq_noise,
	TP_PROTO(int vector, const char *desc, u64 start, u64 duration),
	TP_ARGS(vector, desc, start, duration),
	TP_STRUCT__entry(
		__field(u64, start)
		__field(u64, duration)
		__string(desc, desc)
		__field(int, vector)
	),
	TP_fast_assign(
		__assign_str(desc, desc);
		__entry->vector = vector;
		__entry->start = start;
		__entry->duration = duration;
	),
	TP_printk("%s:%d start %llu.%09u duration %llu ns",
		__get_str(desc),
		__entry->vector,
		__print_ns_to_secs(__entry->start),
		__print_ns_without_secs(__entry->start),
		__entry->duration)
);

/* An NMI ran. */
TRACE_EVENT(nmi_noise,
	TP_PROTO(u64 start, u64 duration),
	TP_ARGS(start, duration),
	TP_STRUCT__entry(
		__field(u64, start)
		__field(u64, duration)
	),
	TP_fast_assign(
		__entry->start = start;
		__entry->duration = duration;
	),
	TP_printk("start %llu.%09u duration %llu ns",
		__print_ns_to_secs(__entry->start),
		__print_ns_without_secs(__entry->start),
		__entry->duration)
);

/*
 * The osnoise thread saw a gap of duration ns (over the threshold) between two reads of the
 * clock; interference: how many interruptions it knows of happened in it (0: the hardware's).
 */
TRACE_EVENT(sample_threshold,
	TP_PROTO(u64 start, u64 duration, u64 interference),
	TP_ARGS(start, duration, interference),
	TP_STRUCT__entry(
		__field(u64, start)
		__field(u64, duration)
		__field(u64, interference)
	),
	TP_fast_assign(
		__entry->start = start;
		__entry->duration = duration;
		__entry->interference = interference;
	),
	TP_printk("start %llu.%09u duration %llu ns interference %llu",
		__print_ns_to_secs(__entry->start),
		__print_ns_without_secs(__entry->start),
		__entry->duration,
		__entry->interference)
);

/* clang-format on */

#endif /* TRACE_EVENTS_OSNOISE_H */

#include "trace/define_trace.h"
