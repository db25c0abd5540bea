/* How trace events look as text: the header, the context prefix and the event lines. */

/*
 * Everything here prints into iter->seq, a trace_seq: the trace file copies it into its
 * seq_file, trace_pipe straight to the reader. The formats are Linux's of the 3.10 .. 5.12 era
 * (profile PA in the reference): four flag columns, a five-wide pid. A line is
 *
 *             bash-1994  [002] d.h1  3082.063030: mutex_unlock <-rb_simple_write
 *   \______________________________________________/\________________________/
 *        context prefix (trace_print_context)         the event's own text
 *
 * The event's own text comes from the output function of its type (register_trace_event),
 * so a tracer with new entry types adds its printing without touching this file.
 *
 * Not traced: formatting runs while the function tracer records, on other CPUs or here.
 */
#include "trace/trace_output.h"
#include "trace/func_args.h"
#include "trace/trace_graph_fmt.h"
#include "kernel/kallsyms.h"
#include "lib/compiler.h"
#include "lib/bitops.h"
#include "lib/string.h"
#include "lib/printf.h"
#include "lib/printf_spec.h"
#include "kernel/version.h"
#include "kernel/time/time.h"
#include "lib/time64.h"


#define KSYM_SYMBOL_LEN 160 /* "name+0xoffset/0xsize" */
/* The latency header's M: Linux's name of Lucid's model: a task in the kernel is preempted. */
#define LATENCY_PREEMPT_MODEL "preempt"

/* --- symbols and the context prefix --------------------------------------------------------- */

void seq_print_ip_sym(struct trace_seq *s, unsigned long ip, unsigned int sym_flags)
{
	char str[KSYM_SYMBOL_LEN];

	if (!ip) {
		trace_seq_putc(s, '0');
		return;
	}
	if (sprint_symbol(str, sizeof(str), ip, sym_flags & TRACE_ITER_SYM_OFFSET)) {
		char *mod = strstr(str, " [");

		if (mod && !(sym_flags & (TRACE_ITER_SYM_OFFSET | SEQ_PRINT_SYM_MOD)))
			*mod = '\0'; /* no symbol has a blank: " [" starts the module's name */
		trace_seq_puts(s, str);
	} else
		trace_seq_printf(s, "0x%08lx", ip); /* not in the symbol table */
	if (sym_flags & TRACE_ITER_SYM_ADDR)
		trace_seq_printf(s, " <%016lx>", ip);
}

void trace_print_lat_fmt(struct trace_seq *s, const struct trace_entry *entry)
{
	unsigned int f = entry->flags;
	bool nmi = f & TRACE_FLAG_NMI, hardirq = f & TRACE_FLAG_HARDIRQ;
	bool softirq = f & TRACE_FLAG_SOFTIRQ;
	char irqs_off, need_resched, hardsoft_irq;

	irqs_off = (f & TRACE_FLAG_IRQS_OFF) ? 'd' : (f & TRACE_FLAG_IRQS_NOSUPPORT) ? 'X' : '.';
	/* Linux's two requests: the task flag (n), the preempt-count bit (p), both (N). */
	switch (f & (TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED)) {
	case TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED:
		need_resched = 'N';
		break;
	case TRACE_FLAG_NEED_RESCHED:
		need_resched = 'n';
		break;
	case TRACE_FLAG_PREEMPT_RESCHED:
		need_resched = 'p';
		break;
	default:
		need_resched = '.';
		break;
	}
	/* An NMI inside a hard irq, an NMI, a hard irq inside a softirq, a hard irq, a softirq. */
	if (nmi)
		hardsoft_irq = hardirq ? 'Z' : 'z';
	else if (hardirq)
		hardsoft_irq = softirq ? 'H' : 'h';
	else
		hardsoft_irq = softirq ? 's' : '.';
	trace_seq_printf(s, "%c%c%c", irqs_off, need_resched, hardsoft_irq);
	if (entry->preempt_count)
		trace_seq_printf(s, "%x", entry->preempt_count & 0xf);
	else
		trace_seq_putc(s, '.');
}

void trace_print_context(struct trace_iterator *iter)
{
	struct trace_seq *s = &iter->seq;
	struct trace_entry *entry = iter->ent;
	char comm[TRACE_COMM_LEN];

	trace_find_cmdline(entry->pid, comm);
	trace_seq_printf(s, "%16s-%-5d ", comm, entry->pid);
	if (iter->tr->trace_flags & TRACE_ITER_RECORD_TGID) {
		int tgid = trace_find_tgid(entry->pid);

		if (tgid)
			trace_seq_printf(s, "(%5d) ", tgid);
		else
			trace_seq_puts(s, "(-----) ");
	}
	trace_seq_printf(s, "[%03d] ", iter->cpu);
	if (iter->tr->trace_flags & TRACE_ITER_IRQ_INFO)
		trace_print_lat_fmt(s, entry);
	if (iter->iter_flags & TRACE_FILE_TIME_IN_NS) {
		uint64_t t = ns2usecs(iter->ts);

		trace_seq_printf(s, " %5lu.%06lu: ", (unsigned long)(t / 1000000),
				 (unsigned long)(t % 1000000));
	} else {
		/* counter, uptime, x86-tsc: not nanoseconds, so the raw value */
		trace_seq_printf(s, " %12llu: ", (unsigned long long)iter->ts);
	}
}

/*
 * The latency format's prefix (Linux's trace_print_lat_context), which ftrace_dump() prints:
 *
 *     bash-3       2d..1  5012us : lkdtm_do_action <-direct_entry
 *
 * comm cut to 8, pid, CPU, the four flag columns, the time since the buffer was last reset in
 * microseconds, and a mark for the time to the next event, Linux's: '+' over 10 us, '!' over
 * 100 us, '#' over 1 ms, '*' over 10 ms, '@' over 100 ms, '$' over 1 s (trace_find_mark, of the
 * whole microseconds, as Linux's lat_print_timestamp). The trace file looks ahead for the next
 * event (iter->next_ts); trace_pipe and ftrace_dump() look among the events not yet consumed,
 * which still include this very one, so the delta is 0 and the mark a blank there, as Linux's.
 */
void trace_print_lat_context(struct trace_iterator *iter)
{
	struct trace_seq *s = &iter->seq;
	uint64_t next_ts = iter->next_ts ? iter->next_ts(iter) : iter->ts;
	uint64_t abs_ts = iter->ts - tracing_time_start(iter->tr, iter->buffer);
	bool in_ns = iter->iter_flags & TRACE_FILE_TIME_IN_NS;
	struct trace_entry *entry = iter->ent; /* (after next_ts: it may have moved it aside) */
	char comm[TRACE_COMM_LEN];

	trace_find_cmdline(entry->pid, comm);
	if (iter->tr->trace_flags & TRACE_ITER_VERBOSE) {
		/* verbose: every number in full: comm, pid, cpu, flags, depth, the event's index */
		trace_seq_printf(s, "%16s %5d %3d %d %08x %08lx ", comm, entry->pid, iter->cpu,
				 entry->flags, entry->preempt_count, (unsigned long)iter->idx);
		if (in_ns) {
			uint64_t abs_us = ns2usecs(abs_ts), rel_us = ns2usecs(next_ts - iter->ts);

			trace_seq_printf(s, "[%08llx] %llu.%03llums (+%llu.%03llums): ",
					 (unsigned long long)ns2usecs(iter->ts),
					 (unsigned long long)(abs_us / 1000),
					 (unsigned long long)(abs_us % 1000),
					 (unsigned long long)(rel_us / 1000),
					 (unsigned long long)(rel_us % 1000));
		} else {
			trace_seq_printf(s,
					 "[%016llx] %llu (+%llu): ", (unsigned long long)iter->ts,
					 (unsigned long long)abs_ts,
					 (unsigned long long)(next_ts - iter->ts));
		}
		return;
	}
	trace_seq_printf(s, "%8.8s-%-5d %3d", comm, entry->pid, iter->cpu);
	trace_print_lat_fmt(s, entry);
	if (in_ns)
		trace_seq_printf(s, " %4lluus%c: ", (unsigned long long)ns2usecs(abs_ts),
				 trace_find_mark(ns2usecs(next_ts - iter->ts) * NSEC_PER_USEC));
	else
		trace_seq_printf(s, " %4llu: ", (unsigned long long)abs_ts);
}

/* --- the built-in event types --------------------------------------------------------------- */

static enum print_line_t trace_fn_trace(struct trace_iterator *iter, unsigned int flags,
					struct trace_event *event)
{
	struct ftrace_entry *field = (struct ftrace_entry *)iter->ent;
	struct trace_seq *s = &iter->seq;

	(void)event;
	seq_print_ip_sym(s, field->ip, flags);
	/* Recorded with func-args: "func(a=1, b=0x...)" (trace/func_args.c). */
	if (iter->ent_size >= sizeof(*field) + FGRAPH_ENT_NR_ARGS * sizeof(long))
		print_function_args(s, field->args, field->ip);
	if ((flags & TRACE_ITER_PRINT_PARENT) && field->parent_ip) {
		trace_seq_puts(s, " <-");
		seq_print_ip_sym(s, field->parent_ip, flags);
	}
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

/* The options raw, hex and bin: the two addresses as numbers, in hex, as binary words. */
static enum print_line_t trace_fn_raw(struct trace_iterator *iter, unsigned int flags,
				      struct trace_event *event)
{
	struct ftrace_entry *field = (struct ftrace_entry *)iter->ent;

	(void)flags, (void)event;
	trace_seq_printf(&iter->seq, "%lx %lx\n", field->ip, field->parent_ip);
	return trace_handle_return(&iter->seq);
}

static enum print_line_t trace_fn_hex(struct trace_iterator *iter, unsigned int flags,
				      struct trace_event *event)
{
	struct ftrace_entry *field = (struct ftrace_entry *)iter->ent;

	(void)flags, (void)event;
	trace_seq_putmem_hex(&iter->seq, &field->ip, sizeof(field->ip));
	trace_seq_putmem_hex(&iter->seq, &field->parent_ip, sizeof(field->parent_ip));
	return trace_handle_return(&iter->seq);
}

static enum print_line_t trace_fn_bin(struct trace_iterator *iter, unsigned int flags,
				      struct trace_event *event)
{
	struct ftrace_entry *field = (struct ftrace_entry *)iter->ent;

	(void)flags, (void)event;
	trace_seq_putmem(&iter->seq, &field->ip, sizeof(field->ip));
	trace_seq_putmem(&iter->seq, &field->parent_ip, sizeof(field->parent_ip));
	return trace_handle_return(&iter->seq);
}

/* A type without a raw, hex or binary printer (Linux's trace_nop_print). */
static enum print_line_t trace_nop_print(struct trace_iterator *iter, unsigned int flags,
					 struct trace_event *event)
{
	(void)flags, (void)event;
	trace_seq_printf(&iter->seq, "type: %d\n", iter->ent->type);
	return trace_handle_return(&iter->seq);
}

static enum print_line_t trace_stack_print(struct trace_iterator *iter, unsigned int flags,
					   struct trace_event *event)
{
	struct stack_entry *field = (struct stack_entry *)iter->ent;
	struct trace_seq *s = &iter->seq;
	long room = ((long)iter->ent_size - (long)sizeof(*field)) / (long)sizeof(unsigned long);
	long n = MIN((long)field->size, room);

	(void)event;
	trace_seq_puts(s, "<stack trace>\n");
	for (long i = 0; i < n && !trace_seq_has_overflowed(s); i++) {
		trace_seq_puts(s, " => ");
		seq_print_ip_sym(s, field->caller[i], flags);
		trace_seq_putc(s, '\n');
	}
	return trace_handle_return(s);
}

/*
 * trace_printk and trace_marker: "caller: message". The message of a TRACE_BPRINT is made
 * here, from the format the record points to and the argument words it saved (the words are
 * whatever the record holds after its header: the ring buffer rounds sizes up, with zeros).
 * TRACE_PRINT's text was saved with its newline, TRACE_BPRINT's and TRACE_BPUTS's newline is
 * the format's own (a format without one runs into the next line, as on Linux).
 */
static size_t bprint_words(struct trace_iterator *iter)
{
	long bytes = (long)iter->ent_size - (long)sizeof(struct bprint_entry);

	return bytes > 0 ? (size_t)bytes / sizeof(uint32_t) : 0;
}

/* The text of a TRACE_PRINT, never past the end of its record. */
static void print_entry_text(struct trace_iterator *iter)
{
	struct print_entry *field = (struct print_entry *)iter->ent;
	long room = (long)iter->ent_size - (long)sizeof(*field);

	if (room > 0)
		trace_seq_putmem(&iter->seq, field->buf, strnlen(field->buf, (size_t)room));
}

enum print_line_t trace_print_bputs_msg_only(struct trace_iterator *iter)
{
	trace_seq_puts(&iter->seq, ((struct bputs_entry *)iter->ent)->str);
	return trace_handle_return(&iter->seq);
}

enum print_line_t trace_print_bprintk_msg_only(struct trace_iterator *iter)
{
	struct bprint_entry *field = (struct bprint_entry *)iter->ent;

	trace_seq_bprintf(&iter->seq, field->fmt, field->buf, bprint_words(iter));
	return trace_handle_return(&iter->seq);
}

enum print_line_t trace_print_printk_msg_only(struct trace_iterator *iter)
{
	print_entry_text(iter);
	return trace_handle_return(&iter->seq);
}

static enum print_line_t trace_bputs_print(struct trace_iterator *iter, unsigned int flags,
					   struct trace_event *event)
{
	(void)event;
	seq_print_ip_sym(&iter->seq, ((struct bputs_entry *)iter->ent)->ip, flags);
	trace_seq_puts(&iter->seq, ": ");
	return trace_print_bputs_msg_only(iter);
}

static enum print_line_t trace_bprint_print(struct trace_iterator *iter, unsigned int flags,
					    struct trace_event *event)
{
	(void)event;
	seq_print_ip_sym(&iter->seq, ((struct bprint_entry *)iter->ent)->ip, flags);
	trace_seq_puts(&iter->seq, ": ");
	return trace_print_bprintk_msg_only(iter);
}

static enum print_line_t trace_print_print(struct trace_iterator *iter, unsigned int flags,
					   struct trace_event *event)
{
	(void)event;
	seq_print_ip_sym(&iter->seq, ((struct print_entry *)iter->ent)->ip, flags);
	trace_seq_puts(&iter->seq, ": ");
	return trace_print_printk_msg_only(iter);
}

/* raw: "# ip text" for a marker, ": ip : text" for trace_printk (Linux's *_raw). */
static enum print_line_t trace_print_raw(struct trace_iterator *iter, unsigned int flags,
					 struct trace_event *event)
{
	(void)flags, (void)event;
	trace_seq_printf(&iter->seq, "# %lx ", ((struct print_entry *)iter->ent)->ip);
	return trace_print_printk_msg_only(iter);
}

static enum print_line_t trace_bprint_raw(struct trace_iterator *iter, unsigned int flags,
					  struct trace_event *event)
{
	(void)flags, (void)event;
	trace_seq_printf(&iter->seq, ": %lx : ", ((struct bprint_entry *)iter->ent)->ip);
	return trace_print_bprintk_msg_only(iter);
}

static enum print_line_t trace_bputs_raw(struct trace_iterator *iter, unsigned int flags,
					 struct trace_event *event)
{
	(void)flags, (void)event;
	trace_seq_printf(&iter->seq, ": %lx : ", ((struct bputs_entry *)iter->ent)->ip);
	return trace_print_bputs_msg_only(iter);
}

static struct trace_event trace_fn_event = {.type = TRACE_FN,
					    .trace = trace_fn_trace,
					    .raw = trace_fn_raw,
					    .hex = trace_fn_hex,
					    .binary = trace_fn_bin};
/*
 * trace_marker_raw's record, Linux's trace_raw_data(): "# ID buf: b0 b1 ..." in hex, every byte
 * the record holds after the id (Linux's minimum size and the ring buffer's rounding included).
 */
static enum print_line_t trace_raw_data(struct trace_iterator *iter, unsigned int flags,
					struct trace_event *event)
{
	struct raw_data_entry *field = (struct raw_data_entry *)iter->ent;
	long n = (long)iter->ent_size - (long)offsetof(struct raw_data_entry, buf);

	(void)flags;
	(void)event;
	trace_seq_printf(&iter->seq, "# %x buf:", field->id);
	for (long i = 0; i < n && !trace_seq_has_overflowed(&iter->seq); i++)
		trace_seq_printf(&iter->seq, " %02x", (unsigned char)field->buf[i]);
	trace_seq_putc(&iter->seq, '\n');
	return trace_handle_return(&iter->seq);
}

static struct trace_event trace_stack_event = {.type = TRACE_STACK, .trace = trace_stack_print};
static struct trace_event trace_print_event = {
	.type = TRACE_PRINT, .trace = trace_print_print, .raw = trace_print_raw};
static struct trace_event trace_bprint_event = {
	.type = TRACE_BPRINT, .trace = trace_bprint_print, .raw = trace_bprint_raw};
static struct trace_event trace_bputs_event = {
	.type = TRACE_BPUTS, .trace = trace_bputs_print, .raw = trace_bputs_raw};
static struct trace_event trace_raw_data_event = {.type = TRACE_RAW_DATA, .trace = trace_raw_data};

static struct trace_event *events[TRACE_EVENT_TYPE_MAX] = {
	[TRACE_FN] = &trace_fn_event,	    [TRACE_STACK] = &trace_stack_event,
	[TRACE_PRINT] = &trace_print_event, [TRACE_BPRINT] = &trace_bprint_event,
	[TRACE_BPUTS] = &trace_bputs_event, [TRACE_RAW_DATA] = &trace_raw_data_event,
};
static int next_event_type = TRACE_EVENT_TYPE_FIRST; /* the next trace event's id */

/* Boot and tracer init, and probe events under event_mutex: one at a time, never concurrently. */
int register_trace_event(struct trace_event *event)
{
	if (!event->type) {
		int type = next_event_type;

		/*
		 * Ids of events removed at run time are free again: the lowest one, when all are
		 * out
		 */
		if (type >= TRACE_EVENT_TYPE_MAX)
			for (type = TRACE_EVENT_TYPE_FIRST;
			     type < TRACE_EVENT_TYPE_MAX && events[type]; type++)
				;
		if (type >= TRACE_EVENT_TYPE_MAX)
			return 0;
		if (type == next_event_type)
			next_event_type++;
		event->type = type;
	} else if (event->type <= __TRACE_FIRST_TYPE || event->type >= __TRACE_LAST_TYPE ||
		   events[event->type]) {
		return 0;
	}
	events[event->type] = event;
	return event->type;
}

void unregister_trace_event(struct trace_event *event)
{
	if (event->type >= TRACE_EVENT_TYPE_FIRST && event->type < TRACE_EVENT_TYPE_MAX &&
	    events[event->type] == event)
		events[event->type] = NULL;
	event->type = 0;
}

struct trace_event *ftrace_find_event(int type)
{
	if (type <= __TRACE_FIRST_TYPE || type >= TRACE_EVENT_TYPE_MAX)
		return NULL;
	return events[type];
}

/* --- the header ---------------------------------------------------------------------------- */

static void print_event_info(struct trace_iterator *iter)
{
	trace_seq_printf(&iter->seq, "# entries-in-buffer/entries-written: %lu/%lu   #P:%d\n",
			 iter->entries, iter->total, iter->cpus_online);
	trace_seq_puts(&iter->seq, "#\n");
}

/*
 * The column legends. With record-tgid a TGID column stands between TASK-PID and CPU#, as
 * Linux's print_func_help_header*() put it.
 */
static void print_func_help_header(struct trace_iterator *iter)
{
	bool tgid = iter->tr->trace_flags & TRACE_ITER_RECORD_TGID;

	print_event_info(iter);
	trace_seq_printf(&iter->seq, "#           TASK-PID %sCPU#      TIMESTAMP  FUNCTION\n",
			 tgid ? "   TGID   " : "  ");
	trace_seq_printf(&iter->seq, "#              | |   %s  |          |         |\n",
			 tgid ? "     |    " : "  ");
}

/* The arrows point at the four flag columns of the lines below. */
static void print_func_help_header_irq(struct trace_iterator *iter)
{
	const char *space = iter->tr->trace_flags & TRACE_ITER_RECORD_TGID ? "          " : "  ";
	bool tgid = iter->tr->trace_flags & TRACE_ITER_RECORD_TGID;
	struct trace_seq *s = &iter->seq;

	print_event_info(iter);
	trace_seq_printf(s, "#                          %s  _-----=> irqs-off\n", space);
	trace_seq_printf(s, "#                          %s / _----=> need-resched\n", space);
	trace_seq_printf(s, "#                          %s| / _---=> hardirq/softirq\n", space);
	trace_seq_printf(s, "#                          %s|| / _--=> preempt-depth\n", space);
	trace_seq_printf(s, "#                          %s||| /     delay\n", space);
	trace_seq_printf(s, "#           TASK-PID %sCPU#  ||||    TIMESTAMP  FUNCTION\n",
			 tgid ? "   TGID   " : "  ");
	trace_seq_printf(s, "#              | |   %s  |   ||||       |         |\n",
			 tgid ? "     |    " : "  ");
}

/*
 * The latency format's header (Linux's print_trace_header): what a latency tracer saw at its
 * worst. With no latency tracer (the option alone) the figures are the buffer's and the
 * worst latency, its task and its start and end are empty, as Linux prints them for nop.
 */
static void print_trace_header(struct trace_iterator *iter)
{
	struct trace_max_data none = {0};
	const struct trace_max_data *d = iter->trace->print_max ? &iter->tr->max_data : &none;
	struct trace_seq *s = &iter->seq;

	trace_seq_printf(s, "# %s latency trace v1.1.5 on %s\n", iter->trace->name, UTS_RELEASE);
	trace_seq_puts(s, "# -----------------------------------"
			  "---------------------------------\n");
	trace_seq_printf(s, "# latency: %lu us, #%lu/%lu, CPU#%d | (M:%s VP:%d, KP:%d, SP:%d HP:%d",
			 /* microseconds cut, as tracing_max_latency shows them */
			 (unsigned long)(d->saved_latency / NSEC_PER_USEC), iter->entries,
			 iter->total, d->cpu, LATENCY_PREEMPT_MODEL, 0, 0, 0, 0);
	trace_seq_printf(s, " #P:%d)\n", iter->cpus_online);
	trace_seq_puts(s, "#    -----------------\n");
	trace_seq_printf(s, "#    | task: %.16s-%d (uid:%d nice:%ld policy:%ld rt_prio:%ld)\n",
			 d->comm, d->pid, d->uid, d->nice, d->policy, d->rt_priority);
	trace_seq_puts(s, "#    -----------------\n");
	if (d->critical_start) {
		trace_seq_puts(s, "#  => started at: ");
		seq_print_ip_sym(s, d->critical_start, iter->tr->trace_flags & TRACE_ITER_SYM_MASK);
		trace_seq_puts(s, "\n#  => ended at:   ");
		seq_print_ip_sym(s, d->critical_end, iter->tr->trace_flags & TRACE_ITER_SYM_MASK);
		trace_seq_puts(s, "\n#\n");
	}
	trace_seq_puts(s, "#\n");
}

/* The columns of the latency format (blanks at the ends of lines are Linux's). */
static void print_lat_help_header(struct trace_iterator *iter)
{
	trace_seq_puts(&iter->seq, "#                  _------=> CPU#            \n"
				   "#                 / _-----=> irqs-off        \n"
				   "#                | / _----=> need-resched    \n"
				   "#                || / _---=> hardirq/softirq \n"
				   "#                ||| / _--=> preempt-depth   \n"
				   "#                |||| /     delay             \n"
				   "#  cmd     pid   ||||| time  |   caller      \n"
				   "#     \\   /      |||||  \\    |   /           \n");
}

/* The latency header alone, for a latency tracer that prints the rest in its own way. */
void trace_print_lat_header(struct trace_iterator *iter)
{
	if (iter->entries)
		print_trace_header(iter);
}

void trace_default_header(struct trace_iterator *iter)
{
	unsigned int flags = iter->tr->trace_flags;

	if (!(flags & TRACE_ITER_CONTEXT_INFO))
		return; /* lines have no prefix: nothing to explain */
	if (iter->iter_flags & TRACE_FILE_LAT_FMT) {
		if (!iter->entries)
			return; /* Linux prints nothing for an empty buffer */
		print_trace_header(iter);
		if (!(flags & TRACE_ITER_VERBOSE))
			print_lat_help_header(iter);
		return;
	}
	if (flags & TRACE_ITER_VERBOSE)
		return; /* verbose: the columns are too many to name */
	if (flags & TRACE_ITER_IRQ_INFO)
		print_func_help_header_irq(iter);
	else
		print_func_help_header(iter);
}

void trace_print_header(struct trace_iterator *iter)
{
	trace_seq_printf(&iter->seq, "# tracer: %s\n", iter->trace->name);
	trace_seq_puts(&iter->seq, "#\n");
	if (iter->trace->print_header)
		iter->trace->print_header(iter);
	else
		trace_default_header(iter);
}

/* --- one line ------------------------------------------------------------------------------ */

/*
 * After an overrun, each CPU's events begin wherever its oldest surviving page begins; with
 * annotate on, the trace marks where a CPU's events start (except at the very first line).
 */
static void test_cpu_buff_start(struct trace_iterator *iter)
{
	if (!(iter->tr->trace_flags & TRACE_ITER_ANNOTATE) ||
	    !(iter->iter_flags & TRACE_FILE_ANNOTATE))
		return;
	if (iter->cpu < 0 || iter->cpu >= BITS_PER_LONG ||
	    test_bit((unsigned long)iter->cpu, &iter->started))
		return;
	__set_bit((unsigned long)iter->cpu, &iter->started);
	if (iter->idx > 1)
		trace_seq_printf(&iter->seq, "##### CPU %u buffer started ####\n", iter->cpu);
}

static enum print_line_t print_trace_fmt(struct trace_iterator *iter)
{
	unsigned int flags = iter->tr->trace_flags;
	struct trace_entry *entry = iter->ent;
	struct trace_event *event = ftrace_find_event(entry->type);

	test_cpu_buff_start(iter);
	if ((flags & TRACE_ITER_CONTEXT_INFO) && (iter->iter_flags & TRACE_FILE_LAT_FMT))
		trace_print_lat_context(iter);
	else if (flags & TRACE_ITER_CONTEXT_INFO)
		trace_print_context(iter);
	if (trace_seq_has_overflowed(&iter->seq))
		return TRACE_TYPE_PARTIAL_LINE;
	if (event)
		return event->trace(iter, flags & TRACE_ITER_SYM_MASK, event);
	trace_seq_printf(&iter->seq, "Unknown type %d\n", entry->type);
	return trace_handle_return(&iter->seq);
}

/*
 * The options bin, hex and raw (asked in that order, as Linux does): the prefix as numbers
 * (pid, cpu, timestamp) then the event's own raw, hex or binary printer. bin writes the
 * numbers as they are in memory: a program reads them, not a person. hex ends each line with
 * a newline of its own, after the printer's (so an event without a hex printer shows
 * "type: N" and an empty line, as Linux's).
 */
static enum print_line_t print_numeric_fmt(struct trace_iterator *iter, unsigned int flags)
{
	struct trace_seq *s = &iter->seq;
	struct trace_entry *entry = iter->ent;
	struct trace_event *event = ftrace_find_event(entry->type);
	int pid = entry->pid, cpu = iter->cpu;
	trace_print_func print = NULL;
	enum print_line_t ret;

	if (flags & TRACE_ITER_CONTEXT_INFO) {
		if (flags & TRACE_ITER_BIN) {
			trace_seq_putmem(s, &pid, sizeof(pid));
			trace_seq_putmem(s, &cpu, sizeof(cpu));
			trace_seq_putmem(s, &iter->ts, sizeof(iter->ts));
		} else if (flags & TRACE_ITER_HEX) {
			trace_seq_putmem_hex(s, &pid, sizeof(pid));
			trace_seq_putmem_hex(s, &cpu, sizeof(cpu));
			trace_seq_putmem_hex(s, &iter->ts, sizeof(iter->ts));
		} else {
			trace_seq_printf(s, "%d %d %llu ", pid, cpu, (unsigned long long)iter->ts);
		}
		if (trace_seq_has_overflowed(s))
			return TRACE_TYPE_PARTIAL_LINE;
	}
	if (event)
		print = (flags & TRACE_ITER_BIN)   ? event->binary
			: (flags & TRACE_ITER_HEX) ? event->hex
						   : event->raw;
	if (!event && (flags & TRACE_ITER_BIN))
		return TRACE_TYPE_HANDLED;
	if (!event && !(flags & TRACE_ITER_HEX)) {
		trace_seq_printf(s, "%d ?\n", entry->type);
		return trace_handle_return(s);
	}
	if (event) {
		ret = (print ? print : trace_nop_print)(iter, 0, event);
		if (!(flags & TRACE_ITER_HEX) || (flags & TRACE_ITER_BIN) ||
		    ret != TRACE_TYPE_HANDLED)
			return ret;
	}
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

enum print_line_t print_trace_line(struct trace_iterator *iter)
{
	unsigned int flags = iter->tr->trace_flags;
	struct trace_seq *s = &iter->seq;
	enum print_line_t ret;

	if (iter->lost_events) {
		if (iter->lost_events == (unsigned long)-1)
			trace_seq_printf(s, "CPU:%d [LOST EVENTS]\n", iter->cpu);
		else
			trace_seq_printf(s, "CPU:%d [LOST %lu EVENTS]\n", iter->cpu,
					 iter->lost_events);
		if (trace_seq_has_overflowed(s))
			return TRACE_TYPE_PARTIAL_LINE;
	}
	if (iter->trace && iter->trace->print_line) {
		ret = iter->trace->print_line(iter);
		if (ret != TRACE_TYPE_UNHANDLED)
			return ret;
	}
	/* printk-msg-only: a trace_printk or marker record is its message alone */
	if ((flags & TRACE_ITER_PRINTK) && (flags & TRACE_ITER_PRINTK_MSGONLY)) {
		switch (iter->ent->type) {
		case TRACE_BPUTS:
			return trace_print_bputs_msg_only(iter);
		case TRACE_BPRINT:
			return trace_print_bprintk_msg_only(iter);
		case TRACE_PRINT:
			return trace_print_printk_msg_only(iter);
		}
	}
	if (unlikely(flags & TRACE_ITER_NUMERIC))
		return print_numeric_fmt(iter, flags);
	return print_trace_fmt(iter);
}

/* --- hash-ptr: trace_event_printf ------------------------------------------------------------ */

/*
 * Linux's events print with trace_event_printf(), and its trace_event_format() decides what a
 * plain %p of their format shows: with the option hash-ptr (on by default) Linux's vsnprintf
 * hashes it, so the trace does not give kernel addresses away; off, it is rewritten to %px,
 * the address itself. Lucid's vsnprintf never hashes (lib/printf.c), so here it is the other
 * way round: off, the format is printed as it is; on, each directive is printed on its own and
 * a plain %p becomes the hash, in Linux's form: the low 32 bits of a keyed hash of the pointer,
 * as 16 hex digits ("00000000" then 8). The key is random per boot (trace_hash_ptr_init()),
 * so one pointer gets one hash for the boot, and none can be turned back into an address. The
 * hash is a keyed 64-bit mix (splitmix64's), not Linux's siphash: the same promise, less code.
 * %pS, %ps and every other extension print as they would anyway. Linux 6.1 applies the option
 * to events' output only, not to trace_printk(), which Linux hashes always and Lucid never.
 */
#define HASH_PTR_MASK 0xffffffffUL /* Linux keeps 32 bits: "plenty for a unique ID" */
#define HASH_PTR_DIGITS 16 /* as wide as an unhashed pointer */
#define DIRECTIVE_MAX 64 /* one printf directive, its '*' given as digits */

static uint64_t ptr_key = 0x9e3779b97f4a7c15ULL; /* until the boot gives a random one */

void trace_hash_ptr_init(uint64_t key)
{
	ptr_key = key;
}

unsigned long trace_hash_ptr(const void *ptr)
{
	uint64_t z = (uint64_t)(uintptr_t)ptr ^ ptr_key;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (unsigned long)((z ^ (z >> 31)) & HASH_PTR_MASK);
}

/* The directive text (len bytes at d) with its '*'s replaced by the values given; false if long. */
static bool directive_text(char *out, const char *d, int len, int width, int precision)
{
	size_t n = 0;
	bool dot = false; /* a '*' after the '.' is the precision's */

	for (int i = 0; i < len; i++) {
		if (d[i] != '*') {
			if (n + 1 >= DIRECTIVE_MAX)
				return false;
			dot |= d[i] == '.';
			out[n++] = d[i];
			continue;
		}
		if (dot && precision < 0) { /* a negative precision is none: drop the '.' */
			n--;
			continue;
		}
		n += (size_t)scnprintf(out + n, DIRECTIVE_MAX - n, "%d", dot ? precision : width);
		if (n + 1 >= DIRECTIVE_MAX)
			return false;
	}
	out[n] = '\0';
	return true;
}

/* One integer directive, its argument fetched as the qualifier says (lib/printf.c's rule). */
static void print_int(struct trace_seq *s, const char *dir, const struct printf_spec *sp,
		      va_list *ap)
{
	switch (sp->qualifier) {
	case QUALIFIER_LONG:
		trace_seq_printf(s, dir, va_arg(*ap, long));
		break;
	case QUALIFIER_LLONG:
		trace_seq_printf(s, dir, va_arg(*ap, long long));
		break;
	case QUALIFIER_SIZE:
		trace_seq_printf(s, dir, va_arg(*ap, size_t));
		break;
	case QUALIFIER_PTRDIFF:
		trace_seq_printf(s, dir, va_arg(*ap, ptrdiff_t));
		break;
	case QUALIFIER_MAX:
		trace_seq_printf(s, dir, va_arg(*ap, intmax_t));
		break;
	default: /* int, and the char and short that came as ints */
		trace_seq_printf(s, dir, va_arg(*ap, int));
		break;
	}
}

static void trace_seq_vprintf_hashed(struct trace_seq *s, const char *fmt, va_list *ap)
{
	struct printf_spec sp;
	char dir[DIRECTIVE_MAX];
	int len;

	for (; (len = format_decode(fmt, &sp)) > 0; fmt += len) {
		int width = sp.width_star ? va_arg(*ap, int) : 0;
		int precision = sp.precision_star ? va_arg(*ap, int) : 0;

		if (sp.type == FORMAT_TYPE_NONE || sp.type == FORMAT_TYPE_INVALID ||
		    !directive_text(dir, fmt, len, width, precision)) {
			trace_seq_putmem(s, fmt, (size_t)len); /* text, as vsnprintf prints it */
			continue;
		}
		switch (sp.type) {
		case FORMAT_TYPE_PERCENT_CHAR:
			trace_seq_putc(s, '%');
			break;
		case FORMAT_TYPE_CHAR:
			trace_seq_printf(s, dir, va_arg(*ap, int));
			break;
		case FORMAT_TYPE_STR:
			trace_seq_printf(s, dir, va_arg(*ap, const char *));
			break;
		case FORMAT_TYPE_PTR: {
			void *ptr = va_arg(*ap, void *);

			if (sp.ptr_ext)
				trace_seq_printf(s, dir, ptr);
			else
				trace_seq_printf(s, "%0*lx", HASH_PTR_DIGITS, trace_hash_ptr(ptr));
			break;
		}
		default:
			print_int(s, dir, &sp, ap);
			break;
		}
	}
}

void trace_event_printf(struct trace_iterator *iter, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (iter->tr && !(READ_ONCE(iter->tr->trace_flags) & TRACE_ITER_HASH_PTR))
		trace_seq_vprintf(&iter->seq, fmt, ap); /* Linux's %px: the address */
	else
		trace_seq_vprintf_hashed(&iter->seq, fmt, &ap);
	va_end(ap);
}
