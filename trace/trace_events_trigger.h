/*
 * Event triggers: events/SYSTEM/EVENT/trigger, a command run each time the event happens
 * ("traceoff", "stacktrace:5 if prev_state & 3", "enable_event:sched:sched_wakeup"), as
 * Linux's Documentation/trace/events.rst, "Event triggers" (trace/trace_events_trigger.c).
 */
#ifndef TRACE_TRACE_EVENTS_TRIGGER_H
#define TRACE_TRACE_EVENTS_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include "trace/trace_events.h"

/* Linux's: what a command does; an event has at most one trigger of each (enable: per target). */
enum event_trigger_type {
	ETT_NONE = 0,
	ETT_TRACE_ONOFF = 1 << 0, /* traceon and traceoff: one excludes the other */
	ETT_SNAPSHOT = 1 << 1,
	ETT_STACKTRACE = 1 << 2,
	ETT_EVENT_ENABLE = 1 << 3, /* enable_event and disable_event */
	ETT_EPROBE = 1 << 4, /* an eprobe's (trace/trace_eprobe.c): in no trigger file */
};

#define TRIGGER_COUNT_UNLIMITED (-1L) /* no ":N": printed "unlimited", as Linux */
#define TRIGGER_WRITE_MAX 4096 /* Linux refuses a write of a page or more */

/* --- parsing and printing (trace/trace_events_trigger_parse.c; no kernel state) -------------- */

/*
 * A write cut into its parts, Linux's way (trigger_process_regex() and its helpers):
 *   [!]cmd[:param] [if filter]       traceon, traceon:5, traceon if pid == 1
 *   [!]cmd:sys:event[:N] [if filter] enable_event:sched:sched_wakeup:2
 * Every pointer points into the text given, or is NULL.
 */
struct event_trigger_spec {
	bool remove; /* '!': remove the trigger (the rest is not looked at, but sys:event) */
	char *cmd; /* the command's name, '!' cut */
	char *system, *event; /* the target of enable_event/disable_event */
	char *num; /* the count as written ("5"), or NULL: unlimited */
	char *filter; /* "if EXPR" as written, or NULL */
};

/*
 * Cuts buf (the write, NUL-terminated) in place: blanks at both ends, the command (spec->cmd,
 * spec->remove), and returns what follows it, from after the ':' or blank, or NULL if nothing
 * does. Then, once the command is known, event_trigger_split_param() cuts that into count and
 * filter, and for a command that needs_event (enable_event) first into system and event:
 * -EINVAL if they are missing, else 0.
 */
char *event_trigger_split(char *buf, struct event_trigger_spec *spec);
int event_trigger_split_param(struct event_trigger_spec *spec, char *param_and_filter,
			      bool needs_event);
/* The count: TRIGGER_COUNT_UNLIMITED without one; -EINVAL or -ERANGE for a bad one (kstrtoul). */
int event_trigger_parse_num(struct event_trigger_spec *spec, long *count);
/* The filter's expression, after "if": NULL if there is none, *err -EINVAL if it is no "if X". */
char *event_trigger_filter_expr(struct event_trigger_spec *spec, int *err);

/*
 * One line of the trigger file, Linux's event_trigger_print(): "traceon:unlimited\n",
 * "stacktrace:count=3 if prev_state & 3\n", "enable_event:sched:sched_wakeup:count=1\n"
 * (system and event NULL for the others). snprintf's contract: the length it needs.
 */
int event_trigger_format(char *buf, size_t size, const char *name, const char *system,
			 const char *event, long count, const char *filter);

/* --- the triggers (trace/trace_events_trigger.c) -------------------------------------------- */

/* A target for enable_event (an event that can be enabled), or NULL; event_mutex held. */
struct trace_event_call *find_event_call(const char *system, const char *event);

struct file_operations;
extern const struct file_operations event_trigger_fops; /* trace/trace_events_trigger_fs.c */

struct event_command;

/* One trigger on one event: on call->triggers, read by the probe without a lock. */
struct event_trigger_data {
	struct event_trigger_data *next; /* newest first, as the file lists them */
	const struct event_command *cmd;
	long count; /* what is left of ":N", or TRIGGER_COUNT_UNLIMITED */
	struct event_filter *filter; /* "if ...", or NULL: always */
	char *filter_str; /* its text, for the file */
	struct trace_event_call *target; /* enable_event/disable_event: the event switched */
	/*
	 * A kernel user's trigger (eprobes, trace/trace_eprobe.c; Linux's eprobe trigger): runs
	 * with every record of the event, kept in no trigger file. private_data is the user's.
	 */
	void (*rec_func)(struct event_trigger_data *data, void *rec, unsigned int len);
	void *private_data;
};
/*
 * Hangs data (rec_func and private_data set, the rest zero) on call as a trigger, which holds
 * call's probe in soft mode as any trigger does; detach takes it off and waits until no probe
 * runs it (data is then the caller's to free). event_mutex held; 0 or a negative errno.
 */
int event_trigger_attach(struct trace_event_call *call, struct event_trigger_data *data);
void event_trigger_detach(struct trace_event_call *call, struct event_trigger_data *data);

/* The commands, one line: "traceon traceoff snapshot stacktrace enable_event disable_event". */
void event_trigger_available(char *buf, size_t size);

/*
 * A write to call's trigger file, stripped (Linux's trigger_process_regex()): adds or
 * removes one trigger. event_mutex held. 0 or a negative errno, Linux's: EINVAL (no such
 * command, a bad count, event or filter), ERANGE (a count too big), EEXIST (the event has
 * that trigger already), ENOMEM. A refused write changes nothing.
 */
int trigger_process_regex(struct trace_event_call *call, char *buf);
/* The same, checking only: would it succeed? Nothing changes. */
int trigger_check_regex(struct trace_event_call *call, char *buf);
/* Does the write need the snapshot buffer first (trace_types_lock, before event_mutex)? */
bool trigger_needs_snapshot(const char *buf);

/* The file's k-th line (0...) of call's triggers into buf; the length it needs, -1: none. */
int event_trigger_show(struct trace_event_call *call, int k, char *buf, size_t size);

/*
 * From the event's probe (trace/trace_events.c), preemption off, any context. rec NULL: run
 * every trigger (none of them needs the record). Otherwise run those whose filter keeps rec
 * and that run before the record is committed; returns the types of the ones that run after
 * it, for event_triggers_post_call() (ip: the probe, where a stack trace starts).
 */
enum event_trigger_type event_triggers_call(struct trace_event_call *call, void *rec,
					    unsigned int len);
void event_triggers_post_call(struct trace_event_call *call, enum event_trigger_type tt,
			      unsigned long ip);

#endif
