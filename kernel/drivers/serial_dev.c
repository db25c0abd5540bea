/*
 * /dev/ttyS1: the second serial port (COM2) as a raw byte channel out of the machine.
 *
 * The console (COM1) is for people: kernel/drivers/tty.c turns "\n" into "\r\n" and echoes what is
 * typed. A binary file copied over it would be mangled and would mangle the screen. COM2 is
 * 8-bit clean: every byte written goes out as it is, so `cat per_cpu/cpu0/trace_pipe_raw >
 * /dev/ttyS1` copies ring-buffer pages to the host (tools/lucid-record) while the console
 * stays readable. Output only: reads end at once.
 *
 * QEMU gives the guest a COM2 when it is started with a second -serial; without one the port
 * is absent and so is /dev/ttyS1.
 */
#include "kernel/drivers/serial_dev.h"
#include "kernel/printk.h"
#include "kernel/locking/spinlock.h"
#include "kernel/fs/vfs.h"
#include "arch/x86_64/uart.h"

static DEFINE_SPINLOCK(ttyS1_lock); /* one writer's bytes at a time, never interleaved */

static ssize_t ttyS1_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)file;
	(void)buf;
	(void)count;
	(void)pos;
	return 0;
}

static ssize_t ttyS1_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	(void)file;
	(void)pos;
	spin_lock(&ttyS1_lock);
	for (size_t i = 0; i < count; i++)
		uart_putc(COM2_PORT, buf[i]);
	spin_unlock(&ttyS1_lock);
	return (ssize_t)count;
}

static const struct file_operations ttyS1_fops = {.read = ttyS1_read, .write = ttyS1_write};

int serial_dev_init(void)
{
	if (!uart_present(COM2_PORT))
		return 0;
	uart_init(COM2_PORT);
	printk(KERN_INFO "serial: COM2 at 0x%x is /dev/ttyS1 (raw, 8-bit clean)\n", COM2_PORT);
	return vfs_mknod("/dev/ttyS1", S_IFCHR | 0666, &ttyS1_fops);
}
