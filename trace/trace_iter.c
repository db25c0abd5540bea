/* Reading the trace buffer: the trace and trace_pipe files, and per_cpu/cpuN/stats. */

/*
 * trace (and per_cpu/cpuN/trace) shows the buffer without consuming it. Opening it places a
 * ring buffer iterator on each CPU's oldest event; the iterator stops where the writer was at
 * that moment, so a reader sees the buffer as it was when it opened the file even while
 * tracing goes on. The CPUs' streams are merged by timestamp: each step takes the oldest of
 * the per-CPU next events. The text is produced through seq_file one event at a time, so a
 * trace of a million events is never in memory as text.
 *
 *   seq_file record 0      the header ("# tracer: function", counts, column legend)
 *   seq_file record i > 0  the i-th event, merged across CPUs
 *
 * seq_file may ask for a record again (after a seek, or when a line did not fit): start()
 * walks from the beginning if it must go back, and a line that was formatted but not taken is
 * kept (leftover) so that it is not formatted twice (annotations are printed once).
 *
 * A tracer's print_line may look at the event after the current one (function_graph prints
 * "func();" when a function's entry is followed by its own return): it then moves the reader
 * past the current event itself and says TRACE_TYPE_NO_CONSUME, and the reader does not move
 * again; or it leaves the reader on the return it used, and the reader's move skips that.
 *
 * trace_pipe consumes: each event read is gone. It has no header, and when the buffer is empty
 * it waits: read says -EAGAIN and the VFS sleeps on trace_pipe_wait without its lock (see
 * kernel/fs/vfs_lock.c), until woken, Ctrl-C (-EINTR), or at once with O_NONBLOCK (-EAGAIN).
 * Writers record from any context, where waking a sleeper is not allowed, so nobody wakes the
 * reader when an event arrives: a timer looks again every TRACE_PIPE_POLL_MS (and
 * trace_pipe_wake(), from "echo 1 > tracing_on" say, wakes at once). As on Linux, once
 * something was read, a reader that finds the buffer empty with tracing off gets end of file.
 *
 * Not traced: the tracer formats here while recording goes on.
 */
#include "trace/trace_fs.h"
#include "trace/trace_output.h"
#include "trace/trace_reader.h"
#include "trace/ring_buffer.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "kernel/time/timer.h"
#include "kernel/time/time.h"
#include "lib/errno.h"
#include "lib/string.h"

#define TRACE_PIPE_POLL_MS 10

static DECLARE_WAIT_QUEUE_HEAD(trace_pipe_wait);

void trace_pipe_wake(void)
{
	wake_up(&trace_pipe_wait);
}

/* The iterator as every reader sets it up (trace/trace_reader.c), the tracer held still. */
static void iter_init(struct trace_iterator *iter, struct trace_array *tr, int cpu_file,
		      bool snapshot)
{
	struct ring_buffer *buffer;

	mutex_lock(&trace_types_lock);
	buffer = tracing_shown_buffer(tr); /* a latency tracer's: the max buffer */
	if (snapshot)
		buffer = tr->allocated_snapshot ? tr->snapshot_buffer : NULL;
	trace_iterator_init(iter, tr, buffer, cpu_file, 0);
	iter->snapshot = snapshot;
	mutex_unlock(&trace_types_lock);
}

static bool iter_has_cpu(struct trace_iterator *iter, int cpu)
{
	return iter->cpu_file == RING_BUFFER_ALL_CPUS || iter->cpu_file == cpu;
}

/*
 * The header's figures, Linux's: entries still in the buffers, and written = entries + those
 * overwritten (events read by trace_pipe or dropped in producer/consumer mode do not count).
 */
static void get_total_entries(struct trace_iterator *iter)
{
	struct ring_buffer *buffer = iter->buffer;

	iter->entries = iter->total = 0;
	for (int cpu = 0; buffer && cpu < iter->tr->nr_cpus; cpu++) {
		if (!iter_has_cpu(iter, cpu))
			continue;
		unsigned long n = ring_buffer_entries_cpu(buffer, cpu);
		iter->entries += n;
		iter->total += n + ring_buffer_overrun_cpu(buffer, cpu);
	}
	iter->entries -= MIN(iter->skipped, iter->entries);
	iter->total -= MIN(iter->skipped, iter->total);
}

/* --- trace ---------------------------------------------------------------------------------- */

/*
 * A latency tracer's max buffer holds, on the worst section's CPU, what came before the section
 * too: each CPU's iterator starts at the section's start, and the header does not count what
 * it skips (Linux's tracing_iter_reset). Other buffers start at their oldest event.
 */
static void iter_skip_before_start(struct trace_iterator *iter)
{
	uint64_t start = tracing_time_start(iter->tr, iter->buffer), ts;

	/* Only a latency tracer's max buffer: a snapshot of another tracer shows all it holds. */
	if (!iter->buffer || iter->buffer != iter->tr->snapshot_buffer || !iter->trace ||
	    !iter->trace->use_max_tr)
		return;
	for (int cpu = 0; cpu < iter->tr->nr_cpus; cpu++) {
		struct ring_buffer_iter *it = iter->buffer_iter[cpu];
		bool other = iter->tr->max_data.cpu_only && cpu != iter->tr->max_data.cpu;

		while (it && ring_buffer_iter_peek(it, &ts) && (ts < start || other)) {
			ring_buffer_iter_advance(it);
			iter->skipped++;
		}
	}
}

/* The oldest next event over the CPUs' iterators, as the current event; NULL at the end. */
static struct trace_iterator *peek_next_entry(struct trace_iterator *iter)
{
	struct ring_buffer_event *event;
	int which;
	uint64_t ts;

	event = ring_buffer_iter_peek_oldest(iter->buffer_iter, iter->tr->nr_cpus, &which, &ts);
	if (!event) {
		iter->ent = NULL;
		return NULL;
	}
	iter->cpu = which;
	iter->ts = ts;
	iter->ent = ring_buffer_event_data(event);
	iter->ent_size = ring_buffer_event_length(event);
	/* The iterator skipped events a writer overwrote under it: how many is unknown. */
	iter->lost_events =
		ring_buffer_iter_dropped(iter->buffer_iter[which]) ? (unsigned long)-1 : 0;
	return iter;
}

static void *s_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct trace_iterator *iter = m->private;

	(*pos)++;
	if (v != SEQ_START_TOKEN && iter->ent && !iter->moved)
		ring_buffer_iter_advance(iter->buffer_iter[iter->cpu]);
	iter->leftover = false;
	iter->moved = false;
	iter->idx = *pos;
	return peek_next_entry(iter);
}

static void *s_start(struct seq_file *m, loff_t *pos)
{
	struct trace_iterator *iter = m->private;
	loff_t l;
	void *p;

	if (*pos < iter->idx) {
		/* Back to the top (a seek): every CPU to its oldest event again. */
		for (int cpu = 0; cpu < iter->tr->nr_cpus; cpu++)
			if (iter->buffer_iter[cpu])
				ring_buffer_iter_reset(iter->buffer_iter[cpu]);
		iter->skipped = 0;
		iter_skip_before_start(iter);
		iter->ent = NULL;
		iter->idx = 0;
		iter->started = 0;
		iter->leftover = false;
		iter->moved = false;
	}
	if (iter->idx == 0 && *pos == 0)
		return SEQ_START_TOKEN;
	if (*pos == iter->idx)
		return iter->ent ? iter : NULL;
	/* Forward to record *pos. */
	l = iter->idx;
	p = iter->idx == 0 ? SEQ_START_TOKEN : (iter->ent ? iter : NULL);
	while (p && l < *pos)
		p = s_next(m, p, &l);
	return p;
}

static void s_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

static int s_show(struct seq_file *m, void *v)
{
	struct trace_iterator *iter = m->private;

	if (!iter->leftover) {
		trace_seq_init(&iter->seq);
		if (v == SEQ_START_TOKEN && iter->snapshot && !iter->entries)
			print_snapshot_help(iter); /* an empty snapshot says how to take one */
		else if (v == SEQ_START_TOKEN)
			trace_print_header(iter);
		else if (print_trace_line(iter) == TRACE_TYPE_NO_CONSUME)
			iter->moved = true; /* (next_ts may have moved already) */
	}
	seq_write(m, iter->seq.buffer, iter->seq.len);
	/* Did not fit: seq_file shows this record again; give it the same text. */
	iter->leftover = seq_has_overflowed(m);
	return 0;
}

static const struct seq_operations tracer_seq_ops = {
	.start = s_start,
	.next = s_next,
	.stop = s_stop,
	.show = s_show,
};

/*
 * iter->next_ts of the trace file: the current event copied aside (the iterator's copy of it
 * goes when it moves), the iterator moved past it (so s_next must not move again), and the
 * oldest next event over the CPUs looked at.
 */
static uint64_t trace_file_next_ts(struct trace_iterator *iter)
{
	struct ring_buffer_iter *it = iter->buffer_iter[iter->cpu];
	uint64_t ts;

	if (iter->moved || !it)
		return iter->ts;
	if (iter->temp_size < iter->ent_size) {
		void *temp = kmalloc(iter->ent_size);

		if (!temp)
			return iter->ts; /* no mark rather than no line */
		kfree(iter->temp);
		iter->temp = temp;
		iter->temp_size = iter->ent_size;
	}
	memcpy(iter->temp, iter->ent, iter->ent_size);
	iter->ent = iter->temp;
	ring_buffer_iter_advance(it);
	iter->moved = true;
	if (!ring_buffer_iter_peek_oldest(iter->buffer_iter, iter->tr->nr_cpus, NULL, &ts))
		return iter->ts;
	return ts;
}

static void release_buffer_iters(struct trace_iterator *iter)
{
	kfree(iter->temp);
	iter->temp = NULL;
	iter->temp_size = 0;
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (iter->buffer_iter[cpu])
			ring_buffer_read_finish(iter->buffer_iter[cpu]);
		iter->buffer_iter[cpu] = NULL;
	}
}

/*
 * The trace file, or (snapshot) the snapshot file: the same reading of another buffer, maybe of
 * none yet. 0 or a negative errno; a reader's iterator goes in the seq_file.
 */
int tracing_open_buffer(struct inode *inode, struct file *file, bool snapshot)
{
	struct trace_array *tr = tracing_get_tr(inode);
	int cpu_file = tracing_get_cpu(inode);
	struct trace_iterator *iter;

	if (!tr->buffer)
		return -ENODEV;
	/* "echo > trace": opening for writing with O_TRUNC is what clears the buffer. */
	if (!snapshot && (file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		if (cpu_file == RING_BUFFER_ALL_CPUS)
			tracing_reset_online_cpus(tr);
		else
			tracing_reset_cpu(tr, cpu_file);
	}
	if (!(file->f_mode & FMODE_READ))
		return 0;

	iter = __seq_open_private(file, &tracer_seq_ops, sizeof(*iter));
	if (!iter)
		return -ENOMEM;
	iter_init(iter, tr, cpu_file, snapshot);
	trace_pause_on_open(iter); /* first: a latency tracer's max buffer then holds still */
	iter->next_ts = trace_file_next_ts;
	for (int cpu = 0; iter->buffer && cpu < tr->nr_cpus; cpu++) {
		if (!iter_has_cpu(iter, cpu))
			continue;
		iter->buffer_iter[cpu] = ring_buffer_read_prepare(iter->buffer, cpu);
		if (!iter->buffer_iter[cpu]) {
			trace_pause_on_release(iter);
			trace_iterator_release(iter);
			release_buffer_iters(iter);
			seq_release_private(inode, file);
			return -ENOMEM;
		}
	}
	for (int cpu = 0; cpu < tr->nr_cpus; cpu++)
		if (iter->buffer_iter[cpu])
			ring_buffer_read_start(iter->buffer_iter[cpu]);
	iter_skip_before_start(iter);
	get_total_entries(iter);
	/* Overwritten events: each CPU's events begin at a different time. Say where. */
	if (iter->buffer && ring_buffer_overruns(iter->buffer))
		iter->iter_flags |= TRACE_FILE_ANNOTATE;
	return 0;
}

static int tracing_open(struct inode *inode, struct file *file)
{
	return tracing_open_buffer(inode, file, false);
}

int tracing_release(struct inode *inode, struct file *file)
{
	struct seq_file *m;
	struct trace_iterator *iter;

	if (!(file->f_mode & FMODE_READ))
		return 0;
	m = file->private_data;
	iter = m->private;
	trace_pause_on_release(iter);
	trace_iterator_release(iter);
	release_buffer_iters(iter);
	return seq_release_private(inode, file);
}

ssize_t tracing_read(struct file *file, char *buf, size_t cnt, loff_t *ppos)
{
	return seq_read(file, buf, cnt, ppos);
}

/* What is written is ignored: the O_TRUNC of the open did the work. */
static ssize_t tracing_write_stub(struct file *file, const char *buf, size_t cnt, loff_t *ppos)
{
	(void)file;
	(void)buf;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

loff_t tracing_lseek(struct file *file, loff_t offset, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, offset, whence);
	file->f_pos = 0;
	return 0;
}

const struct file_operations tracing_fops = {
	.open = tracing_open,
	.read = tracing_read,
	.write = tracing_write_stub,
	.llseek = tracing_lseek,
	.release = tracing_release,
};

/* --- trace_pipe ----------------------------------------------------------------------------- */

static int tracing_open_pipe(struct inode *inode, struct file *file)
{
	struct trace_array *tr = tracing_get_tr(inode);
	struct trace_iterator *iter;

	if (!tr->buffer)
		return -ENODEV;
	iter = kzalloc(sizeof(*iter));
	if (!iter)
		return -ENOMEM;
	iter_init(iter, tr, tracing_get_cpu(inode), false);
	mutex_lock(&trace_types_lock);
	tr->trace_ref++; /* current_tracer cannot change under a pipe reader (-EBUSY) */
	mutex_unlock(&trace_types_lock);
	file->private_data = iter;
	return 0;
}

static int tracing_release_pipe(struct inode *inode, struct file *file)
{
	struct trace_iterator *iter = file->private_data;

	(void)inode;
	trace_iterator_release(iter);
	mutex_lock(&trace_types_lock);
	iter->tr->trace_ref--;
	mutex_unlock(&trace_types_lock);
	kfree(iter);
	return 0;
}

static bool pipe_empty(struct trace_iterator *iter)
{
	if (iter->cpu_file == RING_BUFFER_ALL_CPUS)
		return ring_buffer_empty(iter->buffer);
	return ring_buffer_empty_cpu(iter->buffer, iter->cpu_file);
}

/*
 * Nobody wakes trace_pipe readers when events arrive (writers run where waking is not
 * allowed), so a reader that finds the buffer empty arms this timer: in TRACE_PIPE_POLL_MS it
 * wakes the queue and the VFS calls read again. One timer serves every waiting reader.
 */
static bool poll_armed;

static void trace_pipe_poll(struct timer_list *t)
{
	(void)t;
	__atomic_store_n(&poll_armed, false, __ATOMIC_RELEASE);
	wake_up(&trace_pipe_wait);
}

static struct timer_list poll_timer = {
	.fn = trace_pipe_poll,
	.entry = LIST_HEAD_INIT(poll_timer.entry),
};

static void arm_poll_timer(void)
{
	if (__atomic_exchange_n(&poll_armed, true, __ATOMIC_ACQ_REL))
		return;
	poll_timer.expires = ktime_get_ns() + TRACE_PIPE_POLL_MS * NSEC_PER_MSEC;
	add_timer(&poll_timer);
}

/* The queue the VFS sleeps on (without its lock) while read says -EAGAIN. */
static struct wait_queue_head *tracing_pipe_wait_queue(struct file *file)
{
	(void)file;
	return &trace_pipe_wait;
}

/* Formats the next event into iter->seq and consumes it; false if there is none. */
static bool consume_next_entry(struct trace_iterator *iter)
{
	if (!trace_peek_next_event(iter))
		return false;
	iter->idx++;
	trace_seq_init(&iter->seq);
	trace_consume_line(iter);
	iter->pos++;
	return true;
}

static ssize_t tracing_read_pipe(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_iterator *iter = file->private_data;
	size_t copied = 0;

	(void)ppos;
	if (!cnt)
		return 0;
	/* First what the last read left of its last line. */
	if (iter->seq.readpos < iter->seq.len)
		return (ssize_t)trace_seq_to_buffer(&iter->seq, ubuf, cnt);
	if (pipe_empty(iter)) {
		/* As Linux: once something was read, empty with tracing off is end of file. */
		if (!tracer_tracing_is_on(iter->tr) && iter->pos)
			return 0;
		arm_poll_timer();
		return -EAGAIN; /* the VFS waits (or O_NONBLOCK returns it) */
	}
	/* Whole lines while they fit; the first that does not is split across reads. */
	while (copied < cnt && consume_next_entry(iter))
		copied += trace_seq_to_buffer(&iter->seq, ubuf + copied, cnt - copied);
	return (ssize_t)copied;
}

/* poll and select: readable when a read would not wait (events, or the end of the file). */
static unsigned int tracing_poll_pipe(struct file *file)
{
	struct trace_iterator *iter = file->private_data;

	/* options/block: always readable, so a poller goes on into a read that waits */
	if (iter->seq.readpos < iter->seq.len || !pipe_empty(iter) ||
	    (READ_ONCE(iter->tr->trace_flags) & TRACE_ITER_BLOCK) ||
	    (!tracer_tracing_is_on(iter->tr) && iter->pos))
		return POLLIN | POLLRDNORM;
	arm_poll_timer(); /* nobody wakes us for events: look again soon */
	return 0;
}

const struct file_operations tracing_pipe_fops = {
	.open = tracing_open_pipe,
	.read = tracing_read_pipe,
	.release = tracing_release_pipe,
	.wait_queue = tracing_pipe_wait_queue,
	.wait_eintr = true, /* tracing_wait_pipe: -EINTR, as Linux's ring_buffer_wait */
	.poll = tracing_poll_pipe,
};

/* --- per_cpu/cpuN/stats --------------------------------------------------------------------- */

/* --- per_cpu/cpuN/trace_pipe_raw -------------------------------------------------------------- */

/*
 * The consuming reader of tools: whole ring-buffer pages in Linux's binary format (8-byte
 * time stamp, 8-byte commit with the missed-events flags, the records), RB_PAGE_SIZE bytes per
 * page whatever the records fill, as trace-cmd expects. A page is taken from the buffer into the
 * reader's spare page and handed out over as many reads as the reader likes. When the buffer is
 * empty a read waits, with tracing off too (as Linux's: unlike trace_pipe, this file never
 * ends), or says EAGAIN when opened O_NONBLOCK: that is how a tool copies what there is and
 * stops (trace-cmd's recorders when told to stop, `drain`, which lucid-record uses).
 *
 * buffer_percent (Linux's watermark, trace/trace_options.c) says how full the CPU's buffer
 * must be before a waiting recorder wakes: poll says readable only then, and a blocking
 * splice that found no whole page waits until then (a read() waits for any event, and a
 * splice that finds whole pages takes them at once, as Linux's). 0: any event wakes it; 100:
 * only a full buffer. So trace-cmd's recorders wake once per half buffer by default, not per
 * page.
 */
struct raw_reader {
	struct trace_array *tr;
	int cpu;
	void *spare; /* one page, from ring_buffer_alloc_read_page */
	size_t read; /* bytes of it already handed out */
	bool valid; /* spare holds a page */
	bool wait_full; /* a splice found nothing: the next one waits for buffer_percent */
};

/*
 * Linux's full_hit(): is cpu's buffer at least percent full, in pages holding unread events?
 * 0: any event at all.
 */
static bool buffer_percent_hit(struct trace_array *tr, int cpu)
{
	unsigned long percent = READ_ONCE(tr->buffer_percent);
	unsigned long nr_pages = ring_buffer_nr_pages(tr->buffer, cpu);

	if (!percent || !nr_pages)
		return !ring_buffer_empty_cpu(tr->buffer, cpu);
	return ring_buffer_nr_dirty_pages(tr->buffer, cpu) * 100 >= percent * nr_pages;
}

static int tracing_buffers_open(struct inode *inode, struct file *file)
{
	struct trace_array *tr = tracing_get_tr(inode);
	struct raw_reader *r;

	if (!tr->buffer)
		return -ENODEV;
	r = kzalloc(sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->cpu = tracing_get_cpu(inode);
	r->tr = tr;
	r->spare = ring_buffer_alloc_read_page();
	if (!r->spare) {
		kfree(r);
		return -ENOMEM;
	}
	file->private_data = r;
	return 0;
}

static int tracing_buffers_release(struct inode *inode, struct file *file)
{
	struct raw_reader *r = file->private_data;

	(void)inode;
	ring_buffer_free_read_page(r->spare);
	kfree(r);
	return 0;
}

/*
 * A read takes what there is, a part page too (full 0); splice takes whole pages only (full 1),
 * as Linux's tracing_buffers_splice_read: trace-cmd's recorders splice page after page, and a
 * part page for each event would fill the output a page per event (their own vfs_write, traced,
 * is an event: they would never catch up), then read() the last part page when they stop.
 */
static ssize_t raw_read(struct file *file, char *ubuf, size_t cnt, int full)
{
	struct raw_reader *r = file->private_data;
	size_t n;

	if (!cnt)
		return 0;
	if (!r->valid || r->read == RB_PAGE_SIZE) {
		int ret;

		/*
		 * A blocking splice that found nothing waits for the watermark (Linux's
		 * wait_on_pipe)
		 */
		if (full && r->wait_full && !(file->f_flags & O_NONBLOCK) &&
		    !buffer_percent_hit(r->tr, r->cpu)) {
			arm_poll_timer();
			return -EAGAIN;
		}
		ret = ring_buffer_read_page(r->tr->buffer, &r->spare, RB_PAGE_SIZE, r->cpu, full);
		if (ret < 0) {
			r->wait_full = full;
			arm_poll_timer();
			return -EAGAIN; /* the VFS waits on trace_pipe_wait */
		}
		r->wait_full = false;
		r->valid = true;
		r->read = 0;
	}
	n = MIN(cnt, RB_PAGE_SIZE - r->read);
	memcpy(ubuf, (char *)r->spare + r->read, n);
	r->read += n;
	return (ssize_t)n;
}

static ssize_t tracing_buffers_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)ppos;
	return raw_read(file, ubuf, cnt, 0);
}

static ssize_t tracing_buffers_splice_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)ppos;
	return raw_read(file, ubuf, cnt, 1);
}

/*
 * poll and select, as Linux 6.1's trace_poll says of one CPU's buffer: readable when part of a
 * page is still in hand, when options/block is on (always, as trace_pipe's), or when the
 * buffer is buffer_percent full (0: has any event; ring_buffer_poll_wait). Tracing off changes
 * nothing. trace-cmd's recorders wait here between pages.
 */
static unsigned int tracing_buffers_poll(struct file *file)
{
	struct raw_reader *r = file->private_data;

	if ((r->valid && r->read < RB_PAGE_SIZE) ||
	    (READ_ONCE(r->tr->trace_flags) & TRACE_ITER_BLOCK) || buffer_percent_hit(r->tr, r->cpu))
		return POLLIN | POLLRDNORM;
	arm_poll_timer(); /* nobody wakes us for events: look again soon */
	return 0;
}

const struct file_operations tracing_buffers_fops = {
	.open = tracing_buffers_open,
	.read = tracing_buffers_read,
	.splice_read = tracing_buffers_splice_read,
	.release = tracing_buffers_release,
	.wait_queue = tracing_pipe_wait_queue,
	.poll = tracing_buffers_poll,
	.wait_eintr = true, /* a recorder told to stop must not wait on */
};

static void print_ts(struct seq_file *m, const char *what, uint64_t ts, bool in_ns)
{
	if (in_ns) {
		uint64_t t = ns2usecs(ts);
		seq_printf(m, "%s: %5llu.%06lu\n", what, (unsigned long long)(t / 1000000),
			   (unsigned long)(t % 1000000));
	} else {
		seq_printf(m, "%s: %llu\n", what, (unsigned long long)ts);
	}
}

static int tracing_stats_show(struct seq_file *m, void *v)
{
	const struct trace_cpu *tc = m->private;
	struct trace_array *tr = tc->tr;
	struct ring_buffer *buffer = tr->buffer;
	int cpu = tc->cpu;
	bool in_ns = trace_clocks[tr->clock_id].in_ns;

	(void)v;
	seq_printf(m, "entries: %lu\n", ring_buffer_entries_cpu(buffer, cpu));
	seq_printf(m, "overrun: %lu\n", ring_buffer_overrun_cpu(buffer, cpu));
	seq_printf(m, "commit overrun: %lu\n", ring_buffer_commit_overrun_cpu(buffer, cpu));
	seq_printf(m, "bytes: %lu\n", ring_buffer_bytes_cpu(buffer, cpu));
	print_ts(m, "oldest event ts", ring_buffer_oldest_event_ts(buffer, cpu), in_ns);
	print_ts(m, "now ts", ring_buffer_time_stamp(buffer), in_ns);
	seq_printf(m, "dropped events: %lu\n", ring_buffer_dropped_events_cpu(buffer, cpu));
	seq_printf(m, "read events: %lu\n", ring_buffer_read_events_cpu(buffer, cpu));
	return 0;
}

static int tracing_stats_open(struct inode *inode, struct file *file)
{
	if (!tracing_get_tr(inode)->buffer)
		return -ENODEV;
	return single_open(file, tracing_stats_show, inode->i_private);
}

const struct file_operations tracing_stats_fops = {
	.open = tracing_stats_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};
