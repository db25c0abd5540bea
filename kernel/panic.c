/*
 * panic: the end of the line. Print why, tell every other CPU to stop (an NMI, so even a CPU
 * spinning with interrupts off obeys), run the panic notifiers (the tracer dumps its buffer
 * there), and stop. Under QEMU we then leave through the isa-debug-exit device with a failure
 * status, so a test that crashes the kernel ends at once instead of waiting for a timeout.
 *
 * Not traced: the tracer may be what failed.
 */
#include "kernel/kprobes.h"
#include <stdarg.h>
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/qemu.h"
#include "arch/x86_64/traps.h"
#include "trace/trace.h"
#include "trace/trace_dump.h"
#include "lib/printf.h"

#define MAX_PANIC_NOTIFIERS 4

static volatile bool stop_cpus;
static int oops_owner = -1; /* the CPU printing an oops; others wait their turn, then stop */
static panic_notifier_t notifiers[MAX_PANIC_NOTIFIERS];

void panic_notifier_register(panic_notifier_t fn)
{
	for (int i = 0; i < MAX_PANIC_NOTIFIERS; i++) {
		if (!notifiers[i]) {
			notifiers[i] = fn;
			return;
		}
	}
}

notrace bool cpu_stop_requested(void)
{
	return stop_cpus;
}

notrace void cpu_stop_this(void)
{
	this_cpu()->online = false;
	for (;;) {
		local_irq_disable();
		halt();
	}
}

notrace void oops_begin(void)
{
	local_irq_disable();
	int me = smp_processor_id();
	int expected = -1;
	/* Two CPUs oopsing at once would interleave their reports: the second one just stops. */
	if (!__atomic_compare_exchange_n(&oops_owner, &expected, me, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_RELAXED) &&
	    expected != me)
		cpu_stop_this();
	oops_in_progress = 1;
	/*
	 * Freeze the trace now: until panic() stops them, the other CPUs would go on recording
	 * over the events that led here while the report prints (ftrace_dump_on_oops shows them).
	 */
	if (ftrace_dump_on_oops)
		tracing_off();
}

/* As Linux's __warn(): the trace is stopped before the report, so the report is not in it. */
notrace void __warn(const char *file, int line, const char *func)
{
	disable_trace_on_warning();
	printk(KERN_WARNING "WARNING: at %s:%d %s\n", file, line, func);
}

notrace void panic(const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	bool after_oops = oops_in_progress; /* the oops already showed registers and stack */

	oops_begin();
	va_start(ap, fmt);
	vscnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", msg);
	if (!after_oops)
		dump_stack();

	stop_cpus = true;
	smp_send_stop();
	for (int i = 0; i < MAX_PANIC_NOTIFIERS; i++)
		if (notifiers[i])
			notifiers[i]();
	printk(KERN_EMERG "---[ end Kernel panic - not syncing: %s ]---\n", msg);
	qemu_exit(QEMU_EXIT_FAILURE);
}

/* Never probed: the stop-CPU NMI runs these (kernel/kprobes.h). */
NOKPROBE_SYMBOL(cpu_stop_requested);
NOKPROBE_SYMBOL(cpu_stop_this);
