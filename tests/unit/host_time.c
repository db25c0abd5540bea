/*
 * The kernel's clock for host tests and fuzzers of code that stamps times (the VFS): one that
 * only moves forward will do, and repeats from run to run, unlike the host's.
 */
#include <stdint.h>

uint64_t ktime_get_ns(void);

uint64_t ktime_get_ns(void)
{
	static uint64_t now;

	return now += 1000;
}

/* CLOCK_REALTIME: the same clock; host tests look at no dates. */
uint64_t ktime_get_real_ns(void);

uint64_t ktime_get_real_ns(void)
{
	return ktime_get_ns();
}
