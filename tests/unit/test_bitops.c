/* Tests for lib/bitops.h: each operation against a bool-per-bit model, across word boundaries. */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>
#include "lib/bitops.h"

#define NBITS 200 /* three full words and part of a fourth */

static void check_model(const unsigned long *bits, const bool *model)
{
	unsigned long weight = 0;

	for (unsigned long i = 0; i < NBITS; i++) {
		assert_int_equal(test_bit(i, bits), model[i]);
		weight += model[i];
	}
	assert_int_equal(bitmap_weight(bits, NBITS), weight);
}

static void test_set_clear(void **state)
{
	unsigned long bits[BITS_TO_LONGS(NBITS)] = {0};
	bool model[NBITS] = {false};

	(void)state;
	assert_int_equal(ARRAY_SIZE(bits), 4);
	srand(2);
	for (int round = 0; round < 2000; round++) {
		unsigned long nr = (unsigned long)rand() % NBITS;

		switch (rand() % 5) {
		case 0:
			set_bit(nr, bits);
			model[nr] = true;
			break;
		case 1:
			clear_bit(nr, bits);
			model[nr] = false;
			break;
		case 2:
			__set_bit(nr, bits);
			model[nr] = true;
			break;
		case 3:
			__clear_bit(nr, bits);
			model[nr] = false;
			break;
		default:
			assert_int_equal(__test_and_clear_bit(nr, bits), model[nr]);
			model[nr] = false;
			break;
		}
		check_model(bits, model);
	}
}

static void test_edges(void **state)
{
	unsigned long bits[BITS_TO_LONGS(NBITS)] = {0};

	(void)state;
	__set_bit(63, bits); /* the top bit of a word: no sign trouble */
	__set_bit(64, bits);
	assert_int_equal(bits[0], 1UL << 63);
	assert_int_equal(bits[1], 1UL);
	assert_true(test_bit(63, bits) && test_bit(64, bits) && !test_bit(62, bits));
	/* Bits past nbits do not count. */
	bits[3] = ~0UL;
	assert_int_equal(bitmap_weight(bits, NBITS), 2 + (NBITS - 3 * BITS_PER_LONG));
	assert_int_equal(bitmap_weight(bits, 3 * BITS_PER_LONG), 2);
	assert_int_equal(hweight_long(~0UL), BITS_PER_LONG);
	assert_int_equal(hweight_long(0), 0);
}

static void test_find_next_zero_bit(void **state)
{
	unsigned long bits[BITS_TO_LONGS(NBITS)];

	(void)state;
	for (int i = 0; i < 4; i++)
		bits[i] = ~0UL;
	assert_int_equal(find_next_zero_bit(bits, NBITS, 0), NBITS); /* full: size */
	__clear_bit(130, bits);
	assert_int_equal(find_next_zero_bit(bits, NBITS, 0), 130);
	assert_int_equal(find_next_zero_bit(bits, NBITS, 130), 130);
	assert_int_equal(find_next_zero_bit(bits, NBITS, 131), NBITS);
	assert_int_equal(find_next_zero_bit(bits, 100, 0), 100); /* the zero is past size */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_clear),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_find_next_zero_bit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
