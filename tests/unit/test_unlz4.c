/*
 * Tests for lib/decompress_unlz4.c: a frame the lz4 tool wrote (`lz4 -l -9`, as the build packs
 * the initramfs) decompresses to what went in; blocks made by hand for each rule (long lengths,
 * an overlapping match, concatenated frames); and every malformed input is -EINVAL, never a read
 * or write outside the buffers (ASan watches: the buffers are exactly as big as they say).
 */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "lib/decompress_unlz4.h"
#include "lib/errno.h"

/* `lz4 -l -9` of 40 lines "line N: the quick brown fox jumps over the lazy dog\n", N = i % 7. */
static const uint8_t fox_lz4[] = {
	0x02, 0x21, 0x4c, 0x18, 0x64, 0x00, 0x00, 0x00, 0xf1, 0x17, 0x6c, 0x69, 0x6e, 0x65,
	0x20, 0x30, 0x3a, 0x20, 0x74, 0x68, 0x65, 0x20, 0x71, 0x75, 0x69, 0x63, 0x6b, 0x20,
	0x62, 0x72, 0x6f, 0x77, 0x6e, 0x20, 0x66, 0x6f, 0x78, 0x20, 0x6a, 0x75, 0x6d, 0x70,
	0x73, 0x20, 0x6f, 0x76, 0x65, 0x72, 0x1f, 0x00, 0x91, 0x6c, 0x61, 0x7a, 0x79, 0x20,
	0x64, 0x6f, 0x67, 0x0a, 0x34, 0x00, 0x1f, 0x31, 0x34, 0x00, 0x20, 0x1f, 0x32, 0x34,
	0x00, 0x20, 0x1f, 0x33, 0x34, 0x00, 0x20, 0x1f, 0x34, 0x34, 0x00, 0x20, 0x1f, 0x35,
	0x34, 0x00, 0x20, 0x1f, 0x36, 0x34, 0x00, 0x1b, 0x0f, 0x6c, 0x01, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xa2, 0x50, 0x20, 0x64, 0x6f, 0x67, 0x0a};
#define FOX_LINES 40
#define FOX_KINDS 7
#define FOX_LEN 2080

static void fox_text(char *buf)
{
	for (int i = 0; i < FOX_LINES; i++)
		buf += sprintf(buf, "line %d: the quick brown fox jumps over the lazy dog\n",
			       i % FOX_KINDS);
}

static uint8_t *copy_of(const void *p, size_t n)
{
	uint8_t *c = malloc(n ? n : 1);
	memcpy(c, p, n);
	return c;
}

static void test_what_lz4_wrote(void **state)
{
	char want[FOX_LEN + 1];
	uint8_t *in = copy_of(fox_lz4, sizeof(fox_lz4));
	size_t bound = unlz4_bound(in, sizeof(fox_lz4));
	uint8_t *out = malloc(FOX_LEN);

	(void)state;
	fox_text(want);
	assert_true(lz4_legacy_magic(in, sizeof(fox_lz4)));
	assert_int_equal(bound, LZ4_LEGACY_BLOCK_MAX);
	assert_int_equal(unlz4(in, sizeof(fox_lz4), out, FOX_LEN), FOX_LEN);
	assert_memory_equal(out, want, FOX_LEN);
	/* one byte short of room: refused, not written past */
	assert_int_equal(unlz4(in, sizeof(fox_lz4), out, FOX_LEN - 1), -EINVAL);
	/* cut anywhere: refused */
	for (size_t n = 0; n < sizeof(fox_lz4); n++) {
		uint8_t *cut = copy_of(fox_lz4, n);

		assert_true(unlz4(cut, n, out, FOX_LEN) < FOX_LEN);
		free(cut);
	}
	free(in);
	free(out);
}

static void test_rules(void **state)
{
	/* 20 literals (15 + 5), then a match of 23 (4 + 15 + 4) at offset 1: one byte repeated */
	uint8_t blk[] = {0xff, 5,   'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j',  'k', 'l',
			 'm',  'n', 'o', 'p', 'q', 'r', 's', 't', 1,   0,   4,	 0x10, '!'};
	uint8_t out[64];

	(void)state;
	assert_int_equal(lz4_decompress_block(blk, sizeof(blk), out, sizeof(out)), 20 + 23 + 1);
	assert_memory_equal(out, "abcdefghijklmnopqrst", 20);
	for (int i = 20; i < 43; i++)
		assert_int_equal(out[i], 't');
	assert_int_equal(out[43], '!');
	/* a match at offset 3, 4 + 15 + 1 = 20 long: "abc" repeated, past its first 8 bytes */
	uint8_t rep[] = {0x3f, 'a', 'b', 'c', 3, 0, 1, 0x10, '.'};
	const char *want = "abcabcabcabcabcabcabcab.";

	assert_int_equal(lz4_decompress_block(rep, sizeof(rep), out, sizeof(out)), strlen(want));
	assert_memory_equal(out, want, strlen(want));
	/* and at offset 9 (no overlap within a step), 12 long */
	uint8_t far[] = {0x98, '1', '2', '3', '4', '5', '6', '7', '8', '9', 9, 0, 0x00};
	assert_int_equal(lz4_decompress_block(far, sizeof(far), out, sizeof(out)), 9 + 12);
	assert_memory_equal(out, "123456789123456789123", 21);
	/* two frames one after the other: both */
	uint8_t two[] = {0x02, 0x21, 0x4c, 0x18, 2, 0, 0, 0, 0x10, 'x',
			 0x02, 0x21, 0x4c, 0x18, 2, 0, 0, 0, 0x10, 'y'};
	assert_int_equal(unlz4(two, sizeof(two), out, sizeof(out)), 2);
	assert_memory_equal(out, "xy", 2);
	assert_int_equal(unlz4_bound(two, sizeof(two)), 2 * LZ4_LEGACY_BLOCK_MAX);
}

static void test_malformed(void **state)
{
	uint8_t out[16];
	/* a match before the output's start; offset 0; a match longer than the room */
	uint8_t back[] = {0x10, 'a', 2, 0, 0x00};
	uint8_t zero[] = {0x10, 'a', 0, 0, 0x00};
	uint8_t big[] = {0x1f, 'a', 1, 0, 0x40, 0x00};
	/* a literal count running past the input; an offset cut short */
	uint8_t lits[] = {0x50, 'a', 'b'};
	uint8_t off[] = {0x10, 'a', 1};
	/* a bad magic; a block size past the end */
	uint8_t magic[] = {0x02, 0x21, 0x4c, 0x19, 2, 0, 0, 0, 0x10, 'x'};
	uint8_t size[] = {0x02, 0x21, 0x4c, 0x18, 3, 0, 0, 0, 0x10, 'x'};

	(void)state;
	assert_int_equal(lz4_decompress_block(back, sizeof(back), out, sizeof(out)), -EINVAL);
	assert_int_equal(lz4_decompress_block(zero, sizeof(zero), out, sizeof(out)), -EINVAL);
	assert_int_equal(lz4_decompress_block(big, sizeof(big), out, sizeof(out)), -EINVAL);
	assert_int_equal(lz4_decompress_block(lits, sizeof(lits), out, sizeof(out)), -EINVAL);
	assert_int_equal(lz4_decompress_block(off, sizeof(off), out, sizeof(out)), -EINVAL);
	assert_int_equal(unlz4(magic, sizeof(magic), out, sizeof(out)), -EINVAL);
	assert_false(lz4_legacy_magic(magic, sizeof(magic)));
	assert_int_equal(unlz4_bound(magic, sizeof(magic)), 0);
	assert_int_equal(unlz4(size, sizeof(size), out, sizeof(out)), -EINVAL);
	assert_int_equal(unlz4_bound(size, sizeof(size)), 0);
	assert_false(lz4_legacy_magic(size, 3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_what_lz4_wrote),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
