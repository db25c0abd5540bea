/*
 * Parsing the multiboot2 boot information.
 *
 * GRUB hands us a block of "tags", each with a type and a size, 8-byte aligned, ending with a
 * tag of type 0. We copy out the memory map, the command line, the boot loader's name, the
 * ACPI RSDP and where the initramfs module lies, and forget the block (its memory becomes free
 * RAM). Every size is checked against
 * the block: this parser is also fuzzed on the host with corrupted tables.
 */
#include "arch/x86_64/multiboot2.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/compiler.h"
#include "lib/unaligned.h"

#define TAG_END 0
#define TAG_CMDLINE 1
#define TAG_BOOTLOADER 2
#define TAG_MODULE 3
#define TAG_MMAP 6
#define TAG_ACPI_OLD 14
#define TAG_ACPI_NEW 15
#define TAG_HEADER 8 /* type (4 bytes) + size (4 bytes) */
#define INFO_HEADER 8 /* total_size (4 bytes) + reserved (4 bytes) */
#define MMAP_HEADER 16 /* tag header + entry_size + entry_version */
#define MMAP_ENTRY_MIN 20 /* base (8) + length (8) + type (4) */
#define MODULE_BODY_MIN 8 /* mod_start (4) + mod_end (4), then the module's command line */

static void copy_string(char *dst, size_t cap, const uint8_t *src, size_t n)
{
	size_t i = 0;
	for (; i + 1 < cap && i < n && src[i]; i++)
		dst[i] = (char)src[i];
	dst[i] = '\0';
}

static int parse_mmap(const uint8_t *tag, uint32_t size, struct boot_info *out)
{
	if (size < MMAP_HEADER)
		return -EINVAL;
	uint32_t entry_size = get_unaligned_le32(tag + 8);
	if (entry_size < MMAP_ENTRY_MIN || entry_size % 8)
		return -EINVAL;
	for (uint32_t off = MMAP_HEADER; off + entry_size <= size; off += entry_size) {
		if (out->nr_regions == BOOT_MAX_REGIONS)
			break; /* keep the first ones; Lucid never needs more */
		struct mem_region *r = &out->regions[out->nr_regions++];
		r->base = get_unaligned_le64(tag + off);
		r->len = get_unaligned_le64(tag + off + 8);
		r->type = get_unaligned_le32(tag + off + 16);
	}
	return 0;
}

int multiboot2_parse(const void *info, size_t size, struct boot_info *out)
{
	const uint8_t *p = info;

	memset(out, 0, sizeof(*out));
	if (size < INFO_HEADER)
		return -EINVAL;
	uint32_t total = get_unaligned_le32(p);
	if (total < INFO_HEADER || total > size)
		return -EINVAL;

	for (uint32_t off = INFO_HEADER; off + TAG_HEADER <= total;) {
		const uint8_t *tag = p + off;
		uint32_t type = get_unaligned_le32(tag), tsize = get_unaligned_le32(tag + 4);
		if (tsize < TAG_HEADER || tsize > total - off)
			return -EINVAL;
		if (type == TAG_END)
			return 0;
		const uint8_t *body = tag + TAG_HEADER;
		size_t blen = tsize - TAG_HEADER;
		switch (type) {
		case TAG_CMDLINE:
			copy_string(out->cmdline, sizeof(out->cmdline), body, blen);
			break;
		case TAG_BOOTLOADER:
			copy_string(out->bootloader, sizeof(out->bootloader), body, blen);
			break;
		case TAG_MMAP:
			if (parse_mmap(tag, tsize, out))
				return -EINVAL;
			break;
		case TAG_MODULE:
			/*
			 * Lucid takes one module, the initramfs: the first, as Linux takes one
			 * initrd.
			 */
			if (blen < MODULE_BODY_MIN)
				return -EINVAL;
			if (out->initrd_end == 0) {
				uint32_t start = get_unaligned_le32(body),
					 end = get_unaligned_le32(body + 4);
				if (end < start)
					return -EINVAL;
				out->initrd_start = start;
				out->initrd_end = end;
			}
			break;
		case TAG_ACPI_OLD:
		case TAG_ACPI_NEW:
			/* Prefer the ACPI 2.0 copy when GRUB gives both. */
			if (out->rsdp_len == 0 || type == TAG_ACPI_NEW) {
				out->rsdp_len = MIN(blen, (size_t)BOOT_RSDP_MAX);
				memcpy(out->rsdp, body, out->rsdp_len);
			}
			break;
		}
		off += ALIGN_UP(tsize, 8);
	}
	return -EINVAL; /* no end tag */
}
