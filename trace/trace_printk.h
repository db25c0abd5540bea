/*
 * trace_printk(): a printk into the trace buffer, from any context (trace/trace_printk.c).
 *
 *     trace_printk("read foo %d out of bar %p\n", bar->foo, bar);
 *
 * appears in the trace, under any tracer, as "foo_init: read foo 10 out of bar ffff...": the
 * function that called it, then the text. It costs a few hundred instructions at most (`bench`
 * shows trace_printk_insns) because it does not format anything: when the format is a string
 * literal (the usual case) it saves the address of the format and the argument values
 * (lib/bprintf.h), and the text is made only when someone reads the trace. Even the format is
 * read only once, at boot: each call stores its arguments by that parse (trace/trace_printk.c).
 * So it is cheap enough for the timer interrupt, the scheduler or an
 * NMI, where a printk to a serial console (milliseconds a line on real hardware) would change
 * the very timing one is trying to see.
 *
 * Every literal format also gets a pointer in the section __trace_printk_fmt (linker.ld
 * gathers them between __start___trace_bprintk_fmt and __stop___trace_bprintk_fmt), so the
 * printk_formats file can tell tools which string each recorded address stands for.
 */
#ifndef TRACE_TRACE_PRINTK_H
#define TRACE_TRACE_PRINTK_H

#include <stdarg.h>
#include <stdbool.h>
#include "lib/compiler.h"
#include "lib/string.h"

/* The address of the instruction where this expression is: "which function called me". */
#define _THIS_IP_                        \
	({                               \
		__label__ __here;        \
	__here:                          \
		(unsigned long)&&__here; \
	})

/*
 * What the macros below call; ip is the caller's address. Each returns what it recorded (words,
 * or bytes), 0 if nothing was recorded (option trace_printk off, tracing off, buffer full).
 */
int __trace_bprintk(unsigned long ip, const char *fmt, ...) __printf(2, 3);
int __trace_printk(unsigned long ip, const char *fmt, ...) __printf(2, 3);
int __trace_bputs(unsigned long ip, const char *str);
int __trace_puts(unsigned long ip, const char *str, int size);
int trace_vbprintk(unsigned long ip, const char *fmt, va_list args);
int trace_vprintk(unsigned long ip, const char *fmt, va_list args);
/* A module's formats [start, end) are made to point at copies that outlive it (before its init). */
void hold_module_trace_bprintk_format(const char **start, const char **end);
/* Boot, before tracing_init(): each literal format parsed once, for the record path. */
void trace_printk_init(void);
/* Whether fmt's calls take the layout path (a literal format without %s); for the self-test. */
bool trace_bprintk_has_layout(const char *fmt);

#define __trace_stringify_1(x...) #x
#define __trace_stringify(x...) __trace_stringify_1(x)

/*
 * The format's pointer, in the section printk_formats reads. Only literals: a format that is a
 * variable is NULL there (printk_formats skips it) and is formatted at once instead.
 */
#define __trace_printk_fmt_ptr(fmt)                                                \
	static const char *trace_printk_fmt __used __section("__trace_printk_fmt") \
		__aligned(sizeof(long)) = __builtin_constant_p(fmt) ? (fmt) : NULL

/*
 * Linux's trick: "(...)" stringified is "()" (3 bytes with its NUL) exactly when there are no
 * arguments; then only the string is saved. Both branches are compiled, so the format's pointer
 * is defined once, before them: one printk_formats line per call.
 */
#define trace_printk(fmt, ...)                                                               \
	do {                                                                                 \
		__trace_printk_fmt_ptr(fmt);                                                 \
		char _______STR[] = __trace_stringify((__VA_ARGS__));                        \
		if (sizeof(_______STR) > 3) {                                                \
			if (__builtin_constant_p(fmt))                                       \
				__trace_bprintk(_THIS_IP_, trace_printk_fmt, ##__VA_ARGS__); \
			else                                                                 \
				__trace_printk(_THIS_IP_, fmt, ##__VA_ARGS__);               \
		} else {                                                                     \
			__trace_puts_fmt(fmt, trace_printk_fmt);                             \
		}                                                                            \
	} while (0)

#define __trace_puts_fmt(str, saved)                                 \
	(__builtin_constant_p(str) ? __trace_bputs(_THIS_IP_, saved) \
				   : __trace_puts(_THIS_IP_, str, (int)strlen(str)))

/* A constant string is saved as its address alone (TRACE_BPUTS); others are copied. */
#define trace_puts(str)                                  \
	({                                               \
		__trace_printk_fmt_ptr(str);             \
		__trace_puts_fmt(str, trace_printk_fmt); \
	})

#endif
