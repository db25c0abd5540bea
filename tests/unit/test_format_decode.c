/*
 * Tests for format_decode (lib/printf.c): what each piece of a format decodes to, and how much
 * of the format it takes. vsnprintf and the binary printf read formats only through it.
 */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "lib/printf_spec.h"

static struct printf_spec decode(const char *fmt, int want_len)
{
	struct printf_spec spec;

	assert_int_equal(format_decode(fmt, &spec), want_len);
	return spec;
}

static void test_literal_text(void **state)
{
	(void)state;
	assert_int_equal(decode("abc%d", 3).type, FORMAT_TYPE_NONE);
	assert_int_equal(decode("abc", 3).type, FORMAT_TYPE_NONE);
	decode("", 0); /* the end */
}

static void test_integers(void **state)
{
	struct printf_spec s;

	(void)state;
	s = decode("%-08.3lx tail", 8);
	assert_int_equal(s.type, FORMAT_TYPE_INT);
	assert_int_equal(s.flags, LEFT | ZEROPAD);
	assert_int_equal(s.field_width, 8);
	assert_int_equal(s.precision, 3);
	assert_int_equal(s.qualifier, QUALIFIER_LONG);
	assert_int_equal(s.base, 16);
	assert_false(s.is_signed || s.upper);

	s = decode("%+ #d", 5);
	assert_int_equal(s.flags, PLUS | SPACE | SPECIAL);
	assert_true(s.is_signed);
	assert_int_equal(s.base, 10);
	assert_int_equal(s.precision, -1); /* none given */

	assert_int_equal(decode("%X", 2).upper, true);
	assert_int_equal(decode("%o", 2).base, 8);
	assert_int_equal(decode("%hhu", 4).qualifier, QUALIFIER_CHAR);
	assert_int_equal(decode("%hd", 3).qualifier, QUALIFIER_SHORT);
	assert_int_equal(decode("%lli", 4).qualifier, QUALIFIER_LLONG);
	assert_int_equal(decode("%zu", 3).qualifier, QUALIFIER_SIZE);
	assert_int_equal(decode("%td", 3).qualifier, QUALIFIER_PTRDIFF);
	assert_int_equal(decode("%jd", 3).qualifier, QUALIFIER_MAX);
	assert_true(format_qualifier_is_long(QUALIFIER_SIZE));
	assert_false(format_qualifier_is_long(QUALIFIER_SHORT));
}

static void test_stars_and_clamps(void **state)
{
	struct printf_spec s;

	(void)state;
	s = decode("%*.*s", 5);
	assert_int_equal(s.type, FORMAT_TYPE_STR);
	assert_true(s.width_star && s.precision_star);
	s = decode("%.d", 3); /* a '.' alone is precision 0 */
	assert_int_equal(s.precision, 0);
	s = decode("%999999999d", 11);
	assert_int_equal(s.field_width, FORMAT_FIELD_MAX);
}

static void test_others(void **state)
{
	struct printf_spec s;

	(void)state;
	assert_int_equal(decode("%c", 2).type, FORMAT_TYPE_CHAR);
	s = decode("%p", 2);
	assert_int_equal(s.type, FORMAT_TYPE_PTR);
	assert_int_equal(s.ptr_ext, 0);
	assert_int_equal(decode("%pS+", 3).ptr_ext, 'S');
	assert_int_equal(decode("%ps", 3).ptr_ext, 's');
	assert_int_equal(decode("%%", 2).type, FORMAT_TYPE_PERCENT_CHAR);
	assert_int_equal(decode("%-%", 3).type, FORMAT_TYPE_PERCENT_CHAR);
	/* Unknown and cut-off directives take what was read, the unknown character too. */
	assert_int_equal(decode("%5y", 3).type, FORMAT_TYPE_INVALID);
	assert_int_equal(decode("%hld", 3).type, FORMAT_TYPE_INVALID); /* one modifier only */
	assert_int_equal(decode("%", 1).type, FORMAT_TYPE_INVALID);
	assert_int_equal(decode("%-0", 3).type, FORMAT_TYPE_INVALID);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_literal_text),
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_stars_and_clamps),
		cmocka_unit_test(test_others),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
