/* What Linux 6.1's core trace options do beyond the output formats (trace/trace_output.c). */

/*
 * The options are bits of trace_array.trace_flags (trace/trace.h, listed in trace/trace.c in
 * Linux's order). Most only change how the trace prints; those here change what is recorded
 * or how the files behave:
 *
 *   stacktrace       after every trace event, a TRACE_STACK record of the kernel stack
 *   record-tgid      remember each recorded task's thread group (saved_tgids, a column)
 *   pause-on-trace   recording pauses while the trace file is open
 *   block            poll of trace_pipe always says readable (trace/trace_iter.c)
 *   disable_on_free  closing free_buffer turns tracing off as well
 *
 * and the files that go with them: saved_tgids, buffer_percent, timestamp_mode, free_buffer.
 * Options whose effect belongs to tracers Lucid does not have yet (function-trace and
 * display-graph: the latency tracers'; userstacktrace, sym-userobj and hash-ptr: see
 * docs/design/tracer.md) are kept and listed, so that scripts that set them work.
 *
 * Not traced: the event path calls in here.
 */
#include "trace/trace.h"
#include "trace/trace_fs.h"
#include "trace/ring_buffer.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/lockdep.h"
#include "kernel/sched/mutex.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/string.h"

/* --- stacktrace ----------------------------------------------------------------------------- */

/*
 * After an event is committed (trace_event_buffer_commit): its kernel stack as a record of its
 * own, as Linux's ftrace_trace_stack. from is the return into the code that fired the event,
 * so the stack starts there. Only called when the option is on: the event path tests the bit.
 */
void ftrace_trace_stacks(struct trace_array *tr, unsigned long from)
{
	if (READ_ONCE(tr->trace_flags) & TRACE_ITER_STACKTRACE)
		__trace_stack(tr, tracing_gen_ctx_dec(), from);
}

/* --- record-tgid and saved_tgids ------------------------------------------------------------ */

/*
 * pid -> tgid, one int per pid up to PID_MAX_DEFAULT as Linux's tgid_map: allocated the first
 * time the option is turned on and kept (an event may be reading it on another CPU). Written by
 * __tracing_record_cmdline() when a CPU records for a task it did not record for last; 0 means
 * unknown.
 */
static int *tgid_map;

void trace_save_tgid(const struct task *t)
{
	int *map = READ_ONCE(tgid_map);

	if (map && t->pid > 0 && t->pid <= PID_MAX_DEFAULT)
		WRITE_ONCE(map[t->pid], t->tgid ? t->tgid : t->pid);
}

int trace_find_tgid(int pid)
{
	int *map = READ_ONCE(tgid_map);

	if (!map || pid <= 0 || pid > PID_MAX_DEFAULT)
		return 0;
	return READ_ONCE(map[pid]);
}

/* Turning record-tgid on: the map must exist first. The caller holds trace_types_lock. */
int trace_alloc_tgid_map(void)
{
	int *map;

	lockdep_assert_held(&trace_types_lock);
	if (tgid_map)
		return 0;
	map = kzalloc((PID_MAX_DEFAULT + 1) * sizeof(*map));
	if (!map)
		return -ENOMEM;
	WRITE_ONCE(tgid_map, map);
	return 0;
}

/* saved_tgids: "pid tgid" for every pid whose tgid is known, as Linux's. */
static int saved_tgids_show(struct seq_file *m, void *v)
{
	(void)v;
	for (int pid = 1; pid <= PID_MAX_DEFAULT; pid++) {
		int tgid = trace_find_tgid(pid);

		if (tgid)
			seq_printf(m, "%d %d\n", pid, tgid);
	}
	return 0;
}

static int saved_tgids_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return single_open(file, saved_tgids_show, NULL);
}

const struct file_operations tracing_saved_tgids_fops = {
	.open = saved_tgids_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* --- pause-on-trace ------------------------------------------------------------------------- */

/*
 * Opening trace with the option on stops recording until the file is closed (Linux's
 * tracing_stop_tr: a nesting count, apart from tracing_on). The snapshot file does not pause.
 */
void trace_pause_on_open(struct trace_iterator *iter)
{
	if (iter->snapshot || !(READ_ONCE(iter->tr->trace_flags) & TRACE_ITER_PAUSE_ON_TRACE))
		return;
	ring_buffer_record_disable(iter->tr->buffer);
	iter->paused = true;
}

void trace_pause_on_release(struct trace_iterator *iter)
{
	if (iter->paused)
		ring_buffer_record_enable(iter->tr->buffer);
	iter->paused = false;
}

/* --- buffer_percent ------------------------------------------------------------------------- */

/*
 * How full a CPU's buffer must be before a blocked reader of its trace_pipe_raw wakes (Linux's
 * watermark; 50 by default). 0 to 100; Lucid's raw readers poll and take whole pages, so the
 * value is kept for tools that set it.
 */
#define BUFFER_PERCENT_DEFAULT 50
#define BUFFER_PERCENT_MAX 100
static unsigned long buffer_percent = BUFFER_PERCENT_DEFAULT;

static ssize_t buffer_percent_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)file;
	return tracing_read_ulong(ppos, ubuf, cnt, READ_ONCE(buffer_percent));
}

static ssize_t buffer_percent_write(struct file *file, const char *ubuf, size_t cnt,
				    loff_t *ppos)
{
	unsigned long val;
	int ret = tracing_write_ulong(ubuf, cnt, &val);

	(void)file;
	if (ret)
		return ret;
	if (val > BUFFER_PERCENT_MAX)
		return -EINVAL;
	WRITE_ONCE(buffer_percent, val);
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

const struct file_operations buffer_percent_fops = {
	.read = buffer_percent_read,
	.write = buffer_percent_write,
};

/* --- timestamp_mode ------------------------------------------------------------------------- */

/*
 * Linux stores a time delta in each record and a full time stamp only now and then ("delta");
 * histogram triggers switch a buffer to "absolute". Lucid's records carry deltas too and
 * nothing asks for absolute, so the mode is always delta. Read-only, as Linux's.
 */
static ssize_t timestamp_mode_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	static const char text[] = "[delta] absolute\n";

	(void)file;
	return simple_read_from_buffer(ubuf, cnt, ppos, text, sizeof(text) - 1);
}

const struct file_operations trace_time_stamp_mode_fops = {
	.read = timestamp_mode_read,
};

/* --- free_buffer and disable_on_free -------------------------------------------------------- */

/*
 * free_buffer: writes are accepted and ignored; closing the file shrinks the buffer to its
 * smallest (Linux frees it to 0 pages; Lucid keeps the ring's minimum), and with
 * disable_on_free first turns tracing off. A program opens it at start and holds it: when the
 * program dies, however, the buffer goes back to the kernel.
 */
static ssize_t free_buffer_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)file, (void)ubuf;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static int free_buffer_release(struct inode *inode, struct file *file)
{
	struct trace_array *tr = &global_trace;

	(void)inode, (void)file;
	if (READ_ONCE(tr->trace_flags) & TRACE_ITER_DISABLE_ON_FREE)
		tracer_tracing_off(tr);
	tracing_resize_ring_buffer(tr, 0, RING_BUFFER_ALL_CPUS);
	return 0;
}

const struct file_operations tracing_free_buffer_fops = {
	.write = free_buffer_write,
	.release = free_buffer_release,
};
