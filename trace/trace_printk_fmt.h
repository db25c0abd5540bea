/* One line of the printk_formats file (trace/trace_printk_fmt.c). */
#ifndef TRACE_TRACE_PRINTK_FMT_H
#define TRACE_TRACE_PRINTK_FMT_H

#include <stddef.h>

/*
 * `0xffffffff81234567 : "read foo %d out of bar %p\n"` and a newline: the address a trace
 * records for a trace_printk format, and the format as C would write it, so that a tool reading
 * raw trace pages can print the messages. Returns the length the whole line needs (as snprintf
 * does: buf holds size - 1 bytes of it at most, and a NUL).
 */
size_t trace_printk_fmt_line(char *buf, size_t size, unsigned long addr, const char *fmt);

#endif
