/*
 * The Interrupt Descriptor Table and the C side of every interrupt.
 *
 * All 256 vectors point at the stubs of irqentry_64.S, which build a struct pt_regs and call
 * do_interrupt(). From there, vectors below 32 are CPU exceptions (traps.c decides whether one is
 * fatal) and the rest are device interrupts and IPIs, dispatched through a table of handlers.
 *
 * Interrupt context is marked in the preemption counter (HARDIRQ or NMI bits), which the trace
 * shows as the `h` flag; on the way out, if a wakeup asked for a reschedule and nothing forbids
 * it, the interrupted task is preempted here.
 *
 * Device interrupts (ISA IRQ n at vector VEC_ISA_BASE + n, given with request_irq()) have a
 * name, and their handler runs between the irq_handler_entry and irq_handler_exit tracepoints,
 * as Linux's do: the timer tick and the IPIs are the CPU's own vectors and have neither.
 *
 * Not traced: do_interrupt runs on every tick and inside the tracer's own critical sections.
 */
#include "kernel/kprobes.h"
#include <stdint.h>
#include "arch/x86_64/idt.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/kprobes/kprobes.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/sched/preempt.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/syscall.h"
#include "lib/compiler.h"
#include "trace/events/irq.h"

#define IDT_INTERRUPT_GATE 0x8e /* present, ring 0, 64-bit interrupt gate (clears IF) */
/* The same, that ring 3 may raise with an int instruction: int3 (a debugger's, a uprobe's). */
#define IDT_INTERRUPT_GATE_USER 0xee

struct idt_entry {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t zero;
} __packed;

static struct idt_entry idt[256] __aligned(16);
static irq_handler_t irq_handlers[256];
static const char *irq_names[256]; /* device interrupts: what request_irq() called them */
/* Each vector's handlers, asked in order; NULL after the last (add_exception_handler). */
static exception_handler_t exception_handlers[VEC_FIRST_IRQ][EXCEPTION_CHAIN_MAX];
extern const uint64_t isr_stub_table[256];

static void idt_set_gate(int vec, uint64_t addr, int ist)
{
	idt[vec] = (struct idt_entry){
		.offset_low = addr & 0xffff,
		.selector = GDT_KERNEL_CS,
		.ist = ist,
		.type_attr = IDT_INTERRUPT_GATE,
		.offset_mid = (addr >> 16) & 0xffff,
		.offset_high = addr >> 32,
	};
}

void idt_init(void)
{
	for (int v = 0; v < 256; v++)
		idt_set_gate(v, isr_stub_table[v], 0);
	idt_set_gate(VEC_DOUBLE_FAULT, isr_stub_table[VEC_DOUBLE_FAULT], IST_DOUBLE_FAULT);
	idt_set_gate(VEC_NMI, isr_stub_table[VEC_NMI], IST_NMI);
	/* A program's int3 traps as on Linux (SIGTRAP, or a uprobe), not as a #GP. */
	idt[VEC_BREAKPOINT].type_attr = IDT_INTERRUPT_GATE_USER;
	idt_load();
}

void idt_load(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __packed p = {sizeof(idt) - 1, (uint64_t)idt};
	__asm__ __volatile__("lidt %0" : : "m"(p));
}

void set_irq_handler(int vector, irq_handler_t fn)
{
	irq_handlers[vector] = fn;
}

/* Read while tracing from any context: a handler being installed meanwhile may be missed. */
notrace bool is_irq_handler(unsigned long addr)
{
	for (size_t vec = 0; vec < ARRAY_SIZE(irq_handlers); vec++)
		if (addr && (unsigned long)READ_ONCE(irq_handlers[vec]) == addr)
			return true;
	return false;
}

void request_irq(int irq, irq_handler_t fn, const char *name)
{
	irq_names[VEC_ISA_BASE + irq] = name;
	irq_handlers[VEC_ISA_BASE + irq] = fn;
}

static const char *irq_chips[256];

void free_irq(int irq)
{
	irq_handlers[VEC_ISA_BASE + irq] = NULL;
	irq_names[VEC_ISA_BASE + irq] = NULL;
	irq_chips[VEC_ISA_BASE + irq] = NULL;
}

void irq_set_chip_name(int vector, const char *chip)
{
	irq_chips[vector] = chip;
}

const char *irq_chip_name(int vector)
{
	return irq_chips[vector];
}

const char *irq_name(int vector)
{
	return irq_names[vector];
}

/*
 * Boot-time only (before other CPUs take the vector): neither edit is atomic. Checked: the
 * chain is never full, or a handler would be lost.
 */
void set_exception_handler(int vector, exception_handler_t fn)
{
	int n = 0;

	while (n < EXCEPTION_CHAIN_MAX && exception_handlers[vector][n])
		n++;
	if (n == EXCEPTION_CHAIN_MAX)
		panic("set_exception_handler: vector %d's chain is full", vector);
	exception_handlers[vector][n] = fn;
}

void add_exception_handler(int vector, exception_handler_t fn)
{
	if (exception_handlers[vector][EXCEPTION_CHAIN_MAX - 1])
		panic("add_exception_handler: vector %d's chain is full", vector);
	for (int i = EXCEPTION_CHAIN_MAX - 1; i > 0; i--)
		exception_handlers[vector][i] = exception_handlers[vector][i - 1];
	exception_handlers[vector][0] = fn;
}

/* Does a handler of the chain claim the exception? */
static notrace bool call_exception_chain(int vec, struct pt_regs *regs)
{
	for (int i = 0; i < EXCEPTION_CHAIN_MAX; i++) {
		exception_handler_t fn = READ_ONCE(exception_handlers[vec][i]);

		if (!fn)
			return false;
		if (fn(regs))
			return true;
	}
	return false;
}

DEFINE_TRACE(irq_handler_entry); /* trace/events/irq.h */
DEFINE_TRACE(irq_handler_exit);

/* An exception or interrupt leaves the count as it found it (sched.c's preempt_count_leaked). */
static notrace void check_preempt_count(int vec, int was)
{
	if (likely(preempt_count() == was))
		return;
	preempt_count_leaked(vec < VEC_FIRST_IRQ ? exception_name(vec) : "an interrupt", was);
}

static notrace void handle_interrupt(struct pt_regs *regs)
{
	int vec = (int)regs->vector;
	struct cpu *cpu = this_cpu();
	int was = preempt_count();

	cpu->irq_count[vec]++;
	if (vec == VEC_NMI) {
		preempt_count_add(NMI_OFFSET);
		do_nmi(regs);
		preempt_count_sub(NMI_OFFSET);
		return;
	}
	if (vec < VEC_FIRST_IRQ) {
		/*
		 * A fault in an instruction a kprobe is single-stepping out of line: the CPU is
		 * sent back to the probed address first, so the fixup tables and the oops see
		 * the real instruction (arch/x86_64/kprobes/core.c).
		 */
		if (vec != VEC_BREAKPOINT && vec != VEC_DEBUG)
			kprobe_fault_handler(regs, vec);
		if (call_exception_chain(vec, regs)) {
			check_preempt_count(vec, was);
			return;
		}
		if (user_mode(regs)) {
			/* A signal: the process's handler, or its death; the kernel goes on. */
			do_user_exception(regs);
			exit_to_user_mode(regs);
			check_preempt_count(vec, was);
			return;
		}
		do_fatal_exception(regs);
		return;
	}
	if (vec == VEC_SPURIOUS)
		return; /* spurious interrupts take no EOI */

	preempt_count_add(HARDIRQ_OFFSET);
	if (irq_names[vec]) {
		int irq = vec - VEC_ISA_BASE;

		trace_irq_handler_entry(irq, irq_names[vec]);
		irq_handlers[vec](regs);
		/* Lucid's handlers return nothing: they always handle their interrupt. */
		trace_irq_handler_exit(irq, IRQ_HANDLED);
	} else if (irq_handlers[vec]) {
		irq_handlers[vec](regs);
	}
	lapic_eoi();
	preempt_count_sub(HARDIRQ_OFFSET);
	check_preempt_count(vec, was);

	/*
	 * Preempt on the way out, unless the interrupted code had preemption disabled. Not the
	 * idle task: its loop looks at need_resched after every interrupt and calls schedule()
	 * itself, as Linux's does (so its switches show prev_state=R, not R+).
	 */
	if (user_mode(regs))
		exit_to_user_mode(regs); /* Ctrl-C, and the reschedule, on the way to ring 3 */
	else if (preempt_count() == 0 && READ_ONCE(cpu->need_resched) && cpu->curr != cpu->idle)
		preempt_schedule_irq();
}

/*
 * The CPU turned interrupts off to enter; IRET turns them back on if they were on. Told to the
 * irqsoff tracers as any other interrupts-off section (arch/x86_64/cpu.h), except for an NMI,
 * which may come inside the hooks themselves.
 */
notrace void do_interrupt(struct pt_regs *regs)
{
	bool hook = regs->vector != VEC_NMI && (regs->rflags & RFLAGS_IF);

	if (hook)
		trace_hardirqs_off_finish();
	handle_interrupt(regs);
	if (hook)
		trace_hardirqs_on_prepare();
}

/* Never probed: every exception, int3 and #DB included, comes through here (kernel/kprobes.h). */
NOKPROBE_SYMBOL(do_interrupt);
NOKPROBE_SYMBOL(handle_interrupt);
NOKPROBE_SYMBOL(call_exception_chain);
