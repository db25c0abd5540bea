/* events/ftrace/: the records the tracers write themselves, described for tools. */

/*
 * The function and function_graph tracers, trace_printk, trace_marker and the stack option
 * write records of their own (trace/trace_entries.h), not trace events. A tool that reads raw pages
 * (trace-cmd, KernelShark, perf) still needs their layout, and Linux gives it the same way as for
 * events: a format file per record type in events/ftrace/, whose ID is the TRACE_* type the records
 * carry, so function is 1, print 5, bprint 6, funcgraph_exit 10, funcgraph_entry 11, bputs 14,
 * raw_data 18.
 *
 * Each is a struct trace_event_call like the sched events' (trace/trace_events.h), so the
 * format files come from the same code and the same TRACE_FIELD tables: offsets and sizes from
 * the C structs, which the tools then read records with. What makes them different is
 * TRACE_EVENT_FL_IGNORE_ENABLE: they have a fixed id and no probe, cannot be enabled, and are
 * left out of available_events and set_event (Linux's kernel/trace/trace_export.c does the
 * same). Their output in the trace file stays where it was (trace/trace_output.c).
 *
 * The print fmt lines are Linux's, so tools that know them (trace-cmd prints function,
 * funcgraph_* and kernel_stack with handlers of its own, and bprint with printk_formats) show
 * Lucid's records as they show Linux's.
 *
 * Only tables here, read at boot and by the format files. Not traced, as all of trace/.
 */
#include "trace/trace_events.h"
#include "trace/trace_entries.h"

typedef uint32_t u32; /* as Linux's format files name bprint's words */

#define FTRACE_EVENT(_name, _type, st, _fields, _fmt)    \
	struct trace_event_call event_ftrace_##_name = { \
		.system = "ftrace",                      \
		.name = #_name,                          \
		.fields = _fields,                       \
		.size = sizeof(st),                      \
		.print_fmt = _fmt,                       \
		.event = {.type = _type},                \
		.flags = TRACE_EVENT_FL_IGNORE_ENABLE,   \
	};                                               \
	REGISTER_TRACE_EVENT(event_ftrace_##_name)

/* TRACE_FN: the function tracer's "func <-parent". */
static const struct trace_event_field function_fields[] = {
	TRACE_FIELD(struct ftrace_entry, unsigned long, ip),
	TRACE_FIELD(struct ftrace_entry, unsigned long, parent_ip),
	TRACE_FIELD_DYN_ARRAY(struct ftrace_entry, unsigned long, args), /* func-args (6.15) */
	TRACE_FIELD_END,
};
FTRACE_EVENT(function, TRACE_FN, struct ftrace_entry, function_fields,
	     TRACE_PRINT_FMT(" %ps <-- %ps", (void *)REC->ip, (void *)REC->parent_ip));

/* TRACE_STACK: size return addresses, innermost first (options/stacktrace, func_stack_trace). */
static const struct trace_event_field kernel_stack_fields[] = {
	TRACE_FIELD(struct stack_entry, int, size),
	TRACE_FIELD_DYN_ARRAY(struct stack_entry, unsigned long, caller),
	TRACE_FIELD_END,
};
/* clang-format off */
FTRACE_EVENT(kernel_stack, TRACE_STACK, struct stack_entry, kernel_stack_fields,
	     TRACE_PRINT_FMT("\t=> %ps\n\t=> %ps\n\t=> %ps\n" "\t=> %ps\n\t=> %ps\n\t=> %ps\n"
			     "\t=> %ps\n\t=> %ps\n",
			     (void *)REC->caller[0], (void *)REC->caller[1], (void *)REC->caller[2],
			     (void *)REC->caller[3], (void *)REC->caller[4], (void *)REC->caller[5],
			     (void *)REC->caller[6], (void *)REC->caller[7]));
/* clang-format on */

/* TRACE_USER_STACK: the program's stack (options/userstacktrace), 0 after its last frame. */
static const struct trace_event_field user_stack_fields[] = {
	TRACE_FIELD(struct userstack_entry, unsigned int, tgid),
	TRACE_FIELD_ARRAY(struct userstack_entry, unsigned long, caller, FTRACE_USER_STACK_ENTRIES),
	TRACE_FIELD_END,
};
/* clang-format off */
FTRACE_EVENT(user_stack, TRACE_USER_STACK, struct userstack_entry, user_stack_fields,
	     TRACE_PRINT_FMT("\t=> %ps\n\t=> %ps\n\t=> %ps\n" "\t=> %ps\n\t=> %ps\n\t=> %ps\n"
			     "\t=> %ps\n\t=> %ps\n",
			     (void *)REC->caller[0], (void *)REC->caller[1], (void *)REC->caller[2],
			     (void *)REC->caller[3], (void *)REC->caller[4], (void *)REC->caller[5],
			     (void *)REC->caller[6], (void *)REC->caller[7]));
/* clang-format on */

/* TRACE_PRINT: trace_marker's text, and trace_printk's with a format that is not a literal. */
static const struct trace_event_field print_fields[] = {
	TRACE_FIELD(struct print_entry, unsigned long, ip),
	TRACE_FIELD_DYN_ARRAY(struct print_entry, char, buf),
	TRACE_FIELD_END,
};
/*
 * Unlike the others, print can have triggers (events/ftrace/print/trigger, trace/trace_marker.c
 * runs them), and a trigger holds its event "enabled" in soft mode: Linux's
 * ftrace_event_register(), a reg that has nothing to attach and says so with 0.
 */
static int ftrace_event_register(struct trace_event_call *call, bool on)
{
	(void)call;
	(void)on;
	return 0;
}

struct trace_event_call event_ftrace_print = {
	.system = "ftrace",
	.name = "print",
	.fields = print_fields,
	.size = sizeof(struct print_entry),
	.print_fmt = TRACE_PRINT_FMT("%ps: %s", (void *)REC->ip, REC->buf),
	.event = {.type = TRACE_PRINT},
	.flags = TRACE_EVENT_FL_IGNORE_ENABLE,
	.reg = ftrace_event_register,
};
REGISTER_TRACE_EVENT(event_ftrace_print);

/* TRACE_RAW_DATA: trace_marker_raw's id and bytes (trace/trace_marker.c). */
static const struct trace_event_field raw_data_fields[] = {
	TRACE_FIELD(struct raw_data_entry, unsigned int, id),
	TRACE_FIELD_DYN_ARRAY(struct raw_data_entry, char, buf),
	TRACE_FIELD_END,
};
FTRACE_EVENT(raw_data, TRACE_RAW_DATA, struct raw_data_entry, raw_data_fields,
	     TRACE_PRINT_FMT("id:%04x %08x", REC->id, (int)REC->buf[0]));

/* TRACE_BPRINT: the format's address (printk_formats names it) and the argument words. */
static const struct trace_event_field bprint_fields[] = {
	TRACE_FIELD(struct bprint_entry, unsigned long, ip),
	TRACE_FIELD(struct bprint_entry, const char *, fmt),
	TRACE_FIELD_DYN_ARRAY(struct bprint_entry, u32, buf),
	TRACE_FIELD_END,
};
FTRACE_EVENT(bprint, TRACE_BPRINT, struct bprint_entry, bprint_fields,
	     TRACE_PRINT_FMT("%ps: %s", (void *)REC->ip, REC->fmt));

/* TRACE_BPUTS: a constant string's address (in printk_formats too). */
static const struct trace_event_field bputs_fields[] = {
	TRACE_FIELD(struct bputs_entry, unsigned long, ip),
	TRACE_FIELD(struct bputs_entry, const char *, str),
	TRACE_FIELD_END,
};
FTRACE_EVENT(bputs, TRACE_BPUTS, struct bputs_entry, bputs_fields,
	     TRACE_PRINT_FMT("%ps: %s", (void *)REC->ip, REC->str));

/*
 * TRACE_GRAPH_ENT and TRACE_GRAPH_RET: function_graph's entry and return. trace-cmd pairs them
 * as the trace file does (a leaf is an entry whose return comes next) and prints rettime -
 * calltime as the duration. Lucid's times are uint64_t, Linux's format says "unsigned long
 * long": the same 8 unsigned bytes, and the name tools expect.
 */
#define TRACE_FIELD_U64(st, item)                                                          \
	{                                                                                  \
		.type = "unsigned long long", .name = #item, .offset = offsetof(st, item), \
		.size = sizeof(((st *)0)->item) + __TRACE_FIELD_CHECK(st, uint64_t, item), \
		.is_signed = 0,                                                            \
	}

static const struct trace_event_field funcgraph_entry_fields[] = {
	TRACE_FIELD(struct ftrace_graph_ent_entry, unsigned long, func),
	TRACE_FIELD(struct ftrace_graph_ent_entry, int, depth),
	/* funcgraph-args, funcgraph-retaddr (Linux 6.15's args[]; trace/trace_entries.h) */
	TRACE_FIELD_DYN_ARRAY(struct ftrace_graph_ent_entry, unsigned long, args),
	TRACE_FIELD_END,
};
FTRACE_EVENT(funcgraph_entry, TRACE_GRAPH_ENT, struct ftrace_graph_ent_entry,
	     funcgraph_entry_fields,
	     TRACE_PRINT_FMT("--> %ps (%d)", (void *)REC->func, REC->depth));

static const struct trace_event_field funcgraph_exit_fields[] = {
	TRACE_FIELD(struct ftrace_graph_ret_entry, unsigned long, func),
	TRACE_FIELD(struct ftrace_graph_ret_entry, unsigned long, retval), /* Linux 6.5 */
	TRACE_FIELD(struct ftrace_graph_ret_entry, int, depth),
	TRACE_FIELD(struct ftrace_graph_ret_entry, unsigned int, overrun),
	TRACE_FIELD_U64(struct ftrace_graph_ret_entry, calltime),
	TRACE_FIELD_U64(struct ftrace_graph_ret_entry, rettime),
	TRACE_FIELD_END,
};
/* clang-format off */
FTRACE_EVENT(funcgraph_exit, TRACE_GRAPH_RET, struct ftrace_graph_ret_entry, funcgraph_exit_fields,
	     TRACE_PRINT_FMT("<-- %ps (%d) (start: %llx  end: %llx) over: %d retval: %lx",
			     (void *)REC->func, REC->depth, REC->calltime, REC->rettime, REC->depth,
			     REC->retval));
/* clang-format on */
