/*
 * Fuzzing bstr_printf (lib/bprintf.c) with saved arguments it never saw saved: a random format
 * and random words, as a corrupted or cut-off trace_printk record would give it at read time.
 *
 * The words are a heap copy of exactly their size, so reading one past them is an ASan report;
 * a string argument must end inside them or print as nothing. (fuzz_printf checks that what
 * vbin_printf saved formats back to vsnprintf's text.) Input: format, NUL, then the words.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "lib/bprintf.h"
#include "lib/compiler.h"
#include "lib/string.h"
#include "tests/fuzz/fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t fmt_len = nul ? (size_t)(nul - data) : size;
	size_t rest = size - fmt_len - (nul != NULL), words = rest / 4;
	char *fmt = malloc(fmt_len + 1);
	uint32_t *bin = malloc(words ? words * 4 : 1);
	char out[512];

	memcpy(fmt, data, fmt_len);
	fmt[fmt_len] = '\0';
	memcpy(bin, data + size - rest, words * 4);

	int n = bstr_printf(out, sizeof(out), fmt, bin, words);
	CHECK(n >= 0 && memchr(out, '\0', sizeof(out)));
	/* A smaller buffer gives the same count and a prefix of the same text. */
	size_t small = fmt_len % sizeof(out);
	char *cut = malloc(small ? small : 1);
	CHECK(bstr_printf(small ? cut : NULL, small, fmt, bin, words) == n);
	if (small && (size_t)n < sizeof(out)) {
		size_t end = MIN((size_t)n, small - 1);

		CHECK(memcmp(cut, out, end) == 0 && cut[end] == '\0');
	}
	free(cut);
	free(bin);
	free(fmt);
	return 0;
}
