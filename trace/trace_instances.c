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
 * Events: each event has one probe, attached while anyone records the event. Each array keeps
 * its enable state, filter and triggers in a struct trace_event_file per event (Linux's): the
 * top level's is the event's own (call->file), an instance's are on its chain tr->event_files
 * (each allocated alone: an event made at run time adds one to every instance, and its removal
 * leaves it there, without its event, until rmdir), and on the event's list of instance files,
 * and one code (trace/trace_events.c, trace_events_fs.c,
 * trace_events_trigger.c) serves both. The probe, seeing EVENT_FILE_FL_INSTANCES, builds the
 * record once and copies it into each array that wants it. Function commands in an instance's
 * set_ftrace_filter are its own too (trace/ftrace_probe.c), freed at rmdir.
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
#include "trace/trace_events_trigger.h"
#include "trace/trace_error_log.h"
#include "trace/trace_pid.h"
#include "trace/ftrace_probe.h"
#include "trace/ring_buffer.h"
#include "kernel/fs/tracefs.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/mutex.h"
#include "kernel/locking/lockdep.h"
#include "kernel/tracepoint.h"
#include "kernel/printk.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

/* Linux's ZEROED_TRACE_FLAGS: an instance starts with the top level's options but these. */
#define ZEROED_TRACE_FLAGS (TRACE_ITER_EVENT_FORK | TRACE_ITER_FUNCTION_FORK)

struct trace_array *trace_instances; /* newest first, under trace_types_lock */
static struct dentry *instances_dir;

static struct trace_array *instance_lookup(const char *name)
{
	for (struct trace_array *tr = trace_instances; tr; tr = tr->next)
		if (strcmp(tr->name, name) == 0)
			return tr;
	return NULL;
}

/* --- events/ ---------------------------------------------------------------------------------- */

/*
 * tr's file of call: allocated alone (never moved: the probe reads it without a lock and
 * dentries point at it), chained on tr's files (freed at rmdir) and published on the call's
 * list of instance files, which a probe may walk at once (the file is off: it skips it).
 * event_mutex held.
 */
static struct trace_event_file *instance_file_new(struct trace_array *tr,
						  struct trace_event_call *call)
{
	struct trace_event_file *ef = kzalloc(sizeof(*ef));

	lockdep_assert_held(&event_mutex);
	if (!ef)
		return NULL;
	ef->call = call;
	ef->tr = tr;
	ef->tr_next = tr->event_files;
	tr->event_files = ef;
	ef->next = call->inst_files;
	__atomic_store_n(&call->inst_files, ef, __ATOMIC_RELEASE);
	return ef;
}

/*
 * A struct trace_event_file for every event, then tr's events/ and set_event (the top level's
 * code, trace/trace_events_fs.c, which walks tr's files through the events' lists).
 * event_mutex held.
 */
static int instance_events_create(struct trace_array *tr)
{
	struct trace_event_call *call;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(call, &ftrace_events, list)
	{
		struct trace_event_file *ef = instance_file_new(tr, call);

		if (!ef)
			return -ENOMEM;
		if (!strcmp(call->system, "ftrace") && !strcmp(call->name, "print"))
			tr->print_file = ef; /* its trace_marker runs this file's triggers */
	}
	return event_trace_add_tracer(tr, tr->dir);
}

/*
 * Every event of tr off, its files off the events' lists. The triggers go first (they hold
 * other files of tr in soft mode), and the tracer was reset before (its function commands hold
 * some too). event_mutex held; then a sync.
 */
static void instance_events_unlink(struct trace_array *tr)
{
	struct trace_event_file *ef;

	lockdep_assert_held(&event_mutex);
	for (ef = tr->event_files; ef; ef = ef->tr_next)
		if (ef->call)
			event_triggers_clear(ef);
	for (ef = tr->event_files; ef; ef = ef->tr_next) {
		struct trace_event_file **pp;

		if (!ef->call)
			continue; /* its event was removed, and took the file off its list */
		pp = &ef->call->inst_files;

		if (!(ef->call->flags & TRACE_EVENT_FL_IGNORE_ENABLE))
			ftrace_event_enable_disable(ef, false);
		if (ef->enabled)
			pr_warn("tracing: instance %s: %s:%s still held at rmdir\n", tr->name,
				ef->call->system, ef->call->name);
		while (*pp && *pp != ef)
			pp = &(*pp)->next;
		if (*pp)
			__atomic_store_n(pp, ef->next, __ATOMIC_RELEASE);
	}
}

/*
 * Every file of call in the instances loses its event: its directory goes, it leaves the
 * call's list, and stays on its instance's chain (call NULL, skipped by every walk) until
 * rmdir frees it: a probe that read the list a moment ago, or a file still open, may hold it.
 */
static void instance_files_drop(struct trace_event_call *call)
{
	struct trace_event_file *ef;

	for (ef = call->inst_files; ef; ef = ef->next) {
		event_remove_files(ef);
		free_event_filter(ef->filter);
		ef->filter = NULL;
		kfree(ef->filter_err);
		ef->filter_err = NULL;
		ef->call = NULL;
	}
	__atomic_store_n(&call->inst_files, NULL, __ATOMIC_RELEASE);
}

/*
 * An event made at run time (trace_add_event_call, event_mutex held) joins every instance
 * that exists, as Linux's __trace_add_new_event does for each trace_array: a file and its
 * events/SYSTEM/NAME/. The instances made later get it from mkdir's walk of ftrace_events.
 * The event is on ftrace_events already, so each instance's walk finds it in its place. The
 * list of instances changes under event_mutex too (mkdir and rmdir hold it).
 */
int trace_instances_add_event(struct trace_event_call *call)
{
	lockdep_assert_held(&event_mutex);
	for (struct trace_array *tr = trace_instances; tr; tr = tr->next) {
		struct trace_event_file *ef = instance_file_new(tr, call);

		if (!ef || event_add_files(ef)) {
			/* nothing records it yet: no one is using them */
			instance_files_drop(call);
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * An event made at run time goes (trace_remove_event_call, event_mutex held): its file in every
 * instance goes with it, as Linux's; -EBUSY, and nothing changes, while an instance records it
 * or a trigger holds it there (both keep the file enabled), or one of its files is open.
 * Nothing records the event, so no probe walks the list being emptied.
 */
int trace_instances_remove_event(struct trace_event_call *call)
{
	struct trace_event_file *ef;

	lockdep_assert_held(&event_mutex);
	for (ef = call->inst_files; ef; ef = ef->next)
		if (ef->enabled || (ef->dir && tracefs_tree_busy(ef->dir)))
			return -EBUSY;
	instance_files_drop(call);
	return 0;
}

/* --- mkdir and rmdir -------------------------------------------------------------------------- */

/* Everything an instance holds; its files are gone, and no probe can still see it. */
static void instance_free(struct trace_array *tr)
{
	while (tr->event_files) {
		struct trace_event_file *ef = tr->event_files;

		tr->event_files = ef->tr_next;
		free_event_filter(ef->filter);
		kfree(ef->filter_err);
		kfree(ef);
	}
	event_trace_del_tracer(tr);
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
	trace_snapshot_trigger_forget(tr);
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
	tr = instance_lookup(name);
	if (!tr) {
		ret = -ENODEV;
	} else if (tr->trace_ref || tracefs_tree_busy(tr->dir)) {
		ret = -EBUSY; /* a file of it is open, or a trace_pipe reader holds its tracer */
	} else {
		/*
		 * Its function commands first: enable_event's drop their holds under event_mutex.
		 */
		ftrace_release_probes(tr);
		mutex_lock(&event_mutex);
		instance_destroy(tr);
		mutex_unlock(&event_mutex);
	}
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
	ret = __ftrace_set_clr_event(tr, &sel);
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
