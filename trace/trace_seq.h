/*
 * trace_seq: a page-sized buffer that one trace line (or header) is printed into.
 *
 * Output functions print a whole line piece by piece; the caller then copies the line into a
 * seq_file (the trace file) or straight to the reader (trace_pipe). Each piece is all or
 * nothing: one that does not fit is not written at all and the seq is marked full, so a line is
 * never silently cut in the middle of a field; the caller sees trace_seq_has_overflowed().
 */
#ifndef TRACE_TRACE_SEQ_H
#define TRACE_TRACE_SEQ_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/compiler.h"

#define TRACE_SEQ_BUFFER_SIZE 4096

struct trace_seq {
	char buffer[TRACE_SEQ_BUFFER_SIZE];
	unsigned int len;     /* bytes printed */
	unsigned int readpos; /* bytes already handed to a reader (trace_pipe) */
	bool full;            /* a piece did not fit */
};

void trace_seq_init(struct trace_seq *s);
void trace_seq_printf(struct trace_seq *s, const char *fmt, ...) __printf(2, 3);
void trace_seq_vprintf(struct trace_seq *s, const char *fmt, va_list args);
void trace_seq_puts(struct trace_seq *s, const char *str);
void trace_seq_putc(struct trace_seq *s, char c);
void trace_seq_putmem(struct trace_seq *s, const void *mem, size_t len);
/* Each 8-byte chunk of mem as hex digits, most significant first, then a blank (Linux's). */
void trace_seq_putmem_hex(struct trace_seq *s, const void *mem, size_t len);
/* trace_printk's saved arguments (lib/bprintf.h: words of them), formatted with fmt. */
void trace_seq_bprintf(struct trace_seq *s, const char *fmt, const uint32_t *binary,
		       size_t words);
/* Copies up to cnt unread bytes to buf and marks them read; returns how many. */
size_t trace_seq_to_buffer(struct trace_seq *s, char *buf, size_t cnt);

static inline notrace bool trace_seq_has_overflowed(const struct trace_seq *s)
{
	return s->full;
}

static inline notrace unsigned int trace_seq_used(const struct trace_seq *s)
{
	return s->len;
}

#endif
