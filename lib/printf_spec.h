/*
 * One piece of a printf format, decoded: Linux's struct printf_spec and format_decode()
 * (lib/vsprintf.c there). vsnprintf (lib/printf.c) formats with it; vbin_printf, bstr_printf
 * and bprint_layout_parse (lib/bprintf.c) learn from it which arguments a format takes. One
 * decoder, so that the three can never read a format differently.
 */
#ifndef LIB_PRINTF_SPEC_H
#define LIB_PRINTF_SPEC_H

#include <stdbool.h>

enum format_type {
	FORMAT_TYPE_NONE, /* literal text, up to the next '%' or the end */
	FORMAT_TYPE_INVALID, /* an unknown or cut-off directive: printed as it stands */
	FORMAT_TYPE_PERCENT_CHAR, /* "%%": a '%' */
	FORMAT_TYPE_CHAR, /* %c: an int */
	FORMAT_TYPE_STR, /* %s: a const char * */
	FORMAT_TYPE_PTR, /* %p, and Linux's %pS and %ps: a void * */
	FORMAT_TYPE_INT, /* %d %i %u %x %X %o: an integer of the qualifier's type */
};

/* The length modifier: which C type an integer argument has. */
enum format_qualifier {
	QUALIFIER_NONE, /* int */
	QUALIFIER_CHAR, /* hh */
	QUALIFIER_SHORT, /* h */
	QUALIFIER_LONG, /* l */
	QUALIFIER_LLONG, /* ll */
	QUALIFIER_SIZE, /* z: size_t */
	QUALIFIER_PTRDIFF, /* t: ptrdiff_t */
	QUALIFIER_MAX, /* j: intmax_t */
};

/* The flag characters "-+ #0", as bits of printf_spec.flags (Linux's names). */
#define LEFT 1 /* '-' */
#define PLUS 2 /* '+' */
#define SPACE 4 /* ' ' */
#define SPECIAL 8 /* '#' */
#define ZEROPAD 16 /* '0' */

struct printf_spec {
	unsigned char type; /* enum format_type */
	unsigned char flags; /* LEFT ... ZEROPAD */
	unsigned char qualifier; /* enum format_qualifier */
	unsigned char base; /* FORMAT_TYPE_INT: 8, 10 or 16 */
	bool is_signed; /* %d %i */
	bool upper; /* %X */
	/*
	 * A '*' width or precision: an int argument gives it, the width's first, both before the
	 * conversion's own argument. The caller fetches them: format_decode sees no arguments.
	 */
	bool width_star, precision_star;
	char ptr_ext; /* FORMAT_TYPE_PTR: 'S' or 's' (a symbol), 0 for a plain %p */
	int field_width; /* the digits given (clamped to FORMAT_FIELD_MAX), else 0 */
	int precision; /* the digits given (clamped), else -1: none */
};

/* Widths and precisions beyond this are clamped: a stray "%999999999d" must not spin for ages. */
#define FORMAT_FIELD_MAX 4096

/*
 * Decodes what fmt begins with, literal text or one directive, into spec; returns how many
 * characters of fmt that is (0 only at the end of fmt).
 */
int format_decode(const char *fmt, struct printf_spec *spec);

/* True for the qualifiers of a 64-bit integer (l, ll, z, t, j). */
static inline bool format_qualifier_is_long(unsigned char qualifier)
{
	return qualifier >= QUALIFIER_LONG;
}

#endif
