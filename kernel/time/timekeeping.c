/*
 * The date (Linux's kernel/time/timekeeping.c, its small core): CLOCK_REALTIME is
 * ktime_get_ns() plus offs_real, the date at which ktime_get_ns() read 0.
 *
 * offs_real is set twice in a life: at boot from the battery-backed CMOS clock
 * (timekeeping_init, arch/x86_64/rtc.c), and whenever a program sets the date
 * (do_settimeofday64: clock_settime(CLOCK_REALTIME), settimeofday, busybox `date -s`). It is
 * one aligned 64-bit word, so a reader (ktime_get_real_ns) takes no lock: it sees the old date
 * or the new, never half of one. A change then reaches everything that reads the date:
 *   - the vDSO's data, written again inside its seqcount (update_vsyscall), so clock_gettime
 *     and gettimeofday in user space, the coarse clocks and time() move with it;
 *   - the timers waiting for a date (clock_was_set, kernel/time/hrtimer.c): absolute
 *     CLOCK_REALTIME sleeps and POSIX timers, timerfd's (kernel/fs/timerfd.c);
 *   - everything else computes the date when asked (file times, /proc/stat's btime).
 * CLOCK_MONOTONIC never moves for it: Linux's rule that the date may not be set before the
 * boot (wall_to_monotonic stays <= 0) keeps offs_real >= 0 here too.
 *
 * There is no NTP: nothing slews the clock, and the TAI offset stays 0 (CLOCK_TAI is the date).
 */
#include "kernel/time/time.h"
#include "kernel/time/hrtimer.h"
#include "kernel/locking/mutex.h"
#include "arch/x86_64/rtc.h"
#include "lib/errno.h"

static uint64_t offs_real; /* CLOCK_REALTIME - ktime_get_ns(): Linux's tk->offs_real */
static DEFINE_MUTEX(settime_mutex); /* one date change (and its clock_was_set) at a time */

void timekeeping_init(void)
{
	int64_t now = mach_get_cmos_time();
	uint64_t since_boot = ktime_get_ns();
	uint64_t real = now > 0 ? (uint64_t)now * NSEC_PER_SEC : 0; /* a clock before 1970: 0 */

	WRITE_ONCE(offs_real, real > since_boot ? real - since_boot : 0);
	update_vsyscall(); /* the vDSO's CLOCK_REALTIME too (once it has its page) */
}

uint64_t ktime_get_real_offset_ns(void)
{
	return READ_ONCE(offs_real);
}

uint64_t ktime_get_real_ns(void)
{
	return READ_ONCE(offs_real) + ktime_get_ns();
}

int do_settimeofday64(uint64_t ts_ns)
{
	/* Linux's timespec64_valid_settod, for callers that did not check */
	if (ts_ns >= (uint64_t)TIME_SETTOD_SEC_MAX * NSEC_PER_SEC)
		return -EINVAL;
	mutex_lock(&settime_mutex);
	uint64_t now = ktime_get_ns();

	/* Before the boot: CLOCK_MONOTONIC would be ahead of the date (Linux: -EINVAL too). */
	if (ts_ns < now) {
		mutex_unlock(&settime_mutex);
		return -EINVAL;
	}
	WRITE_ONCE(offs_real, ts_ns - now);
	update_vsyscall();
	clock_was_set();
	mutex_unlock(&settime_mutex);
	return 0;
}
