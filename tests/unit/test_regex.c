/*
 * Tests for lib/regex.c: a table of pattern, line, flags and expected answer in both syntaxes,
 * malformed and oversized patterns (-EINVAL, nothing leaked), allocation failures (-ENOMEM,
 * nothing leaked), and patterns that take exponential time in a backtracking matcher.
 */
#include "lib/compiler.h" /* first: glibc's cdefs.h tolerates its __always_inline, not the reverse */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>
#include "lib/regex.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "tests/unit/host_kmalloc.h"

#define E REGEX_EXTENDED
#define I REGEX_ICASE

static const struct {
	const char *pattern, *line;
	int flags;
	bool match;
} cases[] = {
	/* literals and search anywhere in the line */
	{"", "", 0, true},
	{"", "anything", 0, true},
	{"lock", "spin_lock_irq", 0, true},
	{"lock", "mutex", 0, false},
	{"abc", "ab", 0, false},
	{"abc", "xxabcxx", E, true},
	/* . */
	{"a.c", "abc", 0, true},
	{"a.c", "ac", 0, false},
	{"...", "ab", 0, false},
	/* anchors */
	{"^abc", "abcdef", 0, true},
	{"^abc", "xabc", 0, false},
	{"def$", "abcdef", 0, true},
	{"def$", "defx", 0, false},
	{"^$", "", 0, true},
	{"^$", "x", 0, false},
	{"^a.*z$", "abcz", E, true},
	{"a^b", "a^b", 0, true}, /* BRE: '^' not first is a literal */
	{"a^b", "a^b", E, false}, /* ERE: always an anchor */
	{"a$b", "a$b", 0, true}, /* BRE: '$' not last is a literal */
	{"a$b", "a$b", E, false},
	{"^*a", "*a", 0, true}, /* BRE: '*' right after '^' is a literal */
	/* * + ? */
	{"ab*c", "ac", 0, true},
	{"ab*c", "abbbc", 0, true},
	{"ab*c", "abxc", 0, false},
	{"ab+c", "ac", E, false},
	{"ab+c", "abbc", E, true},
	{"ab?c", "ac", E, true},
	{"ab?c", "abc", E, true},
	{"ab?c", "abbc", E, false},
	{"ab+c", "ab+c", 0, true}, /* BRE: plain + is literal */
	{"ab+c", "abbc", 0, false},
	{"ab\\+c", "abbc", 0, true}, /* BRE: \+ is the operator */
	{"ab\\?c", "ac", 0, true},
	{"ab\\+c", "ab+c", E, true}, /* ERE: \+ is literal */
	{"a**", "aaa", E, true},
	{"*a", "*a", 0, true}, /* nothing to repeat: literal */
	{"*a", "*a", E, true},
	{"a\\*", "a*", 0, true},
	{"a\\*", "aa", 0, false},
	/* alternation and groups */
	{"cat|dog", "hotdog", E, true},
	{"cat|dog", "cow", E, false},
	{"cat|dog", "cat|dog", 0, true}, /* BRE: plain | is literal */
	{"cat\\|dog", "dog", 0, true},
	{"^(ab)+$", "ababab", E, true},
	{"^(ab)+$", "ababa", E, false},
	{"^\\(ab\\)*$", "abab", 0, true},
	{"(ab)", "(ab)", 0, true}, /* BRE: plain parentheses are literal */
	{"(ab)", "ab", 0, false},
	{"^(a|b)*c$", "abbac", E, true},
	{"^(a|b)*c$", "abxc", E, false},
	{"x(|y)z", "xz", E, true}, /* empty branch */
	{"x(|y)z", "xyz", E, true},
	{"x()z", "xz", E, true},
	{"a|", "zzz", E, true}, /* matches the empty string */
	{"^(()*)*$", "", E, true}, /* empty loops terminate */
	{"((a)(b(c)))", "abc", E, true},
	/* bracket expressions */
	{"[abc]", "xbx", 0, true},
	{"[abc]", "xyz", 0, false},
	{"^[a-z]+$", "hello", E, true},
	{"^[a-z]+$", "Hello", E, false},
	{"[^0-9]", "123", 0, false},
	{"[^0-9]", "12a", 0, true},
	{"[]x]", "]", 0, true},
	{"[^]x]", "]", 0, false},
	{"[a-]", "-", 0, true},
	{"[.*]", "*", 0, true}, /* specials are literal inside brackets */
	{"[.*]", "a", 0, false},
	{"[\\]", "\\", 0, true}, /* no escapes inside brackets */
	{"^[[:digit:]]+$", "2024", E, true},
	{"^[[:digit:]]+$", "20x4", E, false},
	{"[[:upper:]][[:lower:]]", "xAbx", 0, true},
	{"[[:space:]]", "a\tb", 0, true},
	{"[^[:alnum:]_]", "abc_123", 0, false},
	/* escapes */
	{"a\\.c", "a.c", 0, true},
	{"a\\.c", "abc", 0, false},
	{"\\[x\\]", "[x]", E, true},
	{"1\\|2", "1|2", E, true},
	{"\\(x\\)", "(x)", E, true},
	{"\\^a", "x^a", E, true},
	/* case-insensitive */
	{"lock", "SPIN_LOCK", I, true},
	{"LOCK", "spin_lock", I, true},
	{"lock", "SPIN_LOCK", 0, false},
	{"[a-c]x", "BX", I, true},
	{"[A-C]x", "bX", I, true},
	{"[^a]", "A", I, false},
	{"^(Foo|bar)$", "BAR", E | I, true},
	/* grep-like lines */
	{"sched.*switch", "  <idle>-0 [001] sched_switch: prev=swapper", 0, true},
	{"^ *[0-9]+\\) ", "  3)   0.512 us    |  schedule();", E, true},
	{"^ *[0-9]+\\) ", "  x)   0.512 us    |  schedule();", E, false},
	{"[0-9]) ", " 3) ", 0, true},
};

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct regex re;
		int err = regex_compile(&re, cases[i].pattern, cases[i].flags);
		bool match = !err && regex_search(&re, cases[i].line);

		regex_free(&re);
		if (err || match != cases[i].match) {
			print_error("/%s/ flags %d on \"%s\": compile %d, should match: %d\n",
				    cases[i].pattern, cases[i].flags, cases[i].line, err,
				    cases[i].match);
			fail();
		}
	}
	assert_int_equal(host_kmalloc_live, 0);
}

static const struct {
	const char *pattern;
	int flags;
} malformed[] = {
	{"(ab", E},
	{"ab)", E},
	{"(a|b", E},
	{"a)(", E},
	{"\\(ab", 0},
	{"ab\\)", 0},
	{"[abc", 0},
	{"[", E},
	{"[]", 0},
	{"[^]", 0},
	{"a\\", 0},
	{"a\\", E},
	{"[z-a]", 0},
	{"[[:nope:]]", 0},
	{"[[:alpha:", 0},
	{"((((((((((((((((((((((((((((((((((a))))))))))))))))))))))))))))))))))", E},
};

static void test_malformed(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(malformed); i++) {
		struct regex re;
		int err = regex_compile(&re, malformed[i].pattern, malformed[i].flags);

		if (err != -EINVAL) {
			print_error("/%s/ compiled to %d, not -EINVAL\n", malformed[i].pattern,
				    err);
			fail();
		}
		regex_free(&re); /* harmless after a failed compile */
		assert_int_equal(host_kmalloc_live, 0);
	}
}

static void test_too_large(void **state)
{
	char pattern[800], line[160];
	struct regex re;

	(void)state;
	/* 200 literals fit; 300 do not (each is one state). */
	memset(pattern, 'a', 200);
	pattern[200] = '\0';
	assert_int_equal(regex_compile(&re, pattern, 0), 0);
	regex_free(&re);
	memset(pattern, 'a', 300);
	pattern[300] = '\0';
	assert_int_equal(regex_compile(&re, pattern, 0), -EINVAL);
	/* Sets are bounded by the same state limit. */
	for (int i = 0; i < 150; i++)
		memcpy(pattern + 3 * i, "[a]", 3);
	pattern[450] = '\0';
	assert_int_equal(regex_compile(&re, pattern, 0), 0);
	memset(line, 'a', 150);
	line[150] = '\0';
	assert_true(regex_search(&re, line));
	line[149] = '\0';
	assert_false(regex_search(&re, line));
	regex_free(&re);
	for (int i = 0; i < 260; i++)
		memcpy(pattern + 3 * i, "[a]", 3);
	pattern[780] = '\0';
	assert_int_equal(regex_compile(&re, pattern, 0), -EINVAL);
	assert_int_equal(host_kmalloc_live, 0);
	/* Nested stars: each adds two states. */
	strcpy(pattern, "a");
	for (int i = 0; i < 200; i++)
		strcat(pattern, "*");
	assert_int_equal(regex_compile(&re, pattern, E), -EINVAL);
	assert_int_equal(host_kmalloc_live, 0);
}

/* Every allocation in turn fails: compile must return -ENOMEM and leave nothing behind. */
static void test_allocation_failures(void **state)
{
	(void)state;
	for (int n = 1; n <= 4; n++) {
		struct regex re;

		host_kmalloc_fail_at = n;
		int err = regex_compile(&re, "^[a-z]+[0-9]|[[:space:]]x", E);

		host_kmalloc_fail_at = 0;
		if (err) {
			assert_int_equal(err, -ENOMEM);
			assert_false(regex_search(&re, "abc1"));
		} else {
			assert_true(regex_search(&re, "abc1"));
		}
		regex_free(&re);
		assert_int_equal(host_kmalloc_live, 0);
	}
}

/* Patterns that make a backtracking matcher take exponential time: here they are linear. */
static void test_pathological(void **state)
{
	size_t n = 20000;
	char *line = malloc(n + 1);
	struct regex re;

	(void)state;
	assert_non_null(line);
	memset(line, 'a', n);
	line[n] = '\0';
	static const char *const slow[] = {"(a*)*b", "(a|aa)*c", "(a+)+$x", "^(a|a?)+$b",
					   "(.*)*(.*)*(.*)*z"};
	for (size_t i = 0; i < ARRAY_SIZE(slow); i++) {
		assert_int_equal(regex_compile(&re, slow[i], E), 0);
		assert_false(regex_search(&re, line));
		regex_free(&re);
	}
	assert_int_equal(regex_compile(&re, "^(a|aa)*$", E), 0);
	assert_true(regex_search(&re, line));
	regex_free(&re);
	free(line);
	assert_int_equal(host_kmalloc_live, 0);
}

/* regex_free leaves a zeroed regex: freeing twice or searching after is safe. */
static void test_free_twice(void **state)
{
	struct regex re;

	(void)state;
	assert_int_equal(regex_compile(&re, "x", 0), 0);
	regex_free(&re);
	regex_free(&re);
	assert_false(regex_search(&re, "x"));
	assert_int_equal(host_kmalloc_live, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),	     cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_too_large),    cmocka_unit_test(test_allocation_failures),
		cmocka_unit_test(test_pathological), cmocka_unit_test(test_free_twice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
