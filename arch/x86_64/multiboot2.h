/* What GRUB tells us at boot, parsed from the multiboot2 information (arch/x86_64/multiboot2.c). */
#ifndef KERNEL_MULTIBOOT2_H
#define KERNEL_MULTIBOOT2_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define MULTIBOOT2_BOOTLOADER_MAGIC 0x36d76289 /* in EAX when GRUB jumps to us */
#define BOOT_MAX_REGIONS 32
#define BOOT_CMDLINE_MAX 2048 /* Linux's COMMAND_LINE_SIZE on x86: GRUB passes longer lines whole */
#define BOOT_RSDP_MAX 64 /* an ACPI 2.0 RSDP is 36 bytes */

struct mem_region {
	uint64_t base, len;
	uint32_t type; /* 1 = usable RAM, as in the BIOS e820 map */
};
#define MEM_REGION_USABLE 1

struct boot_info {
	struct mem_region regions[BOOT_MAX_REGIONS];
	int nr_regions;
	char cmdline[BOOT_CMDLINE_MAX];
	char bootloader[64];
	uint8_t rsdp[BOOT_RSDP_MAX];
	size_t rsdp_len; /* 0: GRUB gave us no ACPI tag */
	/* The first boot module (GRUB's module2): the initramfs, as physical addresses. */
	uint64_t initrd_start, initrd_end; /* both 0: no module */
};

/*
 * Copies what Lucid needs out of the multiboot2 information at info (size bytes readable).
 * Never trusts a length it has not checked: returns 0, or -EINVAL for malformed information.
 */
int multiboot2_parse(const void *info, size_t size, struct boot_info *out);

#endif
