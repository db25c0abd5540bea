/* Event probes (eprobes): a new event made from the fields of an existing one, as Linux 6.1. */

/*
 *   echo 'e:myopen syscalls.sys_enter_openat file=+0($filename):ustring' > dynamic_events
 *
 * makes eprobes/myopen, an event of its own (enable, filter, trigger, format, id) whose records
 * are built from each record of syscalls:sys_enter_openat: $FIELD is a field of that record (a
 * number, or a string field's text), and the fetch arguments go further, here to the string
 * the pointer field points to in the task's memory. Linux's Documentation/trace/eprobetrace.rst.
 *
 * How: while the eprobe is enabled it hangs a hidden trigger (event_trigger_attach) on the
 * attached event, as Linux's eprobe trigger does; the trigger holds that event's probe in soft
 * mode (its enable file shows 0* if nobody enabled it), gets each of its records, and writes
 * the eprobe's own record from it with the fetch code of trace/trace_probe_fetch.c. An optional
 * "if FILTER" after the arguments is a filter on the attached event's fields: only its records
 * that pass make a record of the eprobe.
 *
 * Definitions go through dynamic_events (trace/trace_dynevent.c), under its mutex.
 */
#include "trace/trace_probe.h"
#include "trace/trace_dynevent.h"
#include "trace/trace_events_filter.h"
#include "trace/trace_events_trigger.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/locking/mutex.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

#define EPROBE_EVENT_SYSTEM "eprobes"
#define FILTER_STR_MAX 1024 /* the "if ..." words, joined */

struct trace_eprobe {
	struct dyn_event devent;
	char *event_system; /* the attached event: "syscalls" */
	char *event_name; /* "sys_enter_openat" */
	struct trace_event_call *event;
	char *filter_str; /* after "if", or NULL */
	struct event_filter *filter;
	struct event_trigger_data trigger; /* hangs on event while the eprobe is enabled */
	struct trace_probe *tp;
};

static struct dyn_event_operations eprobe_dyn_event_ops;

static struct trace_eprobe *to_trace_eprobe(struct dyn_event *ev)
{
	return container_of(ev, struct trace_eprobe, devent);
}

/* --- a hit ------------------------------------------------------------------------------------ */

/* A record of the attached event: the eprobe's own record from it. Interrupts off. */
static void eprobe_trigger_func(struct event_trigger_data *data, void *rec, unsigned int len)
{
	struct trace_eprobe *ep = data->private_data;
	struct trace_probe *tp = ep->tp;
	struct fetch_context fc = {.rec = rec};
	struct trace_entry *entry;
	int dsize;

	if (ep->filter && !filter_match_preds(ep->filter, rec, len))
		return;
	dsize = traceprobe_get_data_size(tp, &fc);
	entry = trace_event_buffer_reserve(&tp->call, sizeof(*entry) + tp->size + (unsigned)dsize);
	if (!entry)
		return;
	store_trace_args(entry + 1, tp, &fc, sizeof(*entry), dsize);
	trace_event_buffer_commit(&tp->call, entry, sizeof(*entry) + tp->size + (unsigned)dsize);
}

/* "NAME: (SYSTEM.EVENT) ARG=VALUE ...", Linux's print_eprobe_event(). */
static enum print_line_t print_eprobe_event(struct trace_iterator *iter, unsigned int flags,
					    struct trace_event *event)
{
	struct trace_probe *tp = trace_probe_from_call(trace_event_call_of(event));
	struct trace_eprobe *ep = tp->call.data;
	struct trace_entry *field = iter->ent;
	struct trace_seq *s = &iter->seq;

	(void)flags;
	trace_seq_printf(s, "%s: (%s.%s)", trace_probe_name(tp), ep->event_system, ep->event_name);
	if (trace_probe_print_args(s, tp->args, (int)tp->nr_args, (uint8_t *)(field + 1), field) <
	    0)
		return trace_handle_return(s);
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

/* Enabling the eprobe's event hangs the trigger on the attached one. event_mutex held. */
static int eprobe_register(struct trace_event_call *call, bool on)
{
	struct trace_eprobe *ep = call->data;
	int ret = 0;

	if (on) {
		ep->trigger.rec_func = eprobe_trigger_func;
		ep->trigger.private_data = ep;
		ret = event_trigger_attach(ep->event, &ep->trigger);
		if (!ret)
			__atomic_fetch_or(&ep->tp->flags, TP_FLAG_TRACE, __ATOMIC_RELEASE);
	} else {
		__atomic_fetch_and(&ep->tp->flags, ~TP_FLAG_TRACE, __ATOMIC_RELEASE);
		event_trigger_detach(ep->event, &ep->trigger);
	}
	return ret;
}

/* --- making one ------------------------------------------------------------------------------- */

static void trace_event_probe_cleanup(struct trace_eprobe *ep)
{
	if (!ep)
		return;
	trace_probe_cleanup(ep->tp);
	free_event_filter(ep->filter);
	kfree(ep->filter_str);
	kfree(ep->event_system);
	kfree(ep->event_name);
	kfree(ep);
}

/* "if" and the words after it, joined by blanks: a filter on the attached event's fields. */
static int trace_eprobe_parse_filter(struct trace_eprobe *ep, int argc, const char *argv[])
{
	size_t len = 0;
	int ret;

	if (argc == 0) {
		trace_probe_log_err(0, NO_EP_FILTER);
		return -EINVAL;
	}
	ep->filter_str = kzalloc(FILTER_STR_MAX);
	if (!ep->filter_str)
		return -ENOMEM;
	for (int i = 0; i < argc && len < FILTER_STR_MAX; i++)
		len += (size_t)snprintf(ep->filter_str + len, FILTER_STR_MAX - len, "%s%s",
					i ? " " : "", argv[i]);
	if (len >= FILTER_STR_MAX)
		return -E2BIG;
	ret = create_event_filter(ep->event, ep->filter_str, false, &ep->filter);
	if (ret)
		return ret;
	return 0;
}

static struct trace_event_call *find_and_get_event(const char *system, const char *name)
{
	struct trace_event_call *call;

	list_for_each_entry(call, &ftrace_events, list)
	{
		if (call->flags & TRACE_EVENT_FL_IGNORE_ENABLE)
			continue;
		if (!strcmp(call->system, system) && !strcmp(call->name, name))
			return call;
	}
	return NULL;
}

/* Linux's __trace_eprobe_create(). */
static int __trace_eprobe_create(int argc, const char *argv[])
{
	const char *event = NULL, *group = EPROBE_EVENT_SYSTEM;
	const char *sys_event = NULL, *sys_name = NULL;
	char buf1[MAX_EVENT_NAME_LEN], buf2[MAX_EVENT_NAME_LEN], gbuf[MAX_EVENT_NAME_LEN];
	struct trace_eprobe *ep = NULL;
	struct trace_event_call *event_call;
	int ret = 0, filter_idx = 0, filter_cnt = 0;

	if (argc < 2 || argv[0][0] != 'e')
		return -ECANCELED;
	trace_probe_log_init("event_probe", argc, argv);

	event = strchr(&argv[0][1], ':');
	if (event) {
		event++;
		ret = traceprobe_parse_event_name(&event, &group, gbuf, (int)(event - argv[0]));
		if (ret)
			goto parse_error;
	}
	trace_probe_log_set_index(1);
	sys_event = argv[1];
	ret = traceprobe_parse_event_name(&sys_event, &sys_name, buf2, 0);
	if (ret || !sys_event || !sys_name) {
		trace_probe_log_err(0, NO_EVENT_INFO);
		goto parse_error;
	}
	if (!event) {
		strlcpy(buf1, sys_event, MAX_EVENT_NAME_LEN);
		event = buf1;
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "if")) {
			filter_idx = i + 1;
			filter_cnt = argc - filter_idx;
			argc = i;
			break;
		}
	}
	if (argc - 2 > MAX_TRACE_ARGS) {
		trace_probe_log_set_index(2 + MAX_TRACE_ARGS);
		trace_probe_log_err(0, BAD_FETCH_ARG);
		ret = -E2BIG;
		goto error;
	}
	mutex_lock(&event_mutex);
	event_call = find_and_get_event(sys_name, sys_event);
	mutex_unlock(&event_mutex);
	if (!event_call) {
		trace_probe_log_err(0, BAD_ATTACH_EVENT);
		ret = -ENODEV;
		goto error;
	}
	ret = -ENOMEM;
	ep = kzalloc(sizeof(*ep));
	if (!ep)
		goto error;
	ep->event = event_call;
	ep->event_system = kstrdup(event_call->system);
	ep->event_name = kstrdup(event_call->name);
	ep->tp = trace_probe_alloc(event, group, argc - 2);
	if (!ep->event_system || !ep->event_name || !ep->tp)
		goto error;
	ep->tp->attached = event_call;
	ep->tp->call.data = ep;
	if (filter_idx) {
		trace_probe_log_set_index(filter_idx);
		ret = trace_eprobe_parse_filter(ep, filter_cnt, argv + filter_idx);
		if (ret)
			goto error;
	}
	for (int i = 2; i < argc; i++) {
		trace_probe_log_set_index(i);
		ret = traceprobe_parse_probe_arg(ep->tp, i - 2, argv[i],
						 TPARG_FL_KERNEL | TPARG_FL_TPOINT);
		if (ret)
			goto error;
	}
	ret = traceprobe_set_print_fmt(ep->tp, PROBE_PRINT_EVENT);
	if (!ret)
		ret = traceprobe_define_arg_fields(ep->tp, NULL, 0);
	if (ret)
		goto error;
	ret = trace_probe_register_event_call(ep->tp, print_eprobe_event, eprobe_register);
	if (ret) {
		if (ret == -EEXIST) {
			trace_probe_log_set_index(0);
			trace_probe_log_err(0, EVENT_EXIST);
		}
		goto error;
	}
	dyn_event_add(&ep->devent, &eprobe_dyn_event_ops);
	trace_probe_log_clear();
	return 0;
parse_error:
	ret = -EINVAL;
error:
	trace_probe_log_clear();
	trace_event_probe_cleanup(ep);
	return ret;
}

static int eprobe_dyn_event_create(const char *raw_command)
{
	char **argv;
	int argc, ret;

	if (raw_command[0] != 'e')
		return -ECANCELED;
	argv = argv_split(raw_command, &argc);
	if (!argv)
		return -ENOMEM;
	ret = argc ? __trace_eprobe_create(argc, (const char **)argv) : 0;
	argv_free(argv);
	return ret;
}

/* --- listing and removing --------------------------------------------------------------------- */

static int eprobe_dyn_event_show(struct seq_file *m, struct dyn_event *ev)
{
	struct trace_eprobe *ep = to_trace_eprobe(ev);

	seq_printf(m, "e:%s/%s", trace_probe_group_name(ep->tp), trace_probe_name(ep->tp));
	seq_printf(m, " %s.%s", ep->event_system, ep->event_name);
	trace_probe_show_args(m, ep->tp);
	if (ep->filter_str)
		seq_printf(m, " if %s", ep->filter_str);
	seq_putc(m, '\n');
	return 0;
}

static bool eprobe_dyn_event_is_busy(struct dyn_event *ev)
{
	struct trace_eprobe *ep = to_trace_eprobe(ev);

	return trace_probe_is_enabled(ep->tp) || ep->tp->call.file.enabled ||
	       ep->tp->call.registered || ep->tp->call.file.triggers;
}

static int eprobe_dyn_event_release(struct dyn_event *ev)
{
	struct trace_eprobe *ep = to_trace_eprobe(ev);
	int ret = trace_probe_unregister_event_call(ep->tp);

	if (ret)
		return ret;
	dyn_event_remove(ev);
	trace_event_probe_cleanup(ep);
	return 0;
}

static bool eprobe_dyn_event_match(const char *system, const char *event, int argc,
				   const char **argv, struct dyn_event *ev)
{
	struct trace_eprobe *ep = to_trace_eprobe(ev);
	const char *slash;

	if (event[0] != '\0' && strcmp(trace_probe_name(ep->tp), event))
		return false;
	if (system && strcmp(trace_probe_group_name(ep->tp), system))
		return false;
	if (argc < 1)
		return true;
	/* the attached SYSTEM.EVENT (or SYSTEM/EVENT), then the arguments */
	slash = strchr(argv[0], '/');
	if (!slash)
		slash = strchr(argv[0], '.');
	if (!slash)
		return false;
	if (strncmp(ep->event_system, argv[0], (size_t)(slash - argv[0])) ||
	    ep->event_system[slash - argv[0]] != '\0' || strcmp(ep->event_name, slash + 1))
		return false;
	return trace_probe_match_command_args(ep->tp, argc - 1, argv + 1);
}

static struct dyn_event_operations eprobe_dyn_event_ops = {
	.create = eprobe_dyn_event_create,
	.show = eprobe_dyn_event_show,
	.is_busy = eprobe_dyn_event_is_busy,
	.free = eprobe_dyn_event_release,
	.match = eprobe_dyn_event_match,
};

void trace_events_eprobe_init(void)
{
	if (dyn_event_register(&eprobe_dyn_event_ops))
		pr_warn("Could not register eprobes\n");
}
