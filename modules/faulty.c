/*
 * faulty: a module whose init dereferences a NULL pointer. Loading it oopses the kernel inside
 * the module's code, the case ftrace_dump_on_oops is for: boot with it, trace, then
 *
 *     [~]# insmod faulty
 *
 * and the trace is on the console after the oops, the module's functions in it, ending in
 * faulty_init. Lucid stops at an oops: load it last.
 */
#include "kernel/module/module.h"
#include "trace/trace_printk.h"

/* Volatile: the compiler may not see that the pointer is NULL and drop the store. */
static int *volatile nowhere;

static int faulty_init(void)
{
	trace_printk("faulty: about to write through %p\n", nowhere);
	*nowhere = 1; /* the oops: RIP is here, in faulty_init */
	trace_printk("faulty: still alive?\n"); /* never printed */
	return 0;
}

module_init(faulty_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Dereferences NULL in its init: an oops in module code");
