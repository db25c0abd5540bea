/* Synthetic events: events whose fields the user declares, as Linux 6.1's trace_events_synth.c. */

/*
 *   echo 'wakeup_latency u64 lat; pid_t pid; char comm[16]' >> synthetic_events
 *   echo 's:synthetic/myev u64 a; char name[]' >> dynamic_events
 *
 * Each line makes an event under events/synthetic/ (enable, filter, trigger, format, id) that
 * nothing in the kernel fires by itself: its records are written by a hist trigger's action
 * (onmatch(...).trace(wakeup_latency, ...), trace/trace_events_hist.c) or by kernel code with
 * synth_event_trace(). Otherwise it is an event like any other: enabled per trace array,
 * filtered, triggered on, read by trace-cmd from its format file. '!NAME' (or '-:NAME' in
 * dynamic_events) removes it, '>' removes them all; neither while one is enabled or held
 * (EBUSY). A refused line leaves Linux's error_log entry: "synthetic_events: error: ...".
 *
 * The record is Linux's: struct trace_entry, then one u64 slot per field in declaration order
 * (a number in the first bytes of its slot), except "char name[N]", which takes
 * STR_VAR_LEN_MAX bytes (N is what the format file shows), and "char name[]", whose slot holds a
 * __data_loc word (length << 16 | offset) for its text after the slots.
 *
 * Types, Linux 6.1's: s8..s64, u8..u64, char, int, long, bool, pid_t, gfp_t, "unsigned"
 * before char/int/long, and char arrays: [N] up to STR_VAR_LEN_MAX, or [] for any length.
 * Fields are separated by ';' (or only blanks, the old syntax: "u64 a u64 b").
 *
 * Definitions are parsed under dyn_event_mutex (trace/trace_dynevent.c). The synthetic events
 * are also on a list of their own, changed with event_mutex held too, so a hist trigger, which
 * is parsed under event_mutex alone, may look one up and take a hold on it (ref) that removal
 * respects.
 */
#include "trace/trace_synth.h"
#include "trace/trace_error_log.h"
#include "trace/trace_fs.h"
#include "trace/trace_probe.h" /* is_good_name */
#include "trace/define_trace.h" /* trace_print_flags_seq */
#include "trace/events/mmflags.h"
#include "kernel/fs/seq_file.h"
#include "kernel/fs/tracefs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/preempt.h"
#include "kernel/locking/lockdep.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "lib/unaligned.h"
#include <stdarg.h>

#define MAX_DYNEVENT_CMD_LEN 2048 /* Linux's: the longest line synth_event_create() builds */
#define STR_SIZE_DIGITS_MAX 3 /* "char[256]": the array size has at most 3 digits */
#define SYNTH_PRINT_FMT_MAX 32 /* "%s=%llu%s" and the like */

/* --- errors (Linux's synth_err_text, word for word) ------------------------------------------ */

enum synth_err {
	SYNTH_ERR_BAD_NAME,
	SYNTH_ERR_INVALID_CMD,
	SYNTH_ERR_INVALID_DYN_CMD,
	SYNTH_ERR_EVENT_EXISTS,
	SYNTH_ERR_TOO_MANY_FIELDS,
	SYNTH_ERR_INCOMPLETE_TYPE,
	SYNTH_ERR_INVALID_TYPE,
	SYNTH_ERR_INVALID_FIELD,
	SYNTH_ERR_INVALID_ARRAY_SPEC,
};

static const char *const synth_err_text[] = {
	[SYNTH_ERR_BAD_NAME] = "Illegal name",
	[SYNTH_ERR_INVALID_CMD] = "Command must be of the form: <name> field[;field] ...",
	[SYNTH_ERR_INVALID_DYN_CMD] =
		"Command must be of the form: s or -:[synthetic/]<name> field[;field] ...",
	[SYNTH_ERR_EVENT_EXISTS] = "Event already exists",
	[SYNTH_ERR_TOO_MANY_FIELDS] = "Too many fields",
	[SYNTH_ERR_INCOMPLETE_TYPE] = "Incomplete type",
	[SYNTH_ERR_INVALID_TYPE] = "Invalid type",
	[SYNTH_ERR_INVALID_FIELD] = "Invalid field",
	[SYNTH_ERR_INVALID_ARRAY_SPEC] = "Invalid array specification",
};

/* The line being parsed, for the error log's caret; dyn_event_mutex held. */
static char *last_cmd;

static void last_cmd_set(const char *str)
{
	kfree(last_cmd);
	last_cmd = kstrdup(str);
}

/* Linux's errpos(): the column where str first occurs in the line. */
static unsigned int errpos(const char *str)
{
	return str && last_cmd ? err_pos(last_cmd, str) : 0;
}

static void synth_err(enum synth_err type, unsigned int pos)
{
	if (last_cmd)
		tracing_log_err(NULL, "synthetic_events", last_cmd, synth_err_text, type, pos);
}

static struct dyn_event_operations synth_event_ops;

static struct synth_event *to_synth_event(struct dyn_event *ev)
{
	return container_of(ev, struct synth_event, devent);
}

static LIST_HEAD(synth_event_list); /* every synthetic event: see synth_event.synth_list */

struct synth_event *find_synth_event(const char *name)
{
	struct synth_event *event;

	list_for_each_entry(event, &synth_event_list, synth_list)
	{
		if (!strcmp(event->name, name))
			return event;
	}
	return NULL;
}

/* --- field types ------------------------------------------------------------------------------ */

/* Linux's table: the scalar types a field may have, their size and their printf format. */
static const struct {
	const char *type;
	unsigned int size;
	const char *fmt;
} synth_types[] = {
	/* clang-format off */
	{"s64", sizeof(int64_t), "%lld"},
	{"u64", sizeof(uint64_t), "%llu"},
	{"s32", sizeof(int32_t), "%d"},
	{"u32", sizeof(uint32_t), "%u"},
	{"s16", sizeof(int16_t), "%d"},
	{"u16", sizeof(uint16_t), "%u"},
	{"s8", sizeof(int8_t), "%d"},
	{"u8", sizeof(uint8_t), "%u"},
	{"char", sizeof(char), "%d"},
	{"unsigned char", sizeof(unsigned char), "%u"},
	{"int", sizeof(int), "%d"},
	{"unsigned int", sizeof(unsigned int), "%u"},
	{"long", sizeof(long), "%ld"},
	{"unsigned long", sizeof(unsigned long), "%lu"},
	{"bool", sizeof(bool), "%d"},
	{"pid_t", sizeof(pid_t), "%d"},
	{"gfp_t", sizeof(gfp_t), "%x"},
	/* clang-format on */
};

static bool synth_field_is_string(const char *type)
{
	return strstr(type, "char[") != NULL;
}

/* Linux's: only a type that starts with 'u' (and gfp_t) is unsigned: "char[16]" is signed. */
static bool synth_field_signed(const char *type)
{
	return type[0] != 'u' && strcmp(type, "gfp_t") != 0;
}

/* "char[N]": N (0 for "char[]": a string of any length), or -EINVAL. */
static int synth_field_string_size(const char *type)
{
	const char *start = strstr(type, "char[") + strlen("char["), *end = strchr(type, ']');
	char buf[STR_SIZE_DIGITS_MAX + 1];
	unsigned int size;
	size_t len;

	if (!end || end < start || type + strlen(type) > end + 1)
		return -EINVAL;
	len = (size_t)(end - start);
	if (len > STR_SIZE_DIGITS_MAX)
		return -EINVAL;
	if (len == 0)
		return 0;
	memcpy(buf, start, len);
	buf[len] = '\0';
	if (kstrtouint(buf, 0, &size))
		return -EINVAL;
	return size > STR_VAR_LEN_MAX ? -EINVAL : (int)size;
}

/* The size of a field of type: > 0, 0 for a char[] (or no such type), -EINVAL: bad array. */
static int synth_field_size(const char *type)
{
	for (size_t i = 0; i < ARRAY_SIZE(synth_types); i++)
		if (!strcmp(type, synth_types[i].type))
			return (int)synth_types[i].size;
	if (synth_field_is_string(type))
		return synth_field_string_size(type);
	return 0;
}

static const char *synth_field_fmt(const char *type)
{
	for (size_t i = 0; i < ARRAY_SIZE(synth_types); i++)
		if (!strcmp(type, synth_types[i].type))
			return synth_types[i].fmt;
	return synth_field_is_string(type) ? "%.*s" : "%llu";
}

static void free_synth_field(struct synth_field *field)
{
	if (!field)
		return;
	kfree(field->type);
	kfree(field->name);
	kfree(field);
}

/* Linux's strpbrk(): the first character of s that is in accept, or NULL. */
static const char *strpbrk(const char *s, const char *accept)
{
	for (; *s; s++)
		if (strchr(accept, *s))
			return s;
	return NULL;
}

/* A copy of the first len bytes of s, NUL-terminated (Linux's kmemdup_nul). */
static char *kmemdup_nul(const char *s, size_t len)
{
	char *p = kmalloc(len + 1);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

/*
 * Linux's parse_synth_field(): "[unsigned] TYPE NAME[ARRAY]" from the words argv (argc of
 * them), adding the words it took to *consumed. NULL with *err set if it is refused.
 */
static struct synth_field *parse_synth_field(int argc, char **argv, int *consumed, int *err)
{
	const char *prefix = "", *field_type = argv[0], *field_name, *array;
	struct synth_field *field;
	size_t len;
	int size;

	if (!strcmp(field_type, "unsigned")) {
		if (argc < 3) {
			synth_err(SYNTH_ERR_INCOMPLETE_TYPE, errpos(field_type));
			*err = -EINVAL;
			return NULL;
		}
		prefix = "unsigned ";
		field_type = argv[1];
		field_name = argv[2];
		*consumed += 3;
	} else {
		field_name = argv[1];
		*consumed += 2;
	}
	if (!field_name) {
		synth_err(SYNTH_ERR_INVALID_FIELD, errpos(field_type));
		*err = -EINVAL;
		return NULL;
	}
	*err = -ENOMEM;
	field = kzalloc(sizeof(*field));
	if (!field)
		return NULL;
	array = strchr(field_name, '[');
	len = array ? (size_t)(array - field_name) : strlen(field_name);
	field->name = kmemdup_nul(field_name, len);
	if (!field->name)
		goto free;
	if (!is_good_name(field->name)) {
		synth_err(SYNTH_ERR_BAD_NAME, errpos(field_name));
		*err = -EINVAL;
		goto free;
	}
	len = strlen(prefix) + strlen(field_type) + (array ? strlen(array) : 0) + 1;
	field->type = kmalloc(len);
	if (!field->type)
		goto free;
	snprintf(field->type, len, "%s%s%s", prefix, field_type, array ? array : "");

	size = synth_field_size(field->type);
	if (size < 0) {
		synth_err(array ? SYNTH_ERR_INVALID_ARRAY_SPEC : SYNTH_ERR_INVALID_TYPE,
			  array ? errpos(field_name) : errpos(field_type));
		*err = -EINVAL;
		goto free;
	}
	if (size == 0) {
		char *type;

		if (!synth_field_is_string(field->type)) {
			synth_err(SYNTH_ERR_INVALID_TYPE, errpos(field_type));
			*err = -EINVAL;
			goto free;
		}
		/* "char[]": the format file calls it "__data_loc char[]" */
		len = strlen("__data_loc ") + strlen(field->type) + 1;
		type = kmalloc(len);
		if (!type)
			goto free;
		snprintf(type, len, "__data_loc %s", field->type);
		kfree(field->type);
		field->type = type;
		field->is_dynamic = true;
		size = sizeof(uint64_t);
	}
	field->size = (size_t)size;
	field->is_string = synth_field_is_string(field->type);
	field->is_signed = synth_field_signed(field->type);
	*err = 0;
	return field;
free:
	free_synth_field(field);
	return NULL;
}

/* --- the record: format file and text --------------------------------------------------------- */

/*
 * Each field's place and the format file's fields table (Linux's synth_event_define_fields):
 * a char[N] takes STR_VAR_LEN_MAX bytes, anything else one u64 slot.
 */
static int synth_event_define_fields(struct synth_event *event)
{
	unsigned int n_u64 = 0;
	struct trace_event_field *f = kzalloc(sizeof(*f) * (event->n_fields + 1));

	if (!f)
		return -ENOMEM;
	for (unsigned int i = 0; i < event->n_fields; i++) {
		struct synth_field *field = event->fields[i];

		f[i].type = field->type;
		f[i].name = field->name;
		f[i].offset = (unsigned int)(offsetof(struct synth_trace_event, fields) +
					     n_u64 * sizeof(uint64_t));
		f[i].size = (unsigned int)field->size;
		f[i].is_signed = field->is_signed;
		field->offset = n_u64;
		if (field->is_string && !field->is_dynamic)
			n_u64 += STR_VAR_LEN_MAX / sizeof(uint64_t);
		else
			n_u64++;
	}
	f[event->n_fields].name = NULL; /* TRACE_FIELD_END */
	event->n_u64 = n_u64;
	event->tfields = f;
	event->call.fields = f;
	event->call.size =
		(unsigned int)(sizeof(struct synth_trace_event) + n_u64 * sizeof(uint64_t));
	return 0;
}

/* "\"lat=%llu, comm=%s\", REC->lat, __get_str(comm)" into buf (len 0: only measures). */
static int __set_synth_event_print_fmt(struct synth_event *event, char *buf, int len)
{
	int pos = 0;

#define LEN_OR_ZERO (len ? (size_t)(len - pos) : 0)
	pos += snprintf(buf + pos, LEN_OR_ZERO, "\"");
	for (unsigned int i = 0; i < event->n_fields; i++)
		pos += snprintf(buf + pos, LEN_OR_ZERO, "%s=%s%s", event->fields[i]->name,
				synth_field_fmt(event->fields[i]->type),
				i == event->n_fields - 1 ? "" : ", ");
	pos += snprintf(buf + pos, LEN_OR_ZERO, "\"");
	for (unsigned int i = 0; i < event->n_fields; i++) {
		if (event->fields[i]->is_dynamic)
			pos += snprintf(buf + pos, LEN_OR_ZERO, ", __get_str(%s)",
					event->fields[i]->name);
		else
			pos += snprintf(buf + pos, LEN_OR_ZERO, ", REC->%s",
					event->fields[i]->name);
	}
#undef LEN_OR_ZERO
	return pos;
}

static int set_synth_event_print_fmt(struct synth_event *event)
{
	int len = __set_synth_event_print_fmt(event, NULL, 0);
	char *fmt = kmalloc((size_t)len + 1);

	if (!fmt)
		return -ENOMEM;
	__set_synth_event_print_fmt(event, fmt, len + 1);
	event->call.print_fmt = fmt;
	return 0;
}

/*
 * A number, cut to its field's size. As Linux 6.1's print_synth_event_num_val(), the cut value
 * is unsigned, so an s8 or s16 of -1 prints as 255 or 65535: what Linux's trace shows.
 */
static void print_synth_event_num_val(struct trace_seq *s, const char *print_fmt, const char *name,
				      size_t size, uint64_t val, const char *space)
{
	switch (size) {
	case sizeof(uint8_t):
		trace_seq_printf(s, print_fmt, name, (uint8_t)val, space);
		break;
	case sizeof(uint16_t):
		trace_seq_printf(s, print_fmt, name, (uint16_t)val, space);
		break;
	case sizeof(uint32_t):
		trace_seq_printf(s, print_fmt, name, (uint32_t)val, space);
		break;
	default:
		trace_seq_printf(s, print_fmt, name, val, space);
		break;
	}
}

/* "wakeup_latency: lat=12 pid=45 comm=bash" (options/verbose: each value's format before it). */
static enum print_line_t print_synth_event(struct trace_iterator *iter, unsigned int flags,
					   struct trace_event *ev)
{
	struct trace_event_call *call = trace_event_call_of(ev);
	struct synth_event *se = call->data;
	struct trace_seq *s = &iter->seq;
	struct synth_trace_event *entry;
	char print_fmt[SYNTH_PRINT_FMT_MAX];

	(void)flags;
	entry = trace_raw_output_prep(iter, ev);
	if (!entry)
		return trace_handle_return(s);
	for (unsigned int i = 0; i < se->n_fields; i++) {
		struct synth_field *field = se->fields[i];
		const char *fmt = synth_field_fmt(field->type);
		const char *space = i == se->n_fields - 1 ? "" : " ";
		uint64_t val = entry->fields[field->offset];

		if (iter->tr && (iter->tr->trace_flags & TRACE_ITER_VERBOSE))
			trace_seq_printf(s, "%s ", fmt);
		snprintf(print_fmt, sizeof(print_fmt), "%%s=%s%%s", fmt);
		if (field->is_dynamic) {
			int len;
			const char *str = trace_event_get_str(iter, (uint32_t)val, &len);

			trace_seq_printf(s, print_fmt, field->name, len, str, space);
		} else if (field->is_string) {
			const char *str = (const char *)&entry->fields[field->offset];

			trace_seq_printf(s, print_fmt, field->name, STR_VAR_LEN_MAX, str, space);
		} else {
			print_synth_event_num_val(s, print_fmt, field->name, field->size, val,
						  space);
			if (!strcmp(field->type, "gfp_t")) {
				static const struct trace_print_flags gfp_names[] = {
					__def_gfpflag_names, {0, NULL}};
				struct trace_print_buf p = {0};

				trace_seq_printf(s, " (%s)",
						 trace_print_flags_seq(&p, "|", (unsigned long)val,
								       gfp_names));
			}
		}
	}
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

/* --- writing a record ------------------------------------------------------------------------- */

void synth_event_fire(struct synth_event *event, const uint64_t *vals)
{
	unsigned int fixed = event->call.size, data_size = 0, len;
	struct synth_trace_event *entry;

	if (!READ_ONCE(event->enabled))
		return;
	for (unsigned int i = 0; i < event->n_dynamic_fields; i++) {
		const char *str =
			(const char *)(uintptr_t)vals[event->dynamic_fields[i]->field_pos];

		data_size += (unsigned int)strnlen(str ? str : "", STR_VAR_LEN_MAX - 1) + 1;
	}
	len = fixed + data_size;
	entry = trace_event_buffer_reserve(&event->call, len);
	if (!entry)
		return;
	memset(entry->fields, 0, fixed - sizeof(*entry));
	data_size = 0;
	for (unsigned int i = 0; i < event->n_fields; i++) {
		struct synth_field *field = event->fields[i];
		uint64_t *slot = &entry->fields[field->offset];
		const char *str = (const char *)(uintptr_t)vals[i];

		if (field->is_dynamic) {
			/* the length measured above: the string cannot have grown in between */
			unsigned int n =
				(unsigned int)strnlen(str ? str : "", STR_VAR_LEN_MAX - 1) + 1;
			uint32_t loc;

			trace_event_set_str(entry, &loc, fixed + data_size, str ? str : "", n);
			*slot = loc;
			data_size += n;
		} else if (field->is_string) {
			strlcpy((char *)slot, str ? str : "", STR_VAR_LEN_MAX);
		} else {
			/* the value's first bytes, as a number of the field's size is stored */
			put_unaligned_sized(slot, field->size, vals[i]);
		}
	}
	trace_event_buffer_commit(&event->call, entry, len);
}

/* The event's enable, in any trace array, or a trigger's hold: the writers may write it. */
static int synth_event_reg(struct trace_event_call *call, bool on)
{
	struct synth_event *event = call->data;

	WRITE_ONCE(event->enabled, on);
	return 0;
}

/* --- making and removing ---------------------------------------------------------------------- */

static void free_synth_event(struct synth_event *event)
{
	if (!event)
		return;
	for (unsigned int i = 0; i < event->n_fields; i++)
		free_synth_field(event->fields[i]);
	kfree(event->fields);
	kfree(event->dynamic_fields);
	kfree(event->tfields);
	kfree((char *)event->call.print_fmt);
	kfree(event->name);
	kfree(event);
}

static struct synth_event *alloc_synth_event(const char *name, unsigned int n_fields,
					     struct synth_field **fields)
{
	struct synth_event *event = kzalloc(sizeof(*event));
	unsigned int n_dynamic = 0, j = 0;

	if (!event)
		return NULL;
	event->name = kstrdup(name);
	event->fields = kzalloc(sizeof(*event->fields) * n_fields);
	for (unsigned int i = 0; i < n_fields; i++)
		n_dynamic += fields[i]->is_dynamic;
	if (n_dynamic)
		event->dynamic_fields = kzalloc(sizeof(*event->dynamic_fields) * n_dynamic);
	if (!event->name || !event->fields || (n_dynamic && !event->dynamic_fields)) {
		free_synth_event(event);
		return NULL;
	}
	for (unsigned int i = 0; i < n_fields; i++) {
		fields[i]->field_pos = i;
		event->fields[i] = fields[i];
		if (fields[i]->is_dynamic)
			event->dynamic_fields[j++] = fields[i];
	}
	event->n_dynamic_fields = j;
	event->n_fields = n_fields;
	return event;
}

/* Its fields table, print fmt and output, then the event itself: events/synthetic/NAME/. */
static int register_synth_event(struct synth_event *event)
{
	struct trace_event_call *call = &event->call;
	int ret;

	ret = synth_event_define_fields(event);
	if (!ret)
		ret = set_synth_event_print_fmt(event);
	if (ret)
		return ret;
	call->system = SYNTH_SYSTEM;
	call->name = event->name;
	call->event.trace = print_synth_event;
	call->reg = synth_event_reg;
	call->data = event;
	ret = trace_add_event_call(call);
	if (ret)
		pr_warn("Failed to register synthetic event: %s\n", event->name);
	return ret;
}

/*
 * Linux's __create_synth_event(): the fields of raw_fields ("u64 lat; char comm[16]"), then the
 * event. dyn_event_mutex held.
 */
static int __create_synth_event(const char *name, const char *raw_fields)
{
	struct synth_field *fields[SYNTH_FIELDS_MAX];
	char *tmp_fields, *saved_fields, *field_str;
	struct synth_event *event;
	int n_fields = 0, ret = 0;

	lockdep_assert_held(&dyn_event_mutex);
	if (name[0] == '\0') {
		synth_err(SYNTH_ERR_INVALID_CMD, 0);
		return -EINVAL;
	}
	if (!is_good_name(name)) {
		synth_err(SYNTH_ERR_BAD_NAME, errpos(name));
		return -EINVAL;
	}
	if (find_synth_event(name)) {
		synth_err(SYNTH_ERR_EVENT_EXISTS, errpos(name));
		return -EEXIST;
	}
	tmp_fields = saved_fields = kstrdup(raw_fields);
	if (!tmp_fields)
		return -ENOMEM;
	while ((field_str = strsep(&tmp_fields, ";")) != NULL) {
		int argc, consumed = 0;
		char **argv = argv_split(field_str, &argc);

		if (!argv) {
			ret = -ENOMEM;
			goto err;
		}
		/* several fields between two ';' are the old syntax, still Linux's */
		while (argc > consumed) {
			struct synth_field *field = parse_synth_field(
				argc - consumed, argv + consumed, &consumed, &ret);

			if (!field) {
				argv_free(argv);
				goto err;
			}
			if (n_fields == SYNTH_FIELDS_MAX) {
				free_synth_field(field);
				synth_err(SYNTH_ERR_TOO_MANY_FIELDS, 0);
				ret = -EINVAL;
				argv_free(argv);
				goto err;
			}
			fields[n_fields++] = field;
		}
		argv_free(argv);
	}
	if (n_fields == 0) {
		synth_err(SYNTH_ERR_INVALID_CMD, 0);
		ret = -EINVAL;
		goto err;
	}
	event = alloc_synth_event(name, (unsigned int)n_fields, fields);
	if (!event) {
		ret = -ENOMEM;
		goto err;
	}
	/* the event owns the fields now */
	ret = register_synth_event(event);
	if (ret) {
		free_synth_event(event);
	} else {
		mutex_lock(&event_mutex);
		dyn_event_add(&event->devent, &synth_event_ops);
		list_add_tail(&event->synth_list, &synth_event_list);
		mutex_unlock(&event_mutex);
	}
	kfree(saved_fields);
	return ret;
err:
	for (int i = 0; i < n_fields; i++)
		free_synth_field(fields[i]);
	kfree(saved_fields);
	return ret;
}

static bool synth_event_is_busy(struct dyn_event *ev)
{
	struct synth_event *event = to_synth_event(ev);
	struct trace_event_call *call = &event->call;

	return READ_ONCE(event->ref) || call->registered || call->file.triggers;
}

/*
 * Removes it: EBUSY while held (a hist trigger writes it, kernel code holds its file), enabled
 * anywhere or a file of it is open. dyn_event_mutex held. Off the list first, under
 * event_mutex, so that no hist trigger can find it and take a hold while its files go; back in
 * its place if they cannot.
 */
static int synth_event_release(struct dyn_event *ev)
{
	struct synth_event *event = to_synth_event(ev);
	struct list_head *prev = ev->list.prev;
	int ret;

	lockdep_assert_held(&dyn_event_mutex);
	mutex_lock(&event_mutex);
	if (event->ref) {
		mutex_unlock(&event_mutex);
		return -EBUSY;
	}
	dyn_event_remove(ev);
	list_del(&event->synth_list);
	mutex_unlock(&event_mutex);
	ret = trace_remove_event_call(&event->call);
	if (ret) {
		mutex_lock(&event_mutex);
		list_add(&ev->list, prev);
		list_add_tail(&event->synth_list, &synth_event_list);
		mutex_unlock(&event_mutex);
		return ret;
	}
	free_synth_event(event);
	return 0;
}

/* Linux's synth_event_delete(), dyn_event_mutex held. */
static int __synth_event_delete(const char *name)
{
	struct synth_event *event = find_synth_event(name);
	int ret;

	if (!event)
		return -ENOENT;
	ret = synth_event_release(&event->devent);
	/* its records cannot be read once its id is someone else's (as dyn_event_release) */
	if (!ret)
		tracing_reset_all_online_cpus();
	return ret;
}

/* Linux's check_command(): "NAME TYPE FIELD..." has at least three words before any ';'. */
static int check_command(const char *raw_command)
{
	char *cmd = kstrdup(raw_command), *first, **argv;
	int argc = 0;

	if (!cmd)
		return -ENOMEM;
	first = cmd;
	strsep(&cmd, ";");
	if (first[0] != '!') {
		argv = argv_split(first, &argc);
		if (!argv) {
			kfree(first);
			return -ENOMEM;
		}
		argv_free(argv);
	}
	if (first[0] == '!')
		argc = 3; /* a removal: its name is all it needs */
	kfree(first);
	return argc < 3 ? -EINVAL : 0;
}

/* A line of synthetic_events: "NAME FIELDS" makes one, "!NAME" removes it. */
static int create_or_delete_synth_event(const char *raw_command)
{
	const char *p;
	char *name;
	int ret;

	raw_command = skip_spaces(raw_command);
	if (raw_command[0] == '\0')
		return 0;
	last_cmd_set(raw_command);
	ret = check_command(raw_command);
	if (ret) {
		synth_err(SYNTH_ERR_INVALID_CMD, 0);
		return ret;
	}
	p = strpbrk(raw_command, " \t");
	if (!p && raw_command[0] != '!') {
		synth_err(SYNTH_ERR_INVALID_CMD, 0);
		return -EINVAL;
	}
	name = kmemdup_nul(raw_command, p ? (size_t)(p - raw_command) : strlen(raw_command));
	if (!name)
		return -ENOMEM;
	if (name[0] == '!')
		ret = __synth_event_delete(name + 1);
	else
		ret = __create_synth_event(name, skip_spaces(p));
	kfree(name);
	return ret;
}

/* dynamic_events' kind: "s:[synthetic/]NAME FIELDS". */
static int create_synth_event(const char *raw_command)
{
	const char *name, *p;
	char *copy;
	size_t len;
	int ret;

	raw_command = skip_spaces(raw_command);
	if (raw_command[0] == '\0')
		return 0;
	if (raw_command[0] != 's' || raw_command[1] != ':')
		return -ECANCELED; /* not ours */
	last_cmd_set(raw_command);
	name = raw_command + 2;
	p = strpbrk(raw_command, " \t");
	if (!p) {
		synth_err(SYNTH_ERR_INVALID_CMD, 0);
		return -EINVAL;
	}
	if (memchr(name, '/', (size_t)(p - name))) {
		len = strlen(SYNTH_SYSTEM "/");
		if (strncmp(name, SYNTH_SYSTEM "/", len)) {
			synth_err(SYNTH_ERR_INVALID_DYN_CMD, 0);
			return -EINVAL;
		}
		name += len;
	}
	ret = check_command(name);
	if (ret) {
		synth_err(SYNTH_ERR_INVALID_CMD, 0);
		return ret;
	}
	copy = kmemdup_nul(name, (size_t)(p - name));
	if (!copy)
		return -ENOMEM;
	ret = __create_synth_event(copy, skip_spaces(p));
	kfree(copy);
	return ret;
}

/* "wakeup_latency\tu64 lat; char[] comm": the types without "__data_loc", as Linux's. */
static void __synth_event_show(struct seq_file *m, struct synth_event *event)
{
	seq_printf(m, "%s\t", event->name);
	for (unsigned int i = 0; i < event->n_fields; i++) {
		struct synth_field *field = event->fields[i];
		const char *type = field->type;

		if (field->is_dynamic)
			type += strlen("__data_loc ");
		seq_printf(m, "%s %s%s", type, field->name, i == event->n_fields - 1 ? "" : "; ");
	}
	seq_putc(m, '\n');
}

static int synth_event_show(struct seq_file *m, struct dyn_event *ev)
{
	seq_puts(m, "s:" SYNTH_SYSTEM "/");
	__synth_event_show(m, to_synth_event(ev));
	return 0;
}

/* "-:[synthetic/]NAME": Linux's matches by name alone, whatever follows. */
static bool synth_event_match(const char *system, const char *event, int argc, const char **argv,
			      struct dyn_event *ev)
{
	(void)argc, (void)argv;
	return !strcmp(to_synth_event(ev)->name, event) &&
	       (!system || !strcmp(system, SYNTH_SYSTEM));
}

static struct dyn_event_operations synth_event_ops = {
	.create = create_synth_event,
	.show = synth_event_show,
	.is_busy = synth_event_is_busy,
	.free = synth_event_release,
	.match = synth_event_match,
};

/* --- for kernel code -------------------------------------------------------------------------- */

int synth_event_create(const char *name, struct synth_field_desc *fields, unsigned int n_fields,
		       struct module *mod)
{
	char *buf = kmalloc(MAX_DYNEVENT_CMD_LEN);
	int pos, ret;

	if (!buf)
		return -ENOMEM;
	pos = snprintf(buf, MAX_DYNEVENT_CMD_LEN, "%s", name);
	for (unsigned int i = 0; i < n_fields && pos < MAX_DYNEVENT_CMD_LEN; i++) {
		const char *array;
		int tlen;

		if (!fields[i].type || !fields[i].name) {
			kfree(buf);
			return -EINVAL;
		}
		array = strchr(fields[i].type, '[');
		tlen = array ? (int)(array - fields[i].type) : (int)strlen(fields[i].type);
		/* "char[16] comm" is written "char comm[16]", as the file takes it */
		pos += snprintf(buf + pos, (size_t)(MAX_DYNEVENT_CMD_LEN - pos), "%s %.*s %s%s",
				i ? ";" : "", tlen, fields[i].type, fields[i].name,
				array ? array : "");
	}
	if (n_fields > SYNTH_FIELDS_MAX || pos >= MAX_DYNEVENT_CMD_LEN) {
		kfree(buf);
		return -EINVAL;
	}
	mutex_lock(&dyn_event_mutex);
	ret = create_or_delete_synth_event(buf);
	if (!ret) {
		struct synth_event *event = find_synth_event(name);

		if (event)
			event->mod = mod;
	}
	mutex_unlock(&dyn_event_mutex);
	kfree(buf);
	return ret;
}

int synth_event_delete(const char *name)
{
	int ret;

	mutex_lock(&dyn_event_mutex);
	ret = __synth_event_delete(name);
	mutex_unlock(&dyn_event_mutex);
	return ret;
}

struct trace_event_file *trace_get_event_file(const char *instance, const char *system,
					      const char *event)
{
	struct trace_event_file *file = NULL;
	struct trace_array *tr;

	mutex_lock(&trace_types_lock);
	for_each_trace_array(tr)
	{
		if (instance ? tr != &global_trace && !strcmp(tr->name, instance)
			     : tr == &global_trace)
			break;
	}
	mutex_unlock(&trace_types_lock);
	if (!tr)
		return NULL;
	mutex_lock(&event_mutex);
	file = find_event_file(tr, system, event);
	/* Lucid's holds the events users make, synthetic ones: a static event never goes */
	if (file && file->call->reg == synth_event_reg)
		((struct synth_event *)file->call->data)->ref++;
	mutex_unlock(&event_mutex);
	return file;
}

void trace_put_event_file(struct trace_event_file *file)
{
	mutex_lock(&event_mutex);
	if (file->call->reg == synth_event_reg)
		((struct synth_event *)file->call->data)->ref--;
	mutex_unlock(&event_mutex);
}

static struct synth_event *synth_event_of_file(struct trace_event_file *file)
{
	return file && file->call && file->call->reg == synth_event_reg ? file->call->data : NULL;
}

int synth_event_trace_array(struct trace_event_file *file, uint64_t *vals, unsigned int n_vals)
{
	struct synth_event *event = synth_event_of_file(file);

	if (!event || n_vals != event->n_fields)
		return -EINVAL;
	preempt_disable(); /* as a probe runs: the record is this CPU's */
	synth_event_fire(event, vals);
	preempt_enable();
	return 0;
}

int synth_event_trace(struct trace_event_file *file, unsigned int n_vals, ...)
{
	struct synth_event *event = synth_event_of_file(file);
	uint64_t vals[SYNTH_FIELDS_MAX];
	va_list args;

	if (!event || n_vals != event->n_fields)
		return -EINVAL;
	va_start(args, n_vals);
	for (unsigned int i = 0; i < n_vals; i++)
		vals[i] = va_arg(args, uint64_t);
	va_end(args);
	return synth_event_trace_array(file, vals, n_vals);
}

/* --- synthetic_events ------------------------------------------------------------------------- */

/* The same list as dynamic_events', its own kind only, without "s:synthetic/". */
static int synth_events_seq_show(struct seq_file *m, void *v)
{
	__synth_event_show(m, to_synth_event(v));
	return 0;
}

static const struct seq_operations synth_events_seq_op = {
	.start = dyn_event_seq_start,
	.next = dyn_event_seq_next,
	.stop = dyn_event_seq_stop,
	.show = synth_events_seq_show,
};

/* O_TRUNC (">") first removes them all: EBUSY, and none removed, if one is in use. */
static int synth_events_open(struct inode *inode, struct file *file)
{
	int ret;

	(void)inode;
	if ((file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC)) {
		ret = dyn_events_release_all(&synth_event_ops);
		if (ret < 0)
			return ret;
	}
	ret = seq_open(file, &synth_events_seq_op);
	if (!ret)
		((struct seq_file *)file->private_data)->private = &synth_event_ops;
	return ret;
}

static ssize_t synth_events_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	(void)file;
	return trace_parse_run_command(ubuf, cnt, ppos, create_or_delete_synth_event);
}

static const struct file_operations synth_events_fops = {
	.open = synth_events_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = synth_events_write,
	.release = seq_release,
};

void trace_events_synth_init(void)
{
	if (dyn_event_register(&synth_event_ops) ||
	    !tracefs_create_file("synthetic_events", TRACE_MODE_WRITE, NULL, NULL,
				 &synth_events_fops))
		pr_warn("Could not create tracefs 'synthetic_events' entry\n");
}
