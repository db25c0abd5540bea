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

/* Elements of whole words (ftrace's records: 24 bytes) swap a word at a time: every word moves. */
struct words3 {
	unsigned long key, a, b;
};

static int cmp_words3(const void *x, const void *y)
{
	unsigned long p = ((const struct words3 *)x)->key, q = ((const struct words3 *)y)->key;

	return (p > q) - (p < q);
}

static void test_word_size(void **state)
{
	struct words3 w[100];

	(void)state;
	srand(3);
	for (int i = 0; i < 100; i++) {
		w[i].key = (unsigned long)rand();
		w[i].a = w[i].key * 3;
		w[i].b = ~w[i].key;
	}
	sort(w, 100, sizeof(w[0]), cmp_words3);
	for (int i = 0; i < 100; i++) {
		assert_true(i == 0 || w[i - 1].key <= w[i].key);
		assert_int_equal(w[i].a, w[i].key * 3); /* each element moved whole */
		assert_int_equal(w[i].b, ~w[i].key);
	}
}

/* sort_r: the comparison gets priv, here the direction, as sort -r hands its option over. */
static int cmp_int_dir(const void *a, const void *b, const void *priv)
{
	return *(const int *)priv * cmp_int(a, b);
}

static void test_sort_r_priv(void **state)
{
	int v[6] = {3, 1, 4, 1, 5, 9}, down = -1, up = 1;
	const int want_down[6] = {9, 5, 4, 3, 1, 1};

	(void)state;
	sort_r(v, 6, sizeof(v[0]), cmp_int_dir, &down);
	for (int i = 0; i < 6; i++)
		assert_int_equal(v[i], want_down[i]);
	sort_r(v, 6, sizeof(v[0]), cmp_int_dir, &up);
	check_sorted(v, 6, 23);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_odd_size),
		cmocka_unit_test(test_word_size),
		cmocka_unit_test(test_sort_r_priv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
