/* The console: the serial line that the shell and printk share. */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stddef.h>
#include <stdint.h>

void console_init(void);
void console_write(const char *s, size_t n);
/* Blocks until a byte arrives; returns it. */
int console_getc(void);
/* Called from the UART interrupt with each byte received. */
void console_rx(char c);

/* The next byte typed, or -1 if there is none yet; console_rx_wait_queue() is woken for each. */
int console_getc_nowait(void);
struct wait_queue_head *console_rx_wait_queue(void);
/*
 * From now on, a Ctrl-C typed calls handler (from the interrupt) instead of being input;
 * NULL makes it input again. The shell sets it while a command runs (kernel/shell/sh_exec.c).
 */
void console_set_intr(void (*handler)(void));

/*
 * The TSC when the console was first read, by the shell at its first prompt: where boot ends,
 * for `bench` (kernel/shell/cmd/cmd_bench.c). 0 until then.
 */
extern uint64_t boot_prompt_tsc;

#endif
