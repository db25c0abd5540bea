/* Kernel time: a monotonic nanosecond clock from the TSC, and the timer tick. */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <stdint.h>
#include "arch/x86_64/cpu.h"
#include "lib/compiler.h"

#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_USEC 1000ULL
#define HZ 100 /* timer ticks per second on each CPU */

/* Nanoseconds since the TSC was calibrated at boot; 0 before that. */
uint64_t ktime_get_ns(void);

/*
 * The same clock, inline: for the function graph hook, which reads it twice per traced call,
 * where the call and its frame would cost as much as the read (arch/x86_64/tsc.c explains the
 * arithmetic). Before tsc_init() tsc_mult is 0, so it reads 0 too.
 */
extern uint64_t tsc_base, tsc_mult;
static notrace __always_inline uint64_t ktime_get_ns_inline(void)
{
	uint64_t ticks = rdtsc() - tsc_base;

	return (uint64_t)(((unsigned __int128)ticks * tsc_mult) >> 32);
}
/* The TSC rate found at boot, in kHz. */
extern uint64_t tsc_khz;
void tsc_init(void);
/* Spin (with pause) for at least us microseconds. */
void udelay(uint64_t us);

extern volatile uint64_t jiffies;

#endif
