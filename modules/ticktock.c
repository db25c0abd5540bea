/*
 * ticktock: a module whose timer fires in interrupt context, 10 ms after it is loaded, and says
 * so with trace_printk. Its line in the trace carries the hardirq mark ('h' in the irq-info
 * column), the timer interrupt's context, while the insmod that armed it ran in a task:
 *
 *     [~]# insmod ticktock; sleep 1; cat /sys/kernel/tracing/trace
 *     ...  [001] d.h.  ...: ticktock_fire: tick from the timer interrupt, 1 time(s)
 *
 * Its exit deletes the timer: del_timer() waits for a callback that is running (the callback
 * runs with the timer lock held), so no code of the module can run once it is unloaded.
 */
#include "kernel/module/module.h"
#include "kernel/time/time.h"
#include "kernel/time/timer.h"
#include "trace/trace_printk.h"

#define TICKTOCK_DELAY_NS (10 * NSEC_PER_MSEC)

static struct timer_list ticktock_timer;
static int fired;

static void ticktock_fire(struct timer_list *t)
{
	(void)t;
	fired++;
	trace_printk("tick from the timer interrupt, %d time(s)\n", fired);
}

static int ticktock_init(void)
{
	ticktock_timer.fn = ticktock_fire;
	ticktock_timer.expires = ktime_get_ns() + TICKTOCK_DELAY_NS;
	INIT_LIST_HEAD(&ticktock_timer.entry);
	add_timer(&ticktock_timer);
	return 0;
}

static void ticktock_exit(void)
{
	del_timer(&ticktock_timer);
}

module_init(ticktock_init);
module_exit(ticktock_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A timer that fires in interrupt context and says so with trace_printk");
