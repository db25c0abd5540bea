/*
 * The local APIC: every CPU has one. It delivers interrupts to its CPU, counts down the timer
 * that drives the scheduler tick, and sends inter-processor interrupts (IPIs) to other CPUs.
 *
 * Its registers are memory mapped (at 0xfee00000 unless ACPI says otherwise), reached here
 * through the uncached part of the direct map.
 *
 * Its timer interrupts once, when told to (one-shot): the high-resolution timers
 * (kernel/time/hrtimer.c) program it for their next expiry, which may be microseconds away,
 * and the tick is one of those timers (Linux's high-resolution mode does the same). The count
 * is the delay in the timer's own clock, unknown until at boot we count how many of its ticks
 * pass in 10 ms of TSC time; rounded up, so that it never fires before the expiry. (Linux
 * prefers TSC-deadline mode where the CPU has it: QEMU's TCG has not, so Lucid counts down.)
 * Firing early would only cost a spurious interrupt: hrtimer_interrupt() compares with the
 * clock and programs the rest.
 *
 * Not traced: the timer interrupt and the IPIs used while patching code come through here.
 */
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/idt.h"
#include "kernel/time/time.h"
#include "kernel/printk.h"
#include "lib/compiler.h"

#define LAPIC_ID 0x020
#define LAPIC_EOI 0x0b0
#define LAPIC_SVR 0x0f0      /* spurious interrupt vector register */
#define LAPIC_ICR_LOW 0x300  /* interrupt command register: writing the low half sends */
#define LAPIC_ICR_HIGH 0x310
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_LVT_LINT0 0x350
#define LAPIC_LVT_LINT1 0x360
#define LAPIC_TIMER_INIT 0x380
#define LAPIC_TIMER_CURRENT 0x390
#define LAPIC_TIMER_DIVIDE 0x3e0

#define SVR_ENABLE 0x100
#define LVT_MASKED 0x10000
#define LVT_TIMER_ONESHOT 0x00000
/* A longer delay is programmed as 1 s: the timers are looked at then, and it is re-armed. */
#define LAPIC_TIMER_MAX_DELTA_NS NSEC_PER_SEC
#define TIMER_DIVIDE_BY_16 0x3
#define ICR_DELIVERY_PENDING 0x1000
#define ICR_NMI 0x400
#define ICR_INIT 0x500
#define ICR_STARTUP 0x600
#define ICR_LEVEL_ASSERT 0x4000
#define ICR_ALL_BUT_SELF 0xc0000
#define APIC_BASE_MASK 0xfffff000UL
#define CALIBRATE_NS (10 * NSEC_PER_MSEC)
#define ICR_SPIN_LIMIT 1000000

uintptr_t lapic_phys;
static volatile uint32_t *lapic;
static uint64_t lapic_timer_khz; /* the count-down timer's rate, at TIMER_DIVIDE_BY_16 */

static notrace uint32_t lapic_read(uint32_t reg)
{
	return lapic[reg / 4];
}

static notrace void lapic_write(uint32_t reg, uint32_t v)
{
	lapic[reg / 4] = v;
}

notrace void lapic_eoi(void)
{
	lapic_write(LAPIC_EOI, 0);
}

notrace uint32_t lapic_id(void)
{
	return lapic_read(LAPIC_ID) >> 24;
}

static notrace void icr_wait(void)
{
	for (int i = 0; i < ICR_SPIN_LIMIT && (lapic_read(LAPIC_ICR_LOW) & ICR_DELIVERY_PENDING);
	     i++)
		cpu_relax();
}

static notrace void icr_send(uint32_t apic_id, uint32_t low)
{
	unsigned long flags = local_irq_save();
	icr_wait();
	lapic_write(LAPIC_ICR_HIGH, apic_id << 24);
	lapic_write(LAPIC_ICR_LOW, low);
	icr_wait();
	local_irq_restore(flags);
}

notrace void lapic_send_ipi(uint32_t apic_id, int vector)
{
	icr_send(apic_id, (uint32_t)vector);
}

notrace void lapic_send_nmi(uint32_t apic_id)
{
	icr_send(apic_id, ICR_NMI);
}

notrace void lapic_send_nmi_all_but_self(void)
{
	icr_send(0, ICR_ALL_BUT_SELF | ICR_NMI);
}

void lapic_send_init(uint32_t apic_id)
{
	icr_send(apic_id, ICR_INIT | ICR_LEVEL_ASSERT);
}

void lapic_send_startup(uint32_t apic_id, uint32_t page)
{
	icr_send(apic_id, ICR_STARTUP | page);
}

static void lapic_timer_calibrate(void)
{
	lapic_write(LAPIC_TIMER_DIVIDE, TIMER_DIVIDE_BY_16);
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);
	lapic_write(LAPIC_TIMER_INIT, 0xffffffff);
	uint64_t start = ktime_get_ns();
	while (ktime_get_ns() - start < CALIBRATE_NS)
		cpu_relax();
	uint32_t elapsed = 0xffffffff - lapic_read(LAPIC_TIMER_CURRENT);
	lapic_write(LAPIC_TIMER_INIT, 0);
	lapic_timer_khz = (uint64_t)elapsed * NSEC_PER_MSEC / CALIBRATE_NS;
	if (!lapic_timer_khz)
		lapic_timer_khz = 1;
}

/*
 * Interrupt (VEC_TIMER) on this CPU when ktime_get_ns() reaches expires (Linux's
 * lapic_next_event). Interrupts off: the caller holds its CPU's timer
 * base. An expiry already past interrupts at once.
 */
notrace void lapic_timer_set_next_event(uint64_t expires)
{
	uint64_t now = ktime_get_ns();
	uint64_t delta = expires > now ? expires - now : 0;

	if (delta > LAPIC_TIMER_MAX_DELTA_NS)
		delta = LAPIC_TIMER_MAX_DELTA_NS;
	/* Rounded up: a count of 0 would disarm it, and it must not fire early. */
	uint64_t count = (delta * lapic_timer_khz + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC;
	lapic_write(LAPIC_TIMER_INIT, (uint32_t)(count ? count : 1));
}

void lapic_init(void)
{
	if (!lapic_phys)
		lapic_phys = rdmsr(MSR_APIC_BASE) & APIC_BASE_MASK;
	lapic = __va(lapic_phys);
	lapic_write(LAPIC_SVR, SVR_ENABLE | VEC_SPURIOUS);
	lapic_timer_calibrate();
	printk(KERN_INFO "lapic: timer one-shot, %lu kHz\n", (unsigned long)lapic_timer_khz);
}

void lapic_init_this_cpu(void)
{
	lapic_write(LAPIC_SVR, SVR_ENABLE | VEC_SPURIOUS);
	lapic_write(LAPIC_LVT_LINT0, LVT_MASKED);
	lapic_write(LAPIC_LVT_LINT1, LVT_MASKED);
	lapic_write(LAPIC_TIMER_DIVIDE, TIMER_DIVIDE_BY_16);
	/* Nothing armed yet: hrtimers_init_this_cpu() starts the tick, which programs it. */
	lapic_write(LAPIC_LVT_TIMER, VEC_TIMER | LVT_TIMER_ONESHOT);
}
