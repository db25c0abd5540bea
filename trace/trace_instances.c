/* Instances: "mkdir instances/foo" makes a second trace array with its own buffers and files. */

/*
 * A trace array (struct trace_array, trace/trace.h) is a ring buffer per CPU and the settings
 * its files show: tracer, options, clock, sizes, snapshot, pid lists. global_trace is the one
 * in the tracing directory; every directory made in instances/ is another, Linux's instances,
 * so that a tool (trace-cmd -B, Perfetto) can trace without disturbing anyone else's trace.
 *
 * The files are the top level's own operations: each file's inode points at a struct trace_cpu
 * of its array (trace/trace_fs.h's tracing_get_tr), so "trace", "tracing_on" or
 * "buffer_size_kb" act on whichever array the file is in. An instance has Linux's subset of
 * the files (trace_fs.c's INST), per_cpu/, options/ and events/.
 *
 * Events: each event has one probe, attached while anyone records the event. An instance keeps
 * its enable state and filter in a struct trace_event_file per event (Linux's), on the event's
 * list of instance files, and the probe, seeing EVENT_FILE_FL_INSTANCES, builds the record once
 * and copies it into each array that wants it (trace/trace_events.c). The top level's state is
 * still the event's own fields (Linux's global_trace files).
 *
 * rmdir frees everything mkdir allocated. It is refused (-EBUSY) while a file of the instance
 * is open or a directory of it is a working directory (the dentries' counts say so: nothing to
 * count by hand in every file), and while a trace_pipe reader holds the tracer. Then: the
 * tracer is reset (the function tracer's ops unregistered), every event disabled and the
 * instance's files unlinked from the events' lists, one wait until no CPU can still be in a
 * probe that saw them, and only then is the memory freed.
 *
 * Lock order: the VFS lock (mkdir and rmdir run under it), trace_types_lock, event_mutex.
 * Not traced, as all of trace/.
 */
#include "trace/trace.h"
#include "trace/trace_fs.h"
#include "trace/trace_events.h"
#include "trace/trace_events_filter.h"
#include "trace/trace_error_log.h"
#include "trace/trace_pid.h"
#include "trace/ring_buffer.h"
#include "kernel/fs/tracefs.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/mutex.h"
#include "kernel/sched/lockdep.h"
#include "kernel/tracepoint.h"
#include "kernel/printk.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

/* Linux's ZEROED_TRACE_FLAGS: an instance starts with the top level's options but these. */
#define ZEROED_TRACE_FLAGS (TRACE_ITER_EVENT_FORK | TRACE_ITER_FUNCTION_FORK)
#define FILTER_WRITE_MAX 4096 /* as the top level's filter files: less than a page */

struct trace_array *trace_instances; /* newest first, under trace_types_lock */
static struct dentry *instances_dir;

/* What an events/ or events/SYSTEM/ enable file points at: the array, the system (NULL: all). */
struct event_dir {
	struct trace_array *tr;
	const char *system;
};

static struct trace_array *instance_lookup(const char *name)
{
	for (struct trace_array *tr = trace_instances; tr; tr = tr->next)
		if (strcmp(tr->name, name) == 0)
			return tr;
	return NULL;
}

/* --- events/.../enable, filter; set_event ----------------------------------------------------- */

static int write_01(const char *ubuf, size_t cnt, unsigned long *val)
{
	int ret = tracing_write_ulong(ubuf, cnt, val);

	return ret ? ret : (*val > 1 ? -EINVAL : 0);
}

static ssize_t file_enable_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_event_file *ef = file_inode(file)->i_private;

	return simple_read_from_buffer(ubuf, cnt, ppos, READ_ONCE(ef->enabled) ? "1\n" : "0\n", 2);
}

static ssize_t file_enable_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_event_file *ef = file_inode(file)->i_private;
	unsigned long val;
	int ret = write_01(ubuf, cnt, &val);

	if (ret)
		return ret;
	mutex_lock(&event_mutex);
	ret = trace_event_file_enable(ef, val);
	mutex_unlock(&event_mutex);
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations instance_enable_fops = {
	.read = file_enable_read,
	.write = file_enable_write,
};

/* Every event of tr in system (NULL: all) on or off: the first error, the others still done. */
static int instance_set_events(struct trace_array *tr, const struct trace_event_selector *sel)
{
	int ret = -EINVAL, eret = 0;

	lockdep_assert_held(&event_mutex);
	for (int i = 0; i < tr->nr_event_files; i++) {
		struct trace_event_file *ef = &tr->event_files[i];

		if (!ef->call || !trace_event_selector_matches(sel, ef->call))
			continue;
		ret = trace_event_file_enable(ef, sel->set);
		if (ret && !eret)
			eret = ret;
		ret = eret;
	}
	return ret;
}

/* events/enable, events/SYSTEM/enable: "0", "1", or "X" if mixed, as the top level's. */
static ssize_t dir_enable_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	static const char set_to_char[4] = {'?', '0', '1', 'X'}; /* bit 0: some off, bit 1: on */
	const struct event_dir *ed = file_inode(file)->i_private;
	char buf[2];
	int set = 0;

	mutex_lock(&event_mutex);
	for (int i = 0; i < ed->tr->nr_event_files; i++) {
		struct trace_event_file *ef = &ed->tr->event_files[i];

		if (!ef->call || (ef->call->flags & TRACE_EVENT_FL_IGNORE_ENABLE))
			continue;
		if (!ed->system || strcmp(ef->call->system, ed->system) == 0)
			set |= 1 << ef->enabled;
	}
	mutex_unlock(&event_mutex);
	buf[0] = set_to_char[set];
	buf[1] = '\n';
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, sizeof(buf));
}

static ssize_t dir_enable_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	const struct event_dir *ed = file_inode(file)->i_private;
	struct trace_event_selector sel = {.sub = ed->system};
	unsigned long val;
	int ret = write_01(ubuf, cnt, &val);

	if (ret)
		return ret;
	sel.set = (int)val;
	mutex_lock(&event_mutex);
	ret = instance_set_events(ed->tr, &sel);
	mutex_unlock(&event_mutex);
	if (ret)
		return ret;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations instance_dir_enable_fops = {
	.read = dir_enable_read,
	.write = dir_enable_write,
};

static int file_filter_show(struct seq_file *m, void *v)
{
	struct trace_event_file *ef = m->private;

	(void)v;
	event_filter_seq_show(m, &ef->filter, &ef->filter_err);
	return 0;
}

static int file_filter_open(struct inode *inode, struct file *file)
{
	return single_open(file, file_filter_show, inode->i_private);
}

/* As the top level's filter file, into this instance's slot; its error_log hears a refusal. */
static ssize_t file_filter_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	struct trace_event_file *ef = file_inode(file)->i_private;

	return event_filter_file_write(ef->tr, ef->call, &ef->filter, &ef->filter_err, ubuf, cnt,
				       ppos);
}

static const struct file_operations instance_filter_fops = {
	.open = file_filter_open,
	.read = seq_read,
	.write = file_filter_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/* set_event: the enabled events, "system:event" a line, as the top level's. */
static int set_event_show(struct seq_file *m, void *v)
{
	struct trace_array *tr = m->private;

	(void)v;
	mutex_lock(&event_mutex);
	for (int i = 0; i < tr->nr_event_files; i++)
		if (tr->event_files[i].enabled && tr->event_files[i].call)
			seq_printf(m, "%s:%s\n", tr->event_files[i].call->system,
				   tr->event_files[i].call->name);
	mutex_unlock(&event_mutex);
	return 0;
}

struct set_event_file {
	struct trace_array *tr;
	bool reset; /* opened with O_TRUNC and not yet written: every event goes off */
};

static int set_event_open(struct inode *inode, struct file *file)
{
	struct trace_array *tr = tracing_get_tr(inode);
	struct set_event_file *sf;

	if (file->f_mode & FMODE_READ)
		return single_open(file, set_event_show, tr);
	sf = kzalloc(sizeof(*sf));
	if (!sf)
		return -ENOMEM;
	sf->tr = tr;
	sf->reset = file->f_flags & O_TRUNC;
	file->private_data = sf;
	return 0;
}

static void clear_events(void *data)
{
	struct trace_event_selector all = {.set = 0};

	instance_set_events(data, &all);
}

static struct set_event_file *set_event_private(struct file *file)
{
	if (file->f_mode & FMODE_READ) /* read-write: a seq_file, the array in its private */
		return NULL;
	return file->private_data;
}

static int instance_set_event(void *data, const struct trace_event_selector *sel)
{
	return instance_set_events(data, sel);
}

static const struct set_event_ops instance_set_event_ops = {.set = instance_set_event,
							    .clear = clear_events};

/* Words as the top level's: [!]system:event, [!]event, [!]system, with * for a whole part. */
static ssize_t set_event_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	struct set_event_file *sf = set_event_private(file);
	bool reset = sf && sf->reset;

	if (sf)
		sf->reset = false;
	return set_event_file_write(&instance_set_event_ops, tracing_get_tr(file_inode(file)),
				    reset, ubuf, cnt, ppos);
}

static int set_event_release(struct inode *inode, struct file *file)
{
	struct set_event_file *sf = set_event_private(file);

	if (!sf)
		return single_release(inode, file);
	if (sf->reset) { /* "> set_event" and nothing written: every event off */
		mutex_lock(&event_mutex);
		clear_events(sf->tr);
		mutex_unlock(&event_mutex);
	}
	kfree(sf);
	return 0;
}

static ssize_t set_event_read(struct file *file, char *ubuf, size_t cnt, loff_t *ppos)
{
	return set_event_private(file) ? -EINVAL : seq_read(file, ubuf, cnt, ppos);
}

static const struct file_operations instance_set_event_fops = {
	.open = set_event_open,
	.read = set_event_read,
	.write = set_event_write,
	.release = set_event_release,
};

/* --- events/ ---------------------------------------------------------------------------------- */

static int event_file_dir(struct dentry *system_dir, struct trace_event_file *ef)
{
	struct trace_event_call *call = ef->call;
	struct dentry *dir = tracefs_create_dir(call->name, system_dir);
	bool enable = !(call->flags & TRACE_EVENT_FL_IGNORE_ENABLE);

	ef->dir = dir;
	if (!dir ||
	    (enable &&
	     !tracefs_create_file("enable", TRACE_MODE_WRITE, dir, ef, &instance_enable_fops)) ||
	    (enable &&
	     !tracefs_create_file("filter", TRACE_MODE_WRITE, dir, ef, &instance_filter_fops)) ||
	    !tracefs_create_file("format", TRACE_MODE_READ, dir, call, &ftrace_event_format_fops) ||
	    !tracefs_create_file("id", TRACE_MODE_READ, dir, call, &ftrace_event_id_fops))
		return -ENOMEM;
	return 0;
}

/*
 * tr's events/ and set_event, and a struct trace_event_file for every event, put on the
 * events' lists (published last: a probe may walk them at once). event_mutex held.
 */
static int instance_events_create(struct trace_array *tr)
{
	struct dentry *events, *system_dir = NULL;
	struct trace_event_call *call;
	struct event_dir *dirs;
	const char *system = NULL;
	int n = 0, nr_dirs = 0;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(call, &ftrace_events, list)
	{
		n++;
	}
	tr->event_files = kzalloc(sizeof(*tr->event_files) * (size_t)n);
	/* events/, and at most one system per event */
	dirs = kzalloc(sizeof(*dirs) * (size_t)(n + 1));
	tr->event_dirs = dirs;
	if (!tr->event_files || !dirs)
		return -ENOMEM;
	if (!tracefs_create_file("set_event", TRACE_MODE_WRITE, tr->dir, &tr->cpu_files[0],
				 &instance_set_event_fops))
		return -ENOMEM;
	events = tracefs_create_dir("events", tr->dir);
	dirs[nr_dirs++] = (struct event_dir){tr, NULL};
	if (!events ||
	    !tracefs_create_file("enable", TRACE_MODE_WRITE, events, &dirs[0],
				 &instance_dir_enable_fops) ||
	    !tracefs_create_file("header_page", TRACE_MODE_READ, events,
				 ring_buffer_print_page_header, &ftrace_show_header_fops) ||
	    !tracefs_create_file("header_event", TRACE_MODE_READ, events,
				 ring_buffer_print_entry_header, &ftrace_show_header_fops))
		return -ENOMEM;
	list_for_each_entry(call, &ftrace_events, list)
	{
		struct trace_event_file *ef = &tr->event_files[tr->nr_event_files++];

		ef->call = call;
		ef->tr = tr;
		if (!system || strcmp(system, call->system)) {
			system = call->system;
			system_dir = tracefs_create_dir(system, events);
			if (!system_dir)
				return -ENOMEM;
			if (!(call->flags & TRACE_EVENT_FL_IGNORE_ENABLE)) {
				dirs[nr_dirs] = (struct event_dir){tr, system};
				if (!tracefs_create_file("enable", TRACE_MODE_WRITE, system_dir,
							 &dirs[nr_dirs++],
							 &instance_dir_enable_fops))
					return -ENOMEM;
			}
		}
		if (event_file_dir(system_dir, ef))
			return -ENOMEM;
	}
	for (int i = 0; i < tr->nr_event_files; i++) {
		struct trace_event_file *ef = &tr->event_files[i];

		ef->next = ef->call->inst_files;
		__atomic_store_n(&ef->call->inst_files, ef, __ATOMIC_RELEASE);
	}
	return 0;
}

/* Every event of tr off, its files off the events' lists. event_mutex held; then a sync. */
static void instance_events_unlink(struct trace_array *tr)
{
	lockdep_assert_held(&event_mutex);
	for (int i = 0; i < tr->nr_event_files; i++) {
		struct trace_event_file *ef = &tr->event_files[i];
		struct trace_event_file **pp;

		if (!ef->call)
			continue; /* its event was removed, and took the file off its list */
		pp = &ef->call->inst_files;

		trace_event_file_enable(ef, false);
		while (*pp && *pp != ef)
			pp = &(*pp)->next;
		if (*pp)
			__atomic_store_n(pp, ef->next, __ATOMIC_RELEASE);
	}
}

/*
 * An event made at run time goes (trace_remove_event_call, event_mutex held): its file in every
 * instance goes with it, as Linux's; -EBUSY, and nothing changes, while an instance records it.
 * The file's slot in its instance's array stays, with no event (ef->call NULL), skipped by the
 * walks above. Nothing records the event, so no probe walks the list being emptied.
 */
int trace_instances_remove_event(struct trace_event_call *call)
{
	struct trace_event_file *ef;

	lockdep_assert_held(&event_mutex);
	for (ef = call->inst_files; ef; ef = ef->next)
		if (ef->enabled)
			return -EBUSY;
	for (ef = call->inst_files; ef; ef = ef->next) {
		tracefs_remove(ef->dir);
		ef->dir = NULL;
		free_event_filter(ef->filter);
		ef->filter = NULL;
		kfree(ef->filter_err);
		ef->filter_err = NULL;
		ef->call = NULL;
	}
	__atomic_store_n(&call->inst_files, NULL, __ATOMIC_RELEASE);
	return 0;
}

/* --- mkdir and rmdir -------------------------------------------------------------------------- */

/* Everything an instance holds; its files are gone, and no probe can still see it. */
static void instance_free(struct trace_array *tr)
{
	for (int i = 0; tr->event_files && i < tr->nr_event_files; i++) {
		free_event_filter(tr->event_files[i].filter);
		kfree(tr->event_files[i].filter_err);
	}
	kfree(tr->event_files);
	kfree(tr->event_dirs);
	clear_tracing_err_log(tr);
	tracer_free_instance_files(tr);
	ftrace_reset_filters(&tr->ops);
	if (tr->snapshot_buffer)
		ring_buffer_free(tr->snapshot_buffer);
	if (tr->buffer)
		ring_buffer_free(tr->buffer);
	kfree(tr->event_pids);
	kfree(tr->function_pids);
	kfree((char *)tr->name);
	kfree(tr);
}

/* The instance's files gone, its tracer reset, its events off; then freed. Both locks held. */
static void instance_destroy(struct trace_array *tr)
{
	struct trace_array **pp;

	if (tr->current_trace->reset)
		tr->current_trace->reset(tr);
	tr->current_trace = &nop_trace;
	instance_events_unlink(tr);
	for (pp = &trace_instances; *pp && *pp != tr; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = tr->next;
	tracefs_remove(tr->dir);
	tracepoint_synchronize_unregister(); /* no probe still copies into its buffers */
	instance_free(tr);
}

static int instance_mkdir(const char *name)
{
	struct trace_array *tr;
	int ret = -ENOMEM;

	mutex_lock(&trace_types_lock);
	mutex_lock(&event_mutex);
	if (instance_lookup(name)) {
		ret = -EEXIST;
		goto out;
	}
	tr = kzalloc(sizeof(*tr));
	if (!tr)
		goto out;
	tr->name = kstrdup(name);
	tr->event_pids = kzalloc(sizeof(*tr->event_pids));
	tr->function_pids = kzalloc(sizeof(*tr->function_pids));
	tr->nr_cpus = global_trace.nr_cpus;
	tr->trace_flags = global_trace.trace_flags & ~ZEROED_TRACE_FLAGS;
	tr->current_trace = &nop_trace;
	tr->buffer_percent = BUFFER_PERCENT_DEFAULT;
	tr->ops.private = tr;
	for (int cpu = 0; cpu < tr->nr_cpus; cpu++)
		tr->buffer_size[cpu] = TRACE_BUF_SIZE_DEFAULT;
	tr->buffer = ring_buffer_alloc(TRACE_BUF_SIZE_DEFAULT,
				       tr->trace_flags & TRACE_ITER_OVERWRITE ? RB_FL_OVERWRITE : 0,
				       tr->nr_cpus);
	if (!tr->name || !tr->event_pids || !tr->function_pids || !tr->buffer) {
		instance_free(tr);
		goto out;
	}
	tr->event_pids->fork_option = TRACE_ITER_EVENT_FORK;
	tr->function_pids->fork_option = TRACE_ITER_FUNCTION_FORK;
	ring_buffer_set_clock(tr->buffer, trace_clocks[tr->clock_id].func);
	tr->dir = tracefs_create_dir(name, instances_dir);
	tr->next = trace_instances;
	trace_instances = tr;
	if (!tr->dir || tracer_init_instance_files(tr) || instance_events_create(tr)) {
		instance_destroy(tr);
		goto out;
	}
	ret = 0;
out:
	mutex_unlock(&event_mutex);
	mutex_unlock(&trace_types_lock);
	return ret;
}

static int instance_rmdir(const char *name)
{
	struct trace_array *tr;
	int ret = 0;

	mutex_lock(&trace_types_lock);
	mutex_lock(&event_mutex);
	tr = instance_lookup(name);
	if (!tr)
		ret = -ENODEV;
	else if (tr->trace_ref || tracefs_tree_busy(tr->dir))
		ret = -EBUSY; /* a file of it is open, or a trace_pipe reader holds its tracer */
	else
		instance_destroy(tr);
	mutex_unlock(&event_mutex);
	mutex_unlock(&trace_types_lock);
	return ret;
}

/*
 * For kernel code, as Linux's: the instance called name, made if there is none (NULL if it
 * cannot be), removed again by trace_array_destroy() (0, or -EBUSY / -ENODEV as rmdir says).
 * Both take the VFS lock, as a user's mkdir and rmdir run under it.
 */
struct trace_array *trace_array_get_by_name(const char *name)
{
	struct trace_array *tr;

	vfs_lock();
	mutex_lock(&trace_types_lock);
	tr = instance_lookup(name);
	mutex_unlock(&trace_types_lock);
	if (!tr && instances_dir && instance_mkdir(name) == 0) {
		mutex_lock(&trace_types_lock);
		tr = instance_lookup(name);
		mutex_unlock(&trace_types_lock);
	}
	vfs_unlock();
	return tr;
}

int trace_array_destroy(struct trace_array *tr)
{
	int ret;

	vfs_lock();
	ret = instance_rmdir(tr->name);
	vfs_unlock();
	return ret;
}

/* system:event (either NULL: every one) on or off in tr, as its set_event would. */
int trace_array_set_clr_event(struct trace_array *tr, const char *system, const char *event,
			      bool enable)
{
	struct trace_event_selector sel = {.sub = system, .event = event, .set = enable};
	int ret;

	mutex_lock(&event_mutex);
	ret = instance_set_events(tr, &sel);
	mutex_unlock(&event_mutex);
	return ret;
}

void trace_instances_init_tracefs(void)
{
	instances_dir =
		tracefs_create_instance_dir("instances", NULL, instance_mkdir, instance_rmdir);
	if (!instances_dir)
		pr_warn("tracing: could not create instances/\n");
}
