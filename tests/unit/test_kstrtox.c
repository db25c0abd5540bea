/*
 * Tests for lib/kstrtox.c: tables of input, base and expected result or error for each width,
 * covering Linux's rules (prefixes, signs, one trailing newline, overflow at each type's limits).
 */
/* first: glibc's cdefs.h tolerates its __always_inline, not the reverse */
#include "lib/compiler.h"
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "lib/kstrtox.h"
#include "lib/errno.h"

struct ucase {
	const char *s;
	unsigned int base;
	int err;
	unsigned long long want;
};

struct scase {
	const char *s;
	unsigned int base;
	int err;
	long long want;
};

static const struct ucase ull_cases[] = {
	{"0", 10, 0, 0},
	{"42", 10, 0, 42},
	{"+42", 10, 0, 42},
	{"42\n", 10, 0, 42},
	{"18446744073709551615", 10, 0, ULLONG_MAX},
	{"18446744073709551616", 10, -ERANGE, 0},
	{"99999999999999999999999", 10, -ERANGE, 0},
	{"0xffffffffffffffff", 0, 0, ULLONG_MAX},
	{"0x10000000000000000", 0, -ERANGE, 0},
	{"0x1f", 0, 0, 0x1f},
	{"0X1F", 0, 0, 0x1f},
	{"0x1f", 16, 0, 0x1f},
	{"1f", 16, 0, 0x1f},
	{"DeadBeef", 16, 0, 0xdeadbeef},
	{"017", 0, 0, 017},
	{"0", 0, 0, 0},
	{"017", 10, 0, 17},
	{"777", 8, 0, 0777},
	{"8", 8, -EINVAL, 0},
	{"101", 2, 0, 5},
	{"102", 2, -EINVAL, 0},
	{"0x", 0, -EINVAL, 0}, /* "0" in octal, then a stray 'x' */
	{"0x", 16, -EINVAL, 0}, /* prefix but no digits */
	{"0xg", 0, -EINVAL, 0},
	{"", 10, -EINVAL, 0},
	{"\n", 10, -EINVAL, 0},
	{"+", 10, -EINVAL, 0},
	{"-1", 10, -EINVAL, 0}, /* no '-' for unsigned */
	{" 1", 10, -EINVAL, 0}, /* no leading space */
	{"1 ", 10, -EINVAL, 0},
	{"1\n\n", 10, -EINVAL, 0}, /* only one newline */
	{"12abc", 10, -EINVAL, 0},
	{"++1", 10, -EINVAL, 0},
	{"1", 1, -EINVAL, 0},
	{"1", 17, -EINVAL, 0},
};

static const struct scase ll_cases[] = {
	{"0", 10, 0, 0},
	{"-0", 10, 0, 0},
	{"-42", 10, 0, -42},
	{"+42", 10, 0, 42},
	{"-42\n", 10, 0, -42},
	{"9223372036854775807", 10, 0, LLONG_MAX},
	{"9223372036854775808", 10, -ERANGE, 0},
	{"-9223372036854775808", 10, 0, LLONG_MIN},
	{"-9223372036854775809", 10, -ERANGE, 0},
	{"-18446744073709551616", 10, -ERANGE, 0},
	{"-0x10", 0, 0, -16},
	{"-010", 0, 0, -8},
	{"-", 10, -EINVAL, 0},
	{"--1", 10, -EINVAL, 0},
	{"-+1", 10, -EINVAL, 0},
	{"+-1", 10, -EINVAL, 0},
	{"- 1", 10, -EINVAL, 0},
	{"-1x", 10, -EINVAL, 0},
};

static const struct scase int_cases[] = {
	{"2147483647", 10, 0, INT_MAX},
	{"2147483648", 10, -ERANGE, 0},
	{"-2147483648", 10, 0, INT_MIN},
	{"-2147483649", 10, -ERANGE, 0},
	{"0x7fffffff", 0, 0, INT_MAX},
	{"-17\n", 10, 0, -17},
	{"99999999999999999999", 10, -ERANGE, 0},
	{"x", 10, -EINVAL, 0},
};

static const struct ucase uint_cases[] = {
	{"4294967295", 10, 0, UINT_MAX}, {"4294967296", 10, -ERANGE, 0},
	{"0xffffffff", 16, 0, UINT_MAX}, {"0x100000000", 16, -ERANGE, 0},
	{"-1", 10, -EINVAL, 0},		 {"7\n", 0, 0, 7},
};

/* Each function must leave *res alone on failure: callers keep their old value. */
#define SENTINEL 0x5a5a

/* Runs call on case c; its result must be c's error, and *res c's value or untouched. */
#define CHECK(call, c, res)                                                                   \
	do {                                                                                  \
		int err_ = (call);                                                            \
		if (err_ != (c)->err || (res) != ((c)->err ? SENTINEL : (c)->want)) {         \
			print_error("%s on \"%s\" base %u: got %d, want %d\n", #call, (c)->s, \
				    (c)->base, err_, (c)->err);                               \
			fail();                                                               \
		}                                                                             \
	} while (0)

static void test_kstrtoull(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ull_cases); i++) {
		const struct ucase *c = &ull_cases[i];
		unsigned long long v = SENTINEL;
		unsigned long lv = SENTINEL;

		CHECK(kstrtoull(c->s, c->base, &v), c, v);
		CHECK(kstrtoul(c->s, c->base, &lv), c, lv); /* long is 64 bits */
	}
}

static void test_kstrtoll(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ll_cases); i++) {
		const struct scase *c = &ll_cases[i];
		long long v = SENTINEL;
		long lv = SENTINEL;

		CHECK(kstrtoll(c->s, c->base, &v), c, v);
		CHECK(kstrtol(c->s, c->base, &lv), c, lv);
	}
}

static void test_kstrtoint(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(int_cases); i++) {
		const struct scase *c = &int_cases[i];
		int v = SENTINEL;

		CHECK(kstrtoint(c->s, c->base, &v), c, v);
	}
}

static void test_kstrtouint(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(uint_cases); i++) {
		const struct ucase *c = &uint_cases[i];
		unsigned int v = SENTINEL;

		CHECK(kstrtouint(c->s, c->base, &v), c, v);
	}
}

static void test_simple_strtoul(void **state)
{
	char *end;
	const char *s;

	(void)state;
	s = "123abc";
	assert_int_equal(simple_strtoul(s, &end, 10), 123);
	assert_ptr_equal(end, s + 3);
	s = "0x1fz";
	assert_int_equal(simple_strtoul(s, &end, 0), 0x1f);
	assert_ptr_equal(end, s + 4);
	s = "0755 rest";
	assert_int_equal(simple_strtoul(s, &end, 0), 0755);
	assert_ptr_equal(end, s + 4);
	s = "ff";
	assert_int_equal(simple_strtoul(s, &end, 16), 0xff);
	assert_ptr_equal(end, s + 2);
	s = "xyz";
	assert_int_equal(simple_strtoul(s, &end, 10), 0);
	assert_ptr_equal(end, s);
	assert_int_equal(simple_strtoul("42", NULL, 10), 42);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kstrtoull),      cmocka_unit_test(test_kstrtoll),
		cmocka_unit_test(test_kstrtoint),      cmocka_unit_test(test_kstrtouint),
		cmocka_unit_test(test_simple_strtoul),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
