/* Host tests of the scheduler's placement and stealing decisions (kernel/sched/sched_policy.c). */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "kernel/sched/sched_policy.h"

#define ALL ~0ULL

static void test_prefers_idle_previous_cpu(void **state)
{
	(void)state;
	struct cpu_load l[4] = {{true, 0, 0}, {true, 0, 0}, {true, 2, 1}, {true, 0, 0}};
	assert_int_equal(sched_select_cpu(l, 4, ALL, 3), 3);
	assert_int_equal(sched_select_cpu(l, 4, ALL, 1), 1);
}

static void test_busy_previous_goes_to_least_loaded(void **state)
{
	(void)state;
	struct cpu_load l[4] = {{true, 3, 2}, {true, 1, 0}, {true, 2, 1}, {true, 1, 0}};
	/* prev (0) is busy: the first of the least loaded wins */
	assert_int_equal(sched_select_cpu(l, 4, ALL, 0), 1);
}

static void test_respects_affinity(void **state)
{
	(void)state;
	struct cpu_load l[4] = {{true, 0, 0}, {true, 0, 0}, {true, 5, 4}, {true, 0, 0}};
	assert_int_equal(sched_select_cpu(l, 4, 1ULL << 2, 0), 2); /* only CPU 2, however busy */
	assert_int_equal(sched_select_cpu(l, 4, 0, 0), -1); /* nowhere allowed */
	assert_int_equal(sched_select_cpu(l, 4, 1ULL << 7, 0), -1); /* not a CPU we have */
}

static void test_skips_offline_cpus(void **state)
{
	(void)state;
	struct cpu_load l[3] = {{true, 4, 3}, {false, 0, 0}, {true, 2, 1}};
	assert_int_equal(sched_select_cpu(l, 3, ALL, 1), 2);
}

static void test_busiest(void **state)
{
	(void)state;
	struct cpu_load l[4] = {{true, 1, 0}, {true, 3, 2}, {true, 4, 3}, {false, 9, 9}};
	assert_int_equal(sched_find_busiest(l, 4, 0), 2);
	assert_int_equal(sched_find_busiest(l, 4, 2), 1); /* never itself */
	struct cpu_load none[2] = {{true, 1, 0}, {true, 1, 0}};
	assert_int_equal(sched_find_busiest(none, 2, 0), -1); /* running tasks cannot be stolen */
	/* an idle CPU's one queued task is about to run there: not taken from it */
	struct cpu_load woken[2] = {{true, 0, 0}, {true, 1, 1}};
	assert_int_equal(sched_find_busiest(woken, 2, 0), -1);
	/* one running and one waiting: the waiting one may go */
	struct cpu_load waiting[2] = {{true, 0, 0}, {true, 2, 1}};
	assert_int_equal(sched_find_busiest(waiting, 2, 0), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefers_idle_previous_cpu),
		cmocka_unit_test(test_busy_previous_goes_to_least_loaded),
		cmocka_unit_test(test_respects_affinity),
		cmocka_unit_test(test_skips_offline_cpus),
		cmocka_unit_test(test_busiest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
