/* Binary search of a sorted array, Linux's lib/bsearch.c interface. */
#ifndef LIB_BSEARCH_H
#define LIB_BSEARCH_H

#include <stddef.h>
#include "lib/compiler.h"

/* Host unit tests link this next to libc: rename what libc also defines (see lib/string.h). */
#ifdef LUCID_HOST
#define bsearch lucid_bsearch
#endif

/*
 * cmp(key, elt) says where key lies against the element elt: negative before it, positive
 * after it, 0 if elt is the one. The array must be ordered so that the elements cmp puts key
 * after all come before those it puts key before. A comparison may also treat an element as a
 * range ("key is in [elt, next elt)"): then a match is the range that holds key.
 */
typedef int (*cmp_func_t)(const void *key, const void *elt);

/*
 * The element of base[num] (each size bytes) that cmp matches with key, or NULL. Halves the
 * part still to search on each step: O(log num) comparisons.
 *
 * Inline, as Linux's __inline_bsearch: a caller on a hot path (the function tracer finding a
 * call site, the int3 handler, kallsyms) gets the comparison inlined too, not called through a
 * pointer at each step. Everyone else calls bsearch().
 */
static __always_inline void *__inline_bsearch(const void *key, const void *base, size_t num,
					      size_t size, cmp_func_t cmp)
{
	const char *lo = base;

	while (num) {
		const char *mid = lo + (num / 2) * size;
		int c = cmp(key, mid);

		if (c == 0)
			return (void *)mid;
		if (c > 0) { /* after mid: search what follows it */
			lo = mid + size;
			num -= num / 2 + 1;
		} else { /* before mid: search what precedes it */
			num /= 2;
		}
	}
	return NULL;
}

void *bsearch(const void *key, const void *base, size_t num, size_t size, cmp_func_t cmp);

#endif
