/* Trace events as text: the format files (and the ring buffer's), what output functions share. */

/*
 * A format file tells a tool that reads raw records (trace-cmd, perf) where each field of an
 * event's record is and how to print it, in Linux's words:
 *
 *     name: sched_wakeup
 *     ID: 18
 *     format:
 *     <TAB>field:unsigned short common_type;<TAB>offset:0;<TAB>size:2;<TAB>signed:0;
 *     ...                                     (the struct trace_entry every record begins with)
 *
 *     <TAB>field:char comm[16];<TAB>offset:8;<TAB>size:16;<TAB>signed:1;
 *     ...                                     (the event's own fields)
 *
 *     print fmt: "comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, ...
 *
 * Every number comes from the C structs (offsetof, sizeof: TRACE_FIELD in
 * trace/trace_events.h, and the table below for the header), never from a hand-written list,
 * so the file cannot disagree with the records in the buffer. An array's length goes after
 * its name, as in C ("char comm[16]"); a string of any length is "__data_loc char[] name", a
 * 32-bit word giving the string's length << 16 | offset.
 *
 * Pure functions of their arguments (unit-tested on the host). Not traced, as all of trace/.
 */
#include "trace/trace_events.h"
#include "trace/ring_buffer.h"
#include "lib/string.h"
#include "trace/define_trace.h" /* the helpers of its events' generated code */
#include "lib/printf.h"

/* struct trace_entry, as "common_" fields: Linux's names for the header every record has. */
#define COMMON_FIELD(_type, item)                                             \
	{                                                                     \
		.type = #_type, .name = "common_" #item,                      \
		.offset = offsetof(struct trace_entry, item),                 \
		.size = sizeof(((struct trace_entry *)0)->item) +             \
			__TRACE_FIELD_CHECK(struct trace_entry, _type, item), \
		.is_signed = is_signed_type(_type),                           \
	}

const struct trace_event_field trace_common_fields[] = {
	COMMON_FIELD(unsigned short, type),
	COMMON_FIELD(unsigned char, flags),
	COMMON_FIELD(unsigned char, preempt_count),
	COMMON_FIELD(int, pid),
	TRACE_FIELD_END,
};

/* Each field's line; flush (if any) takes what s holds after each, so s never fills up. */
static void print_fields(struct trace_seq *s, const struct trace_event_field *f,
			 void (*flush)(struct trace_seq *s, void *data), void *data)
{
	for (; f->name; f++) {
		const char *array = strchr(f->type, '[');

		if (strncmp(f->type, "__data_loc", strlen("__data_loc")) == 0)
			array = NULL; /* "__data_loc char[] name" stays as it is */
		if (!array)
			trace_seq_printf(s, "\tfield:%s %s;", f->type, f->name);
		else
			trace_seq_printf(s, "\tfield:%.*s %s%s;", (int)(array - f->type), f->type,
					 f->name, array);
		trace_seq_printf(s, "\toffset:%u;\tsize:%u;\tsigned:%d;\n", f->offset, f->size,
				 f->is_signed);
		if (flush)
			flush(s, data);
	}
}

void trace_event_print_format_flush(struct trace_seq *s, const struct trace_event_call *call,
				    void (*flush)(struct trace_seq *s, void *data), void *data)
{
	trace_seq_printf(s, "name: %s\n", call->name);
	trace_seq_printf(s, "ID: %d\n", call->event.type);
	trace_seq_puts(s, "format:\n");
	print_fields(s, trace_common_fields, flush, data);
	trace_seq_putc(s, '\n');
	print_fields(s, call->fields, flush, data);
	trace_seq_printf(s, "\nprint fmt: %s\n", call->print_fmt);
	if (flush)
		flush(s, data);
}

void trace_event_print_format(struct trace_seq *s, const struct trace_event_call *call)
{
	trace_event_print_format_flush(s, call, NULL, NULL);
}

/* --- events/header_page, events/header_event ------------------------------------------------- */

/*
 * What a tool must know before it can find a single record: the page header and the record
 * header of the ring buffer (trace/ring_buffer.h). trace-cmd reads the size of commit here (8:
 * Linux's local_t on a 64-bit machine) to know where a page's records start. The lines are
 * Linux's, their numbers Lucid's own structs'. "overwrite" is Linux's too: the flag lives in
 * commit's high bits (RB_MISSED_EVENTS), so it has commit's offset and a size of 1.
 */
void ring_buffer_print_page_header(struct trace_seq *s)
{
	struct buffer_data_page field;

	trace_seq_printf(s, "\tfield: u64 timestamp;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			 (unsigned int)offsetof(struct buffer_data_page, time_stamp),
			 (unsigned int)sizeof(field.time_stamp), is_signed_type(uint64_t));
	trace_seq_printf(s, "\tfield: local_t commit;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			 (unsigned int)offsetof(struct buffer_data_page, commit),
			 (unsigned int)sizeof(field.commit), is_signed_type(long));
	trace_seq_printf(s, "\tfield: int overwrite;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			 (unsigned int)offsetof(struct buffer_data_page, commit), 1,
			 is_signed_type(long));
	trace_seq_printf(s, "\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			 (unsigned int)offsetof(struct buffer_data_page, data),
			 (unsigned int)BUF_PAGE_SIZE, is_signed_type(char));
}

void ring_buffer_print_entry_header(struct trace_seq *s)
{
	trace_seq_puts(s, "# compressed entry header\n");
	trace_seq_puts(s, "\ttype_len    :    5 bits\n");
	trace_seq_puts(s, "\ttime_delta  :   27 bits\n");
	trace_seq_puts(s, "\tarray       :   32 bits\n");
	trace_seq_putc(s, '\n');
	trace_seq_printf(s, "\tpadding     : type == %d\n", RINGBUF_TYPE_PADDING);
	trace_seq_printf(s, "\ttime_extend : type == %d\n", RINGBUF_TYPE_TIME_EXTEND);
	trace_seq_printf(s, "\ttime_stamp : type == %d\n", RINGBUF_TYPE_TIME_STAMP);
	trace_seq_printf(s, "\tdata max type_len  == %d\n", RINGBUF_TYPE_DATA_TYPE_LEN_MAX);
}

/* --- for output functions --------------------------------------------------------------------- */

void *trace_raw_output_prep(struct trace_iterator *iter, struct trace_event *event)
{
	struct trace_event_call *call = trace_event_call_of(event);

	trace_seq_printf(&iter->seq, "%s: ", call->name);
	if (iter->ent_size < call->size) {
		trace_seq_puts(&iter->seq, "[record too short]\n"); /* cannot happen, unless bugs */
		return NULL;
	}
	return iter->ent;
}

const char *trace_event_get_str(struct trace_iterator *iter, uint32_t loc, int *len)
{
	unsigned int offset = loc & DATA_LOC_OFFSET_MASK, size = loc >> DATA_LOC_LEN_SHIFT;

	*len = 0;
	if (!size || offset + size > iter->ent_size)
		return "";
	*len = (int)strnlen((const char *)iter->ent + offset, size);
	return (const char *)iter->ent + offset;
}

/* --- for trace/define_trace.h's events -------------------------------------------------------- */

unsigned int trace_event_str_len(const char *src)
{
	return (unsigned int)strnlen(src ? src : "(null)", TRACE_EVENT_STR_MAX - 1) + 1;
}

/* The room was reserved with trace_event_str_len(src): loc's length, NUL included. */
void trace_event_assign_str(void *rec, uint32_t loc, const char *src)
{
	unsigned int offset = loc & DATA_LOC_OFFSET_MASK, len = loc >> DATA_LOC_LEN_SHIFT;

	memcpy((char *)rec + offset, src ? src : "(null)", len - 1);
	((char *)rec)[offset + len - 1] = '\0';
}

const char *trace_event_str(struct trace_iterator *iter, uint32_t loc)
{
	unsigned int offset = loc & DATA_LOC_OFFSET_MASK, size = loc >> DATA_LOC_LEN_SHIFT;
	const char *str = (const char *)iter->ent + offset;

	if (!size || offset + size > iter->ent_size || str[size - 1] != '\0')
		return "";
	return str;
}

/* Appends str to p, cut if p is full; p stays a C string. */
static void print_buf_puts(struct trace_print_buf *p, const char *str)
{
	size_t n = strnlen(str, sizeof(p->buf) - 1 - p->len);

	memcpy(p->buf + p->len, str, n);
	p->len += (unsigned int)n;
	p->buf[p->len] = '\0';
}

static void print_buf_hex(struct trace_print_buf *p, unsigned long val)
{
	char hex[2 + 2 * sizeof(val) + 1];

	snprintf(hex, sizeof(hex), "0x%lx", val);
	print_buf_puts(p, hex);
}

/*
 * Linux's: the names of the flags set, in the table's order (a name's whole mask must be set;
 * its bits are then taken), joined by delim; bits no name took last, in hex.
 */
const char *trace_print_flags_seq(struct trace_print_buf *p, const char *delim, unsigned long flags,
				  const struct trace_print_flags *flag_array)
{
	unsigned int start = p->len;
	bool first = true;

	for (int i = 0; flag_array[i].name && flags; i++) {
		unsigned long mask = flag_array[i].mask;

		if ((flags & mask) != mask)
			continue;
		flags &= ~mask;
		if (!first && delim)
			print_buf_puts(p, delim);
		first = false;
		print_buf_puts(p, flag_array[i].name);
	}
	if (flags) {
		if (!first && delim)
			print_buf_puts(p, delim);
		print_buf_hex(p, flags);
	}
	p->buf[p->len] = '\0';
	if (p->len < sizeof(p->buf) - 1)
		p->len++; /* past the NUL: the next string starts after this one */
	return p->buf + start;
}

/* Linux's: the name of the value, or the value in hex. */
const char *trace_print_symbols_seq(struct trace_print_buf *p, unsigned long val,
				    const struct trace_print_flags *symbol_array)
{
	unsigned int start = p->len;
	int i;

	for (i = 0; symbol_array[i].name; i++) {
		if (val == symbol_array[i].mask)
			break;
	}
	if (symbol_array[i].name)
		print_buf_puts(p, symbol_array[i].name);
	else
		print_buf_hex(p, val);
	p->buf[p->len] = '\0';
	if (p->len < sizeof(p->buf) - 1)
		p->len++;
	return p->buf + start;
}
