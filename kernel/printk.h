/* printk: the kernel's log, kept in a ring for dmesg; the important messages on the console. */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include <stddef.h>
#include <stdarg.h>
#include "lib/compiler.h"

/* As Linux: a level is an SOH byte and a digit at the start of the format. */
#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_CONT KERN_SOH "c" /* continues the previous line: no timestamp */

/*
 * The console shows a message when its level is below console_loglevel. Linux's names and
 * values; Lucid boots as Linux does with loglevel=5 (CONSOLE_LOGLEVEL_BOOT): warnings and worse
 * on the console, the rest only in the log (kernel/printk.c). CONSOLE_LOGLEVEL_DEFAULT, Linux's
 * 7, is what sysrq raises the level to for its header.
 */
#define MESSAGE_LOGLEVEL_DEFAULT 4 /* a printk without a level is KERN_WARNING, as Linux's */
#define CONSOLE_LOGLEVEL_MIN 1 /* the lowest the console level goes: emergencies still show */
#define CONSOLE_LOGLEVEL_QUIET 4 /* `quiet`: errors and worse */
#define CONSOLE_LOGLEVEL_BOOT 5 /* Lucid's: warnings and worse */
#define CONSOLE_LOGLEVEL_DEFAULT 7 /* everything but debug messages */
#define CONSOLE_LOGLEVEL_DEBUG 10 /* `debug`: everything */

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);

#define pr_emerg(fmt, ...) printk(KERN_EMERG fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) printk(KERN_DEBUG fmt, ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)

/* Linux's console_printk[], /proc/sys/kernel/printk, and its names for the four numbers. */
extern int console_printk[4];
#define console_loglevel (console_printk[0])
#define default_message_loglevel (console_printk[1])
#define minimum_console_loglevel (console_printk[2])
#define default_console_loglevel (console_printk[3])

/* The boot options quiet, debug, loglevel=N and ignore_loglevel (after cmdline_init). */
void printk_setup(void);
/* /proc/sys/kernel/printk; 0 or -ENOMEM. */
int printk_init_files(void);
/* From the timer tick: wakes syslog(2)'s readers when printk logged something. */
void printk_tick(void);

/*
 * The log as dmesg prints it, oldest first, without the "<N>" of each record: copies from *pos
 * (start with 0) into buf and advances *pos; returns the bytes copied, 0 at the end.
 */
size_t printk_log_read_text(char *buf, size_t size, size_t *pos);

/* Set while an oops is printed: printk then stops waiting for locks another CPU may hold. */
extern int oops_in_progress;

#endif
