/* The console: the serial line that the shell and printk share. */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stddef.h>

void console_init(void);
void console_write(const char *s, size_t n);
/* Blocks until a byte arrives; returns it. */
int console_getc(void);
/* Called from the UART interrupt with each byte received. */
void console_rx(char c);

#endif
