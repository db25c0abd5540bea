/*
 * Hist triggers: "hist:keys=common_pid:vals=bytes_req" on an event aggregates its hits into a
 * histogram, read from events/SYSTEM/EVENT/hist (trace/trace_events_hist.c; the design is in
 * docs/design/hist.md). The structures are Linux's (kernel/trace/trace_events_hist.c), so that
 * variables, expressions and actions are added the way Linux has them.
 */
#ifndef TRACE_TRACE_EVENTS_HIST_H
#define TRACE_TRACE_EVENTS_HIST_H

#include <stdbool.h>
#include <stdint.h>
#include "trace/tracing_map.h"
#include "trace/trace_events.h"
#include "trace/trace_synth.h" /* SYNTH_FIELDS_MAX, STR_VAR_LEN_MAX */

#define HIST_FIELD_OPERANDS_MAX 2
#define HIST_FIELDS_MAX (TRACING_MAP_FIELDS_MAX + TRACING_MAP_VARS_MAX)
#define HIST_ACTIONS_MAX 8
#define HIST_STACKTRACE_DEPTH 16
#define HIST_STACKTRACE_SIZE (HIST_STACKTRACE_DEPTH * sizeof(unsigned long))
#define HIST_KEY_SIZE_MAX (MAX_FILTER_STR_VAL + HIST_STACKTRACE_SIZE)
#define HITCOUNT_IDX 0 /* fields[0] is always the hitcount */
#define HIST_CONST_DIGITS_MAX 21 /* a u64 in decimal, and its NUL */
#define HIST_DIV_SHIFT 20 /* division by a constant: x * (2^20 / c) >> 20, as Linux's */
#define HIST_SUBEXPRS_MAX 3 /* "Too many subexpressions (3 max)" */

/* What a hist_field is and how it prints: Linux 6.1's HIST_FIELD_FL_* (the same bits). */
enum hist_field_flags {
	HIST_FIELD_FL_HITCOUNT = 1 << 0,
	HIST_FIELD_FL_KEY = 1 << 1,
	HIST_FIELD_FL_STRING = 1 << 2,
	HIST_FIELD_FL_HEX = 1 << 3,
	HIST_FIELD_FL_SYM = 1 << 4,
	HIST_FIELD_FL_SYM_OFFSET = 1 << 5,
	HIST_FIELD_FL_EXECNAME = 1 << 6,
	HIST_FIELD_FL_SYSCALL = 1 << 7,
	HIST_FIELD_FL_STACKTRACE = 1 << 8,
	HIST_FIELD_FL_LOG2 = 1 << 9,
	HIST_FIELD_FL_TIMESTAMP = 1 << 10,
	HIST_FIELD_FL_TIMESTAMP_USECS = 1 << 11,
	HIST_FIELD_FL_VAR = 1 << 12,
	HIST_FIELD_FL_EXPR = 1 << 13,
	HIST_FIELD_FL_VAR_REF = 1 << 14,
	HIST_FIELD_FL_CPU = 1 << 15,
	HIST_FIELD_FL_ALIAS = 1 << 16,
	HIST_FIELD_FL_BUCKET = 1 << 17,
	HIST_FIELD_FL_CONST = 1 << 18,
};

/*
 * How a field's value is computed on a hit (hist_fn_call): a switch, not a function pointer,
 * as Linux 6.1 has it (no indirect call on the hit path).
 */
enum hist_field_fn {
	HIST_FIELD_FN_NOP,
	HIST_FIELD_FN_VAR_REF,
	HIST_FIELD_FN_COUNTER,
	HIST_FIELD_FN_CONST,
	HIST_FIELD_FN_LOG2,
	HIST_FIELD_FN_BUCKET,
	HIST_FIELD_FN_TIMESTAMP,
	HIST_FIELD_FN_CPU,
	HIST_FIELD_FN_STRING, /* char name[N] */
	HIST_FIELD_FN_DYNSTRING, /* __data_loc char[] */
	HIST_FIELD_FN_TAILSTRING, /* char buf[] at the record's end (ftrace:print's buf) */
	HIST_FIELD_FN_S64,
	HIST_FIELD_FN_U64,
	HIST_FIELD_FN_S32,
	HIST_FIELD_FN_U32,
	HIST_FIELD_FN_S16,
	HIST_FIELD_FN_U16,
	HIST_FIELD_FN_S8,
	HIST_FIELD_FN_U8,
	HIST_FIELD_FN_UMINUS,
	HIST_FIELD_FN_MINUS,
	HIST_FIELD_FN_PLUS,
	HIST_FIELD_FN_DIV,
	HIST_FIELD_FN_MULT,
	HIST_FIELD_FN_DIV_POWER2, /* by a constant: a shift */
	HIST_FIELD_FN_DIV_NOT_POWER2, /* by a big constant: a division */
	HIST_FIELD_FN_DIV_MULT_SHIFT, /* by a small constant: Linux's multiply and shift */
	HIST_FIELD_FN_EXECNAME,
};

enum field_op_id {
	FIELD_OP_NONE,
	FIELD_OP_PLUS,
	FIELD_OP_MINUS,
	FIELD_OP_UNARY_MINUS,
	FIELD_OP_DIV,
	FIELD_OP_MULT,
};

struct hist_trigger_data;

/* A variable (name=...) of a histogram: its name, whose it is, its index in the map's vars. */
struct hist_var {
	char *name;
	struct hist_trigger_data *hist_data;
	unsigned int idx;
};

/*
 * One key, value, variable or operand. fields[] of a hist_trigger_data holds the values
 * first (hitcount at 0), then the variables, then the keys, as Linux's.
 */
struct hist_field {
	const struct trace_event_field *field; /* the event's field, or NULL */
	unsigned long flags; /* HIST_FIELD_FL_* */
	unsigned long buckets; /* .buckets=N */
	const char *type; /* the field's type ("pid_t"), for named-histogram matching */
	struct hist_field *operands[HIST_FIELD_OPERANDS_MAX]; /* .log2/.buckets: the field */
	struct hist_trigger_data *hist_data;
	enum hist_field_fn fn_num;
	unsigned int ref;
	/* a key's: its size and offset in the map's key (sizes rounded up to 8) */
	unsigned int size;
	unsigned int offset;
	bool is_signed;
	struct hist_var var; /* a variable's (HIST_FIELD_FL_VAR) or a reference's */
	enum field_op_id operator;
	char *system, *event_name; /* a reference to another event's variable */
	char *name; /* an expression's or a reference's */
	unsigned int var_ref_idx; /* a reference's slot in var_ref_vals[] */
	bool read_once;
	unsigned int var_str_idx; /* a string variable's slot among its entry's strings */
	uint64_t constant; /* HIST_FIELD_FL_CONST */
	uint64_t div_multiplier; /* a constant divisor's 2^HIST_DIV_SHIFT / divisor, as Linux's */
};

/*
 * A variable made for an event field that an action names (onmatch's trace() parameters,
 * save()'s): var is the variable, val reads the field. Linux's struct field_var.
 */
struct field_var {
	struct hist_field *var;
	struct hist_field *val;
};

/*
 * A histogram made on another event for a trace() parameter that names one of that event's
 * fields (Linux's struct field_var_hist): "keys=<the matched histogram's keys>:synthetic_FIELD=
 * FIELD [if its filter]" on file, made by create_field_var_hist().
 */
struct field_var_hist {
	struct hist_trigger_data *hist_data; /* the hidden histogram */
	struct trace_event_file *file; /* its event */
};

/* A trigger's words, as parse_hist_trigger_attrs() sorted them. */
struct hist_trigger_attrs {
	char *keys_str;
	char *vals_str;
	char *sort_key_str;
	char *name; /* "name=foo", as written */
	char *clock;
	bool pause, cont, clear, ts_in_usecs;
	unsigned int map_bits;
	char *assignment_str[TRACING_MAP_VARS_MAX]; /* "ts0=common_timestamp" */
	unsigned int n_assignments;
	char *action_str[HIST_ACTIONS_MAX]; /* "onmatch(...).trace(...)" */
	unsigned int n_actions;
	/* the assignments cut into name and expression, while the fields are made */
	unsigned int n_var_defs;
	char *var_def_name[TRACING_MAP_VARS_MAX];
	char *var_def_expr[TRACING_MAP_VARS_MAX];
};

struct action_data;

/* One histogram: its fields, sort keys and map. Shared by the triggers of one :name=. */
struct hist_trigger_data {
	struct hist_field *fields[HIST_FIELDS_MAX];
	unsigned int n_vals; /* hitcount, the vals= ones and the variables */
	unsigned int n_keys;
	unsigned int n_fields;
	unsigned int n_vars;
	unsigned int key_size;
	struct tracing_map_sort_key sort_keys[TRACING_MAP_SORT_KEYS_MAX];
	unsigned int n_sort_keys;
	struct trace_event_file *event_file;
	struct hist_trigger_attrs *attrs;
	struct tracing_map *map;
	bool enable_timestamps;
	bool remove; /* made for a "!hist:" write, to match the one to remove */
	bool has_execname; /* an entry keeps its task's name (.execname) */
	bool simple_key; /* one key, a number: the hit needs no key buffer */
	/*
	 * Variables, references or actions: the hit takes hist_trigger_update_vars(), from the
	 * compound key's path (simple_key is then false), out of line.
	 */
	bool has_vars;
	/*
	 * Its triggers (each one's event_trigger_data.private_data is this): a ":name=" histogram
	 * is shared by every trigger of that name, on named_next's list while ref > 0. clearing:
	 * ":clear" is emptying the map, hits stay out.
	 */
	unsigned int ref;
	bool clearing;
	struct hist_trigger_data *named_next;
	/*
	 * References to variables ("$ts0", this histogram's or another's), in the order a hit
	 * resolves them into var_ref_vals[]; and the actions (onmatch, onmax, onchange).
	 */
	struct hist_field *var_refs[TRACING_MAP_VARS_MAX];
	unsigned int n_var_refs;
	struct action_data *actions[HIST_ACTIONS_MAX];
	unsigned int n_actions;
	/*
	 * Variables an action made of event fields, and save()'s; each string among them, and
	 * each string variable (name=stringfield), has a STR_VAR_LEN_MAX slot in every entry.
	 */
	struct field_var *field_vars[SYNTH_FIELDS_MAX];
	unsigned int n_field_vars, n_field_var_str;
	struct field_var *save_vars[SYNTH_FIELDS_MAX];
	unsigned int n_save_vars, n_save_var_str;
	unsigned int n_var_str;
	/*
	 * The hidden histograms made for this one's parameters on other events; and, on such a
	 * hidden histogram, how many histograms use it (the last one to go removes it).
	 */
	struct field_var_hist *field_var_hists[SYNTH_FIELDS_MAX];
	unsigned int n_field_var_hists;
	unsigned int field_var_users;
};

/* The value of field for the record rec (len bytes) and the map entry elt (NULL: none yet). */
uint64_t hist_fn_call(struct hist_field *hist_field, struct tracing_map_elt *elt, void *rec,
		      unsigned int len);

/* events/SYSTEM/EVENT/hist (trace/trace_events_fs.c makes one per event file). */
struct file_operations;
extern const struct file_operations event_hist_fops;
/* events/SYSTEM/EVENT/hist_debug: each histogram's fields (Linux's, with the hist_debug option). */
extern const struct file_operations event_hist_debug_fops;

/*
 * The clock a trigger file's write just checked needs (a histogram reading common_timestamp:
 * its clock=, "global" by default, as Linux sets it), set on tr now; called by the write between
 * its check and its application, with no tracing lock held. 0, or tracing_set_clock()'s error.
 */
struct trace_array;
int hist_trigger_set_clock(struct trace_array *tr);

/* system-call names for .syscall: "sys_read", or NULL (trace/trace_syscalls.c, Linux's). */
const char *get_syscall_name(int syscall);

#endif
