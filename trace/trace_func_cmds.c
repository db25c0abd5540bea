/*
 * The commands of set_ftrace_filter: traceon, traceoff, stacktrace, enable_event,
 * disable_event, dump and cpudump, with or without a count.
 */

/*
 * "func:traceoff" stops recording each time func is called: the trace then ends where func was
 * called, however long it takes a user to notice and "echo 0 > tracing_on". "func:traceon"
 * starts it again. "func:stacktrace" records the stack of each call: who called func.
 *
 * With a count, ":N", a command does its work at most N times per function, and only the times
 * it did something count, as Linux's README says: traceoff decrements when it turned tracing
 * off, not when it was off already; stacktrace decrements only while recording is on. The
 * decrement is a compare-and-swap from the value the command started with, so two CPUs calling
 * func at once never use up one count twice (and never fire once too often: only one of them
 * can turn tracing off).
 *
 * These run from the probe callback (trace/ftrace_probe.c), in the traced function's context,
 * with preemption off. Not traced, as all of trace/.
 */
#include "trace/ftrace_probe.h"
#include "trace/trace.h"
#include "trace/trace_dump.h"
#include "trace/trace_events.h"
#include "trace/trace_events_trigger.h"
#include "arch/x86_64/ftrace.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/mutex.h"
#include "kernel/tracepoint.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

/* --- traceon, traceoff -------------------------------------------------------------------- */

static void set_tracing(struct trace_array *tr, bool on)
{
	if (on)
		tracer_tracing_on(tr);
	else
		tracer_tracing_off(tr);
}

static void ftrace_traceon(unsigned long ip, unsigned long parent_ip, struct trace_array *tr,
			   long *count, void *data)
{
	(void)ip;
	(void)parent_ip;
	(void)data;
	(void)count;
	if (!tracer_tracing_is_on(tr))
		set_tracing(tr, true);
}

static void ftrace_traceoff(unsigned long ip, unsigned long parent_ip, struct trace_array *tr,
			    long *count, void *data)
{
	(void)ip;
	(void)parent_ip;
	(void)data;
	(void)count;
	if (tracer_tracing_is_on(tr))
		set_tracing(tr, false);
}

/* Switches tracing to on if it is not, and then uses up one count. */
static void update_traceon_count(struct trace_array *tr, long *count, bool on)
{
	long old = __atomic_load_n(count, __ATOMIC_ACQUIRE);

	if (old <= 0)
		return;
	if (on == tracer_tracing_is_on(tr))
		return; /* nothing to do: it does not count */
	set_tracing(tr, on);
	/* Lost to another CPU that did the same at the same time: one count for the two. */
	__atomic_compare_exchange_n(count, &old, old - 1, false, __ATOMIC_RELEASE,
				    __ATOMIC_RELAXED);
}

static void ftrace_traceon_count(unsigned long ip, unsigned long parent_ip, struct trace_array *tr,
				 long *count, void *data)
{
	(void)ip;
	(void)parent_ip;
	(void)data;
	update_traceon_count(tr, count, true);
}

static void ftrace_traceoff_count(unsigned long ip, unsigned long parent_ip, struct trace_array *tr,
				  long *count, void *data)
{
	(void)ip;
	(void)parent_ip;
	(void)data;
	update_traceon_count(tr, count, false);
}

/* --- stacktrace --------------------------------------------------------------------------- */

/* The stack from the function on: ftrace_caller's frame returns just past its call site. */
static void trace_probe_stack(struct trace_array *tr, unsigned long ip)
{
	__trace_stack(tr, tracing_gen_ctx_dec(), ip + MCOUNT_INSN_SIZE);
}

static void ftrace_stacktrace(unsigned long ip, unsigned long parent_ip, struct trace_array *tr,
			      long *count, void *data)
{
	(void)parent_ip;
	(void)data;
	(void)count;
	trace_probe_stack(tr, ip);
}

static void ftrace_stacktrace_count(unsigned long ip, unsigned long parent_ip,
				    struct trace_array *tr, long *count, void *data)
{
	long old;

	(void)parent_ip;
	(void)data;
	if (!tracer_tracing_is_on(tr))
		return;
	old = __atomic_load_n(count, __ATOMIC_RELAXED);
	/* Retry if another CPU took a count meanwhile: a stack per count, no more. */
	while (old != 0) {
		if (__atomic_compare_exchange_n(count, &old, old - 1, false, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED)) {
			trace_probe_stack(tr, ip);
			return;
		}
		if (!tracer_tracing_is_on(tr))
			return;
	}
}

/* --- enable_event, disable_event ---------------------------------------------------------- */

/*
 * "schedule:enable_event:sched:sched_switch[:N]" lets sched_switch record each time schedule
 * is called; disable_event stops it. As the enable_event trigger, the command holds its event
 * in soft mode (enable reads "0*": attached, records dropped until the command switches it
 * on), from when it is set until its last function loses it ("!schedule:enable_event:..."),
 * Linux's event_enable_func(). A write makes one event_probe_data, shared by the functions it
 * matched; it goes (and its hold with it) once no function has it any more.
 */
struct event_probe_data {
	struct trace_event_file *file; /* the event in the array of the set_ftrace_filter written */
	const struct ftrace_probe_ops *ops; /* whose functions have it */
	struct event_probe_data *next; /* on event_probes (trace_types_lock) */
};

static struct event_probe_data *event_probes;

static void update_event_probe(struct trace_event_file *file, bool enable)
{
	if (enable)
		__atomic_fetch_and(&file->flags, ~EVENT_FILE_FL_SOFT_DISABLED, __ATOMIC_RELEASE);
	else
		__atomic_fetch_or(&file->flags, EVENT_FILE_FL_SOFT_DISABLED, __ATOMIC_RELEASE);
}

static void event_switch(void *data, bool enable)
{
	struct event_probe_data *edata = data;

	update_event_probe(edata->file, enable);
}

/* With a count: only a switch that changes something uses one up (Linux's). */
static void event_switch_count(void *data, long *count, bool enable)
{
	struct event_probe_data *edata = data;
	long old = __atomic_load_n(count, __ATOMIC_ACQUIRE);
	bool disabled = __atomic_load_n(&edata->file->flags, __ATOMIC_RELAXED) &
			EVENT_FILE_FL_SOFT_DISABLED;

	if (!old || enable == !disabled)
		return;
	if (old != -1 && !__atomic_compare_exchange_n(count, &old, old - 1, false, __ATOMIC_RELEASE,
						      __ATOMIC_RELAXED))
		return; /* another CPU took this count: it switches */
	update_event_probe(edata->file, enable);
}

static void event_enable_probe(unsigned long ip, unsigned long parent_ip, struct trace_array *tr,
			       long *count, void *data)
{
	(void)ip, (void)parent_ip, (void)tr, (void)count;
	event_switch(data, true);
}

static void event_disable_probe(unsigned long ip, unsigned long parent_ip, struct trace_array *tr,
				long *count, void *data)
{
	(void)ip, (void)parent_ip, (void)tr, (void)count;
	event_switch(data, false);
}

static void event_enable_count_probe(unsigned long ip, unsigned long parent_ip,
				     struct trace_array *tr, long *count, void *data)
{
	(void)ip, (void)parent_ip, (void)tr;
	event_switch_count(data, count, true);
}

static void event_disable_count_probe(unsigned long ip, unsigned long parent_ip,
				      struct trace_array *tr, long *count, void *data)
{
	(void)ip, (void)parent_ip, (void)tr;
	event_switch_count(data, count, false);
}

/* Linux's event_enable_print(): "enable_event:sched:sched_switch" (then ":unlimited" etc.). */
static size_t print_event(char *buf, size_t size, const void *data, const char *cmd)
{
	const struct event_probe_data *edata = data;

	return (size_t)snprintf(buf, size, "%s:%s:%s", cmd, edata ? edata->file->call->system : "?",
				edata ? edata->file->call->name : "?");
}

static size_t enable_print_name(char *buf, size_t size, const void *data)
{
	return print_event(buf, size, data, "enable_event");
}

static size_t disable_print_name(char *buf, size_t size, const void *data)
{
	return print_event(buf, size, data, "disable_event");
}

/*
 * "system:event[:count]": Linux's event_enable_func(), step by step for its errnos. With make,
 * takes the event's soft-mode hold and returns it in *data.
 */
static int event_enable_parse(const struct ftrace_func_command *cmd, struct trace_array *tr,
			      char **param, void **data, bool make, struct ftrace_cmd_err *err)
{
	char *system = *param, *event, *rest;
	struct trace_event_file *file;
	struct event_probe_data *edata;
	int ret;

	if (!system) {
		err->type = FTRACE_CMD_ERR_NO_EVENT;
		err->where = NULL; /* the end of the command */
		return -EINVAL;
	}
	rest = system;
	system = strsep(&rest, ":");
	if (!rest) {
		err->type = FTRACE_CMD_ERR_NO_EVENT;
		err->where = system;
		return -EINVAL;
	}
	event = strsep(&rest, ":");
	*param = rest; /* the count's text, or NULL: unlimited */
	if (rest && !*rest) {
		err->type = FTRACE_CMD_ERR_BAD_COUNT; /* "...:" with no number: Linux refuses it */
		err->where = rest;
		return -EINVAL;
	}
	mutex_lock(&event_mutex);
	file = find_event_file(tr, system, event);
	if (!file) {
		mutex_unlock(&event_mutex);
		err->type = FTRACE_CMD_ERR_EVENT_NOT_FOUND;
		err->where = system;
		return -EINVAL;
	}
	if (!make) {
		mutex_unlock(&event_mutex);
		return 0;
	}
	edata = kzalloc(sizeof(*edata));
	if (!edata) {
		mutex_unlock(&event_mutex);
		return -ENOMEM;
	}
	ret = __ftrace_event_enable_disable(file, 1, 1);
	mutex_unlock(&event_mutex);
	if (ret) {
		kfree(edata);
		err->type = FTRACE_CMD_ERR_ERRNO;
		err->where = system;
		return ret;
	}
	edata->file = file;
	edata->ops = rest ? cmd->count_ops : cmd->ops;
	edata->next = event_probes;
	event_probes = edata;
	*data = edata;
	return 0;
}

/* Drops the hold and the memory; nothing uses edata any more (it is off event_probes). */
static void event_enable_free(void *data)
{
	struct event_probe_data *edata = data, **pp = &event_probes;

	while (*pp && *pp != edata)
		pp = &(*pp)->next;
	if (*pp)
		*pp = edata->next;
	/* A CPU may still be in the probe with this data: wait until none is. */
	tracepoint_synchronize_unregister();
	mutex_lock(&event_mutex);
	__ftrace_event_enable_disable(edata->file, 0, 1);
	mutex_unlock(&event_mutex);
	kfree(edata);
}

void ftrace_func_cmd_release(const struct ftrace_func_command *cmd, struct trace_array *tr,
			     const struct ftrace_probe_ops *probe_ops)
{
	struct event_probe_data *edata = event_probes, *next;

	for (; edata; edata = next) {
		next = edata->next;
		if (edata->ops == probe_ops && edata->file->tr == tr &&
		    !ftrace_probe_data_used(tr, probe_ops, edata))
			cmd->free(edata);
	}
}

void ftrace_func_cmds_release_tr(struct trace_array *tr)
{
	struct event_probe_data *edata = event_probes, *next;

	for (; edata; edata = next) {
		next = edata->next;
		if (edata->file->tr == tr)
			event_enable_free(edata);
	}
}

/* --- dump, cpudump ------------------------------------------------------------------------ */

/*
 * "func:dump" prints the whole trace buffer on the console when func is called (Linux's
 * ftrace_dump(DUMP_ALL)), "func:cpudump" only the calling CPU's (DUMP_ORIG): for when a
 * machine is about to die and no one could read the trace file. As Linux's, they fire once
 * (their count is always 1, whatever the write says), and the dump stops tracing and empties
 * what it printed. In an instance's set_ftrace_filter they dump that instance's buffer (Linux
 * 6.1 dumps the top level's whatever the file; later Linux, ftrace_dump_one(), the instance's).
 */
static bool take_count(long *count)
{
	long old = __atomic_load_n(count, __ATOMIC_ACQUIRE);

	return old > 0 && __atomic_compare_exchange_n(count, &old, old - 1, false, __ATOMIC_ACQ_REL,
						      __ATOMIC_RELAXED);
}

static void ftrace_dump_probe(unsigned long ip, unsigned long parent_ip, struct trace_array *tr,
			      long *count, void *data)
{
	(void)ip, (void)parent_ip, (void)data;
	if (take_count(count))
		ftrace_dump_one(tr, DUMP_ALL);
}

static void ftrace_cpudump_probe(unsigned long ip, unsigned long parent_ip, struct trace_array *tr,
				 long *count, void *data)
{
	(void)ip, (void)parent_ip, (void)data;
	if (take_count(count))
		ftrace_dump_one(tr, DUMP_ORIG);
}

/* --- the table ---------------------------------------------------------------------------- */

static const struct ftrace_probe_ops traceon_probe_ops = {"traceon", false, ftrace_traceon, NULL};
static const struct ftrace_probe_ops traceon_count_probe_ops = {"traceon", true,
								ftrace_traceon_count, NULL};
static const struct ftrace_probe_ops traceoff_probe_ops = {"traceoff", false, ftrace_traceoff,
							   NULL};
static const struct ftrace_probe_ops traceoff_count_probe_ops = {"traceoff", true,
								 ftrace_traceoff_count, NULL};
static const struct ftrace_probe_ops stacktrace_probe_ops = {"stacktrace", false, ftrace_stacktrace,
							     NULL};
static const struct ftrace_probe_ops stacktrace_count_probe_ops = {"stacktrace", true,
								   ftrace_stacktrace_count, NULL};

static const struct ftrace_probe_ops event_enable_probe_ops = {
	"enable_event", false, event_enable_probe, enable_print_name};
static const struct ftrace_probe_ops event_enable_count_probe_ops = {
	"enable_event", true, event_enable_count_probe, enable_print_name};
static const struct ftrace_probe_ops event_disable_probe_ops = {
	"disable_event", false, event_disable_probe, disable_print_name};
static const struct ftrace_probe_ops event_disable_count_probe_ops = {
	"disable_event", true, event_disable_count_probe, disable_print_name};
static const struct ftrace_probe_ops dump_probe_ops = {"dump", true, ftrace_dump_probe, NULL};
static const struct ftrace_probe_ops cpudump_probe_ops = {"cpudump", true, ftrace_cpudump_probe,
							  NULL};

/* In Linux's order of registration. */
static const struct ftrace_func_command ftrace_commands[] = {
	{"traceon", &traceon_probe_ops, &traceon_count_probe_ops, NULL, NULL, NULL, NULL, false},
	{"traceoff", &traceoff_probe_ops, &traceoff_count_probe_ops, NULL, NULL, NULL, NULL, false},
	{"stacktrace", &stacktrace_probe_ops, &stacktrace_count_probe_ops, NULL, NULL, NULL, NULL,
	 false},
	{"snapshot", &snapshot_probe_ops, &snapshot_count_probe_ops, /* trace_snapshot_trigger.c */
	 trace_snapshot_trigger_setup, NULL, NULL, NULL, false},
	{"enable_event", &event_enable_probe_ops, &event_enable_count_probe_ops, NULL,
	 event_enable_parse, event_enable_free, NULL, true},
	{"disable_event", &event_disable_probe_ops, &event_disable_count_probe_ops, NULL,
	 event_enable_parse, event_enable_free, NULL, false},
	{"dump", &dump_probe_ops, &dump_probe_ops, NULL, NULL, NULL, "1", false},
	{"cpudump", &cpudump_probe_ops, &cpudump_probe_ops, NULL, NULL, NULL, "1", false},
};

const struct ftrace_func_command *ftrace_find_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(ftrace_commands); i++)
		if (!strcmp(ftrace_commands[i].name, name))
			return &ftrace_commands[i];
	return NULL;
}
