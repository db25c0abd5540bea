/* The kernel command line, as GRUB passed it (kernel/cmdline.c). */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

void cmdline_init(const char *cmdline);
const char *cmdline_get_all(void);
/* True if the word name or name=... appears (a flag: any occurrence sets it). */
bool cmdline_has(const char *name);
/*
 * Copies the value of the last name=value into buf (the last one wins, as in Linux); false if
 * name has no value, or (with a warning) if the value does not fit in buf.
 */
bool cmdline_get(const char *name, char *buf, size_t size);
/*
 * The occurrences of name, bare or name=value, in order: start with *pos = NULL; each call
 * copies what follows the name ("" or "=value", what a Linux __setup function gets) into buf,
 * cut to size - 1 characters, and returns false after the last.
 */
bool cmdline_next(const char *name, const char **pos, char *buf, size_t size);
/*
 * A flag that a value can leave off, as Linux's tp_printk and traceoff_on_warning take it
 * (set_tracepoint_printk, stop_trace_on_warning): any occurrence but name=0 and name=off turns
 * it on, and no later one turns it off again.
 */
bool cmdline_flag_on(const char *name);
/*
 * A size as Linux's boot options take it: a number (0x hex, 0 octal) and an optional K, M, G,
 * T, P or E suffix, any case, each a factor of 1024. *retptr (if not NULL) gets the first
 * character not used: ptr itself when there is no number.
 */
unsigned long long memparse(const char *ptr, char **retptr);

#endif
