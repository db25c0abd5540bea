/*
 * kallsyms: the kernel knows its own function names.
 *
 * The build links the kernel twice. The first link has an empty table; `nm` lists its
 * functions, tools/gen_kallsyms.py writes them out as a table, and the second link includes it.
 * The table sits at the very end of the read-only data, after all code, so adding it moves no
 * function: the addresses it records are the addresses of the final kernel (the Makefile checks).
 *
 * Lookups are a binary search over the sorted addresses. printk's %pS uses sprint_symbol.
 *
 * Not traced: the tracer names functions through here while it formats a trace.
 */
#include "kernel/kallsyms.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/compiler.h"

extern const unsigned long kallsyms_num;
extern const unsigned long kallsyms_text_end;
extern const unsigned long kallsyms_addresses[];
extern const unsigned int kallsyms_name_offsets[];
extern const char kallsyms_names[];

notrace bool kallsyms_lookup(unsigned long addr, const char **name, unsigned long *start,
			     unsigned long *size)
{
	if (!kallsyms_num || addr < kallsyms_addresses[0] || addr >= kallsyms_text_end)
		return false;
	/* The last symbol whose address is <= addr. */
	unsigned long lo = 0, hi = kallsyms_num;
	while (hi - lo > 1) {
		unsigned long mid = lo + (hi - lo) / 2;
		if (kallsyms_addresses[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	unsigned long end = lo + 1 < kallsyms_num ? kallsyms_addresses[lo + 1] : kallsyms_text_end;
	if (name)
		*name = &kallsyms_names[kallsyms_name_offsets[lo]];
	if (start)
		*start = kallsyms_addresses[lo];
	if (size)
		*size = end - kallsyms_addresses[lo];
	return true;
}

notrace unsigned long kallsyms_lookup_name(const char *name)
{
	for (unsigned long i = 0; i < kallsyms_num; i++)
		if (!strcmp(&kallsyms_names[kallsyms_name_offsets[i]], name))
			return kallsyms_addresses[i];
	return 0;
}

notrace int kallsyms_for_each(int (*fn)(void *data, const char *name, unsigned long addr),
			      void *data)
{
	for (unsigned long i = 0; i < kallsyms_num; i++) {
		int ret = fn(data, &kallsyms_names[kallsyms_name_offsets[i]], kallsyms_addresses[i]);
		if (ret)
			return ret;
	}
	return 0;
}

notrace size_t sprint_symbol(char *buf, size_t size, unsigned long addr, bool with_offset)
{
	const char *name;
	unsigned long start, len;
	if (!kallsyms_lookup(addr, &name, &start, &len))
		return 0;
	if (with_offset)
		return scnprintf(buf, size, "%s+0x%lx/0x%lx", name, addr - start, len);
	return scnprintf(buf, size, "%s", name);
}

void kallsyms_init(void)
{
	printf_set_symbolizer(sprint_symbol);
}
