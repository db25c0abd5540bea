/* The I/O APIC: routes device interrupt lines to CPUs (arch/x86_64/ioapic.c). */
#ifndef ARCH_IOAPIC_H
#define ARCH_IOAPIC_H

#include <stdint.h>

#define IOAPIC_DEFAULT_PHYS 0xfec00000UL
extern uintptr_t ioapic_phys;
/* ISA IRQ n is wired to this global system interrupt (ACPI's MADT may override n -> n). */
extern uint32_t isa_irq_to_gsi[16];

void ioapic_init(void);
void ioapic_route(uint32_t gsi, int vector, uint32_t dest_apic_id);

#endif
