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
 * Again without reloading: the parameters are files, /sys/module/latency_demo/parameters/
 * irqs_off_us and preempt_off_us (mode 0644, module_param_cb). Reading shows the last value;
 * writing one runs that section at once, in the writer's write(2), as a driver's parameter
 * that does something when set:
 *
 *     [~]# echo 500 > /sys/module/latency_demo/parameters/irqs_off_us
 *
 * A teaching toy: a section over LATENCY_DEMO_MAX_US is refused (-EINVAL), so a typo cannot
 * freeze a CPU for minutes.
 */
#include "kernel/module/module.h"
#include "kernel/sched/preempt.h"
#include "kernel/time/time.h"
#include "arch/x86_64/cpu.h"
#include "lib/errno.h"

#define LATENCY_DEMO_MAX_US 1000000 /* one second: plenty to see, short enough to survive */
#define LATENCY_DEMO_STEP_US 50 /* one latency_demo_spin() call: a line in the trace */

static unsigned int irqs_off_us;
static unsigned int preempt_off_us;
static bool loaded; /* the init is done: a parameter written now runs its section at once */
/* Set at load only (mode 0444: the file shows it, and refuses to be opened for writing). */
static unsigned int step_us = LATENCY_DEMO_STEP_US;
module_param(step_us, uint, 0444);
MODULE_PARM_DESC(step_us, "microseconds per latency_demo_spin() call, a line each in the trace");

/* The busy work inside a section: a function of its own, so the function list shows it. */
static noinline void latency_demo_spin(unsigned int us)
{
	udelay(us);
}

static noinline void latency_demo_wait(unsigned int us)
{
	for (unsigned int done = 0; done < us; done += step_us)
		latency_demo_spin(MIN(step_us, us - done));
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

/*
 * A parameter's value, from insmod's line or a write of its file: a number of microseconds up
 * to LATENCY_DEMO_MAX_US (else EINVAL, or ERANGE for one no unsigned int holds, and the value
 * stays as it was). Once loaded, the section runs now.
 */
static int latency_demo_set(const char *val, const struct kernel_param *kp)
{
	struct kernel_param parsed = *kp;
	unsigned int us;
	int err;

	parsed.arg = &us;
	err = param_set_uint(val, &parsed);
	if (err)
		return err;
	if (us > LATENCY_DEMO_MAX_US)
		return -EINVAL;
	*(unsigned int *)kp->arg = us;
	if (!READ_ONCE(loaded) || !us)
		return 0;
	if (kp->arg == &irqs_off_us)
		latency_demo_irqs_off(us);
	else
		latency_demo_preempt_off(us);
	return 0;
}

static const struct kernel_param_ops latency_demo_param_ops = {
	.set = latency_demo_set,
	.get = param_get_uint,
};
module_param_cb(irqs_off_us, &latency_demo_param_ops, &irqs_off_us, 0644);
MODULE_PARM_DESC(irqs_off_us,
		 "microseconds to hold interrupts off, at load or when written (0: not at all)");
module_param_cb(preempt_off_us, &latency_demo_param_ops, &preempt_off_us, 0644);
MODULE_PARM_DESC(preempt_off_us,
		 "microseconds to hold preemption off, at load or when written (0: not at all)");

static int latency_demo_init(void)
{
	if (!step_us || step_us > LATENCY_DEMO_MAX_US)
		return -EINVAL; /* 0 would never end a section */
	if (irqs_off_us)
		latency_demo_irqs_off(irqs_off_us);
	if (preempt_off_us)
		latency_demo_preempt_off(preempt_off_us);
	WRITE_ONCE(loaded, true);
	return 0;
}

static void latency_demo_exit(void)
{
}

module_init(latency_demo_init);
module_exit(latency_demo_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Holds interrupts or preemption off for as long as asked, for irqsoff to catch");
