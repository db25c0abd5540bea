/* Character classes for ASCII (the kernel has no locales): bytes >= 0x80 belong to no class. */
#ifndef LIB_CTYPE_H
#define LIB_CTYPE_H

#include <stdbool.h>
#include "lib/compiler.h"

/*
 * libc's <ctype.h> makes these macros. On the host we drop those macros and rename ours, so a
 * test calls Lucid's version; include system headers before this one.
 */
#ifdef LUCID_HOST
#undef isdigit
#undef isxdigit
#undef isalpha
#undef isalnum
#undef isspace
#undef isupper
#undef islower
#undef isprint
#undef ispunct
#undef tolower
#undef toupper
#define isdigit lucid_isdigit
#define isxdigit lucid_isxdigit
#define isalpha lucid_isalpha
#define isalnum lucid_isalnum
#define isspace lucid_isspace
#define isupper lucid_isupper
#define islower lucid_islower
#define isprint lucid_isprint
#define ispunct lucid_ispunct
#define tolower lucid_tolower
#define toupper lucid_toupper
#endif

/* notrace: the tracer formats its output with these. */
static inline notrace bool isdigit(int c)
{
	return c >= '0' && c <= '9';
}

static inline notrace bool isupper(int c)
{
	return c >= 'A' && c <= 'Z';
}

static inline notrace bool islower(int c)
{
	return c >= 'a' && c <= 'z';
}

static inline notrace bool isalpha(int c)
{
	return isupper(c) || islower(c);
}

static inline notrace bool isalnum(int c)
{
	return isalpha(c) || isdigit(c);
}

static inline notrace bool isxdigit(int c)
{
	return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Space, \t, \n, \v, \f, \r: the C locale's set. */
static inline notrace bool isspace(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* Printable: space through '~'. */
static inline notrace bool isprint(int c)
{
	return c >= ' ' && c <= '~';
}

static inline notrace bool ispunct(int c)
{
	return isprint(c) && c != ' ' && !isalnum(c);
}

static inline notrace int tolower(int c)
{
	return isupper(c) ? c - 'A' + 'a' : c;
}

static inline notrace int toupper(int c)
{
	return islower(c) ? c - 'a' + 'A' : c;
}

#endif
