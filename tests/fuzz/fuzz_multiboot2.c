/*
 * Fuzzing the multiboot2 boot information parser (arch/x86_64/multiboot2.c) with corrupted blocks.
 *
 * The block is copied into a heap buffer of exactly its size, so that ASan reports a read of
 * even one byte past it. A random total_size field would almost always be rejected at once, so
 * when the input's first byte is odd the harness writes the true size there first and the
 * fuzzer spends its time on the tags. Checked: only 0 or -EINVAL comes back, and what was
 * parsed stays within struct boot_info's limits, its strings terminated.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arch/x86_64/multiboot2.h"
#include "lib/errno.h"
#include "tests/fuzz/fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct boot_info info;
	int err;

	if (size < 1)
		return 0;
	size_t len = size - 1;
	uint8_t *block = malloc(len ? len : 1);
	memcpy(block, data + 1, len);
	if ((data[0] & 1) && len >= 4) {
		uint32_t total = (uint32_t)len;
		memcpy(block, &total, 4);
	}

	err = multiboot2_parse(block, len, &info);
	CHECK(err == 0 || err == -EINVAL);
	CHECK(info.nr_regions >= 0 && info.nr_regions <= BOOT_MAX_REGIONS);
	CHECK(memchr(info.cmdline, '\0', sizeof(info.cmdline)));
	CHECK(memchr(info.bootloader, '\0', sizeof(info.bootloader)));
	CHECK(info.rsdp_len <= BOOT_RSDP_MAX);
	free(block);
	return 0;
}
