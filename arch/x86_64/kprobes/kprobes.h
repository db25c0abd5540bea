/*
 * Between the generic kprobes (kernel/kprobes.c) and the x86 side (arch/x86_64/kprobes/): the
 * per-CPU control block, what the architecture does to a probe (prepare, arm, disarm, remove),
 * and what it asks back (Linux: asm/kprobes.h and the arch_* half of include/linux/kprobes.h).
 */
#ifndef ARCH_X86_64_KPROBES_KPROBES_H
#define ARCH_X86_64_KPROBES_KPROBES_H

#include <stdbool.h>
#include "kernel/kprobes.h"
#include "arch/x86_64/regs.h"
#include "kernel/percpu.h"

/* What this CPU is doing with kprobe_running() (Linux's kprobe_status values). */
#define KPROBE_HIT_ACTIVE 0x1 /* in a pre_handler */
#define KPROBE_HIT_SS 0x2 /* single-stepping the copy of the probed instruction */
#define KPROBE_REENTER 0x4 /* single-stepping a probe hit inside a handler (not reported) */
#define KPROBE_HIT_SSDONE 0x8 /* in a post_handler */

struct prev_kprobe {
	struct kprobe *kp;
	unsigned long status;
	unsigned long old_flags;
};

struct kprobe_ctlblk {
	struct kprobe *current_kprobe;
	unsigned long kprobe_status;
	unsigned long kprobe_old_flags; /* TF and IF of the probed context, while it steps */
	struct prev_kprobe prev_kprobe; /* the probe whose handler was interrupted (REENTER) */
};

/* This CPU's block: call with interrupts or preemption off. Inline: every hit asks. */
extern struct kprobe_ctlblk kprobe_ctlblks[NR_CPUS];
static __always_inline struct kprobe_ctlblk *get_kprobe_ctlblk(void)
{
	return &kprobe_ctlblks[smp_processor_id()];
}
void kprobes_inc_nmissed_count(struct kprobe *p);

/* The architecture's part of a probe (arch/x86_64/kprobes/core.c). */
int arch_prepare_kprobe(struct kprobe *p); /* decode, copy to a slot: 0 or -errno */
void arch_arm_kprobe(struct kprobe *p); /* int3 in */
void arch_disarm_kprobe(struct kprobe *p); /* original byte back */
void arch_remove_kprobe(struct kprobe *p); /* free the slot (after no CPU can be in it) */
void arch_init_kprobes(void); /* the int3 and #DB handlers */
/* 0 if addr is on an instruction boundary of its function, -EILSEQ if not. */
int arch_check_insn_boundary(unsigned long addr);
/* Is addr inside an out-of-line slot or the kretprobe trampoline (never probed)? */
bool arch_within_kprobe_area(unsigned long addr);
/*
 * An exception other than #BP/#DB in kernel mode: if it came from a copy being single-stepped,
 * the CPU is put back on the probed address (and the probe's state reset) so the fault is
 * handled as if the original instruction had raised it. Returns true if it did that.
 */
bool kprobe_fault_handler(struct pt_regs *regs, int trapnr);
/* How many times that happened since boot (kprobe_stress checks its counts with it). */
extern unsigned long kprobe_step_faults;

/* KPROBES_ON_FTRACE (arch/x86_64/kprobes/ftrace.c). */
bool kprobe_ftrace_location(unsigned long addr);
int arm_kprobe_ftrace(struct kprobe *p);
void disarm_kprobe_ftrace(struct kprobe *p);

/* kretprobes: the trampoline (kretprobe_64.S) and its C half (kernel/kprobes.c). */
void __kretprobe_trampoline(void);
unsigned long kretprobe_trampoline_handler(struct pt_regs *regs);
/* The real return address of a kretprobe-hijacked slot (ret is what it holds), for unwinders. */
unsigned long kretprobe_find_ret_addr(struct task *t, unsigned long ret, unsigned long *slot);
/*
 * What an unwinder should print for the return address *slot of task t: the real one, whether
 * the graph tracer's return_to_handler or the kretprobe trampoline (or both) borrowed it.
 */
struct task;
unsigned long unwind_recover_ret_addr(struct task *t, unsigned long ret, unsigned long *slot);

#endif
