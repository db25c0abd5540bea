/* Little-endian values at any address, as Linux's get_unaligned_le32() (tables from firmware). */
#ifndef LIB_UNALIGNED_H
#define LIB_UNALIGNED_H

#include <stdint.h>
#include "lib/string.h"
#include "lib/compiler.h"

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

/*
 * Unaligned stores of 1, 2, 4, 8 bytes: through types that allow it, not memcpy from locals,
 * whose addresses would put the stack protector's check into every function this is inlined in
 * (the probes' fetch code, trace/trace_probe_fetch.c).
 */
typedef uint16_t __attribute__((aligned(1), may_alias)) unaligned_u16;
typedef uint32_t __attribute__((aligned(1), may_alias)) unaligned_u32;
typedef uint64_t __attribute__((aligned(1), may_alias)) unaligned_u64;

/* The low size bytes of val at dest (size 1, 2, 4; anything else stores all 8). */
static __always_inline void put_unaligned_sized(void *dest, unsigned int size, uint64_t val)
{
	switch (size) {
	case sizeof(uint8_t):
		*(uint8_t *)dest = (uint8_t)val;
		break;
	case sizeof(uint16_t):
		*(unaligned_u16 *)dest = (uint16_t)val;
		break;
	case sizeof(uint32_t):
		*(unaligned_u32 *)dest = (uint32_t)val;
		break;
	default:
		*(unaligned_u64 *)dest = val;
		break;
	}
}

#endif
