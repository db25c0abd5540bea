/*
 * howdy: the module docs/tutorial.md has a student write ("Write your own module"): two
 * functions and a trace_printk, to watch ftrace meet code that was not there at boot.
 *
 *     [~]# insmod howdy
 *     [~]# rmmod howdy
 *
 * Nothing here is Lucid's own spelling: module_init, module_exit, MODULE_LICENSE and
 * trace_printk are Linux's, and so is what `insmod` makes of them.
 */
#include "kernel/module/module.h"
#include "trace/trace_printk.h"

static int howdy_answer;
static int howdy_base = 40, howdy_step = 2; /* variables: gcc cannot fold them into a copy */

/* noinline: a call of its own, so that the function graph shows it beneath howdy_init. */
static noinline int howdy_add(int a, int b)
{
	return a + b;
}

static int howdy_init(void)
{
	howdy_answer = howdy_add(howdy_base, howdy_step);
	trace_printk("howdy: the answer is %d, kept at %p\n", howdy_answer, &howdy_answer);
	return 0;
}

static void howdy_exit(void)
{
	trace_printk("howdy: so long\n");
}

module_init(howdy_init);
module_exit(howdy_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("The tutorial's own module: two functions and a trace_printk");
