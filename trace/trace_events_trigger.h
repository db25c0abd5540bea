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
	ETT_EVENT_HIST = 1 << 5, /* hist (trace/trace_events_hist.c): several per event */
	ETT_HIST_ENABLE = 1 << 6, /* enable_hist and disable_hist */
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

struct file_operations;
extern const struct file_operations event_trigger_fops; /* trace/trace_events_trigger_fs.c */

struct event_command;
struct event_trigger_data;

/*
 * A command (Linux's struct event_command): the simple ones (traceon...) are parsed by the
 * common code (trace/trace_events_trigger.c) and run trigger(); one with a parser of its own
 * (hist) parses the rest of the write itself, and runs rec_trigger() on the record.
 */
struct event_command {
	const char *name;
	enum event_trigger_type trigger_type;
	bool post_trigger; /* runs after the record is committed */
	bool needs_event; /* takes sys:event: enable_event, disable_event, enable_hist */
	bool enable; /* enable_event, enable_hist (else disable_*) */
	bool needs_snapshot; /* the spare buffer must exist first */
	bool needs_rec; /* rec_trigger needs the record (Linux's EVENT_CMD_FL_NEEDS_REC) */
	bool tail; /* added after the others, not before (Linux's hist_trigger_enable) */
	/* ip: where the probe called commit, for a stack trace (0 when it does not matter) */
	void (*trigger)(struct event_trigger_data *data, unsigned long ip);
	void (*rec_trigger)(struct event_trigger_data *data, void *rec, unsigned int len,
			    unsigned long ip);
	/*
	 * Its own parser: param is what follows "NAME:" (blanks cut at both ends), remove the
	 * '!'. apply false: check only, change nothing. 0 or a negative errno. event_mutex held.
	 */
	int (*parse)(const struct event_command *cmd, struct trace_event_file *file, char *param,
		     bool remove, bool apply);
	/* Its line of the trigger file (snprintf's contract); NULL: the common form. */
	int (*print)(struct event_trigger_data *data, char *buf, size_t size);
	/* Frees data (and what it holds) once it is off every list and no probe runs it. */
	void (*free)(struct event_trigger_data *data);
	/* A write with O_TRUNC ('>') removes every trigger of this command first (hist's). */
	void (*unreg_all)(struct trace_event_file *file);
};

/*
 * One trigger on one event in one trace array: on file->triggers, read by the probe without a
 * lock. It acts on its file's array (traceoff stops that array's recording, stacktrace writes
 * into its buffer), and enable_event's target is that array's file of the event it names, as
 * Linux's triggers belong to a trace_event_file.
 */
struct event_trigger_data {
	struct event_trigger_data *next; /* newest first, as the file lists them */
	const struct event_command *cmd;
	struct trace_event_file *file; /* whose trigger it is */
	long count; /* what is left of ":N", or TRIGGER_COUNT_UNLIMITED */
	struct event_filter *filter; /* "if ...", or NULL: always */
	char *filter_str; /* its text, for the file */
	struct trace_event_file *target; /* enable_event/disable_event: the file switched */
	/*
	 * A kernel user's trigger (eprobes, trace/trace_eprobe.c; Linux's eprobe trigger): runs
	 * with every record of the event, kept in no trigger file. private_data is the user's.
	 */
	void (*rec_func)(struct event_trigger_data *data, void *rec, unsigned int len);
	void *private_data; /* hist: its struct hist_trigger_data */
	bool paused; /* hist: ":pause", disable_hist: hits are not counted */
	/* hist's ":name=": the trigger whose histogram this one shares, or NULL */
	struct event_trigger_data *named_data;
};

/*
 * For commands with their own parser (event_mutex held): add publishes data on file (at the
 * head of the list, or the tail) and holds the event's probe in soft mode, 0 or an errno;
 * remove unlinks it and waits until no probe runs it (data is then the caller's to free).
 * trigger_filter_set compiles "if"'s expression into data (0, -EINVAL, -ENOMEM).
 */
int event_trigger_add(struct trace_event_file *file, struct event_trigger_data *data, bool tail);
void event_trigger_remove(struct trace_event_file *file, struct event_trigger_data *data);
int trigger_filter_set(struct trace_event_file *file, const char *expr,
		       struct event_trigger_data *data);
void trigger_filter_free(struct event_trigger_data *data);
/* The hist command (trace/trace_events_hist.c); weak: a host test may link without it. */
extern const struct event_command trigger_hist_cmd __attribute__((weak));
/*
 * Hangs data (rec_func and private_data set, the rest zero) on call as a trigger, which holds
 * call's probe in soft mode as any trigger does; detach takes it off and waits until no probe
 * runs it (data is then the caller's to free). event_mutex held; 0 or a negative errno.
 */
int event_trigger_attach(struct trace_event_call *call, struct event_trigger_data *data);
void event_trigger_detach(struct trace_event_call *call, struct event_trigger_data *data);

/*
 * The commands, one line: "traceon traceoff snapshot stacktrace enable_event disable_event
 * enable_hist disable_hist hist".
 */
void event_trigger_available(char *buf, size_t size);

/*
 * A write to file's trigger file, stripped (Linux's trigger_process_regex()): adds or
 * removes one trigger. event_mutex held. 0 or a negative errno, Linux's: EINVAL (no such
 * command, a bad count, event or filter), ERANGE (a count too big), EEXIST (the event has
 * that trigger already), ENOMEM. A refused write changes nothing.
 */
int trigger_process_regex(struct trace_event_file *file, char *buf);
/* The same, checking only: would it succeed? Nothing changes. */
int trigger_check_regex(struct trace_event_file *file, char *buf);
/* Does the write need the snapshot buffer first (trace_types_lock, before event_mutex)? */
bool trigger_needs_snapshot(const char *buf);

/*
 * The trigger file's k-th line (0...) of file's triggers into buf; the length it needs, -1: none.
 */
int event_trigger_show(struct trace_event_file *file, int k, char *buf, size_t size);
/* Every trigger of file removed (an instance's rmdir); event_mutex held. */
void event_triggers_clear(struct trace_event_file *file);
/* The trigger file opened with O_TRUNC: the commands that want it clear theirs (hist's). */
void event_triggers_truncate(struct trace_event_file *file);

/*
 * From the event's probe (trace/trace_events.c), preemption off, any context. rec NULL: run
 * every trigger (none of them needs the record). Otherwise run those whose filter keeps rec
 * and that run before the record is committed; returns the types of the ones that run after
 * it, for event_triggers_post_call() (ip: the probe, where a stack trace starts).
 */
enum event_trigger_type event_triggers_call(struct trace_event_file *file, void *rec,
					    unsigned int len, unsigned long ip);
void event_triggers_post_call(struct trace_event_file *file, enum event_trigger_type tt,
			      unsigned long ip);

#endif
