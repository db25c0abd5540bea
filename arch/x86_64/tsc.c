/*
 * The TSC clock: ktime_get_ns() for the whole kernel, and for every trace timestamp.
 *
 * The time-stamp counter ticks at a fixed rate; we learn that rate once at boot by counting TSC
 * ticks across 5 ms of the PIT, whose input clock is a known 1.193182 MHz, a few times
 * (pit_measure_tsc_khz says why). Converting ticks to nanoseconds is then a multiply and a
 * shift (no division on the hot path): ns = ticks * mult >> 32, with
 * mult = 10^9 * 2^32 / tsc_hz, using a 128-bit product so it never overflows.
 *
 * Under QEMU with -icount shift=0 the guest TSC advances exactly one tick per instruction at a
 * virtual 1 GHz, which is what makes `make bench` counts repeatable.
 *
 * Not traced: the tracer reads this clock for every event.
 */
#include "kernel/time/time.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/io.h"
#include "lib/compiler.h"
#include "kernel/printk.h"

#define PIT_HZ 1193182 /* the PIT's input clock */
#define PIT_CH2_DATA 0x42
#define PIT_COMMAND 0x43
#define PIT_CH2_GATE_PORT 0x61 /* bit 0: channel 2 gate, bit 1: speaker, bit 5: channel 2 output */
#define PIT_CH2_GATE 0x01
#define PIT_SPEAKER 0x02
#define PIT_CH2_OUT 0x20
#define PIT_CMD_CH2_LOHI_MODE0 0xb0 /* channel 2, lobyte/hibyte, mode 0 (count down once) */
#define CALIBRATE_US 5000 /* each measurement */
#define CALIBRATE_SPIN_LIMIT 100000000 /* no PIT? then give up rather than hang */
#define CALIBRATE_PRECISION 1000 /* the ends known to 0.1% of the span, ... */
#define CALIBRATE_TRIES 20 /* ... or the best of this many tries */
#define CALIBRATE_SAMPLES 5 /* good ones, whose median is taken */
#define TSC_KHZ_FALLBACK 1000000 /* assume 1 GHz if calibration failed */

uint64_t tsc_khz;
uint64_t tsc_base; /* see arch/x86_64/tsc.h */
uint64_t tsc_mult;
volatile uint64_t jiffies;

/*
 * One measurement: TSC ticks across CALIBRATE_US of PIT channel 2, or 0 if the PIT never
 * answered. Each end is known only within a window: the start lies between the TSC reads on
 * either side of the gate's outb, the end between the last poll that saw the output low and the
 * first that saw it high. On a loaded host the vCPU can be descheduled for a long time inside
 * such a window (once, 160 ms at the end: a 17x too fast clock, and every sleep 17x too long),
 * so *window gets the sum of both widths, for the caller to judge.
 */
static uint64_t pit_measure_tsc_ticks(uint64_t *window)
{
	uint32_t count = PIT_HZ / 1000 * CALIBRATE_US / 1000;
	uint8_t gate = inb(PIT_CH2_GATE_PORT);

	outb(PIT_CH2_GATE_PORT, (gate & ~PIT_SPEAKER) & ~PIT_CH2_GATE); /* stop, speaker off */
	outb(PIT_COMMAND, PIT_CMD_CH2_LOHI_MODE0);
	outb(PIT_CH2_DATA, count & 0xff);
	outb(PIT_CH2_DATA, count >> 8);

	uint64_t start_lo = rdtsc();
	outb(PIT_CH2_GATE_PORT, (gate & ~PIT_SPEAKER) | PIT_CH2_GATE); /* start counting */
	uint64_t start_hi = rdtsc(), last_low = start_hi;

	for (long i = 0; i < CALIBRATE_SPIN_LIMIT; i++) {
		bool out = inb(PIT_CH2_GATE_PORT) & PIT_CH2_OUT;
		uint64_t now = rdtsc();

		if (out) {
			*window = (start_hi - start_lo) + (now - last_low);
			/* The middle of each window: off by at most half of each width. */
			return (now + last_low) / 2 - (start_hi + start_lo) / 2;
		}
		last_low = now;
	}
	return 0;
}

/*
 * The TSC's rate in kHz: the median of CALIBRATE_SAMPLES measurements whose end windows are
 * narrower than 1/CALIBRATE_PRECISION of them, trying at most CALIBRATE_TRIES times (else the
 * narrowest one). Narrow windows are not enough under QEMU on a loaded host: once in a few
 * dozen boots, a measurement with both ends known to 5 us still came out 50% fast, as if the
 * emulated PIT and TSC had disagreed for that moment; the median outvotes such a one (Linux's
 * pit_calibrate_tsc also measures several times and keeps what agrees).
 */
static uint64_t calibrate_window, calibrate_tries; /* for the boot message */

static uint64_t pit_measure_tsc_khz(void)
{
	uint64_t good[CALIBRATE_SAMPLES], best_ticks = 0, best_window = UINT64_MAX;
	int n = 0;

	for (int try = 0; try < CALIBRATE_TRIES && n < CALIBRATE_SAMPLES; try++) {
		uint64_t window, ticks = pit_measure_tsc_ticks(&window);

		calibrate_tries = try + 1;
		if (!ticks)
			return 0; /* no PIT */
		if (window < best_window) {
			best_window = window;
			best_ticks = ticks;
		}
		if (window * CALIBRATE_PRECISION < ticks) {
			int i = n++; /* insertion sort: at most CALIBRATE_SAMPLES of them */
			for (; i > 0 && good[i - 1] > ticks; i--)
				good[i] = good[i - 1];
			good[i] = ticks;
		}
	}
	calibrate_window = best_window;
	return (n ? good[n / 2] : best_ticks) * 1000 / CALIBRATE_US;
}

void tsc_init(void)
{
	tsc_khz = pit_measure_tsc_khz();
	if (!tsc_khz)
		tsc_khz = TSC_KHZ_FALLBACK;
	WRITE_ONCE(tsc_base, rdtsc()); /* first: a reader seeing mult must see base too */
	barrier();
	WRITE_ONCE(tsc_mult,
		   (uint64_t)(((unsigned __int128)NSEC_PER_SEC << 32) / (tsc_khz * 1000)));
	/* As Linux's "tsc: Detected ... MHz processor", with how sure the measurement was. */
	printk(KERN_INFO
	       "tsc: Detected %lu.%03lu MHz processor (%lu tries, ends within %lu ticks)\n",
	       (unsigned long)(tsc_khz / 1000), (unsigned long)(tsc_khz % 1000),
	       (unsigned long)calibrate_tries, (unsigned long)calibrate_window);
}

notrace uint64_t ktime_get_ns(void)
{
	return tsc_ktime_get_ns();
}

notrace void udelay(uint64_t us)
{
	uint64_t end = ktime_get_ns() + us * NSEC_PER_USEC;
	while (ktime_get_ns() < end)
		cpu_relax();
}
