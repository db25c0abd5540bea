/* bstr_printf(vbin_printf(args)) must print exactly what vsnprintf prints (lib/bprintf.c). */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "lib/bprintf.h"
#include "lib/printf.h"
#include "lib/string.h"

#define WORDS 64

static void check_one(const char *fmt, ...)
{
	uint32_t bin[WORDS];
	char want[256], got[256];
	va_list ap, ap2;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vbin_printf(bin, WORDS, fmt, ap);
	vsnprintf(want, sizeof(want), fmt, ap2);
	va_end(ap2);
	va_end(ap);
	assert_true(n <= WORDS);
	int len = bstr_printf(got, sizeof(got), fmt, bin, (size_t)n);
	if (strcmp(want, got)) {
		print_error("fmt %s: want \"%s\" got \"%s\"\n", fmt, want, got);
		fail();
	}
	assert_int_equal(len, (int)strlen(want));
}

static void test_round_trip(void **state)
{
	(void)state;
	check_one("read foo %d out of bar %p\n", 42, (void *)0xffff888000123456UL);
	check_one("ftrace test %d\n", 42);
	check_one("plain text, no directives");
	check_one("100%% sure");
	check_one("%s and %s", "first", "second, longer than a word");
	check_one("%s", "");
	check_one("%s|%5s|%-5s|%.2s", "abc", "ab", "ab", "abcdef");
	check_one("%s", (char *)NULL);
	check_one("%c%c%c", 'a', 'b', 'c');
	check_one("%d %i %u %x %X %o", -1, 2, 3u, 0xabcu, 0xABCu, 8u);
	check_one("%ld %lu %lx %lld %llu", -5L, 5UL, 0xdeadbeefcafeUL, -9LL, 9ULL);
	check_one("%zu %zd %hhd %hd", (size_t)77, (ptrdiff_t)-7, 300, 70000);
	check_one("%*d|%-*d|%.*d|%*.*lx", 6, 42, 6, 42, 4, 7, 10, 4, 0xbeefUL);
	check_one("%08.3d|%+d|% d|%#x|%#o", 5, 5, 5, 255u, 8u);
	check_one("%p %p", (void *)NULL, (void *)&check_one);
	check_one("mixed %d %s %lu %c %s end", 1, "two", 3UL, '4', "five");
	check_one("trailing %");
}

static int save(uint32_t *bin, size_t words, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vbin_printf(bin, words, fmt, ap);
	va_end(ap);
	return n;
}

/* A record cut short (the ring buffer entry was too small) formats what it has, safely. */
static void test_truncated_words_are_safe(void **state)
{
	(void)state;
	uint32_t bin[2] = {0, 0};
	char out[64];
	int need = save(bin, 2, "%d %lx %s", 7, 0x1234UL, "a string that needs several words");
	assert_true(need > 2);
	bstr_printf(out, sizeof(out), "%d %lx %s", bin, 2);
	assert_string_equal(out, "7 1234 "); /* the int and the long fit; the string did not */
	bstr_printf(out, sizeof(out), "%d %s", bin, 0);
	assert_string_equal(out, "0 ");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_truncated_words_are_safe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
