/* Tests for lib/sort.c: heapsort against a simple reference, on many sizes and patterns. */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>
#include "lib/sort.h"

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static void check_sorted(int *v, size_t n, long sum)
{
	long s = 0;

	for (size_t i = 0; i < n; i++) {
		s += v[i];
		if (i)
			assert_true(v[i - 1] <= v[i]);
	}
	assert_int_equal(s, sum); /* same elements (by their sum) */
}

static void test_patterns(void **state)
{
	static int v[1000];

	(void)state;
	srand(1);
	for (size_t n = 0; n <= 1000; n = n < 20 ? n + 1 : n * 3 / 2) {
		for (int pattern = 0; pattern < 4; pattern++) {
			long sum = 0;

			for (size_t i = 0; i < n; i++) {
				v[i] = pattern == 0 ? rand() % 100 : /* many equal */
				       pattern == 1 ? (int)i :      /* sorted */
				       pattern == 2 ? (int)(n - i) : /* reversed */
						      rand();
				sum += v[i];
			}
			sort(v, n, sizeof(v[0]), cmp_int);
			check_sorted(v, n, sum);
		}
	}
}

/* Elements larger than a word, as the shell's sort of line pointers with lengths. */
struct rec {
	char key;
	char pad[13];
};

static int cmp_rec(const void *a, const void *b)
{
	return ((const struct rec *)a)->key - ((const struct rec *)b)->key;
}

static void test_odd_size(void **state)
{
	struct rec r[5] = { { 'd', "" }, { 'a', "" }, { 'e', "" }, { 'c', "" }, { 'b', "" } };

	(void)state;
	sort(r, 5, sizeof(r[0]), cmp_rec);
	for (int i = 0; i < 5; i++)
		assert_int_equal(r[i].key, 'a' + i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_odd_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
