/*
 * printk: format a message, stamp it with the time since boot, keep it in the log ring that
 * `dmesg` shows, and print it on the console when its level is important enough.
 *
 * The log is a plain byte ring: when it fills, the oldest bytes are overwritten. One spin lock
 * (with interrupts off) keeps lines from different CPUs from mixing. During an oops we may be
 * here because another CPU died holding that lock, so then we only try it, and print anyway.
 *
 * Not traced: the tracer's own error paths print, and ftrace_dump_on_oops prints the trace
 * through here.
 */
#include "kernel/printk.h"
#include "kernel/drivers/console.h"
#include "kernel/sched/spinlock.h"
#include "kernel/sched/time.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/errno.h"
#include "arch/x86_64/uaccess.h"
#include "kernel/syscalls.h"

#define LOG_BUF_SIZE (64 * 1024) /* power of two: the ring index is masked */
#define LINE_MAX 1024

static char log_buf[LOG_BUF_SIZE];
static size_t log_head; /* total bytes ever written; the ring holds the last LOG_BUF_SIZE */
static bool line_open;  /* the last message did not end in a newline */
static DEFINE_SPINLOCK(printk_lock);

int console_loglevel = CONSOLE_LOGLEVEL_DEFAULT;
int oops_in_progress;

static notrace void log_append(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		log_buf[(log_head + i) & (LOG_BUF_SIZE - 1)] = s[i];
	log_head += n;
}

notrace int vprintk(const char *fmt, va_list ap)
{
	char line[LINE_MAX];
	int level = LOGLEVEL_DEFAULT;
	bool cont = false;

	if (fmt[0] == KERN_SOH[0] && fmt[1]) {
		if (fmt[1] == 'c')
			cont = true;
		else if (fmt[1] >= '0' && fmt[1] <= '7')
			level = fmt[1] - '0';
		fmt += 2;
	}

	size_t len = 0;
	if (!cont || !line_open) {
		uint64_t ns = ktime_get_ns();
		len = scnprintf(line, sizeof(line), "[%5lu.%06lu] ", (unsigned long)(ns / NSEC_PER_SEC),
				(unsigned long)(ns % NSEC_PER_SEC / 1000));
	}
	len += vscnprintf(line + len, sizeof(line) - len, fmt, ap);

	unsigned long flags = local_irq_save();
	bool locked = oops_in_progress ? arch_spin_trylock(&printk_lock)
				       : (arch_spin_lock(&printk_lock), true);
	log_append(line, len);
	line_open = len && line[len - 1] != '\n';
	if (level < console_loglevel)
		console_write(line, len);
	if (locked)
		arch_spin_unlock(&printk_lock);
	local_irq_restore(flags);
	return (int)len;
}

notrace int printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

notrace size_t printk_log_size(void)
{
	return log_head < LOG_BUF_SIZE ? log_head : LOG_BUF_SIZE;
}

/*
 * syslog(2), which busybox dmesg (klogctl) reads the log through. SYSLOG_ACTION_READ_ALL copies
 * the newest len bytes (all of it when they fit) without consuming them, SIZE_BUFFER says how
 * big the ring is, CLOSE and OPEN do nothing, as in Linux. Lucid's log keeps no level per line,
 * so the lines come without Linux's "<6>" prefix (busybox dmesg strips it anyway); the actions
 * that consume or clear the log or set the console level are EINVAL, for now.
 */
#define SYSLOG_ACTION_CLOSE 0
#define SYSLOG_ACTION_OPEN 1
#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10
#define SYSLOG_CHUNK 256 /* the bounce buffer on the stack: copy_to_user may sleep, the lock not */

long sys_syslog(int type, char __user *buf, int len)
{
	char kbuf[SYSLOG_CHUNK];
	size_t avail, skip, done = 0;

	switch (type) {
	case SYSLOG_ACTION_CLOSE:
	case SYSLOG_ACTION_OPEN:
		return 0;
	case SYSLOG_ACTION_SIZE_BUFFER:
		return LOG_BUF_SIZE;
	case SYSLOG_ACTION_READ_ALL:
		if (!buf || len < 0)
			return -EINVAL;
		if (!access_ok(buf, (size_t)len))
			return -EFAULT;
		avail = printk_log_size();
		skip = avail > (size_t)len ? avail - (size_t)len : 0;
		while (skip + done < avail) {
			size_t n = printk_log_copy(kbuf, MIN(sizeof(kbuf), avail - skip - done),
						   skip + done);

			if (!n)
				break;
			if (copy_to_user(buf + done, kbuf, n))
				return -EFAULT;
			done += n;
		}
		return (long)done;
	default:
		return -EINVAL;
	}
}

/* Copies size bytes of the log starting offset bytes after its oldest byte. */
notrace size_t printk_log_copy(char *buf, size_t size, size_t offset)
{
	unsigned long flags = spin_lock_irqsave(&printk_lock);
	size_t avail = printk_log_size();
	size_t start = log_head - avail + offset;
	size_t n = 0;
	for (; offset + n < avail && n < size; n++)
		buf[n] = log_buf[(start + n) & (LOG_BUF_SIZE - 1)];
	spin_unlock_irqrestore(&printk_lock, flags);
	return n;
}
