/* printk: the kernel's log, kept in a ring for dmesg and echoed to the console. */
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

#define LOGLEVEL_DEFAULT 6    /* a printk without a level is KERN_INFO */
#define CONSOLE_LOGLEVEL_DEFAULT 7 /* print everything but debug messages on the console */

int printk(const char *fmt, ...) __printf(1, 2);
int vprintk(const char *fmt, va_list ap);

#define pr_emerg(fmt, ...) printk(KERN_EMERG fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) printk(KERN_DEBUG fmt, ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)

extern int console_loglevel;

/* Copies the log, oldest first, into buf; returns the bytes copied (dmesg). */
size_t printk_log_copy(char *buf, size_t size, size_t offset);
size_t printk_log_size(void);

/* Set while an oops is printed: printk then stops waiting for locks another CPU may hold. */
extern int oops_in_progress;

#endif
