/*
 * Tests for lib/freelist.h, the lock-free free list kretprobes keep their instances on: what
 * goes in comes out, once; and under threads that take and give back at once, no node is ever
 * held by two of them and none is lost. (The ABA interleaving a plain compare-and-swap stack
 * gets wrong needs a thread delayed between two loads, which a two-core host seldom produces:
 * this checks the invariants, it does not force that interleaving.)
 */
#include "lib/compiler.h"
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "lib/freelist.h"

#define NODES 3 /* fewer than the threads: they fight over the same ones */
#define THREADS 4
#define ROUNDS 200000

struct item {
	struct freelist_node node;
	int owned; /* 1 while a thread holds it */
};

static struct item items[NODES];
static struct freelist_head list;
static int doubly_owned;

static void fill(void)
{
	list.head = NULL;
	for (int i = 0; i < NODES; i++) {
		items[i].node.refs = 0;
		items[i].owned = 0;
		freelist_add(&items[i].node, &list);
	}
}

/* Takes everything there is: each node once. */
static int drain(void)
{
	bool seen[NODES] = {false};
	struct freelist_node *n;
	int count = 0;

	while ((n = freelist_try_get(&list))) {
		struct item *it = container_of(n, struct item, node);
		int i = (int)(it - items);

		assert_true(i >= 0 && i < NODES);
		assert_false(seen[i]);
		seen[i] = true;
		count++;
	}
	return count;
}

static void test_single_thread(void **state)
{
	(void)state;
	fill();
	assert_int_equal(drain(), NODES);
	assert_null(freelist_try_get(&list));
	/* given back, they come out again */
	for (int i = 0; i < NODES; i++)
		freelist_add(&items[i].node, &list);
	assert_int_equal(drain(), NODES);
}

static void *worker(void *arg)
{
	(void)arg;
	for (int r = 0; r < ROUNDS; r++) {
		struct freelist_node *n = freelist_try_get(&list);

		if (!n)
			continue;
		struct item *it = container_of(n, struct item, node);

		if (__atomic_exchange_n(&it->owned, 1, __ATOMIC_ACQ_REL))
			__atomic_fetch_add(&doubly_owned, 1, __ATOMIC_RELAXED);
		__atomic_store_n(&it->owned, 0, __ATOMIC_RELEASE);
		freelist_add(n, &list);
	}
	return NULL;
}

static void test_threads_never_share_a_node(void **state)
{
	pthread_t t[THREADS];

	(void)state;
	fill();
	doubly_owned = 0;
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, worker, NULL), 0);
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	assert_int_equal(doubly_owned, 0);
	assert_int_equal(drain(), NODES); /* none lost, none twice */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_thread),
		cmocka_unit_test(test_threads_never_share_a_node),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
