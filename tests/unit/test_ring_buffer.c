/*
 * Tests for trace/ring_buffer.c. Host threads stand for CPUs (ring_buffer_cpu_id() returns a
 * thread-local number) and POSIX signals for interrupts and NMIs: a handler writes events into
 * its thread's buffer wherever it lands, also between a reserve and its commit. Every event
 * carries its CPU, its context (0 task, 1 "irq", 2 "nmi"), a sequence number per context, the
 * clock before and after its reservation and a checksum, so a reader can tell a torn, lost,
 * duplicated or misplaced event from a good one, and its time from a wrong one. Counts must
 * add up exactly. RB_TEST_SCALE=N multiplies the stress tests' event counts (default 1).
 */
#include "lib/compiler.h" /* first: glibc's cdefs.h accepts its __always_inline, not the reverse */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "trace/ring_buffer.h"
#include "tests/unit/host_kmalloc.h"

#ifndef RB_ALIGNMENT
#define RB_ALIGNMENT 8
#endif

#define NCPU_MAX 4

/* The build for the second record layout runs a quarter of the stress. */
#ifdef RB_TEST_QUICK
#define QUICK 4
#else
#define QUICK 1
#endif

/* ---- CPUs and clocks ------------------------------------------------------------------- */

static __thread int this_cpu;

int ring_buffer_cpu_id(void)
{
	return this_cpu;
}

/* A global counter: every reading is unique and larger than every earlier one. */
static uint64_t counter_now;

static uint64_t counter_clock(void)
{
	return __atomic_add_fetch(&counter_now, 1, __ATOMIC_RELAXED);
}

/* A clock the test sets by hand. */
static uint64_t fake_now;

static uint64_t fake_clock(void)
{
	return __atomic_load_n(&fake_now, __ATOMIC_RELAXED);
}

static unsigned long scale(void)
{
	const char *s = getenv("RB_TEST_SCALE");
	unsigned long n = s ? strtoul(s, NULL, 0) : 1;

	return n ? n : 1;
}

static double now_sec(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* ---- Test events ----------------------------------------------------------------------- */

struct tev {
	uint32_t magic;
	uint16_t len; /* payload bytes, checksum included */
	uint8_t cpu;
	uint8_t ctx;
	uint64_t seq;
	uint64_t before; /* clock just before ring_buffer_lock_reserve() */
	uint64_t after; /* ... and just after */
};

#define TEV_MAGIC 0x52424556u
#define TEV_MIN ((unsigned int)sizeof(struct tev) + 4)

static uint32_t fnv1a(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

/* Mostly small events, some medium, a few of the largest size there is. */
static unsigned int tev_len(uint64_t seq)
{
	if (seq % 1024 == 1023)
		return BUF_MAX_DATA_SIZE - (seq / 1024) % 16;
	if (seq % 64 == 63)
		return 200 + (seq * 37) % 1500;
	return TEV_MIN + (seq * 13) % 97;
}

static void tev_fill(uint8_t *buf, unsigned int len, int cpu, int ctx, uint64_t seq,
		     uint64_t before, uint64_t after)
{
	struct tev h = {TEV_MAGIC, (uint16_t)len, (uint8_t)cpu, (uint8_t)ctx, seq, before, after};
	uint32_t sum;

	memcpy(buf, &h, sizeof(h));
	for (unsigned int i = sizeof(h); i < len - 4; i++)
		buf[i] = (uint8_t)(seq * 131 + i * 7 + ctx);
	sum = fnv1a(buf, len - 4);
	memcpy(buf + len - 4, &sum, 4);
}

/* cap is what the buffer says the payload holds: the length asked for, rounded up. */
static bool tev_check(const void *data, unsigned int cap, struct tev *out)
{
	const uint8_t *p = data;
	struct tev h;
	uint32_t sum;

	if (cap < TEV_MIN)
		return false;
	memcpy(&h, p, sizeof(h));
	if (h.magic != TEV_MAGIC || h.len < TEV_MIN || h.len > cap || cap - h.len >= RB_ALIGNMENT)
		return false;
	memcpy(&sum, p + h.len - 4, 4);
	if (sum != fnv1a(p, h.len - 4))
		return false;
	if (out)
		*out = h;
	return true;
}

/* What each writer thread (one CPU) counts; its signal handlers count in it too. */
struct wstate {
	uint64_t next[3], ok[3], fail[3];
	volatile int busy[3]; /* that context is inside reserve .. commit */
	uint64_t hits_window; /* "irq" came while the task was inside reserve .. commit */
	uint64_t hits_nested; /* "nmi" came while the "irq" was: three writers deep */
};

static __thread struct wstate ws;

/* Writes one test event from context ctx: true if it was recorded. Async-signal-safe. */
static bool tev_write(struct ring_buffer *rb, int ctx)
{
	uint8_t buf[BUF_MAX_DATA_SIZE];
	uint64_t seq = ws.next[ctx], before, after;
	unsigned int len = tev_len(seq * 3 + ctx);
	struct ring_buffer_event *ev;

	ws.busy[ctx] = 1;
	before = counter_clock();
	ev = ring_buffer_lock_reserve(rb, len);
	after = counter_clock();
	if (!ev) {
		ws.busy[ctx] = 0;
		ws.fail[ctx]++;
		return false;
	}
	tev_fill(buf, len, this_cpu, ctx, seq, before, after);
	memcpy(ring_buffer_event_data(ev), buf, len);
	ring_buffer_unlock_commit(rb);
	ws.busy[ctx] = 0;
	ws.next[ctx]++;
	ws.ok[ctx]++;
	return true;
}

/* What a reader checks about the events of one pass over the buffer. */
struct check {
	bool has_last[NCPU_MAX][3];
	uint64_t last_seq[NCPU_MAX][3];
	uint64_t last_ts[NCPU_MAX];
	uint64_t seen[NCPU_MAX][3];
	uint64_t last_merged_ts;
	uint64_t bad_sum, bad_cpu, bad_seq, bad_time, bad_ts_order, bad_merge, lost;
};

static void check_event(struct check *c, int cpu, const void *data, unsigned int cap, uint64_t ts)
{
	struct tev h;

	if (!tev_check(data, cap, &h)) {
		c->bad_sum++;
		return;
	}
	if (h.cpu != cpu || h.ctx > 2) {
		c->bad_cpu++;
		return;
	}
	if (c->has_last[cpu][h.ctx] && h.seq <= c->last_seq[cpu][h.ctx])
		c->bad_seq++;
	c->has_last[cpu][h.ctx] = true;
	c->last_seq[cpu][h.ctx] = h.seq;
	if (!(h.before < ts && ts < h.after))
		c->bad_time++;
	if (ts <= c->last_ts[cpu])
		c->bad_ts_order++;
	c->last_ts[cpu] = ts;
	c->seen[cpu][h.ctx]++;
}

static void check_ev(struct check *c, int cpu, struct ring_buffer_event *ev, uint64_t ts)
{
	check_event(c, cpu, ring_buffer_event_data(ev), ring_buffer_event_length(ev), ts);
}

static uint64_t check_bad(const struct check *c)
{
	return c->bad_sum + c->bad_cpu + c->bad_seq + c->bad_time + c->bad_ts_order + c->bad_merge;
}

static uint64_t check_seen(const struct check *c, int cpu)
{
	return c->seen[cpu][0] + c->seen[cpu][1] + c->seen[cpu][2];
}

/* ---- A raw page reader, written from Linux's format (as trace-cmd's kbuffer reads it) ---- */

struct raw_stats {
	unsigned int data, extend, stamp, padding;
};

typedef void (*raw_fn)(void *arg, const void *data, unsigned int len, uint64_t ts);

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* Walks a page; returns the number of data records, -1 if it is malformed. */
static int raw_parse(const void *page, raw_fn fn, void *arg, struct raw_stats *st, uint64_t *missed)
{
	const uint8_t *p = page;
	uint64_t ts, commit;
	unsigned int size, off = 0;
	int nr = 0;

	memcpy(&ts, p, 8);
	memcpy(&commit, p + 8, 8);
	size = commit & RB_COMMIT_MASK;
	if (size > BUF_PAGE_SIZE)
		return -1;
	if (missed)
		*missed = 0;
	if ((commit & RB_MISSED_EVENTS) && missed) {
		*missed = ~0ULL;
		if (commit & RB_MISSED_STORED)
			memcpy(missed, p + 16 + size, 8);
	}
	p += 16;
	while (off < size) {
		uint32_t h = rd32(p + off), type = h & 31, delta = h >> 5, len;

		if (type == 29) {
			if (st)
				st->padding++;
			if (!delta)
				break;
			len = 4 + rd32(p + off + 4);
		} else if (type == 30 || type == 31) {
			uint64_t t = delta | ((uint64_t)rd32(p + off + 4) << 27);

			if (st)
				(*(type == 30 ? &st->extend : &st->stamp))++;
			ts = type == 30 ? ts + t : ((ts & (~0ULL << 59)) | t);
			len = 8;
		} else {
			const uint8_t *data = type ? p + off + 4 : p + off + 8;
			unsigned int dlen = type ? type * 4 : rd32(p + off + 4) - 4;

			len = type ? 4 + dlen : 8 + dlen;
			ts += delta;
			if (off + len > size)
				return -1;
			if (fn)
				fn(arg, data, dlen, ts);
			if (st)
				st->data++;
			nr++;
		}
		if (len < 4 || len % 4)
			return -1;
		off += len;
	}
	return nr;
}

/* ---- Simple, single-threaded tests ----------------------------------------------------- */

static struct ring_buffer *new_rb(unsigned int pages, unsigned int flags, int nr_cpus)
{
	struct ring_buffer *rb = ring_buffer_alloc(pages * BUF_PAGE_SIZE, flags, nr_cpus);

	assert_non_null(rb);
	ring_buffer_set_clock(rb, counter_clock);
	this_cpu = 0;
	memset(&ws, 0, sizeof(ws));
	return rb;
}

static void assert_identity(struct ring_buffer *rb, int cpu)
{
	assert_int_equal(ring_buffer_written_cpu(rb, cpu),
			 ring_buffer_entries_cpu(rb, cpu) + ring_buffer_read_events_cpu(rb, cpu) +
				 ring_buffer_overrun_cpu(rb, cpu) +
				 ring_buffer_dropped_events_cpu(rb, cpu) +
				 ring_buffer_commit_overrun_cpu(rb, cpu));
}

/* Events come out in the order written, intact, and every counter is exact. */
static void test_basic_order_and_counts(void **state)
{
	(void)state;
	long live = host_kmalloc_live;
	struct ring_buffer *rb = new_rb(64, RB_FL_OVERWRITE, 2);
	struct ring_buffer_event *ev;
	struct check c = {0};
	uint64_t ts, prev = 0;
	int n = 0;

	assert_true(ring_buffer_empty(rb));
	assert_null(ring_buffer_consume(rb, 0, &ts, NULL));
	for (int i = 0; i < 500; i++)
		assert_true(tev_write(rb, 0));
	assert_int_equal(ring_buffer_entries_cpu(rb, 0), 500);
	assert_int_equal(ring_buffer_entries_cpu(rb, 1), 0);
	assert_int_equal(ring_buffer_overrun_cpu(rb, 0), 0);
	assert_int_equal(ring_buffer_written_cpu(rb, 0), 500);
	assert_true(ring_buffer_bytes_cpu(rb, 0) > 500 * TEV_MIN);
	assert_false(ring_buffer_empty(rb));
	assert_true(ring_buffer_empty_cpu(rb, 1));

	/* peek does not consume */
	ev = ring_buffer_peek(rb, 0, &ts, NULL);
	assert_non_null(ev);
	assert_ptr_equal(ev, ring_buffer_peek(rb, 0, NULL, NULL));
	assert_int_equal(ring_buffer_oldest_event_ts(rb, 0), ts);
	assert_int_equal(ring_buffer_entries_cpu(rb, 0), 500);

	while ((ev = ring_buffer_consume(rb, 0, &ts, NULL))) {
		struct tev h;

		assert_true(
			tev_check(ring_buffer_event_data(ev), ring_buffer_event_length(ev), &h));
		assert_int_equal(h.seq, n);
		assert_true(ts > prev);
		prev = ts;
		check_ev(&c, 0, ev, ts);
		n++;
	}
	assert_int_equal(n, 500);
	assert_int_equal(check_bad(&c), 0);
	assert_int_equal(ring_buffer_entries_cpu(rb, 0), 0);
	assert_int_equal(ring_buffer_read_events_cpu(rb, 0), 500);
	assert_int_equal(ring_buffer_bytes_cpu(rb, 0), 0);
	assert_identity(rb, 0);
	assert_true(ring_buffer_empty(rb));

	/* a CPU without a buffer cannot write; bad CPUs read nothing */
	this_cpu = 5;
	assert_int_equal(ring_buffer_write(rb, 8, "12345678"), -EBUSY);
	this_cpu = 0;
	assert_null(ring_buffer_consume(rb, 7, NULL, NULL));
	assert_int_equal(ring_buffer_size(rb, 0), 64 * BUF_PAGE_SIZE);
	assert_int_equal(ring_buffer_nr_cpus(rb), 2);
	ring_buffer_free(rb);
	assert_int_equal(host_kmalloc_live, live);
}

/* Record sizes and headers, as Linux lays them out. */
static void test_event_encoding(void **state)
{
	(void)state;
	struct ring_buffer *rb = new_rb(8, RB_FL_OVERWRITE, 1);
	struct ring_buffer_event *ev;
	uint8_t buf[BUF_MAX_DATA_SIZE];
	unsigned long lens[] = {0,
				1,
				3,
				4,
				5,
				8,
				12,
				100,
				111,
				112,
				113,
				116,
				200,
				1000,
				BUF_MAX_DATA_SIZE - 1,
				BUF_MAX_DATA_SIZE};

	for (unsigned int i = 0; i < ARRAY_SIZE(lens); i++) {
		unsigned long len = lens[i];
		unsigned int cap;

		for (unsigned int j = 0; j < len; j++)
			buf[j] = (uint8_t)(i * 17 + j);
		ev = ring_buffer_lock_reserve(rb, len);
		assert_non_null(ev);
		memcpy(ring_buffer_event_data(ev), buf, len);
		ring_buffer_unlock_commit(rb);

		ev = ring_buffer_consume(rb, 0, NULL, NULL);
		assert_non_null(ev);
		cap = ring_buffer_event_length(ev);
		assert_true(cap >= len && cap >= 1 && cap < (len ? len : 1) + RB_ALIGNMENT);
		assert_memory_equal(ring_buffer_event_data(ev), buf, len);
		assert_int_equal(((uintptr_t)ring_buffer_event_data(ev)) % RB_ALIGNMENT, 0);
		if (RB_ALIGNMENT == 4 && len <= 112) {
			assert_int_equal(ev->type_len, (len ? (len + 3) / 4 : 1));
		} else {
			assert_int_equal(ev->type_len, 0);
			assert_int_equal(ev->array[0], cap + 4);
		}
	}
	/* too large: refused, and not counted as written */
	assert_null(ring_buffer_lock_reserve(rb, BUF_MAX_DATA_SIZE + 1));
	assert_int_equal(ring_buffer_write(rb, BUF_MAX_DATA_SIZE + 1, buf), -E2BIG);
	assert_int_equal(ring_buffer_written_cpu(rb, 0), ARRAY_SIZE(lens));
	assert_identity(rb, 0);
	ring_buffer_free(rb);
}

/* Overwrite mode: when full, the oldest pages go (counted), the newest events stay. */
static void test_overwrite_wraparound(void **state)
{
	(void)state;
	struct ring_buffer *rb = new_rb(4, RB_FL_OVERWRITE, 1);
	struct ring_buffer_event *ev;
	struct check c = {0};
	uint64_t ts, first = 0, last = 0, n = 0, total = 20000;
	unsigned long lost, lost_sum = 0;

	for (uint64_t i = 0; i < total; i++)
		assert_true(tev_write(rb, 0));
	assert_int_equal(ring_buffer_written_cpu(rb, 0), total);
	assert_true(ring_buffer_overrun_cpu(rb, 0) > 0);
	assert_int_equal(ring_buffer_dropped_events_cpu(rb, 0), 0);
	assert_identity(rb, 0);

	unsigned long entries = ring_buffer_entries_cpu(rb, 0);
	while ((ev = ring_buffer_consume(rb, 0, &ts, &lost))) {
		struct tev h;

		assert_true(
			tev_check(ring_buffer_event_data(ev), ring_buffer_event_length(ev), &h));
		if (!n)
			first = h.seq;
		else
			assert_int_equal(h.seq, last + 1); /* no holes after the first survivor */
		last = h.seq;
		lost_sum += lost;
		check_ev(&c, 0, ev, ts);
		n++;
	}
	assert_int_equal(check_bad(&c), 0);
	assert_int_equal(n, entries);
	assert_int_equal(last, total - 1); /* the newest is kept */
	assert_int_equal(first, total - n); /* everything before it was overrun */
	assert_int_equal(ring_buffer_overrun_cpu(rb, 0), total - n);
	assert_int_equal(lost_sum, total - n); /* and reported to the consumer */
	assert_identity(rb, 0);
	ring_buffer_free(rb);
}

/* Producer/consumer mode: when full, new events are refused (counted), the oldest stay. */
static void test_producer_consumer_drops(void **state)
{
	(void)state;
	struct ring_buffer *rb = new_rb(4, 0, 1);
	struct ring_buffer_event *ev;
	uint64_t n = 0, total = 20000, ok = 0;

	assert_false(ring_buffer_overwrite(rb));
	for (uint64_t i = 0; i < total; i++)
		ok += tev_write(rb, 0);
	assert_true(ok < total);
	/* ring_buffer_write says why: the buffer is full, not off, nor the event too big. */
	assert_int_equal(ring_buffer_write(rb, 4, "abcd"), -ENOSPC);
	total += 1; /* the refused write is a dropped event too */
	assert_int_equal(ring_buffer_dropped_events_cpu(rb, 0), total - ok);
	assert_int_equal(ring_buffer_overrun_cpu(rb, 0), 0);
	assert_int_equal(ring_buffer_entries_cpu(rb, 0), ok);
	assert_identity(rb, 0);
	while ((ev = ring_buffer_consume(rb, 0, NULL, NULL))) {
		struct tev h;

		assert_true(
			tev_check(ring_buffer_event_data(ev), ring_buffer_event_length(ev), &h));
		assert_int_equal(h.seq, n); /* the oldest, with no hole */
		n++;
	}
	assert_int_equal(n, ok);
	/* with room again, writing works again */
	assert_true(tev_write(rb, 0));
	assert_non_null(ring_buffer_consume(rb, 0, NULL, NULL));
	assert_identity(rb, 0);

	/* switching modes at run time */
	ring_buffer_change_overwrite(rb, 1);
	for (uint64_t i = 0; i < total; i++)
		assert_true(tev_write(rb, 0));
	assert_true(ring_buffer_overrun_cpu(rb, 0) > 0);
	assert_identity(rb, 0);
	ring_buffer_free(rb);
}

struct expect {
	uint64_t ts[64];
	unsigned int n, got;
	bool bad;
};

static void expect_raw(void *arg, const void *data, unsigned int len, uint64_t ts)
{
	struct expect *e = arg;
	uint32_t idx;

	memcpy(&idx, data, 4);
	if (len < 4 || idx != e->got || idx >= e->n || e->ts[idx] != ts)
		e->bad = true;
	e->got++;
}

/* Deltas of every size, with a clock that jumps (and once goes back): times come out exact. */
static void test_time_extend_and_stamps(void **state)
{
	(void)state;
	struct ring_buffer *rb = new_rb(8, RB_FL_OVERWRITE, 1);
	const uint64_t steps[] = {0,
				  1,
				  (1ULL << 27) - 1,
				  1ULL << 27,
				  (1ULL << 27) + 1,
				  12345,
				  1ULL << 35,
				  3,
				  1ULL << 50,
				  (1ULL << 57) + 77, /* three rounds stay below 2^59 */
				  0,
				  -(uint64_t)1000, /* back in time */
				  5,
				  (1ULL << 40) + 1};
	struct expect e = {0};
	struct raw_stats st = {0};
	struct ring_buffer_iter *iter;
	struct ring_buffer_event *ev;
	void *page;
	uint64_t ts;
	unsigned int i;

	ring_buffer_set_clock(rb, fake_clock);
	fake_now = 1000;
	for (i = 0; i < 3 * ARRAY_SIZE(steps); i++) {
		uint32_t idx = i;
		unsigned int len =
			i % 3 == 2 ? 1500 : 16; /* big ones push records onto new pages */

		fake_now += steps[i % ARRAY_SIZE(steps)];
		e.ts[i] = fake_now;
		ev = ring_buffer_lock_reserve(rb, len);
		assert_non_null(ev);
		memset(ring_buffer_event_data(ev), 0, len);
		memcpy(ring_buffer_event_data(ev), &idx, 4);
		ring_buffer_unlock_commit(rb);
	}
	e.n = i;

	/* the iterator sees the exact times */
	iter = ring_buffer_read_prepare(rb, 0);
	assert_non_null(iter);
	ring_buffer_read_start(iter);
	for (i = 0; (ev = ring_buffer_iter_peek(iter, &ts)); i++) {
		assert_int_equal(ts, e.ts[i]);
		ring_buffer_iter_advance(iter);
	}
	assert_int_equal(i, e.n);
	ring_buffer_read_finish(iter);

	/* so do raw pages, read the way trace-cmd reads them */
	page = ring_buffer_alloc_read_page();
	assert_non_null(page);
	while (ring_buffer_read_page(rb, &page, RB_PAGE_SIZE, 0, 0) > 0)
		assert_true(raw_parse(page, expect_raw, &e, &st, NULL) > 0);
	assert_false(e.bad);
	assert_int_equal(e.got, e.n);
	assert_true(st.extend >= 6); /* deltas of 2^27 and more */
	assert_true(st.stamp >= 1); /* the step back in time */
	ring_buffer_free_read_page(page);

	/* and the consumer: write them again and consume */
	ring_buffer_reset(rb);
	fake_now = 5;
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		fake_now += steps[i];
		e.ts[i] = fake_now;
		assert_int_equal(ring_buffer_write(rb, 4, &i), 0);
	}
	for (i = 0; (ev = ring_buffer_consume(rb, 0, &ts, NULL)); i++)
		assert_int_equal(ts, e.ts[i]);
	assert_int_equal(i, ARRAY_SIZE(steps));
	ring_buffer_free(rb);
}

/*
 * Nesting without signals: a second reserve before the first commit is exactly what an
 * interrupt does. The nested event goes after, nothing is readable until the outermost commit,
 * and pages holding an uncommitted event are never reused.
 */
static void test_nested_reserve(void **state)
{
	(void)state;
	struct ring_buffer *rb = new_rb(4, RB_FL_OVERWRITE, 1);
	struct ring_buffer_event *a, *b, *ev;
	struct check c = {0};
	uint64_t ts_a, ts_b, ts, before, after, nested = 0;
	uint8_t buf[BUF_MAX_DATA_SIZE];

	assert_true(tev_write(rb, 0)); /* something already there */
	assert_non_null(ring_buffer_consume(rb, 0, NULL, NULL));

	before = counter_clock();
	a = ring_buffer_lock_reserve(rb, 100);
	after = counter_clock();
	assert_non_null(a);
	ws.next[0] = 1;
	assert_true(tev_write(rb, 1)); /* "interrupt" */
	assert_null(ring_buffer_peek(rb, 0, NULL, NULL)); /* A is not committed: nothing shows */
	tev_fill(buf, 100, 0, 0, 1, before, after);
	memcpy(ring_buffer_event_data(a), buf, 100);
	ring_buffer_unlock_commit(rb);

	ev = ring_buffer_consume(rb, 0, &ts_a, NULL);
	assert_ptr_equal(ev, a);
	check_ev(&c, 0, ev, ts_a);
	ev = ring_buffer_consume(rb, 0, &ts_b, NULL);
	assert_non_null(ev);
	check_ev(&c, 0, ev, ts_b);
	assert_int_equal(c.seen[0][1], 1);
	assert_true(ts_a < ts_b);
	assert_null(ring_buffer_consume(rb, 0, NULL, NULL));

	/* Three deep, twice. */
	a = ring_buffer_lock_reserve(rb, 8);
	b = ring_buffer_lock_reserve(rb, 8);
	assert_true(tev_write(rb, 2));
	ring_buffer_unlock_commit(rb); /* b */
	assert_true(tev_write(rb, 2));
	assert_null(ring_buffer_peek(rb, 0, NULL, NULL));
	ring_buffer_unlock_commit(rb); /* a */
	assert_ptr_equal(ring_buffer_consume(rb, 0, NULL, NULL), a);
	assert_ptr_equal(ring_buffer_consume(rb, 0, NULL, NULL), b);
	for (int i = 0; i < 2; i++) {
		assert_non_null(ev = ring_buffer_consume(rb, 0, &ts, NULL));
		check_ev(&c, 0, ev, ts);
	}
	assert_null(ring_buffer_consume(rb, 0, NULL, NULL));

	/* An interrupted writer pins its page: nested writers fill the rest, then are refused. */
	before = counter_clock();
	a = ring_buffer_lock_reserve(rb, 100);
	after = counter_clock();
	assert_non_null(a);
	while (tev_write(rb, 1))
		nested++;
	assert_true(nested > 4);
	assert_int_equal(ring_buffer_commit_overrun_cpu(rb, 0), 1);
	assert_false(tev_write(rb, 2));
	assert_int_equal(ring_buffer_commit_overrun_cpu(rb, 0), 2);
	tev_fill(buf, 100, 0, 0, 2, before, after);
	memcpy(ring_buffer_event_data(a), buf, 100);
	ring_buffer_unlock_commit(rb);
	assert_identity(rb, 0);

	/* the pinned event survived and comes first; everything is intact and in order */
	ev = ring_buffer_consume(rb, 0, &ts, NULL);
	assert_ptr_equal(ev, a);
	check_ev(&c, 0, ev, ts);
	while ((ev = ring_buffer_consume(rb, 0, &ts, NULL)))
		check_ev(&c, 0, ev, ts);
	assert_int_equal(check_bad(&c), 0);
	assert_int_equal(ring_buffer_overrun_cpu(rb, 0), 0); /* all older events were read */
	/* read: the first tev_write, a and b, and every event checked */
	assert_int_equal(ring_buffer_read_events_cpu(rb, 0), 1 + 2 + check_seen(&c, 0));
	assert_int_equal(check_seen(&c, 0), 2 + ws.ok[1] + ws.ok[2]);
	assert_identity(rb, 0);
	ring_buffer_free(rb);
}

/* The trace file: iterators do not consume, merge CPUs by time, stop where the writer was. */
static void test_iterator_and_merge(void **state)
{
	(void)state;
	struct ring_buffer *rb = new_rb(16, RB_FL_OVERWRITE, 3);
	struct ring_buffer_iter *iters[3];
	struct ring_buffer_event *ev;
	struct check c = {0};
	uint64_t ts, n = 0;
	int which, cpu;
	unsigned long lost;

	for (int i = 0; i < 900; i++) {
		this_cpu = (i * 7) % 3;
		assert_true(tev_write(rb, 0));
	}
	this_cpu = 0;
	for (int i = 0; i < 3; i++) {
		iters[i] = ring_buffer_read_prepare(rb, i);
		assert_non_null(iters[i]);
		ring_buffer_read_start(iters[i]);
		assert_int_equal(ring_buffer_iter_cpu(iters[i]), i);
	}
	assert_null(ring_buffer_read_prepare(rb, 3));
	this_cpu = 1;
	assert_true(tev_write(rb, 0)); /* after read_start: not shown */
	this_cpu = 0;

	while ((ev = ring_buffer_iter_peek_oldest(iters, 3, &which, &ts))) {
		check_ev(&c, which, ev, ts);
		if (ts <= c.last_merged_ts)
			c.bad_merge++;
		c.last_merged_ts = ts;
		ring_buffer_iter_advance(iters[which]);
		n++;
	}
	assert_int_equal(n, 900);
	assert_int_equal(check_bad(&c), 0);
	assert_int_equal(ring_buffer_entries(rb), 901); /* nothing consumed */
	for (int i = 0; i < 3; i++)
		assert_true(ring_buffer_iter_empty(iters[i]));

	/* the consumer goes ahead of an iterator: the iterator continues from there */
	ring_buffer_iter_reset(iters[1]);
	assert_non_null(ring_buffer_iter_peek(iters[1], NULL));
	for (int i = 0; i < 150; i++)
		assert_non_null(ring_buffer_consume(rb, 1, NULL, NULL));
	ring_buffer_iter_advance(iters[1]);
	ev = ring_buffer_iter_peek(iters[1], &ts);
	assert_non_null(ev);
	assert_ptr_not_equal(ev, ring_buffer_peek(rb, 1, NULL, NULL)); /* a copy... */
	uint64_t cts;
	ring_buffer_peek(rb, 1, &cts, NULL);
	assert_int_equal(ts, cts); /* ... of the consumer's next event */

	/* consuming merge */
	memset(&c, 0, sizeof(c));
	n = 0;
	while ((ev = ring_buffer_peek_oldest(rb, &cpu, &ts, &lost))) {
		check_ev(&c, cpu, ev, ts);
		if (ts <= c.last_merged_ts)
			c.bad_merge++;
		c.last_merged_ts = ts;
		assert_ptr_equal(ring_buffer_consume(rb, cpu, NULL, NULL), ev);
		n++;
	}
	assert_int_equal(n, 901 - 150);
	assert_int_equal(check_bad(&c), 0);
	assert_true(ring_buffer_empty(rb));
	for (int i = 0; i < 3; i++)
		ring_buffer_read_finish(iters[i]);
	ring_buffer_free(rb);
}

/* An iterator whose pages are overwritten under it skips them, and says so. */
static void test_iterator_overwritten(void **state)
{
	(void)state;
	struct ring_buffer *rb = new_rb(4, RB_FL_OVERWRITE, 1);
	struct ring_buffer_iter *iter = ring_buffer_read_prepare(rb, 0);
	struct ring_buffer_event *ev;
	struct check c = {0};
	uint64_t ts;

	assert_non_null(iter);
	for (int i = 0; i < 300; i++)
		assert_true(tev_write(rb, 0));
	ring_buffer_read_start(iter);
	ev = ring_buffer_iter_peek(iter, &ts);
	assert_non_null(ev);
	check_ev(&c, 0, ev, ts);
	ring_buffer_iter_advance(iter);
	assert_false(ring_buffer_iter_dropped(iter));
	for (int i = 0; i < 3000; i++)
		assert_true(tev_write(rb, 0));
	while ((ev = ring_buffer_iter_peek(iter, &ts))) {
		check_ev(&c, 0, ev, ts);
		ring_buffer_iter_advance(iter);
	}
	assert_true(ring_buffer_iter_dropped(iter));
	assert_false(ring_buffer_iter_dropped(iter)); /* said once */
	assert_int_equal(check_bad(&c), 0);

	/* after a reset the iterator starts again, empty */
	ring_buffer_reset_cpu(rb, 0);
	assert_null(ring_buffer_iter_peek(iter, NULL));
	ring_buffer_read_finish(iter);
	ring_buffer_free(rb);
}

struct raw_check {
	struct check *c;
	int cpu;
};

static void raw_to_check(void *arg, const void *data, unsigned int len, uint64_t ts)
{
	struct raw_check *r = arg;

	check_event(r->c, r->cpu, data, len, ts);
}

/* trace_pipe_raw: whole pages in Linux's format, with missed events flagged. */
static void test_read_page(void **state)
{
	(void)state;
	struct ring_buffer *rb = new_rb(8, RB_FL_OVERWRITE, 1);
	void *page = ring_buffer_alloc_read_page();
	struct check c = {0};
	struct raw_check r = {&c, 0};
	uint64_t missed, total_missed = 0, got = 0;
	int ret;

	assert_non_null(page);
	assert_int_equal(ring_buffer_read_page(rb, &page, RB_PAGE_SIZE, 0, 0), -EAGAIN);
	assert_int_equal(ring_buffer_read_page(rb, &page, 8, 0, 0), -EINVAL);
	for (int i = 0; i < 10; i++)
		assert_true(tev_write(rb, 0));
	/* full: the writer is still on the oldest page */
	assert_int_equal(ring_buffer_read_page(rb, &page, RB_PAGE_SIZE, 0, 1), -EAGAIN);
	/* a small len takes fewer records */
	ret = ring_buffer_read_page(rb, &page, 300, 0, 0);
	assert_true(ret > 0 && ret <= 300 - BUF_PAGE_HDR_SIZE);
	ret = raw_parse(page, raw_to_check, &r, NULL, &missed);
	assert_true(ret > 0 && ret < 10);
	assert_int_equal(missed, 0);
	got += ret;
	while (ring_buffer_read_page(rb, &page, RB_PAGE_SIZE, 0, 0) > 0)
		got += raw_parse(page, raw_to_check, &r, NULL, NULL);
	assert_int_equal(got, 10);

	/* overrun: pages after the loss say how many were missed */
	for (int i = 0; i < 5000; i++)
		assert_true(tev_write(rb, 0));
	assert_true(ring_buffer_read_page(rb, &page, RB_PAGE_SIZE, 0, 1) > 0); /* full page */
	do {
		ret = raw_parse(page, raw_to_check, &r, NULL, &missed);
		assert_true(ret > 0);
		got += ret;
		assert_true(missed != ~0ULL); /* always room for the count here */
		total_missed += missed;
	} while (ring_buffer_read_page(rb, &page, RB_PAGE_SIZE, 0, 0) > 0);
	assert_int_equal(check_bad(&c), 0);
	assert_true(total_missed > 0);
	assert_int_equal(got, ring_buffer_read_events_cpu(rb, 0));
	assert_int_equal(total_missed, ring_buffer_overrun_cpu(rb, 0));
	assert_int_equal(got + total_missed, 5010);
	assert_identity(rb, 0);
	ring_buffer_free_read_page(page);
	ring_buffer_free(rb);
}

/* tracing_on: off/on is a switch, disable/enable nest; nothing is counted while off. */
static void test_record_on_off(void **state)
{
	(void)state;
	struct ring_buffer *rb = new_rb(4, RB_FL_OVERWRITE, 2);

	assert_true(ring_buffer_record_is_on(rb));
	ring_buffer_record_off(rb);
	assert_false(ring_buffer_record_is_on(rb));
	assert_false(ring_buffer_record_is_set_on(rb));
	assert_int_equal(ring_buffer_write(rb, 4, "abcd"), -EBUSY);
	ring_buffer_record_on(rb);
	assert_int_equal(ring_buffer_write(rb, 4, "abcd"), 0);

	ring_buffer_record_disable(rb);
	ring_buffer_record_disable(rb);
	ring_buffer_record_enable(rb);
	assert_false(ring_buffer_record_is_on(rb));
	assert_true(ring_buffer_record_is_set_on(rb));
	assert_int_equal(ring_buffer_write(rb, 4, "abcd"), -EBUSY);
	ring_buffer_record_enable(rb);
	assert_true(ring_buffer_record_is_on(rb));

	ring_buffer_record_disable_cpu(rb, 0);
	assert_int_equal(ring_buffer_write(rb, 4, "abcd"), -EBUSY);
	this_cpu = 1;
	assert_int_equal(ring_buffer_write(rb, 4, "abcd"), 0);
	this_cpu = 0;
	ring_buffer_record_enable_cpu(rb, 0);
	assert_int_equal(ring_buffer_write(rb, 4, "abcd"), 0);
	assert_int_equal(ring_buffer_written_cpu(rb, 0), 2);
	assert_int_equal(ring_buffer_entries(rb), 3);
	ring_buffer_free(rb);
}

/* reset empties; resize changes the size, or on -ENOMEM changes nothing at all. */
static void test_reset_and_resize(void **state)
{
	(void)state;
	long live = host_kmalloc_live;
	struct ring_buffer *rb;
	int fails = 0;

	/* every allocation failure while allocating: NULL, nothing leaked */
	for (int k = 1;; k++) {
		host_kmalloc_fail_at = k;
		rb = ring_buffer_alloc(3 * BUF_PAGE_SIZE, RB_FL_OVERWRITE, 2);
		host_kmalloc_fail_at = 0;
		if (rb)
			break;
		assert_int_equal(host_kmalloc_live, live);
		fails++;
	}
	assert_true(fails >= 10);
	ring_buffer_set_clock(rb, counter_clock);
	this_cpu = 0;
	assert_int_equal(ring_buffer_size(rb, 0), 3 * BUF_PAGE_SIZE);
	assert_int_equal(ring_buffer_size(rb, 1), 3 * BUF_PAGE_SIZE);

	for (int i = 0; i < 20; i++)
		assert_true(tev_write(rb, 0));
	ring_buffer_reset_cpu(rb, 0);
	assert_int_equal(ring_buffer_entries_cpu(rb, 0), 0);
	assert_int_equal(ring_buffer_written_cpu(rb, 0), 0);
	assert_null(ring_buffer_consume(rb, 0, NULL, NULL));
	for (int i = 0; i < 20; i++)
		assert_true(tev_write(rb, 0));

	/* every failure point of a resize leaves buffer and contents as they were */
	long before = host_kmalloc_live;
	for (int k = 1;; k++) {
		int ret;

		host_kmalloc_fail_at = k;
		ret = ring_buffer_resize(rb, 10 * BUF_PAGE_SIZE, RING_BUFFER_ALL_CPUS);
		host_kmalloc_fail_at = 0;
		if (!ret)
			break;
		assert_int_equal(ret, -ENOMEM);
		assert_int_equal(host_kmalloc_live, before);
		assert_int_equal(ring_buffer_size(rb, 0), 3 * BUF_PAGE_SIZE);
		assert_int_equal(ring_buffer_entries_cpu(rb, 0), 20);
	}
	assert_int_equal(ring_buffer_size(rb, 0), 10 * BUF_PAGE_SIZE);
	assert_int_equal(ring_buffer_size(rb, 1), 10 * BUF_PAGE_SIZE);
	assert_int_equal(ring_buffer_entries_cpu(rb, 0), 0); /* contents discarded */
	for (int i = 0; i < 2000; i++)
		assert_true(tev_write(rb, 0));
	assert_identity(rb, 0);

	/* one CPU only; same size keeps the contents; bad arguments */
	assert_int_equal(ring_buffer_resize(rb, 2 * BUF_PAGE_SIZE, 1), 0);
	assert_int_equal(ring_buffer_size(rb, 1), 2 * BUF_PAGE_SIZE);
	assert_int_equal(ring_buffer_size(rb, 0), 10 * BUF_PAGE_SIZE);
	unsigned long entries = ring_buffer_entries_cpu(rb, 0);
	assert_int_equal(ring_buffer_resize(rb, 10 * BUF_PAGE_SIZE, 0), 0);
	assert_int_equal(ring_buffer_entries_cpu(rb, 0), entries);
	assert_int_equal(ring_buffer_resize(rb, 1, 0), 0); /* rounds up to 2 pages */
	assert_int_equal(ring_buffer_size(rb, 0), 2 * BUF_PAGE_SIZE);
	assert_int_equal(ring_buffer_resize(rb, 4096, 2), -EINVAL);
	assert_int_equal(ring_buffer_resize(rb, 70000UL * BUF_PAGE_SIZE, 0), -ENOMEM);
	/* Sizes whose rounding up to pages would wrap: too big, not two pages. */
	assert_int_equal(ring_buffer_resize(rb, ~0UL, 0), -ENOMEM);
	assert_int_equal(ring_buffer_resize(rb, ~0UL - 1023, RING_BUFFER_ALL_CPUS), -ENOMEM);
	assert_null(ring_buffer_alloc(~0UL, RB_FL_OVERWRITE, 2));
	assert_int_equal(ring_buffer_size(rb, 0), 2 * BUF_PAGE_SIZE);
	assert_int_equal(ring_buffer_size(rb, 1), 2 * BUF_PAGE_SIZE);
	for (int i = 0; i < 2000; i++)
		assert_true(tev_write(rb, 0));
	assert_identity(rb, 0);
	ring_buffer_reset(rb);
	assert_true(ring_buffer_empty(rb));
	ring_buffer_free(rb);
	assert_int_equal(host_kmalloc_live, live);
}

/* ---- Concurrency: signals as interrupts, threads as CPUs ------------------------------- */

static struct ring_buffer *sig_rb;

static void on_irq(int sig)
{
	int saved = errno;

	(void)sig;
	if (ws.busy[0])
		ws.hits_window++;
	tev_write(sig_rb, 1);
	if (ws.next[1] % 3 == 0)
		tev_write(sig_rb, 1);
	errno = saved;
}

static void on_nmi(int sig)
{
	int saved = errno;

	(void)sig;
	if (ws.busy[1])
		ws.hits_nested++;
	tev_write(sig_rb, 2);
	errno = saved;
}

static void install_handlers(struct ring_buffer *rb)
{
	struct sigaction sa;

	sig_rb = rb;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_irq;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask); /* the "nmi" may come in during the "irq" */
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_nmi;
	sigaddset(&sa.sa_mask, SIGUSR1);
	sigaction(SIGUSR2, &sa, NULL);
}

struct stress {
	struct ring_buffer *rb;
	int nr_cpus;
	uint64_t per_cpu; /* task events each writer writes */
	unsigned int work; /* loop iterations between two of them */
	pthread_t writers[NCPU_MAX];
	int writers_done; /* writers finished writing */
	int irq_stop, release; /* the interrupter stopped; writers may exit */
	int readers_stop;
	uint64_t swaps, swaps_needed; /* by test_swap_while_writing's swapper; 0 elsewhere */
	uint64_t signals;
	/* per CPU, from the writers' own counts */
	uint64_t ok[NCPU_MAX][3], fail[NCPU_MAX][3], hits_window, hits_nested;
	/* the consumer and the iterator */
	struct check consumed;
	uint64_t raw_pages;
	bool lost_unknown;
	void *page;
	struct ring_buffer_iter *iters[NCPU_MAX];
	struct check iterated; /* bad counts summed over passes */
	uint64_t iter_passes, iter_events, iter_dropped;
};

#define MIN_HITS (1000 / QUICK)
#define WRITER_DEADLINE_S 30.0 /* at most, waiting for MIN_HITS */

struct writer_arg {
	struct stress *s;
	int cpu;
};

static void *writer_main(void *p)
{
	struct writer_arg *a = p;
	struct stress *s = a->s;

	sigset_t block;

	/* Created with the signals blocked: take them only once we are this CPU. */
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);
	this_cpu = a->cpu;
	memset(&ws, 0, sizeof(ws));
	pthread_sigmask(SIG_UNBLOCK, &block, NULL);
	/* The quota, then on until enough interrupts landed inside writes (and, when a swapper
	 * runs, enough swaps happened): a loaded host delivers fewer signals and schedules the
	 * swapper less, so this may take long, but a test that did not nest or swap proves
	 * nothing. The deadline only keeps a broken signal setup from hanging the run. */
	double deadline = now_sec() + WRITER_DEADLINE_S;

	for (uint64_t i = 0;; i++) {
		bool enough = ws.hits_window >= MIN_HITS &&
			      __atomic_load_n(&s->swaps, __ATOMIC_RELAXED) >= s->swaps_needed;

		if (i >= s->per_cpu && (enough || (i % 1024 == 0 && now_sec() > deadline)))
			break;
		tev_write(s->rb, 0);
		for (volatile unsigned int k = 0; k < s->work; k++)
			;
	}
	__atomic_add_fetch(&s->writers_done, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&s->release, __ATOMIC_ACQUIRE))
		sched_yield();
	/* Signals sent before the interrupter stopped may still be pending: keep them out. */
	pthread_sigmask(SIG_BLOCK, &block, NULL);
	for (int c = 0; c < 3; c++) {
		s->ok[a->cpu][c] = ws.ok[c];
		s->fail[a->cpu][c] = ws.fail[c];
	}
	__atomic_add_fetch(&s->hits_window, ws.hits_window, __ATOMIC_RELAXED);
	__atomic_add_fetch(&s->hits_nested, ws.hits_nested, __ATOMIC_RELAXED);
	return NULL;
}

static void *interrupter_main(void *p)
{
	struct stress *s = p;
	uint64_t n = 0;

	while (!__atomic_load_n(&s->irq_stop, __ATOMIC_ACQUIRE)) {
		for (int c = 0; c < s->nr_cpus; c++) {
			pthread_kill(s->writers[c], SIGUSR1);
			if (n % 3 == 0)
				pthread_kill(s->writers[c], SIGUSR2);
		}
		n++;
	}
	s->signals = n;
	return NULL;
}

/* trace_pipe: consumes every CPU, now event by event, now a raw page at a time. */
static void *consumer_main(void *p)
{
	struct stress *s = p;
	struct raw_check r = {&s->consumed, 0};
	uint64_t round = 0;

	this_cpu = NCPU_MAX; /* a CPU with no buffer: this thread never writes */
	for (;;) {
		bool done = __atomic_load_n(&s->readers_stop, __ATOMIC_ACQUIRE), any = false;

		for (int cpu = 0; cpu < s->nr_cpus; cpu++, round++) {
			struct ring_buffer_event *ev;
			unsigned long lost;
			uint64_t ts;

			if (round % 5 == 4) {
				r.cpu = cpu;
				if (ring_buffer_read_page(s->rb, &s->page, RB_PAGE_SIZE, cpu, 0) >
				    0) {
					uint64_t missed;

					if (raw_parse(s->page, raw_to_check, &r, NULL, &missed) < 0)
						s->consumed.bad_sum++;
					if (missed == ~0ULL)
						s->lost_unknown = true; /* no room for the count */
					else
						s->consumed.lost += missed;
					s->raw_pages++;
					any = true;
				}
				continue;
			}
			for (int k = 0; k < 200; k++) {
				ev = ring_buffer_consume(s->rb, cpu, &ts, &lost);
				if (!ev)
					break;
				check_ev(&s->consumed, cpu, ev, ts);
				s->consumed.lost += lost;
				any = true;
			}
		}
		if (done && !any)
			return NULL; /* writers were done before this full, empty round */
	}
}

/* The trace file, over and over: merged iterators over every CPU, each pass checked. */
static void *iterator_main(void *p)
{
	struct stress *s = p;

	this_cpu = NCPU_MAX;
	while (!__atomic_load_n(&s->readers_stop, __ATOMIC_ACQUIRE)) {
		struct check c = {0};
		struct ring_buffer_event *ev;
		uint64_t ts;
		int which;

		for (int cpu = 0; cpu < s->nr_cpus; cpu++)
			ring_buffer_read_start(s->iters[cpu]);
		for (int k = 0; k < 20000; k++) {
			ev = ring_buffer_iter_peek_oldest(s->iters, s->nr_cpus, &which, &ts);
			if (!ev)
				break;
			check_ev(&c, which, ev, ts);
			if (ts <= c.last_merged_ts)
				c.bad_merge++;
			c.last_merged_ts = ts;
			ring_buffer_iter_advance(s->iters[which]);
			s->iter_events++;
		}
		s->iterated.bad_sum += c.bad_sum;
		s->iterated.bad_cpu += c.bad_cpu;
		s->iterated.bad_seq += c.bad_seq;
		s->iterated.bad_time += c.bad_time;
		s->iterated.bad_ts_order += c.bad_ts_order;
		s->iterated.bad_merge += c.bad_merge;
		for (int cpu = 0; cpu < s->nr_cpus; cpu++)
			s->iter_dropped += ring_buffer_iter_dropped(s->iters[cpu]);
		s->iter_passes++;
	}
	return NULL;
}

static void run_stress(int nr_cpus, unsigned int pages, unsigned int flags, uint64_t per_cpu,
		       unsigned int work, bool iterate, const char *name)
{
	struct stress *s = calloc(1, sizeof(*s));
	struct writer_arg args[NCPU_MAX];
	pthread_t irq, consumer, iterator;
	sigset_t block, old_mask;
	uint64_t total_seen = 0, total_written = 0;
	double t0 = now_sec(), t;

	per_cpu /= QUICK;
	assert_non_null(s);
	s->rb = ring_buffer_alloc(pages * BUF_PAGE_SIZE, flags, nr_cpus);
	assert_non_null(s->rb);
	ring_buffer_set_clock(s->rb, counter_clock);
	s->nr_cpus = nr_cpus;
	s->per_cpu = per_cpu;
	s->work = work;
	s->page = ring_buffer_alloc_read_page();
	assert_non_null(s->page);
	for (int c = 0; c < nr_cpus; c++) {
		s->iters[c] = ring_buffer_read_prepare(s->rb, c);
		assert_non_null(s->iters[c]);
	}
	install_handlers(s->rb);

	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &block, &old_mask); /* inherited by the writers */
	for (int c = 0; c < nr_cpus; c++) {
		args[c] = (struct writer_arg){s, c};
		assert_int_equal(pthread_create(&s->writers[c], NULL, writer_main, &args[c]), 0);
	}
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	assert_int_equal(pthread_create(&irq, NULL, interrupter_main, s), 0);
	assert_int_equal(pthread_create(&consumer, NULL, consumer_main, s), 0);
	if (iterate)
		assert_int_equal(pthread_create(&iterator, NULL, iterator_main, s), 0);

	while (__atomic_load_n(&s->writers_done, __ATOMIC_ACQUIRE) < nr_cpus)
		usleep(1000);
	__atomic_store_n(&s->irq_stop, 1, __ATOMIC_RELEASE);
	pthread_join(irq, NULL);
	__atomic_store_n(&s->release, 1, __ATOMIC_RELEASE);
	for (int c = 0; c < nr_cpus; c++)
		pthread_join(s->writers[c], NULL);
	__atomic_store_n(&s->readers_stop, 1, __ATOMIC_RELEASE);
	pthread_join(consumer, NULL);
	if (iterate)
		pthread_join(iterator, NULL);
	t = now_sec() - t0;

	/* every event read was intact, in order, well timed */
	assert_int_equal(s->consumed.bad_sum, 0);
	assert_int_equal(s->consumed.bad_cpu, 0);
	assert_int_equal(s->consumed.bad_seq, 0);
	assert_int_equal(s->consumed.bad_time, 0);
	assert_int_equal(s->consumed.bad_ts_order, 0);
	assert_int_equal(check_bad(&s->iterated), 0);

	/* and everything written is accounted for, exactly */
	for (int c = 0; c < nr_cpus; c++) {
		uint64_t ok = 0, fail = 0, seen = check_seen(&s->consumed, c);
		unsigned long w = ring_buffer_written_cpu(s->rb, c);
		unsigned long o = ring_buffer_overrun_cpu(s->rb, c);
		unsigned long d = ring_buffer_dropped_events_cpu(s->rb, c);
		unsigned long co = ring_buffer_commit_overrun_cpu(s->rb, c);

		for (int x = 0; x < 3; x++) {
			ok += s->ok[c][x];
			fail += s->fail[c][x];
			assert_true(s->consumed.seen[c][x] <= s->ok[c][x]);
		}
		assert_int_equal(ring_buffer_entries_cpu(s->rb, c), 0);
		assert_int_equal(ring_buffer_read_events_cpu(s->rb, c), seen);
		assert_int_equal(w, ok + fail);
		assert_int_equal(fail, d + co);
		assert_int_equal(ok, seen + o);
		assert_identity(s->rb, c);
		if (!(flags & RB_FL_OVERWRITE))
			assert_int_equal(o, 0);
		total_seen += seen;
		total_written += w;
	}
	if ((flags & RB_FL_OVERWRITE) && !s->lost_unknown) {
		uint64_t o = 0;

		for (int c = 0; c < nr_cpus; c++)
			o += ring_buffer_overrun_cpu(s->rb, c);
		assert_int_equal(s->consumed.lost, o); /* the consumer was told of every loss */
	}
#ifndef __SANITIZE_THREAD__ /* TSan delivers signals late, at its own safe points */
	assert_true(s->hits_window > 100); /* interrupts did land inside writes */
#endif
	print_message("    %s: %.2fs, %lu written, %lu read (%lu raw pages), %lu signals, "
		      "%lu inside a write, %lu three deep, %lu iterator passes (%lu events, "
		      "%lu overwritten under it)\n",
		      name, t, (unsigned long)total_written, (unsigned long)total_seen,
		      (unsigned long)s->raw_pages, (unsigned long)s->signals,
		      (unsigned long)s->hits_window, (unsigned long)s->hits_nested,
		      (unsigned long)s->iter_passes, (unsigned long)s->iter_events,
		      (unsigned long)s->iter_dropped);

	for (int c = 0; c < nr_cpus; c++)
		ring_buffer_read_finish(s->iters[c]);
	ring_buffer_free_read_page(s->page);
	ring_buffer_free(s->rb);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
	free(s);
}

/* One CPU, interrupts and NMIs writing inside its writes, a consumer on another CPU. */
static void test_nested_signals_overwrite(void **state)
{
	(void)state;
	run_stress(1, 8, RB_FL_OVERWRITE, 1000000 * scale(), 0, false, "nested, overwrite");
}

static void test_nested_signals_producer_consumer(void **state)
{
	(void)state;
	run_stress(1, 8, 0, 500000 * scale(), 100, false, "nested, producer/consumer");
}

/* Several CPUs writing with interrupts, a consumer and an iterator reading all along. */
static void test_multi_cpu_concurrent(void **state)
{
	(void)state;
	run_stress(3, 6, RB_FL_OVERWRITE, 300000 * scale(), 0, true, "3 CPUs, overwrite");
	run_stress(2, 6, 0, 200000 * scale(), 300, true, "2 CPUs, producer/consumer");
}

/* ---- Swapping (the snapshot file) ---------------------------------------------------- */

/* The snapshot swap, single-threaded: contents, counters and sizes trade places. */
static void test_swap_basic(void **state)
{
	(void)state;
	struct ring_buffer *a = new_rb(4, RB_FL_OVERWRITE, 2), *b = new_rb(8, RB_FL_OVERWRITE, 2);
	struct ring_buffer *c = new_rb(4, RB_FL_OVERWRITE, 3);
	struct check ca = {0}, cb = {0};
	struct ring_buffer_event *ev;
	uint64_t ts;

	for (int i = 0; i < 30; i++)
		assert_true(tev_write(a, 0));
	assert_int_equal(ring_buffer_swap(a, c), -EINVAL); /* CPU counts differ */
	assert_int_equal(ring_buffer_swap(a, a), -EINVAL);
	assert_int_equal(ring_buffer_swap(a, b), 0);
	assert_int_equal(ring_buffer_entries_cpu(a, 0), 0);
	assert_int_equal(ring_buffer_entries_cpu(b, 0), 30);
	assert_int_equal(ring_buffer_written_cpu(b, 0), 30);
	assert_int_equal(ring_buffer_size(a, 0), 8 * BUF_PAGE_SIZE);
	assert_int_equal(ring_buffer_size(b, 0), 4 * BUF_PAGE_SIZE);
	/* a records on; b keeps what it got */
	for (int i = 0; i < 10; i++)
		assert_true(tev_write(a, 0));
	while ((ev = ring_buffer_consume(b, 0, &ts, NULL)))
		check_ev(&cb, 0, ev, ts);
	while ((ev = ring_buffer_consume(a, 0, &ts, NULL)))
		check_ev(&ca, 0, ev, ts);
	assert_int_equal(check_bad(&cb), 0);
	assert_int_equal(check_bad(&ca), 0);
	assert_int_equal(cb.seen[0][0], 30);
	assert_int_equal(ca.seen[0][0], 10);
	assert_true(ca.last_seq[0][0] > cb.last_seq[0][0]);
	assert_identity(a, 0);
	assert_identity(b, 0);
	ring_buffer_free(a);
	ring_buffer_free(b);
	ring_buffer_free(c);
}

/* One CPU's part only (per_cpu/cpuN/snapshot): the other CPUs' parts stay where they were. */
static void test_swap_cpu(void **state)
{
	(void)state;
	struct ring_buffer *a = new_rb(4, RB_FL_OVERWRITE, 2), *b = new_rb(4, RB_FL_OVERWRITE, 2);
	struct ring_buffer *big = new_rb(8, RB_FL_OVERWRITE, 2);

	for (int i = 0; i < 5; i++)
		assert_true(tev_write(a, 0));
	this_cpu = 1;
	for (int i = 0; i < 7; i++)
		assert_true(tev_write(a, 0));
	this_cpu = 0;
	assert_int_equal(ring_buffer_swap_cpu(a, big, 1), -EINVAL); /* sizes differ */
	assert_int_equal(ring_buffer_swap_cpu(a, b, 2), -EINVAL);   /* no such CPU */
	assert_int_equal(ring_buffer_swap_cpu(a, a, 1), -EINVAL);
	assert_int_equal(ring_buffer_entries_cpu(a, 1), 7); /* the refusals changed nothing */
	assert_int_equal(ring_buffer_swap_cpu(a, b, 1), 0);
	assert_int_equal(ring_buffer_entries_cpu(a, 0), 5);
	assert_int_equal(ring_buffer_entries_cpu(a, 1), 0);
	assert_int_equal(ring_buffer_entries_cpu(b, 0), 0);
	assert_int_equal(ring_buffer_entries_cpu(b, 1), 7);
	/* a records on CPU 1 into its new, empty part */
	this_cpu = 1;
	assert_true(tev_write(a, 0));
	this_cpu = 0;
	assert_int_equal(ring_buffer_entries_cpu(a, 1), 1);
	assert_int_equal(ring_buffer_entries_cpu(b, 1), 7);
	ring_buffer_free(a);
	ring_buffer_free(b);
	ring_buffer_free(big);
}

/*
 * The latency tracers' swaps (from where a section ends, interrupts off): never wait for a
 * writer of the calling CPU's part, give up instead (-EBUSY), everything as it was.
 */
static void test_swap_nowait(void **state)
{
	(void)state;
	struct ring_buffer *a = new_rb(4, RB_FL_OVERWRITE, 2), *b = new_rb(4, RB_FL_OVERWRITE, 2);
	struct ring_buffer *big = new_rb(8, RB_FL_OVERWRITE, 2);
	struct ring_buffer_event *ev;

	for (int i = 0; i < 5; i++)
		assert_true(tev_write(a, 0));
	assert_int_equal(ring_buffer_swap_cpu_nowait(a, big, 0), -EINVAL); /* sizes differ */
	assert_int_equal(ring_buffer_swap_cpu_nowait(a, b, 2), -EINVAL);   /* no such CPU */
	/* A write in progress on this CPU (an interrupted writer): refused, nothing moved. */
	ev = ring_buffer_lock_reserve(a, 8);
	assert_non_null(ev);
	assert_int_equal(ring_buffer_swap_cpu_nowait(b, a, 0), -EBUSY);
	assert_int_equal(ring_buffer_swap_nowait(b, a), -EBUSY);
	ring_buffer_unlock_commit(a);
	assert_int_equal(ring_buffer_entries_cpu(a, 0), 6);
	assert_int_equal(ring_buffer_entries_cpu(b, 0), 0);
	/* Writers take their part again after a refusal. */
	assert_true(tev_write(a, 0));
	assert_int_equal(ring_buffer_entries_cpu(a, 0), 7);
	assert_int_equal(ring_buffer_swap_cpu_nowait(b, a, 0), 0);
	assert_int_equal(ring_buffer_entries_cpu(a, 0), 0);
	assert_int_equal(ring_buffer_entries_cpu(b, 0), 7);
	this_cpu = 1;
	assert_true(tev_write(a, 0));
	this_cpu = 0;
	assert_int_equal(ring_buffer_swap_nowait(b, a), 0); /* every CPU's part */
	assert_int_equal(ring_buffer_entries_cpu(a, 0), 7);
	assert_int_equal(ring_buffer_entries_cpu(b, 0), 0);
	assert_int_equal(ring_buffer_entries_cpu(b, 1), 1);
	assert_true(tev_write(a, 0)); /* and a records on */
	assert_int_equal(ring_buffer_entries_cpu(a, 0), 8);
	ring_buffer_free(a);
	ring_buffer_free(b);
	ring_buffer_free(big);
}

/* The latency format's delay mark: the time of the event after the current one, in place. */
static void test_iter_peek_after(void **state)
{
	(void)state;
	struct ring_buffer *rb = new_rb(4, RB_FL_OVERWRITE, 1);
	struct ring_buffer_iter *it;
	uint64_t ts[3], t, next;
	int n = 0;

	for (int i = 0; i < 3; i++)
		assert_true(tev_write(rb, 0));
	it = ring_buffer_read_prepare(rb, 0);
	assert_non_null(it);
	ring_buffer_read_start(it);
	while (ring_buffer_iter_peek(it, &ts[n])) {
		struct ring_buffer_event *ev = ring_buffer_iter_peek(it, NULL);
		uint32_t first = *(uint32_t *)ring_buffer_event_data(ev);
		bool found = ring_buffer_iter_peek_after(it, &next);

		/* Still on the same event, with the same contents. */
		assert_non_null(ring_buffer_iter_peek(it, &t));
		assert_int_equal(t, ts[n]);
		assert_int_equal(
			*(uint32_t *)ring_buffer_event_data(ring_buffer_iter_peek(it, NULL)),
			first);
		assert_int_equal(found, n < 2);
		ring_buffer_iter_advance(it);
		if (found)
			assert_true(ring_buffer_iter_peek(it, &t) && t == next);
		n++;
	}
	assert_int_equal(n, 3);
	ring_buffer_read_finish(it);
	ring_buffer_free(rb);
}

#define MIN_SWAPS 20 /* writers go on until this many swaps landed among their writes */

struct swapper {
	struct stress *s;
	struct ring_buffer *other;
	uint64_t swaps;
};

static void *swapper_main(void *p)
{
	struct swapper *w = p;

	this_cpu = NCPU_MAX; /* no buffer of its own */
	while (__atomic_load_n(&w->s->writers_done, __ATOMIC_ACQUIRE) < w->s->nr_cpus) {
		assert_int_equal(ring_buffer_swap(w->s->rb, w->other), 0);
		w->swaps++;
		__atomic_store_n(&w->s->swaps, w->swaps, __ATOMIC_RELAXED);
		usleep(50);
	}
	return NULL;
}

/*
 * Writers with interrupts and NMIs inside their writes, while another thread swaps the buffer
 * with a spare one over and over: every event ends up whole in one of the two, none twice,
 * and the counters of both add up to exactly what the writers wrote.
 */
static void test_swap_while_writing(void **state)
{
	(void)state;
	const int nr_cpus = 2;
	struct stress *s = calloc(1, sizeof(*s));
	struct writer_arg args[NCPU_MAX];
	struct swapper w = {s, NULL, 0};
	pthread_t irq, swapper;
	sigset_t block, old_mask;
	struct ring_buffer *bufs[2];

	assert_non_null(s);
	s->rb = new_rb(16, RB_FL_OVERWRITE, nr_cpus);
	w.other = new_rb(16, RB_FL_OVERWRITE, nr_cpus);
	s->nr_cpus = nr_cpus;
	s->per_cpu = 200000 / QUICK;
	s->swaps_needed = MIN_SWAPS;
	install_handlers(s->rb);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &block, &old_mask);
	for (int c = 0; c < nr_cpus; c++) {
		args[c] = (struct writer_arg){s, c};
		assert_int_equal(pthread_create(&s->writers[c], NULL, writer_main, &args[c]), 0);
	}
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	assert_int_equal(pthread_create(&irq, NULL, interrupter_main, s), 0);
	assert_int_equal(pthread_create(&swapper, NULL, swapper_main, &w), 0);
	while (__atomic_load_n(&s->writers_done, __ATOMIC_ACQUIRE) < nr_cpus)
		usleep(1000);
	__atomic_store_n(&s->irq_stop, 1, __ATOMIC_RELEASE);
	pthread_join(irq, NULL);
	pthread_join(swapper, NULL);
	__atomic_store_n(&s->release, 1, __ATOMIC_RELEASE);
	for (int c = 0; c < nr_cpus; c++)
		pthread_join(s->writers[c], NULL);

	bufs[0] = s->rb;
	bufs[1] = w.other;
	this_cpu = NCPU_MAX;
	for (int c = 0; c < nr_cpus; c++) {
		uint64_t ok = 0, seen = 0, written = 0, overrun = 0, refused = 0;

		for (int k = 0; k < 2; k++) {
			struct check ck = {0};
			struct ring_buffer_event *ev;
			uint64_t ts;

			/* One per-CPU buffer's events are in order: it was written whole. */
			while ((ev = ring_buffer_consume(bufs[k], c, &ts, NULL)))
				check_ev(&ck, c, ev, ts);
			assert_int_equal(ck.bad_sum + ck.bad_cpu + ck.bad_time, 0);
			seen += check_seen(&ck, c);
			written += ring_buffer_written_cpu(bufs[k], c);
			overrun += ring_buffer_overrun_cpu(bufs[k], c);
			refused += ring_buffer_commit_overrun_cpu(bufs[k], c) +
				   ring_buffer_dropped_events_cpu(bufs[k], c);
			assert_identity(bufs[k], c);
		}
		for (int x = 0; x < 3; x++)
			ok += s->ok[c][x];
		assert_int_equal(ok, seen + overrun); /* none lost unaccounted, none twice */
		assert_int_equal(written, ok + refused);
	}
	assert_true(w.swaps >= MIN_SWAPS);
	print_message("    %lu swaps while writing\n", (unsigned long)w.swaps);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
	ring_buffer_free(s->rb);
	ring_buffer_free(w.other);
	free(s);
}

/* How fast one writer goes (no reader): printed, not checked. */
static void test_write_rate(void **state)
{
	(void)state;
	struct ring_buffer *rb = new_rb(256, RB_FL_OVERWRITE, 1);
	uint64_t payload[3] = {1, 2, 3}, n = 2000000 * scale();
	double t0 = now_sec(), t;

	for (uint64_t i = 0; i < n; i++) {
		payload[0] = i;
		ring_buffer_write(rb, sizeof(payload), payload);
	}
	t = now_sec() - t0;
	assert_int_equal(ring_buffer_written_cpu(rb, 0), n);
	assert_identity(rb, 0);
	print_message("    %.1f million 24-byte events per second (%.0f ns each), one writer\n",
		      n / t / 1e6, t * 1e9 / n);
	ring_buffer_free(rb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic_order_and_counts),
		cmocka_unit_test(test_event_encoding),
		cmocka_unit_test(test_overwrite_wraparound),
		cmocka_unit_test(test_producer_consumer_drops),
		cmocka_unit_test(test_time_extend_and_stamps),
		cmocka_unit_test(test_nested_reserve),
		cmocka_unit_test(test_iterator_and_merge),
		cmocka_unit_test(test_iterator_overwritten),
		cmocka_unit_test(test_read_page),
		cmocka_unit_test(test_record_on_off),
		cmocka_unit_test(test_reset_and_resize),
		cmocka_unit_test(test_nested_signals_overwrite),
		cmocka_unit_test(test_nested_signals_producer_consumer),
		cmocka_unit_test(test_multi_cpu_concurrent),
		cmocka_unit_test(test_swap_basic),
		cmocka_unit_test(test_swap_cpu),
		cmocka_unit_test(test_swap_nowait),
		cmocka_unit_test(test_iter_peek_after),
		cmocka_unit_test(test_swap_while_writing),
		cmocka_unit_test(test_write_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
