/*
 * latency_demo: a module that misbehaves on purpose, for the latency tracers to catch.
 *
 *     [~]# echo irqsoff > /sys/kernel/tracing/current_tracer
 *     [~]# insmod latency_demo irqs_off_us=500
 *     [~]# cat /sys/kernel/tracing/tracing_max_latency          # 500 or more
 *     [~]# cat /sys/kernel/tracing/trace                        # started at: latency_demo_irqs_off
 *
 * Its init holds interrupts off for irqs_off_us microseconds (the CPU cannot take an interrupt,
 * not even the timer's), then preemption off for preempt_off_us (interrupts come, but no other
 * task can run here): what a driver that spins too long under a lock does. Each wait calls a
 * function of its own, latency_demo_spin(), so that with function-trace the section's function
 * list shows it. 0 (the default) skips that part. It stays loaded, doing nothing, until rmmod.
 *
 * A teaching toy: a section over LATENCY_DEMO_MAX_US is refused (-EINVAL), so a typo cannot
 * freeze a CPU for minutes.
 */
#include "kernel/module/module.h"
#include "kernel/sched/preempt.h"
#include "kernel/sched/time.h"
#include "arch/x86_64/cpu.h"
#include "lib/errno.h"

#define LATENCY_DEMO_MAX_US 1000000 /* one second: plenty to see, short enough to survive */
#define LATENCY_DEMO_STEP_US 50 /* one latency_demo_spin() call: a line in the trace */

static unsigned int irqs_off_us;
static unsigned int preempt_off_us;
module_param(irqs_off_us, uint, 0444);
MODULE_PARM_DESC(irqs_off_us, "microseconds to hold interrupts off at load (0: not at all)");
module_param(preempt_off_us, uint, 0444);
MODULE_PARM_DESC(preempt_off_us, "microseconds to hold preemption off at load (0: not at all)");

/* The busy work inside a section: a function of its own, so the function list shows it. */
static noinline void latency_demo_spin(unsigned int us)
{
	udelay(us);
}

static noinline void latency_demo_wait(unsigned int us)
{
	for (unsigned int done = 0; done < us; done += LATENCY_DEMO_STEP_US)
		latency_demo_spin(MIN(LATENCY_DEMO_STEP_US, us - done));
}

static noinline void latency_demo_irqs_off(unsigned int us)
{
	local_irq_disable();
	latency_demo_wait(us);
	local_irq_enable();
}

static noinline void latency_demo_preempt_off(unsigned int us)
{
	preempt_disable();
	latency_demo_wait(us);
	preempt_enable();
}

static int latency_demo_init(void)
{
	if (irqs_off_us > LATENCY_DEMO_MAX_US || preempt_off_us > LATENCY_DEMO_MAX_US)
		return -EINVAL;
	if (irqs_off_us)
		latency_demo_irqs_off(irqs_off_us);
	if (preempt_off_us)
		latency_demo_preempt_off(preempt_off_us);
	return 0;
}

static void latency_demo_exit(void)
{
}

module_init(latency_demo_init);
module_exit(latency_demo_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Holds interrupts or preemption off for as long as asked, for irqsoff to catch");
