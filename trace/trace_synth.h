/*
 * Synthetic events (trace/trace_events_synth.c), Linux 6.1's kernel/trace/trace_synth.h and the
 * in-kernel part of include/linux/trace_events.h: an event whose fields the user declares and
 * whose records other code writes, a hist trigger's action or a caller of synth_event_trace().
 */
#ifndef TRACE_TRACE_SYNTH_H
#define TRACE_TRACE_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "trace/trace_dynevent.h"
#include "trace/trace_events.h"
#include "trace/trace_events_filter.h" /* MAX_FILTER_STR_VAL */

#define SYNTH_SYSTEM "synthetic"
#define SYNTH_FIELDS_MAX 64 /* Linux 6.1's */
/*
 * The room a "char name[N]" field takes in a record whatever N is (N is what the format file
 * says), Linux's STR_VAR_LEN_MAX: a multiple of the u64 slots the record is made of.
 */
#define STR_VAR_LEN_MAX MAX_FILTER_STR_VAL
_Static_assert(STR_VAR_LEN_MAX % sizeof(uint64_t) == 0, "a string field is whole u64 slots");

struct module;

/* One field, as declared: "char name[16]" is type "char[16]", name "name". */
struct synth_field {
	char *type; /* "u64", "unsigned int", "char[16]", "__data_loc char[]" */
	char *name;
	size_t size; /* the format file's size: N for char[N], 8 for a __data_loc */
	unsigned int offset; /* in u64 slots after struct trace_entry */
	unsigned int field_pos; /* its place among the fields, from 0 */
	bool is_signed;
	bool is_string; /* char[N] or char[] */
	bool is_dynamic; /* char[]: a __data_loc word in its slot, the text after the slots */
};

struct synth_event {
	struct dyn_event devent; /* on dyn_event_list: dynamic_events lists it */
	/*
	 * On the list of synthetic events, which find_synth_event() walks: changed with both
	 * dyn_event_mutex and event_mutex held, so either lets one read it (a hist trigger's
	 * parser holds event_mutex only, and other kinds change dyn_event_list without it).
	 */
	struct list_head synth_list;
	/*
	 * Holds that keep it from being removed (EBUSY): hist triggers whose actions write it,
	 * in-kernel users (trace_get_event_file). Changed under event_mutex.
	 */
	int ref;
	char *name;
	struct synth_field **fields;
	unsigned int n_fields;
	unsigned int n_u64; /* the record's slots after struct trace_entry */
	struct synth_field **dynamic_fields; /* the char[] ones, in order */
	unsigned int n_dynamic_fields;
	struct trace_event_field *tfields; /* the format file's (call.fields), up to the end mark */
	/* Some file of it is enabled (its reg): the writers test this before building a record. */
	bool enabled;
	struct trace_event_call call;
	struct module *mod; /* the module that made it with synth_event_create(), or NULL */
};

/* The record: the common fields, then a u64 slot per number, 32 per char[N], 1 per char[]. */
struct synth_trace_event {
	struct trace_entry ent;
	uint64_t fields[];
};

/* A synthetic event by name; NULL if none. dyn_event_mutex or event_mutex held. */
struct synth_event *find_synth_event(const char *name);

/*
 * Writes a record of event from vals, one u64 per field in field order (a string field's is a
 * char pointer), if the event is enabled anywhere: every trace array whose file of it is
 * enabled gets it, through its filter and triggers, as any event's record. Any context, with
 * preemption disabled (a probe's, a trigger's).
 */
void synth_event_fire(struct synth_event *event, const uint64_t *vals);

/* --- for kernel code (Linux's names; modules/synth_event_gen_test.c uses them) ---------------- */

struct synth_field_desc {
	const char *type; /* "u64", "char[16]", "char[]", "unsigned int" */
	const char *name;
};

/*
 * A synthetic event from a table of fields, as if "name type field; ..." had been written
 * into synthetic_events (errors land in error_log the same way). mod: the module making it
 * (its records are dropped from the buffers when it is deleted), or NULL. 0 or -errno.
 */
int synth_event_create(const char *name, struct synth_field_desc *fields, unsigned int n_fields,
		       struct module *mod);
/* Deletes it: 0, -ENOENT, or -EBUSY (enabled, held, or a file of it open). */
int synth_event_delete(const char *name);

/*
 * The event file of system:event in an instance (NULL: the top level), held so that the event
 * cannot be removed until trace_put_event_file(): a pointer, or NULL if there is no such
 * instance or event.
 */
struct trace_event_file *trace_get_event_file(const char *instance, const char *system,
					      const char *event);
void trace_put_event_file(struct trace_event_file *file);

/*
 * Writes a record of file's synthetic event: n_vals values, cast to u64 (strings as char
 * pointers), one per field in order. 0 (also when the event is not enabled: nothing to do),
 * -EINVAL if file is no synthetic event's or n_vals is not its number of fields. Lucid has one
 * record path per event, so the record goes to every trace array where the event is enabled,
 * as a hist trigger's does; Linux's goes to file's array only.
 */
int synth_event_trace(struct trace_event_file *file, unsigned int n_vals, ...);
int synth_event_trace_array(struct trace_event_file *file, uint64_t *vals, unsigned int n_vals);

/* Boot: synthetic_events, and the 's:' kind of dynamic_events. */
void trace_events_synth_init(void);

#endif
