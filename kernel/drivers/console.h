/* The console: the serial line that the shell and printk share. */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stddef.h>
#include <stdint.h>

void console_init(void);
/* Writes s, each "\n" as "\r\n" (what printk wants; the tty's ONLCR). */
void console_write(const char *s, size_t n);
/* Writes s exactly, for a tty whose output processing (OPOST, ONLCR) is off. */
void console_write_raw(const char *s, size_t n);
/* Blocks until a byte arrives; returns it. */
int console_getc(void);
/*
 * Called from the UART interrupt with each byte received, then console_rx_done() once the UART
 * has no more: the bytes reach readers together, as one batch (Linux's flush_to_ldisc).
 */
void console_rx(char c);
void console_rx_done(void);

/* The next byte typed, or -1 if there is none yet; console_rx_wait_queue() is woken for each. */
int console_getc_nowait(void);
struct wait_queue_head *console_rx_wait_queue(void);
/* How many bytes wait in the ring; and throwing them away (a tty's flush, after ^C). */
unsigned int console_rx_count(void);
void console_rx_flush(void);


#endif
