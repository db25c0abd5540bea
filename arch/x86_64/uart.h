/* The 16550 UART: COM1 is the console, COM2 a data channel. */
#ifndef ARCH_UART_H
#define ARCH_UART_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#define COM1_PORT 0x3f8
#define COM1_IRQ 4
#define COM2_PORT 0x2f8

/* Is there a UART at port? (A missing one reads back 0xff from every register.) */
bool uart_present(uint16_t port);

void uart_init(uint16_t port);
void uart_putc(uint16_t port, char c);
void uart_enable_rx_interrupt(uint16_t port);
/* Reads one byte if one is waiting; returns -1 otherwise. */
int uart_getc_nowait(uint16_t port);

#endif
