/* The trace event files: events/, set_event and available_events. */

/*
 * event_trace_add_tracer() builds, from the registered events (trace/trace_events.c), the
 * files of a trace array: the top level's at boot, an instance's at mkdir (one code for both,
 * as Linux's); available_events is the top level's only:
 *
 *   available_events          every event, "system:name" per line
 *   set_event                 the enabled ones, same form; write words to enable/disable
 *   events/enable             0, 1, or X when some are enabled and some not; write 0 or 1
 *   events/SYSTEM/enable      the same, for one system
 *   events/SYSTEM/NAME/enable 0 or 1, with a '*' while a trigger holds it (soft mode)
 *   events/SYSTEM/NAME/format the record's layout for tools (trace/trace_events_text.c)
 *   events/SYSTEM/NAME/id     the event's id: the type of its records
 *   events/SYSTEM/NAME/filter the event's filter, "none", or the report on a refused one
 *   events/SYSTEM/NAME/trigger its triggers (trace/trace_events_trigger_fs.c)
 *   events/SYSTEM/NAME/hist    its hist triggers' histograms (trace/trace_events_hist.c)
 *   events/SYSTEM/filter      write: a filter for each event of the system that has its fields
 *   events/header_page        the ring buffer's page header, for tools
 *   events/header_event       its record header
 *
 * events/ftrace/ holds the records tracers write themselves (trace/trace_export.c): format and
 * id only, no enable or filter files, and neither available_events nor set_event list them.
 * ftrace/print alone has a trigger file too, as in Linux: trace_marker writes run its triggers.
 *
 * Filters (trace/trace_events_filter.c) are Linux's: "0" removes one, a bad one is refused with
 * Linux's errno and the filter file then shows Linux's report (the text, a caret, the reason).
 * Linux also drops the event's previous filter then; Lucid keeps it in force, as a refused
 * write changes nothing that is recorded (the file shows the report until the next write). A
 * system's filter is given to each of its events that has the fields; the others lose theirs
 * and show the report, as in Linux, and the system's file always reads Linux's help text.
 *
 * A file's inode data says what it is about: the event in that array (its trace_event_file:
 * enable, filter, trigger), the event itself (format, id: the same in every array), the array
 * (set_event), or a system of the array (struct event_subsystem_dir: events/enable and
 * events/SYSTEM/enable, filter).
 *
 * set_event takes Linux's words (trace_event_parse_selector): "sched:sched_switch",
 * "sched:*", "*:*", "irq", "!sched:sched_wakeup". Opened with O_TRUNC (">") it first disables
 * every event, with ">>" it adds. As with every file here, a write is checked whole before
 * anything changes: a word that matches no event fails it with -EINVAL and nothing changes,
 * not even the O_TRUNC (Linux would already have disabled everything at open). A write of no
 * words ("echo > set_event") or none at all (": > set_event") just disables everything.
 *
 * Everything is read and changed under event_mutex. Not traced, as all of trace/.
 */
#include "trace/trace_events.h"
#include "trace/trace_events_filter.h"
#include "trace/trace_events_trigger.h"
#include "trace/trace_events_hist.h"
#include "kernel/tracepoint.h"
#include "kernel/cmdline.h"
#include "kernel/fs/proc/sysctl.h"
#include "kernel/printk.h"
#include "trace/trace_fs.h"
#include "trace/ring_buffer.h"
#include "kernel/fs/tracefs.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/mutex.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "kernel/locking/lockdep.h"

#define EVENT_BUF_SIZE 127 /* Linux's longest set_event word */
#define FILTER_WRITE_MAX 4096 /* Linux refuses a filter of a page or more */

/* --- available_events --------------------------------------------------------------------- */

/* The pos-th event that can be enabled, or NULL. */
static struct trace_event_call *event_at(loff_t pos)
{
	struct trace_event_call *call;

	list_for_each_entry(call, &ftrace_events, list)
	{
		if (call->flags & TRACE_EVENT_FL_IGNORE_ENABLE)
			continue; /* formats only: not an event one can enable */
		if (pos-- == 0)
			return call;
	}
	return NULL;
}

static int t_show(struct seq_file *m, void *v)
{
	struct trace_event_call *call = v;

	(void)m;
	seq_printf(m, "%s:%s\n", call->system, call->name);
	return 0;
}

static void t_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	mutex_unlock(&event_mutex);
}

static void *avail_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	mutex_lock(&event_mutex);
	return event_at(*pos);
}

static void *avail_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)m;
	(void)v;
	return event_at(++*pos);
}

static const struct seq_operations show_event_seq_ops = {
	.start = avail_start,
	.next = avail_next,
	.stop = t_stop,
	.show = t_show,
};

static int avail_open(struct inode *inode, struct file *file)
{
	(void)inode;
	return seq_open(file, &show_event_seq_ops);
}

static const struct file_operations ftrace_avail_events_fops = {
	.open = avail_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

/* --- set_event ---------------------------------------------------------------------------- */

/* A set_event file's seq_file private: its array, and the O_TRUNC still to be done. */
struct set_event_file {
	struct trace_array *tr;
	bool reset; /* opened with O_TRUNC, and no write applied it yet */
};

/* The pos-th enabled file of tr, or NULL. */
static struct trace_event_file *enabled_file_at(struct trace_array *tr, loff_t pos)
{
	struct trace_event_file *file;

	for_each_event_file(tr, file)
	{
		if (file->enabled && !(file->call->flags & TRACE_EVENT_FL_IGNORE_ENABLE) &&
		    pos-- == 0)
			return file;
	}
	return NULL;
}

static void *s_start(struct seq_file *m, loff_t *pos)
{
	struct set_event_file *sf = m->private;

	mutex_lock(&event_mutex);
	return enabled_file_at(sf->tr, *pos);
}

static void *s_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct set_event_file *sf = m->private;

	(void)v;
	return enabled_file_at(sf->tr, ++*pos);
}

static int s_show(struct seq_file *m, void *v)
{
	struct trace_event_file *file = v;

	return t_show(m, file->call);
}

static const struct seq_operations show_set_event_seq_ops = {
	.start = s_start,
	.next = s_next,
	.stop = t_stop,
	.show = s_show,
};

/* The inode's data is the array. */
static int set_event_open(struct inode *inode, struct file *file)
{
	struct set_event_file *sf = kzalloc(sizeof(*sf));
	int ret;

	if (!sf)
		return -ENOMEM;
	sf->tr = inode->i_private;
	sf->reset = (file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC);
	ret = seq_open(file, &show_set_event_seq_ops);
	if (ret) {
		kfree(sf);
		return ret;
	}
	((struct seq_file *)file->private_data)->private = sf;
	return 0;
}

/* Every event of tr off. event_mutex held. */
static void ftrace_clear_events(struct trace_array *tr)
{
	lockdep_assert_held(&event_mutex);
	struct trace_event_file *file;

	for_each_event_file(tr, file)
	{
		if (!(file->call->flags & TRACE_EVENT_FL_IGNORE_ENABLE))
			ftrace_event_enable_disable(file, 0);
	}
}

/*
 * A write to tr's set_event: every word parsed and checked first, so that a bad one changes
 * nothing; then, if the file was opened with O_TRUNC and this is its first write, every event
 * off; then each word applied.
 */
static ssize_t set_event_file_write(struct trace_array *tr, bool reset, const char *ubuf,
				    size_t cnt, loff_t *ppos)
{
	struct trace_event_selector *sels = NULL;
	char *text = kmalloc(cnt + 1), *p, *w;
	int nr = 0, ret = 0;

	if (!text)
		return -ENOMEM;
	memcpy(text, ubuf, cnt);
	text[cnt] = '\0';
	sels = kmalloc((cnt / 2 + 1) * sizeof(*sels)); /* a word and a blank at least */
	if (!sels) {
		kfree(text);
		return -ENOMEM;
	}
	for (p = text; !ret && (w = next_word(&p));) {
		if (strlen(w) > EVENT_BUF_SIZE)
			ret = -EINVAL;
		else
			trace_event_parse_selector(w, &sels[nr++]);
	}

	mutex_lock(&event_mutex);
	for (int i = 0; i < nr && !ret; i++)
		if (!trace_event_selector_any(&sels[i]))
			ret = -EINVAL; /* before anything changes */
	if (!ret && reset)
		ftrace_clear_events(tr);
	for (int i = 0; i < nr && !ret; i++)
		ret = __ftrace_set_clr_event(tr, &sels[i]);
	mutex_unlock(&event_mutex);
	kfree(sels);
	kfree(text);
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static ssize_t set_event_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	struct set_event_file *sf = ((struct seq_file *)file->private_data)->private;
	bool reset = sf->reset;

	sf->reset = false; /* applied or refused: either way closing changes nothing more */
	return set_event_file_write(sf->tr, reset, ubuf, cnt, ppos);
}

static int set_event_release(struct inode *inode, struct file *file)
{
	struct set_event_file *sf = ((struct seq_file *)file->private_data)->private;

	if (sf->reset) { /* opened with ">" and never written */
		mutex_lock(&event_mutex);
		ftrace_clear_events(sf->tr);
		mutex_unlock(&event_mutex);
	}
	kfree(sf);
	return seq_release(inode, file);
}

static loff_t set_event_lseek(struct file *file, loff_t offset, int whence)
{
	if (file->f_mode & FMODE_READ)
		return seq_lseek(file, offset, whence);
	file->f_pos = 0;
	return 0;
}

static const struct file_operations ftrace_set_event_fops = {
	.open = set_event_open,
	.read = seq_read,
	.write = set_event_write,
	.llseek = set_event_lseek,
	.release = set_event_release,
};

/* --- enable files ----------------------------------------------------------------------------- */

/* A write that is one number, 0 or 1 (anything else: -EINVAL, as Linux). */
static int write_01(const char *ubuf, size_t cnt, unsigned long *val)
{
	int ret = tracing_write_ulong(ubuf, cnt, val);

	return ret ? ret : (*val > 1 ? -EINVAL : 0);
}

/* events/SYSTEM/EVENT/enable: the inode's data is the trace_event_file. */
static ssize_t event_enable_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_event_file *ef = file_inode(file)->i_private;
	unsigned long flags;
	char buf[4];
	bool on;

	mutex_lock(&event_mutex);
	on = ef->enabled;
	flags = READ_ONCE(ef->flags);
	mutex_unlock(&event_mutex);
	/* Linux's: "1" if it records; a '*' while a trigger holds it (soft mode) */
	snprintf(buf, sizeof(buf), "%c%s\n",
		 on && !(flags & EVENT_FILE_FL_SOFT_DISABLED) ? '1' : '0',
		 flags & (EVENT_FILE_FL_SOFT_MODE | EVENT_FILE_FL_SOFT_DISABLED) ? "*" : "");
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, strlen(buf));
}

static ssize_t event_enable_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_event_file *ef = file_inode(file)->i_private;
	unsigned long val;
	int ret = write_01(ubuf, cnt, &val);

	if (ret)
		return ret;
	mutex_lock(&event_mutex);
	ret = ftrace_event_enable_disable(ef, (int)val);
	mutex_unlock(&event_mutex);
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations ftrace_enable_fops = {
	.read = event_enable_read,
	.write = event_enable_write,
};

/* What events/enable and events/SYSTEM/enable, filter point at (Linux's trace_subsystem_dir). */
struct event_subsystem_dir {
	struct trace_array *tr;
	const char *system; /* NULL: events/ itself, every system */
};

/* events/enable (no system: every event) and events/SYSTEM/enable: "0", "1", or "X" if mixed. */
static ssize_t system_enable_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	static const char set_to_char[4] = {'?', '0', '1', 'X'}; /* bit 0: some off, bit 1: on */
	const struct event_subsystem_dir *dir = file_inode(file)->i_private;
	struct trace_event_file *ef;
	char buf[2];
	int set = 0;

	mutex_lock(&event_mutex);
	for_each_event_file(dir->tr, ef)
	{
		if (ef->call->flags & TRACE_EVENT_FL_IGNORE_ENABLE)
			continue;
		if (!dir->system || strcmp(ef->call->system, dir->system) == 0)
			set |= 1 << ef->enabled;
	}
	mutex_unlock(&event_mutex);
	buf[0] = set_to_char[set];
	buf[1] = '\n';
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, sizeof(buf));
}

static ssize_t system_enable_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	const struct event_subsystem_dir *dir = file_inode(file)->i_private;
	struct trace_event_selector sel = {.sub = dir->system};
	unsigned long val;
	int ret = write_01(ubuf, cnt, &val);

	if (ret)
		return ret;
	sel.set = (int)val;
	mutex_lock(&event_mutex);
	ret = __ftrace_set_clr_event(dir->tr, &sel);
	mutex_unlock(&event_mutex);
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations ftrace_system_enable_fops = {
	.read = system_enable_read,
	.write = system_enable_write,
};

/* --- filter files ----------------------------------------------------------------------------- */

/*
 * Installs filter (or NULL) in file; returns the one it replaces, to be freed after a sync.
 */
static struct event_filter *filter_set(struct trace_event_file *file, struct event_filter *filter,
				       char *err)
{
	lockdep_assert_held(&event_mutex);
	struct event_filter *old = file->filter;

	/* Published whole: a probe that sees the pointer sees the program it points to. */
	__atomic_store_n(&file->filter, filter, __ATOMIC_RELEASE);
	kfree(file->filter_err);
	file->filter_err = err;
	return old;
}

/* Once no probe can still be running the old filters (they read file->filter once each). */
static void free_old_filters(struct event_filter **old, int nr)
{
	bool any = false;

	for (int i = 0; i < nr; i++)
		any |= old[i] != NULL;
	if (any)
		tracepoint_synchronize_unregister();
	for (int i = 0; i < nr; i++)
		free_event_filter(old[i]);
}

/* Linux's strstrip() as its filter writes use it: trailing blanks cut, the leading skipped. */
static const char *strip_blanks(char *s)
{
	size_t len = strlen(s);

	while (len && isspace(s[len - 1]))
		s[--len] = '\0';
	while (isspace(*s))
		s++;
	return s;
}

/* One event's filter; its array's error_log hears a refusal. */
static int apply_event_filter(struct trace_event_file *file, char *str)
{
	struct event_filter *filter, *old;
	int ret;

	lockdep_assert_held(&event_mutex);
	if (strcmp(strip_blanks(str), "0") == 0) {
		old = filter_set(file, NULL, NULL);
		free_old_filters(&old, 1);
		return 0;
	}
	ret = create_event_filter_tr(file->tr, file->call, str, false, &filter);
	if (!filter)
		return ret;
	if (ret) { /* refused: the filter in force stays, the report is shown */
		kfree(file->filter_err);
		file->filter_err = filter->filter_string;
		filter->filter_string = NULL;
		free_event_filter(filter);
		return ret;
	}
	old = filter_set(file, filter, NULL);
	free_old_filters(&old, 1);
	return 0;
}

/* Every event of dir's system: the filter where it applies, the report where it does not. */
static int apply_subsystem_event_filter(const struct event_subsystem_dir *dir, char *str)
{
	struct trace_event_file *file;
	struct event_filter **old;
	bool clear = strcmp(strip_blanks(str), "0") == 0;
	int nr = 0, ret = 0;

	for_each_event_file(dir->tr, file)
	{
		nr++;
	}
	old = kmalloc((size_t)nr * sizeof(*old));
	if (!old)
		return -ENOMEM;
	nr = 0;
	for_each_event_file(dir->tr, file)
	{
		struct trace_event_call *call = file->call;
		struct event_filter *filter = NULL;
		char *err = NULL;

		if (strcmp(call->system, dir->system) ||
		    (call->flags & TRACE_EVENT_FL_IGNORE_ENABLE))
			continue;
		if (!clear) {
			if (create_event_filter(call, str, true, &filter) && filter) {
				err = filter->filter_string; /* this event lacks a field */
				filter->filter_string = NULL;
				free_event_filter(filter);
				filter = NULL;
			} else if (!filter) {
				ret = -ENOMEM;
				break;
			}
		}
		old[nr++] = filter_set(file, filter, err);
	}
	free_old_filters(old, nr);
	kfree(old);
	return ret;
}

/* What a filter file reads: the report on a refused filter, else the filter, else "none". */
static int event_filter_show(struct seq_file *m, void *v)
{
	struct trace_event_file *file = m->private;

	(void)v;
	mutex_lock(&event_mutex);
	if (file->filter_err)
		seq_printf(m, "%s\n", file->filter_err);
	else if (file->filter)
		seq_printf(m, "%s\n", file->filter->filter_string);
	else
		seq_puts(m, "none\n");
	mutex_unlock(&event_mutex);
	return 0;
}

static int event_filter_open(struct inode *inode, struct file *file)
{
	return single_open(file, event_filter_show, inode->i_private);
}

/* A filter write's text: at most a page, as Linux takes it (a trailing newline and all). */
static char *filter_text(const char *ubuf, size_t cnt)
{
	char *buf;

	if (cnt >= FILTER_WRITE_MAX)
		return NULL;
	buf = kmalloc(cnt + 1);
	if (buf) {
		memcpy(buf, ubuf, cnt);
		buf[cnt] = '\0';
	}
	return buf;
}

/* "0" clears; a refused filter leaves the one in force. */
static ssize_t event_filter_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	char *buf = filter_text(ubuf, cnt);
	int ret;

	if (!buf)
		return cnt >= FILTER_WRITE_MAX ? -EINVAL : -ENOMEM;
	mutex_lock(&event_mutex);
	ret = apply_event_filter(file_inode(file)->i_private, buf);
	mutex_unlock(&event_mutex);
	kfree(buf);
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations ftrace_event_filter_fops = {
	.open = event_filter_open,
	.read = seq_read,
	.write = event_filter_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int subsystem_filter_show(struct seq_file *m, void *v)
{
	(void)v;
	seq_puts(m, DEFAULT_SYS_FILTER_MESSAGE "\n");
	return 0;
}

static int subsystem_filter_open(struct inode *inode, struct file *file)
{
	return single_open(file, subsystem_filter_show, inode->i_private);
}

static ssize_t subsystem_filter_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	char *buf = filter_text(ubuf, cnt);
	int ret;

	if (!buf)
		return cnt >= FILTER_WRITE_MAX ? -EINVAL : -ENOMEM;
	mutex_lock(&event_mutex);
	ret = apply_subsystem_event_filter(file_inode(file)->i_private, buf);
	mutex_unlock(&event_mutex);
	kfree(buf);
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations ftrace_subsystem_filter_fops = {
	.open = subsystem_filter_open,
	.read = seq_read,
	.write = subsystem_filter_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* --- format, id ------------------------------------------------------------------------------- */

/* What s holds into the file, and s empty again: the seq_file grows, s never fills. */
static void format_flush(struct trace_seq *s, void *data)
{
	seq_write(data, s->buffer, trace_seq_used(s));
	trace_seq_init(s);
}

static int format_show(struct seq_file *m, void *v)
{
	struct trace_seq *s = kmalloc(sizeof(*s)); /* a page: too big for a kernel stack */

	(void)v;
	if (!s)
		return -ENOMEM;
	trace_seq_init(s);
	trace_event_print_format_flush(s, m->private, format_flush, m);
	kfree(s);
	return 0;
}

static int format_open(struct inode *inode, struct file *file)
{
	return single_open(file, format_show, inode->i_private);
}

static const struct file_operations ftrace_event_format_fops = {
	.open = format_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static ssize_t event_id_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_event_call *call = file_inode(file)->i_private;
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d\n", call->event.type);

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, (size_t)len);
}

static const struct file_operations ftrace_event_id_fops = {
	.read = event_id_read,
};

/* events/header_page and events/header_event: the ring buffer's own format files. */
static int header_show(struct seq_file *m, void *v)
{
	struct trace_seq *s = kmalloc(sizeof(*s));
	void (*print)(struct trace_seq *) = m->private;

	(void)v;
	if (!s)
		return -ENOMEM;
	trace_seq_init(s);
	print(s);
	seq_write(m, s->buffer, trace_seq_used(s));
	kfree(s);
	return 0;
}

static int header_open(struct inode *inode, struct file *file)
{
	return single_open(file, header_show, inode->i_private);
}

static const struct file_operations ftrace_show_header_fops = {
	.open = header_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* --- the tree --------------------------------------------------------------------------------- */

/*
 * A trace array's events/SYSTEM/ (Linux's struct event_subsystem and trace_subsystem_dir): made
 * with the system's first event, found again when an event of it is made at run time (a probe
 * event of group "kprobes"), removed with its last one. Its enable and filter files point at d.
 * event_mutex held for all of these.
 */
struct event_subsystem {
	struct list_head list;
	struct event_subsystem_dir d; /* d.system: the name, owned */
	struct dentry *dir;
	int nr_events;
	bool has_enable; /* its enable and filter files: with its first event that can be enabled */
};

/* What tr->event_dirs holds: events/ itself (events/enable points at top) and its systems. */
struct trace_events_dir {
	struct event_subsystem_dir top;
	struct dentry *dir;
	struct list_head systems;
};

static struct event_subsystem *subsystem_find(struct trace_events_dir *ed, const char *name)
{
	struct event_subsystem *sys;

	list_for_each_entry(sys, &ed->systems, list)
	{
		if (!strcmp(sys->d.system, name))
			return sys;
	}
	return NULL;
}

static struct event_subsystem *subsystem_get(struct trace_events_dir *ed,
					     const struct trace_event_call *call)
{
	struct event_subsystem *sys = subsystem_find(ed, call->system);

	if (!sys) {
		char *name = kstrdup(call->system);

		sys = kzalloc(sizeof(*sys));
		if (!sys || !name) {
			kfree(sys);
			kfree(name);
			return NULL;
		}
		sys->d = (struct event_subsystem_dir){ed->top.tr, name};
		sys->dir = tracefs_create_dir(name, ed->dir);
		if (!sys->dir) {
			kfree(name);
			kfree(sys);
			return NULL;
		}
		list_add_tail(&sys->list, &ed->systems);
	}
	if (!sys->has_enable && !(call->flags & TRACE_EVENT_FL_IGNORE_ENABLE)) {
		sys->has_enable = true;
		if (!tracefs_create_file("enable", TRACE_MODE_WRITE, sys->dir, &sys->d,
					 &ftrace_system_enable_fops) ||
		    !tracefs_create_file("filter", TRACE_MODE_WRITE, sys->dir, &sys->d,
					 &ftrace_subsystem_filter_fops))
			return NULL;
	}
	return sys;
}

static int event_create_dir(struct dentry *system_dir, struct trace_event_file *file)
{
	struct trace_event_call *call = file->call;
	struct dentry *dir = tracefs_create_dir(call->name, system_dir);
	bool enable = !(call->flags & TRACE_EVENT_FL_IGNORE_ENABLE);
	/*
	 * Linux's one exception (init_tracer_tracefs): a trace_marker write runs print's triggers
	 */
	bool trigger = enable || (!strcmp(call->system, "ftrace") && !strcmp(call->name, "print"));

	file->dir = dir;
	if (!dir ||
	    (enable &&
	     !tracefs_create_file("enable", TRACE_MODE_WRITE, dir, file, &ftrace_enable_fops)) ||
	    (enable && !tracefs_create_file("filter", TRACE_MODE_WRITE, dir, file,
					    &ftrace_event_filter_fops)) ||
	    (trigger &&
	     !tracefs_create_file("trigger", TRACE_MODE_WRITE, dir, file, &event_trigger_fops)) ||
	    !tracefs_create_file("hist", TRACE_MODE_READ, dir, file, &event_hist_fops) ||
	    /* Linux's CONFIG_HIST_TRIGGERS_DEBUG, off in its kernels: here a boot option */
	    (cmdline_has("hist_debug") && !tracefs_create_file("hist_debug", TRACE_MODE_READ, dir,
							       file, &event_hist_debug_fops)) ||
	    !tracefs_create_file("format", TRACE_MODE_READ, dir, call, &ftrace_event_format_fops) ||
	    !tracefs_create_file("id", TRACE_MODE_READ, dir, call, &ftrace_event_id_fops))
		return -ENOMEM;
	return 0;
}

/* events/SYSTEM/NAME/ of file's array, and the system's directory if it is new. */
int event_add_files(struct trace_event_file *file)
{
	struct trace_events_dir *ed = file->tr->event_dirs;
	struct event_subsystem *sys = ed ? subsystem_get(ed, file->call) : NULL;

	lockdep_assert_held(&event_mutex);
	if (!sys)
		return -ENOMEM;
	sys->nr_events++;
	return event_create_dir(sys->dir, file);
}

/* The opposite: the event's directory, and its system's with its last event. */
void event_remove_files(struct trace_event_file *file)
{
	struct trace_events_dir *ed = file->tr->event_dirs;
	struct event_subsystem *sys = ed ? subsystem_find(ed, file->call->system) : NULL;

	lockdep_assert_held(&event_mutex);
	tracefs_remove(file->dir);
	file->dir = NULL;
	if (sys && --sys->nr_events == 0) {
		tracefs_remove(sys->dir); /* its open files fail from now on, never touch d */
		list_del(&sys->list);
		kfree((char *)sys->d.system);
		kfree(sys);
	}
}

static bool trace_event_files_busy(struct trace_event_call *call)
{
	return call->file.dir && tracefs_tree_busy(call->file.dir);
}

/*
 * tr's set_event and events/ in parent (NULL: tracefs's root): a system's directory with its
 * first event; its enable and filter files with its first event that can be enabled:
 * events/ftrace/ has none, as in Linux.
 */
int event_trace_add_tracer(struct trace_array *tr, struct dentry *parent)
{
	struct trace_events_dir *ed;
	struct trace_event_file *file;

	lockdep_assert_held(&event_mutex);
	ed = kzalloc(sizeof(*ed));
	tr->event_dirs = ed;
	if (!ed)
		return -ENOMEM;
	ed->top = (struct event_subsystem_dir){tr, NULL};
	INIT_LIST_HEAD(&ed->systems);
	if (!tracefs_create_file("set_event", TRACE_MODE_WRITE, parent, tr, &ftrace_set_event_fops))
		return -ENOMEM;
	ed->dir = tracefs_create_dir("events", parent);
	if (!ed->dir ||
	    !tracefs_create_file("enable", TRACE_MODE_WRITE, ed->dir, &ed->top,
				 &ftrace_system_enable_fops) ||
	    !tracefs_create_file("header_page", TRACE_MODE_READ, ed->dir,
				 ring_buffer_print_page_header, &ftrace_show_header_fops) ||
	    !tracefs_create_file("header_event", TRACE_MODE_READ, ed->dir,
				 ring_buffer_print_entry_header, &ftrace_show_header_fops))
		return -ENOMEM;
	for_each_event_file(tr, file)
	{
		if (event_add_files(file))
			return -ENOMEM;
	}
	return 0;
}

/* The memory of tr's events/ (its directories go with the instance's tree). */
void event_trace_del_tracer(struct trace_array *tr)
{
	struct trace_events_dir *ed = tr->event_dirs;
	struct event_subsystem *sys, *next;

	if (!ed)
		return;
	list_for_each_entry_safe(sys, next, &ed->systems, list)
	{
		kfree((char *)sys->d.system);
		kfree(sys);
	}
	kfree(ed);
	tr->event_dirs = NULL;
}

int event_trace_init_tracefs(void)
{
	int ret;

	if (!tracefs_create_file("available_events", TRACE_MODE_READ, NULL, NULL,
				 &ftrace_avail_events_fops))
		return -ENOMEM;
	mutex_lock(&event_mutex);
	ret = event_trace_add_tracer(&global_trace, NULL);
	mutex_unlock(&event_mutex);
	return ret;
}

/* --- events made at run time ------------------------------------------------------------------ */

/*
 * Linux's trace_add_event_call(): a probe event (trace/trace_probe.c) joins the others: its id,
 * its place on ftrace_events (so available_events, set_event and the system's enable see it),
 * its files, at the top level and in every instance that exists. 0, -EEXIST (an event of that
 * system and name exists), -ENOSPC (no id left), or -ENOMEM, with nothing left behind.
 */
int trace_add_event_call(struct trace_event_call *call)
{
	int ret = 0;

	mutex_lock(&event_mutex);
	call->event.type = 0;
	call->file.call = call;
	call->file.tr = &global_trace;
	if (!global_trace.event_dirs) {
		ret = -ENODEV; /* before boot made events/ */
	} else if (!event_insert(call)) {
		ret = -EEXIST;
	} else if (!register_trace_event(&call->event)) {
		list_del(&call->list);
		ret = -ENOSPC;
	} else if (event_add_files(&call->file) || trace_instances_add_event(call)) {
		event_remove_files(&call->file);
		unregister_trace_event(&call->event);
		list_del(&call->list);
		ret = -ENOMEM;
	}
	mutex_unlock(&event_mutex);
	return ret;
}

/*
 * Linux's trace_remove_event_call(): -EBUSY while the event records anywhere (its enable file,
 * a tracer, an instance), a trigger holds it or it has triggers, or one of its files is open;
 * otherwise its files go, the instances' too.
 * Its records still in the buffers are then unreadable (their id is free again): the caller
 * clears the buffers if the event ever recorded, as Linux does.
 */
int trace_remove_event_call(struct trace_event_call *call)
{
	int ret = 0;

	mutex_lock(&event_mutex);
	if (call->file.enabled || call->registered || call->tracer_refs || call->nr_inst_enabled ||
	    call->file.sm_ref || call->file.tm_ref || call->file.triggers ||
	    trace_event_files_busy(call)) {
		ret = -EBUSY;
	} else if (!(ret = trace_instances_remove_event(call))) {
		event_remove_files(&call->file);
		list_del(&call->list);
		unregister_trace_event(&call->event);
		free_event_filter(call->file.filter);
		call->file.filter = NULL;
		kfree(call->file.filter_err);
		call->file.filter_err = NULL;
	}
	mutex_unlock(&event_mutex);
	return ret;
}

/* --- boot (trace_event= is read in trace/trace_boot.c) ---------------------------------------- */

extern struct trace_event_call *const __start_trace_events[], *const __stop_trace_events[];

static const struct ctl_table tp_printk_sysctls[] = {
	{"tracepoint_printk", &tracepoint_printk, 0644, 0, 1, NULL},
};

/* Before the tracers: the events they may hold (the sched_switch tracer). No files yet. */
void event_trace_early_init(void)
{
	trace_events_add(__start_trace_events, (int)(__stop_trace_events - __start_trace_events));
	if (cmdline_flag_on("tp_printk")) /* Linux's set_tracepoint_printk() */
		tracepoint_printk = 1;
}

/* Once the VFS exists: events/, set_event and the rest, then trace_event=. */
void event_trace_init(void)
{
	if (event_trace_init_tracefs() ||
	    register_sysctl_table(tp_printk_sysctls, ARRAY_SIZE(tp_printk_sysctls)))
		pr_warn("tracing: could not create every events file\n");
	trace_boot_events(&global_trace);
}
