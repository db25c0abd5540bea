/* Sorting an array in place, Linux's lib/sort.c interface. */
#ifndef LIB_SORT_H
#define LIB_SORT_H

#include <stddef.h>

/*
 * Sorts num elements of size bytes at base so that cmp (negative, 0, positive as for qsort)
 * sees them in order. Heapsort: O(n log n) always, no memory besides the stack, not stable.
 */
void sort(void *base, size_t num, size_t size, int (*cmp)(const void *, const void *));

#endif
