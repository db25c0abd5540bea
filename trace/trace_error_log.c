/* error_log: the last writes the tracer refused, each with why and where, as Linux's. */

/*
 * A write that fails says only "Invalid argument". Linux's parsers (event filters, triggers,
 * function commands) also leave a line in error_log telling which word was wrong:
 *
 *   [   42.123456] event filter parse error: error: Field not found
 *     Command: prev_pidd == 1
 *              ^
 *
 * the time (the clock of printk's stamps), the parser and its sentence, the command as it was
 * written, and a caret under the column where the parser gave up: Linux's
 * tracing_err_log_seq_show(), byte for byte. The log keeps the last TRACING_LOG_ERRS_MAX
 * entries: a new one reuses the oldest. Opening error_log for writing with O_TRUNC
 * ("echo > error_log") empties it; what is written is ignored, as on Linux.
 *
 * An entry is one allocation (its command inline) made by the parser that failed, in task
 * context; err_log_lock keeps the ring whole against a reader and another writer. The
 * sentences are the parsers' own tables (static text), so an entry keeps only a pointer to
 * the table and an index. Not traced, as all of trace/.
 */
#include "trace/trace_error_log.h"
#include "trace/trace.h"
#include "trace/trace_fs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/mutex.h"
#include "kernel/time/time.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

#define CMD_PREFIX "  Command: " /* Linux's: the caret line is indented by as much */

struct tracing_log_err {
	const char *const *errs; /* the parser's sentences */
	unsigned int type; /* ... this one */
	unsigned int pos; /* the caret's column in cmd */
	uint64_t ts; /* ns since boot */
	char loc[TRACING_LOG_LOC_MAX]; /* "event filter parse error: error: " */
	char cmd[]; /* what was written */
};

static DEFINE_MUTEX(err_log_lock);

static struct trace_err_log *log_of(struct trace_array *tr)
{
	return &(tr ? tr : &global_trace)->err_log;
}

void tracing_log_err(struct trace_array *tr, const char *loc, const char *cmd,
		     const char *const *errs, unsigned int type, unsigned int pos)
{
	struct trace_err_log *log = log_of(tr);
	size_t len = strlen(cmd) + 1;
	struct tracing_log_err *err = kmalloc(sizeof(*err) + len), *old = NULL;
	unsigned int slot;

	if (!err)
		return; /* the write still fails with its errno: only the why is lost */
	snprintf(err->loc, sizeof(err->loc), "%s: error: ", loc);
	memcpy(err->cmd, cmd, len);
	err->errs = errs;
	err->type = type;
	err->pos = pos;
	err->ts = ktime_get_ns();

	mutex_lock(&err_log_lock);
	if (log->nr == TRACING_LOG_ERRS_MAX) {
		slot = log->first; /* full: the oldest makes room */
		old = log->errs[slot];
		log->first = (log->first + 1) % TRACING_LOG_ERRS_MAX;
	} else {
		slot = (log->first + log->nr++) % TRACING_LOG_ERRS_MAX;
	}
	log->errs[slot] = err;
	mutex_unlock(&err_log_lock);
	kfree(old);
}

unsigned int err_pos(const char *cmd, const char *str)
{
	const char *found = strstr(cmd, str);

	return found ? (unsigned int)(found - cmd) : 0;
}

void clear_tracing_err_log(struct trace_array *tr)
{
	struct trace_err_log *log = log_of(tr);

	mutex_lock(&err_log_lock);
	for (unsigned int i = 0; i < log->nr; i++)
		kfree(log->errs[(log->first + i) % TRACING_LOG_ERRS_MAX]);
	log->first = 0;
	log->nr = 0;
	mutex_unlock(&err_log_lock);
}

/* The whole log at once: at most TRACING_LOG_ERRS_MAX entries, each a few lines. */
static int err_log_show(struct seq_file *m, void *v)
{
	struct trace_err_log *log = log_of(m->private);

	(void)v;
	mutex_lock(&err_log_lock);
	for (unsigned int i = 0; i < log->nr; i++) {
		const struct tracing_log_err *err =
			log->errs[(log->first + i) % TRACING_LOG_ERRS_MAX];

		seq_printf(m, "[%5llu.%06llu] %s%s\n" CMD_PREFIX "%s\n",
			   (unsigned long long)(err->ts / NSEC_PER_SEC),
			   (unsigned long long)(err->ts % NSEC_PER_SEC / NSEC_PER_USEC), err->loc,
			   err->errs[err->type], err->cmd);
		seq_printf(m, "%*s^\n", (int)(sizeof(CMD_PREFIX) - 1 + err->pos), "");
	}
	mutex_unlock(&err_log_lock);
	return 0;
}

static int err_log_open(struct inode *inode, struct file *file)
{
	struct trace_array *tr = tracing_get_tr(inode);

	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC))
		clear_tracing_err_log(tr);
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_open(file, err_log_show, tr);
}

/* Linux's tracing_err_log_write: taken and ignored (only the O_TRUNC of the open clears). */
static ssize_t err_log_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)file;
	(void)ubuf;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static ssize_t err_log_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	if (!(file->f_mode & FMODE_READ))
		return -EBADF;
	return seq_read(file, ubuf, cnt, ppos);
}

static int err_log_release(struct inode *inode, struct file *file)
{
	if (!(file->f_mode & FMODE_READ))
		return 0;
	return single_release(inode, file);
}

const struct file_operations tracing_err_log_fops = {
	.open = err_log_open,
	.read = err_log_read,
	.write = err_log_write,
	.release = err_log_release,
};
