/*
 * What the trace keeps of an unloaded module's functions (trace/ftrace_mod_map.c; Linux's
 * ftrace_mod_map): lines recorded while the module was loaded hold addresses of code that is
 * gone, and must still read "foo_init", not a bare number.
 */
#ifndef TRACE_FTRACE_MOD_MAP_H
#define TRACE_FTRACE_MOD_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include "trace/ftrace_cmd_parse.h" /* FTRACE_MODNAME_LEN */

/* A module's call site, as the loader gives it to ftrace (ftrace_module_sites_add). */
struct ftrace_mod_site {
	unsigned long ip;   /* the site: the function's first instruction */
	const char *name;   /* the function's symbol */
	unsigned long size; /* its size in bytes (st_size) */
};

struct ftrace_mod_func {
	unsigned long ip, size;
	const char *name; /* in the map's own memory */
};

struct ftrace_mod_map {
	struct ftrace_mod_map *next; /* on trace/ftrace.c's list, newest first */
	char modname[FTRACE_MODNAME_LEN];
	unsigned long start, end; /* from the lowest function to past the highest */
	int nr;
	struct ftrace_mod_func funcs[]; /* sorted by ip; then the names */
};

/* A map of the n functions (any order), names copied: one allocation, kfree() frees it. */
struct ftrace_mod_map *ftrace_mod_map_alloc(const char *modname,
					    const struct ftrace_mod_site *sites, int n);

/* The function addr lies in (ip <= addr < ip + size; a size of 0 covers its ip only), or NULL. */
const struct ftrace_mod_func *ftrace_mod_map_find(const struct ftrace_mod_map *map,
						  unsigned long addr);

#endif
