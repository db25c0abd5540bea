/*
 * bstr_printf(vbin_printf(args)) must print exactly what vsnprintf prints, and a format's
 * layout must save exactly vbin_printf's words (lib/bprintf.c).
 */
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
	/* Odd directives: read as vsnprintf reads them (format_decode), arguments and all. */
	check_one("%-%|%*%|%d", 3, 7);
	check_one("%hld|%d", 5, 6);
	check_one("%*5d|%d", 4, 8);
	check_one("%5y|%*y|%d", 2, 9);
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

/*
 * bprint_layout_parse() + bprint_layout_save() must save exactly vbin_printf's words: the same
 * count, the same bits, and nothing written past them.
 */
#define UNTOUCHED 0xa5a5a5a5u

static void check_layout(const char *fmt, ...)
{
	uint32_t want[WORDS], got[WORDS + 1];
	struct bprint_layout layout;
	va_list ap, ap2;

	for (size_t i = 0; i < ARRAY_SIZE(got); i++)
		got[i] = UNTOUCHED;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vbin_printf(want, WORDS, fmt, ap);
	if (!bprint_layout_parse(fmt, &layout)) {
		print_error("fmt \"%s\": no layout\n", fmt);
		fail();
	}
	assert_true(n >= 0 && n < WORDS);
	assert_int_equal(layout.words, n);
	bprint_layout_save(got, &layout, ap2);
	va_end(ap2);
	va_end(ap);
	if (memcmp(want, got, sizeof(uint32_t) * (size_t)n)) {
		print_error("fmt \"%s\": the words differ from vbin_printf's\n", fmt);
		fail();
	}
	assert_int_equal(got[n], UNTOUCHED);
}

static void test_layout_conversions(void **state)
{
	(void)state;
	check_layout("ftrace test %d\n", 42);
	check_layout("no arguments at all");
	check_layout("");
	check_layout("%d %i %u %x %X %o %c", -1, 2, 3u, 0xabcu, 0xABCu, 8u, 'c');
	check_layout("%ld %li %lu %lx %lX %lo", -5L, -6L, 5UL, 0xdeadbeefcafeUL, 0xABCDEF012UL,
		     9UL);
	check_layout("%lld %llu %llx", -9LL, 0x123456789abcdef0ULL, 0xfedcba9876543210ULL);
	check_layout("%zu %zd %zx %jd %ju %td", (size_t)77, (ptrdiff_t)-7, (size_t)1 << 40,
		     (intmax_t)-1, (uintmax_t)1 << 63, (ptrdiff_t)-70000);
	check_layout("%hhd %hd %hu %hhx", 300, 70000, 65535, 0x1ff);
	check_layout("%-8d|%+d|% d|%#x|%#o|%08.3d|%-+ #012lx", 5, 5, 5, 255u, 8u, 5, 0xbeefUL);
	check_layout("%5c|%-3c", 'a', 'b');
	check_layout("%*d|%-*d|%.*d|%*.*lx", 6, 42, 6, 42, 4, 7, 10, 4, 0xbeefUL);
	check_layout("%*.*p", 20, 3, (void *)0x1234);
	/* A long after an odd number of words: saved at a 4-byte offset, low word first. */
	check_layout("%d %lx %d %p", 1, 0x1122334455667788UL, 3, (void *)0xffff888000123456UL);
	check_layout("read foo %d out of bar %p\n", 10, (void *)&check_layout);
	check_layout("%p %p", (void *)NULL, (void *)~0UL);
	check_layout("%pS %ps %-30pS|%5ps", (void *)&check_layout, (void *)&check_layout,
		     (void *)0x10UL, (void *)0x20UL);
	check_layout("100%% sure, %d%%", 100);
	check_layout("%%d %%s %%%d", 7); /* "%%" is text: only the last is a conversion */
	/* Unknown conversions take no argument, as in vbin_printf. */
	check_layout("%k %5q %hy %d", 9);
	/* A directive cut off at the end: "%.*" still takes its '*'. */
	check_layout("trailing %");
	check_layout("%d %-", 1);
	check_layout("%d %.*", 1, 2);
	check_layout("%l");
	/* More arguments than the format uses: the rest are not saved, by either. */
	check_layout("%d", 1, 2, 3);
	check_layout("%lx %d", 0xabUL, 2, 3L, (void *)0);
}

/* 31 arguments, the most a layout describes: the last ones in vbin_printf's stack slots. */
static void test_layout_most_arguments(void **state)
{
	(void)state;
	check_layout("%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d", 1, 2, 3, 4,
		     5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
		     26, 27, 28, 29, 30, 31);
	check_layout("%lx%d%lx%d%lx%d%lx%d%lx%d%lx%d%lx%d%lx%d%lx%d%lx%d%lx%d%lx%d%lx%d%lx%d%lx",
		     1UL << 32, 2, 3UL << 33, 4, 5UL << 34, 6, 7UL << 35, 8, 9UL << 36, 10,
		     11UL << 37, 12, 13UL << 38, 14, 15UL << 39, 16, 17UL << 40, 18, 19UL << 41, 20,
		     21UL << 42, 22, 23UL << 43, 24, 25UL << 44, 26, 27UL << 45, 28, 29UL << 46, 30,
		     ~0UL);
	check_layout("%*.*d%*.*d%*.*d%*.*d%*.*d%*.*d%*.*d%*.*d%*.*d%*.*d%d", 1, 2, 3, 4, 5, 6, 7, 8,
		     9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
		     29, 30, 31);
}

/* What a layout cannot describe: vbin_printf's general path keeps it. */
static void test_no_layout(void **state)
{
	struct bprint_layout layout = {0, 0};

	(void)state;
	assert_false(bprint_layout_parse("%s", &layout));
	assert_false(bprint_layout_parse("%d then %s", &layout));
	assert_false(bprint_layout_parse("%-10.*s|", &layout));
	assert_false(bprint_layout_parse("%%d %5s", &layout));
	/* 32 arguments: one too many, whether conversions or '*'s. */
	assert_false(bprint_layout_parse("%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d"
					 "%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d",
					 &layout));
	assert_false(bprint_layout_parse("%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d%d"
					 "%d%d%d%d%d%d%d%d%d%d%d%d%d%d%*d",
					 &layout));
	assert_int_equal(layout.args, 0); /* untouched */
	/* Still fine: "%s" after "%%" is text, and 31. */
	assert_true(bprint_layout_parse("%%s %d", &layout));
	assert_int_equal(layout.args, 0x2);
	assert_int_equal(layout.words, 1);
	assert_true(bprint_layout_parse("%p %d %lu", &layout));
	assert_int_equal(layout.args, 0x8 | 0x4 | 0x1); /* end marker, %lu, %p */
	assert_int_equal(layout.words, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_truncated_words_are_safe),
		cmocka_unit_test(test_layout_conversions),
		cmocka_unit_test(test_layout_most_arguments),
		cmocka_unit_test(test_no_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
