/* Function probes: run a command (traceoff, stacktrace, ...) when a chosen function is called. */

/*
 * "echo 'do_trap:traceoff:3' > set_ftrace_filter" makes a probe. Each kind of probe (a command,
 * counted or not: struct ftrace_probe_ops) has one struct ftrace_func_probe, holding an
 * ftrace_ops of its own whose filter is the set of functions that have the probe. Dynamic
 * ftrace (trace/ftrace.c) turns their call sites on, whatever the current tracer is -- nop
 * included -- and calls function_trace_probe_call(), which runs the command. The function
 * tracer's filter is not touched: a probe is not a filter (the article's "#### all functions
 * enabled ####" above "__bad_area_nosemaphore:traceoff:unlimited").
 *
 * A counted probe keeps one counter per function (Linux's ftrace_func_mapper), here an array
 * indexed like the call site records: the command decrements it, atomically, each time it does
 * its work, and stops at 0. The listing shows what is left: "do_trap:traceoff:count=2".
 *
 * The probe's ops is registered with FTRACE_OPS_FL_PROBE, so where a tracer traces the same
 * function the probe runs after it: traceoff leaves the function's own event in the trace.
 *
 * Probes belong to a trace array, as Linux's (tr->func_probes): a set_ftrace_filter's commands
 * act on its own array (an instance's traceoff stops that instance), and each array lists only
 * its own. Linux frees a probe whose last function went away once an RCU grace period has
 * passed, so that a callback still running on another CPU is done with it. Lucid has no RCU: a
 * probe, once made, is kept while its array lives (at most one per kind and array), and only
 * its set of functions changes; an instance's rmdir frees its probes
 * (ftrace_release_probes()), after waiting for every CPU to leave the callbacks.
 *
 * Making, removing and listing probes happens with trace_types_lock held (set_ftrace_filter's
 * writes and reads take it). Not traced, as all of trace/.
 */
#include "trace/ftrace_probe.h"
#include "trace/trace.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/tracepoint.h"
#include "lib/errno.h"
#include "lib/glob.h"
#include "lib/string.h"
#include "kernel/locking/lockdep.h"

struct ftrace_func_probe {
	const struct ftrace_probe_ops *probe_ops;
	struct trace_array *tr;
	struct ftrace_ops ops; /* its filter: the functions that have this probe */
	long *counts; /* counted probes: one per call site record */
	void **data; /* commands with data (enable_event): each function's, or NULL */
	struct ftrace_func_probe *next;
};

static struct ftrace_func_probe *func_probes; /* the ones with functions first, newest first */

static void function_trace_probe_call(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct ftrace_func_probe *probe = container_of(op, struct ftrace_func_probe, ops);
	long *count = NULL;
	void *data = NULL;

	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	(void)fregs;
	if (bit < 0)
		return;
	lockdep_assert_preemption_disabled(); /* by the recursion lock: the commands count on it */
	if (probe->counts || probe->data) {
		int rec = ftrace_find_rec(ip);

		if (rec < 0)
			goto out;
		if (probe->counts)
			count = &probe->counts[rec];
		if (probe->data) {
			data = READ_ONCE(probe->data[rec]);
			if (!data)
				goto out; /* being removed */
		}
	}
	probe->probe_ops->func(ip, parent_ip, probe->tr, count, data);
out:
	ftrace_test_recursion_unlock(bit);
}

static struct ftrace_func_probe *find_probe(struct trace_array *tr,
					    const struct ftrace_probe_ops *probe_ops)
{
	for (struct ftrace_func_probe *p = func_probes; p; p = p->next)
		if (p->tr == tr && p->probe_ops == probe_ops)
			return p;
	return NULL;
}

static struct ftrace_func_probe *get_probe(struct trace_array *tr,
					   const struct ftrace_probe_ops *probe_ops)
{
	struct ftrace_func_probe *probe = find_probe(tr, probe_ops);

	if (probe)
		return probe;
	probe = kzalloc(sizeof(*probe));
	if (!probe)
		return NULL;
	if (probe_ops->counted)
		probe->counts = kzalloc((size_t)ftrace_nr_records() * sizeof(long));
	if (probe_ops->print_name)
		probe->data = kzalloc((size_t)ftrace_nr_records() * sizeof(void *));
	if ((probe_ops->counted && !probe->counts) || (probe_ops->print_name && !probe->data)) {
		kfree(probe->counts);
		kfree(probe);
		return NULL;
	}
	probe->probe_ops = probe_ops;
	probe->tr = tr;
	probe->ops.func = function_trace_probe_call;
	probe->ops.flags = FTRACE_OPS_FL_PROBE;
	probe->next = func_probes;
	func_probes = probe;
	return probe;
}

/* The probe's functions came from none: list it first, as Linux lists its newest probe. */
static void move_to_front(struct ftrace_func_probe *probe)
{
	struct ftrace_func_probe **pp = &func_probes;

	while (*pp != probe)
		pp = &(*pp)->next;
	*pp = probe->next;
	probe->next = func_probes;
	func_probes = probe;
}

static bool has_probe(const struct ftrace_func_probe *probe, int rec)
{
	return probe && ftrace_hash_contains(&probe->ops.filter_hash, rec);
}

/*
 * How many functions adding (remove false) or removing the probe for glob would change; with
 * apply, also sets the counter and data of each function it adds, or clears the data of each
 * it removes (the callback then skips it until the filter no longer calls it).
 */
static int probe_changes(struct ftrace_func_probe *probe, const char *glob, bool remove, bool apply,
			 long count, void *data)
{
	bool all = remove && (!*glob || !strcmp(glob, "*"));
	int n = 0;

	ftrace_records_lock(); /* a module's names may go meanwhile */
	for (int rec = 0; rec < ftrace_nr_records(); rec++) {
		if (!ftrace_rec_name(rec) || has_probe(probe, rec) != remove)
			continue;
		if (!all && !glob_match(glob, ftrace_rec_name(rec)))
			continue;
		if (apply && !remove && probe->counts)
			probe->counts[rec] = count;
		if (apply && probe->data)
			WRITE_ONCE(probe->data[rec], remove ? NULL : data);
		n++;
	}
	ftrace_records_unlock();
	return n;
}

int register_ftrace_function_probe(const char *glob, struct trace_array *tr,
				   const struct ftrace_probe_ops *probe_ops, long count, void *data)
{
	lockdep_assert_held(&trace_types_lock);
	struct ftrace_func_probe *probe = get_probe(tr, probe_ops);
	int n, ret;

	if (!probe)
		return -ENOMEM;
	/* The counters first: a site this turns on may call the probe at once. */
	n = probe_changes(probe, glob, false, true, count, data);
	if (!n)
		return -EINVAL; /* nothing matches, or all have it already */
	ret = ftrace_set_filter(&probe->ops, glob, false);
	if (ret)
		return ret;
	if (!probe->ops.enabled) {
		ret = register_ftrace_function(&probe->ops);
		if (ret) {
			ftrace_reset_filters(&probe->ops);
			return ret;
		}
		move_to_front(probe);
	}
	return n;
}

int unregister_ftrace_function_probe_func(const char *glob, struct trace_array *tr,
					  const struct ftrace_probe_ops *probe_ops)
{
	lockdep_assert_held(&trace_types_lock);
	struct ftrace_func_probe *probe = find_probe(tr, probe_ops);
	char *pattern;
	int n, ret;

	if (!probe || !probe->ops.filter_hash.count)
		return -ENODEV;
	n = probe_changes(probe, glob, true, false, 0, NULL);
	if (!n)
		return -EINVAL;
	probe_changes(probe, glob, true, true, 0, NULL);
	if ((unsigned long)n == probe->ops.filter_hash.count) {
		/* Off first: an empty filter would mean every function. */
		ret = unregister_ftrace_function(&probe->ops);
		ftrace_reset_filters(&probe->ops);
		return ret ? ret : n;
	}
	pattern = kmalloc(strlen(glob) + 2);
	if (!pattern)
		return -ENOMEM;
	pattern[0] = '!';
	strcpy(pattern + 1, glob);
	ret = ftrace_set_filter(&probe->ops, pattern, false);
	kfree(pattern);
	return ret ? ret : n;
}

bool ftrace_probe_data_used(struct trace_array *tr, const struct ftrace_probe_ops *ops,
			    const void *data)
{
	lockdep_assert_held(&trace_types_lock);
	struct ftrace_func_probe *probe = find_probe(tr, ops);

	for (int rec = 0; probe && probe->data && rec < ftrace_nr_records(); rec++)
		if (probe->data[rec] == data)
			return true;
	return false;
}

const char *const ftrace_cmd_err_text[] = {
	"Command not found",
	"set_ftrace_notrace does not accept commands",
	"Missing system:event",
	"Event not found",
	"Invalid count",
	"No function matches, or each has the command already",
	"Command is on no function",
	"Error",
};

static int cmd_err(struct ftrace_cmd_err *err, unsigned int type, const char *where, int ret)
{
	err->type = type;
	err->where = where;
	return ret;
}

int ftrace_run_command(struct trace_array *tr, const struct ftrace_cmd_spec *spec, bool enable,
		       bool apply, struct ftrace_cmd_err *err)
{
	lockdep_assert_held(&trace_types_lock);
	const struct ftrace_func_command *cmd = ftrace_find_command(spec->cmd);
	const struct ftrace_probe_ops *probe_ops;
	struct ftrace_func_probe *probe;
	char *param = spec->param;
	void *data = NULL;
	bool counted;
	long count;
	int ret;

	if (!cmd)
		return cmd_err(err, FTRACE_CMD_ERR_NO_CMD, spec->cmd, -EINVAL);
	if (!tr)
		return cmd_err(
			err, FTRACE_CMD_ERR_ERRNO, spec->cmd,
			-ENODEV); /* stack_trace_filter: Linux's callbacks want a trace array */
	if (!enable) /* set_ftrace_notrace "does not accept triggers" */
		return cmd_err(err, FTRACE_CMD_ERR_NOTRACE, spec->cmd, -EINVAL);
	if (cmd->parse) {
		ret = cmd->parse(cmd, tr, &param, &data, apply && !spec->remove, err);
		if (ret)
			return ret;
	}
	if (cmd->fixed_param)
		param = (char *)cmd->fixed_param;
	/*
	 * Linux's choice: with anything after the command, even "!f:traceoff:0", the counted one.
	 */
	probe_ops = param ? cmd->count_ops : cmd->ops;
	probe = find_probe(tr, probe_ops);
	if (spec->remove) {
		if (apply)
			ret = unregister_ftrace_function_probe_func(spec->glob, tr, probe_ops);
		else if (!probe || !probe->ops.filter_hash.count)
			ret = -ENODEV;
		else
			ret = probe_changes(probe, spec->glob, true, false, 0, NULL) ? 0 : -EINVAL;
		if (ret >= 0 && apply && cmd->free)
			ftrace_func_cmd_release(cmd, tr, probe_ops);
		if (ret == -ENODEV)
			cmd_err(err, FTRACE_CMD_ERR_NOT_SET, spec->cmd, ret);
		else if (ret < 0)
			cmd_err(err, FTRACE_CMD_ERR_NO_MATCH, spec->glob, ret);
		return ret < 0 ? ret : 0;
	}
	ret = ftrace_cmd_count(param, &counted, &count);
	if (ret) {
		cmd_err(err, FTRACE_CMD_ERR_BAD_COUNT, param, ret);
		goto out_free;
	}
	if (!apply)
		return probe_changes(probe, spec->glob, false, false, 0, NULL)
			       ? 0
			       : cmd_err(err, FTRACE_CMD_ERR_NO_MATCH, spec->glob, -EINVAL);
	if (cmd->setup) {
		ret = cmd->setup(tr);
		if (ret) { /* no snapshot buffer: the write fails, saying why */
			cmd_err(err, FTRACE_CMD_ERR_ERRNO, spec->cmd, ret);
			goto out_free;
		}
	}
	ret = register_ftrace_function_probe(spec->glob, tr, probe_ops, count, data);
	if (ret < 0) {
		cmd_err(err, ret == -EINVAL ? FTRACE_CMD_ERR_NO_MATCH : FTRACE_CMD_ERR_ERRNO,
			spec->glob, ret);
		goto out_free;
	}
	return 0;
out_free:
	if (data && !ftrace_probe_data_used(tr, probe_ops, data))
		cmd->free(data);
	return ret;
}

size_t ftrace_probe_show(struct trace_array *tr, int k, char *buf, size_t size)
{
	lockdep_assert_held(&trace_types_lock);
	for (struct ftrace_func_probe *p = func_probes; p; p = p->next) {
		if (p->tr != tr || !p->ops.filter_hash.count)
			continue;
		for (int rec = 0; rec < ftrace_nr_records(); rec++) {
			if (!has_probe(p, rec) || !ftrace_rec_name(rec) || k-- > 0)
				continue;
			char name[FTRACE_PROBE_NAME_MAX];

			if (p->probe_ops->print_name)
				p->probe_ops->print_name(name, sizeof(name), p->data[rec]);
			else
				strlcpy(name, p->probe_ops->name, sizeof(name));
			return ftrace_probe_line(buf, size, ftrace_rec_name(rec), name,
						 p->probe_ops->counted,
						 p->counts ? READ_ONCE(p->counts[rec]) : -1);
		}
	}
	return 0;
}

/*
 * rmdir of tr's instance: each of its probes off every function, its commands' data freed
 * (enable_event's holds on tr's events dropped), and, once no CPU can still be in a callback,
 * the probes freed. trace_types_lock held, event_mutex not (the data's free takes it).
 */
void ftrace_release_probes(struct trace_array *tr)
{
	lockdep_assert_held(&trace_types_lock);
	struct ftrace_func_probe **pp = &func_probes, *probe, *gone = NULL;

	while ((probe = *pp)) {
		if (probe->tr != tr) {
			pp = &probe->next;
			continue;
		}
		if (probe->ops.enabled)
			unregister_ftrace_function(&probe->ops);
		ftrace_reset_filters(&probe->ops);
		*pp = probe->next;
		probe->next = gone;
		gone = probe;
	}
	if (!gone)
		return;
	ftrace_func_cmds_release_tr(tr); /* waits for the callbacks itself */
	tracepoint_synchronize_unregister(); /* no callback is still on a probe */
	for (; gone; gone = probe) {
		probe = gone->next;
		kfree(gone->counts);
		kfree(gone->data);
		kfree(gone);
	}
}
