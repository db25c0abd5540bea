/*
 * Fuzzing the 9P2000.L reply checker (kernel/fs/9p/protocol.c) with what a hostile device could
 * put in the reply buffer: every reply format the client uses is tried on the input, and an
 * Rreaddir's entries are walked. ASan catches any read outside the input (it is copied into a
 * buffer of exactly its size); the checks below catch a reply accepted that should not be:
 * whatever it points at lies inside it, counts are what the data says, names are clean.
 *
 * Input: the first byte picks the tag, the rest is the reply.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/fs/9p/protocol.h"
#include "tests/fuzz/fuzz_check.h"

static const uint8_t *lo, *hi;

static void check_inside(const void *p, size_t n)
{
	CHECK(n == 0 || ((const uint8_t *)p >= lo && (const uint8_t *)p + n <= hi));
}

static void walk_dirents(const uint8_t *data, uint32_t count)
{
	struct p9_dirent de;
	uint32_t pos = 0, last = 0;
	int r;

	while ((r = p9_readdir_next(data, count, &pos, &de)) == 1) {
		CHECK(pos > last && pos <= count);
		last = pos;
		check_inside(de.name.s, de.name.len);
		CHECK(de.name.len > 0 && de.name.len <= 255);
		CHECK(!memchr(de.name.s, '/', de.name.len) && !memchr(de.name.s, 0, de.name.len));
	}
	CHECK(r == 0 || r == -5 /* EIO */);
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	struct p9_qid qid, qids[P9_MAXWELEM];
	struct p9_stat_dotl st;
	struct p9_str s;
	const uint8_t *data;
	uint32_t u32, count;
	uint64_t q[9];
	uint16_t tag, nq;
	uint8_t *buf;
	int r;

	if (size < 1)
		return 0;
	tag = in[0];
	buf = malloc(size - 1 ? size - 1 : 1);
	memcpy(buf, in + 1, size - 1);
	size--;
	lo = buf;
	hi = buf + size;

	r = p9_parse(buf, size, P9_TVERSION, tag, "ds", &u32, &s);
	if (r == 0)
		check_inside(s.s, s.len);
	r = p9_parse(buf, size, P9_TREAD, tag, "D", &count, &data);
	if (r == 0)
		check_inside(data, count);
	r = p9_parse(buf, size, P9_TREADDIR, tag, "D", &count, &data);
	if (r == 0)
		walk_dirents(data, count);
	r = p9_parse(buf, size, P9_TWALK, tag, "R", P9_MAXWELEM, &nq, qids);
	CHECK(r != 0 || nq <= P9_MAXWELEM);
	p9_parse(buf, size, P9_TATTACH, tag, "Q", &qid);
	p9_parse(buf, size, P9_TLOPEN, tag, "Qd", &qid, &u32);
	p9_parse(buf, size, P9_TWRITE, tag, "d", &u32);
	p9_parse(buf, size, P9_TCLUNK, tag, "");
	p9_parse(buf, size, P9_TSTATFS, tag, "ddqqqqqqd", &u32, &u32, &q[0], &q[1], &q[2], &q[3],
		 &q[4], &q[5], &u32);
	r = p9_parse(buf, size, P9_TGETATTR, tag, "qQdddqqqqqqqqqqqqqqq", &st.valid, &st.qid,
		     &st.mode, &st.uid, &st.gid, &st.nlink, &st.rdev, &st.size, &st.blksize,
		     &st.blocks, &st.atime_sec, &st.atime_nsec, &st.mtime_sec, &st.mtime_nsec,
		     &st.ctime_sec, &st.ctime_nsec, &st.btime_sec, &st.btime_nsec, &st.gen,
		     &st.data_version);
	CHECK(r != 0 || size == P9_HDRSZ + 8 + 13 + 12 + 15 * 8);
	/* Rlerror: only errno values pass, as negative numbers. */
	r = p9_parse(buf, size, P9_TCLUNK, tag, "");
	CHECK(r <= 0 && r >= -P9_MAX_ERRNO);
	free(buf);
	return 0;
}
