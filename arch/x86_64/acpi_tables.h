/* Parsing ACPI's tables, with no kernel dependencies (arch/x86_64/acpi_tables.c). */
#ifndef ARCH_ACPI_TABLES_H
#define ARCH_ACPI_TABLES_H

#include <stddef.h>
#include <stdint.h>
#include "kernel/percpu.h"

struct acpi_info {
	int nr_cpus;
	uint32_t cpu_apic_ids[NR_CPUS];
	uint32_t lapic_phys;
	uint32_t ioapic_phys;
	uint32_t isa_irq_to_gsi[16];
	int cpus_ignored; /* enabled CPUs beyond NR_CPUS */
};

/*
 * Parses the RSDP (as copied from GRUB), then the RSDT/XSDT and the MADT it points to. Tables
 * are read through table_at(phys, len), which returns NULL for memory it cannot provide: so the
 * same code runs in the kernel (direct map) and in the host fuzzer. Returns 0 or -EINVAL.
 */
int acpi_parse(const uint8_t *rsdp, size_t rsdp_len,
	       const void *(*table_at)(uint64_t phys, size_t len), struct acpi_info *out);

#endif
