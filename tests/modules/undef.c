/*
 * undef: calls bar(), which nothing defines, and kallsyms_lookup_name(), which the kernel has but
 * does not export. Neither resolves: dmesg names both ("undef: Unknown symbol bar (err -2)"),
 * and insmod fails with ENOENT (tests/qemu/kernel/test_module.py).
 */
#include "kernel/module/module.h"

int bar(void);
unsigned long kallsyms_lookup_name(const char *name);

static int undef_init(void)
{
	return bar() + (int)kallsyms_lookup_name("undef");
}

module_init(undef_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Symbols that do not resolve");
