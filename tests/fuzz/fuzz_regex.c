/*
 * Fuzzing the regex engine (lib/regex.c), two ways, chosen by the input's first byte:
 *
 * raw (first byte < 0x80): the rest is pattern NUL line, taken as they come, with the flags and
 *   (for a quarter of the inputs) a kmalloc failure picked by the first byte. Only safety is
 *   checked: no sanitizer report, no leak whether compiling fails or not, and bounded time
 *   (libFuzzer's -timeout catches a blow-up).
 *
 * grammar (first byte >= 0x80): the bytes choose a syntax tree of what regex.h supports and
 *   POSIX defines (literals, '.', "\.", bracket expressions, groups, alternation, * + ?, and
 *   anchors at the ends of the top-level branches), which is written out in ERE or in GNU BRE
 *   syntax, and a line from a small alphabet. glibc's regcomp/regexec must then agree with
 *   regex_compile/regex_search about whether the line matches. A tree is never ambiguous:
 *   constructs whose meaning POSIX leaves open ("a**", "()", "*a") are never generated.
 */
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* After <regex.h>: its regex_t has a field that expands to __used, which compiler.h defines. */
#include "lib/compiler.h"
#include "lib/errno.h"
#include "lib/regex.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/unit/host_kmalloc.h"
#include "tests/fuzz/fuzz_check.h"

/* Small trees: glibc's own regcomp recurses and backtracks, and blows up on big nested ones. */
#define MAX_TREE_DEPTH 3
#define MAX_ATOMS 12
#define PATTERN_MAX 512

struct writer {
	struct fuzz_input *in;
	bool ere;
	char buf[PATTERN_MAX];
	size_t len;
	int atoms; /* written so far */
};

static void put(struct writer *w, const char *s)
{
	size_t n = strlen(s);

	if (w->len + n < sizeof(w->buf)) {
		memcpy(w->buf + w->len, s, n);
		w->len += n;
		w->buf[w->len] = '\0';
	}
}

/* An operator: as is in ERE, after a backslash in BRE (but '*' is bare in both). */
static void op(struct writer *w, const char *o)
{
	if (!w->ere && strcmp(o, "*"))
		put(w, "\\");
	put(w, o);
}

static void alternation(struct writer *w, int depth, bool top);

static void atom(struct writer *w, int depth)
{
	static const char *const atoms[] = {"a",     "b",    "A",	    "B",	   "1",
					    "-",     ".",    "\\.",	    "[ab]",	   "[^a]",
					    "[a-c]", "[]a]", "[[:digit:]]", "[^[:alpha:]]"};
	unsigned int choice = take_below(w->in, ARRAY_SIZE(atoms) + 2);

	w->atoms++;
	if (choice >= (unsigned int)ARRAY_SIZE(atoms) && depth < MAX_TREE_DEPTH &&
	    w->atoms < MAX_ATOMS) {
		op(w, "(");
		alternation(w, depth + 1, false);
		op(w, ")");
	} else {
		put(w, atoms[choice % ARRAY_SIZE(atoms)]);
	}
}

static void concatenation(struct writer *w, int depth)
{
	unsigned int n = 1 + take_below(w->in, 3);

	for (unsigned int i = 0; i < n; i++) {
		static const char *const quantifiers[] = {"*", "+", "?"};
		unsigned int q = take_below(w->in, 6);

		atom(w, depth);
		if (q < 3)
			op(w, quantifiers[q]);
	}
}

static void alternation(struct writer *w, int depth, bool top)
{
	unsigned int n = 1 + take_below(w->in, 2);

	for (unsigned int i = 0; i < n; i++) {
		unsigned int anchors = top ? take_below(w->in, 4) : 0;

		if (i)
			op(w, "|");
		if (anchors & 1)
			put(w, "^");
		concatenation(w, depth);
		if (anchors & 2)
			put(w, "$");
	}
}

static void grammar_case(struct fuzz_input *in, bool ere, bool icase)
{
	static const char alphabet[] = "abcAB1-.x ";
	struct writer w = {.in = in, .ere = ere};
	char line[32];
	size_t len = take_below(in, sizeof(line));
	struct regex re;
	regex_t ref;
	int err;

	alternation(&w, 0, true);
	for (size_t i = 0; i < len; i++)
		line[i] = alphabet[take_below(in, sizeof(alphabet) - 1)];
	line[len] = '\0';

	CHECK(regcomp(&ref, w.buf,
		      (ere ? REG_EXTENDED : 0) | (icase ? REG_ICASE : 0) | REG_NOSUB) == 0);
	err = regex_compile(&re, w.buf, (ere ? REGEX_EXTENDED : 0) | (icase ? REGEX_ICASE : 0));
	if (err == 0) {
		bool got = regex_search(&re, line), want = regexec(&ref, line, 0, NULL, 0) == 0;

		if (got != want) {
			fprintf(stderr, "%s%s /%s/ on \"%s\": regex_search %d, glibc %d\n",
				ere ? "ERE" : "BRE", icase ? " -i" : "", w.buf, line, got, want);
			abort();
		}
		regex_free(&re);
	} else {
		CHECK(err == -EINVAL); /* only for a pattern over REGEX_MAX_STATES */
	}
	regfree(&ref);
}

static void raw_case(const uint8_t *data, size_t size)
{
	struct regex re;
	char *buf = malloc(size + 2);
	int err;

	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = buf[size] = buf[size + 1] = '\0';
	const char *pattern = buf, *line = buf + strlen(buf) + 1;

	host_kmalloc_fail_at = data[0] & 0x40 ? data[0] & 0x0f : 0;
	err = regex_compile(&re, pattern, data[0] & (REGEX_EXTENDED | REGEX_ICASE));
	host_kmalloc_fail_at = 0;
	if (err == 0) {
		CHECK(re.nstates > 0 && re.nstates <= REGEX_MAX_STATES);
		regex_search(&re, line);
		regex_search(&re, pattern);
		regex_free(&re);
		regex_free(&re); /* "safe on a regex that ... was freed" */
	} else {
		CHECK(err == -EINVAL || err == -ENOMEM);
		regex_free(&re); /* "safe on a regex that failed to compile" */
	}
	CHECK(host_kmalloc_live == 0);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = {data + 1, size ? size - 1 : 0};

	if (size < 1)
		return 0;
	if (data[0] < 0x80)
		raw_case(data, size);
	else
		grammar_case(&in, data[0] & 1, data[0] & 2);
	return 0;
}
