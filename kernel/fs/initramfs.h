/* The initramfs: a newc cpio archive unpacked into / at boot (kernel/fs/initramfs.c). */
#ifndef KERNEL_INITRAMFS_H
#define KERNEL_INITRAMFS_H

#include <stddef.h>
#include <stdint.h>

#define CPIO_NAME_MAX 256 /* longer names are refused: Lucid's paths are short */

/* One member of the archive, as cpio_parse() hands it out: pointers into the archive. */
struct cpio_entry {
	const char *name; /* NUL-terminated, inside the archive */
	uint32_t mode; /* file type and permission bits, as st_mode */
	const uint8_t *data;
	size_t size;
};

/*
 * Walks the newc archive buf[0..len), calling fn for each member up to the TRAILER!!! entry.
 * Stops at fn's first nonzero return and returns it. Returns 0 at the trailer, or -EINVAL for an
 * archive that is cut short or malformed (a bad magic, a field that is not hex, a name without
 * its NUL, a size running past the end). Touches nothing outside buf: fuzzed on the host.
 */
int cpio_parse(const void *buf, size_t len, int (*fn)(const struct cpio_entry *e, void *ctx),
	       void *ctx);

/* Unpacks the archive GRUB loaded at physical [start, end) into the root file system. */
void initramfs_unpack(uint64_t start, uint64_t end);

#endif
