/* Sorting an array in place, Linux's lib/sort.c interface. */
#ifndef LIB_SORT_H
#define LIB_SORT_H

#include <stddef.h>

/*
 * Sorts num elements of size bytes at base so that cmp (negative, 0, positive as for qsort)
 * sees them in order. Heapsort: O(n log n) always, no memory besides the stack, not stable.
 */
void sort(void *base, size_t num, size_t size, int (*cmp)(const void *, const void *));

/*
 * The same, with priv handed to every comparison (Linux's sort_r): what a comparison depends
 * on besides the two elements (sort -n, -r) travels with the call, not in a global that
 * another task sorting at the same time would overwrite.
 */
typedef int (*cmp_r_func_t)(const void *a, const void *b, const void *priv);
void sort_r(void *base, size_t num, size_t size, cmp_r_func_t cmp, const void *priv);

#endif
