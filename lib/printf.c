/*
 * vsnprintf: the one formatter behind printk, the tracer's output and the shell.
 *
 * The format is walked once. Each directive is parsed into a struct spec (flags, width,
 * precision, length), its argument is fetched at the right C type, and one of two emitters writes
 * it: emit_str for text (%s %c, "(null)", symbols) and emit_number for integers, which lays out
 * [spaces][sign][0x prefix][zeros][digits][spaces] as C99 describes. Every character goes through
 * put(), which stores it only while it fits but always counts it: that count is what vsnprintf
 * returns, so callers can tell the output was cut short (Linux's and C's contract).
 *
 * Plain conversions match glibc byte for byte (the unit tests compare them), including %p as
 * "0x..." and "(nil)". %pS/%ps are Linux's symbol extensions; the symbolizer is registered by the
 * kernel's symbol table code so that lib/ does not depend on it.
 *
 * Not traced (lib/ is built without -pg): the tracer formats its output with these functions.
 */
#include "lib/printf.h"
#include <stdint.h>
#include "lib/ctype.h"
#include "lib/string.h"

/* The flag characters, in the order of their F_ bits. */
static const char flag_chars[] = "-+ #0";
enum { F_LEFT = 1, F_PLUS = 2, F_SPACE = 4, F_ALT = 8, F_ZERO = 16 };
enum { L_INT, L_CHAR, L_SHORT, L_LONG, L_LLONG, L_SIZE, L_PTRDIFF, L_MAX };

/* Widths and precisions beyond this are clamped: a stray "%999999999d" must not spin for ages. */
#define FIELD_MAX 4096

struct spec {
	unsigned int flags;
	int width;
	int prec; /* -1: none given */
	int len; /* L_* */
};

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

static void emit_str(struct out *o, const char *s, size_t len, const struct spec *sp)
{
	int fill = sp->width > (int)len ? sp->width - (int)len : 0;

	if (!(sp->flags & F_LEFT))
		pad(o, fill, ' ');
	while (len--)
		put(o, *s++);
	if (sp->flags & F_LEFT)
		pad(o, fill, ' ');
}

static void emit_number(struct out *o, unsigned long long v, bool negative, int base,
			bool upper, const struct spec *sp, bool is_signed)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24]; /* 64 bits in octal is 22 digits */
	int n = 0;
	char sign = 0;
	const char *prefix = "";

	/* C: a zero value with precision 0 prints no digits at all. */
	if (v || sp->prec != 0) {
		do {
			tmp[n++] = digits[v % base];
			v /= base;
		} while (v);
	}
	if (negative)
		sign = '-';
	else if (is_signed && (sp->flags & F_PLUS))
		sign = '+';
	else if (is_signed && (sp->flags & F_SPACE))
		sign = ' ';
	/* "#x" marks nonzero hex with 0x; "#o" makes sure the first digit is a 0. */
	if ((sp->flags & F_ALT) && base == 16 && n && !(n == 1 && tmp[0] == '0'))
		prefix = upper ? "0X" : "0x";
	int zeros = sp->prec > n ? sp->prec - n : 0;

	if ((sp->flags & F_ALT) && base == 8 && !zeros && (n == 0 || tmp[n - 1] != '0'))
		zeros = 1;

	int total = (sign != 0) + (int)strlen(prefix) + zeros + n;

	/* The 0 flag pads with zeros after the sign and prefix, unless a precision or '-' is given. */
	if ((sp->flags & F_ZERO) && !(sp->flags & F_LEFT) && sp->prec < 0 && sp->width > total) {
		zeros += sp->width - total;
		total = sp->width;
	}
	if (!(sp->flags & F_LEFT))
		pad(o, sp->width - total, ' ');
	if (sign)
		put(o, sign);
	while (*prefix)
		put(o, *prefix++);
	pad(o, zeros, '0');
	while (n)
		put(o, tmp[--n]);
	if (sp->flags & F_LEFT)
		pad(o, sp->width - total, ' ');
}

/* Fetch an integer argument at the C type the length modifier names, widened to 64 bits. */
static long long get_signed(va_list *ap, int len)
{
	switch (len) {
	case L_CHAR:
		return (signed char)va_arg(*ap, int);
	case L_SHORT:
		return (short)va_arg(*ap, int);
	case L_LONG:
		return va_arg(*ap, long);
	case L_LLONG:
		return va_arg(*ap, long long);
	case L_SIZE: /* the signed type of size_t's width */
	case L_PTRDIFF:
		return va_arg(*ap, ptrdiff_t);
	case L_MAX:
		return va_arg(*ap, intmax_t);
	default:
		return va_arg(*ap, int);
	}
}

static unsigned long long get_unsigned(va_list *ap, int len)
{
	switch (len) {
	case L_CHAR:
		return (unsigned char)va_arg(*ap, unsigned int);
	case L_SHORT:
		return (unsigned short)va_arg(*ap, unsigned int);
	case L_LONG:
		return va_arg(*ap, unsigned long);
	case L_LLONG:
		return va_arg(*ap, unsigned long long);
	case L_SIZE:
	case L_PTRDIFF:
		return va_arg(*ap, size_t);
	case L_MAX:
		return va_arg(*ap, uintmax_t);
	default:
		return va_arg(*ap, unsigned int);
	}
}

/* Reads "123" or "*" (an int argument, which may be negative), clamped to FIELD_MAX. */
static int get_field(const char **fmt, va_list *ap)
{
	int n = 0;

	if (**fmt == '*') {
		(*fmt)++;
		n = va_arg(*ap, int);
		return n < 0 ? (n < -FIELD_MAX ? -FIELD_MAX : n) : MIN(n, FIELD_MAX);
	}
	while (isdigit(**fmt)) {
		n = MIN(n * 10 + (**fmt - '0'), FIELD_MAX);
		(*fmt)++;
	}
	return n;
}

static void emit_pointer(struct out *o, const char **fmt, void *ptr, struct spec *sp)
{
	char sym[128];

	if (**fmt == 'S' || **fmt == 's') {
		bool with_offset = *(*fmt)++ == 'S';
		printf_symbolizer_t fn = READ_ONCE(symbolizer);
		size_t n = fn ? fn(sym, sizeof(sym), (unsigned long)ptr, with_offset) : 0;

		if (!n)
			n = scnprintf(sym, sizeof(sym), "0x%lx", (unsigned long)ptr);
		emit_str(o, sym, n, sp);
		return;
	}
	/* glibc's %p: like %#lx (but honouring '+' and ' '), and "(nil)" for NULL. */
	if (!ptr) {
		emit_str(o, "(nil)", 5, sp);
		return;
	}
	sp->flags |= F_ALT;
	emit_number(o, (uintptr_t)ptr, false, 16, false, sp, true);
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = {buf, size, 0};
	va_list args;

	/* va_list may be an array type; a local copy lets helpers take its address portably. */
	va_copy(args, ap);
	while (*fmt) {
		const char *start = fmt;
		struct spec sp = {0, 0, -1, L_INT};

		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt++;
		for (;; fmt++) {
			const char *f = strchr(flag_chars, *fmt);

			if (!*fmt || !f)
				break;
			sp.flags |= 1u << (f - flag_chars);
		}
		sp.width = get_field(&fmt, &args);
		if (sp.width < 0) { /* a negative "*" width means left-justify */
			sp.flags |= F_LEFT;
			sp.width = -sp.width;
		}
		if (*fmt == '.') {
			fmt++;
			sp.prec = get_field(&fmt, &args);
			if (sp.prec < 0) /* a negative "*" precision counts as none */
				sp.prec = -1;
		}
		if (*fmt == 'h' || *fmt == 'l') {
			char c = *fmt++;
			bool twice = *fmt == c; /* hh, ll */

			if (twice)
				fmt++;
			if (c == 'h')
				sp.len = twice ? L_CHAR : L_SHORT;
			else
				sp.len = twice ? L_LLONG : L_LONG;
		} else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j') {
			sp.len = *fmt == 'z' ? L_SIZE : *fmt == 't' ? L_PTRDIFF : L_MAX;
			fmt++;
		}

		char conv = *fmt ? *fmt++ : 0;

		switch (conv) {
		case 'd':
		case 'i': {
			long long v = get_signed(&args, sp.len);
			/* Negate in unsigned arithmetic: -LLONG_MIN does not fit a long long. */
			unsigned long long mag =
				v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

			emit_number(&o, mag, v < 0, 10, false, &sp, true);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o': {
			int base = conv == 'u' ? 10 : conv == 'o' ? 8 : 16;

			emit_number(&o, get_unsigned(&args, sp.len), false, base, conv == 'X', &sp,
				    false);
			break;
		}
		case 'c': {
			char c = (char)va_arg(args, int);

			sp.prec = -1;
			emit_str(&o, &c, 1, &sp);
			break;
		}
		case 's': {
			const char *s = va_arg(args, const char *);

			/* glibc prints "(null)" only if the precision lets all of it through. */
			if (!s)
				s = sp.prec < 0 || sp.prec >= 6 ? "(null)" : "";
			size_t max = sp.prec < 0 ? (size_t)-1 : (size_t)sp.prec;

			emit_str(&o, s, strnlen(s, max), &sp);
			break;
		}
		case 'p':
			emit_pointer(&o, &fmt, va_arg(args, void *), &sp);
			break;
		case '%':
			put(&o, '%');
			break;
		default: /* unknown or truncated directive: print it as it stands */
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
