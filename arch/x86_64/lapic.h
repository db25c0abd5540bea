/* The local APIC: each CPU's interrupt controller, timer and IPI sender (arch/x86_64/lapic.c). */
#ifndef ARCH_LAPIC_H
#define ARCH_LAPIC_H

#include <stdint.h>

void lapic_init(void);           /* boot CPU: map, calibrate the timer */
void lapic_init_this_cpu(void);  /* every CPU: enable, timer one-shot and unarmed */
/* Interrupt this CPU at VEC_TIMER when ktime_get_ns() reaches expires (interrupts off). */
void lapic_timer_set_next_event(uint64_t expires);
void lapic_eoi(void);
uint32_t lapic_id(void);
void lapic_send_ipi(uint32_t apic_id, int vector);
void lapic_send_nmi(uint32_t apic_id);
void lapic_send_nmi_all_but_self(void);
void lapic_send_init(uint32_t apic_id);
void lapic_send_startup(uint32_t apic_id, uint32_t page);
/* Physical address of the LAPIC registers (from the MSR, or ACPI's MADT). */
extern uintptr_t lapic_phys;

#endif
