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
 * CLOCK_REALTIME: nanoseconds since 1970-01-01 00:00:00 UTC (Linux's ktime_get_real_ns):
 * ktime_get_ns() plus offs_real (kernel/time/timekeeping.c), the CMOS clock's date at boot
 * until a program sets the date.
 */
uint64_t ktime_get_real_ns(void);
void timekeeping_init(void);
/* CLOCK_REALTIME, CLOCK_REALTIME_ALARM, CLOCK_TAI: an absolute time on them is a date. */
bool is_realtime_clock(int clock);
/* The nanoseconds CLOCK_REALTIME adds to ktime_get_ns() (Linux's offs_real): the vDSO's too. */
uint64_t ktime_get_real_offset_ns(void);
/*
 * The last second a date may be set to (Linux's TIME_SETTOD_SEC_MAX): KTIME_SEC_MAX less 30
 * years of uptime, so that CLOCK_REALTIME cannot overflow while the machine runs.
 */
#define KTIME_SEC_MAX_SETTOD (INT64_MAX / (int64_t)NSEC_PER_SEC)
#define TIME_UPTIME_SEC_MAX (30LL * 365 * 24 * 3600)
#define TIME_SETTOD_SEC_MAX (KTIME_SEC_MAX_SETTOD - TIME_UPTIME_SEC_MAX)
/*
 * Set CLOCK_REALTIME to ts_ns (Linux's do_settimeofday64): 0, or -EINVAL for a date before
 * the boot or past TIME_SETTOD_SEC_MAX. The vDSO's data and every timer waiting for a date
 * follow (clock_was_set). May sleep.
 */
int do_settimeofday64(uint64_t ts_ns);
/* gettimeofday's struct timezone, as settimeofday left it (Linux's sys_tz): UTC at boot. */
struct timezone {
	int tz_minuteswest;
	int tz_dsttime;
};
extern struct timezone sys_tz;
/* sys_tz into the vDSO's data, for its gettimeofday (Linux's update_vsyscall_tz). */
void update_vsyscall_tz(void);
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
