/*
 * /sys/kernel/debug/rbstat: the trace buffer's counters per CPU, and whether every event is
 * accounted for.
 *
 * per_cpu/cpuN/stats shows what Linux shows; it leaves out how many events writers tried to
 * record, which is what makes the counters checkable. The ring buffer counts that too
 * (trace/ring_buffer.h), and each such event must have ended as exactly one of: still in the
 * buffer, read from trace_pipe, overwritten, dropped (buffer full, overwrite off), or lost to a
 * commit overrun. rbstat prints the sum per CPU, a line each, ending in "  MISMATCH" where it
 * does not add up. Read it with tracing_on at 0: while events are being written the counters
 * move between reads.
 */
#include "kernel/debug/rbstat.h"
#include "kernel/fs/debugfs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/printk.h"
#include "trace/trace.h"
#include "trace/ring_buffer.h"

static int rbstat_show(struct seq_file *m, void *v)
{
	struct ring_buffer *b = global_trace.buffer;

	(void)v;
	for (int cpu = 0; b && cpu < global_trace.nr_cpus; cpu++) {
		unsigned long written = ring_buffer_written_cpu(b, cpu);
		unsigned long entries = ring_buffer_entries_cpu(b, cpu);
		unsigned long read = ring_buffer_read_events_cpu(b, cpu);
		unsigned long overrun = ring_buffer_overrun_cpu(b, cpu);
		unsigned long dropped = ring_buffer_dropped_events_cpu(b, cpu);
		unsigned long commit = ring_buffer_commit_overrun_cpu(b, cpu);
		unsigned long sum = entries + read + overrun + dropped + commit;

		seq_printf(m,
			   "cpu%d: written %lu = entries %lu + read %lu + overrun %lu + "
			   "dropped %lu + commit overrun %lu%s\n",
			   cpu, written, entries, read, overrun, dropped, commit,
			   sum == written ? "" : "  MISMATCH");
	}
	return 0;
}

static int rbstat_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return single_open(file, rbstat_show, NULL);
}

static const struct file_operations rbstat_fops = {
	.open = rbstat_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

void rbstat_init(void)
{
	if (!debugfs_create_file("rbstat", 0400, NULL, NULL, &rbstat_fops))
		printk(KERN_WARNING "rbstat: cannot create /sys/kernel/debug/rbstat\n");
}
