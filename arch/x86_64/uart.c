/*
 * 16550 UART driver, the serial console.
 *
 * Output is polled: we wait for the transmit holding register to empty and write one byte. Under
 * QEMU that register is always empty, so polling costs nothing there. Input is interrupt driven:
 * the UART raises IRQ 4 when a byte arrives, and kernel/drivers/console.c takes it from there, so
 * an idle CPU can halt instead of spinning on the line status register.
 *
 * Not traced: printk and the oops path call into here, and an oops must print even when the
 * tracer is what broke.
 */
#include "arch/x86_64/uart.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/cpu.h"
#include "lib/compiler.h"
#include "kernel/time/time.h"

/* Register offsets from the port base. */
#define UART_DATA 0 /* receive / transmit holding register (DLAB=0) */
#define UART_IER 1 /* interrupt enable (DLAB=0) */
#define UART_DLL 0 /* divisor latch, low byte (DLAB=1) */
#define UART_DLM 1 /* divisor latch, high byte (DLAB=1) */
#define UART_FCR 2 /* FIFO control */
#define UART_LCR 3 /* line control */
#define UART_MCR 4 /* modem control */
#define UART_LSR 5 /* line status */
#define UART_SCR 7 /* scratch: a byte the UART keeps and nothing else uses */

#define LCR_8N1 0x03 /* 8 data bits, no parity, one stop bit */
#define LCR_DLAB 0x80 /* divisor latch access */
#define FCR_ENABLE_CLEAR 0x07 /* enable FIFOs, clear both */
/*
 * Interrupt when 8 bytes wait, or when fewer have waited 4 character times (the UART's
 * timeout interrupt, which IER_RX_AVAILABLE also enables): Linux's 8250 setting for a 16550A
 * (UART_FCR_R_TRIG_10). With a trigger of 1 byte, a burst such as "echo abc" and its ^C
 * comes one byte per interrupt, and a reader can take the first bytes before the ^C that
 * should flush them arrives (console.c, one batch per interrupt).
 */
#define FCR_RX_TRIGGER_8 0x80
#define MCR_DTR_RTS_OUT2 0x0b /* OUT2 gates the UART's interrupt line on PCs */
#define IER_RX_AVAILABLE 0x01
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY 0x20
#define DIVISOR_115200 1 /* 115200 baud = 115200 / divisor */
#define TX_SPIN_LIMIT 100000 /* before the TSC is calibrated: polls before giving up */
#define TX_WAIT_MS 2000      /* a transmitter busy this long is stuck: give up on the byte */

notrace void uart_init(uint16_t port)
{
	outb(port + UART_IER, 0);
	outb(port + UART_LCR, LCR_DLAB);
	outb(port + UART_DLL, DIVISOR_115200);
	outb(port + UART_DLM, 0);
	outb(port + UART_LCR, LCR_8N1);
	outb(port + UART_FCR, FCR_ENABLE_CLEAR | FCR_RX_TRIGGER_8);
	outb(port + UART_MCR, MCR_DTR_RTS_OUT2);
}

/* The scratch register keeps what is written; no device at all floats the bus to 0xff. */
notrace bool uart_present(uint16_t port)
{
	static const uint8_t probes[] = {0x5a, 0xa5};

	for (size_t i = 0; i < sizeof(probes); i++) {
		outb(port + UART_SCR, probes[i]);
		if (inb(port + UART_SCR) != probes[i])
			return false;
	}
	return true;
}

/*
 * Waits for the transmitter, but not forever: an oops must still get out of a machine whose
 * UART is stuck. The wait is long, because under QEMU the transmitter is busy exactly when the
 * host side does not read fast enough (a loaded host, a slow terminal): giving up early there
 * would drop bytes from the middle of a trace.
 */
notrace void uart_putc(uint16_t port, char c)
{
	uint64_t khz = __atomic_load_n(&tsc_khz, __ATOMIC_RELAXED);
	uint64_t deadline = rdtsc() + khz * TX_WAIT_MS;

	for (int i = 0; !(inb(port + UART_LSR) & LSR_THR_EMPTY); i++) {
		if (khz ? rdtsc() > deadline : i >= TX_SPIN_LIMIT)
			break;
		cpu_relax();
	}
	outb(port + UART_DATA, (uint8_t)c);
}

notrace void uart_enable_rx_interrupt(uint16_t port)
{
	outb(port + UART_IER, IER_RX_AVAILABLE);
}

notrace int uart_getc_nowait(uint16_t port)
{
	if (!(inb(port + UART_LSR) & LSR_DATA_READY))
		return -1;
	return inb(port + UART_DATA);
}
