/*
 * The trace event core on the host: ids and order, set_event's words, enabling (through the
 * real tracepoints of kernel/tracepoint.c), and the format files.
 *
 * The format files are checked twice. For sched_switch and sched_wakeup, byte for byte against
 * what Linux 6.1 printed (../shared/reference/linux-6.1/sched_*_format.txt). For every event,
 * the way a tool uses them: each probe records an event into a real ring buffer from known
 * tasks and values; the test parses the format text the kernel would show, decodes the raw
 * record with the offsets, sizes and signedness it read there, and must find those values.
 * So a format file that does not describe the real record fails, whatever the C says.
 */
#include "lib/compiler.h" /* first: glibc's cdefs.h accepts its __always_inline, not the reverse */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "trace/trace_pid.h"
#include "trace/trace_events.h"
#include "trace/trace_events_filter.h"
#include "trace/trace_events_trigger.h"
#include "trace/trace.h"
#include "trace/ring_buffer.h"
#include "trace/events/sched.h"
#include "trace/events/irq.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/mutex.h"
#include "kernel/smp.h"
#include "arch/x86_64/regs.h"
#include "trace/events/syscalls.h"
#include "lib/errno.h"
#include "tests/unit/host_kmalloc.h"

/* --- stand-ins for the kernel ----------------------------------------------------------------- */

DEFINE_TRACE(sched_switch);
DEFINE_TRACE(sched_wakeup);
DEFINE_TRACE(sched_wakeup_new);
DEFINE_TRACE(sched_process_exit);
DEFINE_TRACE(sched_process_fork);
DEFINE_TRACE(sched_process_exec);
DEFINE_TRACE(sched_process_wait);
DEFINE_TRACE(sched_waking);
DEFINE_TRACE(sched_migrate_task);
DEFINE_TRACE(sched_process_free);
DEFINE_TRACE(sys_enter); /* arch/x86_64/syscall_64.c's, for trace/trace_syscalls.c */
DEFINE_TRACE(sys_exit);
DEFINE_TRACE(irq_handler_entry);
DEFINE_TRACE(irq_handler_exit);

/*
 * The exhibit (trace/trace_events_irq.c): irq_handler_exit written out by hand beside its
 * declaration. Its declaration is made here with the macro too, as irq_handler_exit_by_macro
 * (the other irq events are not made again), so test_exhibit_as_the_macro_makes_it can check
 * that the hand-written one is what TRACE_EVENT() writes.
 */
DECLARE_TRACE(irq_handler_exit_by_macro, TP_PROTO(int irq, int ret), TP_ARGS(irq, ret));
DEFINE_TRACE(irq_handler_exit_by_macro);
#undef TRACE_EVENT
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)
#define TRACE_EVENT_BY_HAND_CHECK
#undef TRACE_EVENT_BY_HAND
#define TRACE_EVENT_BY_HAND(name, proto, args, tstruct, assign, print)                            \
	DECLARE_EVENT_CLASS_PID(name##_by_macro, PARAMS(proto), PARAMS(args), TRACE_NO_OTHER_PID, \
				PARAMS(tstruct), PARAMS(assign), PARAMS(print))                   \
	DEFINE_EVENT(name##_by_macro, name##_by_macro, PARAMS(proto), PARAMS(args))
#define CREATE_TRACE_EVENTS
#include "trace/events/irq.h"

struct trace_array global_trace;
/* No pid filter here (trace/trace_pid.c has its own test): every task is recorded. */
struct trace_pid_filter event_pid_filter;

bool trace_ignore_current(struct trace_pid_filter *f)
{
	(void)f;
	return false;
}

bool trace_ignore_this_task(struct trace_pid_filter *f, int pid)
{
	(void)f;
	(void)pid;
	return false;
}
struct trace_event_call *const __start_trace_events[1], *const __stop_trace_events[1];
static int current_pid = 42; /* the pid the recorder puts in each trace_entry */
static int sync_calls; /* tracepoint_synchronize_unregister() rounds: synchronize_sched() */

void mutex_lock(struct mutex *m)
{
	(void)m;
}

void mutex_unlock(struct mutex *m)
{
	(void)m;
}

void synchronize_sched(void)
{
	sync_calls++;
}

int printk(const char *fmt, ...)
{
	(void)fmt;
	return 0;
}

int ring_buffer_cpu_id(void)
{
	return 0;
}

/* trace/trace_events_filter.c's generic fields, cpu and comm */
int filter_current_cpu(void)
{
	return 0;
}

const char *filter_current_comm(void)
{
	return "test";
}

size_t sprint_symbol(char *buf, size_t size, unsigned long addr, bool with_offset)
{
	(void)buf;
	(void)size;
	(void)addr;
	(void)with_offset;
	return 0;
}

unsigned int tracing_gen_ctx(void)
{
	return TRACE_CTX(TRACE_FLAG_IRQS_OFF, 1);
}

/* What trace_event_buffer_reserve() records: the context under the tracepoint's own count. */
unsigned int tracing_gen_ctx_dec(void)
{
	return TRACE_CTX(TRACE_FLAG_IRQS_OFF, 1);
}

void tracing_generic_entry_update(struct trace_entry *entry, unsigned short type,
				  unsigned int trace_ctx)
{
	entry->type = type;
	entry->flags = TRACE_CTX_FLAGS(trace_ctx);
	entry->preempt_count = TRACE_CTX_DEPTH(trace_ctx);
	entry->pid = current_pid;
}

int event_trace_init_tracefs(void)
{
	return 0;
}

/* What the triggers call (trace/trace_events_trigger.c): recorded, for the trigger tests. */
static int stack_traces, snapshots;
static unsigned long stack_from;

void tracer_tracing_on(struct trace_array *tr)
{
	ring_buffer_record_on(tr->buffer);
}

void tracer_tracing_off(struct trace_array *tr)
{
	ring_buffer_record_off(tr->buffer);
}

bool tracer_tracing_is_on(struct trace_array *tr)
{
	return ring_buffer_record_is_on(tr->buffer);
}

void __trace_stack(struct trace_array *tr, unsigned int trace_ctx, unsigned long from)
{
	(void)tr;
	(void)trace_ctx;
	stack_traces++;
	stack_from = from;
}

/* options/stacktrace and userstacktrace (trace/trace_options.c): counted, with where from. */
static int option_stacks;
static unsigned long option_stack_from;

void ftrace_trace_stacks(struct trace_array *tr, unsigned long from)
{
	(void)tr;
	option_stacks++;
	option_stack_from = from;
}

bool trace_snapshot_request(struct trace_array *tr)
{
	(void)tr;
	snapshots++;
	return true;
}

extern struct trace_event_call event_sched_switch, event_sched_wakeup, event_sched_wakeup_new,
	event_sched_process_exit, event_irq_handler_entry, event_irq_handler_exit,
	event_sched_process_fork, event_sched_process_exec, event_sched_process_wait;

/* In the order the linker might put them: not sorted. */
static struct trace_event_call *const all_events[] = {
	&event_sched_switch,	   &event_sched_wakeup,	     &event_sched_wakeup_new,
	&event_sched_process_exit, &event_irq_handler_entry, &event_irq_handler_exit,
};
/* Sorted by system, then name: the order of available_events and of the ids. */
static struct trace_event_call *const sorted_events[] = {
	&event_irq_handler_entry, &event_irq_handler_exit, &event_sched_process_exit,
	&event_sched_switch,	  &event_sched_wakeup,	   &event_sched_wakeup_new,
};
#define NR_EVENTS ARRAY_SIZE(all_events)

/* events/ftrace/ (trace/trace_export.c): formats only, with their TRACE_* types as ids. */
extern struct trace_event_call event_ftrace_function, event_ftrace_kernel_stack, event_ftrace_print,
	event_ftrace_bprint, event_ftrace_bputs, event_ftrace_funcgraph_entry,
	event_ftrace_funcgraph_exit, event_ftrace_raw_data;
static struct trace_event_call *const ftrace_internal_events[] = {
	&event_ftrace_function,	      &event_ftrace_kernel_stack, &event_ftrace_print,
	&event_ftrace_bprint,	      &event_ftrace_bputs,	  &event_ftrace_funcgraph_entry,
	&event_ftrace_funcgraph_exit, &event_ftrace_raw_data,
};

static int setup_all(void **state)
{
	(void)state;
	global_trace.buffer = ring_buffer_alloc(64 * 1024, RB_FL_OVERWRITE, 1);
	assert_non_null(global_trace.buffer);
	trace_events_add(all_events, NR_EVENTS);
	trace_events_add(ftrace_internal_events, ARRAY_SIZE(ftrace_internal_events));
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	ring_buffer_free(global_trace.buffer);
	return 0;
}

/* Every test starts with every event disabled and an empty buffer. */
static int setup(void **state)
{
	struct trace_event_selector all = {.set = 0};

	(void)state;
	ftrace_set_clr_event(&all);
	ring_buffer_reset(global_trace.buffer);
	return 0;
}

/* --- ids, order ------------------------------------------------------------------------------- */

static void test_sorted_with_ids_in_order(void **state)
{
	struct trace_event_call *call;
	size_t i = 0;

	(void)state;
	list_for_each_entry(call, &ftrace_events, list) {
		if (call->flags & TRACE_EVENT_FL_IGNORE_ENABLE)
			continue; /* fixed ids: test_ftrace_internal_events */
		assert_true(i < NR_EVENTS);
		assert_ptr_equal(call, sorted_events[i]);
		assert_int_equal(call->event.type, TRACE_EVENT_TYPE_FIRST + (int)i);
		assert_ptr_equal(ftrace_find_event(call->event.type), &call->event);
		i++;
	}
	assert_int_equal(i, NR_EVENTS);
	assert_true(TRACE_EVENT_TYPE_FIRST > __TRACE_LAST_TYPE);
	/* Adding them again changes nothing: no second entry, no new id. */
	trace_events_add(all_events, NR_EVENTS);
	i = 0;
	list_for_each_entry(call, &ftrace_events, list) {
		if (!(call->flags & TRACE_EVENT_FL_IGNORE_ENABLE))
			assert_int_equal(call->event.type, TRACE_EVENT_TYPE_FIRST + (int)i++);
	}
	assert_int_equal(i, NR_EVENTS);
}

/* --- set_event's words ------------------------------------------------------------------------ */

static void parse(const char *word, const char *match, const char *sub, const char *event, int set)
{
	char buf[64];
	struct trace_event_selector sel;

	strcpy(buf, word);
	trace_event_parse_selector(buf, &sel);
	if (match)
		assert_string_equal(sel.match, match);
	else
		assert_null(sel.match);
	if (sub)
		assert_string_equal(sel.sub, sub);
	else
		assert_null(sel.sub);
	if (event)
		assert_string_equal(sel.event, event);
	else
		assert_null(sel.event);
	assert_int_equal(sel.set, set);
}

static void test_parse_selector(void **state)
{
	(void)state;
	parse("sched:sched_switch", NULL, "sched", "sched_switch", 1);
	parse("!sched:sched_wakeup", NULL, "sched", "sched_wakeup", 0);
	parse("sched:*", NULL, "sched", NULL, 1);
	parse("sched:", NULL, "sched", NULL, 1);
	parse("*:sched_switch", NULL, NULL, "sched_switch", 1);
	parse(":sched_switch", NULL, NULL, "sched_switch", 1);
	parse("*:*", NULL, NULL, NULL, 1);
	parse("!*:*", NULL, NULL, NULL, 0);
	parse("sched_switch", "sched_switch", NULL, NULL, 1);
	parse("irq", "irq", NULL, NULL, 1);
	parse("*", "*", NULL, NULL, 1);
}

/* The events enabled now, as "system:name " words in list order. */
static const char *enabled_list(void)
{
	static char buf[256];
	struct trace_event_call *call;

	buf[0] = '\0';
	list_for_each_entry(call, &ftrace_events, list) {
		if (!call->file.enabled)
			continue;
		strcat(buf, call->system);
		strcat(buf, ":");
		strcat(buf, call->name);
		strcat(buf, " ");
		/* The probe is attached exactly when the event is on. */
		assert_true(call->registered);
		assert_true(static_key_enabled(&call->tp->key));
	}
	list_for_each_entry(call, &ftrace_events, list) {
		if (!call->file.enabled && !(call->flags & TRACE_EVENT_FL_IGNORE_ENABLE))
			assert_false(static_key_enabled(&call->tp->key));
	}
	return buf;
}

static int set_clr(const char *word)
{
	char buf[64];
	struct trace_event_selector sel;

	strcpy(buf, word);
	trace_event_parse_selector(buf, &sel);
	return ftrace_set_clr_event(&sel);
}

static void test_set_clr_event(void **state)
{
	(void)state;
	assert_string_equal(enabled_list(), "");
	assert_int_equal(set_clr("sched:sched_switch"), 0);
	assert_string_equal(enabled_list(), "sched:sched_switch ");
	assert_int_equal(set_clr("sched_wakeup"), 0); /* a bare event name */
	assert_string_equal(enabled_list(), "sched:sched_switch sched:sched_wakeup ");
	assert_int_equal(set_clr("!sched:sched_switch"), 0);
	assert_string_equal(enabled_list(), "sched:sched_wakeup ");
	assert_int_equal(set_clr("irq"), 0); /* a bare system name */
	assert_string_equal(enabled_list(),
			    "irq:irq_handler_entry irq:irq_handler_exit sched:sched_wakeup ");
	assert_int_equal(set_clr("!*:*"), 0);
	assert_string_equal(enabled_list(), "");
	assert_int_equal(set_clr("sched:*"), 0);
	assert_string_equal(enabled_list(), "sched:sched_process_exit sched:sched_switch "
					    "sched:sched_wakeup sched:sched_wakeup_new ");
	assert_int_equal(set_clr(":irq_handler_exit"), 0);
	assert_int_equal(set_clr("!sched:"), 0);
	assert_string_equal(enabled_list(), "irq:irq_handler_exit ");

	/* Words that match nothing: -EINVAL, and nothing changes. */
	static const char *const bad[] = {
		"nosuch:event", "nosuch", "*", "sched:nosuch",	    "irq:sched_switch",
		"!nosuch:*",	"sched_", "",  "sched_switch:sched"};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char buf[64];
		struct trace_event_selector sel;

		strcpy(buf, bad[i]);
		trace_event_parse_selector(buf, &sel);
		assert_false(trace_event_selector_any(&sel));
		assert_int_equal(ftrace_set_clr_event(&sel), -EINVAL);
		assert_string_equal(enabled_list(), "irq:irq_handler_exit ");
	}
}

static void test_tracer_hold(void **state)
{
	int syncs;

	(void)state;
	assert_int_equal(trace_event_tracer_hold("sched", "sched_switch", true), 0);
	assert_false(event_sched_switch.file.enabled); /* not the user's switch... */
	assert_true(event_sched_switch.registered); /* ...but it records */
	assert_true(static_key_enabled(&__tracepoint_sched_switch.key));
	assert_int_equal(set_clr("sched_switch"), 0);
	assert_int_equal(set_clr("!sched_switch"), 0);
	assert_true(static_key_enabled(&__tracepoint_sched_switch.key)); /* still held */
	syncs = sync_calls;
	assert_int_equal(trace_event_tracer_hold("sched", "sched_switch", false), 0);
	assert_false(static_key_enabled(&__tracepoint_sched_switch.key));
	assert_int_equal(sync_calls, syncs + 1); /* detaching waited for the other CPUs */
	assert_int_equal(trace_event_tracer_hold("sched", "nosuch", true), -ENOENT);
}

/* --- format files ----------------------------------------------------------------------------- */

/* The four fields every event's format opens with, as Linux 6.1 prints them. */
#define COMMON_FIELDS                                                                  \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"

static const char ref_sched_switch_format[] =
	"name: sched_switch\n"
	"ID: %d\n"
	"format:\n" COMMON_FIELDS "\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:1;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%%s prev_pid=%%d prev_prio=%%d prev_state=%%s%%s ==> next_comm=%%s "
	"next_pid=%%d next_prio=%%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & "
	"((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, "
	"\"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { "
	"0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
	"REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, "
	"REC->next_pid, REC->next_prio\n";

static const char ref_sched_wakeup_format[] =
	"name: sched_wakeup\n"
	"ID: %d\n"
	"format:\n" COMMON_FIELDS "\n"
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"comm=%%s pid=%%d prio=%%d target_cpu=%%03d\", REC->comm, REC->pid, "
	"REC->prio, REC->target_cpu\n";

static struct trace_seq seq;

static const char *format_of(struct trace_event_call *call)
{
	static char text[TRACE_SEQ_BUFFER_SIZE + 1];

	trace_seq_init(&seq);
	trace_event_print_format(&seq, call);
	assert_false(trace_seq_has_overflowed(&seq));
	memcpy(text, seq.buffer, seq.len);
	text[seq.len] = '\0';
	return text;
}

static void test_format_as_linux(void **state)
{
	char want[4096];

	(void)state;
	snprintf(want, sizeof(want), ref_sched_switch_format, event_sched_switch.event.type);
	assert_string_equal(format_of(&event_sched_switch), want);
	snprintf(want, sizeof(want), ref_sched_wakeup_format, event_sched_wakeup.event.type);
	assert_string_equal(format_of(&event_sched_wakeup), want);
	/* Linux's others of these, field for field (their print fmts are checked below). */
	assert_non_null(strstr(format_of(&event_irq_handler_entry),
			       "\n\n\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
			       "\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:1;\n\n"
			       "print fmt: \"irq=%d name=%s\", REC->irq, __get_str(name)\n"));
	assert_non_null(strstr(format_of(&event_irq_handler_exit),
			       "\n\n\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
			       "\tfield:int ret;\toffset:12;\tsize:4;\tsigned:1;\n\n"
			       "print fmt: \"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : "
			       "\"unhandled\"\n"));
	assert_non_null(strstr(format_of(&event_sched_process_exit),
			       "\n\n\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
			       "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
			       "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n\n"
			       "print fmt: \"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, "
			       "REC->prio\n"));
}

/* A field as a tool reads it from the format text. */
struct parsed_field {
	char name[32];
	bool is_string; /* __data_loc */
	bool is_array; /* char x[N] */
	unsigned int offset, size;
	int is_signed;
};

/* Parses every "\tfield:" line of a format file; returns how many (common ones included). */
static int parse_format(const char *text, struct parsed_field *f, int max)
{
	int n = 0;

	for (const char *p = strstr(text, "\tfield:"); p; p = strstr(p + 1, "\tfield:")) {
		char decl[96], *name;
		const char *semi = strchr(p, ';');

		assert_true(n < max);
		assert_non_null(semi);
		memcpy(decl, p + 7, (size_t)(semi - p - 7));
		decl[semi - p - 7] = '\0';
		name = strrchr(decl, ' ') + 1; /* "type name" or "type name[N]" */
		f[n].is_string = strncmp(decl, "__data_loc ", 11) == 0;
		f[n].is_array = strchr(name, '[') != NULL;
		if (f[n].is_array)
			*strchr(name, '[') = '\0';
		strcpy(f[n].name, name);
		assert_int_equal(sscanf(semi + 1, "\toffset:%u;\tsize:%u;\tsigned:%d;",
					&f[n].offset, &f[n].size, &f[n].is_signed),
				 3);
		n++;
	}
	return n;
}

/* The one record in the buffer, as raw bytes. */
static const unsigned char *consume_record(unsigned int *len)
{
	static unsigned char rec[512];
	struct ring_buffer_event *ev;
	uint64_t ts;

	ev = ring_buffer_consume(global_trace.buffer, 0, &ts, NULL);
	assert_non_null(ev);
	*len = ring_buffer_event_length(ev);
	assert_true(*len <= sizeof(rec));
	memcpy(rec, ring_buffer_event_data(ev), *len);
	assert_null(ring_buffer_consume(global_trace.buffer, 0, &ts, NULL)); /* just one */
	return rec;
}

static const struct parsed_field *field(const struct parsed_field *f, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(f[i].name, name) == 0)
			return &f[i];
	fail_msg("no field %s", name);
	return NULL;
}

/* A scalar field's value, from the record and what the format says about it. */
static long long value(const unsigned char *rec, const struct parsed_field *f)
{
	unsigned long long v = 0;

	assert_true(f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
	for (unsigned int i = 0; i < f->size; i++)
		v |= (unsigned long long)rec[f->offset + i] << (8 * i); /* x86: little-endian */
	if (f->is_signed && f->size < 8 && (v >> (8 * f->size - 1)) & 1)
		v |= ~0ULL << (8 * f->size);
	return (long long)v;
}

/* A char array's or a __data_loc string's text. */
static const char *text_of(const unsigned char *rec, unsigned int len, const struct parsed_field *f)
{
	if (f->is_array)
		return (const char *)rec + f->offset;
	assert_true(f->is_string && f->size == 4);
	uint32_t loc = (uint32_t)value(rec, f);
	unsigned int off = loc & 0xffff, n = loc >> 16;
	assert_true(off + n <= len);
	assert_int_equal(rec[off + n - 1], '\0');
	return (const char *)rec + off;
}

/*
 * The generic checks on a parsed format against one real record: the common fields are
 * struct trace_entry, fields lie inside the record in increasing order without overlapping,
 * and the header holds what the recorder put there.
 */
static int check_layout(struct trace_event_call *call, const unsigned char *rec, unsigned int len,
			struct parsed_field *f, int max)
{
	int n = parse_format(format_of(call), f, max);
	static const char *const common[] = {"common_type", "common_flags", "common_preempt_count",
					     "common_pid"};
	unsigned int end = 0;

	assert_true(n > 4);
	for (int i = 0; i < 4; i++)
		assert_string_equal(f[i].name, common[i]);
	for (int i = 0; i < n; i++) {
		assert_true(f[i].offset >= end); /* in order, no overlap */
		end = f[i].offset + f[i].size;
		assert_true(end <= call->size);
		assert_true(end <= len);
	}
	assert_int_equal(value(rec, &f[0]), call->event.type);
	assert_int_equal(value(rec, &f[1]), TRACE_FLAG_IRQS_OFF);
	assert_int_equal(value(rec, &f[2]), 1);
	assert_int_equal(value(rec, &f[3]), current_pid);
	return n;
}

/* What the event's output function prints for the record in iter. */
static const char *line_of(struct trace_event_call *call, const unsigned char *rec,
			   unsigned int len)
{
	static struct trace_iterator iter;
	static char text[512];

	memset(&iter, 0, sizeof(iter));
	iter.ent = (struct trace_entry *)rec;
	iter.ent_size = len;
	trace_seq_init(&iter.seq);
	assert_int_equal(call->event.trace(&iter, 0, &call->event), TRACE_TYPE_HANDLED);
	memcpy(text, iter.seq.buffer, iter.seq.len);
	text[iter.seq.len] = '\0';
	return text;
}

typedef void (*switch_probe_t)(void *, bool, struct task *, struct task *);
typedef void (*task_probe_t)(void *, struct task *);

static void test_sched_switch_record(void **state)
{
	struct task prev = {.pid = 7, .comm = "run_test-worker", .prio = DEFAULT_PRIO};
	struct task next = {.pid = 0, .comm = "swapper/3", .prio = DEFAULT_PRIO};
	static const struct {
		bool preempt;
		long state;
		long report;
		const char *text;
	} cases[] = {
		{false, TASK_RUNNING, 0, "R"},		 {false, TASK_INTERRUPTIBLE, 0x1, "S"},
		{false, TASK_UNINTERRUPTIBLE, 0x2, "D"}, {false, TASK_DEAD, 0x20, "Z"},
		{true, TASK_INTERRUPTIBLE, 0x100, "R+"},
	};
	struct parsed_field f[16];
	char want[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned int len;
		const unsigned char *rec;
		int n;

		prev.state = cases[i].state;
		((switch_probe_t)event_sched_switch.probe)(&event_sched_switch, cases[i].preempt,
							   &prev, &next);
		rec = consume_record(&len);
		n = check_layout(&event_sched_switch, rec, len, f, 16);
		assert_int_equal(n, 4 + 7);
		assert_string_equal(text_of(rec, len, field(f, n, "prev_comm")), "run_test-worker");
		assert_int_equal(value(rec, field(f, n, "prev_pid")), 7);
		assert_int_equal(value(rec, field(f, n, "prev_prio")), 120);
		assert_int_equal(value(rec, field(f, n, "prev_state")), cases[i].report);
		assert_string_equal(text_of(rec, len, field(f, n, "next_comm")), "swapper/3");
		assert_int_equal(value(rec, field(f, n, "next_pid")), 0);
		assert_int_equal(value(rec, field(f, n, "next_prio")), 120);
		snprintf(want, sizeof(want),
			 "sched_switch: prev_comm=run_test-worker prev_pid=7 prev_prio=120 "
			 "prev_state=%s ==> next_comm=swapper/3 next_pid=0 next_prio=120\n",
			 cases[i].text);
		assert_string_equal(line_of(&event_sched_switch, rec, len), want);
	}
}

/*
 * options/stacktrace: after every committed event the stacks are asked for, from the code that
 * fired the event, with or without a filter; not while the options are off, nor for a record
 * the filter drops.
 */
static void test_stack_options_after_commit(void **state)
{
	struct task prev = {.pid = 7, .comm = "a", .prio = DEFAULT_PRIO};
	struct task next = {.pid = 0, .comm = "b", .prio = DEFAULT_PRIO};
	switch_probe_t probe = (switch_probe_t)event_sched_switch.probe;
	static const unsigned int bits[] = {TRACE_ITER_STACKTRACE, TRACE_ITER_USERSTACKTRACE};
	struct event_filter *keep, *drop;
	unsigned int len;

	(void)state;
	option_stacks = 0;
	probe(&event_sched_switch, false, &prev, &next);
	consume_record(&len);
	assert_int_equal(option_stacks, 0);
	assert_int_equal(create_event_filter(&event_sched_switch, "prev_pid == 7", false, &keep),
			 0);
	assert_int_equal(create_event_filter(&event_sched_switch, "prev_pid == 8", false, &drop),
			 0);
	for (size_t i = 0; i < ARRAY_SIZE(bits); i++) {
		option_stacks = 0;
		global_trace.trace_flags |= bits[i];
		probe(&event_sched_switch, false, &prev, &next);
		consume_record(&len);
		assert_int_equal(option_stacks, 1);
		assert_int_not_equal(option_stack_from, 0);
		event_sched_switch.file.filter = keep;
		probe(&event_sched_switch, false, &prev, &next);
		consume_record(&len);
		assert_int_equal(option_stacks, 2);
		event_sched_switch.file.filter = drop;
		probe(&event_sched_switch, false, &prev, &next);
		assert_int_equal(option_stacks, 2); /* dropped: no stack */
		event_sched_switch.file.filter = NULL;
		global_trace.trace_flags &= ~bits[i];
	}
	free_event_filter(keep);
	free_event_filter(drop);
}

/*
 * An event with a filter: its record is built aside and reaches the buffer only if the filter
 * keeps it, the same bytes as without a filter; a filter removed keeps everything again.
 */
static void test_filtered_records(void **state)
{
	struct task prev = {.pid = 7, .comm = "run_test-worker", .prio = DEFAULT_PRIO};
	struct task next = {.pid = 0, .comm = "swapper/3", .prio = DEFAULT_PRIO};
	switch_probe_t probe = (switch_probe_t)event_sched_switch.probe;
	unsigned char unfiltered[512];
	const unsigned char *rec;
	struct event_filter *f;
	unsigned int len, len0;
	uint64_t ts;

	(void)state;
	probe(&event_sched_switch, false, &prev, &next);
	rec = consume_record(&len0);
	memcpy(unfiltered, rec, len0);

	assert_int_equal(create_event_filter(&event_sched_switch,
					     "prev_pid == 7 && next_comm ~ \"swap*\"", false, &f),
			 0);
	event_sched_switch.file.filter = f;
	probe(&event_sched_switch, false, &prev, &next);
	rec = consume_record(&len); /* kept: exactly one record, as without the filter */
	assert_int_equal(len, len0);
	assert_memory_equal(rec, unfiltered, len);
	prev.pid = 8;
	probe(&event_sched_switch, false, &prev, &next);
	assert_null(ring_buffer_consume(global_trace.buffer, 0, &ts, NULL)); /* dropped */
	prev.pid = 7;
	strcpy(next.comm, "sh");
	probe(&event_sched_switch, false, &prev, &next);
	assert_null(ring_buffer_consume(global_trace.buffer, 0, &ts, NULL));

	event_sched_switch.file.filter = NULL;
	free_event_filter(f);
	probe(&event_sched_switch, false, &prev, &next);
	rec = consume_record(&len);
	assert_int_equal(len, len0);
}

/* --- triggers --------------------------------------------------------------------------------- */

/* A write to call's trigger file, as trace/trace_events_trigger_fs.c makes it. */
static int trigger_write(struct trace_event_call *call, const char *text)
{
	char buf[256];
	int ret;

	snprintf(buf, sizeof(buf), "%s", text);
	ret = trigger_check_regex(&call->file, buf);
	snprintf(buf, sizeof(buf), "%s", text);
	return ret ? ret : trigger_process_regex(&call->file, buf);
}

static const char *trigger_line(struct trace_event_call *call, int k)
{
	static char buf[256];

	if (event_trigger_show(&call->file, k, buf, sizeof(buf)) < 0)
		return "";
	return buf;
}

/* One record in the buffer (consumed), or none. */
static bool recorded(void)
{
	uint64_t ts;
	bool any = ring_buffer_consume(global_trace.buffer, 0, &ts, NULL) != NULL;

	while (ring_buffer_consume(global_trace.buffer, 0, &ts, NULL))
		;
	return any;
}

#define SOFT_FLAGS (EVENT_FILE_FL_SOFT_MODE | EVENT_FILE_FL_SOFT_DISABLED)
#define ALL_FLAGS (SOFT_FLAGS | EVENT_FILE_FL_TRIGGER_MODE | EVENT_FILE_FL_TRIGGER_COND)

/*
 * A trigger on an event the user did not enable: the probe is attached for it, the records
 * are dropped (soft disabled: "0*"), and it fires on the filter's records only. traceoff runs
 * after the record; a second trigger of the same kind (traceon) is EEXIST, and "!traceon"
 * removes it, as in Linux, where the two share a type. Bad writes change nothing.
 */
static void test_trigger_traceoff(void **state)
{
	struct task prev = {.pid = 8, .comm = "worker", .prio = DEFAULT_PRIO};
	struct task next = {.pid = 0, .comm = "swapper/0", .prio = DEFAULT_PRIO};
	switch_probe_t probe = (switch_probe_t)event_sched_switch.probe;
	struct trace_event_call *call = &event_sched_switch;

	(void)state;
	assert_int_equal(trigger_write(call, "nosuch\n"), -EINVAL);
	assert_int_equal(trigger_write(call, "\n"), -EINVAL);
	assert_int_equal(trigger_write(call, "traceoff if no_field == 1\n"), -EINVAL);
	assert_int_equal(trigger_write(call, "traceoff if prev_pid = 1\n"), -EINVAL);
	assert_int_equal(trigger_write(call, "enable_event:sched:nosuch\n"), -EINVAL);
	assert_int_equal(trigger_write(call, "enable_event:ftrace:function\n"), -EINVAL);
	assert_null(call->file.triggers);
	assert_int_equal(call->file.flags, 0);
	assert_false(call->file.enabled);
	assert_int_equal(trigger_write(call, "!traceoff\n"), 0); /* none: no error, as Linux */

	assert_int_equal(trigger_write(call, "traceoff if prev_pid == 7\n"), 0);
	assert_string_equal(trigger_line(call, 0), "traceoff:unlimited if prev_pid == 7\n");
	assert_true(call->file.enabled); /* the probe is attached for the trigger */
	assert_int_equal(call->file.flags, ALL_FLAGS);
	assert_int_equal(trigger_write(call, "traceon\n"), -EEXIST);

	probe(call, false, &prev, &next); /* pid 8: not the filter's */
	assert_false(recorded()); /* soft disabled */
	assert_true(ring_buffer_record_is_on(global_trace.buffer));
	prev.pid = 7;
	probe(call, false, &prev, &next);
	assert_false(ring_buffer_record_is_on(global_trace.buffer));
	ring_buffer_record_on(global_trace.buffer);

	/* The user's enable records again; traceoff runs after the record: it is kept. */
	assert_int_equal(trace_event_enable_disable(call, 1), 0);
	assert_int_equal(call->file.flags & SOFT_FLAGS, EVENT_FILE_FL_SOFT_MODE); /* "1*" */
	probe(call, false, &prev, &next);
	assert_true(recorded());
	assert_false(ring_buffer_record_is_on(global_trace.buffer));
	ring_buffer_record_on(global_trace.buffer);
	/* The user's 0 only soft-disables while the trigger holds it. */
	assert_int_equal(trace_event_enable_disable(call, 0), 0);
	assert_true(call->file.enabled);
	assert_int_equal(call->file.flags & SOFT_FLAGS, SOFT_FLAGS); /* "0*" */

	assert_int_equal(trigger_write(call, "!traceon\n"), 0);
	assert_null(call->file.triggers);
	assert_int_equal(call->file.flags, 0);
	assert_false(call->file.enabled);
}

/* Counts go down only when the trigger did something; traceon's own event is recorded. */
static void test_trigger_counts(void **state)
{
	struct task prev = {.pid = 7, .comm = "worker", .prio = DEFAULT_PRIO};
	struct task next = {.pid = 0, .comm = "swapper/0", .prio = DEFAULT_PRIO};
	switch_probe_t probe = (switch_probe_t)event_sched_switch.probe;
	struct trace_event_call *call = &event_sched_switch;
	int stacks = stack_traces, snaps = snapshots;

	(void)state;
	assert_int_equal(trace_event_enable_disable(call, 1), 0);
	assert_int_equal(trigger_write(call, "traceon:2\n"), 0);
	assert_int_equal(call->file.flags & EVENT_FILE_FL_TRIGGER_COND, 0); /* runs at reserve */
	probe(call, false, &prev, &next); /* on already: no count used */
	assert_true(recorded());
	assert_string_equal(trigger_line(call, 0), "traceon:count=2\n");
	ring_buffer_record_off(global_trace.buffer);
	probe(call, false, &prev, &next);
	assert_true(recorded()); /* turned on before its record was reserved */
	assert_string_equal(trigger_line(call, 0), "traceon:count=1\n");
	assert_int_equal(trigger_write(call, "!traceon:0\n"), 0);

	/* A filtered traceon looks at a record made while recording was off: not kept. */
	assert_int_equal(trigger_write(call, "traceon if prev_pid == 7\n"), 0);
	ring_buffer_record_off(global_trace.buffer);
	probe(call, false, &prev, &next);
	assert_true(ring_buffer_record_is_on(global_trace.buffer));
	assert_false(recorded());
	assert_int_equal(trigger_write(call, "!traceon\n"), 0);

	/* Newest first in the file; stacktrace after the record, from the probe on. */
	assert_int_equal(trigger_write(call, "stacktrace:2 if prev_pid == 7\n"), 0);
	assert_int_equal(trigger_write(call, "snapshot:1\n"), 0);
	assert_string_equal(trigger_line(call, 0), "snapshot:count=1\n");
	assert_string_equal(trigger_line(call, 1), "stacktrace:count=2 if prev_pid == 7\n");
	assert_string_equal(trigger_line(call, 2), "");
	for (int i = 0; i < 3; i++)
		probe(call, false, &prev, &next);
	assert_int_equal(stack_traces - stacks, 2);
	assert_true(stack_from != 0);
	assert_int_equal(snapshots - snaps, 1);
	assert_string_equal(trigger_line(call, 1), "stacktrace:count=0 if prev_pid == 7\n");
	prev.pid = 1;
	assert_int_equal(trigger_write(call, "!stacktrace\n"), 0);
	assert_int_equal(trigger_write(call, "!snapshot\n"), 0);
	assert_int_equal(call->file.flags, 0);
	assert_true(call->file.enabled); /* the user's, still */
	recorded();
}

/*
 * enable_event holds its target in soft mode: attached, soft disabled, until the trigger fires;
 * disable_event turns it back off. Removing the last hold leaves the target as the triggers
 * left it (Linux: enabled, if it was soft-enabled then).
 */
static void test_trigger_enable_event(void **state)
{
	struct task prev = {.pid = 7, .comm = "worker", .prio = DEFAULT_PRIO};
	struct task next = {.pid = 0, .comm = "swapper/0", .prio = DEFAULT_PRIO};
	struct task t = {.pid = 9, .comm = "wakee", .prio = DEFAULT_PRIO};
	switch_probe_t probe = (switch_probe_t)event_sched_switch.probe;
	task_probe_t wakeup = (task_probe_t)event_sched_wakeup.probe;
	struct trace_event_call *call = &event_sched_switch, *target = &event_sched_wakeup;

	(void)state;
	assert_int_equal(
		trigger_write(call, "enable_event:sched:sched_wakeup:1 if prev_pid == 7\n"), 0);
	assert_int_equal(trigger_write(call, "disable_event:sched:sched_wakeup\n"), -EEXIST);
	assert_string_equal(trigger_line(call, 0),
			    "enable_event:sched:sched_wakeup:count=1 if prev_pid == 7\n");
	assert_true(target->file.enabled);
	assert_int_equal(target->file.flags, SOFT_FLAGS); /* "0*" */
	wakeup(target, &t);
	assert_false(recorded());
	probe(call, false, &prev, &next); /* fires: the target records from now on */
	assert_int_equal(target->file.flags, EVENT_FILE_FL_SOFT_MODE); /* "1*" */
	assert_string_equal(trigger_line(call, 0),
			    "enable_event:sched:sched_wakeup:count=0 if prev_pid == 7\n");
	wakeup(target, &t);
	assert_true(recorded());

	assert_int_equal(trigger_write(call, "!enable_event:sched:sched_wakeup\n"), 0);
	assert_null(call->file.triggers);
	assert_true(target->file.enabled); /* as the trigger left it */
	assert_int_equal(target->file.flags, 0);
	assert_int_equal(trace_event_enable_disable(target, 0), 0);

	assert_int_equal(trigger_write(call, "disable_event:sched:sched_wakeup\n"), 0);
	assert_int_equal(trace_event_enable_disable(target, 1), 0); /* the user's */
	wakeup(target, &t);
	assert_true(recorded());
	probe(call, false, &prev, &next);
	wakeup(target, &t);
	assert_false(recorded());
	assert_int_equal(trigger_write(call, "!disable_event:sched:sched_wakeup:0\n"), 0);
	assert_false(target->file.enabled); /* soft disabled when its last hold went: detached */
	assert_int_equal(target->file.flags, 0);
	assert_int_equal(call->file.flags, 0);
}

static void test_sched_task_records(void **state)
{
	struct task t = {.pid = -3, .comm = "a-comm-of-15-ch", .prio = DEFAULT_PRIO, .cpu = 2};
	struct {
		struct trace_event_call *call;
		const char *want;
	} cases[] = {
		{&event_sched_wakeup,
		 "sched_wakeup: comm=a-comm-of-15-ch pid=-3 prio=120 target_cpu=002\n"},
		{&event_sched_wakeup_new,
		 "sched_wakeup_new: comm=a-comm-of-15-ch pid=-3 prio=120 target_cpu=002\n"},
		{&event_sched_process_exit,
		 "sched_process_exit: comm=a-comm-of-15-ch pid=-3 prio=120\n"},
	};
	struct parsed_field f[16];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned int len;
		const unsigned char *rec;
		int n;

		((task_probe_t)cases[i].call->probe)(cases[i].call, &t);
		rec = consume_record(&len);
		n = check_layout(cases[i].call, rec, len, f, 16);
		assert_string_equal(text_of(rec, len, field(f, n, "comm")), "a-comm-of-15-ch");
		assert_int_equal(value(rec, field(f, n, "pid")), -3); /* signed, as it says */
		assert_int_equal(value(rec, field(f, n, "prio")), 120);
		if (cases[i].call != &event_sched_process_exit)
			assert_int_equal(value(rec, field(f, n, "target_cpu")), 2);
		assert_string_equal(line_of(cases[i].call, rec, len), cases[i].want);
	}
}

/* fork, exec and wait: Linux's records and lines, the exec's file name a string of its own. */
static void test_sched_process_life_records(void **state)
{
	struct task parent = {.pid = 20, .comm = "spawn", .prio = DEFAULT_PRIO};
	struct task child = {.pid = 21, .comm = "spawn", .prio = DEFAULT_PRIO};
	struct parsed_field f[16];
	unsigned int len;
	const unsigned char *rec;
	int n;

	(void)state;
	trace_events_add((struct trace_event_call *[]){&event_sched_process_fork,
						       &event_sched_process_exec,
						       &event_sched_process_wait},
			 3);
	((void (*)(void *, struct task *, struct task *))event_sched_process_fork.probe)(
		&event_sched_process_fork, &parent, &child);
	rec = consume_record(&len);
	n = check_layout(&event_sched_process_fork, rec, len, f, 16);
	assert_int_equal(n, 4 + 4);
	assert_string_equal(text_of(rec, len, field(f, n, "parent_comm")), "spawn");
	assert_int_equal(value(rec, field(f, n, "child_pid")), 21);
	assert_string_equal(
		line_of(&event_sched_process_fork, rec, len),
		"sched_process_fork: comm=spawn pid=20 child_comm=spawn child_pid=21\n");

	((void (*)(void *, struct task *, int, const char *))event_sched_process_exec.probe)(
		&event_sched_process_exec, &child, 21, "/bin/hello");
	rec = consume_record(&len);
	n = check_layout(&event_sched_process_exec, rec, len, f, 16);
	assert_string_equal(text_of(rec, len, field(f, n, "filename")), "/bin/hello");
	assert_string_equal(line_of(&event_sched_process_exec, rec, len),
			    "sched_process_exec: filename=/bin/hello pid=21 old_pid=21\n");

	((void (*)(void *, struct task *, int))event_sched_process_wait.probe)(
		&event_sched_process_wait, &parent, 0);
	rec = consume_record(&len);
	n = check_layout(&event_sched_process_wait, rec, len, f, 16);
	assert_int_equal(value(rec, field(f, n, "pid")), 0); /* any child */
	assert_string_equal(line_of(&event_sched_process_wait, rec, len),
			    "sched_process_wait: comm=spawn pid=0 prio=120\n");
}

static void test_irq_records(void **state)
{
	struct parsed_field f[16];
	unsigned int len;
	const unsigned char *rec;
	int n;

	(void)state;
	((void (*)(void *, int, const char *))event_irq_handler_entry.probe)(
		&event_irq_handler_entry, 4, "ttyS0");
	rec = consume_record(&len);
	n = check_layout(&event_irq_handler_entry, rec, len, f, 16);
	assert_int_equal(value(rec, field(f, n, "irq")), 4);
	assert_string_equal(text_of(rec, len, field(f, n, "name")), "ttyS0");
	assert_string_equal(line_of(&event_irq_handler_entry, rec, len),
			    "irq_handler_entry: irq=4 name=ttyS0\n");

	for (int ret = IRQ_NONE; ret <= IRQ_HANDLED; ret++) {
		((void (*)(void *, int, int))event_irq_handler_exit.probe)(&event_irq_handler_exit,
									   11, ret);
		rec = consume_record(&len);
		n = check_layout(&event_irq_handler_exit, rec, len, f, 16);
		assert_int_equal(value(rec, field(f, n, "irq")), 11);
		assert_int_equal(value(rec, field(f, n, "ret")), ret);
		assert_string_equal(line_of(&event_irq_handler_exit, rec, len),
				    ret ? "irq_handler_exit: irq=11 ret=handled\n"
					: "irq_handler_exit: irq=11 ret=unhandled\n");
	}
}

/* The hand-written irq_handler_exit is what TRACE_EVENT() makes of its declaration. */
static void test_exhibit_as_the_macro_makes_it(void **state)
{
	struct trace_event_call *hand = &event_irq_handler_exit,
				*macro = &event_irq_handler_exit_by_macro;
	char hand_format[4096];
	const char *macro_format;
	unsigned char hand_rec[64];
	unsigned int hand_len, len;
	const unsigned char *rec;
	char want[128];

	(void)state;
	trace_events_add((struct trace_event_call *[]){macro}, 1);
	assert_non_null(macro->fields);
	assert_int_equal(hand->size, macro->size);
	assert_string_equal(hand->print_fmt, macro->print_fmt);
	for (int i = 0;; i++) {
		const struct trace_event_field *a = &hand->fields[i], *b = &macro->fields[i];

		if (!a->name || !b->name) {
			assert_true(!a->name && !b->name);
			break;
		}
		assert_string_equal(a->type, b->type);
		assert_string_equal(a->name, b->name);
		assert_int_equal(a->offset, b->offset);
		assert_int_equal(a->size, b->size);
		assert_int_equal(a->is_signed, b->is_signed);
	}
	/* The format files differ in their name and ID lines only. */
	snprintf(hand_format, sizeof(hand_format), "%s", strstr(format_of(hand), "format:"));
	macro_format = strstr(format_of(macro), "format:");
	assert_string_equal(hand_format, macro_format);
	/* The same record from the same arguments, and the same line. */
	for (int ret = IRQ_NONE; ret <= IRQ_HANDLED; ret++) {
		((void (*)(void *, int, int))hand->probe)(hand, 11, ret);
		rec = consume_record(&hand_len);
		memcpy(hand_rec, rec, hand_len);
		((void (*)(void *, int, int))macro->probe)(macro, 11, ret);
		rec = consume_record(&len);
		assert_int_equal(len, hand_len);
		assert_int_equal(((const struct trace_entry *)rec)->type, macro->event.type);
		assert_memory_equal(rec + sizeof(struct trace_entry),
				    hand_rec + sizeof(struct trace_entry),
				    len - sizeof(struct trace_entry));
		snprintf(want, sizeof(want), "irq_handler_exit_by_macro: irq=11 ret=%s\n",
			 ret ? "handled" : "unhandled");
		assert_string_equal(line_of(macro, rec, len), want);
		snprintf(want, sizeof(want), "irq_handler_exit: irq=11 ret=%s\n",
			 ret ? "handled" : "unhandled");
		assert_string_equal(line_of(hand, hand_rec, hand_len), want);
	}
}

/* A record cut short, or a string pointing outside its record, prints no garbage. */
static void test_bad_records(void **state)
{
	unsigned char rec[64];
	const unsigned char *raw;
	unsigned int len;

	(void)state;
	((void (*)(void *, int, const char *))event_irq_handler_entry.probe)(
		&event_irq_handler_entry, 4, "ttyS0");
	raw = consume_record(&len);
	assert_true(len <= sizeof(rec));
	memcpy(rec, raw, len);
	rec[12] = 200; /* the name's offset: past the end */
	assert_string_equal(line_of(&event_irq_handler_entry, rec, len),
			    "irq_handler_entry: irq=4 name=\n");
	assert_string_equal(line_of(&event_sched_switch, rec, 16),
			    "sched_switch: [record too short]\n");
}

/* --- events/ftrace/ and the ring buffer's headers --------------------------------------------- */

/*
 * events/ftrace/NAME/format less the common fields: Linux's text, and Linux's layout except for
 * kernel_stack, whose caller[] is a flexible array (Linux 6.1 says caller[8]: its records have
 * room for 8 frames, Lucid's for as many as they hold). function and funcgraph_entry end with
 * Linux 6.15's args[] (func-args, funcgraph-args), funcgraph_exit has 6.5's retval.
 */
static const struct {
	struct trace_event_call *call;
	int id;
	const char *own_fields_and_fmt;
} ftrace_ref[] = {
	{&event_ftrace_function, 1,
	 "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	 "\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n"
	 "\tfield:unsigned long args[];\toffset:24;\tsize:0;\tsigned:0;\n\n"
	 "print fmt: \" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip\n"},
	{&event_ftrace_print, 5,
	 "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	 "\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:1;\n\n"
	 "print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n"},
	{&event_ftrace_bprint, 6,
	 "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	 "\tfield:const char * fmt;\toffset:16;\tsize:8;\tsigned:0;\n"
	 "\tfield:u32 buf[];\toffset:24;\tsize:0;\tsigned:0;\n\n"
	 "print fmt: \"%ps: %s\", (void *)REC->ip, REC->fmt\n"},
	{&event_ftrace_bputs, 14,
	 "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	 "\tfield:const char * str;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	 "print fmt: \"%ps: %s\", (void *)REC->ip, REC->str\n"},
	{&event_ftrace_funcgraph_entry, 11,
	 "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	 "\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	 "\tfield:unsigned long args[];\toffset:24;\tsize:0;\tsigned:0;\n\n"
	 "print fmt: \"--> %ps (%d)\", (void *)REC->func, REC->depth\n"},
	{&event_ftrace_funcgraph_exit, 10,
	 "\tfield:unsigned long func;\toffset:8;\tsize:8;\tsigned:0;\n"
	 "\tfield:unsigned long retval;\toffset:16;\tsize:8;\tsigned:0;\n"
	 "\tfield:int depth;\toffset:24;\tsize:4;\tsigned:1;\n"
	 "\tfield:unsigned int overrun;\toffset:28;\tsize:4;\tsigned:0;\n"
	 "\tfield:unsigned long long calltime;\toffset:32;\tsize:8;\tsigned:0;\n"
	 "\tfield:unsigned long long rettime;\toffset:40;\tsize:8;\tsigned:0;\n\n"
	 "print fmt: \"<-- %ps (%d) (start: %llx  end: %llx) over: %d retval: %lx\", "
	 "(void *)REC->func, REC->depth, REC->calltime, REC->rettime, REC->depth, REC->retval\n"},
	{&event_ftrace_raw_data, 18,
	 "\tfield:unsigned int id;\toffset:8;\tsize:4;\tsigned:0;\n"
	 "\tfield:char buf[];\toffset:12;\tsize:0;\tsigned:1;\n\n"
	 "print fmt: \"id:%04x %08x\", REC->id, (int)REC->buf[0]\n"},
	{&event_ftrace_kernel_stack, 4,
	 "\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
	 "\tfield:unsigned long caller[];\toffset:16;\tsize:0;\tsigned:0;\n\n"
	 "print fmt: \"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\" "
	 "\"\\t=> %ps\\n\\t=> %ps\\n\\t=> %ps\\n\" "
	 "\"\\t=> %ps\\n\\t=> %ps\\n\", (void *)REC->caller[0], (void *)REC->caller[1], "
	 "(void *)REC->caller[2], (void *)REC->caller[3], (void *)REC->caller[4], "
	 "(void *)REC->caller[5], (void *)REC->caller[6], (void *)REC->caller[7]\n"},
};

static const char common_fields_text[] = "format:\n" COMMON_FIELDS "\n";

static void test_ftrace_internal_events(void **state)
{
	char want[2048];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ftrace_ref); i++) {
		struct trace_event_call *call = ftrace_ref[i].call;

		assert_int_equal(call->event.type, ftrace_ref[i].id); /* the TRACE_* type */
		snprintf(want, sizeof(want), "name: %s\nID: %d\n%s%s", call->name, ftrace_ref[i].id,
			 common_fields_text, ftrace_ref[i].own_fields_and_fmt);
		assert_string_equal(format_of(call), want);
		/* Not an event one can enable, by any word or directly. */
		assert_int_equal(trace_event_enable_disable(call, 1), -EINVAL);
		assert_false(call->file.enabled);
	}
	assert_int_equal(set_clr("ftrace:function"), -EINVAL);
	assert_int_equal(set_clr("function"), -EINVAL);
	assert_int_equal(set_clr("ftrace"), -EINVAL);
	assert_int_equal(set_clr("*:*"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(ftrace_ref); i++)
		assert_false(ftrace_ref[i].call->file.enabled);
	assert_int_equal(set_clr("!*:*"), 0);

	/* print alone takes triggers (trace_marker runs them): they hold it, soft, and let go. */
	char trig[] = "traceoff if buf ~ \"*stop*\"", untrig[] = "!traceoff";

	assert_int_equal(trigger_process_regex(&event_ftrace_print.file, trig), 0);
	assert_true(event_ftrace_print.file.enabled);
	assert_true(event_ftrace_print.file.flags & EVENT_FILE_FL_TRIGGER_COND);
	assert_int_equal(trace_event_enable_disable(&event_ftrace_print, 1), -EINVAL);
	/* buf, "char buf[]" of size 0, is matched to the record's end (the marker's text) */
	struct {
		struct print_entry e;
		char text[24];
	} pr = {.text = "please stop here"};
	unsigned int len = (unsigned int)(sizeof(pr.e) + strlen(pr.text) + 1);

	assert_int_equal(event_triggers_call(&event_ftrace_print.file, &pr, len, 0),
			 ETT_TRACE_ONOFF);
	strcpy(pr.text, "go on");
	assert_int_equal(event_triggers_call(&event_ftrace_print.file, &pr, len, 0), ETT_NONE);
	assert_int_equal(trigger_process_regex(&event_ftrace_print.file, untrig), 0);
	assert_false(event_ftrace_print.file.enabled);
	assert_null(event_ftrace_print.file.triggers);
}

/* A record of a built-in type, read back with the offsets its format file gives. */
static const unsigned char *internal_record(struct trace_event_call *call, const void *rec,
					    size_t size, unsigned int *len, struct parsed_field *f,
					    int *n)
{
	assert_int_equal(ring_buffer_write(global_trace.buffer, size, rec), 0);
	const unsigned char *raw = consume_record(len);
	*n = check_layout(call, raw, *len, f, 16);
	return raw;
}

static void test_ftrace_internal_records(void **state)
{
	struct parsed_field f[16];
	const unsigned char *raw;
	unsigned int len;
	int n;
	struct trace_entry ent = {.flags = TRACE_FLAG_IRQS_OFF, .preempt_count = 1};
	static const char fmt[] = "read foo %d\n";

	(void)state;
	ent.pid = current_pid;
	ent.type = TRACE_FN;
	struct ftrace_entry fn = {.ent = ent, .ip = 0xffffffff80117ee0, .parent_ip = 0xffff1234};
	raw = internal_record(&event_ftrace_function, &fn, sizeof(fn), &len, f, &n);
	assert_int_equal(value(raw, field(f, n, "ip")), (long long)fn.ip);
	assert_int_equal(value(raw, field(f, n, "parent_ip")), (long long)fn.parent_ip);

	struct {
		struct print_entry e;
		char text[16];
	} pr = {.e = {.ip = 0x1234}, .text = "hello marker\n"};
	pr.e.ent = ent;
	pr.e.ent.type = TRACE_PRINT;
	raw = internal_record(&event_ftrace_print, &pr, sizeof(pr), &len, f, &n);
	assert_int_equal(value(raw, field(f, n, "ip")), 0x1234);
	assert_string_equal((const char *)raw + field(f, n, "buf")->offset, "hello marker\n");

	struct {
		struct bprint_entry e;
		uint32_t words[1];
	} bp = {.e = {.ip = 0x5678, .fmt = fmt}, .words = {42}};
	bp.e.ent = ent;
	bp.e.ent.type = TRACE_BPRINT;
	raw = internal_record(&event_ftrace_bprint, &bp, sizeof(bp), &len, f, &n);
	assert_int_equal(value(raw, field(f, n, "fmt")), (long long)(uintptr_t)fmt);
	assert_int_equal(raw[field(f, n, "buf")->offset], 42);

	struct bputs_entry bs = {.ent = ent, .ip = 0x9abc, .str = fmt};
	bs.ent.type = TRACE_BPUTS;
	raw = internal_record(&event_ftrace_bputs, &bs, sizeof(bs), &len, f, &n);
	assert_int_equal(value(raw, field(f, n, "str")), (long long)(uintptr_t)fmt);

	struct ftrace_graph_ent_entry ge = {.ent = ent, .func = 0xffffffff80117f00, .depth = 2};
	ge.ent.type = TRACE_GRAPH_ENT;
	raw = internal_record(&event_ftrace_funcgraph_entry, &ge, sizeof(ge), &len, f, &n);
	assert_int_equal(value(raw, field(f, n, "func")), (long long)ge.func);
	assert_int_equal(value(raw, field(f, n, "depth")), 2);

	struct ftrace_graph_ret_entry gr = {.ent = ent,
					    .func = 0xffffffff80117f00,
					    .depth = -1, /* signed: reads back as -1 */
					    .overrun = 7,
					    .calltime = 0x123456789aULL,
					    .rettime = 0x123456ffffULL};
	gr.ent.type = TRACE_GRAPH_RET;
	raw = internal_record(&event_ftrace_funcgraph_exit, &gr, sizeof(gr), &len, f, &n);
	assert_int_equal(value(raw, field(f, n, "func")), (long long)gr.func);
	assert_int_equal(value(raw, field(f, n, "depth")), -1);
	assert_int_equal(value(raw, field(f, n, "overrun")), 7);
	assert_int_equal(value(raw, field(f, n, "calltime")), (long long)gr.calltime);
	assert_int_equal(value(raw, field(f, n, "rettime")), (long long)gr.rettime);
}

/* Linux's text; commit is 8 bytes, as local_t on a 64-bit machine. */
static void test_ring_buffer_headers(void **state)
{
	(void)state;
	trace_seq_init(&seq);
	ring_buffer_print_page_header(&seq);
	seq.buffer[seq.len] = '\0';
	assert_string_equal(seq.buffer, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
					"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
					"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
					"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n");
	trace_seq_init(&seq);
	ring_buffer_print_entry_header(&seq);
	seq.buffer[seq.len] = '\0';
	assert_string_equal(seq.buffer, "# compressed entry header\n"
					"\ttype_len    :    5 bits\n"
					"\ttime_delta  :   27 bits\n"
					"\tarray       :   32 bits\n"
					"\n"
					"\tpadding     : type == 29\n"
					"\ttime_extend : type == 30\n"
					"\ttime_stamp : type == 31\n"
					"\tdata max type_len  == 28\n");
}

/*
 * syscalls:* (trace/trace_syscalls.c): made from kernel/syscall_args.h. The format as Linux
 * 6.1 builds it from SYSCALL_DEFINE3(write, ...), the line as it prints it, and one shared
 * probe that records only the calls whose event is on.
 */
extern struct trace_event_call event_enter_write, event_exit_write, event_enter_getpid;
typedef void (*sys_enter_probe_t)(void *, struct pt_regs *, long); /* sys_exit's alike */

static void test_syscall_records(void **state)
{
	struct pt_regs regs = {.rdi = 1, .rsi = 0x4020f0, .rdx = 6, .r10 = 9, .orig_rax = 1};
	struct parsed_field f[16];
	unsigned int len;
	const unsigned char *rec;
	char want[1024];
	uint64_t ts;
	int n;

	(void)state;
	trace_events_add((struct trace_event_call *[]){&event_enter_write, &event_exit_write,
						       &event_enter_getpid},
			 3);
	snprintf(want, sizeof(want),
		 "name: sys_enter_write\nID: %d\n%s"
		 "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
		 "\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;\n"
		 "\tfield:const char * buf;\toffset:24;\tsize:8;\tsigned:0;\n"
		 "\tfield:size_t count;\toffset:32;\tsize:8;\tsigned:0;\n\n"
		 "print fmt: \"fd: 0x%%08lx, buf: 0x%%08lx, count: 0x%%08lx\", "
		 "((unsigned long)(REC->fd)), ((unsigned long)(REC->buf)), "
		 "((unsigned long)(REC->count))\n",
		 event_enter_write.event.type, common_fields_text);
	assert_string_equal(format_of(&event_enter_write), want);
	snprintf(want, sizeof(want), "name: sys_enter_getpid\nID: %d\n%s"
		 "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n\nprint fmt: \"\"\n",
		 event_enter_getpid.event.type, common_fields_text);
	assert_string_equal(format_of(&event_enter_getpid), want);

	assert_int_equal(trace_event_enable_disable(&event_enter_write, 1), 0);
	assert_int_equal(trace_event_enable_disable(&event_exit_write, 1), 0);
	/* The shared probes, as the tracepoints call them (trace_sys_enter() would cli). */
	assert_true(static_key_enabled(&__tracepoint_sys_enter.key) &&
		    static_key_enabled(&__tracepoint_sys_exit.key));
	((sys_enter_probe_t)event_enter_write.probe)(NULL, &regs, 39);
	assert_null(ring_buffer_consume(global_trace.buffer, 0, &ts, NULL)); /* getpid: off */
	((sys_enter_probe_t)event_enter_write.probe)(NULL, &regs, 1);
	rec = consume_record(&len);
	n = check_layout(&event_enter_write, rec, len, f, 16);
	assert_int_equal(n, 4 + 4);
	assert_int_equal(value(rec, field(f, n, "__syscall_nr")), 1);
	assert_int_equal(value(rec, field(f, n, "fd")), 1);
	assert_int_equal(value(rec, field(f, n, "buf")), 0x4020f0);
	assert_int_equal(value(rec, field(f, n, "count")), 6);
	assert_string_equal(line_of(&event_enter_write, rec, len),
			    "sys_write(fd: 1, buf: 4020f0, count: 6)\n");
	/* -EBADF, printed as the raw 64 bits, as Linux does. */
	((sys_enter_probe_t)event_exit_write.probe)(NULL, &regs, -9);
	rec = consume_record(&len);
	n = check_layout(&event_exit_write, rec, len, f, 16);
	assert_int_equal(value(rec, field(f, n, "ret")), -9);
	assert_string_equal(line_of(&event_exit_write, rec, len),
			    "sys_write -> 0xfffffffffffffff7\n");
	/* The shared probe goes when the last event does. */
	assert_int_equal(trace_event_enable_disable(&event_enter_write, 0), 0);
	assert_false(static_key_enabled(&__tracepoint_sys_enter.key));
	assert_true(static_key_enabled(&__tracepoint_sys_exit.key));
	assert_int_equal(trace_event_enable_disable(&event_exit_write, 0), 0);
	assert_false(static_key_enabled(&__tracepoint_sys_exit.key));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_sorted_with_ids_in_order, setup),
		cmocka_unit_test_setup(test_parse_selector, setup),
		cmocka_unit_test_setup(test_set_clr_event, setup),
		cmocka_unit_test_setup(test_tracer_hold, setup),
		cmocka_unit_test_setup(test_format_as_linux, setup),
		cmocka_unit_test_setup(test_sched_switch_record, setup),
		cmocka_unit_test_setup(test_stack_options_after_commit, setup),
		cmocka_unit_test_setup(test_sched_task_records, setup),
		cmocka_unit_test_setup(test_sched_process_life_records, setup),
		cmocka_unit_test_setup(test_syscall_records, setup),
		cmocka_unit_test_setup(test_irq_records, setup),
		cmocka_unit_test_setup(test_exhibit_as_the_macro_makes_it, setup),
		cmocka_unit_test_setup(test_filtered_records, setup),
		cmocka_unit_test_setup(test_trigger_traceoff, setup),
		cmocka_unit_test_setup(test_trigger_counts, setup),
		cmocka_unit_test_setup(test_trigger_enable_event, setup),
		cmocka_unit_test_setup(test_bad_records, setup),
		cmocka_unit_test_setup(test_ftrace_internal_events, setup),
		cmocka_unit_test_setup(test_ftrace_internal_records, setup),
		cmocka_unit_test_setup(test_ring_buffer_headers, setup),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
