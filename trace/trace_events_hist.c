/* Hist triggers: histograms of an event's hits, kept in the kernel and read from its hist file. */

/*
 *   # echo 'hist:keys=common_pid.execname:vals=bytes_req:sort=bytes_req.descending' \
 *         > events/kmem/kmalloc/trigger
 *   # cat events/kmem/kmalloc/hist
 *   { common_pid: bash            [       312] } hitcount:         42  bytes_req:      12544
 *
 * Each hit of the event computes the key from the record (one to three fields, or the stack),
 * finds or makes its entry in a tracing_map (trace/tracing_map.c: lock-free, preallocated),
 * and adds 1 to its hitcount and each vals= field to its sums. Reading the hist file sorts
 * the entries and prints them in Linux 6.1's layout, line for line. docs/design/hist.md tells
 * the whole design; the grammar and the words are Linux's (Documentation/trace/histogram.rst):
 *
 *   hist:keys=<field1[,field2,...]>[:vals=<field1,...>][:sort=<field1[.descending],...>]
 *        [:size=#entries][:pause][:continue][:clear][:name=histname1] [if <filter>]
 *
 *   modifiers: .hex .sym .sym-offset .execname (common_pid) .syscall .log2 .buckets=N, and
 *   .usecs, parsed for common_timestamp, which comes with the variables
 *
 * A trigger is parsed into a struct hist_trigger_data: fields[] holds the values first
 * (hitcount at 0, then vals=), then the keys, as in Linux, and the map's fields are made in
 * that order, so a value's index is its sum's index and a sort key names a map field. A
 * refused definition fails with EINVAL and an error_log line with Linux's sentence and caret
 * (column of the word in "hist:" + what was written after it, Linux's last_cmd).
 *
 * Triggers of this command hang on the event file's trigger list like the others (trace/
 * trace_events_trigger.c), but after them (Linux adds hist triggers at the tail), several per
 * event, and they need the record: the probe builds it aside and runs them at commit. A
 * ":name=" histogram is one hist_trigger_data shared by every trigger of that name, counted
 * by ref and freed with its last trigger.
 *
 * Variables, expressions and actions, as Linux 6.1's: "ts0=common_timestamp.usecs" is a
 * variable of each entry, set on every hit; "$ts0" in another histogram reads it back, looked
 * up with that histogram's key (the same pid), once; expressions combine fields, numbers and
 * references with + - * / and -( ). An action runs after the entry is updated:
 * onmatch(SYS.EVENT).trace(synth, params) writes a synthetic event (trace/trace_events_synth.c),
 * onmax($var)/onchange($var) keep the entry's maximum (or last value) and then save() fields,
 * snapshot() the buffer, or trace(). A hit whose references are not all set for its key (no
 * wakeup seen for this pid yet) leaves no trace. A histogram whose variable another uses cannot
 * be removed (EBUSY), nor a synthetic event an action writes.
 *
 * Not traced, as all of trace/: the hit runs inside any event's probe.
 */
#include "trace/trace_events_hist.h"
#include "trace/trace_error_log.h"
#include "trace/trace_events_filter.h"
#include "trace/trace_events_trigger.h"
#include "trace/trace.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/vfs.h"
#include "kernel/kallsyms.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
#include "trace/ring_buffer.h"
#include "trace/ftrace_probe.h" /* trace_snapshot_request */
#include "kernel/mm/kmalloc.h"
#include "kernel/locking/lockdep.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/sched.h"
#include "kernel/tracepoint.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"

#define HIST_PREFIX "hist:"
#define HIST_STACKTRACE_SLACK 8 /* frames of the tracer itself, above the event's caller */
#define KSYM_NAME_LEN 128 /* a symbol and its offset, for .sym and stack keys */
#define HIST_STACK_INDENT 8 /* a stack key's frames: Linux's 1 + 8 columns */
#define TRACEPOINT_FN_PREFIX "__do_trace_"

/* --- errors: Linux 6.1's sentences, in its order (error_log shows them) ----------------------- */

enum hist_err {
	HIST_ERR_NONE,
	HIST_ERR_DUPLICATE_VAR,
	HIST_ERR_VAR_NOT_UNIQUE,
	HIST_ERR_TOO_MANY_VARS,
	HIST_ERR_MALFORMED_ASSIGNMENT,
	HIST_ERR_NAMED_MISMATCH,
	HIST_ERR_TRIGGER_EEXIST,
	HIST_ERR_TRIGGER_ENOENT_CLEAR,
	HIST_ERR_SET_CLOCK_FAIL,
	HIST_ERR_BAD_FIELD_MODIFIER,
	HIST_ERR_TOO_MANY_SUBEXPR,
	HIST_ERR_TIMESTAMP_MISMATCH,
	HIST_ERR_TOO_MANY_FIELD_VARS,
	HIST_ERR_EVENT_FILE_NOT_FOUND,
	HIST_ERR_HIST_NOT_FOUND,
	HIST_ERR_HIST_CREATE_FAIL,
	HIST_ERR_SYNTH_VAR_NOT_FOUND,
	HIST_ERR_SYNTH_EVENT_NOT_FOUND,
	HIST_ERR_SYNTH_TYPE_MISMATCH,
	HIST_ERR_SYNTH_COUNT_MISMATCH,
	HIST_ERR_FIELD_VAR_PARSE_FAIL,
	HIST_ERR_VAR_CREATE_FIND_FAIL,
	HIST_ERR_ONX_NOT_VAR,
	HIST_ERR_ONX_VAR_NOT_FOUND,
	HIST_ERR_ONX_VAR_CREATE_FAIL,
	HIST_ERR_FIELD_VAR_CREATE_FAIL,
	HIST_ERR_TOO_MANY_PARAMS,
	HIST_ERR_PARAM_NOT_FOUND,
	HIST_ERR_INVALID_PARAM,
	HIST_ERR_ACTION_NOT_FOUND,
	HIST_ERR_NO_SAVE_PARAMS,
	HIST_ERR_TOO_MANY_SAVE_ACTIONS,
	HIST_ERR_ACTION_MISMATCH,
	HIST_ERR_NO_CLOSING_PAREN,
	HIST_ERR_SUBSYS_NOT_FOUND,
	HIST_ERR_INVALID_SUBSYS_EVENT,
	HIST_ERR_INVALID_REF_KEY,
	HIST_ERR_VAR_NOT_FOUND,
	HIST_ERR_FIELD_NOT_FOUND,
	HIST_ERR_EMPTY_ASSIGNMENT,
	HIST_ERR_INVALID_SORT_MODIFIER,
	HIST_ERR_EMPTY_SORT_FIELD,
	HIST_ERR_TOO_MANY_SORT_FIELDS,
	HIST_ERR_INVALID_SORT_FIELD,
	HIST_ERR_INVALID_STR_OPERAND,
	HIST_ERR_EXPECT_NUMBER,
	HIST_ERR_UNARY_MINUS_SUBEXPR,
	HIST_ERR_DIVISION_BY_ZERO,
	HIST_ERR_MAX
};
static const char *const hist_err_text[] = {
	[HIST_ERR_NONE] = "No error",
	[HIST_ERR_DUPLICATE_VAR] = "Variable already defined",
	[HIST_ERR_VAR_NOT_UNIQUE] = "Variable name not unique, need to use fully qualified name "
				    "(subsys.event.var) for variable",
	[HIST_ERR_TOO_MANY_VARS] = "Too many variables defined",
	[HIST_ERR_MALFORMED_ASSIGNMENT] = "Malformed assignment",
	[HIST_ERR_NAMED_MISMATCH] =
		"Named hist trigger doesn't match existing named trigger (includes variables)",
	[HIST_ERR_TRIGGER_EEXIST] = "Hist trigger already exists",
	[HIST_ERR_TRIGGER_ENOENT_CLEAR] = "Can't clear or continue a nonexistent hist trigger",
	[HIST_ERR_SET_CLOCK_FAIL] = "Couldn't set trace_clock",
	[HIST_ERR_BAD_FIELD_MODIFIER] = "Invalid field modifier",
	[HIST_ERR_TOO_MANY_SUBEXPR] = "Too many subexpressions (3 max)",
	[HIST_ERR_TIMESTAMP_MISMATCH] = "Timestamp units in expression don't match",
	[HIST_ERR_TOO_MANY_FIELD_VARS] = "Too many field variables defined",
	[HIST_ERR_EVENT_FILE_NOT_FOUND] = "Event file not found",
	[HIST_ERR_HIST_NOT_FOUND] = "Matching event histogram not found",
	[HIST_ERR_HIST_CREATE_FAIL] = "Couldn't create histogram for field",
	[HIST_ERR_SYNTH_VAR_NOT_FOUND] = "Couldn't find synthetic variable",
	[HIST_ERR_SYNTH_EVENT_NOT_FOUND] = "Couldn't find synthetic event",
	[HIST_ERR_SYNTH_TYPE_MISMATCH] = "Param type doesn't match synthetic event field type",
	[HIST_ERR_SYNTH_COUNT_MISMATCH] = "Param count doesn't match synthetic event field count",
	[HIST_ERR_FIELD_VAR_PARSE_FAIL] = "Couldn't parse field variable",
	[HIST_ERR_VAR_CREATE_FIND_FAIL] = "Couldn't create or find variable",
	[HIST_ERR_ONX_NOT_VAR] = "For onmax(x) or onchange(x), x must be a variable",
	[HIST_ERR_ONX_VAR_NOT_FOUND] = "Couldn't find onmax or onchange variable",
	[HIST_ERR_ONX_VAR_CREATE_FAIL] = "Couldn't create onmax or onchange variable",
	[HIST_ERR_FIELD_VAR_CREATE_FAIL] = "Couldn't create field variable",
	[HIST_ERR_TOO_MANY_PARAMS] = "Too many action params",
	[HIST_ERR_PARAM_NOT_FOUND] = "Couldn't find param",
	[HIST_ERR_INVALID_PARAM] = "Invalid action param",
	[HIST_ERR_ACTION_NOT_FOUND] = "No action found",
	[HIST_ERR_NO_SAVE_PARAMS] = "No params found for save()",
	[HIST_ERR_TOO_MANY_SAVE_ACTIONS] = "Can't have more than one save() action per hist",
	[HIST_ERR_ACTION_MISMATCH] = "Handler doesn't support action",
	[HIST_ERR_NO_CLOSING_PAREN] = "No closing paren found",
	[HIST_ERR_SUBSYS_NOT_FOUND] = "Missing subsystem",
	[HIST_ERR_INVALID_SUBSYS_EVENT] = "Invalid subsystem or event name",
	[HIST_ERR_INVALID_REF_KEY] = "Using variable references in keys not supported",
	[HIST_ERR_VAR_NOT_FOUND] = "Couldn't find variable",
	[HIST_ERR_FIELD_NOT_FOUND] = "Couldn't find field",
	[HIST_ERR_EMPTY_ASSIGNMENT] = "Empty assignment",
	[HIST_ERR_INVALID_SORT_MODIFIER] = "Invalid sort modifier",
	[HIST_ERR_EMPTY_SORT_FIELD] = "Empty sort field",
	[HIST_ERR_TOO_MANY_SORT_FIELDS] = "Too many sort fields (Max = 2)",
	[HIST_ERR_INVALID_SORT_FIELD] = "Sort field must be a key or a val",
	[HIST_ERR_INVALID_STR_OPERAND] = "String type can not be an operand in expression",
	[HIST_ERR_EXPECT_NUMBER] = "Expecting numeric literal",
	[HIST_ERR_UNARY_MINUS_SUBEXPR] = "Unary minus not supported in sub-expressions",
	[HIST_ERR_DIVISION_BY_ZERO] = "Division by zero",
};
_Static_assert(ARRAY_SIZE(hist_err_text) == HIST_ERR_MAX, "a sentence for every error");

/*
 * The write being parsed, as error_log shows it ("hist:" and what followed "hist:") and where
 * ("hist:SYSTEM:EVENT"): Linux's last_cmd. Only touched under event_mutex.
 */
static char *last_cmd;
static char last_cmd_loc[TRACING_LOG_LOC_MAX];

/* The caret's column: where str's text first occurs in last_cmd (Linux's errpos()). */
static unsigned int errpos(const char *str)
{
	if (!str || !last_cmd)
		return 0;
	return err_pos(last_cmd, str);
}

static void last_cmd_set(struct trace_event_file *file, const char *str)
{
	size_t len;

	kfree(last_cmd);
	last_cmd = NULL;
	last_cmd_loc[0] = '\0';
	if (!str)
		return;
	len = strlen(HIST_PREFIX) + strlen(str) + 1;
	last_cmd = kmalloc(len);
	if (!last_cmd)
		return;
	snprintf(last_cmd, len, HIST_PREFIX "%s", str);
	snprintf(last_cmd_loc, sizeof(last_cmd_loc), HIST_PREFIX "%s:%s", file->call->system,
		 file->call->name);
}

static struct trace_array *hist_err_tr; /* the array of the write being parsed */

/*
 * A histogram that a parse makes (or removes) on another event for a trace() parameter
 * (create_field_var_hist()) is parsed by the same function, nested: the write's last_cmd
 * stays, and its errors are the write's, as in Linux (which passes an empty glob for it).
 */
static unsigned int hist_parse_depth;

/*
 * A write is checked (trigger_check_regex(): apply false), then applied. Linux logs errors
 * on the way to a success too (a trace() parameter is first tried as a field of this event,
 * then found on the matched one), so each would be logged twice: the check's are held, and
 * logged only if the check fails; the application logs its own.
 */
#define HIST_ERRS_HELD_MAX TRACING_LOG_ERRS_MAX /* the log keeps no more */
static struct {
	unsigned int type, pos;
} hist_errs_held[HIST_ERRS_HELD_MAX];
static unsigned int n_hist_errs_held;
static bool hist_errs_hold;

static void hist_err(unsigned int err_type, unsigned int pos)
{
	if (!last_cmd)
		return;
	if (hist_errs_hold) { /* a ring: the newest stay, as in the log */
		hist_errs_held[n_hist_errs_held % HIST_ERRS_HELD_MAX].type = err_type;
		hist_errs_held[n_hist_errs_held++ % HIST_ERRS_HELD_MAX].pos = pos;
		return;
	}
	tracing_log_err(hist_err_tr, last_cmd_loc, last_cmd, hist_err_text, err_type, pos);
}

/* The check failed: what it held goes into the log, in its order. */
static void hist_errs_release(void)
{
	unsigned int i =
		n_hist_errs_held > HIST_ERRS_HELD_MAX ? n_hist_errs_held - HIST_ERRS_HELD_MAX : 0;

	hist_errs_hold = false;
	for (; i < n_hist_errs_held; i++)
		hist_err(hist_errs_held[i % HIST_ERRS_HELD_MAX].type,
			 hist_errs_held[i % HIST_ERRS_HELD_MAX].pos);
	n_hist_errs_held = 0;
}

/* The histogram of a trigger on a file's list, if it is a hist trigger; else NULL. */
static struct hist_trigger_data *hist_data_of(const struct event_trigger_data *test)
{
	if (test->cmd->trigger_type != ETT_EVENT_HIST)
		return NULL;
	return test->private_data;
}

/* --- a field's value on a hit ----------------------------------------------------------------- */

/* A string in the record: NULL if the record does not hold it whole (a bad __data_loc). */
static const char *hist_field_str(const struct hist_field *hf, const void *rec, unsigned int len,
				  unsigned int *max)
{
	const struct trace_event_field *f = hf->field;
	const char *base = rec;

	switch (hf->fn_num) {
	case HIST_FIELD_FN_STRING:
		*max = f->size;
		return base + f->offset;
	case HIST_FIELD_FN_DYNSTRING: {
		uint32_t loc;
		unsigned int off, n;

		__builtin_memcpy(&loc, base + f->offset, sizeof(loc));
		off = loc & DATA_LOC_OFFSET_MASK;
		n = loc >> DATA_LOC_LEN_SHIFT;
		if (off > len || n > len - off)
			return NULL;
		*max = n;
		return base + off;
	}
	case HIST_FIELD_FN_TAILSTRING:
		if (f->offset >= len)
			return NULL;
		*max = len - f->offset;
		return base + f->offset;
	default:
		return NULL;
	}
}

static const char no_comm[] = "(no comm)";

/*
 * The values of the references of the hit running on each CPU (its var_ref_vals[], Linux's
 * elt_data->var_ref_vals): set by event_hist_trigger() around its work, and put back after, so
 * an event that interrupts a hit and runs a hit of its own leaves the first one's in place.
 */
static uint64_t *hist_var_ref_vals[NR_CPUS];

static uint64_t hist_field_var_ref(const struct hist_field *hf)
{
	const uint64_t *vals = hist_var_ref_vals[smp_processor_id()];

	return vals ? vals[hf->var_ref_idx] : 0;
}

/*
 * common_timestamp: the trace clock now, as the record is being made (Linux reads the
 * record's own time stamp; Lucid stamps a record when it enters the buffer, after its
 * triggers ran). In microseconds if any field of the histogram says .usecs and the clock
 * counts nanoseconds, as Linux's.
 */
static uint64_t hist_field_timestamp(const struct hist_field *hf)
{
	struct hist_trigger_data *hist_data = hf->hist_data;
	struct trace_array *tr = hist_data->event_file->tr;
	uint64_t ts = ring_buffer_time_stamp(tr->buffer);

	if (hist_data->attrs->ts_in_usecs && trace_clocks[tr->clock_id].in_ns)
		ts /= NSEC_PER_USEC;
	return ts;
}

uint64_t hist_fn_call(struct hist_field *hf, struct tracing_map_elt *elt, void *rec,
		      unsigned int len)
{
	const char *p = (const char *)rec + (hf->field ? hf->field->offset : 0);

	switch (hf->fn_num) {
	case HIST_FIELD_FN_VAR_REF:
		return hist_field_var_ref(hf);
	case HIST_FIELD_FN_TIMESTAMP:
		return hist_field_timestamp(hf);
	case HIST_FIELD_FN_UMINUS:
		return (uint64_t) - (int64_t)hist_fn_call(hf->operands[0], elt, rec, len);
	case HIST_FIELD_FN_MINUS:
		return hist_fn_call(hf->operands[0], elt, rec, len) -
		       hist_fn_call(hf->operands[1], elt, rec, len);
	case HIST_FIELD_FN_PLUS:
		return hist_fn_call(hf->operands[0], elt, rec, len) +
		       hist_fn_call(hf->operands[1], elt, rec, len);
	case HIST_FIELD_FN_MULT:
		return hist_fn_call(hf->operands[0], elt, rec, len) *
		       hist_fn_call(hf->operands[1], elt, rec, len);
	case HIST_FIELD_FN_DIV: {
		uint64_t a = hist_fn_call(hf->operands[0], elt, rec, len);
		uint64_t b = hist_fn_call(hf->operands[1], elt, rec, len);

		if (!b)
			return (uint64_t)-1; /* Linux's answer for the undefined case */
		return !(b & (b - 1)) ? a >> __builtin_ctzll(b) : a / b;
	}
	case HIST_FIELD_FN_DIV_POWER2:
		return hist_fn_call(hf->operands[0], elt, rec, len) >>
		       __builtin_ctzll(hf->operands[1]->constant);
	case HIST_FIELD_FN_DIV_NOT_POWER2:
		return hist_fn_call(hf->operands[0], elt, rec, len) / hf->operands[1]->constant;
	case HIST_FIELD_FN_DIV_MULT_SHIFT: {
		/*
		 * Linux 6.1's division by a small constant: (x * (2^20 / c) + 2^20 - 1) >> 20
		 * below 2^20, which rounds up (10/3 is 4 there too), an exact division above.
		 */
		uint64_t a = hist_fn_call(hf->operands[0], elt, rec, len);

		if (a < (1ULL << HIST_DIV_SHIFT))
			return (a * hf->operands[1]->div_multiplier +
				((1ULL << HIST_DIV_SHIFT) - 1)) >>
			       HIST_DIV_SHIFT;
		return a / hf->operands[1]->constant;
	}
	case HIST_FIELD_FN_COUNTER:
		return 1;
	case HIST_FIELD_FN_CONST:
		return hf->constant;
	case HIST_FIELD_FN_LOG2: {
		uint64_t val = hist_fn_call(hf->operands[0], elt, rec, len);

		/* ilog2(roundup_pow_of_two(val)): 0 and 1 are 2^0 */
		return val <= 1 ? 0 : (uint64_t)(64 - __builtin_clzll(val - 1));
	}
	case HIST_FIELD_FN_BUCKET: {
		uint64_t val = hist_fn_call(hf->operands[0], elt, rec, len);

		return hf->buckets ? val / hf->buckets * hf->buckets : val;
	}
	case HIST_FIELD_FN_CPU:
		return (uint64_t)smp_processor_id();
	case HIST_FIELD_FN_STRING:
	case HIST_FIELD_FN_DYNSTRING:
	case HIST_FIELD_FN_TAILSTRING: {
		unsigned int max;

		return (uint64_t)(uintptr_t)hist_field_str(hf, rec, len, &max);
	}
	case HIST_FIELD_FN_EXECNAME:
		return (uint64_t)(uintptr_t)(elt && elt->private_data ? elt->private_data
								      : no_comm);
#define HIST_READ(fn, type)                         \
	case fn: {                                  \
		type v;                             \
		__builtin_memcpy(&v, p, sizeof(v)); \
		return (uint64_t)(int64_t)v;        \
	}
		HIST_READ(HIST_FIELD_FN_S64, int64_t)
		HIST_READ(HIST_FIELD_FN_U64, uint64_t)
		HIST_READ(HIST_FIELD_FN_S32, int32_t)
		HIST_READ(HIST_FIELD_FN_U32, uint32_t)
		HIST_READ(HIST_FIELD_FN_S16, int16_t)
		HIST_READ(HIST_FIELD_FN_U16, uint16_t)
		HIST_READ(HIST_FIELD_FN_S8, int8_t)
		HIST_READ(HIST_FIELD_FN_U8, uint8_t)
#undef HIST_READ
	default:
		return 0;
	}
}

/* --- the fields: making, naming, freeing ------------------------------------------------------ */

static const char *hist_field_name(const struct hist_field *field, unsigned int level)
{
	const char *field_name = "";

	if (!field || level > 1)
		return field_name;
	if (field->field)
		field_name = field->field->name;
	else if (field->flags & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_ALIAS | HIST_FIELD_FL_BUCKET))
		field_name = hist_field_name(field->operands[0], level + 1);
	else if (field->flags & HIST_FIELD_FL_CPU)
		field_name = "common_cpu";
	else if (field->flags & (HIST_FIELD_FL_EXPR | HIST_FIELD_FL_VAR_REF))
		field_name = field->name;
	else if (field->flags & HIST_FIELD_FL_TIMESTAMP)
		field_name = "common_timestamp";
	return field_name ? field_name : "";
}

static void destroy_hist_field(struct hist_field *hf, unsigned int level)
{
	if (!hf || level > 3)
		return;
	if (hf->flags & HIST_FIELD_FL_VAR_REF)
		return; /* its histogram's var_refs[] holds it: freed from there */
	for (int i = 0; i < HIST_FIELD_OPERANDS_MAX; i++)
		destroy_hist_field(hf->operands[i], level + 1);
	kfree(hf->var.name);
	kfree(hf->name);
	kfree(hf->system);
	kfree(hf->event_name);
	kfree(hf);
}

/* Linux's select_value_fn(): how a number of that size and signedness is read. */
static enum hist_field_fn select_value_fn(unsigned int size, bool is_signed)
{
	switch (size) {
	case 8:
		return is_signed ? HIST_FIELD_FN_S64 : HIST_FIELD_FN_U64;
	case 4:
		return is_signed ? HIST_FIELD_FN_S32 : HIST_FIELD_FN_U32;
	case 2:
		return is_signed ? HIST_FIELD_FN_S16 : HIST_FIELD_FN_U16;
	case 1:
		return is_signed ? HIST_FIELD_FN_S8 : HIST_FIELD_FN_U8;
	default:
		return HIST_FIELD_FN_NOP;
	}
}

/* What kind of string a field is, Linux's filter types: HIST_FIELD_FN_NOP for none. */
static enum hist_field_fn string_fn(const struct trace_event_field *f)
{
	if (strstr(f->type, "__data_loc") && strstr(f->type, "char"))
		return HIST_FIELD_FN_DYNSTRING;
	if (strchr(f->type, '[') && strstr(f->type, "char"))
		return f->size ? HIST_FIELD_FN_STRING : HIST_FIELD_FN_TAILSTRING;
	return HIST_FIELD_FN_NOP;
}

static struct hist_field *create_hist_field(struct hist_trigger_data *hist_data,
					    const struct trace_event_field *field,
					    unsigned long flags, const char *var_name)
{
	struct hist_field *hf = kzalloc(sizeof(*hf));

	if (!hf)
		return NULL;
	hf->ref = 1;
	hf->hist_data = hist_data;
	if (flags & (HIST_FIELD_FL_EXPR | HIST_FIELD_FL_ALIAS))
		goto out; /* the caller fills it in */
	if (flags & HIST_FIELD_FL_VAR_REF) {
		hf->fn_num = HIST_FIELD_FN_VAR_REF;
		goto out;
	}
	if (flags & HIST_FIELD_FL_HITCOUNT) {
		hf->fn_num = HIST_FIELD_FN_COUNTER;
		hf->size = sizeof(uint64_t);
		hf->type = "u64";
		goto out;
	}
	if (flags & HIST_FIELD_FL_CONST) {
		hf->fn_num = HIST_FIELD_FN_CONST;
		hf->size = sizeof(uint64_t);
		hf->type = "u64";
		goto out;
	}
	if (flags & HIST_FIELD_FL_STACKTRACE) {
		hf->fn_num = HIST_FIELD_FN_NOP;
		hf->type = "unsigned long[]";
		goto out;
	}
	if (flags & (HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET)) {
		unsigned long fl = flags & ~(HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_BUCKET);

		hf->fn_num = flags & HIST_FIELD_FL_LOG2 ? HIST_FIELD_FN_LOG2 : HIST_FIELD_FN_BUCKET;
		hf->operands[0] = create_hist_field(hist_data, field, fl, NULL);
		if (!hf->operands[0])
			goto free;
		hf->size = hf->operands[0]->size;
		hf->type = hf->operands[0]->type;
		goto out;
	}
	if (flags & HIST_FIELD_FL_TIMESTAMP) {
		hf->fn_num = HIST_FIELD_FN_TIMESTAMP;
		hf->size = sizeof(uint64_t);
		hf->type = "u64";
		goto out;
	}
	if (flags & HIST_FIELD_FL_CPU) {
		hf->fn_num = HIST_FIELD_FN_CPU;
		hf->size = sizeof(int);
		hf->type = "unsigned int";
		goto out;
	}
	if (!field)
		goto free;
	hf->type = field->type;
	if (string_fn(field) != HIST_FIELD_FN_NOP) {
		flags |= HIST_FIELD_FL_STRING;
		hf->fn_num = string_fn(field);
		hf->size = hf->fn_num == HIST_FIELD_FN_STRING ? field->size : MAX_FILTER_STR_VAL;
	} else {
		hf->size = field->size;
		hf->is_signed = field->is_signed;
		hf->fn_num = select_value_fn(field->size, field->is_signed);
		if (hf->fn_num == HIST_FIELD_FN_NOP)
			goto free;
	}
out:
	hf->field = field;
	hf->flags = flags;
	if (var_name) {
		hf->var.name = kstrdup(var_name);
		if (!hf->var.name)
			goto free;
	}
	return hf;
free:
	destroy_hist_field(hf, 0);
	return NULL;
}

/* An event's own field, then the common ones (Linux's trace_find_event_field()). */
static const struct trace_event_field *find_event_field(const struct trace_event_call *call,
							const char *name)
{
	for (const struct trace_event_field *f = call->fields; f && f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	for (const struct trace_event_field *f = trace_common_fields; f->name; f++)
		if (!strcmp(f->name, name))
			return f;
	return NULL;
}

/*
 * "name.modifier": sets *flags (and *buckets) from the modifier, returns the event's field, or
 * NULL for the generic ones (common_cpu, cpu, common_timestamp) with *flags saying which.
 * Errors (logged): ERR_PTR-like through *err.
 */
static const struct trace_event_field *parse_field(struct hist_trigger_data *hist_data,
						   struct trace_event_file *file,
						   const char *field_str, unsigned long *flags,
						   unsigned long *buckets, int *err)
{
	const struct trace_event_field *field = NULL;
	char *str = kstrdup(field_str), *modifier = str, *field_name;

	*err = 0;
	if (!str) {
		*err = -ENOMEM;
		return NULL;
	}
	field_name = strsep(&modifier, ".");
	if (modifier) {
		if (!strcmp(modifier, "hex")) {
			*flags |= HIST_FIELD_FL_HEX;
		} else if (!strcmp(modifier, "sym")) {
			*flags |= HIST_FIELD_FL_SYM;
		} else if (!strcmp(modifier, "symXoffset")) {
			/* '.sym-offset' was rewritten so: a '-' would read as an operator */
			*flags |= HIST_FIELD_FL_SYM_OFFSET;
		} else if (!strcmp(modifier, "execname") && !strcmp(field_name, "common_pid")) {
			*flags |= HIST_FIELD_FL_EXECNAME;
		} else if (!strcmp(modifier, "syscall")) {
			*flags |= HIST_FIELD_FL_SYSCALL;
		} else if (!strcmp(modifier, "log2")) {
			*flags |= HIST_FIELD_FL_LOG2;
		} else if (!strcmp(modifier, "usecs")) {
			*flags |= HIST_FIELD_FL_TIMESTAMP_USECS;
		} else if (!strncmp(modifier, "bucket", strlen("bucket"))) {
			/* the caret goes where Linux's does: at what follows '=' (or is not '=') */
			modifier += strlen("bucket");
			if (*modifier == 's')
				modifier++;
			if (*modifier != '=')
				goto bad_modifier;
			modifier++;
			if (kstrtoul(modifier, 0, buckets) || !*buckets)
				goto bad_modifier;
			*flags |= HIST_FIELD_FL_BUCKET;
		} else {
			goto bad_modifier;
		}
	}
	if (!strcmp(field_name, "common_timestamp")) {
		*flags |= HIST_FIELD_FL_TIMESTAMP;
		hist_data->enable_timestamps = true;
		if (*flags & HIST_FIELD_FL_TIMESTAMP_USECS)
			hist_data->attrs->ts_in_usecs = true;
	} else if (!strcmp(field_name, "common_cpu") || !strcmp(field_name, "cpu") ||
		   !strcmp(field_name, "CPU")) {
		/* "cpu" and "CPU": common_cpu, unless the event has a field of that name */
		field = find_event_field(file->call, field_name);
		if (!field || strcmp(field_name, "common_cpu") == 0 || !field->size) {
			field = NULL;
			*flags |= HIST_FIELD_FL_CPU;
		}
	} else {
		field = find_event_field(file->call, field_name);
		if (!field || (!field->size && string_fn(field) != HIST_FIELD_FN_TAILSTRING)) {
			hist_err(HIST_ERR_FIELD_NOT_FOUND, errpos(field_name));
			field = NULL;
			*err = -EINVAL;
		}
	}
	kfree(str);
	return field;
bad_modifier:
	hist_err(HIST_ERR_BAD_FIELD_MODIFIER, errpos(modifier));
	kfree(str);
	*err = -EINVAL;
	return NULL;
}

/* --- actions: what they are (Linux's struct action_data) -------------------------------------- */

/*
 * An action runs on a hit, after the entry was updated: onmatch(SYS.EVENT) every time,
 * onmax($var) when var passes the entry's maximum, onchange($var) when it changes. What it
 * does: trace() writes a synthetic event from variables and fields, save() keeps fields of
 * this event with the entry (shown beside the max in the hist file), snapshot() takes a
 * snapshot of the trace buffer.
 */
enum handler_id {
	HANDLER_ONMATCH = 1,
	HANDLER_ONMAX,
	HANDLER_ONCHANGE,
};

enum action_id {
	ACTION_SAVE = 1,
	ACTION_TRACE,
	ACTION_SNAPSHOT,
};

struct action_data {
	enum handler_id handler;
	enum action_id action;
	char *action_name; /* "trace", "save", "snapshot", or the synthetic event's name */
	unsigned int n_params;
	char *params[SYNTH_FIELDS_MAX]; /* as written */
	/* trace(): each parameter's slot in var_ref_vals[], in the event's field order */
	unsigned int var_ref_idx[SYNTH_FIELDS_MAX];
	struct synth_event *synth_event; /* held (its ref) while the action exists */
	bool use_trace_keyword; /* trace(NAME, ...) rather than NAME(...) */
	char *synth_event_name;
	struct {
		char *event, *event_system; /* onmatch(SYSTEM.EVENT) */
	} match_data;
	struct {
		char *var_str; /* "$wakeup_lat" as written */
		struct hist_field *var_ref; /* its reference */
		struct hist_field *track_var; /* the entry's maximum (or last value): __max */
		bool (*check_val)(uint64_t track_val, uint64_t var_val);
	} track_data;
	/* snapshot(): the value and the entry that took the last snapshot (Linux's track_data) */
	struct {
		uint64_t track_val;
		bool updated;
		char *key; /* key_size bytes */
		char comm[TASK_COMM_LEN];
	} snap;
};

/* --- variables: where they are, references to them -------------------------------------------- */

/*
 * Every histogram that has variables, so that "$ts0" on another event finds them (Linux's
 * tr->hist_vars; one list for all trace arrays here, each entry asked for its own). Changed
 * and read under event_mutex.
 */
struct hist_var_data {
	struct hist_var_data *next;
	struct hist_trigger_data *hist_data;
};
static struct hist_var_data *hist_vars;

static struct hist_field *find_var_field(struct hist_trigger_data *hist_data, const char *var_name)
{
	for (unsigned int i = 0; i < hist_data->n_fields; i++) {
		struct hist_field *hf = hist_data->fields[i];

		if (hf && (hf->flags & HIST_FIELD_FL_VAR) && !strcmp(hf->var.name, var_name))
			return hf;
	}
	return NULL;
}

/* A variable of that name on file's histograms. */
static struct hist_field *find_file_var(struct trace_event_file *file, const char *var_name)
{
	lockdep_assert_held(&event_mutex);
	for (struct event_trigger_data *test = file->triggers; test; test = test->next) {
		struct hist_trigger_data *test_data = hist_data_of(test);
		struct hist_field *hf = test_data ? find_var_field(test_data, var_name) : NULL;

		if (hf)
			return hf;
	}
	return NULL;
}

/* This histogram's variable, or one of the same event's other histograms (Linux's find_var). */
static struct hist_field *find_var(struct hist_trigger_data *hist_data,
				   struct trace_event_file *file, const char *var_name)
{
	struct hist_field *hf = find_var_field(hist_data, var_name);

	return hf ? hf : find_file_var(file, var_name);
}

/*
 * The event file whose histogram has var_name: system.event's if given, else the only one in
 * tr that has it (two: "Variable name not unique").
 */
static struct trace_event_file *find_var_file(struct trace_array *tr, const char *system,
					      const char *event_name, const char *var_name)
{
	struct trace_event_file *found = NULL;

	if (system)
		return find_event_file(tr, system, event_name);
	for (struct hist_var_data *vd = hist_vars; vd; vd = vd->next) {
		struct trace_event_file *file = vd->hist_data->event_file;

		if (file->tr != tr || file == found || !find_var_field(vd->hist_data, var_name))
			continue;
		if (found) {
			hist_err(HIST_ERR_VAR_NOT_UNIQUE, errpos(var_name));
			return NULL;
		}
		found = file;
	}
	return found;
}

/* A variable of the events this histogram's onmatch() actions name (Linux's find_match_var). */
static struct hist_field *find_match_var(struct hist_trigger_data *hist_data, const char *var_name,
					 bool *not_unique)
{
	struct trace_array *tr = hist_data->event_file->tr;
	struct hist_field *found = NULL;

	for (unsigned int i = 0; i < hist_data->n_actions; i++) {
		struct action_data *data = hist_data->actions[i];
		struct trace_event_file *file;
		struct hist_field *hf;

		if (data->handler != HANDLER_ONMATCH)
			continue;
		file = find_var_file(tr, data->match_data.event_system, data->match_data.event,
				     var_name);
		hf = file ? find_file_var(file, var_name) : NULL;
		if (!hf)
			continue;
		if (found) {
			hist_err(HIST_ERR_VAR_NOT_UNIQUE, errpos(var_name));
			*not_unique = true;
			return NULL;
		}
		found = hf;
	}
	return found;
}

static struct hist_field *find_event_var(struct hist_trigger_data *hist_data, const char *system,
					 const char *event_name, const char *var_name)
{
	struct trace_event_file *file;
	bool not_unique = false;

	if (!system || !event_name) {
		struct hist_field *hf = find_match_var(hist_data, var_name, &not_unique);

		if (hf || not_unique)
			return hf;
	}
	file = find_var_file(hist_data->event_file->tr, system, event_name, var_name);
	return file ? find_file_var(file, var_name) : NULL;
}

/* A reference to var_field in hist_data (one per variable: a second use shares it). */
static struct hist_field *create_var_ref(struct hist_trigger_data *hist_data,
					 struct hist_field *var_field, const char *system,
					 const char *event_name)
{
	struct hist_field *ref;

	for (unsigned int i = 0; i < hist_data->n_var_refs; i++) {
		ref = hist_data->var_refs[i];
		if (ref->var.idx == var_field->var.idx &&
		    ref->var.hist_data == var_field->hist_data) {
			ref->ref++;
			return ref;
		}
	}
	if (hist_data->n_var_refs == TRACING_MAP_VARS_MAX)
		return NULL;
	ref = create_hist_field(var_field->hist_data, NULL, HIST_FIELD_FL_VAR_REF, NULL);
	if (!ref)
		return NULL;
	ref->var.idx = var_field->var.idx;
	ref->var.hist_data = var_field->hist_data;
	ref->size = var_field->size;
	ref->is_signed = var_field->is_signed;
	ref->flags |= var_field->flags & (HIST_FIELD_FL_TIMESTAMP | HIST_FIELD_FL_TIMESTAMP_USECS);
	ref->type = var_field->type;
	ref->system = system ? kstrdup(system) : NULL;
	ref->event_name = event_name ? kstrdup(event_name) : NULL;
	ref->name = kstrdup(var_field->var.name ? var_field->var.name : var_field->name);
	if (!ref->name || (system && !ref->system) || (event_name && !ref->event_name)) {
		ref->flags &= ~HIST_FIELD_FL_VAR_REF; /* not on var_refs[]: free it now */
		destroy_hist_field(ref, 0);
		return NULL;
	}
	hist_data->var_refs[hist_data->n_var_refs] = ref;
	ref->var_ref_idx = hist_data->n_var_refs++;
	return ref;
}

static bool is_var_ref(const char *var_name)
{
	return var_name && strlen(var_name) >= 2 && var_name[0] == '$';
}

/* "$ts0", "$sched.sched_waking.ts0": a reference, or NULL (logged: "Couldn't find variable"). */
static struct hist_field *parse_var_ref(struct hist_trigger_data *hist_data, const char *system,
					const char *event_name, const char *var_name)
{
	struct hist_field *var_field, *ref = NULL;

	if (!is_var_ref(var_name))
		return NULL;
	var_name++;
	var_field = find_event_var(hist_data, system, event_name, var_name);
	if (var_field)
		ref = create_var_ref(hist_data, var_field, system, event_name);
	if (!ref)
		hist_err(HIST_ERR_VAR_NOT_FOUND, errpos(var_name));
	return ref;
}

/* A reference to a variable of this histogram whose definition is a plain field: that field. */
static const char *field_name_from_var(struct hist_trigger_data *hist_data, const char *var_name);

/* --- expressions ------------------------------------------------------------------------------ */

/*
 * Linux's contains_operator(): the root operator of str (the rightmost of the lowest
 * precedence, so that a-b-c is (a-b)-c), with *sep at it; a '-' first is a unary minus.
 */
static enum field_op_id contains_operator(char *str, char **sep)
{
	enum field_op_id field_op = FIELD_OP_NONE;
	char *minus_op = strrchr(str, '-'), *plus_op, *div_op, *mult_op;

	if (minus_op) {
		if (minus_op == str) {
			field_op = FIELD_OP_UNARY_MINUS;
			goto out;
		}
		field_op = FIELD_OP_MINUS;
	}
	plus_op = strrchr(str, '+');
	if (plus_op || minus_op) {
		if (plus_op > minus_op)
			field_op = FIELD_OP_PLUS;
		goto out;
	}
	div_op = strrchr(str, '/');
	if (div_op)
		field_op = FIELD_OP_DIV;
	mult_op = strrchr(str, '*');
	if (mult_op > div_op)
		field_op = FIELD_OP_MULT;
out:
	if (sep) {
		switch (field_op) {
		case FIELD_OP_UNARY_MINUS:
		case FIELD_OP_MINUS:
			*sep = minus_op;
			break;
		case FIELD_OP_PLUS:
			*sep = plus_op;
			break;
		case FIELD_OP_DIV:
			*sep = div_op;
			break;
		case FIELD_OP_MULT:
			*sep = mult_op;
			break;
		default:
			*sep = NULL;
			break;
		}
	}
	return field_op;
}

static const char *get_hist_field_flags(const struct hist_field *hf);

/* An operand as an expression's name shows it: "$ts0", "10", "common_timestamp.usecs". */
static void expr_field_str(const struct hist_field *field, char *expr, size_t size)
{
	size_t len = strlen(expr);
	const char *flags_str = NULL;

	if (field->flags && !(field->flags & HIST_FIELD_FL_VAR_REF))
		flags_str = get_hist_field_flags(field);
	if (field->flags & HIST_FIELD_FL_CONST)
		snprintf(expr + len, size - len, "%llu", (unsigned long long)field->constant);
	else
		snprintf(expr + len, size - len, "%s%s%s%s",
			 field->flags & HIST_FIELD_FL_VAR_REF ? "$" : "", hist_field_name(field, 0),
			 flags_str ? "." : "", flags_str ? flags_str : "");
}

/* Linux's expr_str(): "common_timestamp.usecs-$ts0", "-(a+b)". */
static char *expr_str(const struct hist_field *field, unsigned int level)
{
	char *expr;
	size_t len;

	if (level > 1)
		return NULL;
	expr = kzalloc(MAX_FILTER_STR_VAL);
	if (!expr)
		return NULL;
	if (!field->operands[0]) {
		expr_field_str(field, expr, MAX_FILTER_STR_VAL);
		return expr;
	}
	if (field->operator== FIELD_OP_UNARY_MINUS) {
		char *subexpr = expr_str(field->operands[0], level + 1);

		if (!subexpr) {
			kfree(expr);
			return NULL;
		}
		snprintf(expr, MAX_FILTER_STR_VAL, "-(%s)", subexpr);
		kfree(subexpr);
		return expr;
	}
	expr_field_str(field->operands[0], expr, MAX_FILTER_STR_VAL);
	len = strlen(expr);
	switch (field->operator) {
	case FIELD_OP_MINUS:
		strlcpy(expr + len, "-", MAX_FILTER_STR_VAL - len);
		break;
	case FIELD_OP_PLUS:
		strlcpy(expr + len, "+", MAX_FILTER_STR_VAL - len);
		break;
	case FIELD_OP_DIV:
		strlcpy(expr + len, "/", MAX_FILTER_STR_VAL - len);
		break;
	case FIELD_OP_MULT:
		strlcpy(expr + len, "*", MAX_FILTER_STR_VAL - len);
		break;
	default:
		kfree(expr);
		return NULL;
	}
	expr_field_str(field->operands[1], expr, MAX_FILTER_STR_VAL);
	return expr;
}

/* Does the field, or an operand of it, use a variable? (A key must not.) */
static bool field_has_hist_vars(const struct hist_field *hf, unsigned int level)
{
	if (level > HIST_SUBEXPRS_MAX || !hf)
		return false;
	if (hf->flags & (HIST_FIELD_FL_VAR | HIST_FIELD_FL_VAR_REF))
		return true;
	for (int i = 0; i < HIST_FIELD_OPERANDS_MAX; i++)
		if (field_has_hist_vars(hf->operands[i], level + 1))
			return true;
	return false;
}

static bool has_hist_vars(const struct hist_trigger_data *hist_data)
{
	for (unsigned int i = 0; i < hist_data->n_fields; i++)
		if (field_has_hist_vars(hist_data->fields[i], 0))
			return true;
	return false;
}

/* name=$other: a variable that is another's value (Linux's create_alias()). */
static struct hist_field *create_alias(struct hist_trigger_data *hist_data,
				       struct hist_field *var_ref, const char *var_name)
{
	struct hist_field *alias = create_hist_field(
		hist_data, NULL, HIST_FIELD_FL_ALIAS | HIST_FIELD_FL_VAR, var_name);

	if (!alias)
		return NULL;
	alias->fn_num = var_ref->fn_num;
	alias->operands[0] = var_ref;
	alias->var.idx = var_ref->var.idx;
	alias->size = var_ref->size;
	alias->is_signed = var_ref->is_signed;
	alias->flags |= var_ref->flags & (HIST_FIELD_FL_TIMESTAMP | HIST_FIELD_FL_TIMESTAMP_USECS);
	alias->type = var_ref->type;
	alias->name = kstrdup(var_ref->name);
	alias->var_ref_idx = var_ref->var_ref_idx;
	if (!alias->name) {
		destroy_hist_field(alias, 0);
		return NULL;
	}
	return alias;
}

/* A number: "10", "0x10" (Linux's parse_const()). */
static struct hist_field *parse_const(struct hist_trigger_data *hist_data, char *str,
				      const char *var_name, unsigned long *flags, int *err)
{
	unsigned long long constant;
	struct hist_field *hf;

	if (kstrtoull(str, 0, &constant)) {
		hist_err(HIST_ERR_EXPECT_NUMBER, errpos(str));
		*err = -EINVAL;
		return NULL;
	}
	*flags |= HIST_FIELD_FL_CONST;
	hf = create_hist_field(hist_data, NULL, *flags, var_name);
	if (!hf) {
		*err = -ENOMEM;
		return NULL;
	}
	hf->constant = constant;
	return hf;
}

/* One operand: a number, a variable reference, or a field with its modifier (parse_atom()). */
static struct hist_field *parse_atom(struct hist_trigger_data *hist_data,
				     struct trace_event_file *file, char *str, unsigned long *flags,
				     const char *var_name, int *err)
{
	char *s, *ref_system = NULL, *ref_event = NULL, *ref_var = str;
	const struct trace_event_field *field;
	unsigned long buckets = 0;
	struct hist_field *hf;
	const char *local;

	*err = 0;
	if (isdigit((unsigned char)str[0]))
		return parse_const(hist_data, str, var_name, flags, err);
	/* "$system.event.var" */
	s = strchr(str, '.');
	if (s && strchr(s + 1, '.')) {
		ref_system = strsep(&str, ".");
		ref_event = strsep(&str, ".");
		if (!str) {
			*err = -EINVAL;
			return NULL;
		}
		ref_var = str;
	}
	local = NULL;
	if ((!ref_system ||
	     (!strcmp(ref_system, file->call->system) && !strcmp(ref_event, file->call->name))) &&
	    is_var_ref(ref_var))
		local = field_name_from_var(hist_data, ref_var + 1);
	if (!local) {
		hf = parse_var_ref(hist_data, ref_system, ref_event, ref_var);
		if (hf) {
			if (var_name) {
				hf = create_alias(hist_data, hf, var_name);
				if (!hf)
					*err = -ENOMEM;
			}
			return hf;
		}
		if (is_var_ref(ref_var)) {
			*err = -EINVAL;
			return NULL;
		}
	} else {
		str = (char *)local;
	}
	field = parse_field(hist_data, file, str, flags, &buckets, err);
	if (*err)
		return NULL;
	hf = create_hist_field(hist_data, field, *flags, var_name);
	if (!hf) {
		*err = -ENOMEM;
		return NULL;
	}
	hf->buckets = buckets;
	return hf;
}

static struct hist_field *parse_expr_n(struct hist_trigger_data *hist_data,
				       struct trace_event_file *file, char *str,
				       unsigned long flags, const char *var_name,
				       unsigned int *n_subexprs, int *err);

/* "-(expr)": the parentheses are required, and nothing may follow them (Linux's parse_unary). */
static struct hist_field *parse_unary(struct hist_trigger_data *hist_data,
				      struct trace_event_file *file, char *str, unsigned long flags,
				      const char *var_name, unsigned int *n_subexprs, int *err)
{
	struct hist_field *operand1, *expr;
	char *s;

	*err = -EINVAL;
	if (++*n_subexprs > HIST_SUBEXPRS_MAX) {
		hist_err(HIST_ERR_TOO_MANY_SUBEXPR, errpos(str));
		return NULL;
	}
	str++; /* the '-' */
	if (!strchr(str, '('))
		return NULL;
	str++;
	s = strrchr(str, ')');
	if (!s)
		return NULL;
	if (s[1] != '\0') {
		hist_err(HIST_ERR_UNARY_MINUS_SUBEXPR, errpos(str));
		return NULL;
	}
	*s = '\0';
	expr = create_hist_field(hist_data, NULL, flags | HIST_FIELD_FL_EXPR, var_name);
	if (!expr) {
		*err = -ENOMEM;
		return NULL;
	}
	operand1 = parse_expr_n(hist_data, file, str, 0, NULL, n_subexprs, err);
	if (!operand1) {
		destroy_hist_field(expr, 0);
		return NULL;
	}
	if (operand1->flags & HIST_FIELD_FL_STRING) {
		hist_err(HIST_ERR_INVALID_STR_OPERAND, errpos(str));
		destroy_hist_field(operand1, 0);
		destroy_hist_field(expr, 0);
		*err = -EINVAL;
		return NULL;
	}
	expr->flags |= operand1->flags & (HIST_FIELD_FL_TIMESTAMP | HIST_FIELD_FL_TIMESTAMP_USECS);
	expr->fn_num = HIST_FIELD_FN_UMINUS;
	expr->operands[0] = operand1;
	expr->size = operand1->size;
	expr->is_signed = operand1->is_signed;
	expr->operator= FIELD_OP_UNARY_MINUS;
	expr->type = operand1->type;
	expr->name = expr_str(expr, 0);
	*err = expr->name ? 0 : -ENOMEM;
	if (*err) {
		destroy_hist_field(expr, 0);
		return NULL;
	}
	return expr;
}

/*
 * Both operands in the same time unit: a variable's flags are its definition's (Linux's
 * check_expr_operands()); *var1 and *var2 get the variables the operands refer to.
 */
static int check_expr_operands(struct hist_field *operand1, struct hist_field *operand2,
			       struct hist_field **var1, struct hist_field **var2)
{
	unsigned long flags1 = operand1->flags, flags2 = operand2->flags;

	if (flags1 & (HIST_FIELD_FL_VAR_REF | HIST_FIELD_FL_ALIAS)) {
		*var1 = find_var_field(operand1->var.hist_data ? operand1->var.hist_data
							       : operand1->hist_data,
				       operand1->name);
		if (!*var1)
			return -EINVAL;
		flags1 = (*var1)->flags;
	}
	if (flags2 & (HIST_FIELD_FL_VAR_REF | HIST_FIELD_FL_ALIAS)) {
		*var2 = find_var_field(operand2->var.hist_data ? operand2->var.hist_data
							       : operand2->hist_data,
				       operand2->name);
		if (!*var2)
			return -EINVAL;
		flags2 = (*var2)->flags;
	}
	if ((flags1 & HIST_FIELD_FL_TIMESTAMP_USECS) != (flags2 & HIST_FIELD_FL_TIMESTAMP_USECS)) {
		hist_err(HIST_ERR_TIMESTAMP_MISMATCH, 0);
		return -EINVAL;
	}
	return 0;
}

/* Division by a constant: how, as Linux's hist_field_get_div_fn(). */
static enum hist_field_fn hist_field_get_div_fn(struct hist_field *divisor)
{
	uint64_t div = divisor->constant;

	if (!(div & (div - 1)))
		return HIST_FIELD_FN_DIV_POWER2;
	if (div > (1ULL << HIST_DIV_SHIFT))
		return HIST_FIELD_FN_DIV_NOT_POWER2;
	divisor->div_multiplier = (1ULL << HIST_DIV_SHIFT) / div;
	return HIST_FIELD_FN_DIV_MULT_SHIFT;
}

/*
 * Linux 6.1's parse_expr(): a field, a number, a variable reference, or an expression of
 * them with + - * / (left to right, * and / first) and -( ), three operators at most. Two
 * constants are folded into one.
 */
static struct hist_field *parse_expr_n(struct hist_trigger_data *hist_data,
				       struct trace_event_file *file, char *str,
				       unsigned long flags, const char *var_name,
				       unsigned int *n_subexprs, int *err)
{
	struct hist_field *operand1 = NULL, *operand2 = NULL, *expr = NULL;
	struct hist_field *var1 = NULL, *var2 = NULL;
	unsigned long operand_flags, operand2_flags;
	enum field_op_id field_op;
	enum hist_field_fn op_fn;
	char *sep, *operand1_str;
	bool combine_consts;

	*err = -EINVAL;
	if (*n_subexprs > HIST_SUBEXPRS_MAX) {
		hist_err(HIST_ERR_TOO_MANY_SUBEXPR, errpos(str));
		return NULL;
	}
	field_op = contains_operator(str, &sep); /* "": no field of that name, caret at 0 */
	if (field_op == FIELD_OP_NONE)
		return parse_atom(hist_data, file, str, &flags, var_name, err);
	if (field_op == FIELD_OP_UNARY_MINUS)
		return parse_unary(hist_data, file, str, flags, var_name, n_subexprs, err);
	++*n_subexprs;
	if (!sep)
		return NULL;
	*sep = '\0';
	operand1_str = str;
	str = sep + 1;
	if (!*operand1_str || !*str)
		return NULL;
	operand1 = parse_expr_n(hist_data, file, operand1_str, 0, NULL, n_subexprs, err);
	if (!operand1)
		return NULL;
	if (operand1->flags & HIST_FIELD_FL_STRING) {
		hist_err(HIST_ERR_INVALID_STR_OPERAND, errpos(operand1_str));
		*err = -EINVAL;
		goto free_operands;
	}
	operand2 = parse_expr_n(hist_data, file, str, 0, NULL, n_subexprs, err);
	if (!operand2)
		goto free_operands;
	*err = -EINVAL;
	if (operand2->flags & HIST_FIELD_FL_STRING) {
		hist_err(HIST_ERR_INVALID_STR_OPERAND, errpos(str));
		goto free_operands;
	}
	switch (field_op) {
	case FIELD_OP_MINUS:
		op_fn = HIST_FIELD_FN_MINUS;
		break;
	case FIELD_OP_PLUS:
		op_fn = HIST_FIELD_FN_PLUS;
		break;
	case FIELD_OP_DIV:
		op_fn = HIST_FIELD_FN_DIV;
		break;
	case FIELD_OP_MULT:
		op_fn = HIST_FIELD_FN_MULT;
		break;
	default:
		goto free_operands;
	}
	if (check_expr_operands(operand1, operand2, &var1, &var2))
		goto free_operands;
	operand_flags = var1 ? var1->flags : operand1->flags;
	operand2_flags = var2 ? var2->flags : operand2->flags;
	combine_consts = operand_flags & operand2_flags & HIST_FIELD_FL_CONST;
	flags |= combine_consts ? HIST_FIELD_FL_CONST : HIST_FIELD_FL_EXPR;
	flags |= operand1->flags & (HIST_FIELD_FL_TIMESTAMP | HIST_FIELD_FL_TIMESTAMP_USECS);
	expr = create_hist_field(hist_data, NULL, flags, var_name);
	if (!expr) {
		*err = -ENOMEM;
		goto free_operands;
	}
	operand1->read_once = true;
	operand2->read_once = true;
	expr->operands[0] = operand1;
	expr->operands[1] = operand2;
	if (field_op == FIELD_OP_DIV && (operand2_flags & HIST_FIELD_FL_CONST)) {
		uint64_t divisor = var2 ? var2->constant : operand2->constant;

		if (!divisor) {
			hist_err(HIST_ERR_DIVISION_BY_ZERO, errpos(str));
			*err = -EDOM;
			destroy_hist_field(expr, 0);
			return NULL;
		}
		operand2->constant = divisor;
		op_fn = hist_field_get_div_fn(operand2);
	}
	expr->fn_num = op_fn;
	if (combine_consts) {
		if (var1)
			expr->operands[0] = var1;
		if (var2)
			expr->operands[1] = var2;
		expr->constant = hist_fn_call(expr, NULL, NULL, 0);
		expr->fn_num = HIST_FIELD_FN_CONST;
		expr->operands[0] = NULL;
		expr->operands[1] = NULL;
		destroy_hist_field(operand2, 0);
		destroy_hist_field(operand1, 0);
		expr->size = sizeof(uint64_t);
		expr->type = "u64";
	} else {
		expr->size = operand1->size;
		expr->is_signed = operand1->is_signed;
		expr->operator= field_op;
		expr->type = operand1->type;
	}
	expr->name = expr_str(expr, 0);
	if (!expr->name) {
		*err = -ENOMEM;
		destroy_hist_field(expr, 0);
		return NULL;
	}
	*err = 0;
	return expr;
free_operands:
	destroy_hist_field(operand2, 0);
	destroy_hist_field(operand1, 0);
	return NULL;
}

static struct hist_field *parse_expr(struct hist_trigger_data *hist_data,
				     struct trace_event_file *file, char *str, unsigned long flags,
				     const char *var_name, int *err)
{
	unsigned int n_subexprs = 0;

	return parse_expr_n(hist_data, file, str, flags, var_name, &n_subexprs, err);
}

/* --- the trigger's words ---------------------------------------------------------------------- */

static void destroy_hist_trigger_attrs(struct hist_trigger_attrs *attrs)
{
	if (!attrs)
		return;
	for (unsigned int i = 0; i < attrs->n_assignments; i++)
		kfree(attrs->assignment_str[i]);
	for (unsigned int i = 0; i < attrs->n_actions; i++)
		kfree(attrs->action_str[i]);
	kfree(attrs->name);
	kfree(attrs->sort_key_str);
	kfree(attrs->keys_str);
	kfree(attrs->vals_str);
	kfree(attrs->clock);
	kfree(attrs);
}

/* size=N: rounded up to a power of two; its log2, or -EINVAL outside Linux's range. */
static int parse_map_size(const char *str)
{
	unsigned long size;
	unsigned int bits = 0;

	if (kstrtoul(str, 0, &size))
		return -EINVAL;
	while (bits < 64 && (1UL << bits) < size)
		bits++;
	if (bits < TRACING_MAP_BITS_MIN || bits > TRACING_MAP_BITS_MAX)
		return -EINVAL;
	return (int)bits;
}

static int str_prefix(const char *str, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(str, prefix, n) == 0 ? (int)n : 0;
}

static int dup_into(char **dst, const char *src)
{
	kfree(*dst);
	*dst = kstrdup(src);
	return *dst ? 0 : -ENOMEM;
}

static int parse_assignment(char *str, struct hist_trigger_attrs *attrs)
{
	int len, map_bits;

	if ((len = str_prefix(str, "key=")) || (len = str_prefix(str, "keys=")))
		return dup_into(&attrs->keys_str, str + len);
	if ((len = str_prefix(str, "val=")) || (len = str_prefix(str, "vals=")) ||
	    (len = str_prefix(str, "values=")))
		return dup_into(&attrs->vals_str, str + len);
	if ((len = str_prefix(str, "sort=")))
		return dup_into(&attrs->sort_key_str, str + len);
	if (str_prefix(str, "name="))
		return dup_into(&attrs->name, str); /* "name=foo", as Linux keeps and prints it */
	if ((len = str_prefix(str, "clock=")))
		return dup_into(&attrs->clock, strim(str + len));
	if ((len = str_prefix(str, "size="))) {
		map_bits = parse_map_size(str + len);
		if (map_bits < 0)
			return map_bits;
		attrs->map_bits = (unsigned int)map_bits;
		return 0;
	}
	/* a variable: "ts0=common_timestamp" */
	if (attrs->n_assignments == TRACING_MAP_VARS_MAX) {
		hist_err(HIST_ERR_TOO_MANY_VARS, errpos(str));
		return -EINVAL;
	}
	attrs->assignment_str[attrs->n_assignments] = kstrdup(str);
	if (!attrs->assignment_str[attrs->n_assignments])
		return -ENOMEM;
	attrs->n_assignments++;
	return 0;
}

static int parse_action(char *str, struct hist_trigger_attrs *attrs)
{
	if (attrs->n_actions >= HIST_ACTIONS_MAX)
		return -EINVAL;
	if (!str_prefix(str, "onmatch(") && !str_prefix(str, "onmax(") &&
	    !str_prefix(str, "onchange("))
		return -EINVAL;
	attrs->action_str[attrs->n_actions] = kstrdup(str);
	if (!attrs->action_str[attrs->n_actions])
		return -ENOMEM;
	attrs->n_actions++;
	return 0;
}

/* Linux's parse_hist_trigger_attrs(): the ':'-separated words. */
static struct hist_trigger_attrs *parse_hist_trigger_attrs(char *trigger_str, int *err)
{
	struct hist_trigger_attrs *attrs = kzalloc(sizeof(*attrs));

	*err = -ENOMEM;
	if (!attrs)
		return NULL;
	*err = 0;
	while (trigger_str && !*err) {
		char *str = strsep(&trigger_str, ":");
		char *rhs = strchr(str, '=');

		if (rhs) {
			if (!*++rhs) {
				hist_err(HIST_ERR_EMPTY_ASSIGNMENT, errpos(str));
				*err = -EINVAL;
			} else {
				*err = parse_assignment(str, attrs);
			}
		} else if (!strcmp(str, "pause")) {
			attrs->pause = true;
		} else if (!strcmp(str, "cont") || !strcmp(str, "continue")) {
			attrs->cont = true;
		} else if (!strcmp(str, "clear")) {
			attrs->clear = true;
		} else {
			*err = parse_action(str, attrs);
		}
	}
	if (!*err && !attrs->keys_str)
		*err = -EINVAL;
	if (!*err && !attrs->clock)
		*err = dup_into(&attrs->clock, "global");
	if (*err) {
		destroy_hist_trigger_attrs(attrs);
		return NULL;
	}
	return attrs;
}

/* --- a histogram's variables ------------------------------------------------------------------ */

/* An entry's string slots (after its task name): field and save() strings, string variables. */
static char *elt_str(struct tracing_map_elt *elt, unsigned int idx)
{
	return (char *)elt->private_data + TASK_COMM_LEN + (size_t)idx * STR_VAR_LEN_MAX;
}

static unsigned int hist_n_str(const struct hist_trigger_data *hist_data)
{
	return hist_data->n_field_var_str + hist_data->n_save_var_str + hist_data->n_var_str;
}

static void free_var_defs(struct hist_trigger_attrs *attrs)
{
	for (unsigned int i = 0; i < attrs->n_var_defs; i++) {
		kfree(attrs->var_def_name[i]);
		kfree(attrs->var_def_expr[i]);
	}
	attrs->n_var_defs = 0;
}

/* "ts0=common_timestamp,lat=..." words into names and expressions (Linux's parse_var_defs()). */
static int parse_var_defs(struct hist_trigger_data *hist_data)
{
	struct hist_trigger_attrs *attrs = hist_data->attrs;

	for (unsigned int i = 0; i < attrs->n_assignments; i++) {
		char *str = attrs->assignment_str[i], *field_str, *var_name;

		for (unsigned int j = 0; j < TRACING_MAP_VARS_MAX; j++) {
			field_str = strsep(&str, ",");
			if (!field_str)
				break;
			var_name = strsep(&field_str, "=");
			if (!var_name || !field_str) {
				hist_err(HIST_ERR_MALFORMED_ASSIGNMENT, errpos(var_name));
				free_var_defs(attrs);
				return -EINVAL;
			}
			if (attrs->n_var_defs == TRACING_MAP_VARS_MAX) {
				hist_err(HIST_ERR_TOO_MANY_VARS, errpos(var_name));
				free_var_defs(attrs);
				return -EINVAL;
			}
			attrs->var_def_name[attrs->n_var_defs] = kstrdup(var_name);
			attrs->var_def_expr[attrs->n_var_defs] = kstrdup(field_str);
			attrs->n_var_defs++;
			if (!attrs->var_def_name[attrs->n_var_defs - 1] ||
			    !attrs->var_def_expr[attrs->n_var_defs - 1]) {
				free_var_defs(attrs);
				return -ENOMEM;
			}
		}
	}
	return 0;
}

static const char *field_name_from_var(struct hist_trigger_data *hist_data, const char *var_name)
{
	struct hist_trigger_attrs *attrs = hist_data->attrs;

	for (unsigned int i = 0; i < attrs->n_var_defs; i++) {
		char *expr = attrs->var_def_expr[i];

		if (strcmp(var_name, attrs->var_def_name[i]))
			continue;
		if (contains_operator(expr, NULL) != FIELD_OP_NONE || is_var_ref(expr))
			continue;
		return expr;
	}
	return NULL;
}

/* name=expr: a variable of each entry, set on every hit (Linux's create_var_field()). */
static int create_var_field(struct hist_trigger_data *hist_data, unsigned int val_idx,
			    struct trace_event_file *file, const char *var_name, char *expr)
{
	struct hist_field *hf;
	int err;

	if (find_var(hist_data, file, var_name) && !hist_data->remove) {
		hist_err(HIST_ERR_DUPLICATE_VAR, errpos(var_name));
		return -EINVAL;
	}
	hist_data->n_vars++;
	hf = parse_expr(hist_data, file, expr, HIST_FIELD_FL_VAR, var_name, &err);
	if (!hf)
		return err;
	hist_data->fields[val_idx] = hf;
	hist_data->n_vals++;
	hist_data->n_fields++;
	if (hf->flags & HIST_FIELD_FL_EXECNAME) {
		/* common_pid.execname as a variable is the name, a string (Linux's) */
		hf->flags = HIST_FIELD_FL_STRING | HIST_FIELD_FL_VAR | HIST_FIELD_FL_EXECNAME;
		hf->size = MAX_FILTER_STR_VAL;
		hf->is_signed = false;
		hf->type = "char[]";
		hf->fn_num = HIST_FIELD_FN_EXECNAME;
	}
	if (hf->flags & HIST_FIELD_FL_STRING)
		hf->var_str_idx = hist_data->n_var_str++;
	return 0;
}

static int create_var_fields(struct hist_trigger_data *hist_data, struct trace_event_file *file)
{
	struct hist_trigger_attrs *attrs = hist_data->attrs;
	unsigned int j = hist_data->n_vals;
	int ret = 0;

	for (unsigned int i = 0; i < attrs->n_var_defs && !ret; i++)
		ret = create_var_field(hist_data, j++, file, attrs->var_def_name[i],
				       attrs->var_def_expr[i]);
	return ret;
}

/* A variable no field shows (a field variable, onmax's __max), in the map (Linux's create_var). */
static struct hist_field *create_var(struct hist_trigger_data *hist_data,
				     struct trace_event_file *file, const char *name,
				     unsigned int size, const char *type, int *err)
{
	struct hist_field *var;
	int idx;

	*err = -EINVAL;
	if (find_var(hist_data, file, name) && !hist_data->remove)
		return NULL;
	idx = tracing_map_add_var(hist_data->map);
	if (idx < 0)
		return NULL;
	var = create_hist_field(hist_data, NULL, HIST_FIELD_FL_VAR | HIST_FIELD_FL_EXPR, name);
	if (!var) {
		*err = -ENOMEM;
		return NULL;
	}
	var->flags = HIST_FIELD_FL_VAR;
	var->var.idx = (unsigned int)idx;
	var->var.hist_data = hist_data;
	var->size = size;
	var->type = type;
	*err = 0;
	return var;
}

static void destroy_field_var(struct field_var *field_var)
{
	if (!field_var)
		return;
	destroy_hist_field(field_var->var, 0);
	destroy_hist_field(field_var->val, 0);
	kfree(field_var);
}

/* A variable of this event's field field_name, for an action (Linux's create_field_var()). */
static struct field_var *create_field_var(struct hist_trigger_data *hist_data,
					  struct trace_event_file *file, char *field_name)
{
	unsigned long flags = HIST_FIELD_FL_VAR;
	struct hist_field *val, *var;
	struct field_var *field_var;
	int err;

	if (hist_data->n_field_vars >= SYNTH_FIELDS_MAX) {
		hist_err(HIST_ERR_TOO_MANY_FIELD_VARS, errpos(field_name));
		return NULL;
	}
	val = parse_atom(hist_data, file, field_name, &flags, NULL, &err);
	if (!val) {
		hist_err(HIST_ERR_FIELD_VAR_PARSE_FAIL, errpos(field_name));
		return NULL;
	}
	var = create_var(hist_data, file, field_name, val->size, val->type, &err);
	if (!var) {
		hist_err(HIST_ERR_VAR_CREATE_FIND_FAIL, errpos(field_name));
		destroy_hist_field(val, 0);
		return NULL;
	}
	field_var = kzalloc(sizeof(*field_var));
	if (!field_var) {
		destroy_hist_field(val, 0);
		destroy_hist_field(var, 0);
		return NULL;
	}
	field_var->var = var;
	field_var->val = val;
	return field_var;
}

/* Sets each field variable from the record (a string into the entry's slot j, j++...). */
static void __update_field_vars(struct tracing_map_elt *elt, void *rec, unsigned int len,
				struct field_var **field_vars, unsigned int n_field_vars,
				unsigned int field_var_str_start)
{
	for (unsigned int i = 0, j = field_var_str_start; i < n_field_vars; i++) {
		struct field_var *field_var = field_vars[i];
		uint64_t var_val = hist_fn_call(field_var->val, elt, rec, len);

		if (field_var->val->flags & HIST_FIELD_FL_STRING) {
			char *str = elt_str(elt, j++);
			const char *val_str = (const char *)(uintptr_t)var_val;
			size_t size = field_var->val->size < STR_VAR_LEN_MAX ? field_var->val->size
									     : STR_VAR_LEN_MAX;

			strlcpy(str, val_str ? val_str : "", size);
			var_val = (uint64_t)(uintptr_t)str;
		}
		tracing_map_set_var(elt, field_var->var->var.idx, var_val);
	}
}

/* --- which histograms use which variables ----------------------------------------------------- */

/* hist_data's reference to var_data's variable var_idx, or NULL. */
static struct hist_field *find_var_ref(struct hist_trigger_data *hist_data,
				       struct hist_trigger_data *var_data, unsigned int var_idx)
{
	for (unsigned int i = 0; i < hist_data->n_var_refs; i++) {
		struct hist_field *ref = hist_data->var_refs[i];

		if (ref->var.idx == var_idx && ref->var.hist_data == var_data)
			return ref;
	}
	return NULL;
}

/* Is a variable of hist_data used by another histogram? (Then it cannot go: EBUSY.) */
static bool check_var_refs(struct hist_trigger_data *hist_data)
{
	lockdep_assert_held(&event_mutex);
	for (unsigned int i = 0; i < hist_data->n_fields; i++) {
		struct hist_field *hf = hist_data->fields[i];

		if (!hf || !(hf->flags & HIST_FIELD_FL_VAR))
			continue;
		for (struct hist_var_data *vd = hist_vars; vd; vd = vd->next)
			if (vd->hist_data != hist_data &&
			    find_var_ref(vd->hist_data, hist_data, hf->var.idx))
				return true;
	}
	return false;
}

static void save_hist_vars(struct hist_trigger_data *hist_data)
{
	struct hist_var_data *vd;

	for (vd = hist_vars; vd; vd = vd->next)
		if (vd->hist_data == hist_data)
			return;
	vd = kzalloc(sizeof(*vd));
	if (!vd)
		return; /* its variables are then not found by others: never a crash */
	vd->hist_data = hist_data;
	vd->next = hist_vars;
	hist_vars = vd;
}

static void remove_hist_vars(struct hist_trigger_data *hist_data)
{
	for (struct hist_var_data **link = &hist_vars; *link; link = &(*link)->next) {
		if ((*link)->hist_data == hist_data) {
			struct hist_var_data *vd = *link;

			*link = vd->next;
			kfree(vd);
			return;
		}
	}
}

/*
 * On a hit: the values of the references into var_ref_vals[], those of other histograms
 * (self false: looked up with this hit's key in theirs, each read once, as a timestamp is
 * used once) or this histogram's own (self true). false if one is not set for this key: the
 * hit then leaves no trace (Linux's resolve_var_refs()).
 */
static bool resolve_var_refs(struct hist_trigger_data *hist_data, void *key, uint64_t *var_ref_vals,
			     bool self)
{
	for (unsigned int i = 0; i < hist_data->n_var_refs; i++) {
		struct hist_field *ref = hist_data->var_refs[i];
		struct hist_trigger_data *var_data = ref->var.hist_data;
		struct tracing_map_elt *var_elt;

		if (!var_data)
			return false;
		if ((self && var_data != hist_data) || (!self && var_data == hist_data))
			continue;
		var_elt = tracing_map_lookup(var_data->map, key);
		if (!var_elt || !tracing_map_var_set(var_elt, ref->var.idx))
			return false;
		if (self || !ref->read_once)
			var_ref_vals[i] = tracing_map_read_var(var_elt, ref->var.idx);
		else
			var_ref_vals[i] = tracing_map_read_var_once(var_elt, ref->var.idx);
	}
	return true;
}

/* --- actions: parsing ------------------------------------------------------------------------- */

static bool check_track_val_max(uint64_t track_val, uint64_t var_val)
{
	return var_val > track_val;
}

static bool check_track_val_changed(uint64_t track_val, uint64_t var_val)
{
	return var_val != track_val;
}

static void action_data_destroy(struct action_data *data)
{
	if (!data)
		return;
	lockdep_assert_held(&event_mutex);
	kfree(data->action_name);
	for (unsigned int i = 0; i < data->n_params; i++)
		kfree(data->params[i]);
	if (data->synth_event)
		data->synth_event->ref--;
	kfree(data->synth_event_name);
	kfree(data->match_data.event);
	kfree(data->match_data.event_system);
	kfree(data->track_data.var_str);
	destroy_hist_field(data->track_data.track_var, 0);
	kfree(data->snap.key);
	kfree(data);
}

static int parse_action_params(char *params, struct action_data *data)
{
	bool first_param = true;

	while (params) {
		char *param, *saved;

		if (data->n_params >= SYNTH_FIELDS_MAX) {
			hist_err(HIST_ERR_TOO_MANY_PARAMS, 0);
			return -EINVAL; /* Linux goes on without it, and fails later */
		}
		param = strim(strsep(&params, ","));
		if (strlen(param) < 2) {
			hist_err(HIST_ERR_INVALID_PARAM, errpos(param));
			return -EINVAL;
		}
		saved = kstrdup(param);
		if (!saved)
			return -ENOMEM;
		if (first_param && data->use_trace_keyword) {
			data->synth_event_name = saved;
			first_param = false;
			continue;
		}
		first_param = false;
		data->params[data->n_params++] = saved;
	}
	return 0;
}

/* ".save(a,b)", ".snapshot()", ".trace(ev,a,b)" or ".ev(a,b)" after a handler (action_parse). */
static int action_parse(char *str, struct action_data *data, enum handler_id handler)
{
	char *action_name, *params;
	int ret;

	strsep(&str, ".");
	if (!str) {
		hist_err(HIST_ERR_ACTION_NOT_FOUND, 0);
		return -EINVAL;
	}
	action_name = strsep(&str, "(");
	if (!action_name || !str) {
		hist_err(HIST_ERR_ACTION_NOT_FOUND, 0);
		return -EINVAL;
	}
	if (handler == HANDLER_ONMAX)
		data->track_data.check_val = check_track_val_max;
	else if (handler == HANDLER_ONCHANGE)
		data->track_data.check_val = check_track_val_changed;
	if (str_prefix(action_name, "save")) {
		params = strsep(&str, ")");
		if (!params) {
			hist_err(HIST_ERR_NO_SAVE_PARAMS, 0);
			return -EINVAL;
		}
		ret = parse_action_params(params, data);
		if (ret)
			return ret;
		if (handler == HANDLER_ONMATCH) {
			hist_err(HIST_ERR_ACTION_MISMATCH, errpos(action_name));
			return -EINVAL;
		}
		data->action = ACTION_SAVE;
	} else if (str_prefix(action_name, "snapshot")) {
		params = strsep(&str, ")");
		if (!str) {
			hist_err(HIST_ERR_NO_CLOSING_PAREN, errpos(params));
			return -EINVAL;
		}
		if (handler == HANDLER_ONMATCH) {
			hist_err(HIST_ERR_ACTION_MISMATCH, errpos(action_name));
			return -EINVAL;
		}
		data->action = ACTION_SNAPSHOT;
	} else {
		params = strsep(&str, ")");
		if (str_prefix(action_name, "trace"))
			data->use_trace_keyword = true;
		if (params) {
			ret = parse_action_params(params, data);
			if (ret)
				return ret;
		}
		data->action = ACTION_TRACE;
	}
	data->action_name = kstrdup(action_name);
	if (!data->action_name)
		return -ENOMEM;
	data->handler = handler;
	return 0;
}

/* "onmax($var).save(...)": what follows "onmax(" or "onchange(" (Linux's track_data_parse()). */
static struct action_data *track_data_parse(char *str, enum handler_id handler, int *err)
{
	struct action_data *data = kzalloc(sizeof(*data));
	char *var_str;

	*err = -ENOMEM;
	if (!data)
		return NULL;
	*err = -EINVAL;
	var_str = strsep(&str, ")");
	if (!var_str || !str)
		goto free;
	*err = -ENOMEM;
	data->track_data.var_str = kstrdup(var_str);
	if (!data->track_data.var_str)
		goto free;
	*err = action_parse(str, data, handler);
	if (*err)
		goto free;
	return data;
free:
	action_data_destroy(data);
	return NULL;
}

/* "onmatch(sched.sched_waking).trace(...)": what follows "onmatch(" (onmatch_parse()). */
static struct action_data *onmatch_parse(struct trace_array *tr, char *str, int *err)
{
	struct action_data *data = kzalloc(sizeof(*data));
	char *match_event, *match_event_system;

	*err = -ENOMEM;
	if (!data)
		return NULL;
	*err = -EINVAL;
	match_event = strsep(&str, ")");
	if (!match_event || !str) {
		hist_err(HIST_ERR_NO_CLOSING_PAREN, errpos(match_event));
		goto free;
	}
	match_event_system = strsep(&match_event, ".");
	if (!match_event) {
		hist_err(HIST_ERR_SUBSYS_NOT_FOUND, errpos(match_event_system));
		goto free;
	}
	if (!find_event_file(tr, match_event_system, match_event)) {
		hist_err(HIST_ERR_INVALID_SUBSYS_EVENT, errpos(match_event));
		goto free;
	}
	*err = -ENOMEM;
	data->match_data.event = kstrdup(match_event);
	data->match_data.event_system = kstrdup(match_event_system);
	if (!data->match_data.event || !data->match_data.event_system)
		goto free;
	*err = action_parse(str, data, HANDLER_ONMATCH);
	if (*err)
		goto free;
	return data;
free:
	action_data_destroy(data);
	return NULL;
}

static void destroy_actions(struct hist_trigger_data *hist_data)
{
	for (unsigned int i = 0; i < hist_data->n_actions; i++)
		action_data_destroy(hist_data->actions[i]);
	hist_data->n_actions = 0;
}

static int parse_actions(struct hist_trigger_data *hist_data)
{
	struct trace_array *tr = hist_data->event_file->tr;
	int ret = 0;

	for (unsigned int i = 0; i < hist_data->attrs->n_actions; i++) {
		char *str = hist_data->attrs->action_str[i];
		struct action_data *data;
		int len;

		if ((len = str_prefix(str, "onmatch(")))
			data = onmatch_parse(tr, str + len, &ret);
		else if ((len = str_prefix(str, "onmax(")))
			data = track_data_parse(str + len, HANDLER_ONMAX, &ret);
		else if ((len = str_prefix(str, "onchange(")))
			data = track_data_parse(str + len, HANDLER_ONCHANGE, &ret);
		else
			data = NULL, ret = -EINVAL;
		if (!data)
			return ret;
		hist_data->actions[hist_data->n_actions++] = data;
	}
	return 0;
}

/* --- actions: made real (variables, references, the synthetic event held) --------------------- */

/* A parameter's type fits the synthetic event's field (Linux's check_synth_field()). */
static int check_synth_field(struct synth_event *event, struct hist_field *hf,
			     unsigned int field_pos)
{
	struct synth_field *field;

	if (field_pos >= event->n_fields)
		return -EINVAL;
	field = event->fields[field_pos];
	/* a char[] field takes any string; a char[N] one a string of the same type */
	if (strstr(hf->type, "char[") && field->is_string && field->is_dynamic)
		return 0;
	if (strcmp(field->type, hf->type) &&
	    (field->size != hf->size || (!field->is_string && field->is_signed != hf->is_signed)))
		return -EINVAL;
	return 0;
}

/* "$var" as a trace() parameter: this histogram's, else the matched event's. */
static struct hist_field *trace_action_find_var(struct hist_trigger_data *hist_data,
						struct action_data *data, const char *system,
						const char *event, const char *var)
{
	struct hist_field *hf = NULL;

	var++; /* the '$' */
	if (!system || (!strcmp(system, hist_data->event_file->call->system) &&
			!strcmp(event, hist_data->event_file->call->name)))
		hf = find_var_field(hist_data, var);
	if (!hf) {
		if (!system && data->handler == HANDLER_ONMATCH) {
			system = data->match_data.event_system;
			event = data->match_data.event;
		}
		hf = find_event_var(hist_data, system, event, var);
	}
	if (!hf)
		hist_err(HIST_ERR_PARAM_NOT_FOUND, errpos(var));
	return hf;
}

static void save_field_var(struct hist_trigger_data *hist_data, struct field_var *field_var)
{
	hist_data->field_vars[hist_data->n_field_vars++] = field_var;
	if (field_var->val->flags & HIST_FIELD_FL_STRING)
		hist_data->n_field_var_str++;
}

/* --- a field of the matched event as a parameter: a hidden histogram there ------------------ */

/*
 * onmatch(sched.sched_waking).wakeup_latency($lat,next_pid,prio): prio is sched_waking's,
 * and an action reads variables, found by the key in the matched event's histogram. A
 * histogram cannot be changed once made, so, as Linux does, a new one is made on that event:
 * the keys of the histogram there whose keys are like this one's, the same filter, and one
 * variable, synthetic_prio=prio. Its trigger is listed with the others; the last histogram
 * using it removes it (Linux leaves it when two do).
 */
static int event_hist_trigger_parse(const struct event_command *cmd, struct trace_event_file *file,
				    char *param, bool remove, bool apply);
static void event_hist_trigger_free(struct event_trigger_data *data);

#define SYNTH_FIELD_VAR_PREFIX "synthetic_"

/* hist_data's keys are like target's: the same number, types, sizes and signs. */
static bool compatible_keys(const struct hist_trigger_data *target,
			    const struct hist_trigger_data *hist_data)
{
	if (hist_data->n_keys != target->n_keys)
		return false;
	for (unsigned int n = 0; n < target->n_keys; n++) {
		const struct hist_field *a = hist_data->fields[hist_data->n_vals + n];
		const struct hist_field *b = target->fields[target->n_vals + n];

		if (!a->type || !b->type || strcmp(a->type, b->type) || a->size != b->size ||
		    a->is_signed != b->is_signed)
			return false;
	}
	return true;
}

/* The trigger on file whose histogram is hist_data (its filter is the new one's). */
static struct event_trigger_data *find_hist_data_trigger(struct trace_event_file *file,
							 const struct hist_trigger_data *hist_data)
{
	for (struct event_trigger_data *test = file->triggers; test; test = test->next)
		if (hist_data_of(test) == hist_data)
			return test;
	return NULL;
}

static struct hist_trigger_data *find_compatible_hist(const struct hist_trigger_data *target,
						      struct trace_event_file *file)
{
	lockdep_assert_held(&event_mutex);
	for (struct event_trigger_data *test = file->triggers; test; test = test->next) {
		struct hist_trigger_data *hist_data = hist_data_of(test);

		if (hist_data && compatible_keys(target, hist_data))
			return hist_data;
	}
	return NULL;
}

/* synthetic_FIELD on system.event, if a histogram there has it. */
static struct hist_field *find_synthetic_field_var(struct hist_trigger_data *target,
						   const char *system, const char *event_name,
						   const char *field_name)
{
	char name[MAX_FILTER_STR_VAL];

	snprintf(name, sizeof(name), SYNTH_FIELD_VAR_PREFIX "%s", field_name);
	return find_event_var(target, system, event_name, name);
}

/* Remembers that target uses the hidden histogram of var (and counts it there). */
static int add_field_var_hist(struct hist_trigger_data *target, struct trace_event_file *file,
			      struct hist_field *var)
{
	struct field_var_hist *var_hist = kzalloc(sizeof(*var_hist));

	if (!var_hist)
		return -ENOMEM;
	var_hist->hist_data = var->var.hist_data;
	var_hist->file = file;
	var_hist->hist_data->field_var_users++;
	target->field_var_hists[target->n_field_var_hists++] = var_hist;
	return 0;
}

/* The variable for field_name of system.event, made in a new histogram there if need be. */
static struct hist_field *create_field_var_hist(struct hist_trigger_data *target,
						const char *system, const char *event_name,
						const char *field_name)
{
	struct trace_event_file *file;
	struct hist_trigger_data *hist_data;
	struct event_trigger_data *trigger;
	struct hist_field *var;
	size_t size = MAX_FILTER_STR_VAL, len;
	char *cmd, *copy;
	int ret;

	if (target->n_field_var_hists >= SYNTH_FIELDS_MAX) {
		hist_err(HIST_ERR_TOO_MANY_FIELD_VARS, errpos(field_name));
		return NULL;
	}
	file = find_event_file(target->event_file->tr, system, event_name);
	if (!file) {
		hist_err(HIST_ERR_EVENT_FILE_NOT_FOUND, errpos(field_name));
		return NULL;
	}
	hist_data = find_compatible_hist(target, file);
	if (!hist_data) {
		hist_err(HIST_ERR_HIST_NOT_FOUND, errpos(field_name));
		return NULL;
	}
	var = find_synthetic_field_var(target, system, event_name, field_name);
	if (var) {
		/* made for another histogram: this one uses it too (a user's own: not counted) */
		if (!var->var.hist_data->field_var_users)
			return var;
		return add_field_var_hist(target, file, var) ? NULL : var;
	}
	/* "keys=pid:synthetic_prio=prio if comm==\"sleep\"", the keys as the compatible one's */
	cmd = kzalloc(size);
	if (!cmd)
		return NULL;
	len = strlcpy(cmd, "keys=", size);
	for (unsigned int i = hist_data->n_vals; i < hist_data->n_fields && len < size; i++) {
		const struct hist_field *key = hist_data->fields[i];

		len += snprintf(cmd + len, size - len, "%s%s", i > hist_data->n_vals ? "," : "",
				key->flags & HIST_FIELD_FL_STACKTRACE ? "stacktrace"
								      : hist_field_name(key, 0));
	}
	if (len < size)
		len += snprintf(cmd + len, size - len, ":" SYNTH_FIELD_VAR_PREFIX "%s=%s",
				field_name, field_name);
	trigger = find_hist_data_trigger(file, hist_data);
	if (trigger && trigger->filter_str && len < size)
		len += snprintf(cmd + len, size - len, " if %s", trigger->filter_str);
	copy = len < size ? kstrdup(cmd) : NULL; /* the parse cuts its text up */
	ret = copy ? event_hist_trigger_parse(&trigger_hist_cmd, file, copy, false, true) : -E2BIG;
	kfree(copy);
	kfree(cmd);
	if (ret) {
		hist_err(HIST_ERR_HIST_CREATE_FAIL, errpos(field_name));
		return NULL;
	}
	var = find_synthetic_field_var(target, system, event_name, field_name);
	if (!var) {
		hist_err(HIST_ERR_SYNTH_VAR_NOT_FOUND, errpos(field_name));
		return NULL;
	}
	return add_field_var_hist(target, file, var) ? NULL : var;
}

/*
 * target goes (it is off hist_vars already): a hidden histogram it made or shared goes with
 * the last histogram that used it, unless another histogram refers to its variable itself.
 */
static void unregister_field_var_hists(struct hist_trigger_data *target)
{
	lockdep_assert_held(&event_mutex);
	for (unsigned int i = 0; i < target->n_field_var_hists; i++) {
		struct field_var_hist *var_hist = target->field_var_hists[i];
		struct event_trigger_data *trigger =
			find_hist_data_trigger(var_hist->file, var_hist->hist_data);

		/* still on its event's list (else it is gone, and hist_data with it) */
		if (trigger && --var_hist->hist_data->field_var_users == 0 &&
		    !check_var_refs(var_hist->hist_data)) {
			event_trigger_remove(var_hist->file, trigger);
			event_hist_trigger_free(trigger);
		}
		kfree(var_hist);
	}
	target->n_field_var_hists = 0;
}

/*
 * A field as a trace() parameter: a field variable of this event if it has that field (or
 * the parameter names this event), else of the matched one, through a hidden histogram
 * there (Linux's trace_action_create_field_var()). The first try logs its errors even when
 * the second succeeds, as Linux's does.
 */
static struct hist_field *trace_action_create_field_var(struct hist_trigger_data *hist_data,
							struct action_data *data,
							const char *system, const char *event,
							char *var)
{
	struct trace_event_file *file = hist_data->event_file;
	struct field_var *field_var = NULL;

	if (!system ||
	    (event && !strcmp(system, file->call->system) && !strcmp(event, file->call->name)))
		field_var = create_field_var(hist_data, file, var);
	if (field_var) {
		save_field_var(hist_data, field_var);
		return field_var->var;
	}
	if (!system && data->handler == HANDLER_ONMATCH) {
		system = data->match_data.event_system;
		event = data->match_data.event;
	}
	if (!system || !event)
		return NULL;
	return create_field_var_hist(hist_data, system, event, var);
}

static int trace_action_create(struct hist_trigger_data *hist_data, struct action_data *data)
{
	const char *synth_event_name =
		data->use_trace_keyword ? data->synth_event_name : data->action_name;
	struct synth_event *event;
	unsigned int field_pos = 0;
	int ret = 0;

	lockdep_assert_held(&event_mutex);
	event = synth_event_name ? find_synth_event(synth_event_name) : NULL;
	if (!event) {
		hist_err(HIST_ERR_SYNTH_EVENT_NOT_FOUND, errpos(synth_event_name));
		return -EINVAL;
	}
	event->ref++;
	for (unsigned int i = 0; i < data->n_params; i++) {
		char *p = kstrdup(data->params[i]), *param = p, *system, *event_name = NULL;
		struct hist_field *hf, *var_ref;

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		system = strsep(&param, ".");
		if (!param) {
			param = system;
			system = NULL;
		} else {
			event_name = strsep(&param, ".");
			if (!param) {
				kfree(p);
				ret = -EINVAL;
				break;
			}
		}
		if (param[0] == '$')
			hf = trace_action_find_var(hist_data, data, system, event_name, param);
		else
			hf = trace_action_create_field_var(hist_data, data, system, event_name,
							   param);
		if (!hf) {
			kfree(p);
			ret = -EINVAL;
			break;
		}
		if (check_synth_field(event, hf, field_pos)) {
			hist_err(HIST_ERR_SYNTH_TYPE_MISMATCH, errpos(param));
			kfree(p);
			ret = -EINVAL;
			break;
		}
		var_ref = create_var_ref(hist_data, hf, system, event_name);
		kfree(p);
		if (!var_ref) {
			ret = -ENOMEM;
			break;
		}
		data->var_ref_idx[i] = var_ref->var_ref_idx;
		field_pos++;
	}
	if (!ret && field_pos != event->n_fields) {
		hist_err(HIST_ERR_SYNTH_COUNT_MISMATCH, errpos(event->name));
		ret = -EINVAL;
	}
	if (ret) {
		event->ref--;
		return ret;
	}
	data->synth_event = event;
	return 0;
}

static int action_create(struct hist_trigger_data *hist_data, struct action_data *data)
{
	struct trace_event_file *file = hist_data->event_file;

	if (data->action == ACTION_TRACE)
		return trace_action_create(hist_data, data);
	if (data->action == ACTION_SNAPSHOT) {
		data->snap.key = kzalloc(hist_data->key_size);
		return data->snap.key ? 0 : -ENOMEM;
	}
	if (hist_data->n_save_vars) {
		hist_err(HIST_ERR_TOO_MANY_SAVE_ACTIONS, 0);
		return -EEXIST;
	}
	for (unsigned int i = 0; i < data->n_params; i++) {
		char *param = kstrdup(data->params[i]);
		struct field_var *field_var;

		if (!param)
			return -ENOMEM;
		field_var = create_field_var(hist_data, file, param);
		if (!field_var) {
			hist_err(HIST_ERR_FIELD_VAR_CREATE_FAIL, errpos(param));
			kfree(param);
			return -EINVAL;
		}
		hist_data->save_vars[hist_data->n_save_vars++] = field_var;
		if (field_var->val->flags & HIST_FIELD_FL_STRING)
			hist_data->n_save_var_str++;
		kfree(param);
	}
	return 0;
}

/* onmax($var)/onchange($var): its reference and the entry's tracking variable. */
static int track_data_create(struct hist_trigger_data *hist_data, struct action_data *data)
{
	char *var_str = data->track_data.var_str;
	struct hist_field *var_field, *ref;
	int err;

	if (var_str[0] != '$') {
		hist_err(HIST_ERR_ONX_NOT_VAR, errpos(var_str));
		return -EINVAL;
	}
	var_str++;
	var_field = find_var_field(hist_data, var_str);
	if (!var_field) {
		hist_err(HIST_ERR_ONX_VAR_NOT_FOUND, errpos(var_str));
		return -EINVAL;
	}
	ref = create_var_ref(hist_data, var_field, NULL, NULL);
	if (!ref)
		return -ENOMEM;
	data->track_data.var_ref = ref;
	data->track_data.track_var =
		create_var(hist_data, hist_data->event_file,
			   data->handler == HANDLER_ONMAX ? "__max" : "__change", sizeof(uint64_t),
			   "u64", &err);
	if (!data->track_data.track_var) {
		hist_err(HIST_ERR_ONX_VAR_CREATE_FAIL, 0);
		return err;
	}
	return action_create(hist_data, data);
}

static int create_actions(struct hist_trigger_data *hist_data)
{
	int ret = 0;

	for (unsigned int i = 0; i < hist_data->n_actions && !ret; i++) {
		struct action_data *data = hist_data->actions[i];

		if (data->handler == HANDLER_ONMATCH)
			ret = action_create(hist_data, data);
		else
			ret = track_data_create(hist_data, data);
	}
	return ret;
}

/* The same actions (a "!hist:..." names the trigger to remove by them too): actions_match(). */
static bool actions_match(const struct hist_trigger_data *hist_data,
			  const struct hist_trigger_data *hist_data_test)
{
	if (hist_data->n_actions != hist_data_test->n_actions)
		return false;
	for (unsigned int i = 0; i < hist_data->n_actions; i++) {
		const struct action_data *a = hist_data->actions[i],
					 *b = hist_data_test->actions[i];
		const char *name_a = a->use_trace_keyword ? a->synth_event_name : a->action_name;
		const char *name_b = b->use_trace_keyword ? b->synth_event_name : b->action_name;

		if (a->handler != b->handler || a->action != b->action ||
		    a->n_params != b->n_params)
			return false;
		for (unsigned int j = 0; j < a->n_params; j++)
			if (strcmp(a->params[j], b->params[j]))
				return false;
		if (!name_a || !name_b || strcmp(name_a, name_b))
			return false;
		if (a->handler == HANDLER_ONMATCH &&
		    (strcmp(a->match_data.event_system, b->match_data.event_system) ||
		     strcmp(a->match_data.event, b->match_data.event)))
			return false;
		if (a->handler != HANDLER_ONMATCH &&
		    strcmp(a->track_data.var_str, b->track_data.var_str))
			return false;
	}
	return true;
}

/* --- actions: on a hit ------------------------------------------------------------------------ */

/* trace(): the synthetic event's record from the parameters' values. */
static void action_trace(struct action_data *data, const uint64_t *var_ref_vals)
{
	struct synth_event *event = data->synth_event;
	uint64_t vals[SYNTH_FIELDS_MAX];

	for (unsigned int i = 0; i < event->n_fields; i++)
		vals[i] = var_ref_vals[data->var_ref_idx[i]];
	synth_event_fire(event, vals);
}

static void action_snapshot(struct hist_trigger_data *hist_data, struct action_data *data,
			    struct tracing_map_elt *elt, void *key, uint64_t val)
{
	struct trace_array *tr = hist_data->event_file->tr;

	if (!trace_snapshot_request(tr))
		return; /* one is on its way already: its figures stay */
	data->snap.track_val = val;
	memcpy(data->snap.key, key, hist_data->key_size);
	if (elt->private_data)
		strlcpy(data->snap.comm, elt->private_data, TASK_COMM_LEN);
	__atomic_store_n(&data->snap.updated, true, __ATOMIC_RELEASE);
}

/* onmax/onchange: a new maximum (or value) is kept, then the action runs (ontrack_action()). */
static void ontrack_action(struct hist_trigger_data *hist_data, struct tracing_map_elt *elt,
			   void *rec, unsigned int len, void *key, struct action_data *data,
			   const uint64_t *var_ref_vals)
{
	uint64_t var_val = var_ref_vals[data->track_data.var_ref->var_ref_idx];
	unsigned int track_idx = data->track_data.track_var->var.idx;

	if (!data->track_data.check_val(tracing_map_read_var(elt, track_idx), var_val))
		return;
	tracing_map_set_var(elt, track_idx, var_val);
	if (data->action == ACTION_SAVE)
		__update_field_vars(elt, rec, len, hist_data->save_vars, hist_data->n_save_vars,
				    hist_data->n_field_var_str);
	else if (data->action == ACTION_TRACE)
		action_trace(data, var_ref_vals);
	else
		action_snapshot(hist_data, data, elt, key, var_val);
}

static void hist_trigger_actions(struct hist_trigger_data *hist_data, struct tracing_map_elt *elt,
				 void *rec, unsigned int len, void *key,
				 const uint64_t *var_ref_vals)
{
	for (unsigned int i = 0; i < hist_data->n_actions; i++) {
		struct action_data *data = hist_data->actions[i];

		if (data->handler == HANDLER_ONMATCH)
			action_trace(data, var_ref_vals);
		else
			ontrack_action(hist_data, elt, rec, len, key, data, var_ref_vals);
	}
}

/* --- from the words to the histogram ---------------------------------------------------------- */

static int create_hitcount_val(struct hist_trigger_data *hist_data)
{
	hist_data->fields[HITCOUNT_IDX] =
		create_hist_field(hist_data, NULL, HIST_FIELD_FL_HITCOUNT, NULL);
	if (!hist_data->fields[HITCOUNT_IDX])
		return -ENOMEM;
	hist_data->n_vals++;
	hist_data->n_fields++;
	return 0;
}

/* What a value cannot be: a key's presentation, not a number to add (Linux 6.2's check). */
#define HIST_VAL_BAD_FLAGS                                                             \
	(HIST_FIELD_FL_BUCKET | HIST_FIELD_FL_LOG2 | HIST_FIELD_FL_SYM |               \
	 HIST_FIELD_FL_SYM_OFFSET | HIST_FIELD_FL_SYSCALL | HIST_FIELD_FL_STACKTRACE | \
	 HIST_FIELD_FL_EXECNAME)

static int create_val_field(struct hist_trigger_data *hist_data, unsigned int val_idx,
			    struct trace_event_file *file, char *field_str)
{
	struct hist_field *hf;
	int err;

	hf = parse_expr(hist_data, file, field_str, 0, NULL, &err);
	if (!hf)
		return err;
	if ((hf->flags & HIST_VAL_BAD_FLAGS) || (hf->flags & HIST_FIELD_FL_STRING)) {
		destroy_hist_field(hf, 0);
		hist_err(HIST_ERR_BAD_FIELD_MODIFIER, errpos(field_str));
		return -EINVAL;
	}
	hist_data->fields[val_idx] = hf;
	hist_data->n_vals++;
	hist_data->n_fields++;
	return 0;
}

static int create_val_fields(struct hist_trigger_data *hist_data, struct trace_event_file *file)
{
	char *fields_str = hist_data->attrs->vals_str, *field_str;
	unsigned int i, j = 1;
	int ret = create_hitcount_val(hist_data);

	if (ret || !fields_str)
		return ret;
	for (i = 0; i < TRACING_MAP_VALS_MAX && j < TRACING_MAP_VALS_MAX; i++) {
		field_str = strsep(&fields_str, ",");
		if (!field_str)
			break;
		if (!strcmp(field_str, "hitcount"))
			continue;
		ret = create_val_field(hist_data, j++, file, field_str);
		if (ret)
			return ret;
	}
	if (fields_str && strcmp(fields_str, "hitcount") != 0)
		return -EINVAL; /* too many: Linux says no more */
	return 0;
}

/* One key; its size in the map's key (a multiple of 8), or a negative errno. */
static int create_key_field(struct hist_trigger_data *hist_data, unsigned int key_idx,
			    unsigned int key_offset, struct trace_event_file *file, char *field_str)
{
	unsigned long flags = HIST_FIELD_FL_KEY;
	struct hist_field *hf;
	unsigned int key_size;
	int err;

	if (!strcmp(field_str, "stacktrace")) {
		flags |= HIST_FIELD_FL_STACKTRACE;
		key_size = HIST_STACKTRACE_SIZE;
		hf = create_hist_field(hist_data, NULL, flags, NULL);
		if (!hf)
			return -ENOMEM;
	} else {
		hf = parse_expr(hist_data, file, field_str, flags, NULL, &err);
		if (!hf)
			return err;
		if (field_has_hist_vars(hf, 0)) {
			hist_err(HIST_ERR_INVALID_REF_KEY, errpos(field_str));
			destroy_hist_field(hf, 0);
			return -EINVAL;
		}
		key_size = hf->size;
	}
	hist_data->fields[key_idx] = hf;
	key_size = (unsigned int)ALIGN_UP(key_size, sizeof(uint64_t));
	hf->size = key_size;
	hf->offset = key_offset;
	hist_data->key_size += key_size;
	hist_data->n_keys++;
	hist_data->n_fields++;
	if (hist_data->key_size > HIST_KEY_SIZE_MAX)
		return -EINVAL;
	return (int)key_size;
}

static int create_key_fields(struct hist_trigger_data *hist_data, struct trace_event_file *file)
{
	unsigned int i, key_offset = 0, n_vals = hist_data->n_vals;
	char *fields_str = hist_data->attrs->keys_str, *field_str;
	int ret = -EINVAL;

	for (i = n_vals; i < n_vals + TRACING_MAP_KEYS_MAX; i++) {
		field_str = strsep(&fields_str, ",");
		if (!field_str)
			break;
		ret = create_key_field(hist_data, i, key_offset, file, field_str);
		if (ret < 0)
			return ret;
		key_offset += (unsigned int)ret;
	}
	return fields_str ? -EINVAL : 0; /* a fourth key */
}

static int create_hist_fields(struct hist_trigger_data *hist_data, struct trace_event_file *file)
{
	int ret;

	/* the values, then the variables (name=expr), then the keys: Linux's order */
	ret = parse_var_defs(hist_data);
	if (ret)
		return ret;
	ret = create_val_fields(hist_data, file);
	if (!ret)
		ret = create_var_fields(hist_data, file);
	if (!ret)
		ret = create_key_fields(hist_data, file);
	free_var_defs(hist_data->attrs);
	return ret;
}

/* "descending" 1, "ascending" or nothing 0, anything else -EINVAL (logged). */
static int is_descending(const char *str)
{
	if (!str || !strcmp(str, "ascending"))
		return 0;
	if (!strcmp(str, "descending"))
		return 1;
	hist_err(HIST_ERR_INVALID_SORT_MODIFIER, errpos(str));
	return -EINVAL;
}

static int create_sort_keys(struct hist_trigger_data *hist_data)
{
	char *fields_str = hist_data->attrs->sort_key_str;
	int descending, ret = 0;
	unsigned int i;

	hist_data->n_sort_keys = 1; /* at least one: hitcount, ascending */
	if (!fields_str)
		return 0;
	for (i = 0; i < TRACING_MAP_SORT_KEYS_MAX; i++) {
		struct tracing_map_sort_key *sort_key = &hist_data->sort_keys[i];
		char *field_str = strsep(&fields_str, ","), *field_name;
		unsigned int j, k;

		if (!field_str)
			break;
		if (!*field_str) {
			hist_err(HIST_ERR_EMPTY_SORT_FIELD, errpos("sort="));
			return -EINVAL;
		}
		if (i == TRACING_MAP_SORT_KEYS_MAX - 1 && fields_str) {
			hist_err(HIST_ERR_TOO_MANY_SORT_FIELDS, errpos("sort="));
			return -EINVAL;
		}
		field_name = strsep(&field_str, ".");
		if (!*field_name) {
			hist_err(HIST_ERR_EMPTY_SORT_FIELD, errpos("sort="));
			return -EINVAL;
		}
		if (!strcmp(field_name, "hitcount")) {
			descending = is_descending(field_str);
			if (descending < 0)
				return descending;
			sort_key->field_idx = HITCOUNT_IDX;
			sort_key->descending = descending;
			continue;
		}
		/* a val or a key, by name; map fields are numbered without the variables */
		for (j = 1, k = 1; j < hist_data->n_fields; j++) {
			struct hist_field *hf = hist_data->fields[j];
			unsigned int idx;

			if (hf->flags & HIST_FIELD_FL_VAR)
				continue;
			idx = k++;
			if (!strcmp(field_name, hist_field_name(hf, 0))) {
				descending = is_descending(field_str);
				if (descending < 0)
					return descending;
				sort_key->field_idx = idx;
				sort_key->descending = descending;
				break;
			}
		}
		if (j == hist_data->n_fields) {
			hist_err(HIST_ERR_INVALID_SORT_FIELD, errpos(field_name));
			return -EINVAL;
		}
	}
	hist_data->n_sort_keys = i;
	return ret;
}

/* --- an entry's own data: the task's name for .execname (map->elt_priv_size bytes) ---------- */

/* From the hit: the name of the task that made the entry (Linux's save_comm()). */
static void hist_elt_init(struct tracing_map_elt *elt)
{
	char *comm = elt->private_data;
	struct task *t = current;

	if (!comm)
		return;
	if (!t || !t->pid)
		strcpy(comm, "<idle>");
	else
		strncpy(comm, t->comm, TASK_COMM_LEN - 1);
}

static const struct tracing_map_ops hist_elt_ops = {
	.elt_init = hist_elt_init,
};

static void destroy_hist_data(struct hist_trigger_data *hist_data)
{
	if (!hist_data)
		return;
	remove_hist_vars(hist_data);
	unregister_field_var_hists(hist_data);
	destroy_actions(hist_data);
	for (unsigned int i = 0; i < hist_data->n_field_vars; i++)
		destroy_field_var(hist_data->field_vars[i]);
	for (unsigned int i = 0; i < hist_data->n_save_vars; i++)
		destroy_field_var(hist_data->save_vars[i]);
	if (hist_data->attrs)
		free_var_defs(hist_data->attrs);
	destroy_hist_trigger_attrs(hist_data->attrs);
	for (unsigned int i = 0; i < HIST_FIELDS_MAX; i++)
		destroy_hist_field(hist_data->fields[i], 0);
	/* the references, each once (fields and actions only pointed at them) */
	for (unsigned int i = 0; i < hist_data->n_var_refs; i++) {
		struct hist_field *ref = hist_data->var_refs[i];

		ref->flags &= ~HIST_FIELD_FL_VAR_REF;
		destroy_hist_field(ref, 0);
	}
	tracing_map_destroy(hist_data->map);
	kfree(hist_data);
}

static int create_tracing_map_fields(struct hist_trigger_data *hist_data)
{
	struct tracing_map *map = hist_data->map;

	for (unsigned int i = 0; i < hist_data->n_fields; i++) {
		struct hist_field *hf = hist_data->fields[i];
		int idx = 0;

		if (hf->flags & HIST_FIELD_FL_KEY) {
			const struct trace_event_field *field = hf->field;
			tracing_map_cmp_fn_t cmp_fn;

			if (hf->flags & HIST_FIELD_FL_STACKTRACE)
				cmp_fn = tracing_map_cmp_none;
			else if (hf->flags & HIST_FIELD_FL_STRING)
				cmp_fn = tracing_map_cmp_string;
			else if (!field)
				cmp_fn = tracing_map_cmp_num((int)hf->size, hf->is_signed);
			else
				cmp_fn = tracing_map_cmp_num((int)field->size, field->is_signed);
			idx = tracing_map_add_key_field(map, hf->offset, cmp_fn);
		} else if (!(hf->flags & HIST_FIELD_FL_VAR)) {
			idx = tracing_map_add_sum_field(map);
		}
		if (idx < 0)
			return idx;
		if (hf->flags & HIST_FIELD_FL_VAR) {
			idx = tracing_map_add_var(map);
			if (idx < 0)
				return idx;
			hf->var.idx = (unsigned int)idx;
			hf->var.hist_data = hist_data;
		}
		if (hf->flags & HIST_FIELD_FL_EXECNAME)
			hist_data->has_execname = true;
	}
	if (hist_data->has_execname)
		map->elt_priv_size = TASK_COMM_LEN; /* each entry keeps its task's name */
	hist_data->simple_key =
		hist_data->n_keys == 1 && !(hist_data->fields[hist_data->n_vals]->flags &
					    (HIST_FIELD_FL_STRING | HIST_FIELD_FL_STACKTRACE));
	return 0;
}

static struct hist_trigger_data *create_hist_data(unsigned int map_bits,
						  struct hist_trigger_attrs *attrs,
						  struct trace_event_file *file, bool remove,
						  int *err)
{
	struct hist_trigger_data *hist_data = kzalloc(sizeof(*hist_data));

	*err = -ENOMEM;
	if (!hist_data)
		return NULL;
	hist_data->attrs = attrs;
	hist_data->remove = remove;
	hist_data->event_file = file;
	/* the actions first: a variable of the event onmatch() names is found through them */
	*err = parse_actions(hist_data);
	if (!*err)
		*err = create_hist_fields(hist_data, file);
	if (!*err)
		*err = create_sort_keys(hist_data);
	if (!*err) {
		hist_data->map =
			tracing_map_create(map_bits, hist_data->key_size, &hist_elt_ops, hist_data);
		*err = hist_data->map ? create_tracing_map_fields(hist_data) : -ENOMEM;
	}
	/* their variables and references, the synthetic events held: not for a removal */
	if (!*err && !remove)
		*err = create_actions(hist_data);
	hist_data->has_vars = hist_data->n_vars || hist_data->n_var_refs || hist_data->n_actions ||
			      hist_data->n_field_vars;
	if (hist_data->has_vars)
		hist_data->simple_key = false; /* the simple key's path knows no variables */
	/* each entry's task name, then its string variables' slots (elt_str()), once all known */
	if (!*err && hist_n_str(hist_data))
		hist_data->map->elt_priv_size =
			TASK_COMM_LEN + hist_n_str(hist_data) * STR_VAR_LEN_MAX;
	if (*err) {
		hist_data->attrs = NULL; /* the caller's */
		destroy_hist_data(hist_data);
		return NULL;
	}
	return hist_data;
}

/* --- the hit ---------------------------------------------------------------------------------- */

/* The named histograms (":name=foo"), on hist_data->named_next; under event_mutex. */
static struct hist_trigger_data *named_hists;

/* The tracepoint's own function (kernel/tracepoint.h's __do_trace_NAME), which calls probes. */
static bool is_tracepoint_frame(unsigned long addr)
{
	const char *name;
	unsigned long start, size;

	return kallsyms_lookup(addr, &name, &start, &size) &&
	       !strncmp(name, TRACEPOINT_FN_PREFIX, strlen(TRACEPOINT_FN_PREFIX));
}

/*
 * A stack key: the return addresses from the code that fired the event outwards, 0-padded.
 * ip is the probe's return into its caller: the tracepoint's function, which Linux's stacks
 * do not show either, or a caller of its own (trace_marker's).
 */
static void hist_stack_key(unsigned long *entries, unsigned long ip)
{ /* entries: HIST_STACKTRACE_DEPTH of them, zeroed by the caller */
	unsigned long frames[HIST_STACKTRACE_DEPTH + HIST_STACKTRACE_SLACK];
	int n = trace_save_stack(frames, (int)ARRAY_SIZE(frames)), first = 0;

	for (int i = 0; ip && i < n; i++) {
		if (frames[i] == ip) {
			first = i;
			break;
		}
	}
	if (first < n && is_tracepoint_frame(frames[first]))
		first++;
	for (int i = first, j = 0; i < n && j < HIST_STACKTRACE_DEPTH; i++, j++)
		entries[j] = frames[i];
}

/* Copies a string key's text (up to its room, NUL-terminated) into the key. */
static void add_str_to_key(char *key, const struct hist_field *hf, const char *str,
			   unsigned int max)
{
	unsigned int n = 0, room = hf->size - 1;

	if (str)
		while (n < max && n < room && str[n])
			n++;
	memcpy(key + hf->offset, str, n);
}

/*
 * The same for a histogram with variables, references or actions (Linux's event_hist_trigger()
 * from the key on): the other histograms' variables this hit reads must all be set for its key,
 * or it leaves no trace; then the entry, its variables, its field variables, and the actions.
 * Out of line: the common histogram needs none of it.
 */
static noinline void hist_trigger_update_vars(struct hist_trigger_data *hist_data,
					      const void *key_in, void *rec, unsigned int len)
{
	uint64_t var_ref_vals[TRACING_MAP_VARS_MAX], *saved_vals;
	int cpu = smp_processor_id();
	void *key = (void *)key_in;
	struct tracing_map_elt *elt;

	if (hist_data->n_var_refs)
		memset(var_ref_vals, 0, sizeof(var_ref_vals[0]) * hist_data->n_var_refs);
	/* another histogram's variables for this key: all set, or the hit leaves no trace */
	if (hist_data->n_var_refs && !resolve_var_refs(hist_data, key, var_ref_vals, false))
		return;
	elt = tracing_map_insert(hist_data->map, key);
	if (!elt)
		return;
	saved_vals = hist_var_ref_vals[cpu];
	hist_var_ref_vals[cpu] = var_ref_vals;
	for (unsigned int i = 0; i < hist_data->n_vals; i++) {
		struct hist_field *hf = hist_data->fields[i];
		uint64_t hist_val = hist_fn_call(hf, elt, rec, len);

		if (!(hf->flags & HIST_FIELD_FL_VAR)) {
			tracing_map_update_sum(elt, i, hist_val);
			continue;
		}
		if (hf->flags & HIST_FIELD_FL_STRING) {
			/* a string variable: a copy in the entry's slot, as Linux keeps it */
			unsigned int size = hf->size < STR_VAR_LEN_MAX ? hf->size : STR_VAR_LEN_MAX;
			char *str =
				elt_str(elt, hist_data->n_field_var_str +
						     hist_data->n_save_var_str + hf->var_str_idx);
			const char *val_str = (const char *)(uintptr_t)hist_val;

			strlcpy(str, val_str ? val_str : "", size);
			hist_val = (uint64_t)(uintptr_t)str;
		}
		tracing_map_set_var(elt, hf->var.idx, hist_val);
	}
	__update_field_vars(elt, rec, len, hist_data->field_vars, hist_data->n_field_vars, 0);
	/* then this histogram's own variables the actions use, and the actions */
	if (hist_data->n_actions && resolve_var_refs(hist_data, key, var_ref_vals, true))
		hist_trigger_actions(hist_data, elt, rec, len, key, var_ref_vals);
	hist_var_ref_vals[cpu] = saved_vals;
}

/* The entry of key: made or found, its hitcount and sums added to (vars set). */
static __always_inline void hist_trigger_update(struct hist_trigger_data *hist_data,
						const void *key, void *rec, unsigned int len)
{
	struct tracing_map_elt *elt = tracing_map_insert(hist_data->map, key);

	if (!elt)
		return; /* the map is full: counted as dropped */
	tracing_map_update_sum(elt, HITCOUNT_IDX, 1); /* fields[0], always the hitcount */
	for (unsigned int i = HITCOUNT_IDX + 1; i < hist_data->n_vals; i++) {
		struct hist_field *hf = hist_data->fields[i];

		tracing_map_update_sum(elt, i, hist_fn_call(hf, elt, rec, len));
	}
}

/*
 * A key of several fields, a string or a stack: built in a buffer of its own, each part at
 * its offset, the rest zero (Linux's compound key). Out of line: its buffer is big, and the
 * common key, one number, needs none of it.
 */
static noinline void hist_trigger_compound(struct hist_trigger_data *hist_data, void *rec,
					   unsigned int len, unsigned long ip)
{
	char key[HIST_KEY_SIZE_MAX] __aligned(8);

	memset(key, 0, hist_data->key_size);
	for (unsigned int i = hist_data->n_vals; i < hist_data->n_fields; i++) {
		struct hist_field *key_field = hist_data->fields[i];

		if (key_field->flags & HIST_FIELD_FL_STACKTRACE) {
			hist_stack_key((unsigned long *)(key + key_field->offset), ip);
		} else if (key_field->flags & HIST_FIELD_FL_STRING) {
			unsigned int max = 0;
			const char *str = hist_field_str(key_field, rec, len, &max);

			add_str_to_key(key, key_field, str, max);
		} else {
			uint64_t field_contents = hist_fn_call(key_field, NULL, rec, len);

			__builtin_memcpy(key + key_field->offset, &field_contents,
					 sizeof(field_contents));
		}
	}
	if (unlikely(hist_data->has_vars))
		hist_trigger_update_vars(hist_data, key, rec, len);
	else
		hist_trigger_update(hist_data, key, rec, len);
}

/* A hit (Linux's event_hist_trigger()): from the probe, any CPU, no lock, no allocation. */
static void event_hist_trigger(struct event_trigger_data *data, void *rec, unsigned int len,
			       unsigned long ip)
{
	struct hist_trigger_data *hist_data = data->private_data;
	struct hist_field *key_field;
	uint64_t key;

	if (__atomic_load_n(&hist_data->clearing, __ATOMIC_ACQUIRE))
		return;
	if (!hist_data->simple_key) {
		hist_trigger_compound(hist_data, rec, len, ip);
		return;
	}
	key_field = hist_data->fields[hist_data->n_vals];
	if (key_field->fn_num == HIST_FIELD_FN_S64 || key_field->fn_num == HIST_FIELD_FN_U64) {
		/* a long (an id, an address): its 8 bytes are the key as they are */
		__builtin_memcpy(&key, (const char *)rec + key_field->field->offset, sizeof(key));
	} else {
		key = hist_fn_call(key_field, NULL, rec, len);
	}
	hist_trigger_update(hist_data, &key, rec, len);
}

/* --- printing --------------------------------------------------------------------------------- */

/* A growing text: snprintf's contract (len may pass size: what it would need). */
struct hbuf {
	char *buf;
	size_t size, len;
};

static __printf(2, 3) void hb_printf(struct hbuf *hb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(hb->len < hb->size ? hb->buf + hb->len : NULL,
		      hb->len < hb->size ? hb->size - hb->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		hb->len += (size_t)n;
}

static const char *get_hist_field_flags(const struct hist_field *hf)
{
	if (hf->flags & HIST_FIELD_FL_HEX)
		return "hex";
	if (hf->flags & HIST_FIELD_FL_SYM)
		return "sym";
	if (hf->flags & HIST_FIELD_FL_SYM_OFFSET)
		return "sym-offset";
	if (hf->flags & HIST_FIELD_FL_EXECNAME)
		return "execname";
	if (hf->flags & HIST_FIELD_FL_SYSCALL)
		return "syscall";
	if (hf->flags & HIST_FIELD_FL_LOG2)
		return "log2";
	if (hf->flags & HIST_FIELD_FL_BUCKET)
		return "buckets";
	if (hf->flags & HIST_FIELD_FL_TIMESTAMP_USECS)
		return "usecs";
	return NULL;
}

static void hist_field_print(struct hbuf *hb, const struct hist_field *hf)
{
	const char *field_name = hist_field_name(hf, 0);

	if (hf->var.name)
		hb_printf(hb, "%s=", hf->var.name);
	if (hf->flags & HIST_FIELD_FL_CPU)
		hb_printf(hb, "common_cpu");
	else if (hf->flags & HIST_FIELD_FL_CONST)
		hb_printf(hb, "%llu", (unsigned long long)hf->constant);
	else if (*field_name)
		hb_printf(hb, "%s%s",
			  hf->flags & (HIST_FIELD_FL_VAR_REF | HIST_FIELD_FL_ALIAS) ? "$" : "",
			  field_name);
	else if (hf->flags & HIST_FIELD_FL_TIMESTAMP)
		hb_printf(hb, "common_timestamp");
	if (hf->flags && !(hf->flags & (HIST_FIELD_FL_VAR_REF | HIST_FIELD_FL_EXPR))) {
		const char *flags = get_hist_field_flags(hf);

		if (flags)
			hb_printf(hb, ".%s", flags);
	}
	if (hf->buckets)
		hb_printf(hb, "=%lu", hf->buckets);
}

/* --- printing the actions --------------------------------------------------------------------- */

/* ":onmatch(sched.sched_waking).trace(wakeup_latency,$lat,next_pid)", ":onmax($lat).save(...)" */
static void print_action_spec(struct hbuf *hb, const struct hist_trigger_data *hist_data,
			      const struct action_data *data)
{
	if (data->action == ACTION_SAVE) {
		for (unsigned int i = 0; i < hist_data->n_save_vars; i++)
			hb_printf(hb, "%s%s", i ? "," : "", hist_data->save_vars[i]->var->var.name);
	} else if (data->action == ACTION_TRACE) {
		if (data->use_trace_keyword)
			hb_printf(hb, "%s", data->synth_event_name);
		for (unsigned int i = 0; i < data->n_params; i++)
			hb_printf(hb, "%s%s", i || data->use_trace_keyword ? "," : "",
				  data->params[i]);
	}
}

static void print_actions_spec(struct hbuf *hb, const struct hist_trigger_data *hist_data)
{
	for (unsigned int i = 0; i < hist_data->n_actions; i++) {
		const struct action_data *data = hist_data->actions[i];

		if (data->handler == HANDLER_ONMATCH)
			hb_printf(hb, ":onmatch(%s.%s).", data->match_data.event_system,
				  data->match_data.event);
		else
			hb_printf(hb, ":%s(%s).",
				  data->handler == HANDLER_ONMAX ? "onmax" : "onchange",
				  data->track_data.var_str);
		hb_printf(hb, "%s(", data->action_name);
		print_action_spec(hb, hist_data, data);
		hb_printf(hb, ")");
	}
}

/* After an entry's sums: "\n\tmax:  N  next_comm: cyclictest ..." (Linux's track_data_print). */
static void print_actions(struct seq_file *m, struct hist_trigger_data *hist_data,
			  struct tracing_map_elt *elt)
{
	for (unsigned int i = 0; i < hist_data->n_actions; i++) {
		struct action_data *data = hist_data->actions[i];

		if (data->action == ACTION_SNAPSHOT || data->handler == HANDLER_ONMATCH)
			continue;
		seq_printf(m,
			   data->handler == HANDLER_ONMAX ? "\n\tmax: %10llu"
							  : "\n\tchanged: %10llu",
			   (unsigned long long)tracing_map_read_var(
				   elt, data->track_data.track_var->var.idx));
		for (unsigned int j = 0; j < hist_data->n_save_vars; j++) {
			struct hist_field *save_val = hist_data->save_vars[j]->val;
			struct hist_field *save_var = hist_data->save_vars[j]->var;
			uint64_t val = tracing_map_read_var(elt, save_var->var.idx);

			if (save_val->flags & HIST_FIELD_FL_STRING)
				seq_printf(m, "  %s: %-32s", save_var->var.name,
					   val ? (const char *)(uintptr_t)val : "");
			else
				seq_printf(m, "  %s: %10llu", save_var->var.name,
					   (unsigned long long)val);
		}
	}
}

static void hist_trigger_print_key(struct seq_file *m, struct hist_trigger_data *hist_data,
				   const char *key, struct tracing_map_elt *elt);

/* After the entries, if a snapshot() action took one: what and which entry (Linux's). */
static void track_data_snapshot_print(struct seq_file *m, struct hist_trigger_data *hist_data)
{
	for (unsigned int i = 0; i < hist_data->n_actions; i++) {
		struct action_data *data = hist_data->actions[i];
		struct tracing_map_elt elt = {.private_data = data->snap.comm};

		if (data->action != ACTION_SNAPSHOT ||
		    !__atomic_load_n(&data->snap.updated, __ATOMIC_ACQUIRE))
			continue;
		seq_puts(m, "\nSnapshot taken (see tracing/snapshot).  Details:\n");
		seq_printf(m, "\ttriggering value { %s(%s) }: %10llu",
			   data->handler == HANDLER_ONMAX ? "onmax" : "onchange",
			   data->track_data.var_str, (unsigned long long)data->snap.track_val);
		seq_puts(m, "\ttriggered by event with key: ");
		hist_trigger_print_key(m, hist_data, data->snap.key, &elt);
		seq_putc(m, '\n');
		break;
	}
}

/* The trigger's line (trigger file, and the hist file's "# trigger info:"), Linux's. */
static int event_hist_trigger_print(struct event_trigger_data *data, char *buf, size_t size)
{
	struct hist_trigger_data *hist_data = data->private_data;
	struct hbuf hb = {buf, size, 0};
	unsigned int i;

	if (size)
		buf[0] = '\0';
	hb_printf(&hb, HIST_PREFIX);
	if (hist_data->attrs->name)
		hb_printf(&hb, "%s:", hist_data->attrs->name);
	hb_printf(&hb, "keys=");
	for (i = hist_data->n_vals; i < hist_data->n_fields; i++) {
		if (i > hist_data->n_vals)
			hb_printf(&hb, ",");
		if (hist_data->fields[i]->flags & HIST_FIELD_FL_STACKTRACE)
			hb_printf(&hb, "stacktrace");
		else
			hist_field_print(&hb, hist_data->fields[i]);
	}
	hb_printf(&hb, ":vals=");
	for (i = 0; i < hist_data->n_vals; i++) {
		if (hist_data->fields[i]->flags & HIST_FIELD_FL_VAR)
			continue;
		if (i == HITCOUNT_IDX) {
			hb_printf(&hb, "hitcount");
		} else {
			hb_printf(&hb, ",");
			hist_field_print(&hb, hist_data->fields[i]);
		}
	}
	if (hist_data->n_vars) { /* ":ts0=common_timestamp.usecs,...", Linux's place for them */
		unsigned int n = 0;

		hb_printf(&hb, ":");
		for (i = 0; i < hist_data->n_vals; i++) {
			if (!(hist_data->fields[i]->flags & HIST_FIELD_FL_VAR))
				continue;
			if (n++)
				hb_printf(&hb, ",");
			hist_field_print(&hb, hist_data->fields[i]);
		}
	}
	hb_printf(&hb, ":sort=");
	for (i = 0; i < hist_data->n_sort_keys; i++) {
		const struct tracing_map_sort_key *sk = &hist_data->sort_keys[i];
		unsigned int idx = sk->field_idx,
			     first_key_idx = hist_data->n_vals - hist_data->n_vars;

		if (i > 0)
			hb_printf(&hb, ",");
		if (idx == HITCOUNT_IDX) {
			hb_printf(&hb, "hitcount");
		} else {
			if (idx >= first_key_idx)
				idx += hist_data->n_vars;
			hist_field_print(&hb, hist_data->fields[idx]);
		}
		if (sk->descending)
			hb_printf(&hb, ".descending");
	}
	hb_printf(&hb, ":size=%u", 1U << hist_data->map->map_bits);
	if (hist_data->enable_timestamps)
		hb_printf(&hb, ":clock=%s", hist_data->attrs->clock);
	print_actions_spec(&hb, hist_data);
	if (data->filter_str)
		hb_printf(&hb, " if %s", data->filter_str);
	hb_printf(&hb, data->paused ? " [paused]\n" : " [active]\n");
	return (int)hb.len;
}

static void hist_trigger_stacktrace_print(struct seq_file *m, const unsigned long *entries)
{
	char sym[KSYM_NAME_LEN];

	for (unsigned int i = 0; i < HIST_STACKTRACE_DEPTH && entries[i]; i++) {
		if (!sprint_symbol(sym, sizeof(sym), entries[i], true))
			snprintf(sym, sizeof(sym), "0x%lx", entries[i]);
		seq_printf(m, "%*c%s\n", 1 + HIST_STACK_INDENT, ' ', sym);
	}
}

static void hist_trigger_print_key(struct seq_file *m, struct hist_trigger_data *hist_data,
				   const char *key, struct tracing_map_elt *elt)
{
	bool multiline = false;
	char sym[KSYM_NAME_LEN];

	seq_puts(m, "{ ");
	for (unsigned int i = hist_data->n_vals; i < hist_data->n_fields; i++) {
		struct hist_field *kf = hist_data->fields[i];
		const char *field_name = hist_field_name(kf, 0);
		unsigned long long uval;

		if (i > hist_data->n_vals)
			seq_puts(m, ", ");
		__builtin_memcpy(&uval, key + kf->offset, sizeof(uval));
		if (kf->flags & HIST_FIELD_FL_HEX) {
			seq_printf(m, "%s: %llx", field_name, uval);
		} else if (kf->flags & (HIST_FIELD_FL_SYM | HIST_FIELD_FL_SYM_OFFSET)) {
			bool off = kf->flags & HIST_FIELD_FL_SYM_OFFSET;

			if (!sprint_symbol(sym, sizeof(sym), (unsigned long)uval, off))
				snprintf(sym, sizeof(sym), "0x%llx", uval);
			seq_printf(m, off ? "%s: [%llx] %-55s" : "%s: [%llx] %-45s", field_name,
				   uval, sym);
		} else if (kf->flags & HIST_FIELD_FL_EXECNAME) {
			seq_printf(m, "%s: %-16s[%10llu]", field_name,
				   elt->private_data ? (char *)elt->private_data : no_comm, uval);
		} else if (kf->flags & HIST_FIELD_FL_SYSCALL) {
			const char *name = uval < (1ULL << 31) ? get_syscall_name((int)uval) : NULL;

			seq_printf(m, "%s: %-30s[%3llu]", field_name,
				   name ? name : "unknown_syscall", uval);
		} else if (kf->flags & HIST_FIELD_FL_STACKTRACE) {
			seq_puts(m, "stacktrace:\n");
			hist_trigger_stacktrace_print(m, (const unsigned long *)(key + kf->offset));
			multiline = true;
		} else if (kf->flags & HIST_FIELD_FL_LOG2) {
			seq_printf(m, "%s: ~ 2^%-2llu", field_name, uval);
		} else if (kf->flags & HIST_FIELD_FL_BUCKET) {
			seq_printf(m, "%s: ~ %llu-%llu", field_name, uval, uval + kf->buckets - 1);
		} else if (kf->flags & HIST_FIELD_FL_STRING) {
			seq_printf(m, "%s: %-50s", field_name, key + kf->offset);
		} else {
			seq_printf(m, "%s: %10llu", field_name, uval);
		}
	}
	if (!multiline)
		seq_puts(m, " ");
	seq_puts(m, "}");
}

static void hist_trigger_entry_print(struct seq_file *m, struct hist_trigger_data *hist_data,
				     const char *key, struct tracing_map_elt *elt)
{
	hist_trigger_print_key(m, hist_data, key, elt);
	seq_printf(m, " hitcount: %10llu",
		   (unsigned long long)tracing_map_read_sum(elt, HITCOUNT_IDX));
	for (unsigned int i = 1; i < hist_data->n_vals; i++) {
		struct hist_field *hf = hist_data->fields[i];

		if (hf->flags & (HIST_FIELD_FL_VAR | HIST_FIELD_FL_EXPR))
			continue;
		seq_printf(m, hf->flags & HIST_FIELD_FL_HEX ? "  %s: %10llx" : "  %s: %10llu",
			   hist_field_name(hf, 0),
			   (unsigned long long)tracing_map_read_sum(elt, i));
	}
	print_actions(m, hist_data, elt);
	seq_puts(m, "\n");
}

static int print_entries(struct seq_file *m, struct hist_trigger_data *hist_data)
{
	struct tracing_map_sort_entry *entries;
	int n = tracing_map_sort_entries(hist_data->map, hist_data->sort_keys,
					 hist_data->n_sort_keys, &entries);

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++)
		hist_trigger_entry_print(m, hist_data, entries[i].key, entries[i].elt);
	tracing_map_destroy_sort_entries(entries, n);
	return n;
}

/* "# event histogram" and the trigger as its file lists it (hist and hist_debug begin so). */
static void hist_trigger_header(struct seq_file *m, struct event_trigger_data *data)
{
	char line[TRACING_LOG_LOC_MAX * 2], *buf = line;
	int len;

	seq_puts(m, "# event histogram\n#\n# trigger info: ");
	len = event_hist_trigger_print(data, line, sizeof(line));
	if (len >= (int)sizeof(line)) {
		buf = kmalloc((size_t)len + 1);
		if (buf)
			event_hist_trigger_print(data, buf, (size_t)len + 1);
	}
	if (buf)
		seq_puts(m, buf);
	if (buf != line)
		kfree(buf);
	seq_puts(m, "#\n\n");
}

static void hist_trigger_show(struct seq_file *m, struct event_trigger_data *data, int n)
{
	struct hist_trigger_data *hist_data = data->private_data;
	int n_entries;

	if (n > 0)
		seq_puts(m, "\n\n");
	hist_trigger_header(m, data);
	n_entries = print_entries(m, hist_data);
	if (n_entries < 0)
		n_entries = 0;
	track_data_snapshot_print(m, hist_data);
	seq_printf(m, "\nTotals:\n    Hits: %llu\n    Entries: %u\n    Dropped: %llu\n",
		   (unsigned long long)tracing_map_hits(hist_data->map), (unsigned int)n_entries,
		   (unsigned long long)tracing_map_drops(hist_data->map));
}

/* show(m, data, n) for each hist trigger of the event, in order: the hist and hist_debug files. */
static int show_each_hist(struct seq_file *m,
			  void (*show)(struct seq_file *m, struct event_trigger_data *data, int n))
{
	struct trace_event_file *file = m->private;
	int n = 0;

	mutex_lock(&event_mutex);
	for (struct event_trigger_data *data = file->triggers; data; data = data->next)
		if (data->cmd->trigger_type == ETT_EVENT_HIST)
			show(m, data, n++);
	mutex_unlock(&event_mutex);
	return 0;
}

static int hist_show(struct seq_file *m, void *v)
{
	(void)v;
	return show_each_hist(m, hist_trigger_show);
}

static int event_hist_open(struct inode *inode, struct file *file)
{
	return single_open(file, hist_show, inode->i_private);
}

const struct file_operations event_hist_fops = {
	.open = event_hist_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* --- hist_debug: a histogram's insides ------------------------------------------------------- */

/*
 *   # cat events/sched/sched_switch/hist_debug
 *   # event histogram
 *   #
 *   # trigger info: hist:keys=next_pid:vals=hitcount:...
 *   #
 *
 *   hist_data: ffffffff8a2c1000
 *
 *     n_vals: 2
 *   ...
 *
 * Each hist_field of each histogram on the event (values, keys, references, field and save()
 * variables, the actions' hidden ones): its flags, event field, variable slot, type and size,
 * in Linux 6.1's words (hist_debug_show(), CONFIG_HIST_TRIGGERS_DEBUG), to read alongside
 * Documentation/trace/histogram-design.rst. The file is there with the hist_debug boot option
 * (Linux's kernels are built without it, so their event directories lack it).
 */
static void hist_field_debug_show_flags(struct seq_file *m, unsigned long flags)
{
	seq_puts(m, "      flags:\n");
	if (flags & HIST_FIELD_FL_KEY)
		seq_puts(m, "        HIST_FIELD_FL_KEY\n");
	else if (flags & HIST_FIELD_FL_HITCOUNT)
		seq_puts(m, "        VAL: HIST_FIELD_FL_HITCOUNT\n");
	else if (flags & HIST_FIELD_FL_VAR)
		seq_puts(m, "        HIST_FIELD_FL_VAR\n");
	else if (flags & HIST_FIELD_FL_VAR_REF)
		seq_puts(m, "        HIST_FIELD_FL_VAR_REF\n");
	else
		seq_puts(m, "        VAL: normal u64 value\n");
	if (flags & HIST_FIELD_FL_ALIAS)
		seq_puts(m, "        HIST_FIELD_FL_ALIAS\n");
	else if (flags & HIST_FIELD_FL_CONST)
		seq_puts(m, "        HIST_FIELD_FL_CONST\n");
}

static const char *debug_type(const struct hist_field *field)
{
	return field->type ? field->type : "(null)"; /* as Linux's %s prints NULL */
}

/* One field; it must have the flags its place says it has (else Linux's "bad flags"). */
static int hist_field_debug_show(struct seq_file *m, const struct hist_field *field,
				 unsigned long flags)
{
	if ((field->flags & flags) != flags) {
		seq_printf(m, "ERROR: bad flags - %lx\n", flags);
		return -EINVAL;
	}
	hist_field_debug_show_flags(m, field->flags);
	if (field->field)
		seq_printf(m, "      ftrace_event_field name: %s\n", field->field->name);
	if (field->flags & HIST_FIELD_FL_VAR) {
		seq_printf(m, "      var.name: %s\n", field->var.name);
		seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %u\n", field->var.idx);
	}
	if (field->flags & HIST_FIELD_FL_CONST)
		seq_printf(m, "      constant: %llu\n", (unsigned long long)field->constant);
	if (field->flags & HIST_FIELD_FL_ALIAS)
		seq_printf(m, "      var_ref_idx (into hist_data->var_refs[]): %u\n",
			   field->var_ref_idx);
	if (field->flags & HIST_FIELD_FL_VAR_REF) {
		seq_printf(m, "      name: %s\n", field->name);
		seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %u\n", field->var.idx);
		seq_printf(m, "      var.hist_data: %p\n", (void *)field->var.hist_data);
		seq_printf(m, "      var_ref_idx (into hist_data->var_refs[]): %u\n",
			   field->var_ref_idx);
		if (field->system)
			seq_printf(m, "      system: %s\n", field->system);
		if (field->event_name)
			seq_printf(m, "      event_name: %s\n", field->event_name);
	}
	seq_printf(m, "      type: %s\n", debug_type(field));
	seq_printf(m, "      size: %u\n", field->size);
	seq_printf(m, "      is_signed: %u\n", (unsigned int)field->is_signed);
	return 0;
}

/* A field variable (an action's parameter) or a save() one: its variable, and what it reads. */
static int field_var_debug_show(struct seq_file *m, const struct field_var *field_var,
				unsigned int i, bool save_vars)
{
	const char *vars_name = save_vars ? "save_vars" : "field_vars";
	const struct hist_field *field = field_var->var;

	seq_printf(m, "\n    hist_data->%s[%u]:\n", vars_name, i);
	seq_printf(m, "\n      %s[%u].var:\n", vars_name, i);
	hist_field_debug_show_flags(m, field->flags);
	seq_printf(m, "      var.name: %s\n", field->var.name);
	seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %u\n", field->var.idx);
	field = field_var->val;
	seq_printf(m, "\n      %s[%u].val:\n", vars_name, i);
	if (!field->field)
		return -EINVAL; /* Linux's: a value that is no event field ends the listing */
	seq_printf(m, "      ftrace_event_field name: %s\n", field->field->name);
	seq_printf(m, "      type: %s\n", debug_type(field));
	seq_printf(m, "      size: %u\n", field->size);
	seq_printf(m, "      is_signed: %u\n", (unsigned int)field->is_signed);
	return 0;
}

static int hist_actions_debug_show(struct seq_file *m, const struct hist_trigger_data *hist_data)
{
	int ret;

	if (hist_data->n_actions)
		seq_puts(m, "\n  action tracking variables (for onmax()/onchange()/onmatch()):\n");
	for (unsigned int i = 0; i < hist_data->n_actions; i++) {
		const struct action_data *data = hist_data->actions[i];

		if (data->handler == HANDLER_ONMAX || data->handler == HANDLER_ONCHANGE) {
			seq_printf(m, "\n    hist_data->actions[%u].track_data.var_ref:\n", i);
			ret = hist_field_debug_show(m, data->track_data.var_ref,
						    HIST_FIELD_FL_VAR_REF);
			if (ret)
				return ret;
			seq_printf(m, "\n    hist_data->actions[%u].track_data.track_var:\n", i);
			ret = hist_field_debug_show(m, data->track_data.track_var,
						    HIST_FIELD_FL_VAR);
			if (ret)
				return ret;
		}
		if (data->handler == HANDLER_ONMATCH) {
			seq_printf(m, "\n    hist_data->actions[%u].match_data.event_system: %s\n",
				   i, data->match_data.event_system);
			seq_printf(m, "    hist_data->actions[%u].match_data.event: %s\n", i,
				   data->match_data.event);
		}
	}
	if (hist_data->n_save_vars)
		seq_puts(m, "\n  save action variables (save() params):\n");
	for (unsigned int i = 0; i < hist_data->n_save_vars; i++) {
		ret = field_var_debug_show(m, hist_data->save_vars[i], i, true);
		if (ret)
			return ret;
	}
	return 0;
}

static void hist_trigger_debug_show(struct seq_file *m, struct event_trigger_data *data, int n)
{
	const struct hist_trigger_data *hist_data = data->private_data;

	if (n > 0)
		seq_puts(m, "\n\n");
	hist_trigger_header(m, data);
	seq_printf(m, "hist_data: %p\n\n", (void *)hist_data);
	seq_printf(m, "  n_vals: %u\n", hist_data->n_vals);
	seq_printf(m, "  n_keys: %u\n", hist_data->n_keys);
	seq_printf(m, "  n_fields: %u\n", hist_data->n_fields);
	seq_puts(m, "\n  val fields:\n\n");
	seq_puts(m, "    hist_data->fields[0]:\n");
	if (hist_field_debug_show(m, hist_data->fields[HITCOUNT_IDX], HIST_FIELD_FL_HITCOUNT))
		return;
	for (unsigned int i = 1; i < hist_data->n_vals; i++) {
		seq_printf(m, "\n    hist_data->fields[%u]:\n", i);
		if (hist_field_debug_show(m, hist_data->fields[i], 0))
			return;
	}
	seq_puts(m, "\n  key fields:\n");
	for (unsigned int i = hist_data->n_vals; i < hist_data->n_fields; i++) {
		seq_printf(m, "\n    hist_data->fields[%u]:\n", i);
		if (hist_field_debug_show(m, hist_data->fields[i], HIST_FIELD_FL_KEY))
			return;
	}
	if (hist_data->n_var_refs)
		seq_puts(m, "\n  variable reference fields:\n");
	for (unsigned int i = 0; i < hist_data->n_var_refs; i++) {
		seq_printf(m, "\n    hist_data->var_refs[%u]:\n", i);
		if (hist_field_debug_show(m, hist_data->var_refs[i], HIST_FIELD_FL_VAR_REF))
			return;
	}
	if (hist_data->n_field_vars)
		seq_puts(m, "\n  field variables:\n");
	for (unsigned int i = 0; i < hist_data->n_field_vars; i++)
		if (field_var_debug_show(m, hist_data->field_vars[i], i, false))
			return;
	hist_actions_debug_show(m, hist_data);
}

static int hist_debug_show(struct seq_file *m, void *v)
{
	(void)v;
	return show_each_hist(m, hist_trigger_debug_show);
}

static int event_hist_debug_open(struct inode *inode, struct file *file)
{
	return single_open(file, hist_debug_show, inode->i_private);
}

const struct file_operations event_hist_debug_fops = {
	.open = event_hist_debug_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* --- adding, matching, removing --------------------------------------------------------------- */

static struct hist_trigger_data *find_named(const char *name)
{
	for (struct hist_trigger_data *hd = named_hists; hd; hd = hd->named_next)
		if (!strcmp(hd->attrs->name, name))
			return hd;
	return NULL;
}

/* A trigger lets go of its histogram: the last one frees it (and its name). */
static void hist_data_put(struct hist_trigger_data *hist_data)
{
	struct hist_trigger_data **link;

	if (--hist_data->ref > 0)
		return;
	for (link = &named_hists; *link; link = &(*link)->named_next) {
		if (*link == hist_data) {
			*link = hist_data->named_next;
			break;
		}
	}
	destroy_hist_data(hist_data);
}

static void event_hist_trigger_free(struct event_trigger_data *data)
{
	if (data->private_data)
		hist_data_put(data->private_data);
	trigger_filter_free(data);
	kfree(data);
}

static bool compatible_field(const struct trace_event_field *field,
			     const struct trace_event_field *test_field)
{
	if (field == test_field)
		return true;
	if (!field || !test_field)
		return false;
	return !strcmp(field->name, test_field->name) && !strcmp(field->type, test_field->type) &&
	       field->size == test_field->size && field->is_signed == test_field->is_signed;
}

/* The same keys, values and sort keys (Linux's hist_trigger_match() without the filter). */
static bool hist_data_match(const struct hist_trigger_data *hist_data,
			    const struct hist_trigger_data *hist_data_test)
{
	if (hist_data->n_vals != hist_data_test->n_vals ||
	    hist_data->n_fields != hist_data_test->n_fields ||
	    hist_data->n_sort_keys != hist_data_test->n_sort_keys)
		return false;
	for (unsigned int i = 0; i < hist_data->n_fields; i++) {
		const struct hist_field *a = hist_data->fields[i], *b = hist_data_test->fields[i];

		if (a->flags != b->flags || !compatible_field(a->field, b->field) ||
		    a->offset != b->offset || a->size != b->size || a->is_signed != b->is_signed ||
		    a->buckets != b->buckets || !!a->var.name != !!b->var.name ||
		    (a->var.name && strcmp(a->var.name, b->var.name)))
			return false;
	}
	for (unsigned int i = 0; i < hist_data->n_sort_keys; i++)
		if (hist_data->sort_keys[i].field_idx != hist_data_test->sort_keys[i].field_idx ||
		    hist_data->sort_keys[i].descending != hist_data_test->sort_keys[i].descending)
			return false;
	return actions_match(hist_data, hist_data_test);
}

/*
 * Is test (a trigger on the file) the one data and hist_data describe? A named one matches
 * only a trigger of that name (named: its shared histogram), an unnamed one no named trigger.
 */
static bool hist_trigger_match(const struct event_trigger_data *data,
			       const struct hist_trigger_data *hist_data,
			       const struct event_trigger_data *test,
			       const struct hist_trigger_data *named)
{
	const struct hist_trigger_data *test_data = test->private_data;

	if (named && named != test_data)
		return false;
	if (!named && test_data->attrs->name)
		return false;
	if (!!data->filter_str != !!test->filter_str ||
	    (data->filter_str && strcmp(data->filter_str, test->filter_str)))
		return false;
	return hist_data_match(hist_data, test_data);
}

/* The file's hist trigger that data describes, or NULL. */
static struct event_trigger_data *find_hist_trigger(struct trace_event_file *file,
						    struct event_trigger_data *data,
						    struct hist_trigger_data *hist_data,
						    struct hist_trigger_data *named)
{
	for (struct event_trigger_data *test = file->triggers; test; test = test->next)
		if (test->cmd->trigger_type == ETT_EVENT_HIST &&
		    hist_trigger_match(data, hist_data, test, named))
			return test;
	return NULL;
}

/* :clear: the map emptied while no hit can be inside it. */
static void hist_clear(struct hist_trigger_data *hist_data)
{
	__atomic_store_n(&hist_data->clearing, true, __ATOMIC_RELEASE);
	tracepoint_synchronize_unregister(); /* every hit that saw clearing false has finished */
	tracing_map_clear(hist_data->map);
	__atomic_store_n(&hist_data->clearing, false, __ATOMIC_RELEASE);
}

static void hist_unreg_all(struct trace_event_file *file)
{
	struct event_trigger_data *data, *next;

	lockdep_assert_held(&event_mutex);
	/* one of them has a variable another histogram uses: none goes, as in Linux */
	for (data = file->triggers; data; data = data->next)
		if (hist_data_of(data) && check_var_refs(hist_data_of(data)))
			return;
	for (data = file->triggers; data; data = next) {
		next = data->next;
		if (data->cmd->trigger_type != ETT_EVENT_HIST)
			continue;
		event_trigger_remove(file, data);
		event_hist_trigger_free(data);
	}
}

/* Linux's: "if" as a word (blanks both sides) ends the trigger and starts the filter. */
static int split_filter(char *param, char **filter)
{
	char *p = param;
	size_t len = strlen(param);

	*filter = NULL;
	while ((p = strstr(p, "if"))) {
		if (p == param)
			return -EINVAL;
		if (p[-1] != ' ' && p[-1] != '\t') {
			p++;
			continue;
		}
		if (p >= param + len - strlen("if") - 1)
			return -EINVAL;
		if (p[strlen("if")] != ' ' && p[strlen("if")] != '\t') {
			p++;
			continue;
		}
		break;
	}
	if (p) {
		p[-1] = '\0';
		*filter = strim(p);
		strim(param);
	}
	return 0;
}

/*
 * "hist:..." written to file's trigger file: param is what followed "hist:". Linux's
 * event_hist_trigger_parse(), one step after the other so each error is Linux's.
 */
static int hist_note_clock(struct trace_array *tr, const char *clock);

static int __event_hist_trigger_parse(const struct event_command *cmd,
				      struct trace_event_file *file, char *param, bool remove,
				      bool apply)
{
	unsigned int bits = TRACING_MAP_BITS_DEFAULT;
	struct event_trigger_data *data = NULL, *test;
	struct hist_trigger_data *hist_data = NULL;
	struct hist_trigger_attrs *attrs;
	struct hist_trigger_data *named = NULL;
	char *filter, *start, *expr;
	int ret;

	lockdep_assert_held(&event_mutex);
	if (!param)
		return -EINVAL;
	ret = split_filter(param, &filter);
	if (ret)
		return ret;
	/* '.sym-offset' read as one word: its '-' is no minus */
	for (start = strstr(param, ".sym-offset"); start;
	     start = strstr(start + strlen(".sym-offset"), ".sym-offset"))
		start[strlen(".sym")] = 'X';

	attrs = parse_hist_trigger_attrs(param, &ret);
	if (!attrs)
		return ret;
	if (attrs->map_bits)
		bits = attrs->map_bits;
	hist_data = create_hist_data(bits, attrs, file, remove, &ret);
	if (!hist_data) {
		destroy_hist_trigger_attrs(attrs);
		return ret;
	}
	data = kzalloc(sizeof(*data));
	if (!data) {
		ret = -ENOMEM;
		goto out_free;
	}
	data->cmd = cmd;
	data->file = file;
	data->count = TRIGGER_COUNT_UNLIMITED;
	if (filter) {
		expr = filter;
		if (strncmp(expr, "if", strlen("if")) != 0) {
			ret = -EINVAL;
			goto out_free;
		}
		expr = skip_spaces(expr + strlen("if"));
		ret = trigger_filter_set(file, expr, data);
		if (ret)
			goto out_free;
	}
	if (attrs->name)
		named = find_named(attrs->name);

	if (remove) {
		test = find_hist_trigger(file, data, hist_data, named);
		/* another histogram uses one of its variables: it stays (Linux's EBUSY) */
		if (test && check_var_refs(hist_data_of(test))) {
			ret = -EBUSY;
			goto out_free;
		}
		if (test && apply) {
			event_trigger_remove(file, test);
			event_hist_trigger_free(test);
		}
		ret = 0;
		goto out_free;
	}

	/*
	 * :pause, :cont, :clear of an existing one (Linux's existing_hist_update_only()); a
	 * name must be known and its histogram the same.
	 */
	if ((attrs->pause || attrs->cont || attrs->clear) && (!attrs->name || named) &&
	    (!named || hist_data_match(hist_data, named))) {
		test = find_hist_trigger(file, data, hist_data, named);
		if (test) {
			if (apply) {
				if (attrs->pause)
					__atomic_store_n(&test->paused, true, __ATOMIC_RELAXED);
				else if (attrs->cont)
					__atomic_store_n(&test->paused, false, __ATOMIC_RELAXED);
				else
					hist_clear(test->private_data);
			}
			ret = 0;
			goto out_free;
		}
	}

	/* a new one (Linux's hist_register_trigger()) */
	if (named && !hist_data_match(hist_data, named)) {
		hist_err(HIST_ERR_NAMED_MISMATCH, errpos(attrs->name));
		ret = -EINVAL;
		goto out_free;
	}
	if ((!attrs->name || named) && find_hist_trigger(file, data, hist_data, named)) {
		hist_err(HIST_ERR_TRIGGER_EEXIST, 0);
		ret = -EEXIST;
		goto out_free;
	}
	if (attrs->cont || attrs->clear) {
		hist_err(HIST_ERR_TRIGGER_ENOENT_CLEAR, 0);
		ret = -ENOENT;
		goto out_free;
	}
	if (!apply) {
		ret = hist_data->enable_timestamps ? hist_note_clock(file->tr, attrs->clock) : 0;
		goto out_free;
	}
	data->paused = attrs->pause;
	if (named) {
		destroy_hist_data(hist_data); /* the shared one is used */
		hist_data = named;
	} else {
		ret = tracing_map_init(hist_data->map);
		if (ret)
			goto out_free;
		if (attrs->name) {
			hist_data->named_next = named_hists;
			named_hists = hist_data;
		}
	}
	hist_data->ref++;
	data->private_data = hist_data;
	ret = event_trigger_add(file, data, true);
	if (ret) {
		event_hist_trigger_free(data);
		return ret;
	}
	if (has_hist_vars(hist_data))
		save_hist_vars(hist_data); /* others may refer to its variables now */
	return 0;
out_free:
	if (data) {
		trigger_filter_free(data);
		kfree(data);
	}
	destroy_hist_data(hist_data);
	return ret;
}

/*
 * A histogram that reads common_timestamp sets its trace array's clock (clock=, "global" by
 * default), as Linux's hist_register_trigger() does, so that times taken on two CPUs can be
 * subtracted. Setting a clock takes trace_types_lock, which Lucid takes before event_mutex
 * (an instance's mkdir), never after: so the check notes the clock here (named as one that
 * exists, else Linux's "Couldn't set trace_clock"), and the trigger file's write sets it
 * between the check and the application, holding neither (hist_trigger_set_clock()). by: the
 * task whose write it is, so that another's write in between takes nothing of it.
 */
static struct {
	const struct task *by;
	struct trace_array *tr;
	int clock_id;
} hist_clock_pending;

static int hist_note_clock(struct trace_array *tr, const char *clock)
{
	for (int i = 0; i < nr_trace_clocks; i++) {
		if (!strcmp(trace_clocks[i].name, clock)) {
			hist_clock_pending.by = current;
			hist_clock_pending.tr = tr;
			hist_clock_pending.clock_id = i;
			return 0;
		}
	}
	hist_err(HIST_ERR_SET_CLOCK_FAIL, errpos(clock));
	return -EINVAL;
}

int hist_trigger_set_clock(struct trace_array *tr)
{
	const char *name = NULL;

	mutex_lock(&event_mutex);
	if (hist_clock_pending.by == current && hist_clock_pending.tr == tr)
		name = trace_clocks[hist_clock_pending.clock_id].name;
	hist_clock_pending.by = NULL;
	mutex_unlock(&event_mutex);
	return name ? tracing_set_clock(tr, name) : 0;
}

/* The write's own parse keeps last_cmd for the errors; a nested one (see above) uses it. */
static int event_hist_trigger_parse(const struct event_command *cmd, struct trace_event_file *file,
				    char *param, bool remove, bool apply)
{
	bool outer = !hist_parse_depth;
	int ret;

	lockdep_assert_held(&event_mutex);
	if (outer) {
		hist_err_tr = file->tr;
		last_cmd_set(file, param);
		hist_errs_hold = !apply;
		n_hist_errs_held = 0;
	}
	hist_parse_depth++;
	ret = __event_hist_trigger_parse(cmd, file, param, remove, apply);
	hist_parse_depth--;
	if (!outer)
		return ret;
	if (ret)
		hist_errs_release();
	hist_errs_hold = false;
	n_hist_errs_held = 0;
	if (!ret && apply) {
		kfree(last_cmd);
		last_cmd = NULL;
	}
	return ret;
}

const struct event_command trigger_hist_cmd = {
	.name = "hist",
	.trigger_type = ETT_EVENT_HIST,
	.needs_rec = true,
	.tail = true,
	.rec_trigger = event_hist_trigger,
	.parse = event_hist_trigger_parse,
	.print = event_hist_trigger_print,
	.free = event_hist_trigger_free,
	.unreg_all = hist_unreg_all,
};
