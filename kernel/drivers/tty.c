/*
 * /dev/console: the serial console as a file, for the stdin, stdout and stderr of commands.
 *
 * Writing prints. Reading is "cooked", as in a Linux tty's canonical mode: what is typed is
 * echoed and collected into a line, Backspace and Ctrl-U edit it, and only Enter hands the
 * line (with its "\n") to the reader; Ctrl-D on an empty line is end of file. Ctrl-C never
 * arrives here: while a command line runs, the shell has the console turn it into an interrupt
 * (console_set_intr). The shell itself reads the console raw, through its own line editor,
 * as bash switches the tty to raw mode while it edits a command line.
 *
 * The line is collected inside read(), from the bytes the console interrupt has queued, under
 * the VFS lock, which is also what protects it. With no finished line read() says -EAGAIN and
 * names the console's input wait queue, on which vfs_block() sleeps.
 */
#include "kernel/drivers/tty.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/drivers/console.h"
#include "lib/errno.h"
#include "lib/string.h"

#define TTY_LINE_MAX 4096 /* Linux's N_TTY_BUF_SIZE: longer lines are cut, the rest ignored */
#define CTRL(c) ((c)&0x1f)

static struct {
	char buf[TTY_LINE_MAX];
	size_t len; /* bytes in buf */
	size_t off; /* of a finished line, bytes already read */
	bool done; /* Enter (or Ctrl-D) ended the line: it is being read */
	bool after_cr; /* an LF now belongs to the CR before it: one Enter */
} line;

static void erase(size_t n)
{
	for (; n && line.len; n--) {
		line.len--;
		console_write("\b \b", 3);
	}
}

/* Takes the bytes typed so far into the line; true once it is finished. */
static bool collect(void)
{
	int c;

	while (!line.done && (c = console_getc_nowait()) >= 0) {
		bool after_cr = line.after_cr;

		line.after_cr = c == '\r';
		if (c == '\r' || (c == '\n' && !after_cr)) {
			line.buf[line.len++] = '\n'; /* the last byte is kept free for it */
			console_write("\n", 1);
			line.done = true;
		} else if (c == CTRL('D')) {
			line.done = true; /* on an empty line: a read of 0 bytes, end of file */
		} else if (c == 0x7f || c == CTRL('H')) {
			erase(1);
		} else if (c == CTRL('U')) {
			erase(line.len);
		} else if (((c >= ' ' && c < 0x7f) || c == '\t') && line.len < TTY_LINE_MAX - 1) {
			line.buf[line.len++] = (char)c;
			console_write(&line.buf[line.len - 1], 1);
		}
	}
	return line.done;
}

static ssize_t console_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	size_t n;

	(void)file;
	(void)pos;
	if (!collect())
		return -EAGAIN;
	n = MIN(count, line.len - line.off);
	memcpy(buf, line.buf + line.off, n);
	line.off += n;
	if (line.off == line.len) { /* all read: start the next line */
		line.len = line.off = 0;
		line.done = false;
	}
	return (ssize_t)n;
}

static ssize_t console_fwrite(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	(void)file;
	(void)pos;
	console_write(buf, count);
	return (ssize_t)count;
}

static struct wait_queue_head *console_wait_queue(struct file *file)
{
	(void)file;
	return console_rx_wait_queue();
}

static const struct file_operations console_fops = {
	.read = console_read,
	.write = console_fwrite,
	.wait_queue = console_wait_queue,
};

void tty_flush_input(void)
{
	vfs_lock();
	line.len = line.off = 0;
	line.done = false;
	vfs_unlock();
}

int tty_init(void)
{
	return vfs_mknod("/dev/console", S_IFCHR | 0600, &console_fops);
}
