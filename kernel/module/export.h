/*
 * EXPORT_SYMBOL(): which kernel symbols a module may use.
 *
 * A module is linked at run time against the running kernel (kernel/module/main.c), but only
 * against what the kernel offers it: each EXPORT_SYMBOL(name) puts a {address, name} pair in the
 * section __ksymtab, which linker.ld gathers between __start___ksymtab and __stop___ksymtab, and
 * the loader resolves a module's undefined symbols in that table alone. Everything else stays
 * private: a module that calls a function nobody exported fails to load with "Unknown symbol",
 * as on Linux, whatever kallsyms knows. A module may export symbols too (its own __ksymtab), for
 * the modules loaded after it.
 *
 * Linux's spelling, so a module's source reads as one for Linux. EXPORT_SYMBOL_GPL is the same
 * here: Lucid checks no licence.
 */
#ifndef KERNEL_MODULE_EXPORT_H
#define KERNEL_MODULE_EXPORT_H

#include "lib/compiler.h"

struct kernel_symbol {
	unsigned long value;
	const char *name;
};

#define __EXPORT_SYMBOL(sym)                                                               \
	static const char __kstrtab_##sym[] = #sym;                                        \
	static const struct kernel_symbol __ksymtab_##sym __used __section("__ksymtab")     \
		__aligned(sizeof(long)) = {(unsigned long)&sym, __kstrtab_##sym}

#define EXPORT_SYMBOL(sym) __EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym) __EXPORT_SYMBOL(sym)

#endif
