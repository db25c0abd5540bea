/*
 * kstrto*: parse a whole string as one integer, or fail.
 *
 * Everything funnels into parse_digits, which works in unsigned long long and detects overflow
 * before it happens (by checking against (max - digit) / base). The unsigned entry points add the
 * '+' and the trailing-newline rules; the signed ones peel off a '-' and check the magnitude fits.
 * Narrower types (int, unsigned int) parse at 64 bits and range-check the result.
 *
 * Not traced (lib/ is built without -pg): the tracer parses its control files with these.
 */
#include <stdbool.h>
#include "lib/kstrtox.h"
#include "lib/compiler.h"
#include "lib/ctype.h"
#include "lib/errno.h"

/* The value of digit c (0-9, a-z, A-Z), or 99 for anything else: never a valid digit. */
static unsigned int digit_value(char c)
{
	if (isdigit(c))
		return c - '0';
	if (isalpha(c))
		return tolower(c) - 'a' + 10;
	return 99;
}

/* Resolves base 0 from the prefix and skips a "0x" that belongs to a hex number. */
static const char *fixup_radix(const char *s, unsigned int *base)
{
	if (*base == 0) {
		if (s[0] == '0' && tolower(s[1]) == 'x' && isxdigit(s[2]))
			*base = 16;
		else if (s[0] == '0')
			*base = 8;
		else
			*base = 10;
	}
	if (*base == 16 && s[0] == '0' && tolower(s[1]) == 'x')
		s += 2;
	return s;
}

/*
 * Reads digits of base from *s into *res, advancing *s past them. Returns how many digits it read;
 * sets *overflow if the value does not fit 64 bits (it keeps reading, so *s still ends up past
 * every digit).
 */
static int parse_digits(const char **s, unsigned int base, unsigned long long *res,
			bool *overflow)
{
	unsigned long long v = 0;
	int n = 0;

	*overflow = false;
	for (;; (*s)++, n++) {
		unsigned int d = digit_value(**s);

		if (d >= base)
			break;
		if (v > (~0ULL - d) / base)
			*overflow = true;
		v = v * base + d;
	}
	*res = v;
	return n;
}

/*
 * The core: no sign handling. Bases other than 0 and 2..16 are rejected, as Linux parses no more.
 */
static int parse_unsigned(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v;
	bool overflow;

	if (base == 1 || base > 16)
		return -EINVAL;
	s = fixup_radix(s, &base);
	if (!parse_digits(&s, base, &v, &overflow))
		return -EINVAL;
	if (overflow)
		return -ERANGE;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	if (s[0] == '+')
		s++;
	return parse_unsigned(s, base, res);
}

int kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long v;
	int err;

	if (s[0] == '-') {
		err = parse_unsigned(s + 1, base, &v);
		if (err)
			return err;
		/* The magnitude may be at most 2^63 (LLONG_MIN); the negation is done unsigned. */
		if (v > (unsigned long long)__LONG_LONG_MAX__ + 1)
			return -ERANGE;
		*res = (long long)(0ULL - v);
		return 0;
	}
	err = kstrtoull(s, base, &v);
	if (err)
		return err;
	if (v > (unsigned long long)__LONG_LONG_MAX__)
		return -ERANGE;
	*res = (long long)v;
	return 0;
}

/* long is 64 bits on x86_64, so these are the long long versions under another type. */
int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	unsigned long long v;
	int err = kstrtoull(s, base, &v);

	if (err)
		return err;
	if (v != (unsigned long)v)
		return -ERANGE;
	*res = v;
	return 0;
}

int kstrtol(const char *s, unsigned int base, long *res)
{
	long long v;
	int err = kstrtoll(s, base, &v);

	if (err)
		return err;
	if (v != (long)v)
		return -ERANGE;
	*res = v;
	return 0;
}

int kstrtouint(const char *s, unsigned int base, unsigned int *res)
{
	unsigned long long v;
	int err = kstrtoull(s, base, &v);

	if (err)
		return err;
	if (v != (unsigned int)v)
		return -ERANGE;
	*res = v;
	return 0;
}

int kstrtoint(const char *s, unsigned int base, int *res)
{
	long long v;
	int err = kstrtoll(s, base, &v);

	if (err)
		return err;
	if (v != (int)v)
		return -ERANGE;
	*res = v;
	return 0;
}

unsigned long simple_strtoul(const char *cp, char **endp, unsigned int base)
{
	unsigned long long v;
	bool overflow;

	if (base == 1 || base > 36)
		base = 10;
	cp = fixup_radix(cp, &base);
	parse_digits(&cp, base, &v, &overflow);
	if (endp)
		*endp = (char *)cp;
	return v;
}
