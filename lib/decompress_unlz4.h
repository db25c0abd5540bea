/* LZ4 in Linux's legacy frame (`lz4 -l`), as Linux's initramfs may be compressed (lib/). */
#ifndef LIB_DECOMPRESS_UNLZ4_H
#define LIB_DECOMPRESS_UNLZ4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LZ4_LEGACY_MAGIC 0x184C2102u /* the frame's first four bytes, little-endian */
#define LZ4_LEGACY_BLOCK_MAX (8u << 20) /* each block but the last holds exactly this much */

/* Whether buf starts with the legacy frame's magic (Linux's decompress_method() looks). */
bool lz4_legacy_magic(const void *buf, size_t len);

/*
 * The most the frame in[0..len) can decompress to: LZ4_LEGACY_BLOCK_MAX per block, from the
 * block headers alone. 0 for a frame that is not one (bad magic, a block past the end).
 */
size_t unlz4_bound(const void *in, size_t len);

/*
 * Decompresses the legacy frame in[0..len) into out[0..size); returns the bytes written, or
 * -EINVAL for anything malformed: a bad magic, a block running past the end of in, a block that
 * would write past out or more than a block's worth, a match reaching back before out. Never
 * reads or writes outside the two buffers (fuzzed on the host).
 */
long unlz4(const void *in, size_t len, void *out, size_t size);

/* One LZ4 block, the format's core: in[0..len) into out[0..size); bytes written or -EINVAL. */
long lz4_decompress_block(const uint8_t *in, size_t len, uint8_t *out, size_t size);

#endif
