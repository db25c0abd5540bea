/*
 * Tests for lib/string.c and lib/ctype.h. Memory functions are checked against obvious byte loops
 * over every small size and alignment, where the x86 string instructions and the overlap logic of
 * memmove could go wrong; string functions against hand-written expectations.
 */
/* first: glibc's cdefs.h tolerates its __always_inline, not the reverse */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "lib/string.h"
#include "lib/ctype.h"

#define N 64

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed + i * 7);
}

static void test_memcpy_every_size_and_offset(void **state)
{
	unsigned char src[N], dst[N + 16], want[N + 16];

	(void)state;
	fill(src, N, 1);
	for (size_t off = 0; off < 8; off++) {
		for (size_t n = 0; n <= N; n++) {
			fill(dst, sizeof(dst), 99);
			fill(want, sizeof(want), 99);
			for (size_t i = 0; i < n; i++)
				want[off + i] = src[i];
			assert_ptr_equal(memcpy(dst + off, src, n), dst + off);
			assert_memory_equal(dst, want, sizeof(dst));
		}
	}
}

/* Every overlap: source and destination anywhere within one buffer, both directions. */
static void test_memmove_overlaps(void **state)
{
	unsigned char buf[N], want[N], tmp[N];

	(void)state;
	for (size_t from = 0; from < 24; from++) {
		for (size_t to = 0; to < 24; to++) {
			for (size_t n = 0; n <= N - 24; n += 5) {
				fill(buf, N, 3);
				fill(want, N, 3);
				for (size_t i = 0; i < n; i++)
					tmp[i] = want[from + i];
				for (size_t i = 0; i < n; i++)
					want[to + i] = tmp[i];
				assert_ptr_equal(memmove(buf + to, buf + from, n), buf + to);
				assert_memory_equal(buf, want, N);
			}
		}
	}
}

static void test_memset(void **state)
{
	unsigned char buf[N + 8];

	(void)state;
	for (size_t n = 0; n <= N; n++) {
		fill(buf, sizeof(buf), 5);
		assert_ptr_equal(memset(buf + 3, 0x1ab, n), buf + 3); /* only the low byte counts */
		for (size_t i = 0; i < sizeof(buf); i++) {
			unsigned char orig = (unsigned char)(5 + i * 7);

			assert_int_equal(buf[i], i >= 3 && i < 3 + n ? 0xab : orig);
		}
	}
}

static void test_memcmp_memchr(void **state)
{
	(void)state;
	assert_int_equal(memcmp("abc", "abc", 3), 0);
	assert_int_equal(memcmp("abc", "abd", 2), 0);
	assert_true(memcmp("abc", "abd", 3) < 0);
	assert_true(memcmp("abd", "abc", 3) > 0);
	assert_true(memcmp("\x80", "\x01", 1) > 0); /* bytes compare unsigned */
	assert_int_equal(memcmp("x", "y", 0), 0);

	const char s[] = "hello\0world\xff";

	assert_ptr_equal(memchr(s, 'l', sizeof(s)), s + 2);
	assert_ptr_equal(memchr(s, 'w', sizeof(s)), s + 6); /* past a NUL */
	assert_ptr_equal(memchr(s, 'w', 6), NULL);
	assert_ptr_equal(memchr(s, -1, sizeof(s)), s + 11); /* c is converted to unsigned char */
	assert_ptr_equal(memchr(s, 'z', sizeof(s)), NULL);
}

static void test_lengths_and_compares(void **state)
{
	(void)state;
	assert_int_equal(strlen(""), 0);
	assert_int_equal(strlen("hello"), 5);
	assert_int_equal(strnlen("hello", 3), 3);
	assert_int_equal(strnlen("hello", 10), 5);
	assert_int_equal(strnlen("hello", 0), 0);

	assert_int_equal(strcmp("", ""), 0);
	assert_int_equal(strcmp("abc", "abc"), 0);
	assert_true(strcmp("abc", "abd") < 0);
	assert_true(strcmp("abc", "ab") > 0);
	assert_true(strcmp("ab", "abc") < 0);
	assert_true(strcmp("\xff", "a") > 0);
	assert_int_equal(strncmp("abcX", "abcY", 3), 0);
	assert_true(strncmp("abcX", "abcY", 4) < 0);
	assert_int_equal(strncmp("a", "b", 0), 0);
	assert_int_equal(strncmp("ab", "ab", 10), 0);

	assert_int_equal(strcasecmp("Hello", "hELLO"), 0);
	assert_true(strcasecmp("apple", "BANANA") < 0);
	assert_true(strcasecmp("Zed", "abc") > 0);
	assert_int_equal(strncasecmp("SchedX", "schedY", 5), 0);
	assert_true(strncasecmp("SchedX", "schedY", 6) < 0);
	assert_true(strcasecmp("ab", "AB!") < 0);
}

static void test_copies(void **state)
{
	char buf[16];

	(void)state;
	assert_ptr_equal(strcpy(buf, "hi"), buf);
	assert_string_equal(buf, "hi");
	assert_ptr_equal(strcat(buf, " there"), buf);
	assert_string_equal(buf, "hi there");
	strcat(buf, "");
	assert_string_equal(buf, "hi there");

	/* strncpy pads with NULs, and does not terminate a source as long as n. */
	memset(buf, 'x', sizeof(buf));
	strncpy(buf, "ab", 5);
	assert_memory_equal(buf, "ab\0\0\0xxx", 8);
	memset(buf, 'x', sizeof(buf));
	strncpy(buf, "abcdef", 3);
	assert_memory_equal(buf, "abcxxx", 6);

	/* strlcpy always terminates and returns the length it tried to make. */
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(strlcpy(buf, "abcdef", 4), 6);
	assert_memory_equal(buf, "abc\0xx", 6);
	assert_int_equal(strlcpy(buf, "ab", sizeof(buf)), 2);
	assert_string_equal(buf, "ab");
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(strlcpy(buf, "abc", 0), 3);
	assert_int_equal(buf[0], 'x'); /* size 0: nothing written */
	assert_int_equal(strlcpy(buf, "abc", 1), 3);
	assert_string_equal(buf, "");
}

static void test_searches(void **state)
{
	const char *s = "a/b/c";

	(void)state;
	assert_ptr_equal(strchr(s, '/'), s + 1);
	assert_ptr_equal(strchr(s, 'z'), NULL);
	assert_ptr_equal(strchr(s, '\0'), s + 5);
	assert_ptr_equal(strrchr(s, '/'), s + 3);
	assert_ptr_equal(strrchr(s, 'a'), s);
	assert_ptr_equal(strrchr(s, 'z'), NULL);
	assert_ptr_equal(strrchr(s, '\0'), s + 5);

	const char *h = "spin_lock_irqsave";

	assert_ptr_equal(strstr(h, "lock"), h + 5);
	assert_ptr_equal(strstr(h, "spin"), h);
	assert_ptr_equal(strstr(h, "save"), h + 13);
	assert_ptr_equal(strstr(h, "unlock"), NULL);
	assert_ptr_equal(strstr(h, ""), h);
	const char *empty = "", *aaab = "aaab";

	assert_ptr_equal(strstr(empty, ""), empty);
	assert_ptr_equal(strstr("ab", "abc"), NULL);
	assert_ptr_equal(strstr(aaab, "aab"), aaab + 1); /* a false start must not skip the match */

	assert_int_equal(strspn("  \tx ", " \t"), 3);
	assert_int_equal(strspn("abc", ""), 0);
	assert_int_equal(strspn("aaa", "a"), 3);
	assert_int_equal(strcspn("key=value", "=:"), 3);
	assert_int_equal(strcspn("nothing", "=:"), 7);
	assert_int_equal(strcspn("", "x"), 0);
}

static void test_strsep(void **state)
{
	char buf[] = "a,b,,c;d";
	char *s = buf;

	(void)state;
	assert_string_equal(strsep(&s, ",;"), "a");
	assert_string_equal(strsep(&s, ",;"), "b");
	assert_string_equal(strsep(&s, ",;"), ""); /* empty fields are kept, unlike strtok */
	assert_string_equal(strsep(&s, ",;"), "c");
	assert_string_equal(strsep(&s, ",;"), "d");
	assert_null(s);
	assert_null(strsep(&s, ",;"));

	char one[] = "";

	s = one;
	assert_string_equal(strsep(&s, ","), "");
	assert_null(s);
}

static void test_strim_skip_spaces(void **state)
{
	char a[] = "  \t hello world \n ";
	char b[] = "   ";
	char c[] = "";
	char d[] = "x";

	(void)state;
	assert_string_equal(skip_spaces("  \n\tab "), "ab ");
	assert_string_equal(skip_spaces("ab"), "ab");
	assert_string_equal(strim(a), "hello world");
	assert_string_equal(a + 4, "hello world"); /* trimmed in place */
	assert_string_equal(strim(b), "");
	assert_string_equal(strim(c), "");
	assert_string_equal(strim(d), "x");
}

/* Checks predicate against the set of characters that should satisfy it, for every byte and EOF. */
static void check_class(bool (*is)(int), const char *members)
{
	for (int c = -1; c < 256; c++) {
		bool want = c > 0 && strchr(members, c) != NULL;

		if (is(c) != want) {
			print_error("character %d: expected %d\n", c, want);
			fail();
		}
	}
}

static void test_next_word(void **state)
{
	char buf[] = "  ftest_*\t!ftest_mid \n", *p = buf;

	(void)state;
	assert_string_equal(next_word(&p), "ftest_*");
	assert_string_equal(next_word(&p), "!ftest_mid");
	assert_null(next_word(&p));
	assert_null(next_word(&p)); /* and stays so */
	char empty[] = " \t\n", *q = empty;
	assert_null(next_word(&q));
	char last[] = "word", *r = last;
	assert_string_equal(next_word(&r), "word");
	assert_null(next_word(&r));
}

static void test_ctype(void **state)
{
	const char *lower = "abcdefghijklmnopqrstuvwxyz", *upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	const char *digit = "0123456789";
	const char *punct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
	char alpha[64], alnum[80], print[128];

	(void)state;
	strcpy(alpha, lower);
	strcat(alpha, upper);
	strcpy(alnum, alpha);
	strcat(alnum, digit);
	strcpy(print, alnum);
	strcat(print, punct);
	strcat(print, " ");
	check_class(isdigit, digit);
	check_class(isxdigit, "0123456789abcdefABCDEF");
	check_class(islower, lower);
	check_class(isupper, upper);
	check_class(isalpha, alpha);
	check_class(isalnum, alnum);
	check_class(isspace, " \t\n\v\f\r");
	check_class(ispunct, punct);
	check_class(isprint, print);

	for (int c = -1; c < 256; c++) {
		int lo = c >= 'A' && c <= 'Z' ? c + 32 : c, up = c >= 'a' && c <= 'z' ? c - 32 : c;

		assert_int_equal(tolower(c), lo);
		assert_int_equal(toupper(c), up);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memcpy_every_size_and_offset),
		cmocka_unit_test(test_memmove_overlaps),
		cmocka_unit_test(test_memset),
		cmocka_unit_test(test_memcmp_memchr),
		cmocka_unit_test(test_lengths_and_compares),
		cmocka_unit_test(test_copies),
		cmocka_unit_test(test_searches),
		cmocka_unit_test(test_strsep),
		cmocka_unit_test(test_strim_skip_spaces),
		cmocka_unit_test(test_next_word),
		cmocka_unit_test(test_ctype),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
