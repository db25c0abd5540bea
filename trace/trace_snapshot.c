/*
 * Snapshots: a spare buffer swapped with the trace buffer, to keep a moment while tracing goes on.
 */

/*
 * "echo 1 > snapshot" swaps a spare buffer, as big as the trace buffer, with it: what was traced
 * so far is now in the snapshot file, which reads like trace, and recording goes on into the
 * spare (empty the first time; after that, whatever the previous snapshot held, as in Linux).
 * "echo 2 > snapshot" (any number but 0 and 1) empties the snapshot, "echo 0 > snapshot" frees
 * it. An empty snapshot reads as Linux's help text. per_cpu/cpuN/snapshot is the same for one
 * CPU (Linux with CONFIG_RING_BUFFER_ALLOW_SWAP, as x86 has it): 1 swaps that CPU's part only,
 * 2 empties that CPU's part of the snapshot; 0 is refused (EINVAL), since the spare is freed
 * whole or not at all.
 *
 * The swap happens in the ring buffer, CPU part by CPU part, all at one instant with every
 * CPU's writers held off for it (ring_buffer_swap in trace/ring_buffer.c says how a writer that
 * raced it notices). So tr->buffer itself never changes: code that writes events keeps using it
 * as always, and no event is ever half in one buffer and half in the other.
 *
 * "Freeing" shrinks the spare to the smallest ring buffer there is (two pages a CPU), as Linux
 * does: an open trace file may still be reading a per-CPU part that a swap moved into it, so
 * the ring buffer object lives on. Everything here runs under trace_types_lock.
 *
 * Not traced: part of the tracer.
 */
#include "trace/trace.h"
#include "trace/trace_fs.h"
#include "trace/ring_buffer.h"
#include "kernel/locking/mutex.h"
#include "kernel/fs/seq_file.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "kernel/locking/lockdep.h"

#define SNAPSHOT_MIN_SIZE 1 /* rounds up to the smallest ring buffer */

/* Each CPU's part as big as the trace buffer's: a swap must not change the trace's sizes. */
static int resize_snapshot_to_main(struct trace_array *tr)
{
	for (int cpu = 0; cpu < tr->nr_cpus; cpu++) {
		unsigned long size = ring_buffer_size(tr->buffer, cpu);
		int ret;

		if (ring_buffer_size(tr->snapshot_buffer, cpu) == size)
			continue;
		ret = ring_buffer_resize(tr->snapshot_buffer, size, cpu);
		if (ret)
			return ret;
	}
	return 0;
}

int tracing_alloc_snapshot(struct trace_array *tr)
{
	lockdep_assert_held(&trace_types_lock);
	int ret;

	if (!tr->buffer)
		return -ENODEV;
	if (!tr->snapshot_buffer) {
		unsigned int flags = ring_buffer_overwrite(tr->buffer) ? RB_FL_OVERWRITE : 0;

		tr->snapshot_buffer =
			ring_buffer_alloc(ring_buffer_size(tr->buffer, 0), flags, tr->nr_cpus);
		if (!tr->snapshot_buffer)
			return -ENOMEM;
		ring_buffer_set_clock(tr->snapshot_buffer, trace_clocks[tr->clock_id].func);
	}
	ret = resize_snapshot_to_main(tr);
	if (ret && !tr->allocated_snapshot)
		tracing_free_snapshot(tr); /* as small again as it was */
	if (!ret)
		tr->allocated_snapshot = true;
	return ret;
}

int tracing_snapshot_swap(struct trace_array *tr)
{
	lockdep_assert_held(&trace_types_lock);
	int ret = tracing_alloc_snapshot(tr); /* resizes it to match, if it is already there */

	return ret ? ret : ring_buffer_swap(tr->buffer, tr->snapshot_buffer);
}

/* One CPU's part only: allocates the spare first if need be, as the whole swap does. */
static int tracing_snapshot_swap_cpu(struct trace_array *tr, int cpu)
{
	lockdep_assert_held(&trace_types_lock);
	int ret = tracing_alloc_snapshot(tr);

	return ret ? ret : ring_buffer_swap_cpu(tr->buffer, tr->snapshot_buffer, cpu);
}

void tracing_clear_snapshot(struct trace_array *tr)
{
	lockdep_assert_held(&trace_types_lock);
	if (tr->snapshot_buffer)
		ring_buffer_reset(tr->snapshot_buffer);
}

void tracing_free_snapshot(struct trace_array *tr)
{
	lockdep_assert_held(&trace_types_lock);
	if (!tr->snapshot_buffer)
		return;
	ring_buffer_resize(tr->snapshot_buffer, SNAPSHOT_MIN_SIZE, RING_BUFFER_ALL_CPUS);
	ring_buffer_reset(tr->snapshot_buffer); /* a resize to the same size keeps the contents */
	tr->allocated_snapshot = false;
}

/* --- the snapshot file ---------------------------------------------------------------------- */

/* Linux's show_snapshot_main_help and show_snapshot_percpu_help, and their common end. */
static const char snapshot_main_help[] =
	"# echo 0 > snapshot : Clears and frees snapshot buffer\n"
	"# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n"
	"#                      Takes a snapshot of the main buffer.\n"
	"# echo 2 > snapshot : Clears snapshot buffer (but does not allocate or free)\n";
static const char snapshot_percpu_help[] =
	"# echo 0 > snapshot : Invalid for per_cpu snapshot file.\n"
	"# echo 1 > snapshot : Allocates snapshot buffer, if not already allocated.\n"
	"#                      Takes a snapshot of the main buffer for this cpu.\n"
	"# echo 2 > snapshot : Clears this cpu's snapshot buffer (but does not allocate)\n";
static const char snapshot_help_end[] =
	"#                      (Doesn't have to be '2' works with any number that\n"
	"#                       is not a '0' or '1')\n";

void print_snapshot_help(struct trace_iterator *iter)
{
	struct trace_seq *s = &iter->seq;

	trace_seq_printf(s, "# tracer: %s\n#\n", iter->trace->name);
	if (iter->tr->allocated_snapshot)
		trace_seq_puts(s, "#\n# * Snapshot is allocated *\n#\n");
	else
		trace_seq_puts(s, "#\n# * Snapshot is freed *\n#\n");
	trace_seq_puts(s, "# Snapshot commands:\n");
	trace_seq_puts(s, iter->cpu_file == RING_BUFFER_ALL_CPUS ? snapshot_main_help
								 : snapshot_percpu_help);
	trace_seq_puts(s, snapshot_help_end);
}

static int snapshot_open(struct inode *inode, struct file *file)
{
	return tracing_open_buffer(inode, file, true);
}

/*
 * A number, as Linux's tracing_snapshot_write: 0 frees, 1 swaps, any other clears; in a
 * per_cpu directory, for that CPU only, and 0 is EINVAL there.
 */
static ssize_t snapshot_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = tracing_get_tr(file_inode(file));
	int cpu = tracing_get_cpu(file_inode(file));
	unsigned long val;
	int ret = tracing_write_ulong(ubuf, cnt, &val);

	if (ret)
		return ret;
	mutex_lock(&trace_types_lock);
	if (tr->current_trace->use_max_tr)
		ret = -EBUSY; /* a latency tracer's max buffer: not the user's to swap (Linux's) */
	else if (val == 0 && cpu != RING_BUFFER_ALL_CPUS)
		ret = -EINVAL;
	else if (val == 0)
		tracing_free_snapshot(tr);
	else if (val == 1 && cpu != RING_BUFFER_ALL_CPUS)
		ret = tracing_snapshot_swap_cpu(tr, cpu);
	else if (val == 1)
		ret = tracing_snapshot_swap(tr);
	else if (tr->allocated_snapshot && cpu != RING_BUFFER_ALL_CPUS)
		ring_buffer_reset_cpu(tr->snapshot_buffer, cpu);
	else if (tr->allocated_snapshot)
		tracing_clear_snapshot(tr);
	mutex_unlock(&trace_types_lock);
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

const struct file_operations snapshot_fops = {
	.open = snapshot_open,
	.read = tracing_read,
	.write = snapshot_write,
	.llseek = tracing_lseek,
	.release = tracing_release,
};
