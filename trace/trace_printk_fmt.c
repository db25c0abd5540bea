/* One line of the printk_formats file: a format's address and its text, escaped. */

/*
 * A format holds newlines and tabs, and one line of the file must stay one line, so those are
 * written as C writes them. The escaping is Linux's (kernel/trace/trace_printk.c t_show), quirk
 * included: '"' becomes \" but a backslash is written as it stands, so a tool must not expect
 * to undo every escape. A pure function, tested on the host (tests/unit/test_trace_printk_fmt.c).
 *
 * Not traced, as all of trace/.
 */
#include "trace/trace_printk_fmt.h"
#include "lib/compiler.h"
#include "lib/printf.h"

/* Appends text to buf as snprintf would, counting what does not fit. */
static void put(char *buf, size_t size, size_t *len, const char *text, size_t n)
{
	for (size_t i = 0; i < n; i++, (*len)++)
		if (*len + 1 < size)
			buf[*len] = text[i];
}

size_t trace_printk_fmt_line(char *buf, size_t size, unsigned long addr, const char *fmt)
{
	char head[32];
	size_t len = 0;
	int n = snprintf(head, sizeof(head), "0x%lx : \"", addr);

	put(buf, size, &len, head, (size_t)n);
	for (const char *p = fmt; *p; p++) {
		switch (*p) {
		case '\n':
			put(buf, size, &len, "\\n", 2);
			break;
		case '\t':
			put(buf, size, &len, "\\t", 2);
			break;
		case '"':
			put(buf, size, &len, "\\\"", 2);
			break;
		default: /* a backslash too: Linux writes it unchanged */
			put(buf, size, &len, p, 1);
			break;
		}
	}
	put(buf, size, &len, "\"\n", 2);
	if (size)
		buf[len < size ? len : size - 1] = '\0';
	return len;
}
