/*
 * The vDSO's clocks (Linux's arch/x86/entry/vdso/vclock_gettime.c and the generic code in its
 * lib/vdso/): clock_gettime, gettimeofday, time and clock_getres, answered in user space from
 * [vvar]'s struct vdso_data and the TSC, with no system call.
 *
 * Built as user code: position-independent, no libc, no stack protector, no -pg (this runs in
 * every process, where the kernel's tracer cannot follow). The clocks it cannot answer (the
 * CPU-time clocks, the alarm clocks, a bad id), and every clock while the kernel says the TSC
 * may not be used (clock_mode), go to the system call, as Linux's fallbacks.
 */
#include "arch/x86_64/vdso.h"

#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_USEC 1000ULL
#define VDSO_MULT_SHIFT 32 /* ktime_get_ns()'s shift (arch/x86_64/tsc.h): the same formula */
#define NR_gettimeofday 96 /* Linux's x86_64 system-call numbers, for the fallbacks */
#define NR_clock_gettime 228
#define NR_clock_getres 229

struct __kernel_timespec {
	long tv_sec, tv_nsec;
};
struct __kernel_old_timeval {
	long tv_sec, tv_usec;
};
struct timezone {
	int tz_minuteswest, tz_dsttime;
};

/* [vvar]'s data: the linker script puts the symbol there, RIP-relative from the code. */
extern const struct vdso_data _vdso_data __attribute__((visibility("hidden")));

static inline long vdso_syscall2(long nr, long a, long b)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "0"(nr), "D"(a), "S"(b) : "rcx", "r11", "memory");
	return ret;
}

/* The reader's half of the seqcount (Linux's vdso_read_begin/vdso_read_retry). */
static inline uint32_t vdso_read_begin(const struct vdso_data *vd)
{
	uint32_t seq;

	while (__builtin_expect((seq = *(const volatile uint32_t *)&vd->seq) & 1, 0))
		__asm__ volatile("pause");
	__asm__ volatile("" ::: "memory"); /* smp_rmb: x86 keeps loads in order */
	return seq;
}

static inline int vdso_read_retry(const struct vdso_data *vd, uint32_t start)
{
	__asm__ volatile("" ::: "memory");
	return __builtin_expect(*(const volatile uint32_t *)&vd->seq != start, 0);
}

/*
 * lfence; rdtsc: not read before the loads above it (Linux's rdtsc_ordered). rdtsc clears the
 * upper halves of rax and rdx, so 64-bit outputs need no zero-extension.
 */
static inline uint64_t rdtsc_ordered(void)
{
	uint64_t lo, hi;

	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return hi << 32 | lo;
}

/* An hres clock's nanoseconds now; 0 if the TSC may not be read (the caller falls back). */
static inline int do_hres(const struct vdso_data *vd, unsigned long clk, uint64_t *ns)
{
	uint32_t seq;

	do {
		seq = vdso_read_begin(vd);
		if (__builtin_expect(vd->clock_mode != VDSO_CLOCKMODE_TSC, 0))
			return 0;
		uint64_t ticks = rdtsc_ordered() - vd->cycle_last;

		*ns = (uint64_t)(((unsigned __int128)ticks * vd->mult) >> VDSO_MULT_SHIFT) +
		      vd->offset_ns[clk];
	} while (vdso_read_retry(vd, seq));
	return 1;
}

static inline uint64_t do_coarse(const struct vdso_data *vd, unsigned long clk)
{
	uint32_t seq;
	uint64_t ns;

	do {
		seq = vdso_read_begin(vd);
		ns = vd->coarse_ns[clk];
	} while (vdso_read_retry(vd, seq));
	return ns;
}

int __vdso_clock_gettime(int clock, struct __kernel_timespec *ts)
{
	const struct vdso_data *vd = &_vdso_data;
	unsigned long clk = (unsigned int)clock; /* an index: negative ids are huge, refused */
	uint64_t ns;

	/* The common case first and straight through: an hres clock (a bit test, then its read). */
	if (__builtin_expect(clk < VDSO_BASES && (VDSO_HRES >> clk & 1), 1)) {
		if (__builtin_expect(!do_hres(vd, clk, &ns), 0))
			goto fallback;
	} else if (clk < VDSO_BASES && (VDSO_COARSE >> clk & 1)) {
		ns = do_coarse(vd, clk);
	} else {
		goto fallback;
	}
	ts->tv_sec = (long)(ns / NSEC_PER_SEC);
	ts->tv_nsec = (long)(ns % NSEC_PER_SEC);
	return 0;
fallback:
	return (int)vdso_syscall2(NR_clock_gettime, clock, (long)ts);
}

int __vdso_gettimeofday(struct __kernel_old_timeval *tv, struct timezone *tz)
{
	const struct vdso_data *vd = &_vdso_data;
	uint64_t ns;

	if (tv) {
		if (!do_hres(vd, VDSO_CLOCK_REALTIME, &ns))
			return (int)vdso_syscall2(NR_gettimeofday, (long)tv, (long)tz);
		tv->tv_sec = (long)(ns / NSEC_PER_SEC);
		tv->tv_usec = (long)(ns % NSEC_PER_SEC / NSEC_PER_USEC);
	}
	if (tz) {
		tz->tz_minuteswest = vd->tz_minuteswest;
		tz->tz_dsttime = vd->tz_dsttime;
	}
	return 0;
}

/*
 * time: the seconds of CLOCK_REALTIME_COARSE, as Linux's (its vDSO and its system call both
 * give the seconds of the last tick's update). One aligned 64-bit load: no seqcount needed.
 */
long __vdso_time(long *t)
{
	const struct vdso_data *vd = &_vdso_data;
	long secs = (long)(*(const volatile uint64_t *)&vd->coarse_ns[VDSO_CLOCK_REALTIME_COARSE] /
			   NSEC_PER_SEC);

	if (t)
		*t = secs;
	return secs;
}

int __vdso_clock_getres(int clock, struct __kernel_timespec *res)
{
	const struct vdso_data *vd = &_vdso_data;
	uint64_t ns;

	if ((unsigned int)clock >= VDSO_BASES)
		goto fallback;
	uint32_t msk = VDSO_BIT(clock);

	if (msk & VDSO_HRES)
		ns = vd->hrtimer_res;
	else if (msk & VDSO_COARSE)
		ns = vd->coarse_res;
	else
		goto fallback;
	if (res) {
		res->tv_sec = 0;
		res->tv_nsec = (long)ns;
	}
	return 0;
fallback:
	return (int)vdso_syscall2(NR_clock_getres, clock, (long)res);
}

/* The names without __vdso_, as Linux's image has them too. */
int clock_gettime(int, struct __kernel_timespec *)
	__attribute__((weak, alias("__vdso_clock_gettime")));
int gettimeofday(struct __kernel_old_timeval *, struct timezone *)
	__attribute__((weak, alias("__vdso_gettimeofday")));
long time(long *) __attribute__((weak, alias("__vdso_time")));
int clock_getres(int, struct __kernel_timespec *)
	__attribute__((weak, alias("__vdso_clock_getres")));
