/*
 * Host tests' stand-in for kallsyms: a test gives a small table of functions and defines
 * sprint_symbol() (lib/printf.c's %pS) as host_sprint_symbol() over it.
 */
#ifndef TESTS_UNIT_HOST_SYMS_H
#define TESTS_UNIT_HOST_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct host_sym {
	const char *name;
	unsigned long start, size;
};

/* "name" or "name+0xoff/0xsize" for addr, as the kernel prints it; 0 if addr is in none. */
static inline size_t host_sprint_symbol(const struct host_sym *syms, size_t n, char *buf,
					size_t size, unsigned long addr, bool with_offset)
{
	for (size_t i = 0; i < n; i++) {
		unsigned long off = addr - syms[i].start;

		if (addr < syms[i].start || off >= syms[i].size)
			continue;
		if (with_offset)
			return (size_t)snprintf(buf, size, "%s+0x%lx/0x%lx", syms[i].name, off,
						syms[i].size);
		return (size_t)snprintf(buf, size, "%s", syms[i].name);
	}
	return 0;
}

#endif
