/*
 * Tests for trace/tracing_map.c: entries made and found, sums, a full map's drops, sorting,
 * clearing, allocation failures without leaks, and four threads inserting at once (the hit
 * path takes no lock: every hit must still be counted once).
 */
#include "lib/compiler.h"
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "trace/tracing_map.h"
#include "lib/errno.h"
#include "tests/unit/host_kmalloc.h"

#define NR_THREADS 4
#define THREAD_HITS 200000
#define THREAD_KEYS 100

/* A map of one u64 key and two sums (a hitcount and a value), initialized. */
static struct tracing_map *make_map(unsigned int bits, unsigned int key_size)
{
	struct tracing_map *map = tracing_map_create(bits, key_size, NULL, NULL);

	assert_non_null(map);
	assert_int_equal(tracing_map_add_sum_field(map), 0);
	assert_int_equal(tracing_map_add_sum_field(map), 1);
	assert_int_equal(tracing_map_add_key_field(map, 0, tracing_map_cmp_num(8, 0)), 2);
	assert_int_equal(tracing_map_init(map), 0);
	return map;
}

static void test_insert_lookup_sums(void **state)
{
	struct tracing_map *map = make_map(TRACING_MAP_BITS_MIN, sizeof(uint64_t));

	(void)state;
	for (uint64_t k = 0; k < 100; k++) {
		for (uint64_t n = 0; n <= k; n++) {
			struct tracing_map_elt *elt = tracing_map_insert(map, &k);

			assert_non_null(elt);
			tracing_map_update_sum(elt, 0, 1);
			tracing_map_update_sum(elt, 1, k);
		}
	}
	for (uint64_t k = 0; k < 100; k++) {
		struct tracing_map_elt *elt = tracing_map_lookup(map, &k);

		assert_non_null(elt);
		assert_memory_equal(elt->key, &k, sizeof(k));
		assert_int_equal(tracing_map_read_sum(elt, 0), k + 1);
		assert_int_equal(tracing_map_read_sum(elt, 1), k * (k + 1));
	}
	uint64_t missing = 12345;
	assert_null(tracing_map_lookup(map, &missing));
	assert_int_equal(tracing_map_hits(map), 100 * 101 / 2); /* lookups do not count */
	assert_int_equal(tracing_map_drops(map), 0);
	tracing_map_destroy(map);
	assert_int_equal(host_kmalloc_live, 0);
}

static void test_full_map_drops(void **state)
{
	struct tracing_map *map = make_map(TRACING_MAP_BITS_MIN, sizeof(uint64_t));
	unsigned int max = 1U << TRACING_MAP_BITS_MIN;

	(void)state;
	for (uint64_t k = 0; k < max + 72; k++)
		tracing_map_insert(map, &k);
	assert_int_equal(tracing_map_hits(map), max);
	assert_int_equal(tracing_map_drops(map), 72);
	/* the ones in it are still found and counted */
	for (uint64_t k = 0; k < max; k++)
		assert_non_null(tracing_map_insert(map, &k));
	assert_int_equal(tracing_map_hits(map), 2 * max);
	tracing_map_clear(map);
	assert_int_equal(tracing_map_hits(map), 0);
	assert_int_equal(tracing_map_drops(map), 0);
	uint64_t k = 3;
	assert_null(tracing_map_lookup(map, &k));
	struct tracing_map_elt *elt = tracing_map_insert(map, &k);
	assert_non_null(elt);
	assert_int_equal(tracing_map_read_sum(elt, 0), 0); /* cleared entries start at zero */
	tracing_map_destroy(map);
	assert_int_equal(host_kmalloc_live, 0);
}

static void test_sorting(void **state)
{
	struct tracing_map *map = make_map(TRACING_MAP_BITS_MIN, sizeof(uint64_t));
	struct tracing_map_sort_entry *e;
	struct tracing_map_sort_key by_sum_desc[] = {{1, true}},
				    by_hits_then_key[] = {{0, false}, {2, true}};
	int n;

	(void)state;
	for (uint64_t k = 1; k <= 10; k++) {
		struct tracing_map_elt *elt = tracing_map_insert(map, &k);

		tracing_map_update_sum(elt, 0, k % 3);
		tracing_map_update_sum(elt, 1, k * 10);
	}
	n = tracing_map_sort_entries(map, by_sum_desc, 1, &e);
	assert_int_equal(n, 10);
	for (int i = 0; i < n; i++)
		assert_int_equal(*(uint64_t *)e[i].key, 10 - i);
	tracing_map_destroy_sort_entries(e, n);
	n = tracing_map_sort_entries(map, by_hits_then_key, 2, &e);
	assert_int_equal(n, 10);
	/* hitcounts 0 (3,6,9), 1 (1,4,7,10), 2 (2,5,8); keys descending within each */
	const uint64_t want[] = {9, 6, 3, 10, 7, 4, 1, 8, 5, 2};
	for (int i = 0; i < n; i++)
		assert_int_equal(*(uint64_t *)e[i].key, want[i]);
	tracing_map_destroy_sort_entries(e, n);
	struct tracing_map_sort_key bad[] = {{7, false}};
	assert_int_equal(tracing_map_sort_entries(map, bad, 1, &e), -EINVAL);
	tracing_map_destroy(map);
	assert_int_equal(host_kmalloc_live, 0);
}

/* Every allocation of making a map, failed in turn: refused cleanly, nothing kept. */
static void test_allocation_failures(void **state)
{
	(void)state;
	for (long fail = 1;; fail++) {
		struct tracing_map *map;
		int ret = 0;

		host_kmalloc_fail_at = fail;
		map = tracing_map_create(TRACING_MAP_BITS_MIN, 16, NULL, NULL);
		if (map) {
			tracing_map_add_sum_field(map);
			tracing_map_add_key_field(map, 8, tracing_map_cmp_string);
			ret = tracing_map_init(map);
		}
		host_kmalloc_fail_at = 0;
		tracing_map_destroy(map);
		assert_int_equal(host_kmalloc_live, 0);
		if (map && !ret)
			break; /* every allocation got through */
	}
	assert_null(tracing_map_create(TRACING_MAP_BITS_MAX + 1, 8, NULL, NULL));
	assert_null(tracing_map_create(TRACING_MAP_BITS_MIN, 12, NULL, NULL)); /* not whole u64s */
}

static struct tracing_map *shared;

static void *inserter(void *arg)
{
	uintptr_t seed = (uintptr_t)arg;

	for (unsigned int i = 0; i < THREAD_HITS; i++) {
		uint64_t key[2] = {(i + seed) % THREAD_KEYS, 0xabcd};
		struct tracing_map_elt *elt = tracing_map_insert(shared, key);

		if (elt) {
			tracing_map_update_sum(elt, 0, 1);
			tracing_map_update_sum(elt, 1, key[0]);
		}
	}
	return NULL;
}

static void test_threads_lose_nothing(void **state)
{
	pthread_t t[NR_THREADS];
	struct tracing_map_sort_entry *e;
	struct tracing_map_sort_key by_key[] = {{2, false}};
	uint64_t total = 0;
	int n;

	(void)state;
	shared = tracing_map_create(TRACING_MAP_BITS_MIN, 2 * sizeof(uint64_t), NULL, NULL);
	assert_non_null(shared);
	tracing_map_add_sum_field(shared);
	tracing_map_add_sum_field(shared);
	tracing_map_add_key_field(shared, 0, tracing_map_cmp_num(8, 0));
	assert_int_equal(tracing_map_init(shared), 0);
	for (uintptr_t i = 0; i < NR_THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, inserter, (void *)(i * 7)), 0);
	for (int i = 0; i < NR_THREADS; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(tracing_map_hits(shared), NR_THREADS * THREAD_HITS);
	assert_int_equal(tracing_map_drops(shared), 0);
	n = tracing_map_sort_entries(shared, by_key, 1, &e);
	assert_int_equal(n, THREAD_KEYS); /* one entry a key: no duplicates from races */
	for (int i = 0; i < n; i++) {
		uint64_t hits = tracing_map_read_sum(e[i].elt, 0);

		assert_int_equal(*(uint64_t *)e[i].key, i);
		assert_int_equal(hits, NR_THREADS * THREAD_HITS / THREAD_KEYS);
		assert_int_equal(tracing_map_read_sum(e[i].elt, 1), hits * i);
		total += hits;
	}
	assert_int_equal(total, NR_THREADS * THREAD_HITS);
	tracing_map_destroy_sort_entries(e, n);
	tracing_map_destroy(shared);
	assert_int_equal(host_kmalloc_live, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_insert_lookup_sums),
		cmocka_unit_test(test_full_map_drops),
		cmocka_unit_test(test_sorting),
		cmocka_unit_test(test_allocation_failures),
		cmocka_unit_test(test_threads_lose_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
