/*
 * Tests for lib/printf.c: a table of formats run through both Lucid's snprintf and the host's
 * (tests/unit/host_ref.c), compared byte for byte, return value and every byte of the buffer,
 * including the bytes past size that must stay untouched. Then the Linux-only parts: scnprintf's
 * return value and %pS/%ps through a fake symbolizer.
 */
/* first: glibc's cdefs.h tolerates its __always_inline, not the reverse */
#include "lib/compiler.h"
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>
#include "lib/printf.h"
#include "lib/string.h"

int host_snprintf(char *buf, size_t size, const char *fmt, ...);

enum kind {
	K_NONE,
	K_INT,
	K_UINT,
	K_LONG,
	K_ULONG,
	K_LLONG,
	K_ULLONG,
	K_SIZE,
	K_PTRDIFF,
	K_INTMAX,
	K_STR,
	K_PTR,
	K_STAR_INT,
	K_STAR2_INT,
	K_STAR2_STR,
	K_STR_INT
};

struct fcase {
	const char *fmt;
	enum kind kind;
	long long i; /* integer argument (or the '*' width) */
	unsigned long long u;
	const char *s;
	const void *p;
	size_t size; /* buffer size given to snprintf; 0 means the default 64 */
};

/* One case: a format, the kind of its arguments, and the values (designated, the rest 0). */
#define C(f, k, ...)                                 \
	{                                            \
		.fmt = (f), .kind = (k), __VA_ARGS__ \
	}

#define BUF \
	96 /* bigger than any size in the table: the tail checks nothing was written past size */

static const struct fcase cases[] = {
	/* %d %i: signs, extremes, flags, width, precision */
	C("%d", K_INT),
	C("%d", K_INT, .i = 42),
	C("%d", K_INT, .i = -42),
	C("%d", K_INT, .i = INT_MAX),
	C("%d", K_INT, .i = INT_MIN),
	C("%i", K_INT, .i = -7),
	C("[%5d]", K_INT, .i = 42),
	C("[%-5d]", K_INT, .i = 42),
	C("[%05d]", K_INT, .i = 42),
	C("[%05d]", K_INT, .i = -42),
	C("[%+d]", K_INT, .i = 42),
	C("[%+d]", K_INT, .i = -42),
	C("[% d]", K_INT, .i = 42),
	C("[% d]", K_INT, .i = -42),
	C("[%+ d]", K_INT, .i = 5),
	C("[%+05d]", K_INT, .i = 5),
	C("[%.3d]", K_INT, .i = 7),
	C("[%.0d]", K_INT),
	C("[%5.0d]", K_INT),
	C("[%8.3d]", K_INT, .i = -7),
	C("[%-8.3d]", K_INT, .i = -7),
	C("[%08.3d]", K_INT, .i = 7),
	C("[%-08d]", K_INT, .i = 5),
	C("[%1d]", K_INT, .i = 12345),
	/* unsigned, hex, octal */
	C("%u", K_UINT),
	C("%u", K_UINT, .u = UINT_MAX),
	C("%x", K_UINT, .u = 255),
	C("%X", K_UINT, .u = 0xdeadbeef),
	C("%#x", K_UINT),
	C("%#x", K_UINT, .u = 255),
	C("%#X", K_UINT, .u = 255),
	C("[%#10x]", K_UINT, .u = 255),
	C("[%#010x]", K_UINT, .u = 255),
	C("[%-#10x]", K_UINT, .u = 255),
	C("[%.5x]", K_UINT, .u = 255),
	C("[%#.5x]", K_UINT, .u = 255),
	C("[%.0x]", K_UINT),
	C("[%#.0x]", K_UINT),
	C("%o", K_UINT, .u = 8),
	C("%#o", K_UINT),
	C("%#o", K_UINT, .u = 8),
	C("%#.3o", K_UINT, .u = 8),
	C("%#.0o", K_UINT),
	C("[%+u]", K_UINT, .u = 5),
	/* length modifiers */
	C("%hhd", K_INT, .i = 300),
	C("%hhd", K_INT, .i = -129),
	C("%hhu", K_INT, .i = -1),
	C("%hd", K_INT, .i = 70000),
	C("%hu", K_INT, .i = -1),
	C("%hx", K_INT, .i = -1),
	C("%ld", K_LONG, .i = LONG_MIN),
	C("%ld", K_LONG, .i = LONG_MAX),
	C("%lu", K_ULONG, .u = ULONG_MAX),
	C("%lx", K_ULONG, .u = 0xffffffff12345678UL),
	C("%lld", K_LLONG, .i = LLONG_MIN),
	C("%lli", K_LLONG, .i = LLONG_MAX),
	C("%llu", K_ULLONG, .u = ULLONG_MAX),
	C("%llx", K_ULLONG, .u = ULLONG_MAX),
	C("%llX", K_ULLONG, .u = 0xabcdef0123ULL),
	C("%llo", K_ULLONG, .u = ULLONG_MAX),
	C("%#llo", K_ULLONG, .u = ULLONG_MAX),
	C("%zu", K_SIZE, .u = SIZE_MAX),
	C("%zx", K_SIZE, .u = 4096),
	C("%zd", K_PTRDIFF, .i = -1),
	C("%td", K_PTRDIFF, .i = -5),
	C("%tu", K_PTRDIFF, .i = 5),
	C("%jd", K_INTMAX, .i = INTMAX_MIN),
	C("%ju", K_INTMAX, .i = -1),
	/* characters and strings */
	C("%c", K_INT, .i = 'A'),
	C("[%5c]", K_INT, .i = 'A'),
	C("[%-5c]", K_INT, .i = 'A'),
	C("%s", K_STR, .s = "hello"),
	C("[%10s]", K_STR, .s = "hello"),
	C("[%-10s]", K_STR, .s = "hello"),
	C("[%.3s]", K_STR, .s = "hello"),
	C("[%10.3s]", K_STR, .s = "hello"),
	C("[%-10.3s]", K_STR, .s = "hello"),
	C("[%.0s]", K_STR, .s = "hello"),
	C("[%s]", K_STR, .s = ""),
	C("[%3s]", K_STR, .s = "toolong"),
	C("[%s]", K_STR),
	C("[%10s]", K_STR),
	C("[%-10s]", K_STR),
	C("[%.3s]", K_STR),
	C("[%.6s]", K_STR),
	/* pointers: Linux's, not glibc's; see test_pointer_linux */
	/* %% and plain text */
	C("%%", K_NONE),
	C("a%%b", K_NONE),
	C("100%% done", K_NONE),
	C("", K_NONE),
	C("no conversions", K_NONE),
	/* '*' width and precision */
	C("[%*d]", K_STAR_INT, .i = 6, .u = 42),
	C("[%-*d]", K_STAR_INT, .i = 6, .u = 42),
	C("[%*d]", K_STAR_INT, .i = -6, .u = 42),
	C("[%.*d]", K_STAR_INT, .i = 4, .u = 42),
	C("[%.*d]", K_STAR_INT, .i = -1, .u = 42),
	C("[%*.*d]", K_STAR2_INT, .i = 8, .u = 4),
	C("[%*.*s]", K_STAR2_STR, .i = 8, .u = 3, .s = "abcdef"),
	C("[%-*.*s]", K_STAR2_STR, .i = 8, .u = 3, .s = "abcdef"),
	/* two arguments */
	C("%s=%d", K_STR_INT, .i = -3, .s = "x"),
	C("[%-6s|%6d]", K_STR_INT, .i = 99, .s = "ab"),
	/* truncation: the return value is the untruncated length */
	C("%d", K_INT, .i = 123456, .size = 4),
	C("hello %s", K_STR, .s = "world", .size = 8),
	C("hello %s", K_STR, .s = "world", .size = 1),
	C("hello %s", K_STR, .s = "world"),
	C("%s", K_STR, .s = "a fairly long string", .size = 10),
	C("%05d", K_INT, .i = 42, .size = 3),
	C("%#x", K_UINT, .u = 255, .size = 2),
	C("%lld", K_LLONG, .i = LLONG_MIN, .size = 20),
	C("%d%%", K_INT, .i = 50, .size = 3),
};

typedef int (*snprintf_fn)(char *buf, size_t size, const char *fmt, ...);

static int run(snprintf_fn fn, char *buf, size_t size, const struct fcase *c)
{
	switch (c->kind) {
	case K_NONE:
		return fn(buf, size, c->fmt);
	case K_INT:
		return fn(buf, size, c->fmt, (int)c->i);
	case K_UINT:
		return fn(buf, size, c->fmt, (unsigned int)c->u);
	case K_LONG:
		return fn(buf, size, c->fmt, (long)c->i);
	case K_ULONG:
		return fn(buf, size, c->fmt, (unsigned long)c->u);
	case K_LLONG:
		return fn(buf, size, c->fmt, c->i);
	case K_ULLONG:
		return fn(buf, size, c->fmt, c->u);
	case K_SIZE:
		return fn(buf, size, c->fmt, (size_t)c->u);
	case K_PTRDIFF:
		return fn(buf, size, c->fmt, (ptrdiff_t)c->i);
	case K_INTMAX:
		return fn(buf, size, c->fmt, (intmax_t)c->i);
	case K_STR:
		return fn(buf, size, c->fmt, c->s);
	case K_PTR:
		return fn(buf, size, c->fmt, c->p);
	case K_STAR_INT:
		return fn(buf, size, c->fmt, (int)c->i, (int)c->u);
	case K_STAR2_INT:
		return fn(buf, size, c->fmt, (int)c->i, (int)c->u, 42);
	case K_STAR2_STR:
		return fn(buf, size, c->fmt, (int)c->i, (int)c->u, c->s);
	case K_STR_INT:
		return fn(buf, size, c->fmt, c->s, (int)c->i);
	}
	return -1;
}

static void test_table_matches_host(void **state)
{
	(void)state;
	assert_true(ARRAY_SIZE(cases) >= 60);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct fcase *c = &cases[i];
		size_t size = c->size ? c->size : 64;
		char ours[BUF], host[BUF];

		/* A pattern, not zeros, so a missing terminator or a stray write shows. */
		for (int j = 0; j < BUF; j++)
			ours[j] = host[j] = (char)('Z' + j % 3);
		int n_ours = run(snprintf, ours, size, c);
		int n_host = run(host_snprintf, host, size, c);

		if (n_ours != n_host || memcmp(ours, host, BUF)) {
			print_error("case %zu: format \"%s\" size %zu: host %d \"%.*s\", lucid %d "
				    "\"%.*s\"\n",
				    i, c->fmt, size, n_host, (int)size, host, n_ours, (int)size,
				    ours);
			fail();
		}
	}
}

/* Zero size may come with a NULL buffer: only the length is wanted. */
static void test_size_zero_null_buffer(void **state)
{
	(void)state;
	assert_int_equal(snprintf(NULL, 0, "%d-%s", 1234, "abc"), 8);
	assert_int_equal(scnprintf(NULL, 0, "%d-%s", 1234, "abc"), 0);
}

static void test_scnprintf_returns_written(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(scnprintf(buf, sizeof(buf), "%s", "abc"), 3);
	assert_string_equal(buf, "abc");
	assert_int_equal(scnprintf(buf, sizeof(buf), "%s", "abcdefghij"), 7);
	assert_string_equal(buf, "abcdefg");
	assert_int_equal(scnprintf(buf, 1, "%s", "abc"), 0);
	assert_string_equal(buf, "");
	/* The pattern printk uses: append until the buffer is full, never past it. */
	int len = scnprintf(buf, sizeof(buf), "%d ", 12345);

	len += scnprintf(buf + len, sizeof(buf) - len, "%d", 6789);
	assert_int_equal(len, 7);
	assert_string_equal(buf, "12345 6");
}

static int vs_helper(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static void test_vscnprintf(void **state)
{
	char buf[6];

	(void)state;
	assert_int_equal(vs_helper(buf, sizeof(buf), "%x-%x", 0xab, 0xcd), 5);
	assert_string_equal(buf, "ab-cd");
	assert_int_equal(vs_helper(buf, sizeof(buf), "%x-%x!", 0xab, 0xcd), 5);
	assert_string_equal(buf, "ab-cd");
}

/* Knows two functions, like a tiny kernel symbol table. */
static size_t fake_symbolizer(char *buf, size_t size, unsigned long addr, bool with_offset)
{
	static const struct {
		const char *name;
		unsigned long start, size;
	} syms[] = {{"schedule", 0x1000, 0x40}, {"do_idle", 0x2000, 0x100}};

	for (size_t i = 0; i < ARRAY_SIZE(syms); i++) {
		unsigned long off = addr - syms[i].start;

		if (addr < syms[i].start || off >= syms[i].size)
			continue;
		if (with_offset)
			return scnprintf(buf, size, "%s+0x%lx/0x%lx", syms[i].name, off,
					 syms[i].size);
		return scnprintf(buf, size, "%s", syms[i].name);
	}
	return 0;
}

static void test_symbols(void **state)
{
	char buf[64];

	(void)state;
	printf_set_symbolizer(NULL);
	assert_int_equal(snprintf(buf, sizeof(buf), "%pS", (void *)0x101a), 6);
	assert_string_equal(buf, "0x101a");
	assert_int_equal(snprintf(buf, sizeof(buf), "%ps", (void *)0), 3);
	assert_string_equal(buf, "0x0");

	printf_set_symbolizer(fake_symbolizer);
	assert_int_equal(snprintf(buf, sizeof(buf), "%pS", (void *)0x101a), 18);
	assert_string_equal(buf, "schedule+0x1a/0x40");
	snprintf(buf, sizeof(buf), "%ps", (void *)0x101a);
	assert_string_equal(buf, "schedule");
	snprintf(buf, sizeof(buf), "<-%pS", (void *)0x2000);
	assert_string_equal(buf, "<-do_idle+0x0/0x100");
	/* Width applies to the symbol as to a string, which lines up trace columns. */
	snprintf(buf, sizeof(buf), "[%12ps][%-12ps]", (void *)0x1000, (void *)0x2010);
	assert_string_equal(buf, "[    schedule][do_idle     ]");
	/* Unknown address: the symbolizer returns 0, so the address prints in hex. */
	snprintf(buf, sizeof(buf), "%pS %ps", (void *)0x3000, (void *)0x3001);
	assert_string_equal(buf, "0x3000 0x3001");
	/* Truncated like anything else, and the return value is still the full length. */
	assert_int_equal(snprintf(buf, 5, "%pS", (void *)0x101a), 18);
	assert_string_equal(buf, "sche");
	/* Plain %p is unaffected, and %px is one directive (no stray x). */
	snprintf(buf, sizeof(buf), "%p %px", (void *)0x1000, (void *)0x1000);
	assert_string_equal(buf, "0000000000001000 0000000000001000");
	printf_set_symbolizer(NULL);
}

/*
 * %p as Linux's kernel printf prints it (lib/vsprintf.c's pointer_string): no "0x", lowercase,
 * zero-padded to 16 digits when no width is given, NULL as zeros; a width pads with spaces as %lx
 * would; letters and digits after the p are the extension's, never printed.
 */
static void test_pointer_linux(void **state)
{
	char buf[64];
	const char *flags_fmt = "[%-p][%+p][% p]"; /* not a literal: gcc's -Wformat knows glibc's */

	(void)state;
	assert_int_equal(snprintf(buf, sizeof(buf), "%p", (void *)0x1234), 16);
	assert_string_equal(buf, "0000000000001234");
	snprintf(buf, sizeof(buf), "read foo %d out of bar %p", 10, (void *)0xffff880013a5bef8UL);
	assert_string_equal(buf, "read foo 10 out of bar ffff880013a5bef8");
	snprintf(buf, sizeof(buf), "%p|%px", (void *)0, (void *)0);
	assert_string_equal(buf, "0000000000000000|0000000000000000");
	snprintf(buf, sizeof(buf), "%px %pxyz9.", (void *)0xABCDEFUL, (void *)~0UL);
	assert_string_equal(buf, "0000000000abcdef ffffffffffffffff.");
	snprintf(buf, sizeof(buf), "[%20p][%-20p][%8p]", (void *)0xabc, (void *)0xabc, (void *)0x1);
	assert_string_equal(buf, "[                 abc][abc                 ][       1]");
	snprintf(buf, sizeof(buf), flags_fmt, (void *)0x10, (void *)0x10, (void *)0x10);
	/* '-' drops the 0 padding, as in Linux's number() */
	assert_string_equal(buf, "[10              ][0000000000000010][0000000000000010]");
	/* Cut short like anything else; the return value is the full length. */
	assert_int_equal(snprintf(buf, 4, "%p", (void *)0x1234), 16);
	assert_string_equal(buf, "000");
}

/* Not compared with the host: glibc's output for these is its own business. */
static void test_unknown_and_truncated_directives(void **state)
{
	char buf[32];
	const char *fmt_unknown = "a%yb", *fmt_trailing = "abc%", *fmt_flags = "x%-5";

	(void)state;
	assert_int_equal(snprintf(buf, sizeof(buf), fmt_unknown), 4);
	assert_string_equal(buf, "a%yb");
	assert_int_equal(snprintf(buf, sizeof(buf), fmt_trailing), 4);
	assert_string_equal(buf, "abc%");
	snprintf(buf, sizeof(buf), fmt_flags);
	assert_string_equal(buf, "x%-5");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_matches_host),
		cmocka_unit_test(test_size_zero_null_buffer),
		cmocka_unit_test(test_scnprintf_returns_written),
		cmocka_unit_test(test_vscnprintf),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_pointer_linux),
		cmocka_unit_test(test_unknown_and_truncated_directives),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
