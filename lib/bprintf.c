/*
 * Binary printf: vbin_printf() saves a printf's arguments as words, bstr_printf() formats them
 * later (see lib/bprintf.h for why).
 *
 * How each argument is saved, in the order the format uses them:
 *   int-sized integers, %c, and "*" widths     one word
 *   long and long long integers, %p (and %pS)   two words, low half first
 *   %s                                          the string's bytes and its NUL, padded to a word
 *                                               (the string may be gone by the time we format)
 *
 * A format without %s saves the same words on every call: bprint_layout_parse() notes which
 * (lib/bprintf.h), so that trace_printk can save them without this parse (trace/trace_printk.c).
 *
 * Both walks read the format with vsnprintf's own decoder, format_decode() (lib/printf_spec.h),
 * so they find the very directives and arguments vsnprintf would.
 *
 * To format, each directive ("%-08lx") is copied out on its own and given to snprintf with the
 * saved value as its one argument, so the output is exactly what vsnprintf would have printed.
 *
 * Not traced (lib/ is built without -pg): trace_printk calls vbin_printf while recording.
 */
#include "lib/bprintf.h"
#include "lib/printf.h"
#include "lib/printf_spec.h"
#include "lib/string.h"

#define DIRECTIVE_MAX 32 /* "%-+ #0" plus widths, precisions and modifiers: ample */

enum arg_kind { ARG_NONE, ARG_INT, ARG_LONG, ARG_STR, ARG_PTR };

#define PREC_NONE -1
#define PREC_STAR -2

/* One conversion: where it is in fmt, how many '*' it has, and what argument it takes. */
struct directive {
	const char *start, *end;
	int stars;
	enum arg_kind kind;
	int prec; /* the precision's digits, or PREC_NONE, or PREC_STAR (an argument) */
};

/* What format_decode (lib/printf.c, as vsnprintf reads it) found, as the words it saves. */
static struct directive directive(const char *start, int len,
				  const struct printf_spec *spec)
{
	struct directive d = {start, start + len, spec->width_star + spec->precision_star, ARG_NONE,
			      spec->precision_star ? PREC_STAR : spec->precision};

	switch (spec->type) {
	case FORMAT_TYPE_INT:
		d.kind = format_qualifier_is_long(spec->qualifier) ? ARG_LONG : ARG_INT;
		break;
	case FORMAT_TYPE_CHAR:
		d.kind = ARG_INT;
		break;
	case FORMAT_TYPE_STR:
		d.kind = ARG_STR;
		break;
	case FORMAT_TYPE_PTR:
		d.kind = ARG_PTR;
		break;
	}
	return d;
}

/*
 * The next directive after *fmt, past literal text; false at the end of fmt. A "%%" is a
 * directive too: it takes no argument, but "%*%" takes its '*', as vsnprintf's does.
 */
static bool next_directive(const char **fmt, struct directive *d)
{
	struct printf_spec spec;
	int len;

	while ((len = format_decode(*fmt, &spec)) > 0) {
		const char *start = *fmt;

		*fmt += len;
		if (spec.type != FORMAT_TYPE_NONE) {
			*d = directive(start, len, &spec);
			return true;
		}
	}
	return false;
}

struct words {
	uint32_t *w;
	size_t size, pos;
};

static void put_word(struct words *b, uint32_t v)
{
	if (b->pos < b->size)
		b->w[b->pos] = v;
	b->pos++;
}

/* glibc's choice, which vsnprintf follows: "(null)" only if the precision lets all of it out. */
static const char *null_text(int prec)
{
	return prec < 0 || prec >= 6 ? "(null)" : "";
}

int vbin_printf(uint32_t *bin, size_t words, const char *fmt, va_list ap)
{
	struct words b = {bin, words, 0};
	struct directive d;
	va_list args;
	va_copy(args, ap);
	while (next_directive(&fmt, &d)) {
		int star = 0;
		for (int i = 0; i < d.stars; i++) {
			star = va_arg(args, int);
			put_word(&b, (uint32_t)star);
		}
		if (d.kind == ARG_INT) {
			put_word(&b, (uint32_t)va_arg(args, int));
		} else if (d.kind == ARG_LONG || d.kind == ARG_PTR) {
			uint64_t v = d.kind == ARG_PTR ? (uintptr_t)va_arg(args, void *)
						       : (uint64_t)va_arg(args, long long);
			put_word(&b, (uint32_t)v);
			put_word(&b, (uint32_t)(v >> 32));
		} else if (d.kind == ARG_STR) {
			const char *s = va_arg(args, const char *);
			if (!s) /* what vsnprintf prints for NULL: all of "(null)" or nothing */
				s = null_text(d.prec == PREC_STAR ? star : d.prec);
			size_t n = strlen(s) + 1;
			for (size_t i = 0; i < n; i += 4) {
				uint32_t w = 0;
				memcpy(&w, s + i, MIN(4, n - i));
				put_word(&b, w);
			}
		}
	}
	va_end(args);
	return (int)b.pos;
}

/* The same walk as vbin_printf's, recording what it would save instead of saving it. */
bool bprint_layout_parse(const char *fmt, struct bprint_layout *layout)
{
	uint32_t wide = 0;
	unsigned int n = 0, words = 0;
	struct directive d;

	while (next_directive(&fmt, &d)) {
		if (d.kind == ARG_STR)
			return false;
		if (n + (unsigned int)d.stars + (d.kind != ARG_NONE) > BPRINT_LAYOUT_MAX_ARGS)
			return false;
		n += (unsigned int)d.stars; /* each '*' is an int: one word, its bit clear */
		words += (unsigned int)d.stars;
		if (d.kind == ARG_INT) {
			n++;
			words++;
		} else if (d.kind == ARG_LONG || d.kind == ARG_PTR) {
			wide |= 1u << n++;
			words += 2;
		}
	}
	layout->args = wide | 1u << n; /* the end marker */
	layout->words = words;
	return true;
}

/* Reads back what put_word stored; past the end, zeros (a truncated record prints zeros). */
static uint32_t get_word(const uint32_t *bin, size_t words, size_t *pos)
{
	uint32_t v = *pos < words ? bin[*pos] : 0;
	(*pos)++;
	return v;
}

int bstr_printf(char *buf, size_t size, const char *fmt, const uint32_t *bin, size_t words)
{
	size_t out = 0, pos = 0;
	char one[DIRECTIVE_MAX + 1];

	struct printf_spec spec;
	int len;

	while ((len = format_decode(fmt, &spec)) > 0) {
		const char *text = fmt;

		fmt += len;
		if (spec.type == FORMAT_TYPE_NONE) {
			/*
			 * snprintf, not scnprintf: text cut off still counts, as vsnprintf's does.
			 */
			out += snprintf(out < size ? buf + out : NULL, out < size ? size - out : 0,
					"%.*s", len, text);
			continue;
		}
		struct directive d = directive(text, len, &spec);
		size_t dlen = MIN((size_t)(d.end - d.start), (size_t)DIRECTIVE_MAX);
		memcpy(one, d.start, dlen);
		one[dlen] = '\0';
		int star[2] = {0, 0};
		for (int i = 0; i < d.stars; i++)
			star[i] = (int)get_word(bin, words, &pos);
		/*
		 * Once the buffer is full, NULL and 0: snprintf only counts
		 * (NULL + n is undefined).
		 */
		char *dst = out < size ? buf + out : NULL;
		size_t room = out < size ? size - out : 0;
		int n = 0;
		uint64_t v = 0;
		switch (d.kind) {
		case ARG_INT:
			v = get_word(bin, words, &pos);
			n = d.stars == 2   ? snprintf(dst, room, one, star[0], star[1], (int)v)
			    : d.stars == 1 ? snprintf(dst, room, one, star[0], (int)v)
					   : snprintf(dst, room, one, (int)v);
			break;
		case ARG_LONG:
		case ARG_PTR:
			v = get_word(bin, words, &pos);
			v |= (uint64_t)get_word(bin, words, &pos) << 32;
			n = d.stars == 2   ? snprintf(dst, room, one, star[0], star[1], v)
			    : d.stars == 1 ? snprintf(dst, room, one, star[0], v)
					   : snprintf(dst, room, one, v);
			break;
		case ARG_STR: {
			const char *s = (const char *)(bin + MIN(pos, words));
			size_t max = (words - MIN(pos, words)) * 4;
			size_t slen = strnlen(s, max);
			pos += slen / 4 + 1;
			/* cut off before its NUL: print nothing rather than overrun */
			if (slen == max)
				s = "";
			n = d.stars == 2   ? snprintf(dst, room, one, star[0], star[1], s)
			    : d.stars == 1 ? snprintf(dst, room, one, star[0], s)
					   : snprintf(dst, room, one, s);
			break;
		}
		case ARG_NONE: /* "%%" is a '%' whatever its flags, as vsnprintf prints it */
			n = spec.type == FORMAT_TYPE_PERCENT_CHAR ? snprintf(dst, room, "%%")
								  : snprintf(dst, room, "%s", one);
			break;
		}
		out += (size_t)n;
	}
	if (size)
		buf[MIN(out, size - 1)] = '\0';
	return (int)out;
}
