/*
 * glob_match: wildcard matching in linear space and at worst O(pattern * string) time.
 *
 * The naive recursive matcher tries every way to split the string at each '*', which is
 * exponential for patterns like "*a*a*a*a*b". But with '*' only one backtrack point is ever
 * needed: when a later '*' matches, everything before it is settled (the earlier '*' could only
 * have been extended, which the later '*' can absorb just as well). So we remember the most recent
 * '*' and the string position it was tried at; on a mismatch we let that '*' swallow one more
 * character and resume just after it. No recursion, no stack.
 *
 * Not traced (lib/ is built without -pg): the tracer calls it while choosing what to trace.
 */
#include "lib/glob.h"
#include "lib/compiler.h"

/*
 * Matches c against the set starting just after the '['. Returns a pointer just past the closing
 * ']' and sets *hit, or returns NULL when the set has no closing ']' (then '[' is a literal).
 */
static const char *match_set(const char *p, unsigned char c, bool *hit)
{
	bool negate = *p == '!' || *p == '^';
	bool found = false;

	if (negate)
		p++;
	/* The first member may be ']' itself, so test for the end only after one member. */
	do {
		unsigned char lo = *p, hi = lo;

		if (!lo)
			return NULL;
		/* A range; but a '-' just before the closing ']' is a member. */
		if (p[1] == '-' && p[2] && p[2] != ']') {
			hi = p[2];
			p += 2;
		}
		found |= lo <= c && c <= hi;
		p++;
	} while (*p != ']');
	*hit = found != negate;
	return p + 1;
}

bool glob_match(const char *pattern, const char *str)
{
	const char *p = pattern, *s = str;
	const char *star_p = NULL, *star_s = NULL; /* the backtrack point */

	for (;;) {
		unsigned char c = *s;
		const char *after_set;
		bool hit;

		if (*p == '*') {
			/* Try the '*' as empty first; a mismatch later makes it one longer. */
			star_p = ++p;
			star_s = s;
			continue;
		}
		if (!c) {
			if (!*p)
				return true;
			/* String used up but pattern left over: no '*' can help by growing. */
			return false;
		}
		if (*p == '?') {
			hit = true;
			p++;
		} else if (*p == '[' && (after_set = match_set(p + 1, c, &hit))) {
			p = after_set;
		} else {
			/* A literal; "\c" is c, and a trailing '\' stands for itself. */
			if (*p == '\\' && p[1])
				p++;
			hit = *p && (unsigned char)*p == c;
			if (*p)
				p++;
		}
		if (hit) {
			s++;
			continue;
		}
		if (!star_p)
			return false;
		p = star_p;
		s = ++star_s;
	}
}
