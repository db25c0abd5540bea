/*
 * The TSC clock: ktime_get_ns() for the whole kernel, and for every trace timestamp.
 *
 * The time-stamp counter ticks at a fixed rate; we learn that rate once at boot by counting TSC
 * ticks across 10 ms of the PIT, whose input clock is a known 1.193182 MHz. Converting ticks to
 * nanoseconds is then a multiply and a shift (no division on the hot path): ns = ticks * mult >> 32,
 * with mult = 10^9 * 2^32 / tsc_hz, using a 128-bit product so it never overflows.
 *
 * Under QEMU with -icount shift=0 the guest TSC advances exactly one tick per instruction at a
 * virtual 1 GHz, which is what makes `make bench` counts repeatable.
 *
 * Not traced: the tracer reads this clock for every event.
 */
#include "kernel/sched/time.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/io.h"
#include "lib/compiler.h"

#define PIT_HZ 1193182        /* the PIT's input clock */
#define PIT_CH2_DATA 0x42
#define PIT_COMMAND 0x43
#define PIT_CH2_GATE_PORT 0x61 /* bit 0: channel 2 gate, bit 1: speaker, bit 5: channel 2 output */
#define PIT_CH2_GATE 0x01
#define PIT_SPEAKER 0x02
#define PIT_CH2_OUT 0x20
#define PIT_CMD_CH2_LOHI_MODE0 0xb0 /* channel 2, lobyte/hibyte, mode 0 (count down once) */
#define CALIBRATE_MS 10
#define CALIBRATE_SPIN_LIMIT 100000000 /* no PIT? then give up rather than hang */
#define TSC_KHZ_FALLBACK 1000000       /* assume 1 GHz if calibration failed */

uint64_t tsc_khz;
uint64_t tsc_base; /* see arch/x86_64/tsc.h */
uint64_t tsc_mult;
volatile uint64_t jiffies;

static uint64_t pit_measure_tsc_khz(void)
{
	uint32_t count = PIT_HZ * CALIBRATE_MS / 1000;
	uint8_t gate = inb(PIT_CH2_GATE_PORT);

	outb(PIT_CH2_GATE_PORT, (gate & ~PIT_SPEAKER) & ~PIT_CH2_GATE); /* stop, speaker off */
	outb(PIT_COMMAND, PIT_CMD_CH2_LOHI_MODE0);
	outb(PIT_CH2_DATA, count & 0xff);
	outb(PIT_CH2_DATA, count >> 8);
	outb(PIT_CH2_GATE_PORT, (gate & ~PIT_SPEAKER) | PIT_CH2_GATE); /* start counting */

	uint64_t t0 = rdtsc();
	for (long i = 0; i < CALIBRATE_SPIN_LIMIT; i++) {
		if (inb(PIT_CH2_GATE_PORT) & PIT_CH2_OUT) {
			uint64_t t1 = rdtsc();
			return (t1 - t0) / CALIBRATE_MS;
		}
	}
	return 0;
}

void tsc_init(void)
{
	tsc_khz = pit_measure_tsc_khz();
	if (!tsc_khz)
		tsc_khz = TSC_KHZ_FALLBACK;
	WRITE_ONCE(tsc_base, rdtsc()); /* first: a reader seeing mult must see base too */
	barrier();
	WRITE_ONCE(tsc_mult, (uint64_t)(((unsigned __int128)NSEC_PER_SEC << 32) / (tsc_khz * 1000)));
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
