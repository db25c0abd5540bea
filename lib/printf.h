/* Formatted output into a buffer: vsnprintf and friends, with Linux's return conventions. */
#ifndef LIB_PRINTF_H
#define LIB_PRINTF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include "lib/compiler.h"

/* Host unit tests link this next to libc: rename what libc also defines (see lib/string.h). */
#ifdef LUCID_HOST
#define vsnprintf lucid_vsnprintf
#define snprintf lucid_snprintf
#endif

/*
 * Conversions: %d %i %u %x %X %o %c %s %p %%, flags "-+ #0", width and precision (also "*"),
 * length modifiers hh h l ll z t j. No floating point. Extensions, as in Linux:
 *   %pS  a kernel text address as "func+0x1a/0x40" (through the registered symbolizer)
 *   %ps  the same without the offset: "func"
 */

/* Returns the length the full output has (excluding the NUL), even if size cut it short. */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/*
 * Returns the number of characters actually written into buf (excluding the NUL): 0 if size is 0.
 */
int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int scnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/*
 * fn writes the symbol for addr into buf ("func+0x1a/0x40" when with_offset, else "func"),
 * at most size bytes including the NUL, and returns the length written; 0 means "unknown
 * address", and %pS then prints the address in hex. NULL unregisters.
 */
typedef size_t (*printf_symbolizer_t)(char *buf, size_t size, unsigned long addr, bool with_offset);
void printf_set_symbolizer(printf_symbolizer_t fn);

#endif
