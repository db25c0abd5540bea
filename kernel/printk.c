/*
 * printk: format a message, stamp it with the time since boot, keep it in the log ring that
 * `dmesg` shows, and print it on the console when its level is important enough.
 *
 * Levels, as Linux's: each record has one, 0 (KERN_EMERG) to 7 (KERN_DEBUG), and reaches the
 * console only when it is below console_loglevel (or with ignore_loglevel). At boot that is
 * CONSOLE_LOGLEVEL_BOOT, 5: warnings and worse (oopses, panics, the soft-lockup BUG and
 * ftrace_dump_on_oops are KERN_EMERG) interrupt whatever is on the console; the boot's chatter
 * (KERN_INFO) goes only to the log, where `dmesg` finds it. The boot options are Linux's: quiet
 * (4: errors and worse), loglevel=N, debug (everything) and ignore_loglevel.
 *
 * The log is a byte ring of records in the very form syslog(2) hands them out, Linux's
 * "<6>[    1.234567] text\n": the level in angle brackets, then the time stamp. So every reader
 * is a copy: syslog(2) copies bytes, the console and the rescue shell's dmesg skip the three
 * bytes of "<N>". A position in the log is a count of bytes ever written (log_head is the next),
 * which is what the readers keep: syslog's READ position, CLEAR's mark. When the ring fills, the
 * oldest bytes are overwritten; a position older than that moves on to the first whole record
 * still there. A line that does not end in a newline stays open for KERN_CONT, and readers see
 * records only once they are whole, as Linux's.
 *
 * One spin lock (with interrupts off) keeps lines from different CPUs from mixing. During an
 * oops we may be here because another CPU died holding that lock, so then we only try it, and
 * print anyway. printk may run with any lock held, the scheduler's too, so it never wakes a task
 * itself: it leaves a flag, and the timer tick wakes syslog's readers (printk_tick, as Linux's
 * 2.6 kernels woke klogd).
 *
 * Not traced: the tracer's own error paths print, and ftrace_dump_on_oops prints the trace
 * through here.
 */
#include "kernel/printk.h"
#include "kernel/cmdline.h"
#include "kernel/drivers/console.h"
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/locking/mutex.h"
#include "kernel/locking/spinlock.h"
#include "kernel/time/time.h"
#include "kernel/sched/wait.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "arch/x86_64/uaccess.h"
#include "kernel/syscalls.h"

#define LOG_BUF_SIZE (64 * 1024) /* power of two: the ring index is masked */
#define LINE_MAX 1024
#define PREFIX_MAX 32 /* "<7>[99999999999.999999] " and room to spare */
#define LEVEL_PREFIX_LEN 3 /* "<N>": facility 0 (the kernel's), so one digit */
#define LOGLEVEL_MASK 7 /* a level is 0 to 7: one digit, so the prefix is 3 bytes */

static char log_buf[LOG_BUF_SIZE];
static size_t log_head; /* total bytes ever written; the ring holds the last LOG_BUF_SIZE */
static bool line_open; /* the last record did not end in a newline: KERN_CONT continues it */
static int line_level; /* that open record's level */
static size_t line_start; /* where it starts: readers stop there until it is whole */
/*
 * Taken everywhere with the untraced forms (__raw_spin_lock_irqsave, arch_spin_lock), never with
 * spin_lock_irqsave: a tracer callback may printk (a WARN, the dump function command), and one
 * firing at the entry of a traced _raw_spin_unlock_irqrestore(&printk_lock) would find the lock
 * held by its own CPU and spin forever.
 */
static DEFINE_SPINLOCK(printk_lock);

/* Linux's console_printk[]: what /proc/sys/kernel/printk shows, in this order. */
int console_printk[4] = {CONSOLE_LOGLEVEL_BOOT, MESSAGE_LOGLEVEL_DEFAULT, CONSOLE_LOGLEVEL_MIN,
			 CONSOLE_LOGLEVEL_DEFAULT};
static bool ignore_loglevel;
int oops_in_progress;

static notrace char log_byte(size_t pos)
{
	return log_buf[pos & (LOG_BUF_SIZE - 1)];
}

static notrace void log_append(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		log_buf[(log_head + i) & (LOG_BUF_SIZE - 1)] = s[i];
	log_head += n;
}

/* Linux's suppress_message_printing(), turned around. */
static notrace bool console_wants(int level)
{
	return ignore_loglevel || level < console_loglevel;
}

/* The oldest record still whole in the ring (its start may be overwritten: then the next). */
static notrace size_t log_first(void)
{
	size_t p;

	if (log_head <= LOG_BUF_SIZE)
		return 0;
	for (p = log_head - LOG_BUF_SIZE; p < log_head; p++)
		if (log_byte(p) == '\n')
			return p + 1;
	return log_head;
}

/* Where the whole records end: the open line, if any, is not one yet. */
static notrace size_t log_end(void)
{
	return line_open ? line_start : log_head;
}

static notrace size_t log_clamp(size_t pos)
{
	size_t first = log_first();

	return pos < first ? first : pos;
}

/* Ends the open line, as Linux does when a message comes that does not continue it. */
static notrace void close_line(void)
{
	log_append("\n", 1);
	if (console_wants(line_level))
		console_write("\n", 1);
	line_open = false;
}

static volatile int log_wakeup_pending; /* for printk_tick: something new to read */
static DECLARE_WAIT_QUEUE_HEAD(log_wait);

notrace int vprintk(const char *fmt, va_list ap)
{
	char buf[LINE_MAX], prefix[PREFIX_MAX], *text = buf;
	int level = -1;
	bool cont = false;
	size_t len = vscnprintf(buf, sizeof(buf), fmt, ap);
	uint64_t ns = ktime_get_ns();

	/* The level is read from the text made, as Linux's: printk("%sCall Trace:", loglvl). */
	if (len >= 2 && text[0] == KERN_SOH[0]) {
		if (text[1] == 'c')
			cont = true;
		else if (text[1] >= '0' && text[1] <= '7')
			level = text[1] - '0';
		text += 2;
		len -= 2;
	}

	unsigned long flags = local_irq_save();
	bool locked = oops_in_progress ? arch_spin_trylock(&printk_lock)
				       : (arch_spin_lock(&printk_lock), true);
	if (cont && line_open) {
		level = line_level;
	} else {
		if (line_open)
			close_line();
		if (level < 0) /* any number can be written there: a level is 3 bits, as Linux's */
			level = default_message_loglevel & LOGLEVEL_MASK;
	}
	/* Each line of the text is a record of its own, with its level and time, as in Linux. */
	for (size_t i = 0; i < len;) {
		size_t n = 0;

		if (!line_open) {
			int p = scnprintf(prefix, sizeof(prefix), "<%d>[%5lu.%06lu] ", level,
					  (unsigned long)(ns / NSEC_PER_SEC),
					  (unsigned long)(ns % NSEC_PER_SEC / 1000));

			line_start = log_head;
			line_level = level;
			line_open = true;
			log_append(prefix, (size_t)p);
			if (console_wants(level))
				console_write(prefix + LEVEL_PREFIX_LEN,
					      (size_t)p - LEVEL_PREFIX_LEN);
		}
		while (i + n < len && text[i + n++] != '\n')
			;
		log_append(text + i, n);
		if (console_wants(level))
			console_write(text + i, n);
		if (text[i + n - 1] == '\n')
			line_open = false;
		i += n;
	}
	if (locked)
		arch_spin_unlock(&printk_lock);
	local_irq_restore(flags);
	log_wakeup_pending = 1;
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

/*
 * From the timer tick, where waking a task is allowed (printk itself may hold the rq lock).
 * notrace as the rest of printk: every tick of every graph trace would show it.
 */
notrace void printk_tick(void)
{
	if (unlikely(log_wakeup_pending)) {
		log_wakeup_pending = 0;
		wake_up(&log_wait);
	}
}

/*
 * Copies the log from *pos into buf, at most size bytes and no further than end, with or
 * without each record's "<N>"; advances *pos past what it took. Returns the bytes written,
 * 0 when there is nothing (more) or the ring overwrote *pos meanwhile.
 */
static notrace size_t log_copy(char *buf, size_t size, size_t *pos, size_t end, bool levels)
{
	unsigned long flags = __raw_spin_lock_irqsave(&printk_lock);
	size_t first = log_first(), p = *pos, n = 0;

	if (p < first)
		p = first;
	while (p < end && n < size) {
		bool record_start = p == first || log_byte(p - 1) == '\n';

		if (!levels && record_start && log_byte(p) == '<') {
			p += LEVEL_PREFIX_LEN;
			continue;
		}
		buf[n++] = log_byte(p++);
	}
	*pos = p;
	__raw_spin_unlock_irqrestore(&printk_lock, flags);
	return n;
}

size_t printk_log_read_text(char *buf, size_t size, size_t *pos)
{
	unsigned long flags = __raw_spin_lock_irqsave(&printk_lock);
	size_t end = log_end();

	__raw_spin_unlock_irqrestore(&printk_lock, flags);
	return log_copy(buf, size, pos, end, false);
}

/*
 * Boot options, Linux's early params: quiet, debug and loglevel=N set the console level, in
 * the order they come (`quiet loglevel=8` shows info, `loglevel=8 quiet` does not);
 * ignore_loglevel prints everything whatever the level.
 */
#define LOGLEVEL_OPT "loglevel="
#define SETUP_WORD_MAX 24 /* the longest word we look at, "loglevel=" and a number, and room */

void printk_setup(void)
{
	const char *p = cmdline_get_all();
	char word[SETUP_WORD_MAX];

	while (*p) {
		size_t n = 0;
		int level;

		while (*p == ' ')
			p++;
		while (p[n] && p[n] != ' ')
			n++;
		if (n < sizeof(word)) { /* a longer word is none of ours, or malformed */
			memcpy(word, p, n);
			word[n] = '\0';
		} else {
			word[0] = '\0';
		}
		if (!strcmp(word, "quiet"))
			console_loglevel = CONSOLE_LOGLEVEL_QUIET;
		else if (!strcmp(word, "debug"))
			console_loglevel = CONSOLE_LOGLEVEL_DEBUG;
		else if (!strcmp(word, "ignore_loglevel"))
			ignore_loglevel = true;
		else if (!strncmp(p, LOGLEVEL_OPT, strlen(LOGLEVEL_OPT)) ||
			 (n == strlen(LOGLEVEL_OPT) - 1 && !strncmp(p, LOGLEVEL_OPT, n))) {
			if (word[0] && n >= strlen(LOGLEVEL_OPT) &&
			    !kstrtoint(word + strlen(LOGLEVEL_OPT), 10, &level))
				console_loglevel = level;
			else
				printk(KERN_WARNING "Malformed early option 'loglevel'\n");
		}
		p += n;
	}
	if (ignore_loglevel)
		printk(KERN_INFO "debug: ignoring loglevel setting.\n"); /* Linux's words */
}

/*
 * syslog(2), which busybox dmesg (klogctl) reads the log through, with Linux's actions and
 * errors. READ_ALL copies the newest whole records that fit in len, from the last CLEAR on,
 * without consuming them (READ_CLEAR then clears); READ waits for records not yet read and
 * consumes them (a record longer than len is read in parts); SIZE_UNREAD is what READ would
 * give. CONSOLE_OFF lowers the console level to the minimum (emergencies only), CONSOLE_ON
 * brings the old one back, CONSOLE_LEVEL (dmesg -n) sets it, 1 to 8. CLOSE and OPEN do nothing, as
 * in Linux. Lucid runs everyone as root, so no action needs a capability (Linux's CAP_SYSLOG).
 */
#define SYSLOG_ACTION_CLOSE 0
#define SYSLOG_ACTION_OPEN 1
#define SYSLOG_ACTION_READ 2
#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_READ_CLEAR 4
#define SYSLOG_ACTION_CLEAR 5
#define SYSLOG_ACTION_CONSOLE_OFF 6
#define SYSLOG_ACTION_CONSOLE_ON 7
#define SYSLOG_ACTION_CONSOLE_LEVEL 8
#define SYSLOG_ACTION_SIZE_UNREAD 9
#define SYSLOG_ACTION_SIZE_BUFFER 10
#define SYSLOG_CHUNK 256 /* the bounce buffer on the stack: copy_to_user may sleep, the lock not */
#define CONSOLE_LEVEL_MAX 8 /* CONSOLE_LEVEL takes 1 to 8, as Linux's */

static size_t syslog_pos; /* where READ goes on */
static size_t clear_pos; /* READ_ALL starts here: CLEAR moves it to the end */
static DEFINE_MUTEX(syslog_lock); /* one READ at a time: each consumes what it read */
static int saved_console_loglevel = -1; /* CONSOLE_OFF's, for CONSOLE_ON; -1: none */

/* Copies [from, to) of the log to buf; returns the bytes copied or -EFAULT. */
static long copy_records(char __user *buf, size_t from, size_t to)
{
	char kbuf[SYSLOG_CHUNK];
	size_t pos = from, done = 0, n;

	while (pos < to && (n = log_copy(kbuf, sizeof(kbuf), &pos, to, true)) > 0) {
		if (copy_to_user(buf + done, kbuf, n))
			return -EFAULT;
		done += n;
	}
	return (long)done;
}

/* The last record boundary in (from, to], or from if there is none. */
static size_t last_boundary(size_t from, size_t to)
{
	unsigned long flags = __raw_spin_lock_irqsave(&printk_lock);

	while (to > from && log_byte(to - 1) != '\n')
		to--;
	__raw_spin_unlock_irqrestore(&printk_lock, flags);
	return to;
}

static long syslog_read(char __user *buf, size_t len)
{
	size_t from, end, to;
	long ret;

	mutex_lock(&syslog_lock);
	ret = wait_event_interruptible(&log_wait, log_clamp(syslog_pos) < log_end());
	if (ret) {
		mutex_unlock(&syslog_lock);
		return ret;
	}
	unsigned long flags = __raw_spin_lock_irqsave(&printk_lock);
	from = log_clamp(syslog_pos);
	end = log_end();
	__raw_spin_unlock_irqrestore(&printk_lock, flags);
	to = MIN(end, from + len);
	/* Whole records; only a first one too long for len is cut (the rest comes next time). */
	if (to < end) {
		size_t whole = last_boundary(from, to);

		if (whole > from)
			to = whole;
	}
	ret = copy_records(buf, from, to);
	if (ret > 0)
		syslog_pos = from + (size_t)ret;
	mutex_unlock(&syslog_lock);
	return ret;
}

static long syslog_read_all(char __user *buf, size_t len, bool clear)
{
	unsigned long flags = __raw_spin_lock_irqsave(&printk_lock);
	size_t from = log_clamp(clear_pos), to = log_end();

	__raw_spin_unlock_irqrestore(&printk_lock, flags);
	/* The newest records that fit: start at the first whole one in the last len bytes. */
	if (to - from > len) {
		from = to - len;
		flags = __raw_spin_lock_irqsave(&printk_lock);
		while (from < to && log_byte(from - 1) != '\n')
			from++;
		__raw_spin_unlock_irqrestore(&printk_lock, flags);
	}
	long ret = copy_records(buf, from, to);
	if (clear && ret >= 0)
		clear_pos = to;
	return ret;
}

long sys_syslog(int type, char __user *buf, int len)
{
	switch (type) {
	case SYSLOG_ACTION_CLOSE:
	case SYSLOG_ACTION_OPEN:
		return 0;
	case SYSLOG_ACTION_READ:
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		if (!buf || len < 0)
			return -EINVAL;
		if (!len)
			return 0;
		if (!access_ok(buf, (size_t)len))
			return -EFAULT;
		if (type == SYSLOG_ACTION_READ)
			return syslog_read(buf, (size_t)len);
		return syslog_read_all(buf, (size_t)len, type == SYSLOG_ACTION_READ_CLEAR);
	case SYSLOG_ACTION_CLEAR: {
		unsigned long flags = __raw_spin_lock_irqsave(&printk_lock);
		clear_pos = log_end();
		__raw_spin_unlock_irqrestore(&printk_lock, flags);
		return 0;
	}
	case SYSLOG_ACTION_CONSOLE_OFF:
		if (saved_console_loglevel < 0)
			saved_console_loglevel = console_loglevel;
		console_loglevel = minimum_console_loglevel;
		return 0;
	case SYSLOG_ACTION_CONSOLE_ON:
		if (saved_console_loglevel >= 0) {
			console_loglevel = saved_console_loglevel;
			saved_console_loglevel = -1;
		}
		return 0;
	case SYSLOG_ACTION_CONSOLE_LEVEL:
		if (len < 1 || len > CONSOLE_LEVEL_MAX)
			return -EINVAL;
		console_loglevel = len < minimum_console_loglevel ? minimum_console_loglevel : len;
		saved_console_loglevel = -1; /* as Linux: this turns the console back on too */
		return 0;
	case SYSLOG_ACTION_SIZE_UNREAD: {
		unsigned long flags = __raw_spin_lock_irqsave(&printk_lock);
		long n = (long)(log_end() - log_clamp(syslog_pos));
		__raw_spin_unlock_irqrestore(&printk_lock, flags);
		return n < 0 ? 0 : n;
	}
	case SYSLOG_ACTION_SIZE_BUFFER:
		return LOG_BUF_SIZE;
	default:
		return -EINVAL;
	}
}

/*
 * /proc/sys/kernel/printk: the four numbers of console_printk[], tab-separated, as Linux's
 * proc_dointvec shows a vector. A write sets as many of them as it gives, from the first:
 * `echo 8 > /proc/sys/kernel/printk` sets the console level alone. Anything but numbers is
 * EINVAL and changes nothing.
 */
#define PRINTK_SYSCTL_MAX 64

static ssize_t printk_sysctl_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	char buf[PRINTK_SYSCTL_MAX];
	int len = scnprintf(buf, sizeof(buf), "%d\t%d\t%d\t%d\n", console_printk[0],
			    console_printk[1], console_printk[2], console_printk[3]);

	(void)file;
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, (size_t)len);
}

static ssize_t printk_sysctl_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	char buf[PRINTK_SYSCTL_MAX], *p = buf, *word;
	int vals[ARRAY_SIZE(console_printk)];
	size_t n = 0;

	(void)file;
	if (cnt == 0 || cnt >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, ubuf, cnt);
	buf[cnt] = '\0';
	while ((word = strsep(&p, " \t\n"))) {
		if (!*word)
			continue;
		if (n == ARRAY_SIZE(vals) || kstrtoint(word, 10, &vals[n]))
			return -EINVAL;
		n++;
	}
	if (!n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		WRITE_ONCE(console_printk[i], vals[i]);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations printk_sysctl_fops = {
	.read = printk_sysctl_read,
	.write = printk_sysctl_write,
};

int printk_init_files(void)
{
	return proc_create("printk", 0644, proc_sys_kernel, &printk_sysctl_fops) ? 0 : -ENOMEM;
}
