/* trace_seq: the buffer a trace line is printed into (see trace/trace_seq.h). */

/*
 * Not traced (trace/ is built without -pg): the function tracer may call into this file while
 * formatting for a reader on another CPU, and a traced helper here would fill the buffer with
 * the tracer's own work.
 */
#include "trace/trace_seq.h"
#include "lib/compiler.h"
#include "lib/bprintf.h"
#include "lib/printf.h"
#include "lib/string.h"

void trace_seq_init(struct trace_seq *s)
{
	s->len = 0;
	s->readpos = 0;
	s->full = false;
}

void trace_seq_vprintf(struct trace_seq *s, const char *fmt, va_list args)
{
	size_t room = TRACE_SEQ_BUFFER_SIZE - s->len;
	int n;

	if (s->full)
		return;
	n = vsnprintf(s->buffer + s->len, room, fmt, args);
	if (n < 0 || (size_t)n >= room) {
		/* All or nothing: drop the partial text vsnprintf left behind (none if putmem
		 * filled the buffer to its last byte: there is no byte past it to clear) */
		if (s->len < TRACE_SEQ_BUFFER_SIZE)
			s->buffer[s->len] = '\0';
		s->full = true;
		return;
	}
	s->len += (unsigned int)n;
}

void trace_seq_printf(struct trace_seq *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	trace_seq_vprintf(s, fmt, ap);
	va_end(ap);
}

void trace_seq_putmem(struct trace_seq *s, const void *mem, size_t len)
{
	if (s->full)
		return;
	if (len > TRACE_SEQ_BUFFER_SIZE - s->len) {
		s->full = true;
		return;
	}
	memcpy(s->buffer + s->len, mem, len);
	s->len += (unsigned int)len;
}

#define MAX_MEMHEX_BYTES 8

void trace_seq_putmem_hex(struct trace_seq *s, const void *mem, size_t len)
{
	static const char hex_asc[] = "0123456789abcdef";
	const unsigned char *data = mem;
	char hex[MAX_MEMHEX_BYTES * 2 + 1];

	while (len) {
		size_t chunk = MIN(len, (size_t)MAX_MEMHEX_BYTES), j = 0;

		/* little-endian: the last byte is the most significant, so it comes first */
		for (size_t i = chunk; i-- > 0;) {
			hex[j++] = hex_asc[data[i] >> 4];
			hex[j++] = hex_asc[data[i] & 0xf];
		}
		hex[j++] = ' ';
		trace_seq_putmem(s, hex, j);
		len -= chunk;
		data += chunk;
	}
}

void trace_seq_puts(struct trace_seq *s, const char *str)
{
	trace_seq_putmem(s, str, strlen(str));
}

void trace_seq_putc(struct trace_seq *s, char c)
{
	trace_seq_putmem(s, &c, 1);
}

size_t trace_seq_to_buffer(struct trace_seq *s, char *buf, size_t cnt)
{
	size_t avail = s->len - s->readpos;

	if (cnt > avail)
		cnt = avail;
	memcpy(buf, s->buffer + s->readpos, cnt);
	s->readpos += (unsigned int)cnt;
	return cnt;
}

/* trace_printk's saved arguments (lib/bprintf.h), formatted with fmt now. */
void trace_seq_bprintf(struct trace_seq *s, const char *fmt, const uint32_t *binary,
		       size_t words)
{
	size_t room = TRACE_SEQ_BUFFER_SIZE - s->len;
	int n;

	if (s->full)
		return;
	n = bstr_printf(s->buffer + s->len, room, fmt, binary, words);
	if (n < 0 || (size_t)n >= room) {
		s->buffer[s->len] = '\0'; /* all or nothing, as trace_seq_vprintf */
		s->full = true;
		return;
	}
	s->len += (unsigned int)n;
}
