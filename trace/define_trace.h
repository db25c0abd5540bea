/*
 * Events declared once: what TRACE_EVENT() turns into (Linux's include/trace/define_trace.h and
 * include/trace/trace_events.h, small).
 *
 * An event is declared once, in its system's header (trace/events/irq.h):
 *
 *     TRACE_EVENT(irq_handler_exit,
 *             TP_PROTO(int irq, int ret),               the tracepoint's arguments
 *             TP_ARGS(irq, ret),
 *             TP_STRUCT__entry(                         the record's fields, after trace_entry
 *                     __field(int, irq)
 *                     __field(int, ret)),
 *             TP_fast_assign(                           how the probe fills them
 *                     __entry->irq = irq;
 *                     __entry->ret = ret;),
 *             TP_printk("irq=%d ret=%s",                the line, in C and for tools alike
 *                       __entry->irq, __entry->ret ? "handled" : "unhandled"));
 *
 * Everywhere, that is its tracepoint (kernel/tracepoint.h). In the one file that defines the
 * system's events (trace/trace_events_irq.c: #define CREATE_TRACE_EVENTS, then the #include),
 * this file includes the header again once per thing to make, each time with the macros
 * (__field, TP_printk, DECLARE_EVENT_CLASS_PID...) defined to make that thing:
 *
 *   1. struct trace_event_raw_NAME: struct trace_entry, then the fields, then __data[] where
 *      strings go (__string: a u32 "__data_loc", the string's length << 16 | its offset);
 *   2. trace_event_fields_NAME(): the fields table the format file and the filters read,
 *      with offsets and sizes from that struct (offsetof, sizeof), never written by hand;
 *   3. struct trace_event_data_offsets_NAME, and trace_event_get_offsets_NAME(): the room and
 *      the places of the strings, from the tracepoint's arguments;
 *   4. trace_event_raw_event_NAME(): the probe: reserve, the __data_locs, TP_fast_assign,
 *      commit;
 *   5. trace_raw_output_NAME(): the line in trace: TP_printk's format and arguments, run in C
 *      on the record (__entry is the record; __print_flags() & co are functions);
 *   6. print_fmt_NAME and struct trace_event_call event_NAME: the same TP_printk, as text, for
 *      the format file, with __entry spelled REC and every macro expanded but __print_flags()
 *      & co, which tools know. So the line and the format file cannot say different things.
 *
 * A DECLARE_EVENT_CLASS makes 1-5 once for the events of a DEFINE_EVENT of it. trace/
 * trace_events_irq.c also shows, written out by hand, what this makes of irq_handler_exit.
 *
 * The passes run the header's declarations only (the part within its
 * "|| defined(TRACE_HEADER_MULTI_READ)" guard). Each header says where it is:
 * TRACE_INCLUDE_FILE, and its system: TRACE_SYSTEM.
 */

/* --- what the generated code calls (trace/trace_events_text.c) ----------------------------- */
#ifndef TRACE_DEFINE_TRACE_DECLS_H
#define TRACE_DEFINE_TRACE_DECLS_H

#include "trace/trace_events.h"

/*
 * Strings in records are cut at TRACE_EVENT_STR_MAX bytes, NUL included: a record must fit a
 * buffer page (Linux has no limit but the page). A NULL string is recorded as "(null)".
 */
#define TRACE_EVENT_STR_MAX 256
unsigned int trace_event_str_len(const char *src);
void trace_event_assign_str(void *rec, uint32_t loc, const char *src);
/* A __data_loc string of the record being printed, checked to lie in it; "" if it does not. */
const char *trace_event_str(struct trace_iterator *iter, uint32_t loc);

/* Linux's: a flag's or a value's name, for __print_flags and __print_symbolic. */
struct trace_print_flags {
	unsigned long mask;
	const char *name;
};

/*
 * Where an output function's __print_flags() & co write their text (Linux's iter->tmp_seq),
 * on its stack: each returns a string in it, for TP_printk's %s.
 */
#define TRACE_PRINT_BUF_SIZE 512
struct trace_print_buf {
	unsigned int len;
	char buf[TRACE_PRINT_BUF_SIZE];
};
const char *trace_print_flags_seq(struct trace_print_buf *p, const char *delim, unsigned long flags,
				  const struct trace_print_flags *flag_array);
const char *trace_print_symbols_seq(struct trace_print_buf *p, unsigned long val,
				    const struct trace_print_flags *symbol_array);

#endif /* TRACE_DEFINE_TRACE_DECLS_H */

/* --- the passes ------------------------------------------------------------------------------ */
#ifdef CREATE_TRACE_EVENTS
#undef CREATE_TRACE_EVENTS /* the header's own include of this file, in each pass: nothing */
#define TRACE_HEADER_MULTI_READ

#include "lib/string.h"

/* Not every event's generated functions use every argument of its tracepoint. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

#undef DEFINE_EVENT
#undef DECLARE_EVENT_CLASS_PID
/* An event written out by hand beside its declaration (irq_handler_exit): none of this. */
#ifndef TRACE_EVENT_BY_HAND_CHECK
#undef TRACE_EVENT_BY_HAND
#define TRACE_EVENT_BY_HAND(name, proto, args, tstruct, assign, print)
#endif

/* 1. The record. */
#define __field(type, item) type item;
#define __array(type, item, len) type item[len];
#define __string(item, src) uint32_t __data_loc_##item;
#define __dynamic_array(type, item, len) uint32_t __data_loc_##item;
#define DECLARE_EVENT_CLASS_PID(call, proto, args, other_pid, tstruct, assign, print) \
	struct trace_event_raw_##call {                                               \
		struct trace_entry ent;                                               \
		tstruct char __data[];                                                \
	};
#define DEFINE_EVENT(template, name, proto, args)
#include TRACE_INCLUDE_FILE

/* 2. The fields table: rec_t is the record's type, in the function the table is made in. */
#undef __field
#undef __array
#undef __string
#undef __dynamic_array
#undef DECLARE_EVENT_CLASS_PID
#define __field(_type, _item)                 \
	{.type = #_type,                      \
	 .name = #_item,                      \
	 .offset = offsetof(rec_t, _item),    \
	 .size = sizeof(((rec_t *)0)->_item), \
	 .is_signed = is_signed_type(_type)},
#define __array(_type, _item, _len)                \
	{.type = #_type "[" __stringify(_len) "]", \
	 .name = #_item,                           \
	 .offset = offsetof(rec_t, _item),         \
	 .size = sizeof(((rec_t *)0)->_item),      \
	 .is_signed = is_signed_type(_type)},
#define __string(_item, _src)                              \
	{.type = "__data_loc char[]",                      \
	 .name = #_item,                                   \
	 .offset = offsetof(rec_t, __data_loc_##_item),    \
	 .size = sizeof(((rec_t *)0)->__data_loc_##_item), \
	 .is_signed = is_signed_type(char)},
#define __dynamic_array(_type, _item, _len)                \
	{.type = "__data_loc " #_type "[]",                \
	 .name = #_item,                                   \
	 .offset = offsetof(rec_t, __data_loc_##_item),    \
	 .size = sizeof(((rec_t *)0)->__data_loc_##_item), \
	 .is_signed = is_signed_type(_type)},
#define DECLARE_EVENT_CLASS_PID(call, proto, args, other_pid, tstruct, assign, print)  \
	static notrace const struct trace_event_field *trace_event_fields_##call(void) \
	{                                                                              \
		typedef struct trace_event_raw_##call rec_t;                           \
		static const struct trace_event_field fields[] = {                     \
			tstruct TRACE_FIELD_END,                                       \
		};                                                                     \
		return fields;                                                         \
	}
#include TRACE_INCLUDE_FILE

/* 3. Where the strings go. */
#undef __field
#undef __array
#undef __string
#undef __dynamic_array
#undef DECLARE_EVENT_CLASS_PID
#define __field(type, item)
#define __array(type, item, len)
#define __string(item, src) uint32_t item;
#define __dynamic_array(type, item, len) uint32_t item;
#define DECLARE_EVENT_CLASS_PID(call, proto, args, other_pid, tstruct, assign, print) \
	struct trace_event_data_offsets_##call {                                      \
		tstruct                                                               \
	};
#include TRACE_INCLUDE_FILE

#undef __string
#undef __dynamic_array
#undef DECLARE_EVENT_CLASS_PID
#define __trace_event_place(item, length)                                                        \
	__item_length = (length);                                                                \
	__data_offsets->item = __item_length << DATA_LOC_LEN_SHIFT |                             \
			       (unsigned int)(offsetof(typeof(*__entry), __data) + __data_size); \
	__data_size += __item_length;
#define __string(item, src) __trace_event_place(item, trace_event_str_len(src))
#define __dynamic_array(type, item, len) \
	__trace_event_place(item, (unsigned int)((len) * sizeof(type)))
#define DECLARE_EVENT_CLASS_PID(call, proto, args, other_pid, tstruct, assign, print)  \
	static __always_inline notrace unsigned int trace_event_get_offsets_##call(    \
		struct trace_event_data_offsets_##call *__data_offsets, proto)         \
	{                                                                              \
		struct trace_event_raw_##call *__entry __attribute__((unused)) = NULL; \
		unsigned int __data_size = 0, __item_length __attribute__((unused));   \
                                                                                       \
		(void)__data_offsets;                                                  \
		tstruct return __data_size;                                            \
	}
#include TRACE_INCLUDE_FILE

/* 4. The probe. */
#undef __string
#undef __dynamic_array
#undef DECLARE_EVENT_CLASS_PID
#define __string(item, src) __entry->__data_loc_##item = __data_offsets.item;
#define __dynamic_array(type, item, len) __entry->__data_loc_##item = __data_offsets.item;
#define __assign_str(dst, src) trace_event_assign_str(__entry, __entry->__data_loc_##dst, src)
#define __get_dynamic_array(item) \
	((void *)((char *)__entry + (__entry->__data_loc_##item & DATA_LOC_OFFSET_MASK)))
#define __get_str(item) ((char *)__get_dynamic_array(item))
#define DECLARE_EVENT_CLASS_PID(call, proto, args, other_pid, tstruct, assign, print)            \
	static notrace void trace_event_raw_event_##call(void *__data, proto)                    \
	{                                                                                        \
		struct trace_event_call *__call = __data;                                        \
		struct trace_event_data_offsets_##call __data_offsets;                           \
		struct trace_event_raw_##call *__entry;                                          \
		unsigned int __data_size;                                                        \
                                                                                                 \
		__data_size = trace_event_get_offsets_##call(&__data_offsets, args);             \
		__entry = trace_event_buffer_reserve_pid(__call, sizeof(*__entry) + __data_size, \
							 other_pid);                             \
		if (!__entry)                                                                    \
			return;                                                                  \
		tstruct{assign} trace_event_buffer_commit(__call, __entry,                       \
							  sizeof(*__entry) + __data_size);       \
	}
#include TRACE_INCLUDE_FILE

/* 5. The line in trace. */
#undef __field
#undef __array
#undef __string
#undef __dynamic_array
#undef __assign_str
#undef __get_dynamic_array
#undef __get_str
#undef DECLARE_EVENT_CLASS_PID
#define __field(type, item)
#define __array(type, item, len)
#define __string(item, src)
#define __dynamic_array(type, item, len)
#define __entry field
#define __get_str(item) trace_event_str(iter, field->__data_loc_##item)
#define __get_dynamic_array(item) \
	((void *)((char *)field + (field->__data_loc_##item & DATA_LOC_OFFSET_MASK)))
#define __print_flags(flag, delim, flag_array...)                                          \
	({                                                                                 \
		static const struct trace_print_flags __flags[] = {flag_array, {0, NULL}}; \
		trace_print_flags_seq(p, delim, flag, __flags);                            \
	})
#define __print_symbolic(value, symbol_array...)                                            \
	({                                                                                  \
		static const struct trace_print_flags __syms[] = {symbol_array, {0, NULL}}; \
		trace_print_symbols_seq(p, value, __syms);                                  \
	})
#define TP_printk(fmt, args...) fmt "\n", args
#define DECLARE_EVENT_CLASS_PID(call, proto, args, other_pid, tstruct, assign, print)       \
	static notrace enum print_line_t trace_raw_output_##call(                           \
		struct trace_iterator *iter, unsigned int flags, struct trace_event *event) \
	{                                                                                   \
		struct trace_event_raw_##call *field = trace_raw_output_prep(iter, event);  \
		struct trace_print_buf __pbuf, *p = &__pbuf;                                \
                                                                                            \
		(void)flags;                                                                \
		(void)p;                                                                    \
		__pbuf.len = 0;                                                             \
		if (field)                                                                  \
			trace_event_printf(iter, print);                                    \
		return trace_handle_return(&iter->seq);                                     \
	}
#include TRACE_INCLUDE_FILE

/* 6. The format file's print fmt, and the event. */
#undef __entry
#undef __get_str
#undef __get_dynamic_array
#undef __print_flags
#undef __print_symbolic
#undef TP_printk
#undef DECLARE_EVENT_CLASS_PID
#undef DEFINE_EVENT
#define __entry REC
#define TP_printk(fmt, args...) "\"" fmt "\", " __stringify(args)
#define DECLARE_EVENT_CLASS_PID(call, proto, args, other_pid, tstruct, assign, print) \
	static const char print_fmt_##call[] = print;
#define DEFINE_EVENT(template, _name, proto, args)                                  \
	struct trace_event_call event_##_name = {                                   \
		.system = __stringify(TRACE_SYSTEM),                                \
		.name = #_name,                                                     \
		.define_fields = trace_event_fields_##template,                     \
		.size = sizeof(struct trace_event_raw_##template),                  \
		.print_fmt = print_fmt_##template,                                  \
		.event = {.trace = trace_raw_output_##template},                    \
		.tp = &__tracepoint_##_name,                                        \
		.probe = TRACEPOINT_PROBE(_name, trace_event_raw_event_##template), \
	};                                                                          \
	REGISTER_TRACE_EVENT(event_##_name);
#include TRACE_INCLUDE_FILE

/* Back to declarations only, for whatever follows. */
#undef __field
#undef __array
#undef __string
#undef __dynamic_array
#undef __entry
#undef TP_printk
#undef DECLARE_EVENT_CLASS_PID
#undef DEFINE_EVENT
#define DECLARE_EVENT_CLASS_PID(name, proto, args, other_pid, tstruct, assign, print)
#define DEFINE_EVENT(template, name, proto, args) DECLARE_TRACE(name, PARAMS(proto), PARAMS(args))
#undef TRACE_HEADER_MULTI_READ
#pragma GCC diagnostic pop

#endif /* CREATE_TRACE_EVENTS */
