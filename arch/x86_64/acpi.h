/* ACPI: which CPUs and interrupt controllers the machine has (arch/x86_64/acpi.c). */
#ifndef ARCH_ACPI_H
#define ARCH_ACPI_H

#include <stddef.h>
#include <stdint.h>
#include "arch/x86_64/acpi_tables.h"

/* Reads the tables GRUB pointed us at and configures the LAPIC/IOAPIC addresses from them. */
void acpi_init(const uint8_t *rsdp, size_t rsdp_len);
extern struct acpi_info acpi_info;

#endif
