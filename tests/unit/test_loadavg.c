/* Host tests of the load average's fixed-point step (kernel/sched/loadavg.h's calc_load). */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "kernel/sched/loadavg.h"

#define STEPS_PER_MIN 12 /* LOAD_FREQ is 5 s (and a tick) */

/* The average as /proc/loadavg prints it, in hundredths: 0.63 is 63. */
static unsigned long shown(unsigned long load)
{
	load += FIXED_1 / 200; /* get_avenrun's offset: rounded to 2 decimals */
	return LOAD_INT(load) * 100 + LOAD_FRAC(load);
}

static unsigned long run(unsigned long load, unsigned long exp, unsigned long tasks, int steps)
{
	for (int i = 0; i < steps; i++)
		load = calc_load(load, exp, tasks * FIXED_1);
	return load;
}

/* One task busy for a minute: the 1-minute average is 1 - 1/e, Linux's 0.63. */
static void test_one_minute_of_one_task(void **state)
{
	(void)state;
	assert_int_equal(shown(run(0, EXP_1, 1, STEPS_PER_MIN)), 63);
	/* The 5- and 15-minute averages rise more slowly: 1 - e^(-1/5), 1 - e^(-1/15). */
	assert_int_equal(shown(run(0, EXP_5, 1, STEPS_PER_MIN)), 18);
	assert_int_equal(shown(run(0, EXP_15, 1, STEPS_PER_MIN)), 6);
}

/* A steady load is reached exactly (rounded up while rising), and an idle one decays to 0. */
static void test_steady_and_idle(void **state)
{
	(void)state;
	unsigned long load = run(0, EXP_1, 2, 60 * STEPS_PER_MIN);

	assert_int_equal(load, 2 * FIXED_1);
	assert_int_equal(shown(load), 200);
	assert_int_equal(run(load, EXP_1, 0, 60 * STEPS_PER_MIN), 0);
	/* Falling: after a minute idle, 2/e (0.736) is left; falling steps round down: 0.73. */
	assert_int_equal(shown(run(2 * FIXED_1, EXP_1, 0, STEPS_PER_MIN)), 73);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_minute_of_one_task),
		cmocka_unit_test(test_steady_and_idle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
