/*
 * vsnprintf: the one formatter behind printk, the tracer's output and the shell.
 *
 * The format is walked once. Literal text is copied out as it comes; format_decode() reads each
 * directive into a struct printf_spec (flags, width, precision, length; lib/printf_spec.h, the
 * decoder the binary printf of lib/bprintf.c uses too), its argument is fetched at the right C
 * type, and one of two emitters writes it: emit_str for text (%s %c, "(null)", symbols) and
 * emit_number for integers, which lays out [spaces][sign][0x prefix][zeros][digits][spaces] as
 * C99 describes. Every character goes through put(), which stores it only while it fits but
 * always counts it: that count is what vsnprintf returns, so callers can tell the output was cut
 * short (Linux's and C's contract).
 *
 * Plain conversions match glibc byte for byte (the unit tests compare them). %p is Linux's
 * kernel printf, not glibc's: 16 zero-padded lowercase hex digits and no "0x" (NULL too), as the
 * article's "read foo 10 out of bar ffff880013a5bef8" shows, and any letters or digits right after
 * the p belong to the directive (Linux's extensions: %pS/%ps symbols, %px). The symbolizer is
 * registered by the kernel's symbol table code so that lib/ does not depend on it.
 *
 * Not traced (lib/ is built without -pg): the tracer formats its output with these functions.
 */
#include "lib/printf.h"
#include <stdint.h>
#include "lib/ctype.h"
#include "lib/printf_spec.h"
#include "lib/string.h"

/* The flag characters, in the order of their bits (LEFT, PLUS, SPACE, SPECIAL, ZEROPAD). */
static const char flag_chars[] = "-+ #0";

struct out {
	char *buf;
	size_t size;
	size_t pos; /* characters produced so far, stored or not */
};

static printf_symbolizer_t symbolizer;

void printf_set_symbolizer(printf_symbolizer_t fn)
{
	WRITE_ONCE(symbolizer, fn);
}

static void put(struct out *o, char c)
{
	if (o->pos < o->size)
		o->buf[o->pos] = c;
	o->pos++;
}

static void pad(struct out *o, int n, char c)
{
	while (n-- > 0)
		put(o, c);
}

static void emit_str(struct out *o, const char *s, size_t len, const struct printf_spec *sp)
{
	int fill = sp->field_width > (int)len ? sp->field_width - (int)len : 0;

	if (!(sp->flags & LEFT))
		pad(o, fill, ' ');
	while (len--)
		put(o, *s++);
	if (sp->flags & LEFT)
		pad(o, fill, ' ');
}

static void emit_number(struct out *o, unsigned long long v, bool negative, int base,
			bool upper, const struct printf_spec *sp, bool is_signed)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24]; /* 64 bits in octal is 22 digits */
	int n = 0;
	char sign = 0;
	const char *prefix = "";

	/* C: a zero value with precision 0 prints no digits at all. */
	if (v || sp->precision != 0) {
		do {
			tmp[n++] = digits[v % base];
			v /= base;
		} while (v);
	}
	if (negative)
		sign = '-';
	else if (is_signed && (sp->flags & PLUS))
		sign = '+';
	else if (is_signed && (sp->flags & SPACE))
		sign = ' ';
	/* "#x" marks nonzero hex with 0x; "#o" makes sure the first digit is a 0. */
	if ((sp->flags & SPECIAL) && base == 16 && n && !(n == 1 && tmp[0] == '0'))
		prefix = upper ? "0X" : "0x";
	int zeros = sp->precision > n ? sp->precision - n : 0;

	if ((sp->flags & SPECIAL) && base == 8 && !zeros && (n == 0 || tmp[n - 1] != '0'))
		zeros = 1;

	int total = (sign != 0) + (int)strlen(prefix) + zeros + n;

	/*
	 * The 0 flag pads with zeros after the sign and prefix, unless a precision or '-' is given.
	 */
	if ((sp->flags & ZEROPAD) && !(sp->flags & LEFT) && sp->precision < 0 &&
	    sp->field_width > total) {
		zeros += sp->field_width - total;
		total = sp->field_width;
	}
	if (!(sp->flags & LEFT))
		pad(o, sp->field_width - total, ' ');
	if (sign)
		put(o, sign);
	while (*prefix)
		put(o, *prefix++);
	pad(o, zeros, '0');
	while (n)
		put(o, tmp[--n]);
	if (sp->flags & LEFT)
		pad(o, sp->field_width - total, ' ');
}

/* Fetch an integer argument at the C type the length modifier names, widened to 64 bits. */
static long long get_signed(va_list *ap, int qualifier)
{
	switch (qualifier) {
	case QUALIFIER_CHAR:
		return (signed char)va_arg(*ap, int);
	case QUALIFIER_SHORT:
		return (short)va_arg(*ap, int);
	case QUALIFIER_LONG:
		return va_arg(*ap, long);
	case QUALIFIER_LLONG:
		return va_arg(*ap, long long);
	case QUALIFIER_SIZE: /* the signed type of size_t's width */
	case QUALIFIER_PTRDIFF:
		return va_arg(*ap, ptrdiff_t);
	case QUALIFIER_MAX:
		return va_arg(*ap, intmax_t);
	default:
		return va_arg(*ap, int);
	}
}

static unsigned long long get_unsigned(va_list *ap, int qualifier)
{
	switch (qualifier) {
	case QUALIFIER_CHAR:
		return (unsigned char)va_arg(*ap, unsigned int);
	case QUALIFIER_SHORT:
		return (unsigned short)va_arg(*ap, unsigned int);
	case QUALIFIER_LONG:
		return va_arg(*ap, unsigned long);
	case QUALIFIER_LLONG:
		return va_arg(*ap, unsigned long long);
	case QUALIFIER_SIZE:
	case QUALIFIER_PTRDIFF:
		return va_arg(*ap, size_t);
	case QUALIFIER_MAX:
		return va_arg(*ap, uintmax_t);
	default:
		return va_arg(*ap, unsigned int);
	}
}

/* Reads "123", clamped to FORMAT_FIELD_MAX. */
static int decode_digits(const char **fmt)
{
	int n = 0;

	while (isdigit(**fmt)) {
		n = MIN(n * 10 + (**fmt - '0'), FORMAT_FIELD_MAX);
		(*fmt)++;
	}
	return n;
}

/* Inline in vsnprintf, which runs for every printk; format_decode() for everyone else. */
static __always_inline int __format_decode(const char *fmt, struct printf_spec *spec)
{
	const char *start = fmt;

	*spec = (struct printf_spec){.type = FORMAT_TYPE_NONE, .precision = -1};
	if (*fmt != '%') {
		while (*fmt && *fmt != '%')
			fmt++;
		return (int)(fmt - start);
	}
	fmt++;
	for (;; fmt++) {
		const char *f = strchr(flag_chars, *fmt);

		if (!*fmt || !f)
			break;
		spec->flags |= 1u << (f - flag_chars);
	}
	if (*fmt == '*') {
		spec->width_star = true;
		fmt++;
	} else {
		spec->field_width = decode_digits(&fmt);
	}
	if (*fmt == '.') {
		fmt++;
		if (*fmt == '*') {
			spec->precision_star = true;
			fmt++;
		} else {
			spec->precision = decode_digits(&fmt);
		}
	}
	if (*fmt == 'h' || *fmt == 'l') {
		char c = *fmt++;
		bool twice = *fmt == c; /* hh, ll */

		if (twice)
			fmt++;
		if (c == 'h')
			spec->qualifier = twice ? QUALIFIER_CHAR : QUALIFIER_SHORT;
		else
			spec->qualifier = twice ? QUALIFIER_LLONG : QUALIFIER_LONG;
	} else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j') {
		spec->qualifier = *fmt == 'z'	? QUALIFIER_SIZE
				  : *fmt == 't' ? QUALIFIER_PTRDIFF
						: QUALIFIER_MAX;
		fmt++;
	}

	char conv = *fmt ? *fmt++ : 0;

	switch (conv) {
	case 'd':
	case 'i':
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		spec->type = FORMAT_TYPE_INT;
		spec->is_signed = conv == 'd' || conv == 'i';
		spec->upper = conv == 'X';
		spec->base = conv == 'o' ? 8 : conv == 'x' || conv == 'X' ? 16 : 10;
		break;
	case 'c':
		spec->type = FORMAT_TYPE_CHAR;
		break;
	case 's':
		spec->type = FORMAT_TYPE_STR;
		break;
	case 'p':
		spec->type = FORMAT_TYPE_PTR;
		/*
		 * Linux reads the extension from the first character, then skips every letter and
		 * digit after the p (its vsnprintf's "while (isalnum(*fmt))"): "%pS", "%px" and
		 * "%pSR" are one directive each, so "%px" never prints a stray x.
		 */
		if (isalnum(*fmt))
			spec->ptr_ext = *fmt;
		while (isalnum(*fmt))
			fmt++;
		break;
	case '%':
		spec->type = FORMAT_TYPE_PERCENT_CHAR;
		break;
	default: /* unknown, or the format ended inside the directive */
		spec->type = FORMAT_TYPE_INVALID;
		break;
	}
	return (int)(fmt - start);
}

int format_decode(const char *fmt, struct printf_spec *spec)
{
	return __format_decode(fmt, spec);
}

/* A '*' argument, clamped to FORMAT_FIELD_MAX either way (it may be negative). */
static int clamp_field(int n)
{
	return n < 0 ? (n < -FORMAT_FIELD_MAX ? -FORMAT_FIELD_MAX : n) : MIN(n, FORMAT_FIELD_MAX);
}

#define POINTER_HEX_DIGITS (2 * (int)sizeof(void *)) /* two hex digits a byte */

static void emit_pointer(struct out *o, void *ptr, struct printf_spec *sp)
{
	char sym[128];

	if (sp->ptr_ext == 'S' || sp->ptr_ext == 's') {
		bool with_offset = sp->ptr_ext == 'S';
		printf_symbolizer_t fn = READ_ONCE(symbolizer);
		size_t n = fn ? fn(sym, sizeof(sym), (unsigned long)ptr, with_offset) : 0;

		if (!n)
			n = scnprintf(sym, sizeof(sym), "0x%lx", (unsigned long)ptr);
		emit_str(o, sym, n, sp);
		return;
	}
	/*
	 * Linux's pointer_string(), for %p, %px and any other extension: lowercase hex without
	 * "0x"; with no width given, as wide as a pointer's digits and zero-padded. Linux hashes a
	 * plain %p unless booted with no_hash_pointers; Lucid, a kernel to be read, never hashes.
	 */
	if (!sp->field_width && !sp->width_star) { /* "%*p" with 0 is a width given: none */
		sp->field_width = POINTER_HEX_DIGITS;
		sp->flags |= ZEROPAD;
	}
	emit_number(o, (uintptr_t)ptr, false, 16, false, sp, false);
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = {buf, size, 0};
	va_list args;

	/* va_list may be an array type; a local copy lets helpers take its address portably. */
	va_copy(args, ap);
	while (*fmt) {
		struct printf_spec sp;
		const char *start = fmt;

		if (*fmt != '%') { /* literal text: straight out, without decoding it first */
			put(&o, *fmt++);
			continue;
		}
		fmt += __format_decode(fmt, &sp);
		if (sp.width_star) {
			sp.field_width = clamp_field(va_arg(args, int));
			if (sp.field_width < 0) { /* a negative "*" width means left-justify */
				sp.flags |= LEFT;
				sp.field_width = -sp.field_width;
			}
		}
		if (sp.precision_star) {
			sp.precision = clamp_field(va_arg(args, int));
			if (sp.precision < 0) /* a negative "*" precision counts as none */
				sp.precision = -1;
		}
		switch (sp.type) {
		case FORMAT_TYPE_INT:
			if (sp.is_signed) {
				long long v = get_signed(&args, sp.qualifier);
				/*
				 * Negate in unsigned arithmetic: -LLONG_MIN does not fit a
				 * long long.
				 */
				unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v
							       : (unsigned long long)v;

				emit_number(&o, mag, v < 0, 10, false, &sp, true);
			} else {
				emit_number(&o, get_unsigned(&args, sp.qualifier), false, sp.base,
					    sp.upper, &sp, false);
			}
			break;
		case FORMAT_TYPE_CHAR: {
			char c = (char)va_arg(args, int);

			sp.precision = -1;
			emit_str(&o, &c, 1, &sp);
			break;
		}
		case FORMAT_TYPE_STR: {
			const char *s = va_arg(args, const char *);

			/* glibc prints "(null)" only if the precision lets all of it through. */
			if (!s)
				s = sp.precision < 0 || sp.precision >= 6 ? "(null)" : "";
			size_t max = sp.precision < 0 ? (size_t)-1 : (size_t)sp.precision;

			emit_str(&o, s, strnlen(s, max), &sp);
			break;
		}
		case FORMAT_TYPE_PTR:
			emit_pointer(&o, va_arg(args, void *), &sp);
			break;
		case FORMAT_TYPE_PERCENT_CHAR:
			put(&o, '%');
			break;
		default: /* an unknown or cut-off directive: as it stands */
			while (start < fmt)
				put(&o, *start++);
			break;
		}
	}
	va_end(args);
	if (size)
		buf[MIN(o.pos, size - 1)] = '\0';
	return (int)o.pos;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, size, fmt, ap);

	if (!size)
		return 0;
	return (size_t)n < size ? n : (int)(size - 1);
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
