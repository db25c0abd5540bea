/*
 * Dynamic events: events made at run time by writing a definition (trace/trace_dynevent.c),
 * Linux's kernel/trace/trace_dynevent.h. Each kind (kprobes, eprobes, uprobes, synthetic
 * events) registers one struct dyn_event_operations; dynamic_events then accepts and lists
 * every kind, and each kind's own file (kprobe_events, uprobe_events) its own.
 */
#ifndef TRACE_TRACE_DYNEVENT_H
#define TRACE_TRACE_DYNEVENT_H

#include <stdbool.h>
#include <stddef.h>
#include "lib/list.h"
#include "kernel/fs/vfs.h"

struct seq_file;
struct dyn_event;
struct mutex;

/*
 * A kind of dynamic event:
 *  create  makes one from a definition line: 0, -ECANCELED if the line is not of this kind
 *          (dynamic_events then offers it to the next kind), or another negative errno;
 *  show    prints its definition, as the files list it back;
 *  is_busy is it enabled or held (it cannot be removed then);
 *  free    removes and frees it: 0 or -EBUSY;
 *  match   does "-:[SYSTEM/]EVENT [ARGS...]" name it (system NULL: any; event "": all of the
 *          system; argc/argv: the rest of the words, which must match the head of its own).
 */
struct dyn_event_operations {
	struct list_head list;
	int (*create)(const char *raw_command);
	int (*show)(struct seq_file *m, struct dyn_event *ev);
	bool (*is_busy)(struct dyn_event *ev);
	int (*free)(struct dyn_event *ev);
	bool (*match)(const char *system, const char *event, int argc, const char **argv,
		      struct dyn_event *ev);
};

/* Embedded in each dynamic event (struct trace_kprobe, struct trace_eprobe, ...). */
struct dyn_event {
	struct list_head list; /* on dyn_event_list, in creation order */
	struct dyn_event_operations *ops;
};

/*
 * Every dynamic event, in the order they were made; changed and walked under dyn_event_mutex,
 * which also serializes the parsing of definitions (the probe error log's state).
 */
extern struct list_head dyn_event_list;
extern struct mutex dyn_event_mutex;
#define for_each_dyn_event(pos) list_for_each_entry(pos, &dyn_event_list, list)
#define for_each_dyn_event_safe(pos, n) list_for_each_entry_safe(pos, n, &dyn_event_list, list)

/* At boot, one per kind, in the order dynamic_events tries them. */
int dyn_event_register(struct dyn_event_operations *ops);
/* Onto / off the list; dyn_event_mutex held. */
void dyn_event_add(struct dyn_event *ev, struct dyn_event_operations *ops);
void dyn_event_remove(struct dyn_event *ev);

/*
 * "-:[GROUP/]EVENT [ARGS]" (or a "p:..." line with '!' in front, dynamic_events' own): frees
 * every event of kind type (NULL: any) that matches. 0, -ENOENT if none did, -EINVAL for a
 * malformed line, -EBUSY (the events before the busy one are gone, as in Linux).
 */
int dyn_event_release(const char *raw_command, struct dyn_event_operations *type);
/* Every event of kind type (NULL: all): -EBUSY, and nothing removed, if any is busy. */
int dyn_events_release_all(struct dyn_event_operations *type);

/*
 * A write of definitions, one a line ('#' starts a comment; empty lines are nothing): runs
 * createfn on each, stopping at the first error, which the write returns. Linux's
 * trace_parse_run_command(). Takes dyn_event_mutex around each line.
 */
ssize_t trace_parse_run_command(const char *ubuf, size_t count, loff_t *ppos,
				int (*createfn)(const char *raw_command));

/*
 * A definitions file's seq_file walk (m->private: the kind listed, NULL: all), under
 * dyn_event_mutex from start to stop; a kind that lists its own way (synthetic_events) brings
 * its own show.
 */
struct seq_file;
void *dyn_event_seq_start(struct seq_file *m, loff_t *pos);
void *dyn_event_seq_next(struct seq_file *m, void *v, loff_t *pos);
void dyn_event_seq_stop(struct seq_file *m, void *v);
/* The buffers may hold records of events that are gone: Linux's, for every trace array. */
void tracing_reset_all_online_cpus(void);

/* A definitions file's open: lists kind (NULL: all kinds); O_TRUNC first removes them all. */
struct file;
int dyn_event_file_open(struct file *file, struct dyn_event_operations *kind);
/* Boot: dynamic_events (then each kind registers itself and makes its own file). */
void init_dynamic_event(void);
void trace_events_eprobe_init(void); /* trace/trace_eprobe.c */
void init_kprobe_trace(void); /* trace/trace_kprobe.c: kprobe_events, kprobe_profile */
/* The loader: module mod has come; kprobe events on "MOD:sym" of it are registered now. */
struct module;
void trace_kprobe_module_coming(struct module *mod);
void trace_events_synth_init(void); /* trace/trace_events_synth.c: synthetic_events */

/* Linux's argv_split(): the words of str (split on blanks), NULL-terminated; argv_free frees. */
char **argv_split(const char *str, int *argcp);
void argv_free(char **argv);

#endif
