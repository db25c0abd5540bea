/*
 * Tests for lib/glob.c: a table of pattern, string and expected answer covering every pattern
 * element, then pathological patterns that take exponential time in a naive backtracking matcher
 * (the test would time out if glob_match were one).
 */
/* first: glibc's cdefs.h tolerates its __always_inline, not the reverse */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "lib/glob.h"

static const struct {
	const char *pattern, *str;
	bool match;
} cases[] = {
	/* literals */
	{"", "", true},
	{"", "a", false},
	{"a", "", false},
	{"schedule", "schedule", true},
	{"schedule", "schedul", false},
	{"schedul", "schedule", false},
	{"Schedule", "schedule", false}, /* case matters */
	/* ? */
	{"?", "a", true},
	{"?", "", false},
	{"?", "ab", false},
	{"a?c", "abc", true},
	{"a?c", "ac", false},
	{"???", "abc", true},
	/* * */
	{"*", "", true},
	{"*", "anything", true},
	{"**", "", true},
	{"*lock*", "spin_lock_irqsave", true},
	{"*lock*", "lock", true},
	{"*lock*", "mutex", false},
	{"*lock", "spin_lock", true},
	{"*lock", "spin_lock_irq", false},
	{"spin_*", "spin_lock", true},
	{"spin_*", "raw_spin_lock", false},
	{"a*b", "ab", true},
	{"a*b", "axxxb", true},
	{"a*b", "axxxbx", false},
	{"a*b", "abab", true},
	{"a*b*c", "abbbcbc", true},
	{"a*b*c", "abbbcbx", false},
	{"*a?", "xxab", true},
	{"*?", "", false},
	{"a*", "a", true},
	{"*.c", "lib/glob.c", true},
	{"*.c", "lib/glob.h", false},
	/* sets */
	{"[abc]", "b", true},
	{"[abc]", "d", false},
	{"[abc]", "", false},
	{"[a-z]", "m", true},
	{"[a-z]", "M", false},
	{"[a-z]", "-", false},
	{"[a-cx-z]", "y", true},
	{"[a-cx-z]", "d", false},
	{"[!x]", "y", true},
	{"[!x]", "x", false},
	{"[^x]", "y", true},
	{"[^x]", "x", false},
	{"[!a-z]", "5", true},
	{"[!a-z]", "q", false},
	{"[!x]", "", false},
	{"[]]", "]", true}, /* ']' first is a member */
	{"[]a]", "a", true},
	{"[!]]", "]", false},
	{"[!]]", "a", true},
	{"[a-]", "-", true}, /* '-' last is a member */
	{"[-a]", "-", true},
	{"[z-a]", "m", false}, /* reversed range: empty */
	{"[abc", "[abc", true}, /* no ']': '[' is literal */
	{"[abc", "a", false},
	{"[", "[", true},
	{"x[a-", "x[a-", true},
	{"do_[sm]map*", "do_mmap_pgoff", true},
	{"*_[0-9][0-9]", "irq_42", true},
	{"*_[0-9][0-9]", "irq_4x", false},
	{"[\xe0-\xff]", "\xf0", true}, /* bytes compare unsigned */
	/* backslash escapes */
	{"\\*", "*", true},
	{"\\*", "a", false},
	{"a\\?b", "a?b", true},
	{"a\\?b", "axb", false},
	{"\\[a]", "[a]", true},
	{"\\\\", "\\", true},
	{"\\a", "a", true},
	{"a\\", "a\\", true}, /* a trailing backslash stands for itself */
	{"*\\*", "x*", true},
	{"*\\*", "x", false},
	/* combinations */
	{"*[lL]ock?", "spin_Lock1", true},
	{"?*?", "a", false},
	{"?*?", "ab", true},
	{"*[!_]", "name_", false},
	{"*[!_]", "name", true},
};

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		if (glob_match(cases[i].pattern, cases[i].str) != cases[i].match) {
			print_error("glob_match(\"%s\", \"%s\") should be %d\n", cases[i].pattern,
				    cases[i].str, cases[i].match);
			fail();
		}
	}
}

/* 100,000 'a's: a naive matcher needs ~n^k steps for k stars; ours needs ~n * pattern length. */
static void test_pathological(void **state)
{
	size_t n = 100000;
	char *s = malloc(n + 2);

	(void)state;
	assert_non_null(s);
	memset(s, 'a', n);
	s[n] = '\0';
	assert_false(glob_match("*a*a*a*a*a*b", s));
	assert_false(glob_match("*a*a*a*a*a*a*a*a*a*a*a*a*b", s));
	assert_false(glob_match("a*a*a*a*a*a*a*a*?b", s));
	assert_true(glob_match("*a*a*a*a*a*", s));
	assert_true(glob_match("*a*a*a*a*a*a", s));
	assert_false(glob_match("*[!a]*", s));
	s[n] = 'b';
	s[n + 1] = '\0';
	assert_true(glob_match("*a*a*a*a*a*b", s));
	assert_true(glob_match("*?*?*?*?*b", s));
	assert_false(glob_match("*a*a*a*a*a*bb", s));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_pathological),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
