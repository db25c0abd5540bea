/* events/SYSTEM/EVENT/trigger: the file that lists, adds and removes an event's triggers. */

/*
 * Reading it lists the event's triggers, newest first, one a line as Linux prints them
 * ("traceoff:count=2 if prev_pid == 1"); with none, Linux's two lines of help instead:
 *
 *   # Available triggers:
 *   # traceon traceoff snapshot stacktrace enable_event disable_event enable_hist disable_hist hist
 *
 * Writing adds one trigger, or removes one with '!'. As in Linux, ">" does not clear the
 * others first (only hist triggers and enable_hist/disable_hist are removed by O_TRUNC, at
 * open: "echo 'hist:keys=pid' > trigger" replaces the event's histograms), and a trigger
 * of a kind the event has already fails with EEXIST. An empty write ("echo > trigger") names
 * no command: EINVAL, as Linux. A refused write changes nothing: it is checked whole before
 * anything is done, so even the snapshot buffer a "snapshot" trigger needs is allocated only
 * once the rest is known to be good, and under trace_types_lock, never inside event_mutex.
 *
 * The file's inode points at its trace_event_file: the top level's (the event's own) or an
 * instance's, whose triggers act on that instance (Linux's triggers are per trace_event_file).
 *
 * Not traced, as all of trace/.
 */
#include "trace/trace_events_trigger.h"
#include "trace/trace_events_hist.h" /* hist_trigger_set_clock */
#include "trace/ftrace_probe.h"
#include "trace/trace.h"
#include "trace/trace_fs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/mutex.h"
#include "lib/errno.h"
#include "lib/string.h"

#define AVAILABLE_LINE_MAX 128 /* the command names, one line */
#define TRIGGER_LINE_BUF 256 /* most lines; longer ones are allocated */
#define SHOW_AVAILABLE_TRIGGERS ((void *)1) /* the help, for an event with no triggers */

/* A trigger line is seq_file's position k as the pointer k + 2 (0 is the end, 1 the help). */
#define TRIGGER_POS(k) ((void *)(uintptr_t)((k) + 2))
#define POS_TRIGGER(v) ((int)((uintptr_t)(v)-2))

static void *trigger_at(struct seq_file *m, loff_t pos)
{
	struct trace_event_file *file = m->private;

	/* no trigger the file shows (an eprobe's is hidden): the help */
	if (event_trigger_show(file, 0, NULL, 0) < 0)
		return pos == 0 ? SHOW_AVAILABLE_TRIGGERS : NULL;
	return event_trigger_show(file, (int)pos, NULL, 0) < 0 ? NULL : TRIGGER_POS(pos);
}

static void *trigger_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&event_mutex); /* the list stays as it is while it is printed */
	return trigger_at(m, *pos);
}

static void *trigger_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	return trigger_at(m, ++*pos);
}

static void trigger_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	mutex_unlock(&event_mutex);
}

static int trigger_show(struct seq_file *m, void *v)
{
	char line[TRIGGER_LINE_BUF], *buf = line;
	int len;

	if (v == SHOW_AVAILABLE_TRIGGERS) {
		char names[AVAILABLE_LINE_MAX];

		event_trigger_available(names, sizeof(names));
		seq_printf(m, "# Available triggers:\n# %s\n", names);
		return 0;
	}
	len = event_trigger_show(m->private, POS_TRIGGER(v), line, sizeof(line));
	if (len >= (int)sizeof(line)) { /* a long filter */
		buf = kmalloc((size_t)len + 1);
		if (!buf)
			return -ENOMEM;
		event_trigger_show(m->private, POS_TRIGGER(v), buf, (size_t)len + 1);
	}
	if (len > 0)
		seq_write(m, buf, (size_t)len);
	if (buf != line)
		kfree(buf);
	return 0;
}

static const struct seq_operations event_triggers_seq_ops = {
	.start = trigger_start,
	.next = trigger_next,
	.stop = trigger_stop,
	.show = trigger_show,
};

static int event_trigger_open(struct inode *inode, struct file *file)
{
	int ret;

	/* Linux's: '>' removes the hist triggers (and enable_hist's) first; '>>' adds */
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		mutex_lock(&event_mutex);
		event_triggers_truncate(inode->i_private);
		mutex_unlock(&event_mutex);
	}
	ret = seq_open(file, &event_triggers_seq_ops);

	if (!ret)
		((struct seq_file *)file->private_data)->private = inode->i_private;
	return ret;
}

/* Checks the write, makes the snapshot buffer if it needs one, then applies it. */
static int trigger_write_text(struct trace_event_file *file, const char *text)
{
	char *buf = kstrdup(text);
	int ret;

	if (!buf)
		return -ENOMEM;
	mutex_lock(&event_mutex);
	ret = trigger_check_regex(file, buf);
	mutex_unlock(&event_mutex);
	if (!ret && trigger_needs_snapshot(text)) {
		mutex_lock(&trace_types_lock);
		ret = trace_snapshot_trigger_setup(file->tr);
		mutex_unlock(&trace_types_lock);
	}
	if (!ret) /* a histogram of times: its clock (it takes trace_types_lock, as the above) */
		ret = hist_trigger_set_clock(file->tr);
	if (!ret) {
		strcpy(buf, text);
		mutex_lock(&event_mutex);
		ret = trigger_process_regex(file, buf);
		mutex_unlock(&event_mutex);
	}
	kfree(buf);
	return ret;
}

static ssize_t event_trigger_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	char *text;
	int ret;

	if (!cnt)
		return 0;
	if (cnt >= TRIGGER_WRITE_MAX)
		return -EINVAL;
	text = kmalloc(cnt + 1);
	if (!text)
		return -ENOMEM;
	memcpy(text, ubuf, cnt);
	text[cnt] = '\0';
	ret = trigger_write_text(file_inode(file)->i_private, text);
	kfree(text);
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

/* Linux's tracing_lseek: a reader seeks in the listing, a writer always writes at 0. */
static loff_t event_trigger_lseek(struct file *file, loff_t offset, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, offset, whence);
	file->f_pos = 0;
	return 0;
}

const struct file_operations event_trigger_fops = {
	.open = event_trigger_open,
	.read = seq_read,
	.write = event_trigger_write,
	.llseek = event_trigger_lseek,
	.release = seq_release,
};
