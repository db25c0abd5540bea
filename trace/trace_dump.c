/* ftrace_dump_on_oops: when the kernel dies, print the trace that led there on the console. */

/*
 * A crash destroys the tracefs files' reader along with everything else, so the last events
 * must come out through the one thing that still works: printk to the serial console. With
 * ftrace_dump_on_oops set (boot option, or /proc/sys/kernel/ftrace_dump_on_oops), an oops or
 * panic goes
 *
 *   oops_begin()      tracing_off(): the other CPUs, still running, must not overwrite the
 *                     events that led here while the oops report prints
 *   panic()           the message, then every other CPU stopped by NMI, then the notifiers:
 *   ftrace_dump()     "Dumping ftrace buffer:", dashes, each event, dashes
 *
 * and the soft-lockup watchdog dumps the same way when it reports (kernel/watchdog.c). sysrq-z
 * (kernel/debug/sysrq.c) dumps without a crash; tracing stays off afterwards, as in Linux.
 *
 * The dump runs wherever the kernel broke: with interrupts off, on an IST stack, maybe inside
 * the tracer or halfway through a ring buffer write, with other CPUs frozen at any instruction.
 * So it allocates nothing (its iterator is static, one dumper at a time), sleeps nowhere and
 * never waits without a bound: the ring buffer's dumper mode gives up on a reader lock whose
 * holder cannot come back (ring_buffer_dump_begin), and so does the comm lookup. It reads only
 * committed events, so a write left half done on a stopped CPU is simply not there.
 *
 * Like Linux's, it is a reader like trace_pipe, with the iterator every reader sets up
 * (trace/trace_reader.c: the buffer, the tracer's open(), ...), so the tracer's own printer
 * works here as in the trace file: function_graph's look-ahead included, which consumes the
 * entry to see the next event and then says TRACE_TYPE_NO_CONSUME. TRACE_FILE_DUMP tells the
 * tracer's open() not to allocate. It consumes what it prints, one event at a time, in the
 * latency format (trace_print_lat_context) where the tracer has no format of its own, one
 * printk per line so each line gets printk's timestamp.
 *
 * Not traced: it runs inside the oops path and prints the tracer's buffer.
 */
#include "trace/trace_dump.h"
#include "trace/trace_fs.h"
#include "trace/trace.h"
#include "trace/trace_output.h"
#include "trace/trace_reader.h"
#include "trace/ring_buffer.h"
#include "kernel/cmdline.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/fs/proc/sysctl.h"
#include "kernel/watchdog.h"
#include "arch/x86_64/cpu.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

#define DUMP_DASHES "---------------------------------"
#define DUMP_SLACK 64 /* events per CPU that writes already in flight may still add */
#define MODE_TEXT_MAX 16 /* "orig_cpu", a number */

int ftrace_dump_on_oops;

static struct trace_iterator dump_iter; /* a page of text: too big for an IST stack */
static int dump_running;

/* One printk per line, as Linux's console prints a multi-line record: each with its prefix. */
static void dump_seq(struct trace_seq *s)
{
	unsigned int start = 0;

	for (unsigned int i = 0; i < s->len; i++) {
		if (s->buffer[i] != '\n')
			continue;
		printk(KERN_EMERG "%.*s\n", (int)(i - start), s->buffer + start);
		start = i + 1;
	}
	if (start < s->len) /* a last line cut short by a full seq */
		printk(KERN_EMERG "%.*s\n", (int)(s->len - start), s->buffer + start);
	trace_seq_init(s);
}

/* The oldest event left (of one CPU, for DUMP_ORIG) as the iterator's current one. */
static bool dump_next_event(struct trace_iterator *iter)
{
	if (!trace_peek_next_event(iter))
		return false;
	iter->idx = 1; /* as Linux's dump: every event is "the first", so no annotations */
	return true;
}

static unsigned long dump_limit(struct trace_iterator *iter)
{
	struct ring_buffer *buffer = iter->buffer;

	if (iter->cpu_file != RING_BUFFER_ALL_CPUS)
		return ring_buffer_entries_cpu(buffer, iter->cpu_file) + DUMP_SLACK;
	return ring_buffer_entries(buffer) + (unsigned long)iter->tr->nr_cpus * DUMP_SLACK;
}

void ftrace_dump(int mode)
{
	ftrace_dump_one(&global_trace, mode);
}

void ftrace_dump_one(struct trace_array *tr, int mode)
{
	struct trace_iterator *iter = &dump_iter;
	unsigned long flags, limit, cnt = 0;
	int cpu_file = RING_BUFFER_ALL_CPUS;

	if (__atomic_add_fetch(&dump_running, 1, __ATOMIC_ACQ_REL) != 1)
		goto out_running; /* another CPU is dumping, or a crash inside the dump itself */
	/* Always off: what happens after the dump (or between two crashes) is not the story. */
	tracer_tracing_off(tr);
	flags = local_irq_save();
	if (!tr->buffer || mode == DUMP_NONE)
		goto out;

	if (mode == DUMP_ORIG)
		cpu_file = smp_processor_id();
	else if (mode != DUMP_ALL)
		printk(KERN_EMERG "Bad dumping mode, switching to all CPUs dump\n");
	if (cpu_file >= tr->nr_cpus)
		goto out;
	/* No trace_types_lock here (it may be held): the tracer as it is at this instant. */
	trace_iterator_init(iter, tr, tr->buffer, cpu_file, TRACE_FILE_LAT_FMT | TRACE_FILE_DUMP);

	if (tr->name) /* Linux's words for an instance (ftrace_dump_one) */
		printk(KERN_EMERG "Dumping ftrace instance %s buffer:\n", tr->name);
	else
		printk(KERN_EMERG "Dumping ftrace buffer:\n");
	ring_buffer_dump_begin(tr->buffer);
	/* A bound, not a count: a reader state an oops tore in two must not loop forever. */
	limit = dump_limit(iter);
	while (cnt < limit && dump_next_event(iter)) {
		if (!cnt)
			printk(KERN_EMERG DUMP_DASHES "\n");
		cnt++;
		trace_consume_line(iter);
		dump_seq(&iter->seq);
	}
	ring_buffer_dump_end(tr->buffer);
	trace_iterator_release(iter);
	if (!cnt)
		printk(KERN_EMERG "   (ftrace buffer empty)\n");
	else
		printk(KERN_EMERG DUMP_DASHES "\n");
out:
	local_irq_restore(flags);
out_running:
	__atomic_sub_fetch(&dump_running, 1, __ATOMIC_ACQ_REL);
}

/* --- when to dump ------------------------------------------------------------------------- */

/* A panic notifier: the other CPUs are stopped by now. Also the soft-lockup report's hook. */
static void trace_panic_handler(void)
{
	int mode = READ_ONCE(ftrace_dump_on_oops);

	if (mode)
		ftrace_dump(mode);
}

/* --- boot, and /proc/sys/kernel/ftrace_dump_on_oops --------------------------------------- */

/*
 * Linux's set_ftrace_dump_on_oops(), for each occurrence in turn: "ftrace_dump_on_oops" or
 * "=1" dumps every CPU, "=orig_cpu" or "=2" the oopsing one; anything else changes nothing.
 */
static void parse_boot_option(void)
{
	char rest[MODE_TEXT_MAX]; /* "=orig_cpu" fits: a cut value is longer than any mode */

	for (const char *pos = NULL;
	     cmdline_next("ftrace_dump_on_oops", &pos, rest, sizeof(rest));) {
		if (rest[0] != '=' || !rest[1] || !strcmp(rest, "=1"))
			ftrace_dump_on_oops = DUMP_ALL;
		else if (!strcmp(rest, "=orig_cpu") || !strcmp(rest, "=2"))
			ftrace_dump_on_oops = DUMP_ORIG;
		else
			printk(KERN_WARNING "tracing: ftrace_dump_on_oops%s: unknown mode\n", rest);
	}
}

void ftrace_dump_init(void)
{
	parse_boot_option();
	/* An int, as Linux's proc_dointvec takes it: 0 none, 1 all CPUs, 2 the oopsing one. */
	if (!proc_create_data("ftrace_dump_on_oops", 0644, proc_sys_kernel, &proc_dointvec_fops,
			      &ftrace_dump_on_oops))
		printk(KERN_WARNING
		       "tracing: cannot create /proc/sys/kernel/ftrace_dump_on_oops\n");
	panic_notifier_register(trace_panic_handler);
	softlockup_dump_hook = trace_panic_handler;
}
