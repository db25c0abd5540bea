/*
 * The soft-lockup watchdog: notice a CPU that has not been able to schedule for too long.
 *
 * Every timer tick that interrupts code which could have been preempted (preemption and
 * interrupts enabled) proves the CPU is not stuck: it stamps this CPU's "touched" time. A CPU
 * spinning with preemption disabled still takes its ticks, but never stamps; once the stamp is
 * older than 2 * watchdog_thresh seconds, the tick reports, as Linux does,
 *
 *     BUG: soft lockup - CPU#2 stuck for 22s! [sh:1]
 *
 * with the registers and backtrace of the code it interrupted: the functions that are stuck.
 * With the boot option softlockup_panic=1 it then panics (and the panic notifiers print the trace,
 * with ftrace_dump_on_oops); without, it runs the tracer's hook, which prints the trace that
 * led here the same way, and the kernel goes on with one CPU stuck.
 *
 * Boot options (Linux's names): watchdog_thresh=N (default 10), softlockup_panic=N (nonzero:
 * panic; Linux's option takes the number, a bare softlockup_panic is not it), nowatchdog (every
 * lockup detector off), nosoftlockup (the soft-lockup detector off). Linux also has a hard-lockup
 * detector (an NMI that nowatchdog stops and nosoftlockup leaves alone); Lucid has only the soft
 * one, so here the two options end the same way.
 */
#include "kernel/watchdog.h"
#include "kernel/cmdline.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/sched/preempt.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/time/time.h"
#include "arch/x86_64/traps.h"
#include "lib/kstrtox.h"

#define WATCHDOG_THRESH_DEFAULT 10 /* seconds; a soft lockup is twice this, as in Linux */
#define RFLAGS_IF_BIT (1UL << 9)

static unsigned long watchdog_thresh = WATCHDOG_THRESH_DEFAULT;
static bool softlockup_panic;
static bool watchdog_enabled = true; /* what the tick checks */
static uint64_t touched[NR_CPUS]; /* ns timestamp of the last proof of life */
static bool reported[NR_CPUS];
void (*softlockup_dump_hook)(void); /* set by the tracer: ftrace_dump_on_oops */

void watchdog_init(void)
{
	char buf[16];
	unsigned long v;
	if (cmdline_get("watchdog_thresh", buf, sizeof(buf)) && !kstrtoul(buf, 10, &v)) {
		/* Twice it, in ns, must fit: 9223372037 once wrapped to a lockup every 0.3 s. */
		if (v <= UINT64_MAX / (2 * NSEC_PER_SEC))
			watchdog_thresh = v;
		else
			printk(KERN_WARNING "watchdog_thresh=%s: too big, ignored\n", buf);
	}
	if (cmdline_get("softlockup_panic", buf, sizeof(buf)))
		softlockup_panic = simple_strtoul(buf, NULL, 0) != 0; /* as Linux: garbage is 0 */
	/* nowatchdog stops every detector, nosoftlockup this one: here, the same one. */
	watchdog_enabled = !cmdline_has("nowatchdog") && !cmdline_has("nosoftlockup") &&
			   watchdog_thresh > 0;
}

/* From the timer interrupt, with the registers of the interrupted code. */
void watchdog_tick(struct pt_regs *regs)
{
	int cpu = smp_processor_id();
	uint64_t now = ktime_get_ns();
	/* HARDIRQ_OFFSET is ours (this tick); anything else means the CPU was not preemptible. */
	bool preemptible =
		(preempt_count() & ~HARDIRQ_OFFSET) == 0 && (regs->rflags & RFLAGS_IF_BIT);

	if (!watchdog_enabled)
		return;
	if (preemptible || !touched[cpu]) {
		touched[cpu] = now;
		reported[cpu] = false;
		return;
	}
	uint64_t stuck = now - touched[cpu];
	if (stuck < 2 * watchdog_thresh * NSEC_PER_SEC || reported[cpu])
		return;
	reported[cpu] = true;
	struct task *t = current;
	printk(KERN_EMERG "BUG: soft lockup - CPU#%d stuck for %lus! [%s:%d]\n", cpu,
	       (unsigned long)(stuck / NSEC_PER_SEC), t ? t->comm : "?", t ? t->pid : 0);
	show_regs(regs);
	if (softlockup_panic)
		panic("softlockup: hung tasks");
	if (softlockup_dump_hook)
		softlockup_dump_hook();
}
