/*
 * Fuzzing glob_match (lib/glob.c) against a reference matcher written from lib/glob.h's
 * description, independently of glob.c's single-backtrack-point algorithm.
 *
 * The reference first compiles the pattern into one element per string character it will
 * consume (any, a set of 256 bits, or a literal) plus stars, then decides the match by dynamic
 * programming over (element, string position): slow and obviously right. Where glob.h is silent,
 * the reference follows what the implementation documents in its comments: a backslash inside
 * "[...]" is an ordinary member and a reversed range such as "[z-a]" matches nothing.
 *
 * Input: the pattern, a NUL, the string (a missing NUL makes the string empty).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/glob.h"
#include "tests/fuzz/fuzz_check.h"

enum { E_STAR, E_SET }; /* a literal and '?' are sets too: of one character, and of all */

struct elem {
	int kind;
	uint8_t set[32];
};

static void set_add(struct elem *e, unsigned int lo, unsigned int hi)
{
	for (unsigned int c = lo; c <= hi; c++)
		e->set[c / 8] |= 1 << (c % 8);
}

/* "[...]" starting at p (just past the '['): the index past ']', or 0 if it is not a set. */
static size_t parse_set(const char *p, size_t i, struct elem *e)
{
	bool negate = p[i] == '!' || p[i] == '^';
	size_t first;

	if (negate)
		i++;
	first = i;
	for (;; i++) {
		if (!p[i])
			return 0;
		if (p[i] == ']' && i > first)
			break;
		if (p[i + 1] == '-' && p[i + 2] && p[i + 2] != ']') {
			if ((uint8_t)p[i] <= (uint8_t)p[i + 2])
				set_add(e, (uint8_t)p[i], (uint8_t)p[i + 2]);
			i += 2;
		} else {
			set_add(e, (uint8_t)p[i], (uint8_t)p[i]);
		}
	}
	if (negate)
		for (int k = 0; k < 32; k++)
			e->set[k] ^= 0xff;
	return i + 1;
}

static size_t compile(const char *p, struct elem *out)
{
	size_t n = 0;

	for (size_t i = 0; p[i];) {
		struct elem *e = &out[n++];
		size_t end;

		memset(e, 0, sizeof(*e));
		e->kind = E_SET;
		if (p[i] == '*') {
			e->kind = E_STAR;
			i++;
		} else if (p[i] == '?') {
			set_add(e, 1, 255);
			i++;
		} else if (p[i] == '[' && (end = parse_set(p, i + 1, e))) {
			i = end;
		} else {
			memset(e->set, 0, sizeof(e->set)); /* what a failed parse_set() left */
			if (p[i] == '\\' && p[i + 1])
				i++;
			set_add(e, (uint8_t)p[i], (uint8_t)p[i]);
			i++;
		}
	}
	return n;
}

static bool in_set(const struct elem *e, uint8_t c)
{
	return e->set[c / 8] & (1 << (c % 8));
}

/* ok[j][k]: elements j.. match string k.. . Filled from the ends backwards. */
static bool reference_match(const char *pattern, const char *str)
{
	size_t plen = strlen(pattern), slen = strlen(str);
	struct elem *el = malloc((plen + 1) * sizeof(*el));
	size_t n = compile(pattern, el);
	bool *ok = calloc((n + 1) * (slen + 1), sizeof(bool));
#define OK(j, k) ok[(j) * (slen + 1) + (k)]

	OK(n, slen) = true;
	for (size_t j = n; j-- > 0;) {
		for (size_t k = slen + 1; k-- > 0;) {
			if (el[j].kind == E_STAR)
				OK(j, k) = OK(j + 1, k) || (k < slen && OK(j, k + 1));
			else
				OK(j, k) = k < slen && in_set(&el[j], str[k]) && OK(j + 1, k + 1);
		}
	}
	bool result = OK(0, 0);
#undef OK
	free(ok);
	free(el);
	return result;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 2);

	memcpy(buf, data, size);
	buf[size] = buf[size + 1] = '\0';
	const char *pattern = buf, *str = buf + strlen(buf) + 1;
	if (str > buf + size)
		str = buf + size + 1; /* no NUL in the input: match against "" */

	bool got = glob_match(pattern, str), want = reference_match(pattern, str);
	if (got != want) {
		fprintf(stderr, "glob_match(\"%s\", \"%s\") = %d, reference %d\n", pattern, str,
			got, want);
		abort();
	}
	free(buf);
	return 0;
}
