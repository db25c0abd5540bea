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
 * probe attached in "soft mode" (trace_events.c, __ftrace_event_enable_disable), and if the
 * user had not enabled the event its records are dropped ("soft disabled": the enable file
 * reads 0*). enable_event:sys:event and disable_event:sys:event hold their target the same way
 * and switch its soft-disabled bit when they fire: the target records only between the two.
 *
 * Triggers belong to a trace_event_file, as Linux's: the top level's (call->file) or an
 * instance's, and act on that file's array (its tracing_on, its buffer, its snapshot, its file
 * of the enable_event target). The probe (trace_events.c) tests the top level's flags once; an
 * instance's triggers run on the instances' path, at commit. Triggers that need nothing
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
#include "kernel/locking/mutex.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/lockdep.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

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
	struct trace_array *tr = data->file->tr;

	(void)ip;
	if (tracer_tracing_is_on(tr) || !trigger_take_count(data))
		return;
	tracer_tracing_on(tr);
}

static void traceoff_trigger(struct event_trigger_data *data, unsigned long ip)
{
	struct trace_array *tr = data->file->tr;

	(void)ip;
	if (!tracer_tracing_is_on(tr) || !trigger_take_count(data))
		return;
	tracer_tracing_off(tr);
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
	if (trace_snapshot_request(data->file->tr))
		trigger_take_count(data);
}

/* The stack from the probe outwards: ip, the return into it, is where it starts. */
static void stacktrace_trigger(struct event_trigger_data *data, unsigned long ip)
{
	if (trigger_take_count(data))
		__trace_stack(data->file->tr, tracing_gen_ctx_dec(), ip);
}

/* Switches the target's records on or off; with a count, only when that changes something. */
static void event_enable_trigger(struct event_trigger_data *data, unsigned long ip)
{
	struct trace_event_file *target = data->target;
	bool enable = data->cmd->enable;
	bool disabled =
		__atomic_load_n(&target->flags, __ATOMIC_RELAXED) & EVENT_FILE_FL_SOFT_DISABLED;

	(void)ip;
	if (data->count != TRIGGER_COUNT_UNLIMITED && enable == !disabled)
		return;
	if (!trigger_take_count(data))
		return;
	if (enable)
		__atomic_fetch_and(&target->flags, ~EVENT_FILE_FL_SOFT_DISABLED, __ATOMIC_RELEASE);
	else
		__atomic_fetch_or(&target->flags, EVENT_FILE_FL_SOFT_DISABLED, __ATOMIC_RELEASE);
}

/*
 * enable_hist:sys:event and disable_hist: pause or continue every hist trigger of the target
 * event (Linux's hist_enable_trigger). Each time it runs (a count counts every run).
 */
static void hist_enable_trigger(struct event_trigger_data *data, unsigned long ip)
{
	(void)ip;
	if (!trigger_take_count(data))
		return;
	for (struct event_trigger_data *t =
		     __atomic_load_n(&data->target->triggers, __ATOMIC_ACQUIRE);
	     t; t = __atomic_load_n(&t->next, __ATOMIC_ACQUIRE))
		if (t->cmd->trigger_type == ETT_EVENT_HIST)
			__atomic_store_n(&t->paused, !data->cmd->enable, __ATOMIC_RELAXED);
}

static const struct event_command traceon_cmd = {
	.name = "traceon", .trigger_type = ETT_TRACE_ONOFF, .trigger = traceon_trigger};
static const struct event_command traceoff_cmd = {.name = "traceoff",
						  .trigger_type = ETT_TRACE_ONOFF,
						  .post_trigger = true,
						  .trigger = traceoff_trigger};
static const struct event_command snapshot_cmd = {.name = "snapshot",
						  .trigger_type = ETT_SNAPSHOT,
						  .needs_snapshot = true,
						  .trigger = snapshot_trigger};
static const struct event_command stacktrace_cmd = {.name = "stacktrace",
						    .trigger_type = ETT_STACKTRACE,
						    .post_trigger = true,
						    .trigger = stacktrace_trigger};
static const struct event_command enable_event_cmd = {.name = "enable_event",
						      .trigger_type = ETT_EVENT_ENABLE,
						      .needs_event = true,
						      .enable = true,
						      .trigger = event_enable_trigger};
static const struct event_command disable_event_cmd = {.name = "disable_event",
						       .trigger_type = ETT_EVENT_ENABLE,
						       .needs_event = true,
						       .trigger = event_enable_trigger};
static const struct event_command enable_hist_cmd = {.name = "enable_hist",
						     .trigger_type = ETT_HIST_ENABLE,
						     .needs_event = true,
						     .enable = true,
						     .trigger = hist_enable_trigger};
static const struct event_command disable_hist_cmd = {.name = "disable_hist",
						      .trigger_type = ETT_HIST_ENABLE,
						      .needs_event = true,
						      .trigger = hist_enable_trigger};

/*
 * In Linux's order of registration: the trigger file's header lists them so. hist is NULL in
 * a host test that links no trace/trace_events_hist.c (its weak declaration).
 */
static const struct event_command *const event_commands[] = {
	&traceon_cmd,	  &traceoff_cmd,     &snapshot_cmd,
	&stacktrace_cmd,  &enable_event_cmd, &disable_event_cmd,
	&enable_hist_cmd, &disable_hist_cmd, &trigger_hist_cmd,
};

/* The eprobes' (kernel users'), never named in a trigger file. */
static const struct event_command eprobe_command = {.name = "eprobe", .trigger_type = ETT_EPROBE};

static const struct event_command *find_event_command(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(event_commands); i++)
		if (event_commands[i] && !strcmp(event_commands[i]->name, name))
			return event_commands[i];
	return NULL;
}

void event_trigger_available(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(event_commands) && len < size; i++)
		if (event_commands[i])
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " " : "",
						event_commands[i]->name);
}

/* --- running them (from the probe) --------------------------------------------------------- */

static struct event_trigger_data *next_trigger(struct event_trigger_data *const *link)
{
	return __atomic_load_n(link, __ATOMIC_ACQUIRE);
}

enum event_trigger_type event_triggers_call(struct trace_event_file *file, void *rec,
					    unsigned int len, unsigned long ip)
{
	enum event_trigger_type tt = ETT_NONE;

	for (struct event_trigger_data *data = next_trigger(&file->triggers); data;
	     data = next_trigger(&data->next)) {
		if (data->rec_func) { /* an eprobe: always needs the record */
			if (rec)
				data->rec_func(data, rec, len);
			continue;
		}
		if (__atomic_load_n(&data->paused, __ATOMIC_RELAXED))
			continue;
		if (!rec) {
			if (data->cmd->trigger)
				data->cmd->trigger(data, 0);
			continue;
		}
		if (data->filter && !filter_match_preds(data->filter, rec, len))
			continue;
		if (data->cmd->rec_trigger) {
			data->cmd->rec_trigger(data, rec, len, ip);
			continue;
		}
		if (data->cmd->post_trigger) {
			tt |= data->cmd->trigger_type;
			continue;
		}
		data->cmd->trigger(data, 0);
	}
	return tt;
}

void event_triggers_post_call(struct trace_event_file *file, enum event_trigger_type tt,
			      unsigned long ip)
{
	for (struct event_trigger_data *data = next_trigger(&file->triggers); data;
	     data = next_trigger(&data->next))
		if (data->cmd->trigger_type & tt)
			data->cmd->trigger(data, ip);
}

/* --- adding and removing (event_mutex held) -------------------------------------------------- */

static void set_file_flags(struct trace_event_file *file, unsigned long mask, bool on)
{
	if (on)
		__atomic_fetch_or(&file->flags, mask, __ATOMIC_RELEASE);
	else
		__atomic_fetch_and(&file->flags, ~mask, __ATOMIC_RELEASE);
}

static bool trigger_needs_rec(const struct event_trigger_data *data)
{
	return data->filter || data->cmd->post_trigger || data->cmd->needs_rec || data->rec_func;
}

/* TRIGGER_COND: set if any trigger of the event needs the record (Linux's update_cond_flag). */
static void update_cond_flag(struct trace_event_file *file)
{
	bool cond = false;

	for (struct event_trigger_data *data = file->triggers; data; data = data->next)
		cond |= trigger_needs_rec(data);
	set_file_flags(file, EVENT_FILE_FL_TRIGGER_COND, cond);
}

/* The event's own triggers hold its probe in soft mode (Linux's TRIGGER_MODE and tm_ref). */
static int trace_event_trigger_enable_disable(struct trace_event_file *file, bool on)
{
	int ret;

	if (on) {
		if (file->tm_ref++ > 0)
			return 0;
		set_file_flags(file, EVENT_FILE_FL_TRIGGER_MODE, true);
		ret = __ftrace_event_enable_disable(file, 1, 1);
		if (ret) {
			file->tm_ref--;
			set_file_flags(file, EVENT_FILE_FL_TRIGGER_MODE, false);
		}
		return ret;
	}
	if (--file->tm_ref > 0)
		return 0;
	set_file_flags(file, EVENT_FILE_FL_TRIGGER_MODE, false);
	return __ftrace_event_enable_disable(file, 0, 1);
}

/* The trigger of data's kind (and target) that file has, or NULL; *link: where it hangs. */
static struct event_trigger_data *find_trigger(struct trace_event_file *file,
					       const struct event_trigger_data *data,
					       struct event_trigger_data ***link)
{
	struct event_trigger_data **p;

	for (p = &file->triggers; *p; p = &(*p)->next) {
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
	if (data->cmd && data->cmd->free) {
		data->cmd->free(data);
		return;
	}
	free_event_filter(data->filter);
	kfree(data->filter_str);
	kfree(data);
}

/*
 * Publishes data on call: the flag that says the record is needed first, so a probe that
 * finds the new trigger finds it too; then the trigger, whole; then the probe's hold.
 */
static int __register_trigger(struct trace_event_file *file, struct event_trigger_data *data,
			      bool tail)
{
	struct event_trigger_data **link = &file->triggers;
	int ret;

	if (trigger_needs_rec(data))
		set_file_flags(file, EVENT_FILE_FL_TRIGGER_COND, true);
	while (tail && *link)
		link = &(*link)->next;
	data->next = *link;
	__atomic_store_n(link, data, __ATOMIC_RELEASE);
	ret = trace_event_trigger_enable_disable(file, true);
	if (ret) {
		__atomic_store_n(link, data->next, __ATOMIC_RELEASE);
		update_cond_flag(file);
		tracepoint_synchronize_unregister(); /* data is the caller's to free */
	}
	return ret;
}

static int register_trigger(struct trace_event_file *file, struct event_trigger_data *data)
{
	if (find_trigger(file, data, NULL))
		return -EEXIST;
	return __register_trigger(file, data, false);
}

int event_trigger_add(struct trace_event_file *file, struct event_trigger_data *data, bool tail)
{
	lockdep_assert_held(&event_mutex);
	return __register_trigger(file, data, tail);
}

void event_trigger_remove(struct trace_event_file *file, struct event_trigger_data *data)
{
	struct event_trigger_data **link;

	lockdep_assert_held(&event_mutex);
	for (link = &file->triggers; *link && *link != data; link = &(*link)->next)
		;
	if (!*link)
		return;
	__atomic_store_n(link, data->next, __ATOMIC_RELEASE);
	update_cond_flag(file);
	trace_event_trigger_enable_disable(file, false);
	tracepoint_synchronize_unregister(); /* no probe is still running it */
}

/* Removes file's trigger of test's kind; removing one that is not there is no error. */
static void unregister_trigger(struct trace_event_file *file, const struct event_trigger_data *test)
{
	struct event_trigger_data **link, *data = find_trigger(file, test, &link);

	if (!data)
		return;
	__atomic_store_n(link, data->next, __ATOMIC_RELEASE);
	update_cond_flag(file);
	trace_event_trigger_enable_disable(file, false);
	tracepoint_synchronize_unregister(); /* no probe is still running it */
	if (data->target)
		__ftrace_event_enable_disable(data->target, 0, 1); /* its hold on the target */
	free_trigger_data(data);
}

int event_trigger_attach(struct trace_event_call *call, struct event_trigger_data *data)
{
	lockdep_assert_held(&event_mutex);
	data->cmd = &eprobe_command;
	data->count = TRIGGER_COUNT_UNLIMITED;
	return register_trigger(&call->file, data);
}

void event_trigger_detach(struct trace_event_call *call, struct event_trigger_data *data)
{
	struct event_trigger_data **link = NULL;

	lockdep_assert_held(&event_mutex);
	if (find_trigger(&call->file, data, &link) != data || !link)
		return;
	__atomic_store_n(link, data->next, __ATOMIC_RELEASE);
	update_cond_flag(&call->file);
	trace_event_trigger_enable_disable(&call->file, false);
	tracepoint_synchronize_unregister(); /* no probe is still running it */
}

/*
 * Every trigger of file gone (rmdir of its instance): unlinked, then one wait until no probe
 * runs them, then the holds they had dropped and the memory freed. event_mutex held.
 */
void event_triggers_clear(struct trace_event_file *file)
{
	lockdep_assert_held(&event_mutex);
	struct event_trigger_data *data = file->triggers, *next;

	if (!data)
		return;
	__atomic_store_n(&file->triggers, NULL, __ATOMIC_RELEASE);
	set_file_flags(file, EVENT_FILE_FL_TRIGGER_COND, false);
	tracepoint_synchronize_unregister();
	for (; data; data = next) {
		next = data->next;
		trace_event_trigger_enable_disable(file, false);
		if (data->target)
			__ftrace_event_enable_disable(data->target, 0, 1);
		free_trigger_data(data);
	}
}

void event_triggers_truncate(struct trace_event_file *file)
{
	lockdep_assert_held(&event_mutex);
	for (size_t i = 0; i < ARRAY_SIZE(event_commands); i++)
		if (event_commands[i] && event_commands[i]->unreg_all)
			event_commands[i]->unreg_all(file);
}

/* "if EXPR" compiled for the event's fields (the triggering event's, as Linux). */
static int trigger_set_filter(struct trace_event_file *file, struct event_trigger_spec *spec,
			      struct event_trigger_data *data, bool *no_if)
{
	struct event_filter *filter;
	char *expr;
	int ret;

	expr = event_trigger_filter_expr(spec, &ret);
	*no_if = ret != 0;
	if (!expr)
		return ret;
	ret = create_event_filter(file->call, expr, false, &filter);
	if (ret) {
		free_event_filter(filter); /* the report goes nowhere: Linux's trigger drops it */
		return ret;
	}
	data->filter = filter;
	data->filter_str = kstrdup(expr);
	return data->filter_str ? 0 : -ENOMEM;
}

int trigger_filter_set(struct trace_event_file *file, const char *expr,
		       struct event_trigger_data *data)
{
	struct event_filter *filter;
	int ret = create_event_filter(file->call, expr, false, &filter);

	if (ret) {
		free_event_filter(filter);
		return ret;
	}
	data->filter = filter;
	data->filter_str = kstrdup(expr);
	return data->filter_str ? 0 : -ENOMEM;
}

void trigger_filter_free(struct event_trigger_data *data)
{
	free_event_filter(data->filter);
	kfree(data->filter_str);
	data->filter = NULL;
	data->filter_str = NULL;
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
static void trigger_log_err(struct trace_event_file *file, const char *text, const char *buf,
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
	snprintf(loc, sizeof(loc), "trigger:%s:%s", file->call->system, file->call->name);
	tracing_log_err(file->tr, loc, cmd, trigger_err_text, type, pos);
	kfree(cmd);
}

/*
 * Linux's event_trigger_parse() and event_enable_trigger_parse(), one step after the other
 * so that each bad write gets Linux's errno. apply false: only checks (nothing changes).
 * text is the write as given: buf is cut in place, so error_log's line is made from text.
 */
static int trigger_process(struct trace_event_file *file, char *buf, const char *text, bool apply)
{
	lockdep_assert_held(&event_mutex);
	struct event_trigger_spec spec;
	struct event_trigger_data *data;
	char *param_and_filter = event_trigger_split(buf, &spec);
	const struct event_command *cmd = find_event_command(spec.cmd);
	int ret;

	if (!cmd) {
		trigger_log_err(file, text, buf, spec.cmd, TRIG_ERR_NO_CMD);
		return -EINVAL;
	}
	if (cmd->parse)
		return cmd->parse(cmd, file, param_and_filter, spec.remove, apply);
	ret = event_trigger_split_param(&spec, param_and_filter, cmd->needs_event);
	if (ret) {
		trigger_log_err(file, text, buf,
				param_and_filter ? param_and_filter : buf + strlen(text),
				TRIG_ERR_NO_EVENT);
		return ret;
	}
	data = kzalloc(sizeof(*data));
	if (!data)
		return -ENOMEM;
	data->cmd = cmd;
	data->file = file;
	if (cmd->needs_event) {
		data->target = find_event_file(file->tr, spec.system, spec.event);
		if (!data->target) {
			trigger_log_err(file, text, buf, spec.system, TRIG_ERR_EVENT_NOT_FOUND);
			kfree(data);
			return -EINVAL;
		}
	}
	if (spec.remove) {
		if (apply)
			unregister_trigger(file, data);
		kfree(data);
		return 0;
	}
	ret = event_trigger_parse_num(&spec, &data->count);
	if (ret) {
		trigger_log_err(file, text, buf, spec.num, TRIG_ERR_BAD_COUNT);
	} else {
		bool no_if;
		char *filter = spec.filter;

		ret = trigger_set_filter(file, &spec, data, &no_if);
		if (no_if)
			trigger_log_err(file, text, buf, filter, TRIG_ERR_NO_IF);
	}
	if (ret || !apply) {
		if (!ret && find_trigger(file, data, NULL)) {
			ret = -EEXIST;
			trigger_log_err(file, text, buf, spec.cmd, TRIG_ERR_EXISTS);
		}
		free_trigger_data(data);
		return ret;
	}
	if (data->target) {
		ret = __ftrace_event_enable_disable(data->target, 1, 1);
		if (ret) {
			trigger_log_err(file, text, buf, spec.cmd, TRIG_ERR_ERRNO);
			free_trigger_data(data);
			return ret;
		}
	}
	ret = register_trigger(file, data);
	if (ret) {
		trigger_log_err(file, text, buf, spec.cmd,
				ret == -EEXIST ? TRIG_ERR_EXISTS : TRIG_ERR_ERRNO);
		if (data->target)
			__ftrace_event_enable_disable(data->target, 0, 1);
		free_trigger_data(data);
	}
	return ret;
}

/* buf is cut as it is read: error_log's line needs the write as it came. */
static int trigger_process_copy(struct trace_event_file *file, char *buf, bool apply)
{
	char *text = kstrdup(buf);
	int ret;

	if (!text)
		return -ENOMEM;
	ret = trigger_process(file, buf, text, apply);
	kfree(text);
	return ret;
}

int trigger_process_regex(struct trace_event_file *file, char *buf)
{
	return trigger_process_copy(file, buf, true);
}

int trigger_check_regex(struct trace_event_file *file, char *buf)
{
	return trigger_process_copy(file, buf, false);
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
	/* a histogram's onmax(...).snapshot() needs it as the snapshot trigger does */
	ret = cmd && !spec.remove &&
	      (cmd->needs_snapshot ||
	       (cmd->trigger_type == ETT_EVENT_HIST && strstr(buf, ".snapshot(")));
	kfree(copy);
	return ret;
}

int event_trigger_show(struct trace_event_file *file, int k, char *buf, size_t size)
{
	lockdep_assert_held(&event_mutex);
	struct event_trigger_data *data = file->triggers;

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
	if (data->cmd->print)
		return data->cmd->print(data, buf, size);
	return event_trigger_format(
		buf, size, data->cmd->name, data->target ? data->target->call->system : NULL,
		data->target ? data->target->call->name : NULL, data->count, data->filter_str);
}
