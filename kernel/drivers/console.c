/*
 * The console: COM1 carries both the kernel's messages and what is typed.
 *
 * Output turns "\n" into "\r\n", as a terminal expects. Input arrives by interrupt into a small
 * ring (console_rx), and console_getc() sleeps until there is something in it: the CPU halts
 * rather than spinning, so an idle Lucid costs the host nothing.
 *
 * Ctrl-C, Ctrl-\ and Ctrl-Z: the tty (kernel/drivers/tty.c) sees each byte as it arrives, in
 * the interrupt, and takes the ones that send a signal (ISIG) before they reach the ring.
 *
 * One interrupt's bytes are one batch, as Linux's flip buffer hands them to n_tty in one
 * receive_buf: they are staged (rx_batch) and reach the ring, and wake a reader, only once the
 * UART has no more (console_rx_done). So a reader on another CPU never takes the first bytes of
 * a burst while the rest are still arriving: a ^C at the end of "echo abc^C" flushes all of it
 * before bash sees any. Were the bytes published one by one, bash could wake (pselect says
 * readable), the ^C flush the ring and its SIGINT run readline's handler as pselect returns,
 * and readline's read() that follows would then sleep on an empty tty: no new prompt until
 * Enter (test_ctrl_c_ends_blocking_reads).
 *
 * Ctrl-O: the next key is a SysRq key (kernel/debug/sysrq.c), acted on here in the interrupt, so it
 * works even when nothing reads the console: Lucid's stand-in for a serial BREAK.
 *
 * Not traced: printk reaches here, and printk must work from inside the tracer.
 */
#include "kernel/drivers/console.h"
#include "kernel/drivers/tty.h"
#include "kernel/shell/line_edit.h"
#include "kernel/locking/spinlock.h"
#include "kernel/debug/sysrq.h"
#include "kernel/sched/wait.h"
#include "kernel/time/time.h"
#include "arch/x86_64/uart.h"
#include "lib/compiler.h"
#include "arch/x86_64/cpu.h"

/*
 * A power of two. It holds a whole line at the line editor's limit and its Enter, typed ahead
 * while a command runs (Linux's tty keeps 4 KiB of it): a line cut short loses its Enter, and
 * the shell would wait for ever for the end of it.
 */
#define RX_RING_SIZE 8192
_Static_assert(RX_RING_SIZE > LINE_EDIT_MAX, "a typed-ahead line and its Enter must fit");

static char rx_ring[RX_RING_SIZE];
static unsigned int rx_head, rx_tail; /* written by the interrupt, read by console_getc */
static DEFINE_SPINLOCK(tx_lock);
/* Between readers, and a flush from the interrupt. The untraced __raw_ forms: console_rx is an
 * interrupt path and notrace (kernel/locking/spinlock.h). */
static DEFINE_SPINLOCK(rx_lock);
static DECLARE_WAIT_QUEUE_HEAD(rx_wait);
static bool sysrq_pending; /* Ctrl-O came: the next byte is a SysRq key (interrupt only) */
/* More than the UART's FIFO (16 bytes): a full batch is published and a new one begun. */
#define RX_BATCH_SIZE 64
static char rx_batch[RX_BATCH_SIZE]; /* this interrupt's bytes, not yet in the ring (rx_lock) */
static unsigned int rx_batch_len;

void console_init(void)
{
	uart_init(COM1_PORT);
}

static notrace void write_bytes(const char *s, size_t n, bool onlcr)
{
	unsigned long flags = local_irq_save();
	bool locked = arch_spin_trylock(&tx_lock);
	/* An oops on another CPU may hold the lock forever: wait a bounded time, then print. */
	for (int spins = 0; !locked && spins < 1000000; spins++) {
		cpu_relax();
		locked = arch_spin_trylock(&tx_lock);
	}
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n' && onlcr)
			uart_putc(COM1_PORT, '\r');
		uart_putc(COM1_PORT, s[i]);
	}
	if (locked)
		arch_spin_unlock(&tx_lock);
	local_irq_restore(flags);
}

notrace void console_write(const char *s, size_t n)
{
	write_bytes(s, n, true);
}

void console_write_raw(const char *s, size_t n)
{
	write_bytes(s, n, false);
}

/* The staged bytes into the ring, at once (one store of rx_head). Called with rx_lock held. */
static notrace void publish_batch(void)
{
	unsigned int head = rx_head;

	for (unsigned int i = 0; i < rx_batch_len && head - rx_tail < RX_RING_SIZE; i++)
		rx_ring[head++ % RX_RING_SIZE] = rx_batch[i];
	rx_batch_len = 0;
	__atomic_store_n(&rx_head, head, __ATOMIC_RELEASE);
}

notrace void console_rx(char c)
{
	unsigned long flags;

	if (sysrq_pending) {
		sysrq_pending = false;
		handle_sysrq((unsigned char)c);
		return;
	}
	if (c == SYSRQ_CONSOLE_PREFIX) {
		sysrq_pending = true;
		return;
	}
	/* ISIG: it became a signal, not input (and the batch went with the flush) */
	if (tty_receive_signal_char((unsigned char)c))
		return;
	flags = __raw_spin_lock_irqsave(&rx_lock);
	if (rx_batch_len == RX_BATCH_SIZE)
		publish_batch();
	rx_batch[rx_batch_len++] = c;
	__raw_spin_unlock_irqrestore(&rx_lock, flags);
}

notrace void console_rx_done(void)
{
	unsigned long flags = __raw_spin_lock_irqsave(&rx_lock);
	bool any = rx_batch_len != 0;

	publish_batch();
	__raw_spin_unlock_irqrestore(&rx_lock, flags);
	if (any)
		wake_up(&rx_wait);
}

static bool rx_ready(void)
{
	return __atomic_load_n(&rx_head, __ATOMIC_ACQUIRE) != rx_tail;
}

int console_getc(void)
{
	boot_note_prompt();
	for (;;) {
		int c;

		wait_event(&rx_wait, rx_ready());
		c = console_getc_nowait();
		if (c >= 0) /* a flush may have taken it between the two */
			return c;
	}
}

int console_getc_nowait(void)
{
	unsigned long flags = __raw_spin_lock_irqsave(&rx_lock);
	int c = -1;

	if (rx_ready()) {
		c = (unsigned char)rx_ring[rx_tail % RX_RING_SIZE];
		__atomic_store_n(&rx_tail, rx_tail + 1, __ATOMIC_RELEASE);
	}
	__raw_spin_unlock_irqrestore(&rx_lock, flags);
	return c;
}

unsigned int console_rx_count(void)
{
	return __atomic_load_n(&rx_head, __ATOMIC_ACQUIRE) - READ_ONCE(rx_tail);
}

void console_rx_flush(void)
{
	unsigned long flags = __raw_spin_lock_irqsave(&rx_lock);

	__atomic_store_n(&rx_tail, __atomic_load_n(&rx_head, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
	rx_batch_len = 0; /* and what this interrupt has staged: n_tty's flush takes it all */
	__raw_spin_unlock_irqrestore(&rx_lock, flags);
}

wait_queue_head_t *console_rx_wait_queue(void)
{
	return &rx_wait;
}
