/*
 * Tests for kernel/fs/9p/protocol.c: requests built byte for byte as 9P2000.L says, and every
 * kind of malformed reply (short, too long, wrong tag or type, a count or string that runs past
 * the end, a bad Rlerror, a bad directory entry) refused with -EIO, never read past its end.
 */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>
#include "kernel/fs/9p/protocol.h"
#include "lib/errno.h"
#include "lib/string.h"

#define TAG 3

static uint8_t buf[4096];

static void test_build_tversion(void **state)
{
	static const uint8_t want[] = { 21, 0, 0, 0, P9_TVERSION, 0xff, 0xff, 0x18, 0, 2, 0,
					8,  0, '9', 'P', '2', '0', '0', '0', '.', 'L' };
	size_t n = p9_build(buf, sizeof(buf), P9_TVERSION, P9_NOTAG, "ds", 131096u, "9P2000.L");

	(void)state;
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
}

static void test_build_twalk_and_limits(void **state)
{
	const char *names[P9_MAXWELEM + 1] = { "a", "bc" };
	static const uint8_t want[] = {
		24, 0, 0, 0, P9_TWALK, TAG, 0, /* header */
		1,  0, 0, 0,		       /* fid */
		2,  0, 0, 0,		       /* newfid */
		2,  0,			       /* nwname */
		1,  0, 'a', 2, 0, 'b', 'c',
	};
	size_t n = p9_build(buf, sizeof(buf), P9_TWALK, TAG, "ddT", 1u, 2u, 2u, names);

	(void)state;
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	for (int i = 0; i <= P9_MAXWELEM; i++)
		names[i] = "x";
	/* More names than one Twalk may carry, a message that does not fit: nothing built. */
	assert_int_equal(p9_build(buf, sizeof(buf), P9_TWALK, TAG, "ddT", 1u, 2u,
				  P9_MAXWELEM + 1u, names),
			 0);
	assert_int_equal(p9_build(buf, 10, P9_TCLUNK, TAG, "d", 1u), 0);
	assert_int_equal(p9_build(buf, 11, P9_TCLUNK, TAG, "d", 1u), 11);
	/* Twrite's data is copied after its count. */
	n = p9_build(buf, sizeof(buf), P9_TWRITE, TAG, "dqD", 7u, (uint64_t)1 << 40, 3u, "xyz");
	assert_int_equal(n, 7 + 4 + 8 + 4 + 3);
	assert_memory_equal(buf + n - 3, "xyz", 3);
	assert_int_equal(buf[7 + 4 + 5], 1);
}

/* An Rread (or any reply) made with the builder: type ttype + 1, our tag. */
static size_t rread(uint8_t ttype, uint16_t tag, uint32_t count, const char *data)
{
	return p9_build(buf, sizeof(buf), ttype + 1, tag, "D", count, data);
}

static void test_parse_good(void **state)
{
	const uint8_t *data;
	struct p9_str s;
	uint32_t count, msize;
	size_t n = rread(P9_TREAD, TAG, 5, "hello");

	(void)state;
	assert_int_equal(p9_parse(buf, n, P9_TREAD, TAG, "D", &count, &data), 0);
	assert_int_equal(count, 5);
	assert_memory_equal(data, "hello", 5);
	assert_ptr_equal(data, buf + n - 5);
	n = p9_build(buf, sizeof(buf), P9_TVERSION + 1, P9_NOTAG, "ds", 8192u, "9P2000.L");
	assert_int_equal(p9_parse(buf, n, P9_TVERSION, P9_NOTAG, "ds", &msize, &s), 0);
	assert_int_equal(msize, 8192);
	assert_int_equal(s.len, 8);
	assert_memory_equal(s.s, "9P2000.L", 8);
	/* An empty reply (Rclunk) is just the header. */
	n = p9_build(buf, sizeof(buf), P9_TCLUNK + 1, TAG, "");
	assert_int_equal(p9_parse(buf, n, P9_TCLUNK, TAG, ""), 0);
}

static void test_parse_rlerror(void **state)
{
	size_t n = p9_build(buf, sizeof(buf), P9_RLERROR, TAG, "d", 2u);

	(void)state;
	assert_int_equal(p9_parse(buf, n, P9_TGETATTR, TAG, "q", NULL), -ENOENT);
	n = p9_build(buf, sizeof(buf), P9_RLERROR, TAG, "d", 0u);
	assert_int_equal(p9_parse(buf, n, P9_TCLUNK, TAG, ""), -EIO); /* "error 0" */
	n = p9_build(buf, sizeof(buf), P9_RLERROR, TAG, "d", P9_MAX_ERRNO + 1u);
	assert_int_equal(p9_parse(buf, n, P9_TCLUNK, TAG, ""), -EIO);
	n = p9_build(buf, sizeof(buf), P9_RLERROR, TAG, "dd", 2u, 0u); /* too long */
	assert_int_equal(p9_parse(buf, n, P9_TCLUNK, TAG, ""), -EIO);
}

static void test_parse_malformed(void **state)
{
	const uint8_t *data;
	struct p9_qid qids[2];
	uint32_t count;
	uint16_t nq;
	size_t n = rread(P9_TREAD, TAG, 5, "hello");

	(void)state;
	/* Wrong tag, wrong type. */
	assert_int_equal(p9_parse(buf, n, P9_TREAD, TAG + 1, "D", &count, &data), -EIO);
	assert_int_equal(p9_parse(buf, n, P9_TWRITE, TAG, "D", &count, &data), -EIO);
	/* The transport says more or fewer bytes than the size field. */
	assert_int_equal(p9_parse(buf, n + 1, P9_TREAD, TAG, "D", &count, &data), -EIO);
	/* Every truncation of a good reply: short, so refused, and never read past its end. */
	for (size_t len = 0; len < n; len++) {
		uint8_t *copy = malloc(len ? len : 1);

		memcpy(copy, buf, len);
		if (len >= 4) { /* make the size field agree, so the field checks are reached */
			copy[0] = (uint8_t)len;
			copy[1] = copy[2] = copy[3] = 0;
		}
		assert_int_equal(p9_parse(copy, len, P9_TREAD, TAG, "D", &count, &data), -EIO);
		free(copy);
	}
	/* A count that points outside the buffer. */
	n = rread(P9_TREAD, TAG, 5, "hello");
	buf[7] = 200;
	assert_int_equal(p9_parse(buf, n, P9_TREAD, TAG, "D", &count, &data), -EIO);
	buf[7] = 0xff, buf[8] = 0xff, buf[9] = 0xff, buf[10] = 0xff;
	assert_int_equal(p9_parse(buf, n, P9_TREAD, TAG, "D", &count, &data), -EIO);
	/* Bytes left over after the last field. */
	n = p9_build(buf, sizeof(buf), P9_TCLUNK + 1, TAG, "b", 0u);
	assert_int_equal(p9_parse(buf, n, P9_TCLUNK, TAG, ""), -EIO);
	/* More qids than asked for names. */
	n = p9_build(buf, sizeof(buf), P9_TWALK + 1, TAG, "wbdqbdqbdq", 3u, 0u, 0u, (uint64_t)1,
		     0u, 0u, (uint64_t)2, 0u, 0u, (uint64_t)3);
	assert_int_equal(p9_parse(buf, n, P9_TWALK, TAG, "R", 2u, &nq, qids), -EIO);
	n = p9_build(buf, sizeof(buf), P9_TWALK + 1, TAG, "wbdq", 1u, 0x80u, 7u, (uint64_t)9);
	assert_int_equal(p9_parse(buf, n, P9_TWALK, TAG, "R", 2u, &nq, qids), 0);
	assert_int_equal(nq, 1);
	assert_int_equal(qids[0].type, 0x80);
	assert_int_equal(qids[0].version, 7);
	assert_int_equal(qids[0].path, 9);
}

/* A directory entry as Rreaddir carries it: qid, offset, type, name. */
static size_t dirent(uint8_t *p, const char *name, size_t namelen, uint64_t off)
{
	size_t n = 0;

	memset(p, 0, 13);
	n += 13;
	for (int i = 0; i < 8; i++)
		p[n++] = (uint8_t)(off >> (8 * i));
	p[n++] = 8; /* DT_REG */
	p[n++] = (uint8_t)namelen;
	p[n++] = (uint8_t)(namelen >> 8);
	memcpy(p + n, name, namelen);
	return n + namelen;
}

static void test_readdir_entries(void **state)
{
	uint8_t d[512];
	struct p9_dirent de;
	uint32_t pos = 0, count = 0;

	(void)state;
	count += (uint32_t)dirent(d + count, ".", 1, 1);
	count += (uint32_t)dirent(d + count, "file", 4, 2);
	assert_int_equal(p9_readdir_next(d, count, &pos, &de), 1);
	assert_int_equal(de.name.len, 1);
	assert_int_equal(p9_readdir_next(d, count, &pos, &de), 1);
	assert_int_equal(de.offset, 2);
	assert_int_equal(de.d_type, 8);
	assert_memory_equal(de.name.s, "file", 4);
	assert_int_equal(p9_readdir_next(d, count, &pos, &de), 0);
	/* Names a directory cannot hold, and an entry cut short. */
	static const struct {
		const char *name;
		size_t len;
	} bad[] = { { "", 0 }, { "a/b", 3 }, { "a\0b", 3 } };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		count = (uint32_t)dirent(d, bad[i].name, bad[i].len, 1);
		pos = 0;
		assert_int_equal(p9_readdir_next(d, count, &pos, &de), -EIO);
	}
	count = (uint32_t)dirent(d, "file", 4, 1);
	for (uint32_t cut = 1; cut < count; cut++) {
		pos = 0;
		assert_int_equal(p9_readdir_next(d, cut, &pos, &de), -EIO);
	}
	memset(d, 'x', 300);
	count = (uint32_t)dirent(d, (const char *)d + 100, 256, 1); /* longer than NAME_MAX */
	pos = 0;
	assert_int_equal(p9_readdir_next(d, count, &pos, &de), -EIO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_tversion),
		cmocka_unit_test(test_build_twalk_and_limits),
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_rlerror),
		cmocka_unit_test(test_parse_malformed),
		cmocka_unit_test(test_readdir_entries),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
