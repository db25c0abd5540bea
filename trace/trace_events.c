/* The trace event core: the registered events, their ids, enabling them, recording them. */

/*
 * Each event is a struct trace_event_call in its system's file (trace/trace_events.h says
 * what it holds), found at boot in the .trace_events section. event_trace_early_init() puts them on
 * ftrace_events sorted by system, then name, and gives each its id in that order, from
 * TRACE_EVENT_TYPE_FIRST on: so ids do not depend on the order the linker put the files in,
 * and change only when an event is added or removed. The id goes into every record the event
 * writes (trace_entry.type, the format file's common_type), and the reader of the trace finds
 * the event's output function by it (register_trace_event, trace/trace_output.c).
 *
 * Enabled means: the event's probe is attached to its tracepoint (kernel/tracepoint.h). Two
 * parties can want that: the user (enable files, set_event: a trace_event_file's enabled, the
 * top level's call->file or an instance's) and tracers that record events while they are
 * current (the sched_switch tracer: call->tracer_refs). The probe is attached while either does
 * and detached when neither does, so a disabled event costs its tracepoint's one test and
 * nothing more. The files show the user's wish only.
 *
 * Some events only describe records their tracer writes itself (events/ftrace/, from
 * trace/trace_export.c: TRACE_EVENT_FL_IGNORE_ENABLE). They keep their fixed TRACE_* type as id,
 * have no probe, and no word of set_event matches them.
 *
 * Recording is what any writer of the trace buffer does: reserve a record in this CPU's ring
 * buffer, fill the struct trace_entry header (type = the id, flags, preempt depth, pid), then
 * the event's fields, and commit. Probes run with interrupts off, in any context.
 *
 * An event with a filter (trace/trace_events_filter.c) cannot be reserved in the ring buffer
 * directly: the filter needs the filled record, and a record the filter drops would have to be
 * taken back out. So, as Linux's trace_buffered_event does, its record is built in a buffer of
 * this CPU's aside, and commit copies it into the ring buffer (ring_buffer_write) only if the
 * filter keeps it. An interrupt's event may come while a task's is being built there, so each
 * CPU has one such buffer per level of nesting. An event without a filter pays one test of its
 * filter pointer at reserve and one of the record's address at commit.
 *
 * Triggers (trace/trace_events_trigger.c) cost an event without them one more test at reserve,
 * of its file_flags. With triggers, or soft-disabled (its probe held attached by a trigger,
 * its records dropped), triggered_buffer_reserve() runs the triggers that need nothing of the
 * record at once, and those that do look at a record built aside, as a filter does.
 *
 * Not traced, as all of trace/: probes run inside the scheduler and interrupt handlers.
 */
#include "trace/trace_events.h"
#include "trace/trace_events_filter.h"
#include "trace/trace_events_trigger.h"
#include "trace/trace_pid.h"
#include "trace/ring_buffer.h"
#include "kernel/tracepoint.h"
#include "kernel/locking/mutex.h"
#include "kernel/printk.h"
#include "kernel/percpu.h"
#include "trace/trace_output.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/locking/lockdep.h"

LIST_HEAD(ftrace_events);
DEFINE_MUTEX(event_mutex);

/* --- registering ------------------------------------------------------------------------------ */

static int event_cmp(const struct trace_event_call *a, const struct trace_event_call *b)
{
	int c = strcmp(a->system, b->system);

	return c ? c : strcmp(a->name, b->name);
}

/* Into ftrace_events at its sorted place; false if an event of that name is there already. */
bool event_insert(struct trace_event_call *call)
{
	struct trace_event_call *pos;

	list_for_each_entry(pos, &ftrace_events, list)
	{
		int c = event_cmp(call, pos);

		if (!c)
			return false;
		if (c < 0) {
			list_add_tail(&call->list, &pos->list); /* just before pos */
			return true;
		}
	}
	list_add_tail(&call->list, &ftrace_events);
	return true;
}

/*
 * An event that records needs its output, tracepoint and probe; a format-only one needs its
 * fixed id instead.
 */
static bool event_complete(const struct trace_event_call *call)
{
	if (call->flags & TRACE_EVENT_FL_IGNORE_ENABLE)
		return call->event.type > __TRACE_FIRST_TYPE &&
		       call->event.type < __TRACE_LAST_TYPE;
	return call->event.trace && call->tp && call->probe;
}

void trace_events_add(struct trace_event_call *const *calls, int nr)
{
	struct trace_event_call *call;

	for (int i = 0; i < nr; i++) {
		call = calls[i];
		call->file.call = call; /* the top level's file */
		call->file.tr = &global_trace;
		if (!call->fields && call->define_fields)
			call->fields = call->define_fields();
		if (!call->system || !call->name || !call->fields || !event_complete(call) ||
		    !event_insert(call))
			pr_err("event %s:%s: incomplete or registered twice\n", call->system,
			       call->name);
	}
	/* Ids in sorted order, for the events that have none yet. */
	list_for_each_entry(call, &ftrace_events, list)
	{
		if (!call->event.type && !register_trace_event(&call->event))
			pr_err("event %s:%s: no id left\n", call->system, call->name);
	}
}

/* --- enabling --------------------------------------------------------------------------------- */

/* Attach or detach the probe, as the files and tracer_refs now say. event_mutex held. */
static int trace_event_update(struct trace_event_call *call)
{
	lockdep_assert_held(&event_mutex);
	bool want = call->file.enabled || call->tracer_refs > 0 || call->nr_inst_enabled > 0;
	int ret;

	if ((call->flags & TRACE_EVENT_FL_IGNORE_ENABLE) && !call->reg)
		return want ? -EINVAL : 0; /* nothing to attach: its tracer writes its records */
	if (want == call->registered)
		return 0;
	if (!call->event.type)
		return -ENODEV; /* never got an id: its records could not be read */
	if (call->reg)
		ret = call->reg(call, want);
	else if (want)
		ret = tracepoint_probe_register(call->tp, call->probe, call);
	else
		ret = tracepoint_probe_unregister(call->tp, call->probe, call);
	if (!ret)
		call->registered = want;
	return ret;
}

static void file_flags_set(struct trace_event_file *file, unsigned long mask, bool on)
{
	if (on)
		__atomic_fetch_or(&file->flags, mask, __ATOMIC_RELEASE);
	else
		__atomic_fetch_and(&file->flags, ~mask, __ATOMIC_RELEASE);
}

static bool is_instance_file(const struct trace_event_file *file)
{
	return file != &file->call->file;
}

/*
 * Attaches or detaches the probe for file's enabled; on failure, enabled is as it was. An
 * instance's file counts in nr_inst_enabled, and the top level's INSTANCES flag says whether
 * any does.
 */
static int event_set_enabled(struct trace_event_file *file, bool on)
{
	struct trace_event_call *call = file->call;
	int delta = is_instance_file(file) ? (on ? 1 : -1) : 0;
	int ret;

	call->nr_inst_enabled += delta;
	WRITE_ONCE(file->enabled, on);
	ret = trace_event_update(call);
	if (ret) {
		call->nr_inst_enabled -= delta;
		WRITE_ONCE(file->enabled, !on);
		return ret;
	}
	if (delta)
		file_flags_set(&call->file, EVENT_FILE_FL_INSTANCES, call->nr_inst_enabled > 0);
	return 0;
}

/*
 * Linux's rules: a trigger's hold (soft) keeps the probe attached; the user's 0 then only
 * soft-disables the file (records dropped, triggers still run), and when the last hold goes
 * the probe is detached only if the file is soft-disabled. The user's 1 always records.
 */
int __ftrace_event_enable_disable(struct trace_event_file *file, int enable, int soft_disable)
{
	lockdep_assert_held(&event_mutex);
	struct trace_event_call *call = file->call;
	bool disable;
	int ret = 0;

	if (!enable) {
		if (soft_disable) {
			if (file->sm_ref > 0 && --file->sm_ref > 0)
				return 0;
			disable = file->flags & EVENT_FILE_FL_SOFT_DISABLED;
			file_flags_set(file, EVENT_FILE_FL_SOFT_MODE, false);
		} else {
			disable = !(file->flags & EVENT_FILE_FL_SOFT_MODE);
		}
		if (disable && file->enabled)
			ret = event_set_enabled(file, false);
		file_flags_set(file, EVENT_FILE_FL_SOFT_DISABLED,
			       file->flags & EVENT_FILE_FL_SOFT_MODE);
		return ret;
	}
	if (!soft_disable) {
		if (call->flags & TRACE_EVENT_FL_IGNORE_ENABLE)
			return -EINVAL; /* a tracer's own record: only print's triggers hold one */
		file_flags_set(file, EVENT_FILE_FL_SOFT_DISABLED, false);
	} else {
		if (++file->sm_ref > 1)
			return 0;
		file_flags_set(file, EVENT_FILE_FL_SOFT_MODE, true);
	}
	if (!file->enabled) {
		if (soft_disable) /* held for a trigger, not yet recording */
			file_flags_set(file, EVENT_FILE_FL_SOFT_DISABLED, true);
		ret = event_set_enabled(file, true);
		if (ret && soft_disable) { /* as it was: no hold */
			file->sm_ref--;
			file_flags_set(file, EVENT_FILE_FL_SOFT_MODE | EVENT_FILE_FL_SOFT_DISABLED,
				       false);
		}
	}
	return ret;
}

int ftrace_event_enable_disable(struct trace_event_file *file, int enable)
{
	return __ftrace_event_enable_disable(file, enable, 0);
}

int trace_event_enable_disable(struct trace_event_call *call, int enable)
{
	return __ftrace_event_enable_disable(&call->file, enable, 0);
}

int trace_event_tracer_hold(const char *system, const char *name, bool hold)
{
	struct trace_event_call *call;
	int ret = -ENOENT;

	mutex_lock(&event_mutex);
	list_for_each_entry(call, &ftrace_events, list)
	{
		if (strcmp(call->system, system) || strcmp(call->name, name))
			continue;
		call->tracer_refs += hold ? 1 : -1;
		ret = trace_event_update(call);
		if (ret)
			call->tracer_refs -= hold ? 1 : -1;
		break;
	}
	mutex_unlock(&event_mutex);
	return ret;
}

/* --- a trace array's files -------------------------------------------------------------------- */

/*
 * The top level's files are the calls' own, in ftrace_events' order. An instance's are in the
 * same order: each event's file of tr is found on the event's list of instance files (one
 * file per instance on it), so an event made at run time takes its sorted place there too.
 */
static struct trace_event_file *instance_file_of(struct trace_array *tr,
						 struct trace_event_call *call)
{
	for (struct trace_event_file *f = call->inst_files; f; f = f->next)
		if (f->tr == tr)
			return f;
	return NULL;
}

struct trace_event_file *trace_event_file_next(struct trace_array *tr,
					       struct trace_event_file *file)
{
	struct list_head *next = file ? file->call->list.next : ftrace_events.next;

	for (; next != &ftrace_events; next = next->next) {
		struct trace_event_call *call = list_entry(next, struct trace_event_call, list);
		struct trace_event_file *f =
			tr == &global_trace ? &call->file : instance_file_of(tr, call);

		if (f)
			return f;
	}
	return NULL;
}

struct trace_event_file *find_event_file(struct trace_array *tr, const char *system,
					 const char *event)
{
	struct trace_event_file *file;

	for_each_event_file(tr, file)
	{
		struct trace_event_call *call = file->call;

		if (!strcmp(call->system, system) && !strcmp(call->name, event))
			return (call->flags & TRACE_EVENT_FL_IGNORE_ENABLE) ? NULL : file;
	}
	return NULL;
}

/* --- set_event's words ------------------------------------------------------------------------ */

void trace_event_parse_selector(char *word, struct trace_event_selector *sel)
{
	char *colon;

	sel->set = 1;
	if (*word == '!') {
		sel->set = 0;
		word++;
	}
	sel->match = sel->sub = sel->event = NULL;
	colon = strchr(word, ':');
	if (!colon) {
		sel->match = word;
		return;
	}
	*colon = '\0';
	sel->sub = word;
	sel->event = colon + 1;
	if (!*sel->sub || strcmp(sel->sub, "*") == 0)
		sel->sub = NULL;
	if (!*sel->event || strcmp(sel->event, "*") == 0)
		sel->event = NULL;
}

/* Linux's __ftrace_set_clr_event_nolock() test: exact names, "*" only as a whole part. */
bool trace_event_selector_matches(const struct trace_event_selector *sel,
				  const struct trace_event_call *call)
{
	if (call->flags & TRACE_EVENT_FL_IGNORE_ENABLE)
		return false; /* "ftrace:function" is no word of set_event */
	if (sel->match && strcmp(sel->match, call->name) && strcmp(sel->match, call->system))
		return false;
	if (sel->sub && strcmp(sel->sub, call->system))
		return false;
	if (sel->event && strcmp(sel->event, call->name))
		return false;
	return true;
}

bool trace_event_selector_any(const struct trace_event_selector *sel)
{
	struct trace_event_call *call;

	list_for_each_entry(call, &ftrace_events, list)
	{
		if (trace_event_selector_matches(sel, call))
			return true;
	}
	return false;
}

int __ftrace_set_clr_event(struct trace_array *tr, const struct trace_event_selector *sel)
{
	struct trace_event_file *file;
	int ret = -EINVAL, eret = 0;

	lockdep_assert_held(&event_mutex);
	for_each_event_file(tr, file)
	{
		if (!trace_event_selector_matches(sel, file->call))
			continue;
		ret = ftrace_event_enable_disable(file, sel->set);
		if (ret && !eret)
			eret = ret; /* the first error, though the others were still done */
		ret = eret;
	}
	return ret;
}

int ftrace_set_clr_event(const struct trace_event_selector *sel)
{
	return __ftrace_set_clr_event(&global_trace, sel);
}

/* --- recording -------------------------------------------------------------------------------- */

/*
 * The records of filtered events, built aside: one per CPU and level of nesting (a task's
 * event, an interrupt's that came meanwhile, an exception's in that...). Deeper than that, an
 * event with a filter is dropped. filter_record says whether the record may go into the buffer
 * at all: a trigger that needs the record gets one even while recording is off (Linux's
 * temp_buffer), to look at and drop.
 */
#define FILTER_NEST_MAX 4
#define NO_OTHER_TASK (-1) /* the event is about the current task alone */
/* What trace/define_trace.h's probes pass for it (kernel/tracepoint.h). */
_Static_assert(NO_OTHER_TASK == TRACE_NO_OTHER_PID, "one value for \"no other task\"");
static char filter_buffers[NR_CPUS][FILTER_NEST_MAX][BUF_MAX_DATA_SIZE] __aligned(8);
static int filter_nest[NR_CPUS]; /* the levels in use on each CPU */
static bool filter_record[NR_CPUS][FILTER_NEST_MAX];
/*
 * The instances' path (instances_buffer_reserve): does the top level want the record at all
 * (else only instances do, and the top level's triggers do not run), and the other task of a
 * sched event, for each instance's set_event_pid.
 */
static bool filter_top[NR_CPUS][FILTER_NEST_MAX];
static int filter_other_pid[NR_CPUS][FILTER_NEST_MAX];
/*
 * The plain filter's path (filtered_buffer_reserve: a filter, no trigger, no instance): the
 * record's header (pid, flags, preempt count) is not written at reserve. filtered_buffer_commit
 * writes it after the filter passed, or before, if the filter reads a common_* field: most
 * records a filter rejects never get one. The context is the same at commit as at reserve (the
 * probe that fills the record in between changes neither preemption nor interrupts).
 */
static bool filter_header_pending[NR_CPUS][FILTER_NEST_MAX];

static void *aside_buffer_reserve(struct trace_event_call *call, unsigned long len, bool record)
{
	int cpu = ring_buffer_cpu_id(), level;
	struct trace_entry *entry;

	if (len > BUF_MAX_DATA_SIZE)
		return NULL;
	/* An interrupt that nests here finishes before we go on: a plain count is enough. */
	level = filter_nest[cpu]++;
	if (level >= FILTER_NEST_MAX) {
		filter_nest[cpu]--;
		return NULL;
	}
	filter_record[cpu][level] = record;
	filter_top[cpu][level] = true;
	filter_other_pid[cpu][level] = NO_OTHER_TASK;
	entry = (struct trace_entry *)filter_buffers[cpu][level];
	tracing_generic_entry_update(entry, (unsigned short)call->event.type,
				     tracing_gen_ctx_dec());
	return entry;
}

static noinline void *filtered_buffer_reserve(struct trace_event_call *call, unsigned long len)
{
	int cpu, level;

	(void)call;
	/* (in this order, nothing is kept across the call: no registers to save) */
	if (len > BUF_MAX_DATA_SIZE || !ring_buffer_record_is_on(global_trace.buffer))
		return NULL;
	cpu = ring_buffer_cpu_id();
	level = filter_nest[cpu]++; /* as aside_buffer_reserve's */
	if (level >= FILTER_NEST_MAX) {
		filter_nest[cpu]--;
		return NULL;
	}
	filter_header_pending[cpu][level] = true; /* and filter_record, filter_top: see commit */
	return filter_buffers[cpu][level];
}

static __always_inline void *ring_buffer_event_reserve(struct trace_event_call *call,
						       unsigned long len)
{
	struct ring_buffer_event *event;
	struct trace_entry *entry;

	event = ring_buffer_lock_reserve(global_trace.buffer, len);
	if (!event)
		return NULL; /* tracing is off, or the buffer is full in producer/consumer mode */
	entry = ring_buffer_event_data(event);
	/* The context the tracepoint was hit in: its own preempt_disable not counted, as Linux. */
	tracing_generic_entry_update(entry, (unsigned short)call->event.type,
				     tracing_gen_ctx_dec());
	return entry;
}

/* Dropped: the event is soft-disabled, unless a tracer records it for itself. */
static bool event_soft_disabled(struct trace_event_call *call, unsigned long flags)
{
	return (flags & EVENT_FILE_FL_SOFT_DISABLED) && !READ_ONCE(call->tracer_refs);
}

/*
 * An event with triggers, or soft-disabled (Linux's trace_trigger_soft_disabled()). Triggers
 * that need nothing of the record run now, before it is reserved (a traceon's event is then
 * recorded); if one needs the record, it is built aside and they all run at commit.
 */
static noinline void *triggered_buffer_reserve(struct trace_event_call *call, unsigned long len)
{
	unsigned long flags = READ_ONCE(call->file.flags);

	if (flags & EVENT_FILE_FL_TRIGGER_COND)
		return aside_buffer_reserve(call, len,
					    ring_buffer_record_is_on(global_trace.buffer));
	if (flags & EVENT_FILE_FL_TRIGGER_MODE)
		event_triggers_call(&call->file, NULL, 0, 0);
	if (event_soft_disabled(call, flags))
		return NULL;
	if (READ_ONCE(call->file.filter))
		return filtered_buffer_reserve(call, len);
	return ring_buffer_event_reserve(call, len);
}

static noinline void *instances_buffer_reserve(struct trace_event_call *call, unsigned long len,
					       int other_pid);

static __always_inline void *event_buffer_reserve(struct trace_event_call *call, unsigned long len)
{
	lockdep_assert_preemption_disabled(); /* by the tracepoint (kernel/tracepoint.h) */

	if (!global_trace.buffer)
		return NULL;
	if (unlikely(READ_ONCE(call->file.flags) &
		     (EVENT_FILE_FL_TRIGGER_MODE | EVENT_FILE_FL_SOFT_DISABLED |
		      EVENT_FILE_FL_INSTANCES))) {
		if (READ_ONCE(call->file.flags) & EVENT_FILE_FL_INSTANCES)
			return instances_buffer_reserve(call, len, NO_OTHER_TASK);
		return triggered_buffer_reserve(call, len);
	}
	if (unlikely(READ_ONCE(call->file.filter)))
		return filtered_buffer_reserve(call, len);
	return ring_buffer_event_reserve(call, len);
}

/*
 * set_event_pid, set_event_notrace_pid (trace/trace_pid.h): the event of a task they leave out
 * is not recorded. While neither is set this costs one load: the check is out of line, reached
 * by a tail call, so the fast path saves no registers for it.
 */
static noinline void *pid_filtered_reserve(struct trace_event_call *call, unsigned long len,
					   int other_pid)
{
	if (READ_ONCE(call->file.flags) & EVENT_FILE_FL_INSTANCES)
		return instances_buffer_reserve(call, len, other_pid);
	if (trace_ignore_current(&event_pid_filter) &&
	    (other_pid == NO_OTHER_TASK || trace_ignore_this_task(&event_pid_filter, other_pid)))
		return NULL;
	return event_buffer_reserve(call, len);
}

/* Does f's set_event_pid / set_event_notrace_pid leave this event out? */
static bool event_pid_ignored(struct trace_pid_filter *f, int other_pid)
{
	return READ_ONCE(f->in_force) && trace_ignore_current(f) &&
	       (other_pid == NO_OTHER_TASK || trace_ignore_this_task(f, other_pid));
}

/*
 * The instances' path: some instance records this event. The record is built once, aside, and
 * commit copies it into each buffer that wants it: the top level's (as a filtered event's, if
 * the top level records it too and its pid lists let it), then every instance's that has the
 * event enabled, with that instance's pid lists and filter. So one event recorded into two
 * instances costs one build and two copies. The top level's triggers run only if the top
 * level has the event.
 */
static noinline void *instances_buffer_reserve(struct trace_event_call *call, unsigned long len,
					       int other_pid)
{
	bool top = READ_ONCE(call->file.enabled) || READ_ONCE(call->tracer_refs);
	unsigned long flags = READ_ONCE(call->file.flags);
	int cpu = ring_buffer_cpu_id();
	void *rec;

	if (top && event_pid_ignored(&event_pid_filter, other_pid))
		top = false;
	if (top && (flags & EVENT_FILE_FL_TRIGGER_MODE) && !(flags & EVENT_FILE_FL_TRIGGER_COND))
		event_triggers_call(&call->file, NULL, 0, 0);
	rec = aside_buffer_reserve(call, len, top && ring_buffer_record_is_on(global_trace.buffer));
	if (rec) { /* (an interrupt's event in between has come and gone: the level is ours) */
		filter_top[cpu][filter_nest[cpu] - 1] = top;
		filter_other_pid[cpu][filter_nest[cpu] - 1] = other_pid;
	}
	return rec;
}

/*
 * The record, into each instance whose file of the event is enabled and whose pid lists keep
 * it: its triggers first (those that need nothing of the record run now too: its
 * trace_event_file is only reached here), then, unless soft-disabled, the record if its filter
 * keeps it, with that instance's stack after it if its options/stacktrace says so (ip: where
 * it starts), then the triggers that run after the record (traceoff, stacktrace).
 */
static void instances_commit(struct trace_event_call *call, void *rec, unsigned long len,
			     int other_pid, unsigned long ip)
{
	for (struct trace_event_file *f = __atomic_load_n(&call->inst_files, __ATOMIC_ACQUIRE); f;
	     f = __atomic_load_n(&f->next, __ATOMIC_ACQUIRE)) {
		unsigned long flags = READ_ONCE(f->flags);
		enum event_trigger_type tt = ETT_NONE;
		struct event_filter *filter;

		if (!READ_ONCE(f->enabled) || event_pid_ignored(f->tr->event_pids, other_pid))
			continue;
		if (unlikely(flags & EVENT_FILE_FL_TRIGGER_MODE))
			tt = event_triggers_call(f, rec, (unsigned int)len, ip);
		filter = READ_ONCE(f->filter);
		if (!(flags & EVENT_FILE_FL_SOFT_DISABLED) &&
		    (!filter || filter_match_preds(filter, rec, (unsigned int)len)) &&
		    !ring_buffer_write(f->tr->buffer, len, rec) &&
		    unlikely(READ_ONCE(f->tr->trace_flags) & TRACE_ITER_STACKS))
			ftrace_trace_stacks(f->tr, ip);
		if (unlikely(tt))
			event_triggers_post_call(f, tt, ip);
	}
}

void *trace_event_buffer_reserve(struct trace_event_call *call, unsigned long len)
{
	if (unlikely(READ_ONCE(event_pid_filter.in_force)))
		return pid_filtered_reserve(call, len, NO_OTHER_TASK);
	return event_buffer_reserve(call, len);
}

void *trace_event_buffer_reserve_pid(struct trace_event_call *call, unsigned long len, int pid)
{
	if (unlikely(READ_ONCE(event_pid_filter.in_force)))
		return pid_filtered_reserve(call, len, pid);
	return event_buffer_reserve(call, len);
}

/*
 * tp_printk (boot option, or /proc/sys/kernel/tracepoint_printk): each event is also printed
 * with printk as it is recorded, for a kernel that dies before its trace can be read. One
 * iterator serves every CPU; a CPU that finds it busy (another CPU, or an interrupt that came
 * in while this CPU printed) records without printing rather than wait.
 */
unsigned long tracepoint_printk;
static struct trace_iterator tp_printk_iter; /* a page of text: too big for a stack */
static int tp_printk_busy;

static void output_printk(struct trace_event_call *call, struct trace_entry *entry,
			  unsigned long len)
{
	struct trace_iterator *iter = &tp_printk_iter;

	if (!call->event.trace || __atomic_exchange_n(&tp_printk_busy, 1, __ATOMIC_ACQUIRE))
		return;
	iter->tr = &global_trace;
	iter->ent = entry;
	iter->ent_size = (unsigned int)len;
	iter->cpu = smp_processor_id();
	trace_seq_init(&iter->seq);
	call->event.trace(iter, 0, &call->event);
	printk("%.*s", (int)iter->seq.len, iter->seq.buffer); /* no level: Linux's, the default */
	__atomic_store_n(&tp_printk_busy, 0, __ATOMIC_RELEASE);
}

/*
 * A record built aside: its triggers run if they need it, then it goes into the buffer if it
 * may (recording was on at reserve, the event is not soft-disabled, its filter keeps it), then
 * the triggers that run after it (traceoff, stacktrace: Linux's post triggers), whether it was
 * kept or not. The filter and flags read here may be newer than the ones reserve saw: the ones
 * in force now decide.
 */
static noinline void filtered_buffer_commit(struct trace_event_call *call, void *rec,
					    unsigned long len)
{
	/*
	 * Where a stack trace starts: trace_event_buffer_commit() tail-calls this, so this is the
	 * return into the probe's caller (else into trace_event_buffer_commit(): one frame more).
	 * Asking there would cost every event a frame of its own.
	 */
	unsigned long ip = (unsigned long)__builtin_return_address(0);
	int cpu = ring_buffer_cpu_id(), level = filter_nest[cpu] - 1;
	unsigned long flags = READ_ONCE(call->file.flags);
	struct event_filter *filter = READ_ONCE(call->file.filter);
	enum event_trigger_type tt = ETT_NONE;
	bool top;

	if (filter_header_pending[cpu][level]) {
		filter_header_pending[cpu][level] = false;
		/* Still the plain filter's case, and a filter that reads no common_* field? */
		if (likely(!(flags & (EVENT_FILE_FL_TRIGGER_MODE | EVENT_FILE_FL_SOFT_DISABLED |
				      EVENT_FILE_FL_INSTANCES))) &&
		    filter && !filter->needs_header) {
			if (!filter_match_preds(filter, rec, (unsigned int)len)) {
				filter_nest[cpu]--;
				return; /* rejected: the usual case of a filter, for nothing more */
			}
			filter = NULL; /* it passed */
		}
		tracing_generic_entry_update(rec, (unsigned short)call->event.type,
					     tracing_gen_ctx_dec());
		/* what aside_buffer_reserve would have said: recording was on at reserve */
		filter_record[cpu][level] = true;
		filter_top[cpu][level] = true;
		filter_other_pid[cpu][level] = NO_OTHER_TASK;
	}
	top = filter_top[cpu][level];

	if (top && (flags & EVENT_FILE_FL_TRIGGER_COND))
		tt = event_triggers_call(&call->file, rec, (unsigned int)len, ip);
	if (filter_record[cpu][level] && !event_soft_disabled(call, flags) &&
	    (!filter || filter_match_preds(filter, rec, (unsigned int)len))) {
		if (unlikely(READ_ONCE(tracepoint_printk)))
			output_printk(call, rec, len);
		ring_buffer_write(global_trace.buffer, len, rec);
		if (unlikely(READ_ONCE(global_trace.trace_flags) & TRACE_ITER_STACKS))
			ftrace_trace_stacks(&global_trace, ip);
	}
	if (flags & EVENT_FILE_FL_INSTANCES)
		instances_commit(call, rec, len, filter_other_pid[cpu][level], ip);
	if (tt)
		event_triggers_post_call(&call->file, tt, ip);
	filter_nest[cpu]--;
}

/*
 * The commit with something more to do: tp_printk, and options/stacktrace's stack after the
 * event (from the code that fired it: ip, the return into the probe's caller). Out of line, so
 * that the common commit stays a tail call.
 */
static noinline void event_commit_extras(struct trace_event_call *call, void *rec,
					 unsigned long len, unsigned long ip)
{
	if (unlikely(READ_ONCE(tracepoint_printk)))
		output_printk(call, rec, len);
	ring_buffer_unlock_commit(global_trace.buffer);
	ftrace_trace_stacks(&global_trace, ip);
}

void trace_event_buffer_commit(struct trace_event_call *call, void *rec, unsigned long len)
{
	if (unlikely((uintptr_t)rec - (uintptr_t)filter_buffers < sizeof(filter_buffers))) {
		filtered_buffer_commit(call, rec, len);
		return;
	}
	if (unlikely(READ_ONCE(tracepoint_printk) ||
		     (READ_ONCE(global_trace.trace_flags) & TRACE_ITER_STACKS))) {
		event_commit_extras(call, rec, len, (unsigned long)__builtin_return_address(0));
		return;
	}
	ring_buffer_unlock_commit(global_trace.buffer);
}

void trace_event_set_str(void *rec, uint32_t *loc, unsigned int offset, const char *str,
			 unsigned int len)
{
	memcpy((char *)rec + offset, str, len - 1);
	((char *)rec)[offset + len - 1] = '\0';
	*loc = len << DATA_LOC_LEN_SHIFT | offset;
}
