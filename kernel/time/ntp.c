/*
 * adjtimex and clock_adjtime, read-only (Linux's kernel/time/ntp.c, with no NTP daemon ever
 * having spoken): what a program asking "is the clock synchronised?" (ntp_gettime, chrony's
 * and systemd's checks, busybox's adjtimex) is told by a Linux 6.1 whose clock nobody has
 * disciplined: TIME_ERROR, status STA_UNSYNC, the largest errors (NTP_PHASE_LIMIT), Linux's
 * constant, precision and tolerance, the tick in microseconds, no PPS, TAI offset 0, and the
 * date itself in time (microseconds: STA_NANO is not set). Setting the date (do_settimeofday64)
 * clears NTP's state in Linux (TK_CLEAR_NTP) back to just this, so it never changes here.
 *
 * Only the modes that change nothing are taken: 0, and ADJ_OFFSET_SS_READ (adjtime()'s read of
 * the slew left, 0 here). Any other mode would steer the clock, which Lucid cannot: -EPERM, as
 * Linux answers a caller not allowed to (CAP_SYS_TIME).
 */
#include "kernel/syscalls.h"
#include "kernel/time/time.h"
#include "kernel/time/posix-timers.h"
#include "kernel/sched/cputime.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

#define CLOCK_SGI_CYCLE 10 /* an id Linux no longer has */
#define ADJ_OFFSET_SS_READ 0xa001 /* ADJ_OFFSET_SINGLESHOT | ADJ_OFFSET_READONLY */
#define TIME_ERROR 5 /* clock not synchronised (Linux's time_state answer) */
#define STA_UNSYNC 0x0040 /* Linux's time_status from boot until NTP syncs it */
#define MAXPHASE 500000000LL /* ns: the largest phase error NTP handles */
#define NTP_PHASE_LIMIT ((MAXPHASE / (long long)NSEC_PER_USEC) << 5) /* maxerror, esterror */
#define TIME_CONSTANT 2 /* Linux's initial time_constant (the PLL's) */
#define PRECISION_US 1
#define MAXFREQ_PPM_SCALED (500LL << 16) /* tolerance: 500 ppm, scaled by 2^16 as Linux's */
#define USER_HZ 100 /* the tick's rate as programs are told it (Linux's USER_HZ) */
#define USER_TICK_USEC ((USEC_PER_SEC + USER_HZ / 2) / USER_HZ) /* Linux's initial tick_usec */

struct __kernel_timex_timeval {
	long long tv_sec, tv_usec;
};

/* Linux's struct __kernel_timex, byte for byte (208 bytes, padding as its). */
struct __kernel_timex {
	unsigned int modes;
	int : 32;
	long long offset, freq, maxerror, esterror;
	int status;
	int : 32;
	long long constant, precision, tolerance;
	struct __kernel_timex_timeval time;
	long long tick, ppsfreq, jitter;
	int shift;
	int : 32;
	long long stabil, jitcnt, calcnt, errcnt, stbcnt;
	int tai;
	int : 32, : 32, : 32, : 32, : 32, : 32, : 32, : 32, : 32, : 32, : 32;
};
_Static_assert(sizeof(struct __kernel_timex) == 208, "Linux's struct __kernel_timex");

/* Linux's do_adjtimex, for the modes that only read: the clock's state, as the top says. */
static int do_adjtimex(struct __kernel_timex *txc)
{
	uint64_t now = ktime_get_real_ns();

	if (txc->modes && txc->modes != ADJ_OFFSET_SS_READ)
		return -EPERM;
	unsigned int modes = txc->modes;

	memset(txc, 0, sizeof(*txc)); /* offset, freq, PPS's fields, tai: all 0 */
	txc->modes = modes;
	txc->maxerror = NTP_PHASE_LIMIT;
	txc->esterror = NTP_PHASE_LIMIT;
	txc->status = STA_UNSYNC;
	txc->constant = TIME_CONSTANT;
	txc->precision = PRECISION_US;
	txc->tolerance = MAXFREQ_PPM_SCALED;
	txc->time.tv_sec = (long long)(now / NSEC_PER_SEC);
	txc->time.tv_usec = (long long)(now % NSEC_PER_SEC / NSEC_PER_USEC);
	txc->tick = USER_TICK_USEC;
	return TIME_ERROR;
}

long sys_adjtimex(struct __kernel_timex __user *utx)
{
	struct __kernel_timex txc;
	int ret;

	if (copy_from_user(&txc, utx, sizeof(txc)))
		return -EFAULT;
	ret = do_adjtimex(&txc);
	return ret >= 0 && copy_to_user(utx, &txc, sizeof(txc)) ? -EFAULT : ret;
}

/*
 * clock_adjtime: the timex read first (-EFAULT), then the clock: CLOCK_REALTIME is adjtimex;
 * another named clock, or a CPU-time one, has no clock_adj (-EOPNOTSUPP); no such clock, or a
 * dynamic clock's fd (Lucid has none), -EINVAL.
 */
long sys_clock_adjtime(int which_clock, struct __kernel_timex __user *utx)
{
	struct __kernel_timex txc;
	int ret;

	if (copy_from_user(&txc, utx, sizeof(txc)))
		return -EFAULT;
	if (which_clock == CLOCK_REALTIME)
		ret = do_adjtimex(&txc);
	else if (which_clock < 0 && (which_clock & CLOCKFD_MASK) == CLOCKFD)
		ret = -EINVAL;
	else if (which_clock < 0 || (which_clock <= CLOCK_TAI && which_clock != CLOCK_SGI_CYCLE))
		ret = -EOPNOTSUPP;
	else
		ret = -EINVAL; /* Linux's posix_clocks[] has no clock there */
	return ret >= 0 && copy_to_user(utx, &txc, sizeof(txc)) ? -EFAULT : ret;
}
