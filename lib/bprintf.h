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
#include <stddef.h>
#include <stdint.h>
#include "lib/compiler.h"

/* Saves the arguments; returns the number of words needed (more than words: truncated). */
int vbin_printf(uint32_t *bin, size_t words, const char *fmt, va_list ap);
/* Formats like vsnprintf, with arguments from bin (what vbin_printf saved, words long). */
int bstr_printf(char *buf, size_t size, const char *fmt, const uint32_t *bin, size_t words);

#endif
