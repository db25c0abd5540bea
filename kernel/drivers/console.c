/*
 * The console: COM1 carries both the kernel's messages and the shell's input.
 *
 * Output turns "\n" into "\r\n", as a terminal expects. Input arrives by interrupt into a small
 * ring (console_rx), and console_getc() sleeps until there is something in it: the CPU halts
 * rather than spinning, so an idle Lucid costs the host nothing.
 *
 * Ctrl-C: while the shell runs a command line it asks, with console_set_intr(), to be told of
 * a Ctrl-C instead of finding it in the input, as a Linux tty with ISIG turns it into SIGINT.
 *
 * Ctrl-O: the next key is a SysRq key (kernel/debug/sysrq.c), acted on here in the interrupt, so it
 * works even when nothing reads the console: Lucid's stand-in for a serial BREAK.
 *
 * Not traced: printk reaches here, and printk must work from inside the tracer.
 */
#include "kernel/drivers/console.h"
#include "kernel/shell/line_edit.h"
#include "kernel/sched/spinlock.h"
#include "kernel/debug/sysrq.h"
#include "kernel/sched/wait.h"
#include "arch/x86_64/uart.h"
#include "lib/compiler.h"
#include "arch/x86_64/cpu.h"

uint64_t boot_prompt_tsc;

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
static DECLARE_WAIT_QUEUE_HEAD(rx_wait);
static void (*intr_handler)(void);
static bool sysrq_pending; /* Ctrl-O came: the next byte is a SysRq key (interrupt only) */

void console_init(void)
{
	uart_init(COM1_PORT);
}

notrace void console_write(const char *s, size_t n)
{
	unsigned long flags = local_irq_save();
	bool locked = arch_spin_trylock(&tx_lock);
	/* An oops on another CPU may hold the lock forever: wait a bounded time, then print. */
	for (int spins = 0; !locked && spins < 1000000; spins++) {
		cpu_relax();
		locked = arch_spin_trylock(&tx_lock);
	}
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			uart_putc(COM1_PORT, '\r');
		uart_putc(COM1_PORT, s[i]);
	}
	if (locked)
		arch_spin_unlock(&tx_lock);
	local_irq_restore(flags);
}

void console_set_intr(void (*handler)(void))
{
	__atomic_store_n(&intr_handler, handler, __ATOMIC_RELEASE);
}

notrace void console_rx(char c)
{
	void (*intr)(void) = __atomic_load_n(&intr_handler, __ATOMIC_ACQUIRE);

	if (sysrq_pending) {
		sysrq_pending = false;
		handle_sysrq((unsigned char)c);
		return;
	}
	if (c == SYSRQ_CONSOLE_PREFIX) {
		sysrq_pending = true;
		return;
	}
	if (c == 0x03 && intr) { /* Ctrl-C */
		intr();
		return;
	}
	if (rx_head - rx_tail < RX_RING_SIZE) {
		rx_ring[rx_head % RX_RING_SIZE] = c;
		__atomic_store_n(&rx_head, rx_head + 1, __ATOMIC_RELEASE);
	}
	wake_up(&rx_wait);
}

static bool rx_ready(void)
{
	return __atomic_load_n(&rx_head, __ATOMIC_ACQUIRE) != rx_tail;
}

int console_getc(void)
{
	if (!boot_prompt_tsc)
		boot_prompt_tsc = rdtsc(); /* the first read is the shell at its first prompt */
	wait_event(&rx_wait, rx_ready());
	char c = rx_ring[rx_tail % RX_RING_SIZE];
	__atomic_store_n(&rx_tail, rx_tail + 1, __ATOMIC_RELEASE);
	return (unsigned char)c;
}

int console_getc_nowait(void)
{
	if (!rx_ready())
		return -1;
	char c = rx_ring[rx_tail % RX_RING_SIZE];
	__atomic_store_n(&rx_tail, rx_tail + 1, __ATOMIC_RELEASE);
	return (unsigned char)c;
}

wait_queue_head_t *console_rx_wait_queue(void)
{
	return &rx_wait;
}
