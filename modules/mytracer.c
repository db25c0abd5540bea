/*
 * mytracer: a module that adds a tracer, "mytracer", to available_tracers while it is loaded.
 *
 *     [~]# insmod mytracer
 *     [~]# cat /sys/kernel/tracing/available_tracers      # mytracer is listed
 *     [~]# echo mytracer > /sys/kernel/tracing/current_tracer
 *     [~]# rmmod mytracer
 *     rmmod: ERROR: Module mytracer is in use
 *     [~]# echo nop > /sys/kernel/tracing/current_tracer
 *     [~]# rmmod mytracer                                 # now it goes
 *
 * While it is the current tracer it holds a reference to its module (try_module_get in init,
 * module_put in reset), so the module cannot be unloaded from under the tracing code that would
 * call into it. What it traces: its start and stop, with trace_printk.
 */
#include "kernel/module/module.h"
#include "trace/trace.h"
#include "trace/trace_printk.h"
#include "lib/errno.h"

static int mytracer_init(struct trace_array *tr)
{
	(void)tr;
	if (!try_module_get(THIS_MODULE))
		return -ENODEV; /* being unloaded */
	trace_printk("mytracer starts\n");
	return 0;
}

static void mytracer_reset(struct trace_array *tr)
{
	(void)tr;
	trace_printk("mytracer stops\n");
	module_put(THIS_MODULE);
}

static struct tracer mytracer = {
	.name = "mytracer",
	.init = mytracer_init,
	.reset = mytracer_reset,
};

static int mytracer_mod_init(void)
{
	return register_tracer(&mytracer);
}

static void mytracer_mod_exit(void)
{
	unregister_tracer(&mytracer);
}

module_init(mytracer_mod_init);
module_exit(mytracer_mod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Adds a tracer, mytracer, while it is loaded");
