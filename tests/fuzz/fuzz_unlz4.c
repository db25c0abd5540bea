/*
 * Fuzzing the initramfs's LZ4 decoder (lib/decompress_unlz4.c) with corrupted frames.
 *
 * The input and the output are heap buffers of exactly their sizes, so that ASan reports a read
 * or write of even one byte past either. The output is small (OUT_MAX), so that long lengths
 * and far matches meet its end. Checked: the answer is -EINVAL or a count that fits, and a
 * frame the bound says is fine never decodes to more than that bound.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/decompress_unlz4.h"
#include "lib/errno.h"
#include "tests/fuzz/fuzz_check.h"

#define OUT_MAX 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *in = malloc(size ? size : 1), *out = malloc(OUT_MAX);
	memcpy(in, data, size);
	long n = unlz4(in, size, out, OUT_MAX);
	CHECK(n == -EINVAL || (n >= 0 && n <= OUT_MAX));
	if (n >= 0)
		CHECK((size_t)n <= unlz4_bound(in, size));
	n = lz4_decompress_block(in, size, out, OUT_MAX);
	CHECK(n == -EINVAL || (n >= 0 && n <= OUT_MAX));
	free(in);
	free(out);
	return 0;
}
