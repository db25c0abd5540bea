/*
 * Function probes: a command run whenever a chosen function is called, whatever the current
 * tracer (trace/ftrace_probe.c). set_ftrace_filter's "func:traceoff[:N]" makes one; the
 * commands are in trace/trace_func_cmds.c.
 */
#ifndef TRACE_FTRACE_PROBE_H
#define TRACE_FTRACE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include "trace/ftrace.h"
#include "trace/ftrace_cmd_parse.h"

struct trace_array;

/*
 * What a probe does. func runs in the traced function's context (any context, preemption
 * off): ip is the function, count its counter if the probe is counted ("func:cmd:N": what is
 * left of N, for func to decrement atomically when it did its work), NULL if not; data what
 * the command's parse() made for this function (enable_event's event), NULL for the others.
 */
struct ftrace_probe_ops {
	const char *name; /* the command, as the listing shows it */
	bool counted;
	void (*func)(unsigned long ip, unsigned long parent_ip, struct trace_array *tr, long *count,
		     void *data);
	/*
	 * Commands with data: the listing's name ("enable_event:sched:sched_switch"), snprintf's
	 * way.
	 */
	size_t (*print_name)(char *buf, size_t size, const void *data);
};

/* Why a command was refused, for error_log (trace/ftrace_fs.c logs it). */
enum {
	FTRACE_CMD_ERR_NO_CMD,
	FTRACE_CMD_ERR_NOTRACE,
	FTRACE_CMD_ERR_NO_EVENT,
	FTRACE_CMD_ERR_EVENT_NOT_FOUND,
	FTRACE_CMD_ERR_BAD_COUNT,
	FTRACE_CMD_ERR_NO_MATCH,
	FTRACE_CMD_ERR_NOT_SET,
	FTRACE_CMD_ERR_ERRNO,
};
extern const char *const ftrace_cmd_err_text[];
struct ftrace_cmd_err {
	unsigned int type; /* FTRACE_CMD_ERR_* */
	const char *where; /* the word of the command the caret goes under */
};

/* A command of set_ftrace_filter: its name, and its probe without and with a count. */
struct ftrace_func_command {
	const char *name;
	const struct ftrace_probe_ops *ops;
	const struct ftrace_probe_ops *count_ops;
	/* Optional: what the command needs before its first probe (trace_types_lock held). */
	int (*setup)(struct trace_array *tr);
	/*
	 * Optional, for a command with an argument before its count (enable_event's
	 * "system:event"): reads it from *param, leaving there the count's text or NULL, and
	 * makes *data (NULL when only checking or removing). 0 or an errno, with err filled.
	 */
	int (*parse)(const struct ftrace_func_command *cmd, struct trace_array *tr, char **param,
		     void **data, bool make, struct ftrace_cmd_err *err);
	/* With parse: frees data (never given to a function, or its last function is gone). */
	void (*free)(void *data);
	const char *fixed_param; /* dump: always the count "1" ("only dump once"), as Linux */
	bool enable; /* enable_event (true) or disable_event */
};

/* "func:snapshot" (trace/trace_snapshot_trigger.c). */
extern const struct ftrace_probe_ops snapshot_probe_ops, snapshot_count_probe_ops;
void trace_snapshot_tick(void); /* the timer tick: a snapshot was asked for? */
/* Any context: stop recording and ask for the swap; false if one is on its way already. */
bool trace_snapshot_request(struct trace_array *tr);
int trace_snapshot_trigger_setup(struct trace_array *tr); /* its buffer */
void trace_snapshot_trigger_init(void); /* boot: its thread */
void trace_snapshot_trigger_forget(struct trace_array *tr); /* rmdir: its pending one */

#define FTRACE_PROBE_NAME_MAX 128 /* "enable_event:SYSTEM:EVENT" in the listing */

/* After a removal: frees each of cmd's data no function of probe_ops has any more. */
void ftrace_func_cmd_release(const struct ftrace_func_command *cmd, struct trace_array *tr,
			     const struct ftrace_probe_ops *probe_ops);
/* rmdir: every command data of tr's probes freed (their probes are off already). */
void ftrace_func_cmds_release_tr(struct trace_array *tr);
/* rmdir: tr's probes off and freed (trace_types_lock held, event_mutex not). */
void ftrace_release_probes(struct trace_array *tr);

/* Is data still some function's (a command's free() waits until it is not)? */
bool ftrace_probe_data_used(struct trace_array *tr, const struct ftrace_probe_ops *ops,
			    const void *data);

/* trace/trace_func_cmds.c: the command called name, or NULL. */
const struct ftrace_func_command *ftrace_find_command(const char *name);

/*
 * Runs (apply) or only checks (!apply: would it succeed? nothing changes) a command word of a
 * set_ftrace_filter write, cut by ftrace_cmd_split(). enable is false for set_ftrace_notrace,
 * which takes no commands. 0 or a negative errno, Linux's:
 *   EINVAL  no such command, a bad count, no function matches, all of them have it already,
 *           or (removing) none of the matching functions has it;
 *   ENODEV  removing a command no function has, or tr is NULL (stack_trace_filter's ops
 *           belong to no trace array).
 * Called with trace_types_lock held, as everything here that changes or lists probes.
 */
int ftrace_run_command(struct trace_array *tr, const struct ftrace_cmd_spec *spec, bool enable,
		       bool apply, struct ftrace_cmd_err *err);

/*
 * Adds the probe to every function glob matches that has not got it yet, with count for each;
 * removes it from the matching functions ("" or "*": all). The number of functions changed,
 * or a negative errno as above.
 */
int register_ftrace_function_probe(const char *glob, struct trace_array *tr,
				   const struct ftrace_probe_ops *ops, long count, void *data);
int unregister_ftrace_function_probe_func(const char *glob, struct trace_array *tr,
					  const struct ftrace_probe_ops *ops);

/*
 * set_ftrace_filter's listing: line k (0, 1, ...) of the probes, "func:cmd:unlimited\n" or
 * "func:cmd:count=N\n", into buf. Returns the length it needs, 0 if there is no line k.
 */
size_t ftrace_probe_show(struct trace_array *tr, int k, char *buf, size_t size);

#endif
