/*
 * The names of an unloaded module's functions, for the trace (Linux's ftrace_mod_map).
 *
 * When rmmod frees a module, its symbols go with it, but the ring buffer may still hold events
 * recorded in its functions: "foo_init <-do_one_initcall". Linux keeps, for each module that
 * had call sites, a small map of those functions (address, size, name) that kallsyms consults
 * when no loaded code has the address; so do we (trace/ftrace.c builds it when the module's
 * sites join the tables, and keeps it from ftrace_release_mod on). Only functions with a call
 * site are kept, the ones the function tracers can have recorded. A module loaded again under
 * the same name replaces its old map (ftrace.c), so loading and unloading in a loop keeps at
 * most one map per module name.
 *
 * Pure data, no locking: the caller's (trace/ftrace.c). Tested on the host
 * (tests/unit/test_ftrace_mod_map.c).
 *
 * Not traced, as all of trace/.
 */
#include "trace/ftrace_mod_map.h"
#include "kernel/mm/kmalloc.h"
#include "lib/bsearch.h"
#include "lib/sort.h"
#include "lib/string.h"

static int func_cmp(const void *a, const void *b)
{
	unsigned long x = ((const struct ftrace_mod_func *)a)->ip;
	unsigned long y = ((const struct ftrace_mod_func *)b)->ip;

	return x < y ? -1 : x > y;
}

struct ftrace_mod_map *ftrace_mod_map_alloc(const char *modname,
					    const struct ftrace_mod_site *sites, int n)
{
	size_t names = 0;
	struct ftrace_mod_map *map;
	char *p;

	if (n <= 0)
		return NULL;
	for (int i = 0; i < n; i++)
		names += strlen(sites[i].name) + 1;
	map = kzalloc(sizeof(*map) + (size_t)n * sizeof(map->funcs[0]) + names);
	if (!map)
		return NULL;
	strlcpy(map->modname, modname, sizeof(map->modname));
	p = (char *)&map->funcs[n];
	for (int i = 0; i < n; i++) {
		size_t len = strlen(sites[i].name) + 1;

		memcpy(p, sites[i].name, len);
		map->funcs[i] = (struct ftrace_mod_func){sites[i].ip, sites[i].size, p};
		p += len;
	}
	map->nr = n;
	sort(map->funcs, (size_t)n, sizeof(map->funcs[0]), func_cmp);
	map->start = map->funcs[0].ip;
	map->end = map->funcs[n - 1].ip + (map->funcs[n - 1].size ? map->funcs[n - 1].size : 1);
	return map;
}

/* Where addr lies against a function: before it, inside it (0), or after it. */
static int addr_cmp(const void *key, const void *elt)
{
	unsigned long addr = *(const unsigned long *)key;
	const struct ftrace_mod_func *f = elt;
	unsigned long size = f->size ? f->size : 1;

	if (addr < f->ip)
		return -1;
	return addr - f->ip >= size;
}

const struct ftrace_mod_func *ftrace_mod_map_find(const struct ftrace_mod_map *map,
						  unsigned long addr)
{
	if (!map || addr < map->start || addr >= map->end)
		return NULL;
	return bsearch(&addr, map->funcs, (size_t)map->nr, sizeof(map->funcs[0]), addr_cmp);
}
