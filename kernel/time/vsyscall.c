/*
 * The kernel's half of the vDSO's clocks (Linux's kernel/time/vsyscall.c): update_vsyscall()
 * copies the timekeeping the vDSO needs into struct vdso_data ([vvar], arch/x86_64/vdso.h),
 * and the coarse clocks are read from there, by the vDSO and the system calls alike.
 *
 * Written at boot (vdso_init), at every tick of CPU 0 (kernel/time/timer.c, beside jiffies) and
 * when the date is set (do_settimeofday64, kernel/time/timekeeping.c),
 * by one writer at a time (vdso_lock), inside the data's seqcount: seq odd while the fields
 * change, so a reader in user space, which cannot take a lock, reads again when it saw a
 * write in progress or a different seq after its reads (arch/x86_64/entry/vdso/).
 *
 * The coarse clocks are what the last tick stored, as Linux's: they cost no TSC read, move a
 * tick at a time, and the vDSO and clock_gettime give the same reading between two ticks.
 * time() is the seconds of CLOCK_REALTIME_COARSE, in both, as Linux's.
 */
#include "kernel/time/time.h"
#include "kernel/sched/cputime.h"
#include "kernel/locking/spinlock.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/vdso.h"

#define HRES_NSEC 1 /* clock_getres of the TSC clocks (Linux's hrtimer_resolution, high-res) */

static DEFINE_SPINLOCK(vdso_lock);

void update_vsyscall(void)
{
	struct vdso_data *vd = vdso_data;

	if (!vd)
		return; /* before vdso_init: nobody reads it yet */
	unsigned long flags = spin_lock_irqsave(&vdso_lock);
	uint64_t real = ktime_get_real_offset_ns(), now = ktime_get_ns();

	WRITE_ONCE(vd->seq, vd->seq + 1); /* odd: readers wait */
	barrier(); /* smp_wmb: x86 keeps stores in order, the compiler must too */
	vd->clock_mode = tsc_mult ? VDSO_CLOCKMODE_TSC : VDSO_CLOCKMODE_NONE;
	vd->cycle_last = tsc_base;
	vd->mult = tsc_mult;
	vd->hrtimer_res = HRES_NSEC;
	vd->coarse_res = TICK_NSEC;
	vd->offset_ns[VDSO_CLOCK_REALTIME] = real;
	vd->offset_ns[VDSO_CLOCK_TAI] = real; /* TAI - UTC is 0 until NTP sets it, as Linux's */
	vd->offset_ns[VDSO_CLOCK_MONOTONIC] = 0;
	vd->offset_ns[VDSO_CLOCK_MONOTONIC_RAW] = 0; /* no NTP: the raw clock is the same line */
	vd->offset_ns[VDSO_CLOCK_BOOTTIME] = 0; /* no suspend: BOOTTIME is MONOTONIC */
	WRITE_ONCE(vd->coarse_ns[VDSO_CLOCK_MONOTONIC_COARSE], now);
	WRITE_ONCE(vd->coarse_ns[VDSO_CLOCK_REALTIME_COARSE], now + real);
	barrier();
	WRITE_ONCE(vd->seq, vd->seq + 1); /* even again: the data is whole */
	spin_unlock_irqrestore(&vdso_lock, flags);
}

struct timezone sys_tz; /* UTC, no DST, until settimeofday says otherwise */

void update_vsyscall_tz(void)
{
	struct vdso_data *vd = vdso_data;

	if (!vd)
		return;
	/* No seqcount, as Linux's: two ints, each written whole, only by settimeofday. */
	WRITE_ONCE(vd->tz_minuteswest, sys_tz.tz_minuteswest);
	WRITE_ONCE(vd->tz_dsttime, sys_tz.tz_dsttime);
}

/*
 * A coarse clock's reading (CLOCK_MONOTONIC_COARSE or CLOCK_REALTIME_COARSE): the last
 * update's, one aligned 64-bit load. Before the vDSO's data exists, the TSC's.
 */
uint64_t ktime_get_coarse_ns(bool real)
{
	struct vdso_data *vd = vdso_data;

	if (!vd)
		return real ? ktime_get_real_ns() : ktime_get_ns();
	return READ_ONCE(
		vd->coarse_ns[real ? VDSO_CLOCK_REALTIME_COARSE : VDSO_CLOCK_MONOTONIC_COARSE]);
}
