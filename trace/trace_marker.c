/* trace_marker and trace_marker_raw: user space writes into the trace. */

/*
 * "echo hello > trace_marker" records a TRACE_PRINT event holding "hello": in the trace it is
 * "tracing_mark_write: hello", from the task that wrote it, in order with the kernel's own
 * events. A test marks where it starts and stops, and the kernel's work in between is easy to
 * find. The text is copied at once (unlike trace_printk's arguments, nothing of it stays
 * behind), with a newline added if it has none.
 *
 * As on Linux: a write longer than TRACE_MARKER_MAX records its first TRACE_MARKER_MAX bytes
 * and says so (a short write; the writer goes on with the rest, a new event). It fails with
 * EINVAL while the option markers is off, and with EBADF when nothing can be recorded (tracing
 * off, or the buffer full in producer/consumer mode): "as if the file were not open for
 * writing".
 *
 * A marker is the event ftrace:print (trace/trace_export.c), and, as on Linux 6.1, that event
 * has a trigger file: "echo 'traceoff if buf ~ \"*oops*\"' > events/ftrace/print/trigger"
 * stops the trace at the marker that says oops. The triggers see the text as it was written
 * (the newline is added after them, as Linux's), in the record itself, before it is committed;
 * traceoff and stacktrace run after the commit, so the marker that fired them is in the trace
 * and the stack follows it. Like every events/ftrace/ record it has no enable or filter file:
 * a marker is always recorded (Linux's print event cannot be disabled).
 *
 * trace_marker_raw takes binary records for tools: a 4-byte id, then the bytes, recorded as a
 * TRACE_RAW_DATA event (ftrace:raw_data) and shown as Linux shows it: "# 2a buf: 68 69 00".
 * Linux's rules: fewer than 4 bytes, or more than RAW_DATA_MAX_SIZE, is EINVAL; more than
 * TRACE_MARKER_MAX records the first TRACE_MARKER_MAX (a short write); markers off is EINVAL,
 * nothing recordable EBADF.
 *
 * Not traced, as all of trace/.
 */
#include "trace/trace_fs.h"
#include "trace/trace_events_trigger.h"
#include "trace/trace_printk.h"
#include "trace/ring_buffer.h"
#include "kernel/sched/preempt.h"
#include "lib/errno.h"
#include "lib/string.h"

#define TRACE_MARKER_MAX 1024 /* Linux's TRACE_BUF_SIZE */
#define RAW_DATA_MAX_SIZE (1024 * 3) /* Linux's: "Limit it for now to 3K (including tag)" */
/*
 * Linux reserves at least room for its "<faulted>" text after an id, in case the copy from
 * user space fails; Lucid's writes arrive copied already, but the records keep Linux's size.
 */
#define FAULTED_SIZE (sizeof("<faulted>") - 1)
#define FAULT_SIZE_ID (FAULTED_SIZE + sizeof(unsigned int))

extern struct trace_event_call event_ftrace_print; /* trace/trace_export.c */

/* The newline if the text has none, the NUL, and the record into the trace. */
static __always_inline void marker_commit(struct trace_array *tr, struct print_entry *entry,
					  size_t cnt)
{
	if (cnt == 0 || entry->buf[cnt - 1] != '\n')
		entry->buf[cnt++] = '\n';
	entry->buf[cnt] = '\0';
	ring_buffer_unlock_commit(tr->buffer);
}

/*
 * A marker while ftrace:print has triggers, out of line so that one without costs a test. The
 * triggers see the text as written (no newline yet) in the record itself; traceoff and
 * stacktrace run after the commit, and a stack starts at the return into tracing_mark_write.
 */
static noinline void marker_commit_triggered(struct trace_array *tr, struct trace_event_file *file,
					     struct print_entry *entry, size_t cnt)
{
	unsigned long ip = (unsigned long)__builtin_return_address(0);
	enum event_trigger_type tt;

	entry->buf[cnt] = '\0';
	tt = event_triggers_call(file, entry, (unsigned int)(sizeof(*entry) + cnt + 1), ip);
	marker_commit(tr, entry, cnt);
	if (tt)
		event_triggers_post_call(file, tt, ip);
}

/*
 * The record's ip is an address inside this function, so the trace names it, as Linux's does.
 * noinline: inlined into its caller, the trace would show the caller's name.
 */
static noinline ssize_t tracing_mark_write(struct file *file, const char *ubuf, size_t cnt,
					   loff_t *ppos)
{
	struct trace_array *tr = tracing_get_tr(file_inode(file));
	unsigned int trace_ctx = tracing_gen_ctx();
	struct trace_event_file *pfile;
	struct ring_buffer_event *event;
	struct print_entry *entry;

	if (!(READ_ONCE(tr->trace_flags) & TRACE_ITER_MARKERS))
		return -EINVAL;
	if (cnt > TRACE_MARKER_MAX)
		cnt = TRACE_MARKER_MAX;
	preempt_disable(); /* the ring buffer's rule, from reserve to commit */
	event = ring_buffer_lock_reserve(tr->buffer, sizeof(*entry) + cnt + 2); /* '\n', NUL */
	if (!event) {
		preempt_enable();
		return -EBADF;
	}
	entry = ring_buffer_event_data(event);
	tracing_generic_entry_update(&entry->ent, TRACE_PRINT, trace_ctx);
	entry->ip = _THIS_IP_;
	memcpy(entry->buf, ubuf, cnt);
	/* the array's own ftrace:print file: an instance's markers run its triggers */
	pfile = tr == &global_trace ? &event_ftrace_print.file : tr->print_file;
	if (unlikely(pfile && READ_ONCE(pfile->triggers)))
		marker_commit_triggered(tr, pfile, entry, cnt);
	else
		marker_commit(tr, entry, cnt);
	preempt_enable();
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

/* The file's position means nothing: every write is a new line in the trace. */
static loff_t tracing_mark_lseek(struct file *file, loff_t offset, int whence)
{
	(void)offset;
	(void)whence;
	file->f_pos = 0;
	return 0;
}

const struct file_operations tracing_mark_fops = {
	.write = tracing_mark_write,
	.llseek = tracing_mark_lseek,
	.no_vfs_lock = true, /* the ring buffer is safe without it: any context may write */
};

/*
 * The id and the bytes go in as written; the record is at least FAULT_SIZE_ID bytes past its
 * header (Linux's size), and what the write did not fill is zero (Linux leaves what the buffer
 * held there, which its trace then shows).
 */
static noinline ssize_t tracing_mark_raw_write(struct file *file, const char *ubuf, size_t cnt,
					       loff_t *ppos)
{
	struct trace_array *tr = tracing_get_tr(file_inode(file));
	unsigned int trace_ctx = tracing_gen_ctx();
	struct ring_buffer_event *event;
	struct raw_data_entry *entry;
	size_t size;

	if (!(READ_ONCE(tr->trace_flags) & TRACE_ITER_MARKERS))
		return -EINVAL;
	if (cnt < sizeof(unsigned int) || cnt > RAW_DATA_MAX_SIZE)
		return -EINVAL; /* the record must at least have its id */
	if (cnt > TRACE_MARKER_MAX)
		cnt = TRACE_MARKER_MAX;
	/* Linux's sizeof(*entry) + cnt counts the id twice: 4 more bytes, kept for its layout */
	size = sizeof(*entry) + MAX(cnt, FAULT_SIZE_ID);
	preempt_disable(); /* the ring buffer's rule, from reserve to commit */
	event = ring_buffer_lock_reserve(tr->buffer, size);
	if (!event) {
		preempt_enable();
		return -EBADF;
	}
	entry = ring_buffer_event_data(event);
	tracing_generic_entry_update(&entry->ent, TRACE_RAW_DATA, trace_ctx);
	/*
	 * all of it, the ring buffer's rounding too: the trace shows every byte (Linux: stale ones)
	 */
	memset(&entry->id, 0,
	       ring_buffer_event_length(event) - offsetof(struct raw_data_entry, id));
	memcpy(&entry->id, ubuf, cnt);
	ring_buffer_unlock_commit(tr->buffer);
	preempt_enable();
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

const struct file_operations tracing_mark_raw_fops = {
	.write = tracing_mark_raw_write,
	.llseek = tracing_mark_lseek,
	.no_vfs_lock = true,
};
