/*
 * The TSC-to-nanoseconds conversion of ktime_get_ns() (arch/x86_64/tsc.c), inline for the one
 * caller that reads the clock on every event: the ring buffer's writer.
 */
#ifndef ARCH_X86_64_TSC_H
#define ARCH_X86_64_TSC_H

#include <stdint.h>
#include "arch/x86_64/cpu.h"
#include "lib/compiler.h"

/* Set once by tsc_init(): ns = (rdtsc() - tsc_base) * tsc_mult >> 32. Both 0 until then. */
extern uint64_t tsc_mult, tsc_base;

static __always_inline uint64_t tsc_ktime_get_ns(void)
{
	uint64_t ticks = rdtsc() - tsc_base;

	return (uint64_t)(((unsigned __int128)ticks * tsc_mult) >> 32); /* 0 before calibration */
}

#endif
