/*
 * The local APIC: every CPU has one. It delivers interrupts to its CPU, counts down the timer
 * that drives the scheduler tick, and sends inter-processor interrupts (IPIs) to other CPUs.
 *
 * Its registers are memory mapped (at 0xfee00000 unless ACPI says otherwise), reached here
 * through the uncached part of the direct map.
 *
 * The timer's input clock is unknown, so at boot we count how many timer ticks pass in 10 ms of
 * TSC time and program each CPU for HZ interrupts a second, periodic.
 *
 * Not traced: the timer interrupt and the IPIs used while patching code come through here.
 */
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/idt.h"
#include "kernel/time/time.h"
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
#define LVT_TIMER_PERIODIC 0x20000
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
static uint32_t ticks_per_hz;

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
	for (int i = 0; i < ICR_SPIN_LIMIT && (lapic_read(LAPIC_ICR_LOW) & ICR_DELIVERY_PENDING); i++)
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
	ticks_per_hz = (uint32_t)((uint64_t)elapsed * (NSEC_PER_SEC / HZ) / CALIBRATE_NS);
	if (!ticks_per_hz)
		ticks_per_hz = 1;
}

void lapic_init(void)
{
	if (!lapic_phys)
		lapic_phys = rdmsr(MSR_APIC_BASE) & APIC_BASE_MASK;
	lapic = __va(lapic_phys);
	lapic_write(LAPIC_SVR, SVR_ENABLE | VEC_SPURIOUS);
	lapic_timer_calibrate();
}

void lapic_init_this_cpu(void)
{
	lapic_write(LAPIC_SVR, SVR_ENABLE | VEC_SPURIOUS);
	lapic_write(LAPIC_LVT_LINT0, LVT_MASKED);
	lapic_write(LAPIC_LVT_LINT1, LVT_MASKED);
	lapic_write(LAPIC_TIMER_DIVIDE, TIMER_DIVIDE_BY_16);
	lapic_write(LAPIC_LVT_TIMER, VEC_TIMER | LVT_TIMER_PERIODIC);
	lapic_write(LAPIC_TIMER_INIT, ticks_per_hz);
}
