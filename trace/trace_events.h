/*
 * Trace events: fixed places in the kernel that record a typed record when enabled
 * (trace/trace_events.c; docs/design/trace-events.md tells the whole story).
 *
 * An event is a struct trace_event_call, registered with REGISTER_TRACE_EVENT(call). Most are
 * declared once with TRACE_EVENT() in trace/events/SYSTEM.h and made from that declaration in
 * trace/trace_events_SYSTEM.c (trace/define_trace.h); the ftrace and syscalls ones are written
 * out (trace/trace_export.c, trace/trace_syscalls.c). It says:
 *  - its system and name ("sched", "sched_switch"): events/sched/sched_switch/, and
 *    "sched:sched_switch" in set_event and available_events;
 *  - its record: a C struct that starts with struct trace_entry, described field by field
 *    with TRACE_FIELD() & co, which take offsets and sizes from the struct itself (offsetof,
 *    sizeof) and refuse to compile if the type named does not match the member's. The format
 *    file is printed from that description, so it is always the real binary layout;
 *  - its print fmt (the format file's last line, for tools) and its output function (the
 *    trace file's text, the same thing done in C);
 *  - the tracepoint it hangs on, and the probe that records it.
 * At boot each event gets its id (the record's type, its common_type) and its files; enabling
 * it attaches its probe to the tracepoint, disabling detaches it.
 */
#ifndef TRACE_TRACE_EVENTS_H
#define TRACE_TRACE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/compiler.h"
#include "lib/list.h"
#include "trace/trace.h"
#include "trace/trace_output.h"
#include "kernel/fs/vfs.h" /* ssize_t, loff_t: the filter files' write */

struct tracepoint;
struct mutex;
struct event_filter;
struct event_trigger_data;
struct dentry;

typedef int pid_t; /* as Linux's records name their pid fields */

#define __stringify_1(x...) #x
#define __stringify(x...) __stringify_1(x)
/* Linux's: 1 if type is a signed type ("signed:" in the format file). */
#define is_signed_type(type) (((type)(-1)) < (type)1)
/* 0, or a compile error if e is true (a bit-field of negative width). */
#define BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int : (-!!(e)); })))

/* One field of an event's record, as its format file shows it. */
struct trace_event_field {
	const char *type; /* "pid_t", "char[16]" (an array), "__data_loc char[]" */
	const char *name; /* "prev_pid" */
	unsigned int offset; /* bytes from the start of the record, struct trace_entry included */
	unsigned int size;
	bool is_signed;
};

#define __TRACE_FIELD_CHECK(st, member_type, item) \
	BUILD_BUG_ON_ZERO(!__builtin_types_compatible_p(__typeof__(((st *)0)->item), member_type))

/* A scalar member of struct st: TRACE_FIELD(struct my_record, pid_t, pid). */
#define TRACE_FIELD(st, _type, item)                                                    \
	{                                                                               \
		.type = #_type, .name = #item, .offset = offsetof(st, item),            \
		.size = sizeof(((st *)0)->item) + __TRACE_FIELD_CHECK(st, _type, item), \
		.is_signed = is_signed_type(_type),                                     \
	}

/* An array member: TRACE_FIELD_ARRAY(struct my_record, char, comm, TASK_COMM_LEN). */
#define TRACE_FIELD_ARRAY(st, _type, item, len)                                              \
	{                                                                                    \
		.type = #_type "[" __stringify(len) "]", .name = #item,                      \
		.offset = offsetof(st, item),                                                \
		.size = sizeof(((st *)0)->item) + __TRACE_FIELD_CHECK(st, _type[len], item), \
		.is_signed = is_signed_type(_type),                                          \
	}

/*
 * A string of any length (Linux's __string): the record has a uint32_t __data_loc_NAME, which
 * holds the string's length (NUL included) << 16 | its offset in the record; the string itself
 * follows the fixed part, in the record's __data[]. trace_event_set_str() fills both.
 */
#define DATA_LOC_LEN_SHIFT 16 /* __data_loc: length << 16 | offset */
#define DATA_LOC_OFFSET_MASK 0xffffu
#define TRACE_FIELD_STRING(st, item)                                          \
	{                                                                     \
		.type = "__data_loc char[]", .name = #item,                   \
		.offset = offsetof(st, __data_loc_##item),                    \
		.size = sizeof(((st *)0)->__data_loc_##item) +                \
			__TRACE_FIELD_CHECK(st, uint32_t, __data_loc_##item), \
		.is_signed = is_signed_type(char),                            \
	}

/*
 * A flexible array member, the variable part of a record (Linux's __dynamic_array):
 * TRACE_FIELD_DYN_ARRAY(struct print_entry, char, buf) is "char buf[]", size 0 in the format
 * file; the record's length says how much of it there is.
 */
#define TRACE_FIELD_DYN_ARRAY(st, _type, item)                                    \
	{                                                                         \
		.type = #_type "[]", .name = #item, .offset = offsetof(st, item), \
		.size = 0 + __TRACE_FIELD_CHECK(st, _type[], item),               \
		.is_signed = is_signed_type(_type),                               \
	}

#define TRACE_FIELD_END      \
	{                    \
		.name = NULL \
	}

/*
 * The print fmt line of a format file: Linux's TP_printk() arguments as text, with REC-> for
 * the record and macros expanded to their values, as tools expect them. Use the same
 * constants as the C output function, so the two cannot drift apart.
 */
#define TRACE_PRINT_FMT(fmt, args...) __stringify(fmt, args)

/*
 * trace_event_call.flags. IGNORE_ENABLE: the event only describes records a tracer writes
 * itself (events/ftrace/: function, print, funcgraph_entry...), for tools. It has format and
 * id files and a fixed id (its TRACE_* type), and no probe: it cannot be enabled, and
 * available_events and set_event do not know it, as in Linux.
 */
#define TRACE_EVENT_FL_IGNORE_ENABLE 0x1

/*
 * trace_event_file.flags, Linux's EVENT_FILE_FL_* (trace/trace_events_trigger.c):
 *  SOFT_MODE      a trigger holds the event's probe attached (its enable file shows a '*');
 *  SOFT_DISABLED  attached, but its records are dropped: only its triggers run (enable: 0*);
 *  TRIGGER_MODE   it has triggers;
 *  TRIGGER_COND   one of them needs the record (a filter) or runs after it (traceoff,
 *                 stacktrace): the record is built aside and the triggers run at commit.
 * The probe tests the top level's TRIGGER_MODE | SOFT_DISABLED | INSTANCES once, at reserve.
 */
#define EVENT_FILE_FL_SOFT_MODE (1UL << 0)
#define EVENT_FILE_FL_SOFT_DISABLED (1UL << 1)
#define EVENT_FILE_FL_TRIGGER_MODE (1UL << 2)
#define EVENT_FILE_FL_TRIGGER_COND (1UL << 3)
/*
 * In the top level's file only (call->file.flags), for the whole event: some instance's file
 * is enabled (call->nr_inst_enabled > 0: it records, or a trigger holds it), so the probe
 * takes the instances' path.
 */
#define EVENT_FILE_FL_INSTANCES (1UL << 4)

/*
 * An event in one trace array (Linux's struct trace_event_file): its enable state, filter and
 * triggers there. The top level's is the call's own (call->file); an instance has one per
 * event, allocated alone (at mkdir, or when the event is made later) and chained on
 * tr->event_files, and on the call's list of instance files. Every file, the top level's and
 * the instances', is enabled, filtered and triggered by the same code.
 */
struct trace_event_file {
	struct trace_event_call *call; /* NULL: an instance's file whose event was removed */
	struct trace_array *tr;
	struct trace_event_file *next; /* an instance's: the call's next instance file */
	/*
	 * An instance's: its next file (every one it was given, events removed since too). A file
	 * never moves and is freed only at rmdir: probes and open files point at it.
	 */
	struct trace_event_file *tr_next;
	unsigned long flags; /* EVENT_FILE_FL_*, read by the probe without a lock */
	/*
	 * By the user (its enable file, set_event) or by a trigger (soft mode): Linux's
	 * EVENT_FILE_FL_ENABLED. A soft-disabled file is enabled but records nothing.
	 */
	bool enabled;
	/*
	 * Its filter (trace/trace_events_filter.h), the program every record is checked against
	 * before it goes into the buffer, or NULL: records are kept without a check. Read by the
	 * probe; a replaced one is freed only once no probe can still be running it.
	 */
	struct event_filter *filter;
	char *filter_err; /* the report on a refused filter, which the filter file shows */
	/*
	 * Triggers (trace/trace_events_trigger.h): newest first, read by the probe without a
	 * lock. sm_ref: the triggers that hold it in soft mode (its own and the enable_event/
	 * disable_event triggers of other events of the same array that name it); tm_ref: its own.
	 */
	struct event_trigger_data *triggers;
	int sm_ref, tm_ref;
	struct dentry *dir; /* its events/SYSTEM/NAME/ */
};

struct trace_event_call {
	const char *system; /* "sched" */
	const char *name; /* "sched_switch" */
	const struct trace_event_field *fields; /* in record order, up to TRACE_FIELD_END */
	/* or what gives them, for an event of trace/define_trace.h's: fields is set at boot */
	const struct trace_event_field *(*define_fields)(void);
	unsigned int size; /* sizeof the record's struct (strings come after) */
	const char *print_fmt; /* how tools print a record, in Linux's syntax */
	/*
	 * .type: the id, given at boot (or fixed, for IGNORE_ENABLE events); .trace: prints a
	 * record (IGNORE_ENABLE events have none: their tracer registers the output)
	 */
	struct trace_event event;
	struct tracepoint *tp; /* where its probe is attached when it is enabled */
	void *probe; /* void probe(void *call, the tracepoint's arguments...) */
	unsigned int flags; /* TRACE_EVENT_FL_* */
	/*
	 * Events that share one probe (syscalls:*, one probe for every call's sys_enter_NAME):
	 * attaches (on) or detaches what this event needs, instead of tp and probe being
	 * registered for it alone; 0 or a negative errno. NULL for the others, but ftrace:print,
	 * whose reg attaches nothing and lets its triggers hold it (trace/trace_export.c).
	 */
	int (*reg)(struct trace_event_call *call, bool on);
	void *data; /* the event's own, for reg and its output (the syscall's metadata) */

	/* Set at boot or under event_mutex. */
	/*
	 * The top level's (global_trace's) trace_event_file, embedded: the probe's fast path
	 * reads its flags and filter at a fixed offset from the call, with no lookup.
	 */
	struct trace_event_file file;
	int tracer_refs; /* by tracers that record it while they are current */
	bool registered; /* its probe is attached: file.enabled || tracer_refs || nr_inst_enabled */
	struct list_head list; /* on ftrace_events, sorted by system then name */
	/*
	 * Instances (trace/trace_instances.c): each has a struct trace_event_file for this
	 * event, on this list (newest first; read by the probe without a lock, so a file is
	 * freed only after it is unlinked and every CPU is past the probes). nr_inst_enabled:
	 * how many of them are enabled (record it, or a trigger holds it).
	 */
	struct trace_event_file *inst_files;
	int nr_inst_enabled;
};

/* Events register themselves: a pointer in the .trace_events section (linker.ld). */
#define REGISTER_TRACE_EVENT(call)                                                       \
	static struct trace_event_call *const __trace_event_ptr_##call __used __section( \
		".trace_events") __aligned(8) = &(call)

extern struct list_head ftrace_events; /* every event, sorted by system then name */
extern struct mutex event_mutex; /* the events' enable state */

/*
 * Boot: sorts the events of the section, gives each its id and output, makes events/,
 * set_event and available_events (trace/trace_events_fs.c).
 */
void event_trace_early_init(void); /* boot: the events, no files yet */
void event_trace_init(void);
/* Adds events to ftrace_events (the boot adds the section's), then gives ids to new ones. */
void trace_events_add(struct trace_event_call *const *calls, int nr);
/* Into ftrace_events at its sorted place; false if one of that system and name is there. */
bool event_insert(struct trace_event_call *call);
/*
 * Events made and removed at run time (probe events, trace/trace_probe.c), Linux's names:
 * trace_add_event_call gives the event its id, its place and its files (0, -EEXIST, -ENOSPC,
 * -ENOMEM); trace_remove_event_call takes them away, -EBUSY while it is enabled anywhere, held
 * by a trigger, or one of its files is open. Both take event_mutex.
 */
int trace_add_event_call(struct trace_event_call *call);
int trace_remove_event_call(struct trace_event_call *call);
/*
 * A file's events/SYSTEM/NAME/ in its array (and the system's directory if it is new), 0 or
 * -ENOMEM; and the opposite (the system's goes with its last event). event_mutex held.
 */
int event_add_files(struct trace_event_file *file);
void event_remove_files(struct trace_event_file *file);
/*
 * An event made at run time gets a file (and its directory) in every instance that exists
 * (trace/trace_instances.c): 0 or -ENOMEM. When it goes, its files in the instances go with
 * it: 0, or -EBUSY (nothing changed) while one is enabled or one of their files is open.
 */
int trace_instances_add_event(struct trace_event_call *call);
int trace_instances_remove_event(struct trace_event_call *call);
int event_trace_init_tracefs(void);

/*
 * A set_event word, Linux's grammar: "system:event", "system:" or "system:*" (all of a
 * system), "*:event" or ":event", "*:*", or a bare "name" (an event or a system of that
 * name); a leading '!' disables. Parsing cuts word in place. match/sub/event NULL: any.
 */
struct trace_event_selector {
	const char *match; /* a bare name: matches an event's name or its system */
	const char *sub; /* the system */
	const char *event; /* the event's name */
	int set; /* 1 enable, 0 disable ('!') */
};
void trace_event_parse_selector(char *word, struct trace_event_selector *sel);
bool trace_event_selector_matches(const struct trace_event_selector *sel,
				  const struct trace_event_call *call);
bool trace_event_selector_any(const struct trace_event_selector *sel); /* matches some event */

/*
 * Enabling, event_mutex held; each returns 0 or a negative errno.
 * __ftrace_set_clr_event: every file of tr that sel matches (the first error; the others are
 * still done), -EINVAL if none; ftrace_set_clr_event: the same for the top level.
 * ftrace_event_enable_disable: one file, by the user; trace_event_enable_disable: the top
 * level's file of call.
 */
int __ftrace_set_clr_event(struct trace_array *tr, const struct trace_event_selector *sel);
int ftrace_set_clr_event(const struct trace_event_selector *sel);
int ftrace_event_enable_disable(struct trace_event_file *file, int enable);
int trace_event_enable_disable(struct trace_event_call *call, int enable);
/*
 * Linux's __ftrace_event_enable_disable(): with soft_disable, a trigger's hold (soft mode:
 * the probe stays attached while any trigger needs it, and the file records only if it is
 * enabled too); without, the user's enable. The same for the top level's file and an
 * instance's: the probe is attached while any file of the event is enabled.
 */
int __ftrace_event_enable_disable(struct trace_event_file *file, int enable, int soft_disable);
/* A tracer that records events while it is current: takes or drops a hold on one event. */
int trace_event_tracer_hold(const char *system, const char *name, bool hold);

/*
 * tr's event files, in ftrace_events' order: the first (file NULL) or the one after file;
 * NULL at the end. event_mutex held (or tr's files cannot change: boot).
 */
struct trace_event_file *trace_event_file_next(struct trace_array *tr,
					       struct trace_event_file *file);
#define for_each_event_file(tr, file)                          \
	for ((file) = trace_event_file_next(tr, NULL); (file); \
	     (file) = trace_event_file_next(tr, file))
/* tr's file of system:event, Linux's find_event_file(): NULL if none or IGNORE_ENABLE. */
struct trace_event_file *find_event_file(struct trace_array *tr, const char *system,
					 const char *event);

/*
 * events/ and set_event of a trace array (trace/trace_events_fs.c), the top level's at boot
 * and each instance's at mkdir (Linux's event_trace_add_tracer()): the files point at tr's
 * trace_event_files. The memory it allocates is freed by event_trace_del_tracer(), once the
 * files are gone.
 */
struct dentry;
int event_trace_add_tracer(struct trace_array *tr, struct dentry *parent);
void event_trace_del_tracer(struct trace_array *tr);

/*
 * Recording, from probes (interrupts off). reserve returns the record, its trace_entry
 * filled (type = the event's id, the context, the pid), or NULL if nothing is to be recorded;
 * the caller fills its fields and commits. The record of an event with a filter is built
 * aside, and commit copies it into the buffer only if the filter keeps it.
 */
void *trace_event_buffer_reserve(struct trace_event_call *call, unsigned long len);
/*
 * The same for an event about a second task, pid (sched_switch's next, sched_wakeup's wakee):
 * set_event_pid keeps it if either task is kept, as Linux's sched probes of the pid filter do.
 */
void *trace_event_buffer_reserve_pid(struct trace_event_call *call, unsigned long len, int pid);
/* rec: what trace_event_buffer_reserve returned, filled in; len: as asked for there. */
void trace_event_buffer_commit(struct trace_event_call *call, void *rec, unsigned long len);
/* tp_printk, /proc/sys/kernel/tracepoint_printk: events are printk'ed too. */
extern unsigned long tracepoint_printk;
/*
 * A TRACE_FIELD_STRING's value: copies len - 1 bytes of str and a NUL to rec + offset (room
 * the caller reserved), and sets *loc to point at them.
 */
void trace_event_set_str(void *rec, uint32_t *loc, unsigned int offset, const char *str,
			 unsigned int len);

/* --- the text side (trace/trace_events_text.c) ---------------------------------------------- */

/* struct trace_entry's fields, common_type to common_pid, up to TRACE_FIELD_END. */
extern const struct trace_event_field trace_common_fields[];

/* The format file of call: name, ID, the fields with the common ones first, print fmt. */
void trace_event_print_format(struct trace_seq *s, const struct trace_event_call *call);
/*
 * The same a line at a time: flush(s, data) takes s's text after each field and at the end (a
 * probe event of 128 arguments has a format file longer than s holds).
 */
void trace_event_print_format_flush(struct trace_seq *s, const struct trace_event_call *call,
				    void (*flush)(struct trace_seq *s, void *data), void *data);

/*
 * For output functions. trace_raw_output_prep prints "name: " and returns the record, or
 * prints a note and returns NULL if the record is shorter than the event's struct.
 * trace_event_get_str returns a TRACE_FIELD_STRING's text and puts its length in *len (the
 * string is checked to lie inside the record: a bad one reads as "").
 */
void *trace_raw_output_prep(struct trace_iterator *iter, struct trace_event *event);
const char *trace_event_get_str(struct trace_iterator *iter, uint32_t loc, int *len);

/* The event a trace_event belongs to (output functions get the trace_event). */
static inline notrace struct trace_event_call *trace_event_call_of(struct trace_event *event)
{
	return container_of(event, struct trace_event_call, event);
}

#endif
