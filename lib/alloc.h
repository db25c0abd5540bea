/*
 * Memory for lib/. lib/ is a leaf: it includes nothing from kernel/, trace/ or arch/, so that
 * it builds and is tested on its own. What in it allocates (lib/regex.c) asks through these
 * three, which whoever links lib/ in defines: the kernel, on its heap (kernel/mm/kmalloc.c, so
 * fault injection reaches lib/ too), and the host tests, on theirs (tests/unit/host_kmalloc.c).
 * Their contract is kmalloc's: NULL when memory is short, lib_realloc(NULL, n) allocates, and
 * lib_free(NULL) does nothing.
 */
#ifndef LIB_ALLOC_H
#define LIB_ALLOC_H

#include <stddef.h>

void *lib_alloc(size_t size);
void *lib_realloc(void *p, size_t size);
void lib_free(void *p);

#endif
