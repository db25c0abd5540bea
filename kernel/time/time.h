/* Kernel time: a monotonic nanosecond clock from the TSC, and the timer tick. */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <stdint.h>
#include <stdbool.h>

#include "lib/time64.h"

#define HZ 100 /* timer ticks per second on each CPU */

/* Nanoseconds since the TSC was calibrated at boot; 0 before that. */
uint64_t ktime_get_ns(void);
/*
 * CLOCK_REALTIME: nanoseconds since 1970-01-01 00:00:00 UTC (Linux's ktime_get_real_ns), the
 * CMOS clock read at boot (timekeeping_init) plus ktime_get_ns() since.
 */
uint64_t ktime_get_real_ns(void);
/*
 * What a clock (a Linux clock id) reads above ktime_get_ns(): the date at boot for the
 * CLOCK_REALTIME kind, 0 for the others. Constant: nothing sets the date after boot.
 */
uint64_t ktime_clock_offset(int clock);
void timekeeping_init(void);
/* The nanoseconds CLOCK_REALTIME adds to ktime_get_ns() (Linux's offs_real): the vDSO's too. */
uint64_t ktime_get_real_offset_ns(void);
/*
 * The vDSO's data brought up to date (kernel/time/vsyscall.c): at boot, and at CPU 0's tick.
 * The coarse clocks are what it stored last: real, CLOCK_REALTIME_COARSE's, else
 * CLOCK_MONOTONIC_COARSE's.
 */
void update_vsyscall(void);
uint64_t ktime_get_coarse_ns(bool real);
/* The TSC rate found at boot, in kHz. */
extern uint64_t tsc_khz;
void tsc_init(void);
/* Spin (with pause) for at least us microseconds. */
void udelay(uint64_t us);

extern volatile uint64_t jiffies;

/*
 * Where boot begins and ends, for `bench` (kernel/debug/bench.c): the TSC at kmain's first
 * instruction, and at the first read of the console, by the shell at its first prompt
 * (boot_note_prompt(), called by the console and the tty; 0 until then). Both in kernel/main.c.
 */
extern uint64_t boot_kmain_tsc;
extern uint64_t boot_prompt_tsc;
void boot_note_prompt(void);

#endif
