/* Event triggers: the commands, adding and removing them, and running them from the probe. */

/*
 * echo 'traceoff if prev_pid == 42' > events/sched/sched_switch/trigger stops recording the
 * moment task 42 is switched out. A trigger is one of the commands below, with an optional
 * count (":N", the times it may still do its work) and an optional filter (Linux's, compiled by
 * trace/trace_events_filter.c: "if" and an expression over the event's fields).
 *
 * An event's triggers are a list, newest first, that the probe walks without a lock: a new
 * one is filled in whole and then published by one release store of the list's head; one
 * removed is unlinked the same way and freed only after tracepoint_synchronize_unregister(),
 * when no probe can still be on it. Counts are taken with a compare-and-swap, so two CPUs that
 * fire at once never use one count twice.
 *
 * A trigger runs whether the event is enabled or not: adding the first one holds the event's
 * probe attached in "soft mode" (trace_events.c, __trace_event_enable_disable), and if the user
 * had not enabled the event its records are dropped ("soft disabled": the enable file reads
 * 0*). enable_event:sys:event and disable_event:sys:event hold their target the same way and
 * switch its soft-disabled bit when they fire: the target records only between the two.
 *
 * The probe (trace_events.c) tests the event's file_flags once. Triggers that need nothing
 * of the record run before it is reserved; if any trigger has a filter, or runs after the
 * record (traceoff, stacktrace: Linux's post triggers, so the stopping event is still in the
 * trace and the stack follows it), the record is built aside and they run at commit.
 *
 * Not traced, as all of trace/: triggers run inside the scheduler and interrupt handlers.
 */
#include "trace/trace_events_trigger.h"
#include "trace/trace_error_log.h"
#include "trace/trace_events_filter.h"
#include "trace/ftrace_probe.h"
#include "trace/trace.h"
#include "kernel/tracepoint.h"
#include "kernel/sched/mutex.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/lockdep.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

struct event_command {
	const char *name;
	enum event_trigger_type trigger_type;
	bool post_trigger; /* runs after the record is committed */
	bool needs_event; /* takes sys:event: enable_event, disable_event */
	bool enable; /* enable_event (else disable_event) */
	bool needs_snapshot; /* the spare buffer must exist first */
	/* ip: where the probe called commit, for a stack trace (0 when it does not matter) */
	void (*trigger)(struct event_trigger_data *data, unsigned long ip);
};

/* --- counts --------------------------------------------------------------------------------- */

/* Takes one count: false if none is left. Unlimited never runs out. */
static bool trigger_take_count(struct event_trigger_data *data)
{
	long old = __atomic_load_n(&data->count, __ATOMIC_RELAXED);

	do {
		if (old == 0)
			return false;
		if (old == TRIGGER_COUNT_UNLIMITED)
			return true;
	} while (!__atomic_compare_exchange_n(&data->count, &old, old - 1, false, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	return true;
}

/* --- the commands ---------------------------------------------------------------------------- */

/* Only when it changes something does it count, as Linux's traceon/traceoff triggers. */
static void traceon_trigger(struct event_trigger_data *data, unsigned long ip)
{
	(void)ip;
	if (tracer_tracing_is_on(&global_trace) || !trigger_take_count(data))
		return;
	tracer_tracing_on(&global_trace);
}

static void traceoff_trigger(struct event_trigger_data *data, unsigned long ip)
{
	(void)ip;
	if (!tracer_tracing_is_on(&global_trace) || !trigger_take_count(data))
		return;
	tracer_tracing_off(&global_trace);
}

/*
 * The snapshot is the function trigger's (trace/trace_snapshot_trigger.c): recording stops
 * now, the swap follows from task context. A count goes only to a snapshot that was taken.
 */
static void snapshot_trigger(struct event_trigger_data *data, unsigned long ip)
{
	(void)ip;
	if (__atomic_load_n(&data->count, __ATOMIC_RELAXED) == 0)
		return;
	if (trace_snapshot_request(&global_trace))
		trigger_take_count(data);
}

/* The stack from the probe outwards: ip, the return into it, is where it starts. */
static void stacktrace_trigger(struct event_trigger_data *data, unsigned long ip)
{
	if (trigger_take_count(data))
		__trace_stack(&global_trace, tracing_gen_ctx_dec(), ip);
}

/* Switches the target's records on or off; with a count, only when that changes something. */
static void event_enable_trigger(struct event_trigger_data *data, unsigned long ip)
{
	struct trace_event_call *target = data->target;
	bool enable = data->cmd->enable;
	bool disabled = __atomic_load_n(&target->file_flags, __ATOMIC_RELAXED) &
			EVENT_FILE_FL_SOFT_DISABLED;

	(void)ip;
	if (data->count != TRIGGER_COUNT_UNLIMITED && enable == !disabled)
		return;
	if (!trigger_take_count(data))
		return;
	if (enable)
		__atomic_fetch_and(&target->file_flags, ~EVENT_FILE_FL_SOFT_DISABLED,
				   __ATOMIC_RELEASE);
	else
		__atomic_fetch_or(&target->file_flags, EVENT_FILE_FL_SOFT_DISABLED,
				  __ATOMIC_RELEASE);
}

/* In Linux's order of registration: the trigger file's header lists them so. */
static const struct event_command event_commands[] = {
	{"traceon", ETT_TRACE_ONOFF, false, false, false, false, traceon_trigger},
	{"traceoff", ETT_TRACE_ONOFF, true, false, false, false, traceoff_trigger},
	{"snapshot", ETT_SNAPSHOT, false, false, false, true, snapshot_trigger},
	{"stacktrace", ETT_STACKTRACE, true, false, false, false, stacktrace_trigger},
	{"enable_event", ETT_EVENT_ENABLE, false, true, true, false, event_enable_trigger},
	{"disable_event", ETT_EVENT_ENABLE, false, true, false, false, event_enable_trigger},
};

/* The eprobes' (kernel users'), never named in a trigger file. */
static const struct event_command eprobe_command = {"eprobe", ETT_EPROBE, false, false,
						    false, false, NULL};

static const struct event_command *find_event_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(event_commands); i++)
		if (!strcmp(event_commands[i].name, name))
			return &event_commands[i];
	return NULL;
}

void event_trigger_available(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(event_commands) && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "",
					event_commands[i].name);
}

/* --- running them (from the probe) --------------------------------------------------------- */

static struct event_trigger_data *next_trigger(struct event_trigger_data *const *link)
{
	return __atomic_load_n(link, __ATOMIC_ACQUIRE);
}

enum event_trigger_type event_triggers_call(struct trace_event_call *call, void *rec,
					    unsigned int len)
{
	enum event_trigger_type tt = ETT_NONE;

	for (struct event_trigger_data *data = next_trigger(&call->triggers); data;
	     data = next_trigger(&data->next)) {
		if (data->rec_func) { /* an eprobe: always needs the record */
			if (rec)
				data->rec_func(data, rec, len);
			continue;
		}
		if (!rec) {
			data->cmd->trigger(data, 0);
			continue;
		}
		if (data->filter && !filter_match_preds(data->filter, rec, len))
			continue;
		if (data->cmd->post_trigger) {
			tt |= data->cmd->trigger_type;
			continue;
		}
		data->cmd->trigger(data, 0);
	}
	return tt;
}

void event_triggers_post_call(struct trace_event_call *call, enum event_trigger_type tt,
			      unsigned long ip)
{
	for (struct event_trigger_data *data = next_trigger(&call->triggers); data;
	     data = next_trigger(&data->next))
		if (data->cmd->trigger_type & tt)
			data->cmd->trigger(data, ip);
}

/* --- adding and removing (event_mutex held) -------------------------------------------------- */

static void set_file_flags(struct trace_event_call *call, unsigned long mask, bool on)
{
	if (on)
		__atomic_fetch_or(&call->file_flags, mask, __ATOMIC_RELEASE);
	else
		__atomic_fetch_and(&call->file_flags, ~mask, __ATOMIC_RELEASE);
}

static bool trigger_needs_rec(const struct event_trigger_data *data)
{
	return data->filter || data->cmd->post_trigger || data->rec_func;
}

/* TRIGGER_COND: set if any trigger of the event needs the record (Linux's update_cond_flag). */
static void update_cond_flag(struct trace_event_call *call)
{
	bool cond = false;

	for (struct event_trigger_data *data = call->triggers; data; data = data->next)
		cond |= trigger_needs_rec(data);
	set_file_flags(call, EVENT_FILE_FL_TRIGGER_COND, cond);
}

/* The event's own triggers hold its probe in soft mode (Linux's TRIGGER_MODE and tm_ref). */
static int trace_event_trigger_enable_disable(struct trace_event_call *call, bool on)
{
	int ret;

	if (on) {
		if (call->tm_ref++ > 0)
			return 0;
		set_file_flags(call, EVENT_FILE_FL_TRIGGER_MODE, true);
		ret = __trace_event_enable_disable(call, 1, 1);
		if (ret) {
			call->tm_ref--;
			set_file_flags(call, EVENT_FILE_FL_TRIGGER_MODE, false);
		}
		return ret;
	}
	if (--call->tm_ref > 0)
		return 0;
	set_file_flags(call, EVENT_FILE_FL_TRIGGER_MODE, false);
	return __trace_event_enable_disable(call, 0, 1);
}

/* The trigger of data's kind (and target) that call has, or NULL; *link: where it hangs. */
static struct event_trigger_data *find_trigger(struct trace_event_call *call,
					       const struct event_trigger_data *data,
					       struct event_trigger_data ***link)
{
	struct event_trigger_data **p;

	for (p = &call->triggers; *p; p = &(*p)->next) {
		if ((*p)->cmd->trigger_type == data->cmd->trigger_type &&
		    (*p)->target == data->target && (*p)->private_data == data->private_data) {
			if (link)
				*link = p;
			return *p;
		}
	}
	return NULL;
}

static void free_trigger_data(struct event_trigger_data *data)
{
	if (!data)
		return;
	free_event_filter(data->filter);
	kfree(data->filter_str);
	kfree(data);
}

/*
 * Publishes data on call: the flag that says the record is needed first, so a probe that
 * finds the new trigger finds it too; then the trigger, whole; then the probe's hold.
 */
static int register_trigger(struct trace_event_call *call, struct event_trigger_data *data)
{
	int ret;

	if (find_trigger(call, data, NULL))
		return -EEXIST;
	if (trigger_needs_rec(data))
		set_file_flags(call, EVENT_FILE_FL_TRIGGER_COND, true);
	data->next = call->triggers;
	__atomic_store_n(&call->triggers, data, __ATOMIC_RELEASE);
	ret = trace_event_trigger_enable_disable(call, true);
	if (ret) {
		__atomic_store_n(&call->triggers, data->next, __ATOMIC_RELEASE);
		update_cond_flag(call);
		tracepoint_synchronize_unregister(); /* data is the caller's to free */
	}
	return ret;
}

/* Removes call's trigger of test's kind; removing one that is not there is no error. */
static void unregister_trigger(struct trace_event_call *call, const struct event_trigger_data *test)
{
	struct event_trigger_data **link, *data = find_trigger(call, test, &link);

	if (!data)
		return;
	__atomic_store_n(link, data->next, __ATOMIC_RELEASE);
	update_cond_flag(call);
	trace_event_trigger_enable_disable(call, false);
	tracepoint_synchronize_unregister(); /* no probe is still running it */
	if (data->target)
		__trace_event_enable_disable(data->target, 0, 1); /* its hold on the target */
	free_trigger_data(data);
}

int event_trigger_attach(struct trace_event_call *call, struct event_trigger_data *data)
{
	lockdep_assert_held(&event_mutex);
	data->cmd = &eprobe_command;
	data->count = TRIGGER_COUNT_UNLIMITED;
	return register_trigger(call, data);
}

void event_trigger_detach(struct trace_event_call *call, struct event_trigger_data *data)
{
	struct event_trigger_data **link = NULL;

	lockdep_assert_held(&event_mutex);
	if (find_trigger(call, data, &link) != data || !link)
		return;
	__atomic_store_n(link, data->next, __ATOMIC_RELEASE);
	update_cond_flag(call);
	trace_event_trigger_enable_disable(call, false);
	tracepoint_synchronize_unregister(); /* no probe is still running it */
}

/* A target for enable_event: an event that can be enabled (not events/ftrace/). */
struct trace_event_call *find_event_call(const char *system, const char *event)
{
	struct trace_event_call *call;

	list_for_each_entry(call, &ftrace_events, list)
	{
		if (!strcmp(call->system, system) && !strcmp(call->name, event))
			return (call->flags & TRACE_EVENT_FL_IGNORE_ENABLE) ? NULL : call;
	}
	return NULL;
}

/* "if EXPR" compiled for call's fields (the triggering event's, as Linux). */
static int trigger_set_filter(struct trace_event_call *call, struct event_trigger_spec *spec,
			      struct event_trigger_data *data, bool *no_if)
{
	struct event_filter *filter;
	char *expr;
	int ret;

	expr = event_trigger_filter_expr(spec, &ret);
	*no_if = ret != 0;
	if (!expr)
		return ret;
	ret = create_event_filter(call, expr, false, &filter);
	if (ret) {
		free_event_filter(filter); /* the report goes nowhere: Linux's trigger drops it */
		return ret;
	}
	data->filter = filter;
	data->filter_str = kstrdup(expr);
	return data->filter_str ? 0 : -ENOMEM;
}

/*
 * error_log's sentences for a trigger refused (Linux 6.1 logs only the hist trigger's and the
 * filter's; the others are said here the same way, under "trigger:SYSTEM:EVENT", as hist's
 * "hist:SYSTEM:EVENT"). A filter's own errors are logged by the filter's parser.
 */
enum {
	TRIG_ERR_NO_CMD,
	TRIG_ERR_NO_EVENT,
	TRIG_ERR_EVENT_NOT_FOUND,
	TRIG_ERR_BAD_COUNT,
	TRIG_ERR_NO_IF,
	TRIG_ERR_EXISTS,
	TRIG_ERR_ERRNO,
};
static const char *const trigger_err_text[] = {
	"Command not found",
	"Missing system:event",
	"Event not found",
	"Invalid count",
	"Expecting 'if' before the filter",
	"Trigger already exists",
	"Error",
};

/* Logs why text (the write, as given) was refused, the caret at where (a pointer into buf). */
static void trigger_log_err(struct trace_event_call *call, const char *text, const char *buf,
			    const char *where, unsigned int type)
{
	char loc[TRACING_LOG_LOC_MAX];
	char *cmd = kstrdup(text);
	unsigned int pos = where ? (unsigned int)(where - buf) : 0;

	if (!cmd)
		return;
	strim(cmd); /* the newline echo adds: the column stays (only the end is cut) */
	if (pos > strlen(cmd))
		pos = (unsigned int)strlen(cmd);
	snprintf(loc, sizeof(loc), "trigger:%s:%s", call->system, call->name);
	tracing_log_err(NULL, loc, cmd, trigger_err_text, type, pos);
	kfree(cmd);
}

/*
 * Linux's event_trigger_parse() and event_enable_trigger_parse(), one step after the other
 * so that each bad write gets Linux's errno. apply false: only checks (nothing changes).
 * text is the write as given: buf is cut in place, so error_log's line is made from text.
 */
static int trigger_process(struct trace_event_call *call, char *buf, const char *text, bool apply)
{
	lockdep_assert_held(&event_mutex);
	struct event_trigger_spec spec;
	struct event_trigger_data *data;
	char *param_and_filter = event_trigger_split(buf, &spec);
	const struct event_command *cmd = find_event_command(spec.cmd);
	int ret;

	if (!cmd) {
		trigger_log_err(call, text, buf, spec.cmd, TRIG_ERR_NO_CMD);
		return -EINVAL;
	}
	ret = event_trigger_split_param(&spec, param_and_filter, cmd->needs_event);
	if (ret) {
		trigger_log_err(call, text, buf,
				param_and_filter ? param_and_filter : buf + strlen(text),
				TRIG_ERR_NO_EVENT);
		return ret;
	}
	data = kzalloc(sizeof(*data));
	if (!data)
		return -ENOMEM;
	data->cmd = cmd;
	if (cmd->needs_event) {
		data->target = find_event_call(spec.system, spec.event);
		if (!data->target) {
			trigger_log_err(call, text, buf, spec.system, TRIG_ERR_EVENT_NOT_FOUND);
			kfree(data);
			return -EINVAL;
		}
	}
	if (spec.remove) {
		if (apply)
			unregister_trigger(call, data);
		kfree(data);
		return 0;
	}
	ret = event_trigger_parse_num(&spec, &data->count);
	if (ret) {
		trigger_log_err(call, text, buf, spec.num, TRIG_ERR_BAD_COUNT);
	} else {
		bool no_if;
		char *filter = spec.filter;

		ret = trigger_set_filter(call, &spec, data, &no_if);
		if (no_if)
			trigger_log_err(call, text, buf, filter, TRIG_ERR_NO_IF);
	}
	if (ret || !apply) {
		if (!ret && find_trigger(call, data, NULL)) {
			ret = -EEXIST;
			trigger_log_err(call, text, buf, spec.cmd, TRIG_ERR_EXISTS);
		}
		free_trigger_data(data);
		return ret;
	}
	if (data->target) {
		ret = __trace_event_enable_disable(data->target, 1, 1);
		if (ret) {
			trigger_log_err(call, text, buf, spec.cmd, TRIG_ERR_ERRNO);
			free_trigger_data(data);
			return ret;
		}
	}
	ret = register_trigger(call, data);
	if (ret) {
		trigger_log_err(call, text, buf, spec.cmd,
				ret == -EEXIST ? TRIG_ERR_EXISTS : TRIG_ERR_ERRNO);
		if (data->target)
			__trace_event_enable_disable(data->target, 0, 1);
		free_trigger_data(data);
	}
	return ret;
}

/* buf is cut as it is read: error_log's line needs the write as it came. */
static int trigger_process_copy(struct trace_event_call *call, char *buf, bool apply)
{
	char *text = kstrdup(buf);
	int ret;

	if (!text)
		return -ENOMEM;
	ret = trigger_process(call, buf, text, apply);
	kfree(text);
	return ret;
}

int trigger_process_regex(struct trace_event_call *call, char *buf)
{
	return trigger_process_copy(call, buf, true);
}

int trigger_check_regex(struct trace_event_call *call, char *buf)
{
	return trigger_process_copy(call, buf, false);
}

bool trigger_needs_snapshot(const char *buf)
{
	struct event_trigger_spec spec;
	char *copy = kstrdup(buf);
	const struct event_command *cmd;
	bool ret;

	if (!copy)
		return false;
	event_trigger_split(copy, &spec);
	cmd = find_event_command(spec.cmd);
	ret = cmd && cmd->needs_snapshot && !spec.remove;
	kfree(copy);
	return ret;
}

int event_trigger_show(struct trace_event_call *call, int k, char *buf, size_t size)
{
	lockdep_assert_held(&event_mutex);
	struct event_trigger_data *data = call->triggers;

	/* a kernel user's trigger (an eprobe's) is not in the file, as in Linux */
	while (data && data->rec_func)
		data = data->next;
	while (data && k-- > 0) {
		data = data->next;
		while (data && data->rec_func)
			data = data->next;
	}
	if (!data)
		return -1;
	return event_trigger_format(
		buf, size, data->cmd->name, data->target ? data->target->system : NULL,
		data->target ? data->target->name : NULL, data->count, data->filter_str);
}
