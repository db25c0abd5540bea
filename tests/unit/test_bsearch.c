/* Tests for lib/bsearch.c: exact matches, misses, and a comparison that matches ranges. */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "lib/bsearch.h"

static int cmp_long(const void *key, const void *elt)
{
	long k = *(const long *)key, e = *(const long *)elt;

	return (k > e) - (k < e);
}

/* Every size up to 64: each element found at its own index, every gap and both ends missed. */
static void test_exact(void **state)
{
	long v[64];

	(void)state;
	for (size_t n = 0; n <= ARRAY_SIZE(v); n++) {
		for (size_t i = 0; i < n; i++)
			v[i] = 10 * (long)i;
		for (size_t i = 0; i < n; i++) {
			long key = v[i];

			assert_ptr_equal(bsearch(&key, v, n, sizeof(v[0]), cmp_long), &v[i]);
			key = v[i] + 5; /* between two elements, or past the last */
			assert_null(bsearch(&key, v, n, sizeof(v[0]), cmp_long));
		}
		long below = -1;

		assert_null(bsearch(&below, v, n, sizeof(v[0]), cmp_long));
	}
}

/* Elements bigger than a word, found by a field: the shape of ftrace's records. */
struct rec {
	unsigned long ip;
	const char *name;
};

static int cmp_rec(const void *key, const void *elt)
{
	unsigned long ip = *(const unsigned long *)key, e = ((const struct rec *)elt)->ip;

	return (ip > e) - (ip < e);
}

static void test_struct(void **state)
{
	static const struct rec recs[] = {{0x100, "a"}, {0x180, "b"}, {0x2a0, "c"}, {0x300, "d"}};
	unsigned long ip = 0x2a0;
	const struct rec *r;

	(void)state;
	r = __inline_bsearch(&ip, recs, ARRAY_SIZE(recs), sizeof(recs[0]), cmp_rec);
	assert_non_null(r);
	assert_string_equal(r->name, "c");
	ip = 0x2a1;
	assert_null(bsearch(&ip, recs, ARRAY_SIZE(recs), sizeof(recs[0]), cmp_rec));
}

/*
 * Each element as the range up to the next, as kallsyms looks up the symbol holding an address:
 * equal starts make empty ranges, so the last of them matches.
 */
static const unsigned long starts[] = {100, 200, 200, 200, 350, 400};
#define RANGES_END 500UL

static int cmp_range(const void *key, const void *elt)
{
	unsigned long addr = *(const unsigned long *)key;
	const unsigned long *start = elt;
	unsigned long end = start < &starts[ARRAY_SIZE(starts) - 1] ? start[1] : RANGES_END;

	if (addr < *start)
		return -1;
	return addr >= end;
}

static void test_ranges(void **state)
{
	(void)state;
	for (unsigned long addr = 0; addr < RANGES_END + 10; addr++) {
		const unsigned long *hit =
			bsearch(&addr, starts, ARRAY_SIZE(starts), sizeof(starts[0]), cmp_range);
		long want = -1; /* the last start <= addr, if addr is inside the ranges */

		for (size_t i = 0; i < ARRAY_SIZE(starts) && addr < RANGES_END; i++)
			if (starts[i] <= addr)
				want = (long)i;
		if (want < 0)
			assert_null(hit);
		else
			assert_ptr_equal(hit, &starts[want]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_struct),
		cmocka_unit_test(test_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
