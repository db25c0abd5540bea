/*
 * Bit operations on bitmaps: arrays of unsigned long, bit nr in word nr / BITS_PER_LONG. Linux's
 * names and meanings (linux/bitops.h, asm/bitops.h, linux/bitmap.h):
 *
 *   test_bit(nr, addr)              is the bit set
 *   set_bit, clear_bit              atomic: other CPUs may change other bits of the word at once
 *   __set_bit, __clear_bit,         not atomic: the bitmap is private, or under a lock
 *   __test_and_clear_bit
 *   find_next_zero_bit, bitmap_weight   search and count
 *
 * Inline: a bit test is one instruction where a hand-written one was.
 */
#ifndef LIB_BITOPS_H
#define LIB_BITOPS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include "lib/compiler.h"

#define BITS_PER_LONG 64 /* x86_64, and the hosts the unit tests run on */
_Static_assert(sizeof(long) * CHAR_BIT == BITS_PER_LONG, "a long is 64 bits");
#define BIT(nr) (1UL << (nr))
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG)) /* nr's bit in its word */
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG) /* nr's word in the bitmap */
#define BITS_TO_LONGS(nbits) (((nbits) + BITS_PER_LONG - 1) / BITS_PER_LONG)

static __always_inline bool test_bit(unsigned long nr, const volatile unsigned long *addr)
{
	return (addr[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) & 1;
}

static __always_inline void set_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_or(&addr[BIT_WORD(nr)], BIT_MASK(nr), __ATOMIC_RELAXED);
}

static __always_inline void clear_bit(unsigned long nr, volatile unsigned long *addr)
{
	__atomic_fetch_and(&addr[BIT_WORD(nr)], ~BIT_MASK(nr), __ATOMIC_RELAXED);
}

static __always_inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static __always_inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

/* Clears the bit; returns whether it was set. */
static __always_inline bool __test_and_clear_bit(unsigned long nr, unsigned long *addr)
{
	bool was = test_bit(nr, addr);

	__clear_bit(nr, addr);
	return was;
}

/* The first clear bit at or after offset, or size if bits offset .. size-1 are all set. */
static inline unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size,
					       unsigned long offset)
{
	for (; offset < size; offset++)
		if (!test_bit(offset, addr))
			return offset;
	return size;
}

/* The number of bits set in one word (no popcnt instruction: the kernel targets any x86_64). */
static inline unsigned int hweight_long(unsigned long w)
{
	unsigned int n = 0;

	for (; w; w &= w - 1) /* clears the lowest set bit */
		n++;
	return n;
}

/* The number of bits set among the first nbits. */
static inline unsigned long bitmap_weight(const unsigned long *addr, unsigned long nbits)
{
	unsigned long n = 0, i;

	for (i = 0; i < nbits / BITS_PER_LONG; i++)
		n += hweight_long(addr[i]);
	if (nbits % BITS_PER_LONG)
		n += hweight_long(addr[i] & (BIT_MASK(nbits) - 1));
	return n;
}

#endif
