/*
 * Reading ACPI's tables: from the RSDP to the MADT, and what the MADT lists.
 *
 * GRUB copies ACPI's Root System Description Pointer into the boot information. It points to
 * the RSDT (32-bit entries) or, from ACPI 2.0, the XSDT (64-bit entries): a list of tables. The
 * one we want is the MADT ("APIC"), a list of records: one per CPU (its local APIC id, and
 * whether it is enabled), one per IOAPIC (its address), and "interrupt source overrides" saying,
 * for example, that ISA IRQ 0 arrives at IOAPIC input 2.
 *
 * Tables come from the firmware, so nothing in them is trusted: every length is checked against
 * what the table claims and what table_at() was able to map. This file has no kernel
 * dependencies (acpi.c holds the kernel's side) so that the host fuzzer, tests/fuzz/fuzz_acpi.c,
 * can feed it corrupted tables.
 */
#include "arch/x86_64/acpi_tables.h"
#include <stdbool.h>
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/unaligned.h"

#define SDT_HEADER_LEN 36
#define RSDP_V1_LEN 20
#define RSDP_V2_LEN 36
#define MADT_RECORDS_OFFSET 44 /* header + local APIC address + flags */
#define MADT_LAPIC 0
#define MADT_IOAPIC 1
#define MADT_ISO 2 /* interrupt source override */
#define MADT_LAPIC_ADDR 5 /* 64-bit local APIC address override */
#define LAPIC_ENABLED 0x1
#define LAPIC_ONLINE_CAPABLE 0x2
#define MAX_TABLE_LEN (1 << 20)

static bool checksum_ok(const uint8_t *p, size_t len)
{
	uint8_t sum = 0;
	for (size_t i = 0; i < len; i++)
		sum += p[i];
	return sum == 0;
}

/* Maps a whole table: its header first, to learn its length, then all of it. */
static const uint8_t *map_table(uint64_t phys, const void *(*table_at)(uint64_t, size_t))
{
	const uint8_t *h = table_at(phys, SDT_HEADER_LEN);
	if (!h)
		return NULL;
	uint32_t len = get_unaligned_le32(h + 4);
	if (len < SDT_HEADER_LEN || len > MAX_TABLE_LEN)
		return NULL;
	const uint8_t *t = table_at(phys, len);
	if (!t || !checksum_ok(t, len))
		return NULL;
	return t;
}

static void parse_madt(const uint8_t *madt, struct acpi_info *out)
{
	uint32_t len = get_unaligned_le32(madt + 4);
	out->lapic_phys = get_unaligned_le32(madt + SDT_HEADER_LEN);
	for (uint32_t off = MADT_RECORDS_OFFSET; off + 2 <= len;) {
		uint8_t type = madt[off], rlen = madt[off + 1];
		if (rlen < 2 || off + rlen > len)
			break;
		const uint8_t *r = madt + off;
		if (type == MADT_LAPIC && rlen >= 8) {
			uint32_t flags = get_unaligned_le32(r + 4);
			if (flags & (LAPIC_ENABLED | LAPIC_ONLINE_CAPABLE)) {
				if (out->nr_cpus < NR_CPUS)
					out->cpu_apic_ids[out->nr_cpus++] = r[3];
				else
					out->cpus_ignored++;
			}
		} else if (type == MADT_IOAPIC && rlen >= 12 && !out->ioapic_phys) {
			out->ioapic_phys = get_unaligned_le32(r + 4);
		} else if (type == MADT_ISO && rlen >= 10 && r[3] < 16) {
			out->isa_irq_to_gsi[r[3]] = get_unaligned_le32(r + 4);
		} else if (type == MADT_LAPIC_ADDR && rlen >= 12) {
			uint64_t a = get_unaligned_le64(r + 4);
			if (a < UINT32_MAX)
				out->lapic_phys = (uint32_t)a;
		}
		off += rlen;
	}
}

int acpi_parse(const uint8_t *rsdp, size_t rsdp_len,
	       const void *(*table_at)(uint64_t phys, size_t len), struct acpi_info *out)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < 16; i++)
		out->isa_irq_to_gsi[i] = i;
	if (rsdp_len < RSDP_V1_LEN || memcmp(rsdp, "RSD PTR ", 8) ||
	    !checksum_ok(rsdp, RSDP_V1_LEN))
		return -EINVAL;

	bool xsdt = rsdp[15] >= 2 && rsdp_len >= RSDP_V2_LEN && get_unaligned_le64(rsdp + 24);
	const uint8_t *root = map_table(
		xsdt ? get_unaligned_le64(rsdp + 24) : get_unaligned_le32(rsdp + 16), table_at);
	if (!root)
		return -EINVAL;
	size_t entry = xsdt ? 8 : 4;
	uint32_t len = get_unaligned_le32(root + 4);
	for (uint32_t off = SDT_HEADER_LEN; off + entry <= len; off += entry) {
		uint64_t phys =
			xsdt ? get_unaligned_le64(root + off) : get_unaligned_le32(root + off);
		const uint8_t *t = map_table(phys, table_at);
		if (t && !memcmp(t, "APIC", 4) &&
		    get_unaligned_le32(t + 4) >= MADT_RECORDS_OFFSET) {
			parse_madt(t, out);
			return out->nr_cpus ? 0 : -EINVAL;
		}
	}
	return -EINVAL;
}
