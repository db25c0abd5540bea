/* trace_marker: user space writes a line into the trace. */

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
 * Not traced, as all of trace/.
 */
#include "trace/trace_fs.h"
#include "trace/trace_printk.h"
#include "trace/ring_buffer.h"
#include "kernel/sched/preempt.h"
#include "lib/errno.h"
#include "lib/string.h"

#define TRACE_MARKER_MAX 1024 /* Linux's TRACE_BUF_SIZE */

/*
 * The record's ip is an address inside this function, so the trace names it, as Linux's does.
 * noinline: inlined into its caller, the trace would show the caller's name.
 */
static noinline ssize_t tracing_mark_write(struct file *file, const char *ubuf, size_t cnt,
					   loff_t *ppos)
{
	struct trace_array *tr = tracing_get_tr(file_inode(file));
	unsigned int trace_ctx = tracing_gen_ctx();
	struct ring_buffer_event *event;
	struct print_entry *entry;
	size_t len;

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
	len = cnt;
	if (len == 0 || entry->buf[len - 1] != '\n')
		entry->buf[len++] = '\n';
	entry->buf[len] = '\0';
	ring_buffer_unlock_commit(tr->buffer);
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
