/*
 * Tests for kernel/fs/seq_file.c. A generator of 200,000 records (about 11 MB of text) is read in
 * pieces of many sizes; the pieces must join up to exactly the text written out by hand, while
 * the memory in use stays at the seq_file and its one-page buffer. Also: records larger than a
 * page, SEQ_SKIP, errors from show(), seeking, single_open, and allocation failures.
 */
/* lib/compiler.h first: glibc's cdefs.h tolerates its __always_inline, not the reverse. */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>
#include "kernel/fs/seq_file.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "tests/unit/host_kmalloc.h"

#ifdef __SANITIZE_ADDRESS__
size_t __sanitizer_get_current_allocated_bytes(void); /* ASan's count of bytes malloc'd now */
#define heap_bytes() ((long)__sanitizer_get_current_allocated_bytes())
#else
#define heap_bytes() 0L
#endif

/* The generator: record i is "rec 000042 " then (i * 7) % 90 letters, then a newline. */
static long nr_records;
static long skip_odd;	  /* show() returns SEQ_SKIP for odd records */
static long fail_at_rec = -1; /* show() returns -EIO for this record */
static long big_len;	  /* every record this long instead (to outgrow the buffer) */
static long starts, stops, shows;
static long live_base, live_peak, bytes_base, bytes_peak;

static const char letters[] = "abcdefghijklmnopqrstuvwxyz" "abcdefghijklmnopqrstuvwxyz"
			     "abcdefghijklmnopqrstuvwxyz" "abcdefghijklmnopqrstuvwxyz";

static size_t rec_len(long i)
{
	return big_len ? (size_t)big_len : (size_t)((i * 7) % 90);
}

/* Written out by hand, without seq_file or printf, as the reference. */
static size_t make_record(long i, char *out)
{
	size_t n = 0, len = rec_len(i);

	memcpy(out, "rec ", 4);
	n = 4;
	for (int d = 5; d >= 0; d--) {
		long v = i;

		for (int k = 0; k < d; k++)
			v /= 10;
		out[n++] = (char)('0' + v % 10);
	}
	out[n++] = ' ';
	for (size_t k = 0; k < len; k++)
		out[n++] = (char)('a' + (i + (long)k) % 26);
	out[n++] = '\n';
	return n;
}

static char *expected_text(size_t *len)
{
	size_t cap = 64, n = 0;
	char *text = malloc(cap);

	for (long i = 0; i < nr_records; i++) {
		if (skip_odd && (i & 1))
			continue;
		if (n + rec_len(i) + 16 > cap) {
			cap = 2 * (n + rec_len(i) + 16);
			text = realloc(text, cap);
		}
		n += make_record(i, text + n);
	}
	*len = n;
	return text;
}

static void sample(void)
{
	long live = host_kmalloc_live - live_base, bytes = heap_bytes() - bytes_base;

	live_peak = MAX(live_peak, live);
	bytes_peak = MAX(bytes_peak, bytes);
}

static void *rec_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	starts++;
	return *pos < nr_records ? (void *)(uintptr_t)(*pos + 1) : NULL;
}

static void *rec_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)m;
	(void)v;
	++*pos;
	return *pos < nr_records ? (void *)(uintptr_t)(*pos + 1) : NULL;
}

static void rec_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	stops++;
}

static int rec_show(struct seq_file *m, void *v)
{
	long i = (long)(uintptr_t)v - 1;
	size_t len = rec_len(i);

	shows++;
	sample();
	if (i == fail_at_rec)
		return -EIO;
	seq_printf(m, "rec %06ld ", i);
	if (big_len) {
		for (size_t k = 0; k < len; k++)
			seq_putc(m, (char)('a' + (i + (long)k) % 26));
	} else {
		seq_write(m, letters + i % 26, len / 2);
		seq_puts(m, ""); /* an empty piece changes nothing */
		for (size_t k = len / 2; k < len; k++)
			seq_putc(m, (char)('a' + (i + (long)k) % 26));
	}
	seq_putc(m, '\n');
	return skip_odd && (i & 1) ? SEQ_SKIP : 0;
}

static const struct seq_operations rec_ops = {
	.start = rec_start,
	.next = rec_next,
	.stop = rec_stop,
	.show = rec_show,
};

static int reset(void **state)
{
	(void)state;
	nr_records = 0;
	skip_odd = 0;
	fail_at_rec = -1;
	big_len = 0;
	starts = stops = shows = 0;
	host_kmalloc_fail_at = 0;
	return 0;
}

/* Reads the whole file in pieces of the sizes in sizes[] (cycled) into out; returns its length. */
static size_t read_all(struct file *f, char *out, size_t cap, const size_t *sizes, size_t nsizes)
{
	size_t total = 0;

	for (size_t k = 0;; k++) {
		size_t want = sizes[k % nsizes];
		ssize_t n;

		assert_true(total + want <= cap);
		n = seq_read(f, out + total, want, &f->f_pos);
		sample();
		assert_true(n >= 0);
		assert_true((size_t)n <= want);
		if (n == 0)
			return total;
		total += (size_t)n;
		assert_int_equal(starts, stops); /* every start() met its stop() before returning */
	}
}

static void open_file(struct file *f, const struct seq_operations *ops)
{
	memset(f, 0, sizeof(*f));
	f->f_count = 1;
	assert_int_equal(seq_open(f, ops), 0);
}

/* The main property: 11 MB read 100 bytes at a time, in one page of memory. */
static void test_big_file_small_reads(void **state)
{
	static const size_t hundred[] = { 100 };
	size_t len, got;
	char *want, *out;
	struct file f;

	(void)state;
	nr_records = 200000;
	want = expected_text(&len);
	assert_true(len > 10 * 1000 * 1000);
	out = malloc(len + 4096);
	live_base = host_kmalloc_live;
	bytes_base = heap_bytes();
	live_peak = bytes_peak = 0;

	open_file(&f, &rec_ops);
	got = read_all(&f, out, len + 4096, hundred, 1);
	assert_int_equal(got, len);
	assert_memory_equal(out, want, len);
	/* The seq_file and its buffer, nothing else; the buffer never grew. */
	assert_true(live_peak <= 2);
	assert_int_equal(((struct seq_file *)f.private_data)->size, 4096);
	if (heap_bytes()) {
		print_message("peak: %ld allocations, %ld bytes\n", live_peak, bytes_peak);
		assert_true(bytes_peak <= 4096 + (long)sizeof(struct seq_file));
	}
	/* Each record was shown about once, not once per read. */
	assert_true(shows < nr_records + nr_records / 10);
	assert_int_equal(seq_read(&f, out, 100, &f.f_pos), 0); /* at the end it stays at the end */
	seq_release(NULL, &f);
	assert_int_equal(host_kmalloc_live, live_base);
	free(want);
	free(out);
}

/* Reads of every awkward size split records everywhere; the text must still join up. */
static void test_read_sizes(void **state)
{
	static const size_t sizes[][5] = {
		{ 1 }, { 7 }, { 4095 }, { 4096 }, { 4097 }, { 10000 }, { 1, 4096, 13, 8191, 100 },
	};
	size_t len;
	char *want, *out;

	(void)state;
	nr_records = 3000;
	want = expected_text(&len);
	out = malloc(len + 20000);
	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		size_t n = 0;
		struct file f;

		while (n < 5 && sizes[s][n])
			n++;
		open_file(&f, &rec_ops);
		assert_int_equal(read_all(&f, out, len + 20000, sizes[s], n), len);
		assert_memory_equal(out, want, len);
		seq_release(NULL, &f);
	}
	free(want);
	free(out);
}

/* A record bigger than a page makes the buffer double (to 16 KiB here), and no more. */
static void test_record_bigger_than_buffer(void **state)
{
	static const size_t sizes[] = { 100, 5000, 30000 };
	size_t len;
	char *want, *out;
	struct file f;

	(void)state;
	nr_records = 20;
	big_len = 10000;
	want = expected_text(&len);
	out = malloc(len + 30000);
	open_file(&f, &rec_ops);
	assert_int_equal(read_all(&f, out, len + 30000, sizes, 3), len);
	assert_memory_equal(out, want, len);
	assert_int_equal(((struct seq_file *)f.private_data)->size, 16384);
	seq_release(NULL, &f);
	free(want);
	free(out);
}

static void test_seq_skip(void **state)
{
	static const size_t sizes[] = { 33 };
	size_t len;
	char *want, *out;
	struct file f;

	(void)state;
	nr_records = 500;
	skip_odd = 1;
	want = expected_text(&len);
	out = malloc(len + 100);
	open_file(&f, &rec_ops);
	assert_int_equal(read_all(&f, out, len + 100, sizes, 1), len);
	assert_memory_equal(out, want, len);
	seq_release(NULL, &f);
	free(want);
	free(out);
}

/* show() failing: the records before it are read, then the error is returned. */
static void test_show_error(void **state)
{
	char want[200], out[4096];
	size_t len = 0;
	struct file f;
	ssize_t n;

	(void)state;
	nr_records = 10;
	fail_at_rec = 5;
	for (long i = 0; i < 5; i++)
		len += make_record(i, want + len);
	open_file(&f, &rec_ops);
	n = seq_read(&f, out, sizeof(out), &f.f_pos);
	assert_int_equal(n, len);
	assert_memory_equal(out, want, len);
	assert_int_equal(seq_read(&f, out, sizeof(out), &f.f_pos), -EIO);
	assert_int_equal(seq_read(&f, out, sizeof(out), &f.f_pos), -EIO); /* and stays failed */
	assert_int_equal(starts, stops);
	seq_release(NULL, &f);

	/* An error on the very first record. */
	fail_at_rec = 0;
	open_file(&f, &rec_ops);
	assert_int_equal(seq_read(&f, out, sizeof(out), &f.f_pos), -EIO);
	seq_release(NULL, &f);
}

static void test_lseek(void **state)
{
	static const loff_t offsets[] = { 0, 1, 60, 4095, 4096, 4097, 12345, 33333, 1000 };
	size_t len;
	char *want, out[300];
	struct file f;

	(void)state;
	nr_records = 1000;
	want = expected_text(&len);
	open_file(&f, &rec_ops);
	for (size_t k = 0; k < ARRAY_SIZE(offsets); k++) {
		loff_t off = offsets[k];

		assert_int_equal(seq_lseek(&f, off, SEEK_SET), off);
		assert_int_equal(f.f_pos, off);
		assert_int_equal(seq_read(&f, out, 250, &f.f_pos), 250);
		assert_memory_equal(out, want + off, 250);
		/* SEEK_CUR from there. */
		assert_int_equal(seq_lseek(&f, -100, SEEK_CUR), off + 150);
		assert_int_equal(seq_read(&f, out, 50, &f.f_pos), 50);
		assert_memory_equal(out, want + off + 150, 50);
	}
	assert_int_equal(seq_lseek(&f, 0, SEEK_END), -EINVAL);
	assert_int_equal(seq_lseek(&f, -1, SEEK_SET), -EINVAL);
	assert_int_equal(seq_lseek(&f, (loff_t)len - 10, SEEK_SET), (loff_t)len - 10);
	assert_int_equal(seq_read(&f, out, 250, &f.f_pos), 10);
	assert_memory_equal(out, want + len - 10, 10);
	assert_int_equal(seq_lseek(&f, (loff_t)len + 1000, SEEK_SET), (loff_t)len + 1000);
	assert_int_equal(seq_read(&f, out, 250, &f.f_pos), 0);
	/* A position changed behind seq_lseek's back is honoured too. */
	f.f_pos = 77;
	assert_int_equal(seq_read(&f, out, 20, &f.f_pos), 20);
	assert_memory_equal(out, want + 77, 20);
	assert_int_equal(starts, stops);
	seq_release(NULL, &f);
	free(want);
}

static int hello_show(struct seq_file *m, void *v)
{
	assert_ptr_equal(v, SEQ_START_TOKEN);
	seq_printf(m, "%s: %d\n", (const char *)m->private, 42);
	seq_puts(m, "second line\n");
	return 0;
}

static void test_single_open(void **state)
{
	static const char want[] = "hello: 42\nsecond line\n";
	long live = host_kmalloc_live;
	char out[100];
	struct file f = { .f_count = 1 };

	(void)state;
	assert_int_equal(single_open(&f, hello_show, "hello"), 0);
	assert_int_equal(seq_read(&f, out, 5, &f.f_pos), 5);
	assert_int_equal(seq_read(&f, out + 5, sizeof(out) - 5, &f.f_pos), sizeof(want) - 1 - 5);
	assert_memory_equal(out, want, sizeof(want) - 1);
	assert_int_equal(seq_read(&f, out, sizeof(out), &f.f_pos), 0);
	assert_int_equal(seq_lseek(&f, 7, SEEK_SET), 7);
	assert_int_equal(seq_read(&f, out, sizeof(out), &f.f_pos), sizeof(want) - 1 - 7);
	assert_memory_equal(out, want + 7, sizeof(want) - 1 - 7);
	single_release(NULL, &f);
	assert_int_equal(host_kmalloc_live, live);
}

struct iter {
	long a, b;
};

static void test_open_private(void **state)
{
	long live = host_kmalloc_live;
	struct file f = { .f_count = 1 };
	struct iter *it = __seq_open_private(&f, &rec_ops, sizeof(*it));

	(void)state;
	assert_non_null(it);
	assert_ptr_equal(((struct seq_file *)f.private_data)->private, it);
	assert_int_equal(it->a, 0);
	assert_int_equal(it->b, 0);
	seq_release_private(NULL, &f);
	assert_int_equal(host_kmalloc_live, live);
	assert_int_equal(seq_open_private(&f, &rec_ops, 8), 0);
	seq_release_private(NULL, &f);
	assert_int_equal(host_kmalloc_live, live);
}

/*
 * Every allocation failing in turn: open fails cleanly, or reads fail with -ENOMEM and, once
 * memory is back, carry on exactly where they were. Nothing leaks.
 */
static void test_allocation_failures(void **state)
{
	static const size_t sizes[] = { 3000, 9000 };
	size_t len;
	char *want, *out;

	(void)state;
	nr_records = 100;
	big_len = 0;
	want = expected_text(&len);
	out = malloc(len + 20000);
	for (long n = 1; n <= 6; n++) {
		long live = host_kmalloc_live;
		size_t total = 0;
		struct file f = { .f_count = 1 };
		int err;

		host_kmalloc_fail_at = n;
		err = single_open(&f, hello_show, "x");
		host_kmalloc_fail_at = 0;
		if (err) {
			assert_int_equal(err, -ENOMEM);
			assert_int_equal(host_kmalloc_live, live);
		} else {
			single_release(NULL, &f);
		}

		open_file(&f, &rec_ops);
		host_kmalloc_fail_at = n;
		for (size_t k = 0;; k++) {
			ssize_t got = seq_read(&f, out + total, sizes[k % 2], &f.f_pos);

			if (got == -ENOMEM) {
				host_kmalloc_fail_at = 0;
				continue;
			}
			assert_true(got >= 0);
			if (got == 0)
				break;
			total += (size_t)got;
		}
		host_kmalloc_fail_at = 0;
		assert_int_equal(total, len);
		assert_memory_equal(out, want, len);
		assert_int_equal(starts, stops);
		seq_release(NULL, &f);
		assert_int_equal(host_kmalloc_live, live);
	}
	free(want);
	free(out);
}

/* A big record among small ones, with allocation failing when the buffer has to grow. */
static void test_grow_failure(void **state)
{
	char out[20000], want[6000];
	struct file f;

	(void)state;
	nr_records = 3;
	big_len = 5000;
	open_file(&f, &rec_ops);
	host_kmalloc_fail_at = 2; /* 1: the first page; 2: the doubled buffer */
	assert_int_equal(seq_read(&f, out, sizeof(out), &f.f_pos), -ENOMEM);
	host_kmalloc_fail_at = 0;
	/* The 8 KiB buffer holds one record at a time; nothing was lost or repeated. */
	for (long i = 0; i < 3; i++) {
		assert_int_equal(seq_read(&f, out, sizeof(out), &f.f_pos), 11 + 5000 + 1);
		assert_int_equal(make_record(i, want), 11 + 5000 + 1);
		assert_memory_equal(out, want, 11 + 5000 + 1);
	}
	assert_int_equal(seq_read(&f, out, sizeof(out), &f.f_pos), 0);
	assert_int_equal(((struct seq_file *)f.private_data)->size, 8192);
	seq_release(NULL, &f);
}

/* A next() that forgets to advance *pos must not make seq_read loop forever. */
static void *lazy_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)m;
	(void)v;
	return *pos + 1 < nr_records ? (void *)(uintptr_t)(*pos + 2) : NULL;
}

static void test_buggy_next(void **state)
{
	static const struct seq_operations ops = {
		.start = rec_start,
		.next = lazy_next,
		.stop = rec_stop,
		.show = rec_show,
	};
	size_t len;
	char *want, out[4096];
	struct file f;

	(void)state;
	nr_records = 20;
	want = expected_text(&len);
	open_file(&f, &ops);
	assert_int_equal(seq_read(&f, out, sizeof(out), &f.f_pos), len);
	assert_memory_equal(out, want, len);
	assert_int_equal(seq_read(&f, out, sizeof(out), &f.f_pos), 0);
	seq_release(NULL, &f);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_big_file_small_reads, reset),
		cmocka_unit_test_setup(test_read_sizes, reset),
		cmocka_unit_test_setup(test_record_bigger_than_buffer, reset),
		cmocka_unit_test_setup(test_seq_skip, reset),
		cmocka_unit_test_setup(test_show_error, reset),
		cmocka_unit_test_setup(test_lseek, reset),
		cmocka_unit_test_setup(test_single_open, reset),
		cmocka_unit_test_setup(test_open_private, reset),
		cmocka_unit_test_setup(test_allocation_failures, reset),
		cmocka_unit_test_setup(test_grow_failure, reset),
		cmocka_unit_test_setup(test_buggy_next, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
