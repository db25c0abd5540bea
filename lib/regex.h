/* Regular expressions for the shell's grep: POSIX basic (BRE) and extended (ERE) syntax. */
#ifndef LIB_REGEX_H
#define LIB_REGEX_H

#include <stdbool.h>
#include "lib/bitops.h"

#define REGEX_EXTENDED 1 /* ERE (grep -E): + ? | ( ) are operators without a backslash */
#define REGEX_ICASE 2 /* grep -i: letters match either case */

/* The largest compiled program; a longer pattern is -EINVAL. Indices fit a byte. */
#define REGEX_MAX_STATES 256

#define REGEX_SET_LONGS BITS_TO_LONGS(256) /* a bitmap of the 256 byte values */

struct re_state {
	unsigned char op; /* RE_* in regex.c */
	unsigned char arg; /* the character, or the index of the character set */
	unsigned char out; /* the next state */
	unsigned char out1; /* the other choice of a split */
};

struct regex {
	struct re_state *states;
	unsigned long (*sets)[REGEX_SET_LONGS]; /* bracket expressions: a bit per character */
	int nstates;
	int nsets;
	int start;
	int flags;
};

/*
 * Supported: literals, '.', bracket expressions ("[a-z]", "[^0-9]", "[[:digit:]]", a leading ']'
 * is a member), '^', '$', '*', and in ERE '+', '?', '|', "( )" (in BRE "\+ \? \| \( \)", as
 * GNU grep). "\c" is a literal c for any other c. Intervals "{m,n}" and back-references are not
 * supported ('{' is literal). Returns 0, -EINVAL for a malformed or too large pattern, or -ENOMEM;
 * on failure nothing is left allocated.
 */
int regex_compile(struct regex *re, const char *pattern, int flags);

/* True if the pattern matches anywhere in line. Uses under 1 KiB of stack and no allocation. */
bool regex_search(const struct regex *re, const char *line);

/* Frees what regex_compile allocated; safe on a regex that failed to compile or was freed. */
void regex_free(struct regex *re);

#endif
