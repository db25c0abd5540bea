/*
 * Binary search, out of line: for callers that are not on a hot path (lib/bsearch.h has the
 * algorithm, inline, for those that are).
 *
 * notrace: the tracer and the int3 handler search with it.
 */
#include "lib/bsearch.h"

void *bsearch(const void *key, const void *base, size_t num, size_t size, cmp_func_t cmp)
{
	return __inline_bsearch(key, base, num, size, cmp);
}
