/*
 * Fuzzing vsnprintf (lib/printf.c) against glibc's.
 *
 * A random format string would make vsnprintf read arguments that were never passed, so the
 * input bytes instead choose a format from a grammar: literal text and conversions, each with
 * flags, width, precision and length modifier drawn from the combinations C defines for it, and
 * an argument that suits it. Both implementations then format it with the same arguments and
 * must agree on every byte and on the returned length, for a buffer size also chosen by the
 * input (0, 1, cut in the middle, exact, roomy; allocated to the byte, so ASan sees any write
 * past it). scnprintf's return value is checked too.
 *
 * Arguments are passed as 24 uint64_t: on x86_64 every integer and pointer argument of a
 * variadic call occupies one 8-byte slot, so va_arg(ap, int) reads the low half of the same
 * slot glibc's does. Widths and precisions stay under FORMAT_FIELD_MAX (lib/printf_spec.h), a
 * clamp glibc does not have.
 *
 * Inputs whose first byte is odd also get what the grammar avoids for the comparison: Linux's
 * %pS/%ps through a symbolizer, unknown conversions and a directive cut off at the end. glibc
 * has no opinion on those, so only safety and self-consistency are checked.
 *
 * Every format also goes the way of trace_printk (lib/bprintf.c): vbin_printf() saves the
 * arguments as words, bstr_printf() formats them later; the text must be vsnprintf's, for
 * every buffer size too. And where the format has a layout (no %s), bprint_layout_save() must
 * save the very words vbin_printf saved, and not one more.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "lib/bprintf.h"
#include "lib/compiler.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/fuzz/fuzz_check.h"

int host_snprintf(char *buf, size_t size, const char *fmt, ...); /* tests/unit/host_ref.c */

#define MAX_ARGS 24
#define MAX_PIECES 12
#define FMT_MAX 1024
#define REF_MAX (1 << 17) /* MAX_PIECES conversions of at most 2 * 4096 characters each */
#define FIELD_LIMIT 4096 /* FORMAT_FIELD_MAX */
#define BIN_WORDS 2048 /* MAX_ARGS strings of at most 300 bytes, as words */

/*
 * fmt is what Lucid formats; ref what glibc must be given to print the same. They differ only
 * where Lucid is Linux's kernel printf and not glibc's: a %p is glibc's %lx (with 016 when no
 * width is given: no "0x", 16 digits), and the letters and digits a literal would put right
 * after a %p are left out, as Linux reads them as the pointer's extension.
 */
struct format {
	char fmt[FMT_MAX], ref[FMT_MAX];
	size_t len, ref_len;
	bool after_p; /* the last piece was a %p */
	uint64_t args[MAX_ARGS];
	int nargs;
};

static char long_string[300];
static const char *const strings[] = {"", "a", "hello", "tab\there", "%d%s", long_string, NULL};

static void append(char *buf, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len + n < FMT_MAX) {
		memcpy(buf + *len, s, n + 1);
		*len += n;
	}
}

/* s to Lucid's format, ref to glibc's. */
static void add2(struct format *f, const char *s, const char *ref)
{
	append(f->fmt, &f->len, s);
	append(f->ref, &f->ref_len, ref);
	f->after_p = false;
}

static void add(struct format *f, const char *s)
{
	add2(f, s, s);
}

static void add_arg(struct format *f, uint64_t v)
{
	if (f->nargs < MAX_ARGS)
		f->args[f->nargs++] = v;
}

/* An integer of interesting size: small, near a type's limits, or anything. */
static uint64_t take_value(struct fuzz_input *in)
{
	static const uint64_t edges[] = {0,
					 1,
					 0x7f,
					 0x80,
					 0xff,
					 0x7fff,
					 0x8000,
					 0xffff,
					 0x7fffffff,
					 0x80000000,
					 0xffffffff,
					 INT64_MAX,
					 (uint64_t)INT64_MIN,
					 UINT64_MAX,
					 (uint64_t)-1 << 8};
	unsigned int k = take_u8(in);

	if (k < 2 * ARRAY_SIZE(edges))
		return edges[k / 2] - (k & 1); /* the edge, or one below it */
	if (k < 128)
		return k;
	return take_u64(in);
}

/* A width or precision: none, digits, or '*' with an int argument (negative ones too). */
static void add_field(struct format *f, struct fuzz_input *in, bool precision)
{
	char s[16];
	unsigned int k = take_below(in, 8);

	if (k < 3)
		return;
	if (precision)
		add(f, ".");
	if (k == 7 && f->nargs < MAX_ARGS) {
		add(f, "*");
		add_arg(f, (uint64_t)(int64_t)((int)(take_u8(in) << 8 | take_u8(in)) % FIELD_LIMIT *
					       (take_u8(in) & 1 ? -1 : 1)));
		return;
	}
	snprintf(s, sizeof(s), "%u", k < 6 ? take_below(in, 24) : take_u8(in) * 16 % FIELD_LIMIT);
	add(f, s);
}

static void add_conversion(struct format *f, struct fuzz_input *in)
{
	static const struct {
		char conv;
		const char *flags;
		bool precision, length;
	} convs[] = {
		{'d', "-+ 0", true, true},  {'i', "-+ 0", true, true},	{'u', "-+ 0", true, true},
		{'x', "-+ #0", true, true}, {'X', "-+ #0", true, true}, {'o', "-+ #0", true, true},
		{'c', "-", false, false},   {'s', "-", true, false},	{'p', "-+ ", false, false},
	};
	static const char *const lengths[] = {"", "hh", "h", "l", "ll", "z", "t", "j"};
	unsigned int c = take_below(in, ARRAY_SIZE(convs));
	unsigned int flags = take_u8(in);
	char s[2] = {0};

	if (f->nargs >= MAX_ARGS - 2) /* room for the '*'s and the argument */
		return;
	add(f, "%");
	for (const char *fl = convs[c].flags; *fl; fl++, flags >>= 1) {
		s[0] = *fl;
		if (flags & 1)
			add(f, s);
	}
	size_t before_width = f->len;

	add_field(f, in, false);
	if (convs[c].precision)
		add_field(f, in, true);
	if (convs[c].length)
		add(f, lengths[take_below(in, ARRAY_SIZE(lengths))]);
	s[0] = convs[c].conv;
	/* A width of "0" is the 0 flag: no width either. (A %p has no precision or length.) */
	bool no_width = f->len == before_width || !strcmp(f->fmt + before_width, "0");

	if (s[0] == 'p')
		add2(f, s, no_width ? "016lx" : "lx");
	else
		add(f, s);
	f->after_p = s[0] == 'p';
	if (convs[c].conv == 's')
		add_arg(f, (uintptr_t)strings[take_below(in, ARRAY_SIZE(strings))]);
	else if (convs[c].conv == 'c')
		add_arg(f, take_u8(in));
	else
		add_arg(f, take_value(in));
}

/*
 * Text between conversions (after a %p, without the letters and digits Linux would read as its
 * extension).
 */
static void add_literal(struct format *f, struct fuzz_input *in)
{
	static const char alphabet[] = "ab \t\n-+#.*0123lhzjqk%";
	unsigned int n = take_below(in, 6);
	char s[2] = {0};

	for (unsigned int i = 0; i < n; i++) {
		s[0] = alphabet[take_below(in, sizeof(alphabet) - 1)];
		if (f->after_p && isalnum((unsigned char)s[0]))
			continue; /* it would be the %p's extension */
		add(f, s[0] == '%' ? "%%" : s);
	}
}

#define ARGS(a)                                                                                 \
	a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], \
		a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23]

static char ref[REF_MAX];

/* Formats f into buffers of the sizes the input picks; each must hold a prefix of want. */
static void check_sizes(const struct format *f, struct fuzz_input *in, const char *want, int n)
{
	size_t sizes[] = {0, 1, (size_t)n / 2, (size_t)n, (size_t)n + 1, (size_t)n + 64};

	for (unsigned int k = take_below(in, 4); k < ARRAY_SIZE(sizes);
	     k += 1 + take_below(in, 3)) {
		size_t size = sizes[k];
		char *buf = size ? malloc(size) : NULL; /* size 0: nothing may be written at all */
		int got = snprintf(buf, size, f->fmt, ARGS(f->args));
		size_t end = size ? MIN((size_t)n, size - 1) : 0;

		CHECK(got == n);
		if (size) {
			CHECK(buf[end] == '\0');
			if (memcmp(buf, want, end)) {
				fprintf(stderr, "format \"%s\" size %zu:\n", f->fmt, size);
				fprintf(stderr, " lucid \"%.*s\"\n glibc \"%.*s\"\n", (int)end, buf,
					(int)end, want);
				abort();
			}
		}
		CHECK(scnprintf(buf, size, f->fmt, ARGS(f->args)) == (int)end);
		free(buf);
	}
}

static size_t fake_symbol(char *buf, size_t size, unsigned long addr, bool with_offset)
{
	if (addr % 3 == 0)
		return 0; /* unknown: %pS prints the address */
	return scnprintf(buf, size, with_offset ? "func_%lx+0x%lx/0x%lx" : "func_%lx", addr,
			 addr % 97, addr % 97 + addr % 1000);
}

/*
 * Outside the grammar: no reference, but the output must still be what the return says. Each
 * takes exactly the arguments listed, so that the arguments of later conversions stay in step.
 */
static void extras(struct format *f, struct fuzz_input *in)
{
	static const struct {
		const char *directive;
		bool arg;
	} junk[] = {{"%pS", true}, {"%ps", true},  {"%-30pS", true}, {"%5ps", true},
		    {"%k", false}, {"%5q", false}, {"%hy", false}};
	unsigned int k = take_below(in, ARRAY_SIZE(junk));

	if (f->nargs < MAX_ARGS) {
		add(f, junk[k].directive);
		if (junk[k].arg)
			add_arg(f, take_value(in));
	}
}

/* A directive cut off by the end of the format: only ever last. */
static void cut_off(struct format *f, struct fuzz_input *in)
{
	static const char *const tails[] = {"", "%", "%-", "%0", "%.", "%l", "%#", "%5", "%.*"};

	unsigned int k = take_below(in, ARRAY_SIZE(tails));

	/* no argument left for its '*': vbin_printf would read past the ones given */
	if (f->nargs >= MAX_ARGS && strchr(tails[k], '*'))
		k = 0;
	add(f, tails[k]);
	add_arg(f, take_value(in)); /* for the "*" */
}

static int bin_printf(uint32_t *bin, size_t words, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vbin_printf(bin, words, fmt, ap);
	va_end(ap);
	return n;
}

static void layout_save(uint32_t *bin, const struct bprint_layout *layout, ...)
{
	va_list ap;

	va_start(ap, layout);
	bprint_layout_save(bin, layout, ap);
	va_end(ap);
}

#define UNTOUCHED 0xa5a5a5a5u

/* trace_printk's way for a format without strings: its layout, parsed once. */
static void check_layout(const struct format *f, const uint32_t *want, int words)
{
	static uint32_t saved[BIN_WORDS + 1];
	struct bprint_layout layout;

	if (!bprint_layout_parse(f->fmt, &layout)) {
		CHECK(strchr(f->fmt, 's')); /* only a string makes a format have none (24 < 31) */
		return;
	}
	CHECK(layout.words == (uint32_t)words);
	for (int i = 0; i <= words; i++)
		saved[i] = UNTOUCHED;
	layout_save(saved, &layout, ARGS(f->args));
	CHECK(memcmp(saved, want, (size_t)words * sizeof(*saved)) == 0);
	CHECK(saved[words] == UNTOUCHED);
}

/* Saved as words and formatted from them, f must print want (n characters) again. */
static void check_binary(const struct format *f, struct fuzz_input *in, const char *want, int n)
{
	static uint32_t bin[BIN_WORDS];
	int words = bin_printf(bin, BIN_WORDS, f->fmt, ARGS(f->args));
	size_t sizes[] = {(size_t)n + 1, 0, 1, (size_t)n / 2, (size_t)n};

	CHECK(words >= 0 && words <= BIN_WORDS);
	check_layout(f, bin, words);
	uint32_t *exact = malloc((words ? words : 1) * sizeof(*exact)); /* ASan sees past it */
	memcpy(exact, bin, words * sizeof(*exact));
	for (unsigned int k = 0; k < ARRAY_SIZE(sizes); k += 1 + take_below(in, 3)) {
		size_t size = sizes[k], end = size ? MIN((size_t)n, size - 1) : 0;
		char *buf = size ? malloc(size) : NULL;
		int got = bstr_printf(buf, size, f->fmt, exact, words);

		if (got != n || (size && (memcmp(buf, want, end) || buf[end]))) {
			fprintf(stderr, "format \"%s\" size %zu: bstr_printf returns %d, want %d\n",
				f->fmt, size, got, n);
			if (size)
				fprintf(stderr, " got  \"%s\"\n want \"%.*s\"\n", buf, (int)end,
					want);
			abort();
		}
		free(buf);
	}
	free(exact);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = {data, size};
	struct format f = {.len = 0};
	bool with_extras = size && data[0] & 1;

	memset(long_string, 'L', sizeof(long_string) - 1);
	printf_set_symbolizer(with_extras ? fake_symbol : NULL);
	take_u8(&in);
	for (unsigned int i = take_below(&in, MAX_PIECES); i > 0; i--) {
		switch (take_below(&in, 3)) {
		case 0:
			add_literal(&f, &in);
			break;
		case 1:
			add_conversion(&f, &in);
			break;
		default:
			if (with_extras)
				extras(&f, &in);
			else
				add_conversion(&f, &in);
			break;
		}
	}
	if (with_extras)
		cut_off(&f, &in);
	int n = snprintf(ref, sizeof(ref), f.fmt, ARGS(f.args));

	CHECK(n >= 0 && n < REF_MAX);
	if (with_extras) {
		check_sizes(&f, &in, ref, n); /* only against itself */
	} else {
		int want = host_snprintf(ref, sizeof(ref), f.ref, ARGS(f.args));

		if (want != n)
			fprintf(stderr, "format \"%s\": lucid returns %d, glibc %d\n", f.fmt, n,
				want);
		CHECK(want == n);
		check_sizes(&f, &in, ref, n);
	}
	check_binary(&f, &in, ref, n);
	return 0;
}
