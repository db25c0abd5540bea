/* How the function graph tracer's events read: entries and returns paired into a call graph. */

/*
 * Each traced call leaves two events in its CPU's ring buffer: TRACE_GRAPH_ENT when the
 * function is entered and TRACE_GRAPH_RET when it returns (trace/trace_functions_graph.c).
 * The printer pairs them back into something that reads like C:
 *
 *    0)               |  ftest_outer() {            an entry: its return comes later
 *    0)               |    ftest_mid() {
 *    0)   0.190 us    |      ftest_leaf();          an entry followed by its own return
 *    0)   1.467 us    |    }                        a return: the duration of the call
 *    0)   2.961 us    |  }
 *
 * - Leaf or not? An entry whose very next event on the same CPU is its own return (same
 *   task, same function) is a leaf, printed on one line. To see that next event the printer
 *   must move the reader past the entry (get_return_for_leaf): the trace file's iterator
 *   advances, trace_pipe and ftrace_dump consume. If it is a leaf, the reader is left on the
 *   return, and its usual move after the line skips it; if not, the printer says
 *   TRACE_TYPE_NO_CONSUME and the reader does not move again (trace/trace_iter.c, and
 *   trace_consume_line in trace/trace_reader.c). Every reader sets up its iterator with
 *   trace_iterator_init, so iter->buffer or iter->buffer_iter[] is always there to move.
 * - The indentation is the depth recorded in the event, two spaces a level: the depth is the
 *   function's place on its task's return stack, so an interrupt's functions, pushed above
 *   the interrupted task's, indent one level deeper than the function they interrupted.
 * - Per CPU the printer remembers (struct fgraph_cpu_data): the last task printed, for the
 *   context-switch banner; which function each open brace belongs to, so that a return whose
 *   entry is not in the buffer (overwritten, or never recorded under tracing_thresh) names its
 *   function after the brace; the open depth, where trace_printk comments go; and, with
 *   funcgraph-irqs off, whether it is inside an interrupt it hides.
 * - Events of other kinds (trace_printk, trace_marker, events) print as C comments, one
 *   level deeper than the function open at that point.
 *
 * Not traced: the printer runs while the tracer records.
 */
#include "trace/trace_graph_output.h"
#include "trace/trace_graph_fmt.h"
#include "trace/trace_output.h"
#include "trace/ring_buffer.h"
#include "trace/fgraph.h"
#include "trace/func_args.h"
#include "kernel/mm/kmalloc.h"
#include "lib/string.h"

#define TRACE_GRAPH_INDENT 2 /* spaces per level of depth */
#define COLUMN_MAX 64 /* the widest column piece */
#define HEADER_MAX 256 /* the two header lines */

struct fgraph_cpu_data {
	int last_pid; /* the task of the last line, -1 before the first */
	int depth; /* the depth of the function open now: comments go one deeper */
	int depth_irq; /* hiding an interrupt entered at this depth; -1: not hiding */
	unsigned long enter_funcs[FTRACE_RETFUNC_DEPTH]; /* which function "{" opened per depth */
};

struct fgraph_data {
	struct fgraph_cpu_data cpu_data[NR_CPUS];
};

/*
 * ftrace_dump's reader runs in an oops, where the allocator may be what broke (or hold a lock
 * forever): it gets this instead. There is one dumper at a time (trace/trace_dump.c).
 */
static struct fgraph_data dump_data;

void graph_trace_open(struct trace_iterator *iter)
{
	struct fgraph_data *data;

	if (iter->iter_flags & TRACE_FILE_DUMP) {
		data = &dump_data;
		memset(data, 0, sizeof(*data));
	} else {
		data = kzalloc(sizeof(*data));
	}
	/* Without memory the lines still print, without banners, irq hiding or tail names. */
	iter->private = data;
	for (int cpu = 0; data && cpu < NR_CPUS; cpu++) {
		data->cpu_data[cpu].last_pid = -1;
		data->cpu_data[cpu].depth_irq = -1;
	}
}

void graph_trace_close(struct trace_iterator *iter)
{
	if (iter->private != &dump_data)
		kfree(iter->private);
	iter->private = NULL;
}

static struct fgraph_cpu_data *cpu_data(struct trace_iterator *iter)
{
	struct fgraph_data *data = iter->private;

	return data ? &data->cpu_data[iter->cpu] : NULL;
}

static bool context_info(struct trace_iterator *iter)
{
	return iter->tr->trace_flags & TRACE_ITER_CONTEXT_INFO;
}

/* --- columns -------------------------------------------------------------------------------- */

static void print_graph_cpu(struct trace_iterator *iter, int cpu)
{
	char buf[COLUMN_MAX];

	trace_graph_cpu(buf, sizeof(buf), cpu, iter->tr->nr_cpus);
	trace_seq_puts(&iter->seq, buf);
}

static void print_graph_proc(struct trace_iterator *iter, int pid)
{
	char comm[TRACE_COMM_LEN], buf[COLUMN_MAX];

	trace_find_cmdline(pid, comm);
	trace_graph_proc(buf, sizeof(buf), comm, pid);
	trace_seq_puts(&iter->seq, buf);
}

/* The duration column: the call's duration, or (known false) blanks up to the bar. */
static void print_graph_duration(struct trace_iterator *iter, uint64_t ns, bool known,
				 uint32_t flags)
{
	char buf[COLUMN_MAX];

	if (!(flags & TRACE_GRAPH_PRINT_DURATION) || !context_info(iter))
		return;
	trace_graph_duration_column(buf, sizeof(buf), ns, known,
				    flags & TRACE_GRAPH_PRINT_OVERHEAD);
	trace_seq_puts(&iter->seq, buf);
}

static void print_indent(struct trace_seq *s, int depth)
{
	for (int i = 0; i < depth * TRACE_GRAPH_INDENT; i++)
		trace_seq_putc(s, ' ');
}

/*
 * A different task on this CPU than on its previous line: the banner
 *  ------------------------------------------
 *  1)   migrati-14   =>   sshd-1755
 *  ------------------------------------------
 */
static void verif_pid(struct trace_iterator *iter, int pid)
{
	struct fgraph_cpu_data *d = cpu_data(iter);
	struct trace_seq *s = &iter->seq;
	int prev;

	if (!d || d->last_pid == pid)
		return;
	prev = d->last_pid;
	d->last_pid = pid;
	if (prev == -1)
		return; /* the first line of this CPU: nothing switched */
	trace_seq_puts(s, " ------------------------------------------\n");
	print_graph_cpu(iter, iter->cpu);
	print_graph_proc(iter, prev);
	trace_seq_puts(s, " => ");
	print_graph_proc(iter, pid);
	trace_seq_puts(s, "\n ------------------------------------------\n\n");
}

/* The context columns a line starts with, as flags choose: absolute time, CPU, task. */
static void print_graph_context(struct trace_iterator *iter, int pid, uint32_t flags)
{
	struct trace_seq *s = &iter->seq;
	char buf[COLUMN_MAX];

	if (flags & TRACE_GRAPH_PRINT_ABS_TIME) {
		trace_graph_abs_time(buf, sizeof(buf), iter->ts);
		trace_seq_puts(s, buf);
	}
	if (flags & TRACE_GRAPH_PRINT_CPU)
		print_graph_cpu(iter, iter->cpu);
	if (flags & TRACE_GRAPH_PRINT_PROC) {
		print_graph_proc(iter, pid);
		trace_seq_puts(s, " | ");
	}
}

/* Before an interrupt handler's entry "==========>", after its return "<==========". */
static void print_graph_irq(struct trace_iterator *iter, unsigned long addr, int type,
			    int pid, uint32_t flags)
{
	struct trace_seq *s = &iter->seq;
	bool column = (flags & TRACE_GRAPH_PRINT_DURATION) && context_info(iter);

	if (!ftrace_graph_is_irq_entry(addr))
		return;
	if (context_info(iter))
		print_graph_context(iter, pid, flags);
	if (column)
		trace_seq_puts(s, "  ");
	trace_seq_puts(s, type == TRACE_GRAPH_ENT ? "==========>" : "<==========");
	if (column)
		trace_seq_puts(s, " |");
	trace_seq_putc(s, '\n');
}

/* What every line starts with: banner and arrow lines if due, then time, CPU, task. */
static void print_graph_prologue(struct trace_iterator *iter, int pid, int type,
				 unsigned long addr, uint32_t flags)
{
	verif_pid(iter, pid);
	if (type)
		print_graph_irq(iter, addr, type, pid, flags);
	if (context_info(iter))
		print_graph_context(iter, pid, flags);
}

/* --- hiding interrupts (funcgraph-irqs off) ------------------------------------------------- */

/*
 * With funcgraph-irqs off the tracer records no function of a hard irq; these hide those
 * recorded before the option went off: from an interrupt handler's entry down to its return.
 */
static bool check_irq_entry(struct trace_iterator *iter, uint32_t flags, unsigned long addr,
			    int depth)
{
	struct fgraph_cpu_data *d = cpu_data(iter);

	if ((flags & TRACE_GRAPH_PRINT_IRQS) || !d)
		return false;
	if (d->depth_irq >= 0)
		return true; /* inside the interrupt */
	if (!ftrace_graph_is_irq_entry(addr))
		return false;
	d->depth_irq = depth; /* entering it */
	return true;
}

static bool check_irq_return(struct trace_iterator *iter, uint32_t flags, int depth)
{
	struct fgraph_cpu_data *d = cpu_data(iter);

	if ((flags & TRACE_GRAPH_PRINT_IRQS) || !d || d->depth_irq == -1)
		return false;
	/* At or above the handler's depth: out of the interrupt (even if its return was lost). */
	if (d->depth_irq >= depth)
		d->depth_irq = -1;
	return true;
}

/* --- entries and returns -------------------------------------------------------------------- */

/*
 * An entry record and what it carries beyond func and depth (struct ftrace_graph_ent_entry):
 * the words its length says, the six argument registers first if there are six or more.
 */
struct graph_ent_copy {
	struct ftrace_graph_ent_entry e;
	unsigned long words[FGRAPH_ENT_MAX_WORDS];
	unsigned int nr_words;
};

static const unsigned long *ent_args(const struct graph_ent_copy *c)
{
	return c->nr_words >= FGRAPH_ENT_NR_ARGS ? c->e.args : NULL;
}

/* The return address (funcgraph-retaddr), 0 if not recorded: the word after the arguments. */
static unsigned long ent_retaddr(const struct graph_ent_copy *c)
{
	if (c->nr_words != 1 && c->nr_words != FGRAPH_ENT_MAX_WORDS)
		return 0;
	return c->e.args[c->nr_words - 1];
}

/* "func" and its arguments: "(a=1, b=0x...)" if recorded, else "()". */
static void print_graph_func_args(struct trace_seq *s, const struct graph_ent_copy *c)
{
	seq_print_ip_sym(s, c->e.func, SEQ_PRINT_SYM_MOD); /* %ps */
	if (ent_args(c))
		print_function_args(s, ent_args(c), c->e.func);
	else
		trace_seq_puts(s, "()");
}

/* " <-caller+0x1c/0x40", the return address as %pS prints it (funcgraph-retaddr). */
static void print_graph_retaddr(struct trace_iterator *iter, unsigned long retaddr)
{
	trace_seq_puts(&iter->seq, " <-");
	seq_print_ip_sym(&iter->seq, retaddr,
			 (iter->tr->trace_flags & TRACE_ITER_SYM_MASK) | TRACE_ITER_SYM_OFFSET);
}

#define MAX_ERRNO 4095
#define INT_SIGN_BIT (1UL << 31)
#define INT_BITS 32

/*
 * " = -2" or " = 0x0" (funcgraph-retval), Linux 6.5's rule: in decimal if it looks like an
 * error, -4095 to -1 as a long or as an int (the upper half of RAX zero, as when a function
 * returns an int), else in hex; everything in hex with funcgraph-retval-hex.
 */
static void print_graph_retval(struct trace_seq *s, unsigned long retval, uint32_t flags)
{
	long err = 0;

	if (retval && !(flags & TRACE_GRAPH_PRINT_RETVAL_HEX)) {
		err = (long)retval;
		if ((retval & INT_SIGN_BIT) && !(retval >> INT_BITS))
			err = (long)(int)retval; /* an int's sign, extended */
		if (err < -MAX_ERRNO || err > -1)
			err = 0;
	}
	if (err)
		trace_seq_printf(s, " = %ld", err);
	else
		trace_seq_printf(s, " = 0x%lx", retval);
}

/*
 * Moves the reader past the entry curr and looks at the next event of this CPU: if it is
 * curr's return, copies it into *ret and returns true (the reader is left on it).
 */
static bool get_return_for_leaf(struct trace_iterator *iter,
				const struct ftrace_graph_ent_entry *curr,
				struct ftrace_graph_ret_entry *ret)
{
	struct ring_buffer_iter *ring_iter = iter->buffer_iter[iter->cpu];
	const struct ftrace_graph_ret_entry *next;
	struct ring_buffer_event *event;

	if (ring_iter) {
		ring_buffer_iter_advance(ring_iter);
		event = ring_buffer_iter_peek(ring_iter, NULL);
	} else {
		ring_buffer_consume(iter->buffer, iter->cpu, NULL, NULL);
		event = ring_buffer_peek(iter->buffer, iter->cpu, NULL, NULL);
	}
	if (!event)
		return false;
	next = ring_buffer_event_data(event);
	if (next->ent.type != TRACE_GRAPH_RET || next->ent.pid != curr->ent.pid ||
	    next->func != curr->func)
		return false;
	*ret = *next;
	return true;
}

static enum print_line_t print_graph_entry_leaf(struct trace_iterator *iter,
						const struct graph_ent_copy *copy,
						const struct ftrace_graph_ret_entry *ret,
						uint32_t flags)
{
	const struct ftrace_graph_ent_entry *call = &copy->e;
	unsigned long retaddr = flags & TRACE_GRAPH_PRINT_RETADDR ? ent_retaddr(copy) : 0;
	struct fgraph_cpu_data *d = cpu_data(iter);
	struct trace_seq *s = &iter->seq;

	if (d) {
		/* A comment after a leaf belongs to the leaf's caller. */
		d->depth = call->depth - 1;
		if (call->depth >= 0 && call->depth < FTRACE_RETFUNC_DEPTH)
			d->enter_funcs[call->depth] = 0;
	}
	print_graph_duration(iter, ret->rettime - ret->calltime, true, flags);
	print_indent(s, call->depth);
	print_graph_func_args(s, copy);
	trace_seq_putc(s, ';');
	/* A comment with "<-caller+0x1c/0x40" and "= -2", whichever the options want. */
	if (retaddr || (flags & TRACE_GRAPH_PRINT_RETVAL)) {
		trace_seq_puts(s, " /*");
		if (retaddr)
			print_graph_retaddr(iter, retaddr);
		if (flags & TRACE_GRAPH_PRINT_RETVAL)
			print_graph_retval(s, ret->retval, flags);
		trace_seq_puts(s, " */");
	}
	trace_seq_putc(s, '\n');
	print_graph_irq(iter, ret->func, TRACE_GRAPH_RET, call->ent.pid, flags);
	return trace_handle_return(s);
}

static void print_graph_entry_nested(struct trace_iterator *iter,
				     const struct graph_ent_copy *copy, uint32_t flags)
{
	const struct ftrace_graph_ent_entry *call = &copy->e;
	unsigned long retaddr = flags & TRACE_GRAPH_PRINT_RETADDR ? ent_retaddr(copy) : 0;
	struct fgraph_cpu_data *d = cpu_data(iter);
	struct trace_seq *s = &iter->seq;

	if (d) {
		d->depth = call->depth;
		if (call->depth >= 0 && call->depth < FTRACE_RETFUNC_DEPTH)
			d->enter_funcs[call->depth] = call->func;
	}
	print_graph_duration(iter, 0, false, flags);
	print_indent(s, call->depth);
	print_graph_func_args(s, copy);
	trace_seq_puts(s, " {");
	if (retaddr) { /* a comment: "<-caller+0x1c/0x40" */
		trace_seq_puts(s, " /*");
		print_graph_retaddr(iter, retaddr);
		trace_seq_puts(s, " */");
	}
	trace_seq_putc(s, '\n');
}

static enum print_line_t print_graph_entry(struct trace_iterator *iter,
					   const struct graph_ent_copy *copy, uint32_t flags)
{
	const struct ftrace_graph_ent_entry *call = &copy->e;
	struct ftrace_graph_ret_entry ret;

	if (check_irq_entry(iter, flags, call->func, call->depth))
		return TRACE_TYPE_HANDLED;
	print_graph_prologue(iter, call->ent.pid, TRACE_GRAPH_ENT, call->func, flags);
	if (get_return_for_leaf(iter, call, &ret))
		return print_graph_entry_leaf(iter, copy, &ret, flags);
	print_graph_entry_nested(iter, copy, flags);
	return TRACE_TYPE_NO_CONSUME; /* get_return_for_leaf moved past the entry */
}

static enum print_line_t print_graph_return(struct trace_iterator *iter,
					    const struct ftrace_graph_ret_entry *trace,
					    uint32_t flags)
{
	struct fgraph_cpu_data *d = cpu_data(iter);
	struct trace_seq *s = &iter->seq;
	bool func_match = true;

	if (check_irq_return(iter, flags, trace->depth))
		return TRACE_TYPE_HANDLED;
	if (d) {
		/* Comments after a closing brace go at the brace's level. */
		d->depth = trace->depth - 1;
		if (trace->depth >= 0 && trace->depth < FTRACE_RETFUNC_DEPTH) {
			func_match = d->enter_funcs[trace->depth] == trace->func;
			d->enter_funcs[trace->depth] = 0;
		}
	}
	print_graph_prologue(iter, trace->ent.pid, 0, 0, flags);
	print_graph_duration(iter, trace->rettime - trace->calltime, true, flags);
	print_indent(s, trace->depth);
	/*
	 * Its entry is not on screen (or funcgraph-tail): say whose brace this is. With
	 * funcgraph-retval (or -retaddr, as Linux 6.13) always, with "= -2" after the name.
	 */
	if (func_match &&
	    !(flags & (TRACE_GRAPH_PRINT_TAIL | TRACE_GRAPH_PRINT_RETVAL |
		       TRACE_GRAPH_PRINT_RETADDR))) {
		trace_seq_puts(s, "}\n");
	} else {
		trace_seq_puts(s, "} /* ");
		seq_print_ip_sym(s, trace->func, SEQ_PRINT_SYM_MOD); /* %ps */
		if (flags & TRACE_GRAPH_PRINT_RETVAL)
			print_graph_retval(s, trace->retval, flags);
		trace_seq_puts(s, " */\n");
	}
	if (flags & TRACE_GRAPH_PRINT_OVERRUN)
		trace_seq_printf(s, " (Overruns: %u)\n", trace->overrun);
	print_graph_irq(iter, trace->func, TRACE_GRAPH_RET, trace->ent.pid, flags);
	return trace_handle_return(s);
}

/* --- other events, as comments -------------------------------------------------------------- */

static enum print_line_t print_graph_comment(struct trace_iterator *iter, uint32_t flags)
{
	struct fgraph_cpu_data *d = cpu_data(iter);
	struct trace_seq *s = &iter->seq;
	int type = iter->ent->type;
	struct trace_event *event = NULL;
	int depth = d ? d->depth : 0;
	enum print_line_t ret;

	if (type != TRACE_PRINT && type != TRACE_BPRINT && type != TRACE_BPUTS) {
		event = ftrace_find_event(type);
		if (!event)
			return TRACE_TYPE_UNHANDLED; /* "Unknown type", as any tracer prints it */
	}
	print_graph_prologue(iter, iter->ent->pid, 0, 0, flags);
	print_graph_duration(iter, 0, false, flags);
	/* One level deeper than the open function (Linux leaves top-level comments unindented). */
	if (depth > 0)
		print_indent(s, depth + 1);
	trace_seq_puts(s, "/* ");
	switch (type) {
	case TRACE_BPUTS:
		ret = trace_print_bputs_msg_only(iter);
		break;
	case TRACE_BPRINT:
		ret = trace_print_bprintk_msg_only(iter);
		break;
	case TRACE_PRINT:
		ret = trace_print_printk_msg_only(iter);
		break;
	default:
		ret = event->trace(iter, iter->tr->trace_flags & TRACE_ITER_SYM_MASK, event);
	}
	if (ret != TRACE_TYPE_HANDLED)
		return ret;
	if (trace_seq_has_overflowed(s))
		return TRACE_TYPE_PARTIAL_LINE;
	if (s->len && s->buffer[s->len - 1] == '\n')
		s->len--; /* the message's own newline: the comment closes on its line */
	trace_seq_puts(s, " */\n");
	return trace_handle_return(s);
}

/* --- the tracer's print_line and print_header ----------------------------------------------- */

enum print_line_t print_graph_function_flags(struct trace_iterator *iter, uint32_t flags)
{
	switch (iter->ent->type) {
	case TRACE_GRAPH_ENT: {
		/* A copy: looking at the next event may reuse the memory iter->ent points to. */
		struct graph_ent_copy saved;
		size_t size = MIN((size_t)iter->ent_size, sizeof(saved.e) + sizeof(saved.words));

		if (size < sizeof(saved.e))
			return TRACE_TYPE_UNHANDLED; /* too short to be one */
		memcpy(&saved.e, iter->ent, size);
		saved.nr_words = (unsigned int)((size - sizeof(saved.e)) / sizeof(long));
		return print_graph_entry(iter, &saved, flags);
	}
	case TRACE_GRAPH_RET:
		return print_graph_return(iter, (struct ftrace_graph_ret_entry *)iter->ent, flags);
	case TRACE_FN:
	case TRACE_STACK:
		return TRACE_TYPE_UNHANDLED; /* their usual lines, not comments */
	default:
		return print_graph_comment(iter, flags);
	}
}

void print_graph_headers_flags(struct trace_iterator *iter, uint32_t flags)
{
	char buf[HEADER_MAX];

	if (!context_info(iter))
		return; /* no columns to name */
	trace_graph_header(buf, sizeof(buf), flags);
	trace_seq_puts(&iter->seq, buf);
}
