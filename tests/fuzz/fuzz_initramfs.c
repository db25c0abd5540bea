/*
 * Fuzzing the initramfs's newc parser (kernel/fs/initramfs.c) with corrupted archives.
 *
 * The archive is copied into a heap buffer of exactly its size, so that ASan reports a read of
 * even one byte past it. Checked: only 0, -EINVAL or the callback's own value comes back, and
 * every member handed out lies inside the buffer with its name terminated there.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/fs/initramfs.h"
#include "lib/errno.h"
#include "tests/fuzz/fuzz_check.h"

#define STOP_AFTER 64 /* the callback's own error after this many members */

struct bounds {
	const uint8_t *lo, *hi;
	int n;
};

static int member(const struct cpio_entry *e, void *ctx)
{
	struct bounds *b = ctx;
	const uint8_t *name = (const uint8_t *)e->name;

	CHECK(name >= b->lo && name + strlen(e->name) < b->hi);
	CHECK(e->data >= b->lo && e->data <= b->hi && e->size <= (size_t)(b->hi - e->data));
	return ++b->n == STOP_AFTER ? -ENOSPC : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1);
	memcpy(buf, data, size);
	struct bounds b = {buf, buf + size, 0};
	int err = cpio_parse(buf, size, member, &b);
	CHECK(err == 0 || err == -EINVAL || err == -ENOSPC);
	free(buf);
	return 0;
}
