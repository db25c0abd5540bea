/*
 * foo: the module of "Debugging the kernel using Ftrace" (LWN, 2009), whose init reports with
 * trace_printk() what it read:
 *
 *     [~]# insmod foo
 *     [~]# cat /sys/kernel/tracing/trace
 *               insmod-6     [001] ....     0.116978: foo_init: read foo 10 out of bar ...
 *
 * Built by `make modules` into build/modules/foo.ko, loaded from /lib/modules at run time: its
 * code is not in the kernel image. trace_printk's format, a literal, is recorded by address and
 * printed when the trace is read (trace/trace_printk.h).
 */
#include "kernel/module/module.h"
#include "trace/trace_printk.h"

struct bar {
	int foo;
};

static struct bar foo_bar = {.foo = 10};

static int foo_init(void)
{
	struct bar *bar = &foo_bar;

	trace_printk("read foo %d out of bar %p\n", bar->foo, bar);
	return 0;
}

/* A message without arguments: only the string's address is recorded (TRACE_BPUTS). */
static void foo_exit(void)
{
	trace_printk("foo says goodbye\n");
}

module_init(foo_init);
module_exit(foo_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("The module of LWN's Debugging the kernel using Ftrace");
