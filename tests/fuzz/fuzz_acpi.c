/*
 * Fuzzing the ACPI table parser (arch/x86_64/acpi_tables.c) with corrupted tables.
 *
 * Input: a flags byte, the RSDP's length, then an image of "physical memory" from address 0:
 * the RSDP is its first bytes (GRUB's copy), and every pointer in the tables is an offset into
 * it. table_at(phys, len) hands out a fresh heap copy of exactly len bytes, so ASan reports a
 * read past what the parser asked for, not just past the image.
 *
 * Tables with bad checksums are skipped by the parser, and a fuzzer rarely guesses a checksum,
 * so when flags bit 0 is set the harness first fixes the checksums of the RSDP, the root table
 * and every table it lists (where they lie inside the image), the way a real firmware would.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arch/x86_64/acpi_tables.h"
#include "lib/errno.h"
#include "tests/fuzz/fuzz_check.h"
#include "lib/unaligned.h"

#define SDT_HEADER_LEN 36
#define SDT_CHECKSUM 9
#define RSDP_CHECKSUM 8
#define RSDP_V1_LEN 20
#define RSDP_V2_LEN 36
#define MAX_MAPPINGS 4096

static uint8_t *mem;
static size_t mem_size;
static void *mappings[MAX_MAPPINGS];
static int nr_mappings;

static const void *table_at(uint64_t phys, size_t len)
{
	if (phys > mem_size || len > mem_size - phys || nr_mappings == MAX_MAPPINGS)
		return NULL;
	void *copy = malloc(len ? len : 1);
	memcpy(copy, mem + phys, len);
	mappings[nr_mappings++] = copy;
	return copy;
}

/* Sets the checksum byte at p[at] so that the len bytes at p add up to 0. */
static void fix_checksum(uint8_t *p, size_t len, size_t at)
{
	uint8_t sum = 0;

	p[at] = 0;
	for (size_t i = 0; i < len; i++)
		sum += p[i];
	p[at] = -sum;
}

/* The table at phys, if its header and length lie inside the image. */
static void fix_table(uint64_t phys)
{
	if (phys > mem_size || mem_size - phys < SDT_HEADER_LEN)
		return;
	uint32_t len = get_unaligned_le32(mem + phys + 4);
	if (len >= SDT_HEADER_LEN && len <= mem_size - phys)
		fix_checksum(mem + phys, len, SDT_CHECKSUM);
}

static void fix_checksums(size_t rsdp_len)
{
	if (rsdp_len < RSDP_V1_LEN)
		return;
	fix_checksum(mem, RSDP_V1_LEN, RSDP_CHECKSUM);
	bool xsdt = mem[15] >= 2 && rsdp_len >= RSDP_V2_LEN && get_unaligned_le64(mem + 24);
	uint64_t root = xsdt ? get_unaligned_le64(mem + 24) : get_unaligned_le32(mem + 16);
	size_t entry = xsdt ? 8 : 4;

	if (root > mem_size || mem_size - root < SDT_HEADER_LEN)
		return;
	uint32_t len = get_unaligned_le32(mem + root + 4);
	for (uint64_t off = SDT_HEADER_LEN; off + entry <= len && root + off + entry <= mem_size;
	     off += entry)
		fix_table(xsdt ? get_unaligned_le64(mem + root + off)
			       : get_unaligned_le32(mem + root + off));
	fix_table(root); /* last: the tables fixed above may overlap it */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct acpi_info info;

	if (size < 2)
		return 0;
	mem_size = size - 2;
	mem = malloc(mem_size ? mem_size : 1);
	memcpy(mem, data + 2, mem_size);
	size_t rsdp_len = data[1] % 65 < mem_size ? data[1] % 65 : mem_size;
	if (data[0] & 1)
		fix_checksums(rsdp_len);

	uint8_t *rsdp = malloc(rsdp_len ? rsdp_len : 1); /* GRUB's copy, exactly its length */
	memcpy(rsdp, mem, rsdp_len);
	int err = acpi_parse(rsdp, rsdp_len, table_at, &info);

	CHECK(err == 0 || err == -EINVAL);
	CHECK(info.nr_cpus >= 0 && info.nr_cpus <= NR_CPUS && info.cpus_ignored >= 0);
	CHECK(err || info.nr_cpus > 0);
	while (nr_mappings)
		free(mappings[--nr_mappings]);
	free(rsdp);
	free(mem);
	return 0;
}
