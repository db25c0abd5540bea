/*
 * Per-CPU data. Each CPU's GS base points at its own struct cpu, whose first field points back
 * at itself: this_cpu() is then a single "mov %gs:0, reg", and a field such as the CPU number is
 * one "mov %gs:offset, reg". That is how Linux makes smp_processor_id() nearly free, and the
 * tracer reads it on every event.
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "lib/compiler.h"
#include "arch/x86_64/asm-offsets.h"

#define NR_CPUS 8

struct task;

struct cpu {
	struct cpu *self;       /* must stay first: this_cpu() loads it from %gs:0 */
	/* These two are read by entry_SYSCALL_64 at fixed offsets (CPU_* in entry_64.S). */
	unsigned long top_of_stack; /* the running task's kernel stack top: syscall entry's RSP */
	unsigned long user_rsp;     /* the user RSP, parked while syscall entry switches stacks */
	struct task *curr;      /* the task running on this CPU: `current` */
	int id;                 /* 0 .. num_online_cpus() - 1, the [001] column of a trace */
	/* preemption, softirq, hardirq and NMI depth (kernel/sched/preempt.h) */
	int preempt_count;
	bool need_resched;      /* set when a better task is waiting: schedule at the next chance */
	bool online;
	uint32_t apic_id;
	uint64_t ticks;         /* timer interrupts taken on this CPU */
	struct task *idle;      /* this CPU's swapper/N */
	void *boot_stack;       /* the stack the CPU came up on: its idle task's */
	/* the task this CPU switched away from last (kernel/sched/sched.c) */
	struct task *last_prev;
	void *arch;             /* struct arch_cpu: GDT, TSS, IST stacks (arch/x86_64/gdt.c) */
	unsigned int trace_recursion; /* contexts now inside a tracer callback (trace/ftrace.h) */
	struct task *trace_cmdline_task; /* the last task whose name the tracer saved here ... */
	int trace_cmdline_pid;           /* ... and its pid (trace/trace.c) */
	unsigned long irq_count[256]; /* interrupts taken per vector, for /proc/interrupts */
};

_Static_assert(offsetof(struct cpu, top_of_stack) == CPU_TOP_OF_STACK, "entry_64.S");
_Static_assert(offsetof(struct cpu, user_rsp) == CPU_USER_RSP, "entry_64.S");

extern struct cpu cpus[NR_CPUS];
/*
 * CPUs that came online. They come up in order and never go down, so the online CPUs are
 * exactly ids 0 .. num_online_cpus() - 1. (Linux keeps a bitmap of them; its nr_cpu_ids bounds
 * the *possible* CPUs, which num_possible_cpus() counts here.)
 */
extern int __num_online_cpus;

static __always_inline int num_online_cpus(void)
{
	return __num_online_cpus;
}

static __always_inline struct cpu *this_cpu(void)
{
	struct cpu *c;
	__asm__ __volatile__("mov %%gs:0, %0" : "=r"(c));
	return c;
}

static __always_inline int smp_processor_id(void)
{
	int id;
	__asm__ __volatile__("movl %%gs:%c1, %0" : "=r"(id) : "i"(offsetof(struct cpu, id)));
	return id;
}

static __always_inline struct task *get_current(void)
{
	struct task *t;
	__asm__ __volatile__("mov %%gs:%c1, %0" : "=r"(t) : "i"(offsetof(struct cpu, curr)));
	return t;
}
#define current get_current()

/* A better task waits for this CPU (Linux's need_resched(), a per-CPU flag here): one load. */
static __always_inline bool need_resched(void)
{
	bool r;
	__asm__ __volatile__("movb %%gs:%c1, %0"
			     : "=q"(r)
			     : "i"(offsetof(struct cpu, need_resched)));
	return r;
}

void percpu_init_this_cpu(struct cpu *c);

#endif
