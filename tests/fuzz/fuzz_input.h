/*
 * Reading a fuzzer's input as a stream of choices, for the targets that build structured input
 * (formats, regex syntax trees, VFS operations) from the bytes libFuzzer mutates.
 *
 * When the bytes run out every take returns 0, so a short input is still a valid, shorter
 * program: libFuzzer's mutations (flip, insert, cut) then map onto small changes in the choices.
 */
#ifndef TESTS_FUZZ_FUZZ_INPUT_H
#define TESTS_FUZZ_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct fuzz_input {
	const uint8_t *p;
	size_t n;
};

static inline unsigned int take_u8(struct fuzz_input *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static inline uint64_t take_u64(struct fuzz_input *in)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | take_u8(in);
	return v;
}

/* A choice among n (n > 0). */
static inline unsigned int take_below(struct fuzz_input *in, unsigned int n)
{
	return take_u8(in) % n;
}

#endif
