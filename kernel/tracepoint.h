/*
 * Tracepoints: named places in the kernel that other code can hook a function to
 * (kernel/tracepoint.c). Linux's include/linux/tracepoint.h, small.
 *
 * A subsystem declares a tracepoint once in a header (trace/events/sched.h):
 *
 *     DECLARE_TRACE(sched_switch,
 *                   TP_PROTO(bool preempt, struct task *prev, struct task *next),
 *                   TP_ARGS(preempt, prev, next));
 *
 * defines it in one of its .c files with DEFINE_TRACE(sched_switch), and calls
 * trace_sched_switch(preempt, prev, next) where the thing happens. Anyone may then attach a
 * probe, void probe(void *data, bool preempt, struct task *prev, struct task *next), with
 * register_trace_sched_switch(probe, data), and detach it with unregister_trace_...(). The
 * trace events (trace/trace_events.c) are the main user: enabling an event attaches its probe.
 *
 * WHAT A TRACEPOINT COSTS WHEN NOTHING IS ATTACHED. Tracepoints sit on hot paths (every
 * context switch, every interrupt), so an unused one must cost next to nothing. trace_X()
 * is inline and starts with a static key, tp.key (kernel/jump_label.h), as Linux's: the test
 * is compiled as a 5-byte NOP that the first probe's static_key_enable() patches into a jump to
 * the out-of-line call, the way dynamic ftrace patches its call sites
 * (arch/x86_64/text_poke.c), so not even a load remains on the fast path.
 *
 * WHY PROBES MAY BE DETACHED WHILE OTHER CPUS CALL THEM. A tracepoint holds up to
 * TRACEPOINT_MAX_PROBES pointers to {probe, data} pairs. A caller reads each pointer once and
 * calls through what it read, so a pair is always seen whole. Attaching allocates a pair and
 * publishes its pointer; detaching clears the pointer, then waits until no CPU can still be
 * using the old pair before freeing it. How does it know? trace_X() runs the probes with
 * preemption disabled, as Linux's does (rcu_read_lock_sched): a CPU that has since been seen
 * with preemption enabled, or switching tasks, has left the probes it was in.
 * tracepoint_synchronize_unregister() first sends every other CPU an interrupt (an IPI) and
 * waits for the answers, so each CPU's own "preemption off" count is visible, and the probes
 * that ran in interrupt handlers (interrupts off) are over; then it watches each CPU until it
 * is seen outside (synchronize_sched(), kernel/smp.c). That is what Linux's synchronize_rcu()
 * proves in its own way: every CPU has passed a point where it held no reference.
 *
 * Interrupts stay as the caller had them, so an event records the caller's irqs-off state:
 * a system call's events show interrupts on ('.'), as Linux's, and an interrupt handler's
 * show them off ('d'). Probes run on the CPU that hit the tracepoint, in whatever context that
 * was (a task, an interrupt handler, the scheduler with its run queue locked): they must not
 * sleep, must not take locks the traced code may hold, must be safe against an interrupt that
 * records meanwhile (the ring buffer is), and must be notrace. The event they record does not
 * count the tracepoint's own preempt_disable (tracing_gen_ctx_dec(), trace/trace_events.c).
 */
#ifndef KERNEL_TRACEPOINT_H
#define KERNEL_TRACEPOINT_H

#include <stdbool.h>
#include "lib/compiler.h"
#include "kernel/jump_label.h"
#include "arch/x86_64/cpu.h"
#include "kernel/sched/preempt.h"

#define TRACEPOINT_MAX_PROBES 4 /* probes one tracepoint can have at once */

struct tracepoint_func {
	void *func; /* void probe(void *data, the tracepoint's arguments...) */
	void *data;
};

struct tracepoint {
	const char *name;
	struct static_key key; /* on while some probe is attached: all trace_X() tests otherwise */
	/* Told when the first probe comes (true) and the last goes (false): Linux's regfunc. */
	void (*regfunc)(bool on);
	const struct tracepoint_func *funcs[TRACEPOINT_MAX_PROBES];
};

/*
 * Attach or detach probe with its data (a probe may be attached several times with different
 * data). 0, or -EEXIST / -ENOSPC / -ENOMEM, or -ENOENT for a pair that is not attached. Task
 * context; unregister waits for every CPU to be done with the probe (see above).
 */
int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data);
int tracepoint_probe_unregister(struct tracepoint *tp, void *probe, void *data);
void tracepoint_synchronize_unregister(void);

/* The argument lists of DECLARE_TRACE: the commas inside them must survive as one argument. */
#define TP_PROTO(...) __VA_ARGS__
#define TP_ARGS(...) __VA_ARGS__

#define DEFINE_TRACE(tp) struct tracepoint __tracepoint_##tp = {.name = #tp}
/* ... whose hook, outside the tracepoint, is turned on and off with it (trace_preemptirq.c). */
#define DEFINE_TRACE_FN(tp, reg) struct tracepoint __tracepoint_##tp = {.name = #tp, .regfunc = reg}

/*
 * A probe for tracepoint name, as a void * (for tables), with its type checked: a probe whose
 * arguments differ from the tracepoint's does not compile.
 */
#define TRACEPOINT_PROBE(name, fn) ((void *)(1 ? (fn) : (tp_probe_##name##_t)0))

/* The check of trace_NAME(): jump to label while tp's key is on (a NOP while it is off). */
#define TRACEPOINT_TEST(tp, label)                      \
	do {                                            \
		if (static_key_false(&(tp).key))        \
			goto label;                     \
	} while (0)

/*
 * trace_NAME(args): the check, then every attached probe with preemption disabled (without a
 * reschedule on the way out: some callers may not schedule; the next chance does), with the
 * _notrace forms, as Linux's: the latency tracers' hooks are not for the tracepoints' own. The
 * probe loop is out of line (noinline), so the caller's fast path keeps its registers for
 * itself.
 * register_trace_NAME(probe, data) / unregister_trace_NAME(probe, data): type-checked.
 */
#define DECLARE_TRACE(name, proto, args)                                                        \
	extern struct tracepoint __tracepoint_##name;                                           \
	typedef void (*tp_probe_##name##_t)(void *data, proto);                                 \
	static noinline notrace void __do_trace_##name(proto)                                   \
	{                                                                                       \
		preempt_disable_notrace();                                                      \
		for (int __i = 0; __i < TRACEPOINT_MAX_PROBES; __i++) {                         \
			const struct tracepoint_func *__f = __atomic_load_n(                    \
				&__tracepoint_##name.funcs[__i], __ATOMIC_ACQUIRE);             \
			if (__f)                                                                \
				((void (*)(void *, proto))__f->func)(__f->data, args);          \
		}                                                                               \
		preempt_enable_no_resched_notrace();                                            \
	}                                                                                       \
	static __always_inline void trace_##name(proto)                                         \
	{                                                                                       \
		TRACEPOINT_TEST(__tracepoint_##name, do_trace);                                  \
		return;                                                                         \
	do_trace:                                                                               \
		__label_cold;                                                          \
		__do_trace_##name(args);                                                        \
	}                                                                                       \
	static inline int register_trace_##name(void (*probe)(void *data, proto), void *data)   \
	{                                                                                       \
		return tracepoint_probe_register(&__tracepoint_##name, (void *)probe, data);    \
	}                                                                                       \
	static inline int unregister_trace_##name(void (*probe)(void *data, proto), void *data) \
	{                                                                                       \
		return tracepoint_probe_unregister(&__tracepoint_##name, (void *)probe, data);  \
	}

/*
 * Trace events (trace/define_trace.h says what they are): a header of trace/events/ declares
 * each event once, with Linux's TRACE_EVENT(); everywhere but in the one file that defines the
 * events, a declaration means just its tracepoint, trace_NAME() and the rest above. A class
 * (DECLARE_EVENT_CLASS) is a record and its print format shared by several events
 * (DEFINE_EVENT), each with its own tracepoint. The _PID forms are Lucid's: the event is also
 * about a second task, whose pid is other_pid (sched_switch's next): set_event_pid keeps the
 * event if it keeps either task (trace_event_buffer_reserve_pid).
 */
#ifndef _RET_IP_
#define _RET_IP_ ((unsigned long)__builtin_return_address(0)) /* Linux's: the caller's address */
#endif
#define PARAMS(args...) args
#define TP_STRUCT__entry(args...) args
#define TP_fast_assign(args...) args
#define TRACE_NO_OTHER_PID (-1) /* the event is about the current task alone */
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)                                  \
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct), PARAMS(assign), \
			    PARAMS(print))                                                      \
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args))
#define TRACE_EVENT_PID(name, proto, args, other_pid, tstruct, assign, print)         \
	DECLARE_EVENT_CLASS_PID(name, PARAMS(proto), PARAMS(args), PARAMS(other_pid), \
				PARAMS(tstruct), PARAMS(assign), PARAMS(print))       \
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args))
#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print)                 \
	DECLARE_EVENT_CLASS_PID(name, PARAMS(proto), PARAMS(args), TRACE_NO_OTHER_PID, \
				PARAMS(tstruct), PARAMS(assign), PARAMS(print))
#define DECLARE_EVENT_CLASS_PID(name, proto, args, other_pid, tstruct, assign, print)
#define DEFINE_EVENT(template, name, proto, args) DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))

#endif
