/*
 * How trace events look as text: the header, the context prefix, one line per event
 * (trace/trace_output.c). Profile PA of ../shared/reference/ftrace-formats.md, byte for byte.
 */
#ifndef TRACE_TRACE_OUTPUT_H
#define TRACE_TRACE_OUTPUT_H

#include <stdint.h>
#include "trace/trace.h"

struct trace_event;

/* Prints iter->ent (whose type is event->type) after the context prefix, into iter->seq. */
typedef enum print_line_t (*trace_print_func)(struct trace_iterator *iter, unsigned int flags,
					       struct trace_event *event);

/*
 * An entry type's printers: trace for the text, raw/hex/binary for the options of those names
 * (NULL: "type: N", as Linux's trace_nop_print says for a type without one).
 */
struct trace_event {
	int type; /* enum trace_type, or a trace event's id */
	trace_print_func trace;
	trace_print_func raw;
	trace_print_func hex;
	trace_print_func binary;
};

/*
 * Entry types from __TRACE_LAST_TYPE + 1 on are given out at boot, one per trace event
 * (trace/trace_events.c), as Linux gives its events ids after its fixed types. An event's id
 * is its common_type, shown in its id and format files.
 */
#define TRACE_EVENT_TYPE_FIRST (__TRACE_LAST_TYPE + 1)
#define TRACE_EVENT_TYPE_MAX 512 /* ids below this; Linux's limit is 65535 */

/*
 * Adds the output function of an entry type; TRACE_FN and TRACE_STACK are built in. A fixed
 * type (below __TRACE_LAST_TYPE) is given by the caller: a tracer with new entry types calls
 * this at init. An event->type of 0 asks for the next free id, which is stored in
 * event->type. Returns the type, or 0 if it is out of range or taken, or ids ran out.
 */
int register_trace_event(struct trace_event *event);
/* Frees an event's id (an event removed at run time): a later register_trace_event reuses it. */
void unregister_trace_event(struct trace_event *event);
extern struct trace_event trace_user_stack_event; /* trace/trace_options.c, at tracing_init */
struct trace_event *ftrace_find_event(int type);

/* "# tracer: NAME", "#", then the tracer's header or the default one. */
void trace_print_header(struct trace_iterator *iter);
/* The entries line and the column legend (with or without the irq-info block). */
void trace_default_header(struct trace_iterator *iter);

/*
 * One event: "CPU:n [LOST m EVENTS]" first if events were lost, then the tracer's print_line
 * or the prefix and the event's own text. PARTIAL_LINE if iter->seq filled up.
 */
enum print_line_t print_trace_line(struct trace_iterator *iter);

/* "    comm-pid   [cpu] d.h1 12345.678901: ", as options say. */
void trace_print_context(struct trace_iterator *iter);
/* "      sh-1       2d..1  5012us : ", the latency format's (iter_flags TRACE_FILE_LAT_FMT). */
void trace_print_lat_context(struct trace_iterator *iter);
/* The latency tracers' header ("# irqsoff latency trace v1.1.5 ..."), if there are events. */
void trace_print_lat_header(struct trace_iterator *iter);
/* The four flag characters: irqs-off, need-resched, hardirq/softirq, preempt-depth. */
void trace_print_lat_fmt(struct trace_seq *s, const struct trace_entry *entry);

/*
 * Linux's trace_event_printf(): an event's output with its format, where a plain %p prints a
 * hash of the pointer while the array's option hash-ptr is on (Linux's default), the pointer
 * itself while it is off. trace_hash_ptr() is that hash; trace_hash_ptr_init() gives it the
 * boot's random key.
 */
void trace_event_printf(struct trace_iterator *iter, const char *fmt, ...) __printf(2, 3);
unsigned long trace_hash_ptr(const void *ptr);
void trace_hash_ptr_init(uint64_t key);
/*
 * A code address as "func", "func+0x6/0xa0" and/or "<ffffffff...>" (TRACE_ITER_SYM_*). A
 * module's function is "func" alone, as Linux's kallsyms_lookup prints it, but "func+0x6/0xa0
 * [foo]" with the offset (sprint_symbol), and "func [foo]" with SEQ_PRINT_SYM_MOD: what %ps
 * prints, the function graph's names.
 */
#define SEQ_PRINT_SYM_MOD (1u << 31) /* above every TRACE_ITER_* option */
void seq_print_ip_sym(struct trace_seq *s, unsigned long ip, unsigned int sym_flags);

static inline notrace enum print_line_t trace_handle_return(struct trace_seq *s)
{
	return trace_seq_has_overflowed(s) ? TRACE_TYPE_PARTIAL_LINE : TRACE_TYPE_HANDLED;
}

/*
 * Only the message of a trace_printk (TRACE_BPUTS, TRACE_BPRINT) or trace_marker (TRACE_PRINT)
 * record, without "caller: ": for the option printk-msg-only and for tracers that show the
 * message their own way (function_graph prints it as a C comment).
 */
enum print_line_t trace_print_bputs_msg_only(struct trace_iterator *iter);
enum print_line_t trace_print_bprintk_msg_only(struct trace_iterator *iter);
enum print_line_t trace_print_printk_msg_only(struct trace_iterator *iter);

/* Nanoseconds to microseconds, rounded to the nearest (Linux's ns2usecs). */
static inline notrace uint64_t ns2usecs(uint64_t nsec)
{
	return (nsec + 500) / 1000;
}

#endif
