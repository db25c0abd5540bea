/* Little-endian values at any address, as Linux's get_unaligned_le32() (tables from firmware). */
#ifndef LIB_UNALIGNED_H
#define LIB_UNALIGNED_H

#include <stdint.h>
#include "lib/string.h"

/* memcpy, not a cast: firmware tables put their fields at any alignment. x86 is little-endian. */
static inline uint32_t get_unaligned_le32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t get_unaligned_le64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#endif
