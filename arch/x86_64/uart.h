/* The 16550 UART: COM1 is the console, COM2 a data channel. */
#ifndef ARCH_UART_H
#define ARCH_UART_H

#include <stdint.h>
#include <stddef.h>

#define COM1_PORT 0x3f8
#define COM1_IRQ 4

void uart_init(uint16_t port);
void uart_putc(uint16_t port, char c);
void uart_enable_rx_interrupt(uint16_t port);
/* Reads one byte if one is waiting; returns -1 otherwise. */
int uart_getc_nowait(uint16_t port);

#endif
