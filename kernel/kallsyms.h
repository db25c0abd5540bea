/* The kernel's own symbol table: addresses to names and back (kernel/kallsyms.c). */
#ifndef KERNEL_KALLSYMS_H
#define KERNEL_KALLSYMS_H

#include <stddef.h>
#include <stdbool.h>

struct file_operations;

/* Finds the function containing addr: its name, start and size. Returns false if none. */
bool kallsyms_lookup(unsigned long addr, const char **name, unsigned long *start,
		     unsigned long *size);
/* The same, and *modname: the module's name for a module's function, else NULL. */
bool kallsyms_lookup_mod(unsigned long addr, const char **name, unsigned long *start,
			 unsigned long *size, const char **modname);
unsigned long kallsyms_lookup_name(const char *name);
/*
 * Writes "func+0x1a/0x40" (or "func") for addr into buf, with " [mod]" after a module's;
 * returns the length, 0 if unknown.
 */
size_t sprint_symbol(char *buf, size_t size, unsigned long addr, bool with_offset);
/* Iterates over all symbols, in address order; stops when fn returns nonzero. */
int kallsyms_for_each(int (*fn)(void *data, const char *name, unsigned long addr), void *data);
void kallsyms_init(void);
/* /proc/kallsyms: "address type name" a line, in address order (made by proc_misc_init). */
extern const struct file_operations kallsyms_proc_ops;

#endif
