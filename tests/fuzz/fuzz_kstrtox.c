/*
 * Fuzzing kstrto* and simple_strtoul (lib/kstrtox.c) against a reference built on glibc's
 * strtoull, with lib/kstrtox.h's rules applied around it: no leading blanks, at most one '+'
 * (or one '-' for the signed forms), digits, one optional '\n', nothing else; -ERANGE when the
 * value does not fit the type (and, as in Linux, before junk after the digits is noticed).
 *
 * Input: the first byte picks the base (mostly 0, 8, 10 and 16), the rest is the string.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/kstrtox.h"
#include "tests/fuzz/fuzz_check.h"

/* Errno values as lib/errno.h has them (Linux's); <errno.h> is the host's, for strtoull. */
#define LUCID_EINVAL 22
#define LUCID_ERANGE 34

static bool is_digit_of(char c, unsigned int base)
{
	unsigned int d = c >= '0' && c <= '9'	? c - '0'
			 : c >= 'a' && c <= 'z' ? c - 'a' + 10
			 : c >= 'A' && c <= 'Z' ? c - 'A' + 10
						: 99;
	return d < base;
}

/* The magnitude after any sign: 0 and *v, or -EINVAL / -ERANGE. */
static int ref_magnitude(const char *s, unsigned int base, unsigned long long *v)
{
	char *end;

	if (base == 1 || base > 16)
		return -LUCID_EINVAL;
	/* strtoull would skip blanks and take a sign of its own; kstrto* take neither. */
	if (!is_digit_of(s[0], base == 0 ? 10 : base))
		return -LUCID_EINVAL;
	errno = 0;
	*v = strtoull(s, &end, base);
	if (end == s)
		return -LUCID_EINVAL;
	if (errno == ERANGE)
		return -LUCID_ERANGE;
	if (*end == '\n')
		end++;
	return *end ? -LUCID_EINVAL : 0;
}

static int ref_unsigned(const char *s, unsigned int base, unsigned long long max,
			unsigned long long *v)
{
	int err = ref_magnitude(s + (s[0] == '+'), base, v);

	return err ? err : *v > max ? -LUCID_ERANGE : 0;
}

static int ref_signed(const char *s, unsigned int base, long long min, long long max, long long *v)
{
	unsigned long long m;
	int err;

	if (s[0] != '-') {
		err = ref_unsigned(s, base, (unsigned long long)max, &m);
		*v = (long long)m;
		return err;
	}
	err = ref_magnitude(s + 1, base, &m);
	if (err)
		return err;
	if (m > 0ULL - (unsigned long long)min)
		return -LUCID_ERANGE;
	*v = (long long)(0ULL - m);
	return 0;
}

#define COMPARE(call, ref_err, ref_val, type)                                                     \
	do {                                                                                      \
		type got = (type)0x5a5a5a5a;                                                      \
		int err = call;                                                                   \
		if (err != ref_err || (!err && got != (type)ref_val)) {                           \
			fprintf(stderr, "%s(\"%s\", %u): %d %lld, reference %d %lld\n", #call, s, \
				base, err, (long long)got, ref_err, (long long)ref_val);          \
			abort();                                                                  \
		}                                                                                 \
		CHECK(!err || got == (type)0x5a5a5a5a); /* *res is written only on success */     \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned int bases[] = {0, 0, 0, 8, 10, 10, 16, 16, 2};
	unsigned long long uv;
	long long sv;
	int uerr, serr;

	if (size < 1)
		return 0;
	unsigned int base = data[0] < 0xe0 ? bases[data[0] % 9] : data[0] - 0xe0 + 1;
	char *s = malloc(size);
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';

	uerr = ref_unsigned(s, base, ULLONG_MAX, &uv);
	COMPARE(kstrtoull(s, base, &got), uerr, uv, unsigned long long);
	COMPARE(kstrtoul(s, base, &got), uerr, uv, unsigned long);
	uerr = ref_unsigned(s, base, UINT_MAX, &uv);
	COMPARE(kstrtouint(s, base, &got), uerr, uv, unsigned int);

	serr = ref_signed(s, base, LLONG_MIN, LLONG_MAX, &sv);
	COMPARE(kstrtoll(s, base, &got), serr, sv, long long);
	COMPARE(kstrtol(s, base, &got), serr, sv, long);
	serr = ref_signed(s, base, INT_MIN, INT_MAX, &sv);
	COMPARE(kstrtoint(s, base, &got), serr, sv, int);

	/* The lenient parser: anything goes, but the end pointer stays inside the string. */
	char *end = NULL;
	simple_strtoul(s, &end, base);
	CHECK(end >= s && end <= s + strlen(s));
	free(s);
	return 0;
}
