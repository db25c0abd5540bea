/*
 * initfail: an init that refuses (-ENODEV). The loader must undo everything: the module is not
 * listed afterwards, and every page it took is free again (tests/qemu/kernel/test_module.py).
 */
#include "kernel/module/module.h"
#include "trace/trace_printk.h"
#include "lib/errno.h"

static int initfail_init(void)
{
	trace_printk("initfail refuses to load\n");
	return -ENODEV;
}

static void initfail_exit(void)
{
}

module_init(initfail_init);
module_exit(initfail_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("An init that refuses with ENODEV");
