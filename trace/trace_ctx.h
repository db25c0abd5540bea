/*
 * The context columns of a trace entry, computed on every event (trace/trace.c, the function
 * tracer), as Linux's tracing_gen_ctx(): the flags (the irqs-off, need-resched, hardirq/softirq
 * and NMI columns) and the preempt depth (one hex digit). Packed as TRACE_CTX() says
 * (trace/trace_entries.h): already where struct trace_entry keeps them, so filling an entry's
 * header is an OR and one store.
 *
 * Inline and nearly without branches: it runs inside every traced call, where a call and five
 * tests would cost more than the rest of the computation.
 */
#ifndef TRACE_TRACE_CTX_H
#define TRACE_TRACE_CTX_H

#include "kernel/percpu.h"
#include "kernel/sched/preempt.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/cpu.h"
#include "trace/trace_entries.h"
#include "trace/trace_pid.h"
#include "lib/compiler.h"

#define TRACE_CTX_MAX_DEPTH 0xfu /* the depth column is one hex digit */

/* 1 if any bit of mask is set in v, else 0; then shifted to flag: a setcc, not a branch. */
#define trace_ctx_bit(v, mask, flag) ((unsigned int)!!((v) & (mask)) * (flag))

/* pc: the preemption counter as the traced code had it. */
static __always_inline unsigned int tracing_gen_ctx_pc(int pc)
{
	unsigned int depth = (unsigned int)pc & PREEMPT_MASK;
	unsigned int flags = trace_ctx_bit(~read_rflags(), RFLAGS_IF, TRACE_FLAG_IRQS_OFF) |
			     /* Lucid has one flag where Linux has two (TIF, preempt count): 'N'. */
			     trace_ctx_bit(READ_ONCE(this_cpu()->need_resched), 1,
					   TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED);

	if (unlikely(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET))) /* most events: a task */
		flags |= trace_ctx_bit(pc, NMI_MASK, TRACE_FLAG_NMI) |
			 trace_ctx_bit(pc, HARDIRQ_MASK, TRACE_FLAG_HARDIRQ) |
			 trace_ctx_bit(pc, SOFTIRQ_OFFSET, TRACE_FLAG_SOFTIRQ);

	return TRACE_CTX(flags, depth < TRACE_CTX_MAX_DEPTH ? depth : TRACE_CTX_MAX_DEPTH);
}

/*
 * From inside a callback that holds the recursion lock, which disabled preemption once: that
 * depth is the tracer's, not the traced code's.
 */
static __always_inline unsigned int tracing_gen_ctx_dec_inline(void)
{
	int pc = preempt_count();

	return tracing_gen_ctx_pc(pc - !!(pc & PREEMPT_MASK));
}

void __tracing_record_cmdline(struct task *t); /* trace/trace.c */

/*
 * Saves t's name in the comm cache unless this CPU did last. The one way to record a comm:
 * inline, the check that is all most events need; out of line, __tracing_record_cmdline(), the
 * save (trace/trace.c).
 */
static __always_inline void tracing_record_cmdline(struct task *t)
{
	struct cpu *c = this_cpu();

	if (unlikely(READ_ONCE(c->trace_cmdline_task) != t || c->trace_cmdline_pid != t->pid))
		__tracing_record_cmdline(t);
}

/*
 * Fills an entry's common header: type, flags, preempt depth and pid, the 8 bytes of struct
 * trace_entry in one store.
 */
static __always_inline void tracing_entry_update(struct trace_entry *entry, unsigned short type,
						 unsigned int trace_ctx)
{
	struct task *t = current;
	uint64_t pid = t ? (uint32_t)t->pid : 0;
	uint64_t word = type | trace_ctx | pid << 32;

	_Static_assert(sizeof(*entry) == sizeof(word) && offsetof(struct trace_entry, flags) == 2 &&
			       offsetof(struct trace_entry, preempt_count) == 3 &&
			       offsetof(struct trace_entry, pid) == 4,
		       "struct trace_entry is not type:16 flags:8 preempt_count:8 pid:32");
	__builtin_memcpy(entry, &word, sizeof(word));
	if (t)
		tracing_record_cmdline(t);
}

/*
 * set_ftrace_pid, set_ftrace_notrace_pid (trace/trace_pid.h): may the current task be traced?
 * Inline for the common case, neither list, where the answer is yes after one load.
 */
static __always_inline bool ftrace_trace_task_inline(void)
{
	return likely(!READ_ONCE(ftrace_pid_filter.in_force)) ||
	       !trace_ignore_current(&ftrace_pid_filter);
}

#endif
