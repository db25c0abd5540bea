/*
 * Binary printf, for trace_printk(): save the arguments now, format them later
 * (lib/bprintf.c).
 *
 * trace_printk() must be cheap, so it does not format: vbin_printf() copies the arguments that
 * fmt describes into a small array of 32-bit words, and the ring buffer stores that array with
 * the address of fmt. Only when someone reads the trace does bstr_printf() turn fmt and the
 * words into text. Linux's bprint path works the same way.
 */
#ifndef LIB_BPRINTF_H
#define LIB_BPRINTF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/compiler.h"

/* Saves the arguments; returns the number of words needed (more than words: truncated). */
int vbin_printf(uint32_t *bin, size_t words, const char *fmt, va_list ap);
/* Formats like vsnprintf, with arguments from bin (what vbin_printf saved, words long). */
int bstr_printf(char *buf, size_t size, const char *fmt, const uint32_t *bin, size_t words);

/*
 * A format's argument layout: vbin_printf's parse of it, done once.
 *
 * vbin_printf reads the format character by character on every call, only to learn the same
 * thing each time: how many arguments there are and which of them take two words. When no
 * argument is a string, that is all there is to know, and the words an argument list needs
 * are a fixed number. bprint_layout_parse() works it out once; bprint_layout_save() then stores
 * the arguments with one loop over a word of bits, exactly as vbin_printf would have.
 *
 * args has one bit per argument, the first argument in bit 0, set if the argument takes two
 * words (long, long long, size_t, pointer) and clear if one (int, char, a '*' width or
 * precision); above the last argument's bit is a 1 that marks the end, so the saving loop
 * needs no counter. Hence at most BPRINT_LAYOUT_MAX_ARGS arguments.
 */
struct bprint_layout {
	uint32_t args;
	uint32_t words; /* what vbin_printf returns for this format */
};

#define BPRINT_LAYOUT_MAX_ARGS 31

/*
 * fmt's layout, or false if it has none: a %s (a string's words depend on the string), or more
 * than BPRINT_LAYOUT_MAX_ARGS arguments. Such formats take vbin_printf.
 */
bool bprint_layout_parse(const char *fmt, struct bprint_layout *layout);

/*
 * vbin_printf(bin, layout->words, fmt, ap) for the fmt the layout was parsed from, the same
 * words to the bit. On x86_64 every integer or pointer argument of a variadic call has its own
 * 8-byte slot, so va_arg of a 64-bit integer reads a pointer argument's slot as vbin_printf's
 * va_arg(void *) does, and va_arg of an unsigned int the low half of an int's as va_arg(int).
 * Inline: it is the whole of trace_printk's work on the arguments.
 */
static __always_inline void bprint_layout_save(uint32_t *bin, const struct bprint_layout *layout,
					       va_list ap)
{
	for (uint32_t args = layout->args; args > 1; args >>= 1) {
		if (args & 1) {
			uint64_t v = va_arg(ap, uint64_t);

			/*
			 * Low word first, as put_word's; memcpy: bin may be 4 bytes off alignment.
			 */
			__builtin_memcpy(bin, &v, sizeof(v));
			bin += 2;
		} else {
			*bin++ = va_arg(ap, unsigned int);
		}
	}
}

#endif
