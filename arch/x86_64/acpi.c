/*
 * Finding the CPUs at boot: ACPI's MADT, read by acpi_tables.c through the direct map.
 *
 * The parser lives in acpi_tables.c, free of kernel dependencies so that it can be fuzzed on the
 * host; here is only what the kernel does with the result: where the LAPIC and IOAPIC registers
 * are, how ISA IRQs are wired, and which CPUs smpboot.c should wake.
 */
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/mmu.h"
#include "kernel/printk.h"
#include "lib/string.h"

struct acpi_info acpi_info;

/* In the kernel, ACPI tables are in RAM below 4 GiB: the direct map covers them. */
static const void *direct_map_table(uint64_t phys, size_t len)
{
	if (phys >= DIRECT_MAP_SIZE || len > DIRECT_MAP_SIZE - phys)
		return NULL;
	return __va(phys);
}

void acpi_init(const uint8_t *rsdp, size_t rsdp_len)
{
	if (acpi_parse(rsdp, rsdp_len, direct_map_table, &acpi_info)) {
		printk(KERN_WARNING "ACPI: no usable MADT: running on the boot CPU only\n");
		acpi_info.nr_cpus = 0;
		return;
	}
	lapic_phys = acpi_info.lapic_phys;
	if (acpi_info.ioapic_phys)
		ioapic_phys = acpi_info.ioapic_phys;
	memcpy(isa_irq_to_gsi, acpi_info.isa_irq_to_gsi, sizeof(isa_irq_to_gsi));
	printk(KERN_INFO "ACPI: MADT lists %d CPU%s, IOAPIC at %#x, LAPIC at %#x\n",
	       acpi_info.nr_cpus, acpi_info.nr_cpus == 1 ? "" : "s", acpi_info.ioapic_phys,
	       acpi_info.lapic_phys);
	if (acpi_info.cpus_ignored)
		printk(KERN_WARNING "ACPI: %d CPUs beyond NR_CPUS=%d ignored\n",
		       acpi_info.cpus_ignored, NR_CPUS);
}
