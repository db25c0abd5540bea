/*
 * The function graph tracer's output (trace/trace_graph_output.c) on a real ring buffer: events
 * are written as the tracer writes them, then read back the three ways the kernel reads them --
 * the trace file's non-consuming iterators merged by time, trace_pipe's consuming reads, and
 * ftrace_dump's (consuming, from an oops: TRACE_FILE_DUMP) -- each with its iterator set up by
 * the kernel's own trace_iterator_init (trace/trace_reader.c), and all must print the same
 * text, byte for byte Linux's format (profile PA of ../shared/reference/ftrace-formats.md,
 * samples in linux-6.1/trace_function_graph_*.txt).
 */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "trace/trace_graph_output.h"
#include "trace/trace_graph_fmt.h"
#include "trace/trace_output.h"
#include "trace/trace_reader.h"
#include "trace/ring_buffer.h"
#include "lib/bprintf.h"
#include "tests/unit/host_kmalloc.h"
#include "tests/unit/host_syms.h"

#define NCPUS 4
#define OUT_MAX (64 * 1024)
#define US 1000ULL /* ns */

/* --- stand-ins for the kernel ---------------------------------------------------------------- */

static const struct host_sym syms[] = {
	{"ftest_outer", 0xffffffff81001000, 0x40},    {"ftest_mid", 0xffffffff81002000, 0x40},
	{"ftest_leaf", 0xffffffff81003000, 0x40},     {"timer_interrupt", 0xffffffff81004000, 0x80},
	{"scheduler_tick", 0xffffffff81005000, 0x80}, {"schedule", 0xffffffff81006000, 0x80},
};
enum { OUTER, MID, LEAF, TIMER, TICK, SCHED };
#define F(i) (syms[i].start)

size_t sprint_symbol(char *buf, size_t size, unsigned long addr, bool with_offset)
{
	return host_sprint_symbol(syms, ARRAY_SIZE(syms), buf, size, addr, with_offset);
}

/* timer_interrupt is this test's only interrupt handler (the kernel asks its vector table). */
bool ftrace_graph_is_irq_entry(unsigned long addr)
{
	return addr >= F(TIMER) && addr < F(TIMER) + syms[TIMER].size;
}

static int writer_cpu;
int ring_buffer_cpu_id(void)
{
	return writer_cpu;
}

static uint64_t now;
static uint64_t fake_clock(void)
{
	return now;
}

/* What trace_iterator_init reads of the kernel: a nanosecond clock, the CPUs online. */
const struct trace_clock trace_clocks[] = {{"local", fake_clock, true}};

int tracing_num_online_cpus(void)
{
	return NCPUS;
}

/* --- writing events as trace/trace_functions_graph.c does ------------------------------------ */

static struct ring_buffer *rb;
static struct trace_array tr;
static uint32_t flags;

static void *reserve(int cpu, uint64_t ts, unsigned long len, unsigned short type, int pid)
{
	struct trace_entry *ent;

	writer_cpu = cpu;
	now = ts;
	ent = ring_buffer_event_data(ring_buffer_lock_reserve(rb, len));
	memset(ent, 0, len);
	ent->type = type;
	ent->pid = pid;
	return ent;
}

static void ent(int cpu, int pid, uint64_t ts, int f, int depth)
{
	struct ftrace_graph_ent_entry *e = reserve(cpu, ts, sizeof(*e), TRACE_GRAPH_ENT, pid);

	e->func = F(f);
	e->depth = depth;
	ring_buffer_unlock_commit(rb);
}

static void ret(int cpu, int pid, uint64_t ts, int f, int depth, uint64_t calltime)
{
	struct ftrace_graph_ret_entry *r = reserve(cpu, ts, sizeof(*r), TRACE_GRAPH_RET, pid);

	r->func = F(f);
	r->depth = depth;
	r->overrun = 7;
	r->calltime = calltime;
	r->rettime = ts;
	ring_buffer_unlock_commit(rb);
}

/* An entry with n more words (funcgraph-args, funcgraph-retaddr: trace/trace_entries.h). */
static void ent_words(int cpu, int pid, uint64_t ts, int f, int depth, const unsigned long *w,
		      size_t n)
{
	struct ftrace_graph_ent_entry *e =
		reserve(cpu, ts, sizeof(*e) + n * sizeof(long), TRACE_GRAPH_ENT, pid);

	e->func = F(f);
	e->depth = depth;
	memcpy(e->args, w, n * sizeof(long));
	ring_buffer_unlock_commit(rb);
}

/* A return of f with retval. */
static void ret_val(int cpu, int pid, uint64_t ts, int f, int depth, uint64_t calltime,
		    unsigned long retval)
{
	struct ftrace_graph_ret_entry *r = reserve(cpu, ts, sizeof(*r), TRACE_GRAPH_RET, pid);

	r->func = F(f);
	r->retval = retval;
	r->depth = depth;
	r->calltime = calltime;
	r->rettime = ts;
	ring_buffer_unlock_commit(rb);
}

/* A call of f that lasts dur ns: its entry at t, its return at t + dur. */
static void leaf(int cpu, int pid, uint64_t t, int f, int depth, uint64_t dur)
{
	ent(cpu, pid, t, f, depth);
	ret(cpu, pid, t + dur, f, depth, t);
}

static void print_event(int cpu, int pid, uint64_t ts, const char *text)
{
	size_t len = strlen(text) + 1;
	struct print_entry *p = reserve(cpu, ts, sizeof(*p) + len, TRACE_PRINT, pid);

	memcpy(p->buf, text, len);
	ring_buffer_unlock_commit(rb);
}

static const char bprint_fmt[] = "read foo %d out of bar %s\n";

static void bprint_event(int cpu, int pid, uint64_t ts, ...)
{
	uint32_t words[16];
	va_list ap;
	int n;
	struct bprint_entry *b;

	va_start(ap, ts);
	n = vbin_printf(words, ARRAY_SIZE(words), bprint_fmt, ap);
	va_end(ap);
	b = reserve(cpu, ts, sizeof(*b) + (size_t)n * sizeof(uint32_t), TRACE_BPRINT, pid);
	b->fmt = bprint_fmt;
	memcpy(b->buf, words, (size_t)n * sizeof(uint32_t));
	ring_buffer_unlock_commit(rb);
}

/* --- reading as trace/trace_iter.c does ------------------------------------------------------ */

static enum print_line_t print_line(struct trace_iterator *iter)
{
	return print_graph_function_flags(iter, flags);
}

static void print_header(struct trace_iterator *iter)
{
	print_graph_headers_flags(iter, flags);
}

static struct tracer graph = {.name = "function_graph",
			      .open = graph_trace_open,
			      .close = graph_trace_close,
			      .print_header = print_header,
			      .print_line = print_line};
static char out[OUT_MAX];

static void append(struct trace_iterator *iter)
{
	size_t len = strlen(out);

	assert_true(len + iter->seq.len < sizeof(out));
	memcpy(out + len, iter->seq.buffer, iter->seq.len);
	out[len + iter->seq.len] = '\0';
}

/* As each reader of the kernel sets its iterator up: the same function for all. */
static struct trace_iterator *new_iter(unsigned int iter_flags)
{
	struct trace_iterator *iter = calloc(1, sizeof(*iter));

	trace_iterator_init(iter, &tr, rb, RING_BUFFER_ALL_CPUS, iter_flags);
	assert_ptr_equal(iter->buffer, rb);
	assert_ptr_equal(iter->trace, &graph);
	assert_true(iter->iter_flags & TRACE_FILE_TIME_IN_NS);
	assert_non_null(iter->private); /* the tracer's open() ran */
	return iter;
}

static void free_iter(struct trace_iterator *iter)
{
	trace_iterator_release(iter);
	assert_null(iter->private);
	free(iter);
}

/* The trace file: an iterator per CPU, the oldest event first; the buffer stays as it was. */
static const char *read_trace(void)
{
	struct trace_iterator *iter = new_iter(0);
	struct ring_buffer_event *event;

	out[0] = '\0';
	for (int cpu = 0; cpu < NCPUS; cpu++) {
		iter->buffer_iter[cpu] = ring_buffer_read_prepare(rb, cpu);
		ring_buffer_read_start(iter->buffer_iter[cpu]);
	}
	while ((event = ring_buffer_iter_peek_oldest(iter->buffer_iter, NCPUS, &iter->cpu,
						     &iter->ts))) {
		iter->ent = ring_buffer_event_data(event);
		iter->ent_size = ring_buffer_event_length(event);
		trace_seq_init(&iter->seq);
		if (print_trace_line(iter) != TRACE_TYPE_NO_CONSUME)
			ring_buffer_iter_advance(iter->buffer_iter[iter->cpu]);
		append(iter);
	}
	for (int cpu = 0; cpu < NCPUS; cpu++)
		ring_buffer_read_finish(iter->buffer_iter[cpu]);
	free_iter(iter);
	return out;
}

/*
 * trace_pipe (iter_flags 0) and ftrace_dump (TRACE_FILE_LAT_FMT | TRACE_FILE_DUMP): consume,
 * through the kernel's trace_peek_next_event and trace_consume_line.
 */
static const char *read_consuming(unsigned int iter_flags)
{
	struct trace_iterator *iter = new_iter(iter_flags);

	out[0] = '\0';
	while (trace_peek_next_event(iter)) {
		trace_seq_init(&iter->seq);
		trace_consume_line(iter);
		append(iter);
	}
	free_iter(iter);
	return out;
}

/* --- the same events again, for the next consuming reader ------------------------------------ */

#define SAVED_MAX 256

static struct saved_event {
	int cpu;
	uint64_t ts;
	unsigned int len;
	unsigned char data[BUF_MAX_DATA_SIZE];
} saved[SAVED_MAX];
static int nr_saved;

/* Every event in the buffer, in the order of time, as it was written. */
static void save_events(void)
{
	struct ring_buffer_iter *iters[NCPUS];
	struct ring_buffer_event *event;
	struct saved_event *e;

	for (int cpu = 0; cpu < NCPUS; cpu++) {
		iters[cpu] = ring_buffer_read_prepare(rb, cpu);
		ring_buffer_read_start(iters[cpu]);
	}
	for (nr_saved = 0;; nr_saved++) {
		assert_true(nr_saved < SAVED_MAX);
		e = &saved[nr_saved];
		event = ring_buffer_iter_peek_oldest(iters, NCPUS, &e->cpu, &e->ts);
		if (!event)
			break;
		e->len = ring_buffer_event_length(event);
		memcpy(e->data, ring_buffer_event_data(event), e->len);
		ring_buffer_iter_advance(iters[e->cpu]);
	}
	for (int cpu = 0; cpu < NCPUS; cpu++)
		ring_buffer_read_finish(iters[cpu]);
}

static void restore_events(void)
{
	for (int i = 0; i < nr_saved; i++) {
		writer_cpu = saved[i].cpu;
		now = saved[i].ts;
		memcpy(ring_buffer_event_data(ring_buffer_lock_reserve(rb, saved[i].len)),
		       saved[i].data, saved[i].len);
		ring_buffer_unlock_commit(rb);
	}
}

/* Every reader prints want; the consuming ones empty the buffer. */
static void output_is(const char *want)
{
	assert_string_equal(read_trace(), want);
	assert_string_equal(read_trace(), want); /* reading the trace changes nothing */
	save_events();
	assert_string_equal(read_consuming(0), want); /* trace_pipe */
	assert_true(ring_buffer_empty(rb));
	restore_events();
	assert_string_equal(read_trace(), want);
	/* ftrace_dump: the same lines (function_graph has no latency format of its own) */
	assert_string_equal(read_consuming(TRACE_FILE_LAT_FMT | TRACE_FILE_DUMP), want);
	assert_true(ring_buffer_empty(rb));
}

#define DEFAULT_FLAGS                                                                      \
	(TRACE_GRAPH_PRINT_CPU | TRACE_GRAPH_PRINT_OVERHEAD | TRACE_GRAPH_PRINT_DURATION | \
	 TRACE_GRAPH_PRINT_IRQS | TRACE_GRAPH_SLEEP_TIME | TRACE_GRAPH_GRAPH_TIME)

static int setup(void **state)
{
	(void)state;
	rb = ring_buffer_alloc(64 * BUF_PAGE_SIZE, RB_FL_OVERWRITE, NCPUS);
	ring_buffer_set_clock(rb, fake_clock);
	memset(&tr, 0, sizeof(tr));
	tr.buffer = rb;
	tr.nr_cpus = NCPUS;
	tr.current_trace = &graph;
	tr.trace_flags = TRACE_ITER_CONTEXT_INFO | TRACE_ITER_PRINT_PARENT | TRACE_ITER_IRQ_INFO;
	flags = DEFAULT_FLAGS;
	trace_save_cmdline(8, "ftest");
	trace_save_cmdline(1, "sh");
	trace_save_cmdline(93, "sh");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ring_buffer_free(rb);
	return 0;
}

/* ftest_outer -> ftest_mid -> ftest_leaf, as `ftest call` does once. */
static void ftest_call(int cpu, int pid, uint64_t t)
{
	ent(cpu, pid, t, OUTER, 0);
	ent(cpu, pid, t + 1000, MID, 1);
	leaf(cpu, pid, t + 2000, LEAF, 2, 1382);
	ret(cpu, pid, t + 4000, MID, 1, t + 1000);
	ret(cpu, pid, t + 5000, OUTER, 0, t);
}

static const char ftest_call_text[] = " 1)               |  ftest_outer() {\n"
				      " 1)               |    ftest_mid() {\n"
				      " 1)   1.382 us    |      ftest_leaf();\n"
				      " 1)   3.000 us    |    }\n"
				      " 1)   5.000 us    |  }\n";

/* --- tests ----------------------------------------------------------------------------------- */

static void test_nesting_and_leaves(void **state)
{
	(void)state;
	ftest_call(1, 8, 100 * US);
	output_is(ftest_call_text);
}

static void test_header(void **state)
{
	(void)state;
	struct trace_iterator *iter = new_iter(0);

	trace_print_header(iter);
	iter->seq.buffer[iter->seq.len] = '\0';
	assert_string_equal(iter->seq.buffer, "# tracer: function_graph\n"
					      "#\n"
					      "# CPU  DURATION                  FUNCTION CALLS\n"
					      "# |     |   |                     |   |   |   |\n");
	free_iter(iter);
}

static void test_marks(void **state)
{
	(void)state;
	/* ftest delay 150 and 1100, and Linux's samples */
	leaf(0, 8, 1000 * US, LEAF, 0, 150 * US + 3);
	leaf(0, 8, 2000 * US, LEAF, 0, 1100 * US + 200);
	ent(0, 8, 5000 * US, OUTER, 0);
	leaf(0, 8, 5001 * US, LEAF, 1, 14237);
	ret(0, 8, 5000 * US + 33998590, OUTER, 0, 5000 * US);
	output_is(" 0) ! 150.003 us  |  ftest_leaf();\n"
		  " 0) # 1100.200 us |  ftest_leaf();\n"
		  " 0)               |  ftest_outer() {\n"
		  " 0) + 14.237 us   |    ftest_leaf();\n"
		  " 0) * 33998.59 us |  }\n");
}

/* Two CPUs' events interleave in time; a leaf's return is the next event of its own CPU. */
static void test_cpus_interleaved(void **state)
{
	(void)state;
	ent(0, 8, 100, OUTER, 0);
	ent(1, 1, 150, SCHED, 0);
	ent(0, 8, 200, LEAF, 1);
	ret(1, 1, 250, SCHED, 0, 150);
	ret(0, 8, 300, LEAF, 1, 200);
	ret(0, 8, 400, OUTER, 0, 100);
	output_is(" 0)               |  ftest_outer() {\n"
		  " 1)   0.100 us    |  schedule();\n"
		  " 0)   0.100 us    |    ftest_leaf();\n"
		  " 0)   0.300 us    |  }\n");
}

/*
 * A task switch between an entry and its return: the other task's events come between, so the
 * entry is not a leaf, and a banner says who ran.
 */
static void test_task_switch_banner(void **state)
{
	(void)state;
	ent(0, 8, 100, SCHED, 0);
	ent(0, 1, 200, LEAF, 3);
	ret(0, 1, 300, SCHED, 2, 50);
	ret(0, 8, 400, SCHED, 0, 100);
	/* The brace of pid 1's return at depth 2 has no entry on screen: it names its function. */
	output_is(" 0)               |  schedule() {\n"
		  " ------------------------------------------\n"
		  " 0)    ftest-8     =>      sh-1     \n"
		  " ------------------------------------------\n"
		  "\n"
		  " 0)               |        ftest_leaf() {\n"
		  " 0)   0.250 us    |      } /* schedule */\n"
		  " ------------------------------------------\n"
		  " 0)      sh-1      =>    ftest-8    \n"
		  " ------------------------------------------\n"
		  "\n"
		  " 0)   0.300 us    |  }\n");
}

static void test_return_without_entry_and_tail(void **state)
{
	(void)state;
	/* tracing_thresh records only returns */
	ret(2, 8, 5000, MID, 1, 1000);
	ret(2, 8, 9000, OUTER, 0, 0);
	output_is(" 2)   4.000 us    |    } /* ftest_mid */\n"
		  " 2)   9.000 us    |  } /* ftest_outer */\n");
	flags |= TRACE_GRAPH_PRINT_TAIL;
	ftest_call(1, 8, 100 * US);
	output_is(" 1)               |  ftest_outer() {\n"
		  " 1)               |    ftest_mid() {\n"
		  " 1)   1.382 us    |      ftest_leaf();\n"
		  " 1)   3.000 us    |    } /* ftest_mid */\n"
		  " 1)   5.000 us    |  } /* ftest_outer */\n");
}

/* An interrupt inside ftest_mid: one level deeper, between arrows. */
static void interrupted_call(void)
{
	ent(3, 8, 1000, OUTER, 0);
	ent(3, 8, 2000, MID, 1);
	ent(3, 8, 3000, TIMER, 2);
	leaf(3, 8, 4000, TICK, 3, 500);
	ret(3, 8, 6000, TIMER, 2, 3000);
	leaf(3, 8, 7000, LEAF, 2, 100);
	ret(3, 8, 8000, MID, 1, 2000);
	ret(3, 8, 9000, OUTER, 0, 1000);
	leaf(3, 8, 10000, TIMER, 0, 100); /* and one with nothing traced inside */
}

static void test_irq_arrows(void **state)
{
	(void)state;
	interrupted_call();
	output_is(" 3)               |  ftest_outer() {\n"
		  " 3)               |    ftest_mid() {\n"
		  " 3)   ==========> |\n"
		  " 3)               |      timer_interrupt() {\n"
		  " 3)   0.500 us    |        scheduler_tick();\n"
		  " 3)   3.000 us    |      }\n"
		  " 3)   <========== |\n"
		  " 3)   0.100 us    |      ftest_leaf();\n"
		  " 3)   6.000 us    |    }\n"
		  " 3)   8.000 us    |  }\n"
		  " 3)   ==========> |\n"
		  " 3)   0.100 us    |  timer_interrupt();\n"
		  " 3)   <========== |\n");
}

/* funcgraph-irqs off: what was recorded of interrupts is hidden, down to the handler's return. */
static void test_irqs_hidden(void **state)
{
	(void)state;
	flags &= ~TRACE_GRAPH_PRINT_IRQS;
	interrupted_call();
	output_is(" 3)               |  ftest_outer() {\n"
		  " 3)               |    ftest_mid() {\n"
		  " 3)   0.100 us    |      ftest_leaf();\n"
		  " 3)   6.000 us    |    }\n"
		  " 3)   8.000 us    |  }\n");
}

static void test_columns(void **state)
{
	(void)state;
	/* linux-6.1/trace_function_graph_vfs_write_proc_abstime.txt's first line and leaf */
	tr.nr_cpus = 2;
	flags |= TRACE_GRAPH_PRINT_PROC | TRACE_GRAPH_PRINT_ABS_TIME;
	ent(0, 93, 56622374000ULL, OUTER, 0);
	leaf(0, 93, 56622404000ULL, LEAF, 4, 2884);
	output_is("   56.622374 |   0)     sh-93      |               |  ftest_outer() {\n"
		  "   56.622404 |   0)     sh-93      |   2.884 us    |          ftest_leaf();\n");
	/* funcgraph-cpu, -duration off; -overhead off keeps the duration, drops the mark */
	flags = TRACE_GRAPH_PRINT_IRQS;
	ftest_call(1, 8, 100 * US);
	output_is("ftest_outer() {\n"
		  "  ftest_mid() {\n"
		  "    ftest_leaf();\n"
		  "  }\n"
		  "}\n");
	flags = TRACE_GRAPH_PRINT_DURATION;
	leaf(0, 8, 0, LEAF, 0, 14237);
	output_is("  14.237 us   |  ftest_leaf();\n");
	flags = DEFAULT_FLAGS | TRACE_GRAPH_PRINT_OVERRUN;
	leaf(0, 8, 0, LEAF, 0, 14237);
	ret(0, 8, 20000, OUTER, 0, 0);
	output_is(" 0) + 14.237 us   |  ftest_leaf();\n"
		  " 0) + 20.000 us   |  } /* ftest_outer */\n"
		  " (Overruns: 7)\n");
	/* context-info off: no columns at all, and no header */
	tr.trace_flags &= ~TRACE_ITER_CONTEXT_INFO;
	flags = DEFAULT_FLAGS;
	ftest_call(1, 8, 100 * US);
	output_is("ftest_outer() {\n"
		  "  ftest_mid() {\n"
		  "    ftest_leaf();\n"
		  "  }\n"
		  "}\n");
}

/* trace_printk and trace_marker messages: comments one level deeper than the open function. */
static void test_comments(void **state)
{
	(void)state;
	ent(0, 8, 1000, OUTER, 0);
	print_event(0, 8, 1100, "at depth 0\n");
	ent(0, 8, 2000, MID, 1);
	bprint_event(0, 8, 2100, 10, "bar");
	leaf(0, 8, 3000, LEAF, 2, 100);
	print_event(0, 8, 3200, "after the leaf");
	ret(0, 8, 4000, MID, 1, 2000);
	ret(0, 8, 5000, OUTER, 0, 1000);
	print_event(0, 8, 6000, "top\n");
	output_is(" 0)               |  ftest_outer() {\n"
		  " 0)               |  /* at depth 0 */\n"
		  " 0)               |    ftest_mid() {\n"
		  " 0)               |      /* read foo 10 out of bar bar */\n"
		  " 0)   0.100 us    |      ftest_leaf();\n"
		  " 0)               |      /* after the leaf */\n"
		  " 0)   2.000 us    |    }\n"
		  " 0)   4.000 us    |  }\n"
		  " 0)               |  /* top */\n");
}

/* The next event of the CPU is a return, but another task's or another function's. */
static void test_not_a_leaf(void **state)
{
	(void)state;
	ent(0, 8, 1000, LEAF, 0);
	ret(0, 8, 2000, MID, 0, 500);
	output_is(" 0)               |  ftest_leaf() {\n"
		  " 0)   1.500 us    |  } /* ftest_mid */\n");
	ent(0, 8, 1000, LEAF, 0);
	ret(0, 1, 2000, LEAF, 0, 500);
	output_is(" 0)               |  ftest_leaf() {\n"
		  " ------------------------------------------\n"
		  " 0)    ftest-8     =>      sh-1     \n"
		  " ------------------------------------------\n"
		  "\n"
		  " 0)   1.500 us    |  }\n");
	/* the last event of the buffer: its return has not happened yet */
	ent(0, 8, 1000, LEAF, 0);
	output_is(" 0)               |  ftest_leaf() {\n");
}

/*
 * funcgraph-retval: Linux 6.5's lines and its rule for decimal (an error, -4095..-1, as a long
 * or as an int with RAX's upper half zero) and hex (the rest, or everything with -hex).
 */
static void test_return_values(void **state)
{
	(void)state;
	static const struct {
		unsigned long retval;
		const char *dec, *hex;
	} values[] = {
		{0, "0x0", "0x0"},
		{4, "0x4", "0x4"},
		{0xfffffffeUL, "-2", "0xfffffffe"},                 /* int -ENOENT */
		{-2UL, "-2", "0xfffffffffffffffe"},                 /* long -ENOENT */
		{0xfffff001UL, "-4095", "0xfffff001"},              /* -MAX_ERRNO */
		{0xfffff000UL, "0xfffff000", "0xfffff000"},         /* -4096: not an error */
		{-4096UL, "0xfffffffffffff000", "0xfffffffffffff000"},
		{0x80000000UL, "0x80000000", "0x80000000"},         /* an int's minimum */
		{0xffff888000001000UL, "0xffff888000001000", "0xffff888000001000"}, /* pointer */
		{0x1fffffffeUL, "0x1fffffffe", "0x1fffffffe"}, /* upper half not zero: not an int */
	};
	char want[512];

	for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
		for (int hex = 0; hex < 2; hex++) {
			const char *v = hex ? values[i].hex : values[i].dec;

			flags = DEFAULT_FLAGS | TRACE_GRAPH_PRINT_RETVAL |
				(hex ? TRACE_GRAPH_PRINT_RETVAL_HEX : 0);
			ent(0, 8, 1000, OUTER, 0);
			ent(0, 8, 1100, LEAF, 1);
			ret_val(0, 8, 1600, LEAF, 1, 1100, values[i].retval);
			ret_val(0, 8, 2000, OUTER, 0, 1000, values[i].retval);
			snprintf(want, sizeof(want),
				 " 0)               |  ftest_outer() {\n"
				 " 0)   0.500 us    |    ftest_leaf(); /* = %s */\n"
				 " 0)   1.000 us    |  } /* ftest_outer = %s */\n",
				 v, v);
			output_is(want);
		}
	}
	/* funcgraph-retval-hex alone prints no value: Linux's lines of 6.1. */
	flags = DEFAULT_FLAGS | TRACE_GRAPH_PRINT_RETVAL_HEX;
	leaf(0, 8, 1000, LEAF, 0, 500);
	output_is(" 0)   0.500 us    |  ftest_leaf();\n");
}

/*
 * The words an entry carries, by its length: one is the return address (funcgraph-retaddr),
 * six the argument registers (printed "()" here: a host test has no table of parameters),
 * seven both. The return address prints only with the option, as %pS.
 */
static void test_entry_words(void **state)
{
	(void)state;
	const unsigned long at_mid = F(MID) + 0x12, regs[7] = {1, 2, 3, 4, 5, 6, F(OUTER) + 0x11};

	flags = DEFAULT_FLAGS | TRACE_GRAPH_PRINT_RETADDR | TRACE_GRAPH_PRINT_RETVAL;
	ent_words(0, 8, 1000, OUTER, 0, &regs[6], 1);
	ent_words(0, 8, 1100, LEAF, 1, &at_mid, 1);
	ret_val(0, 8, 1600, LEAF, 1, 1100, 4);
	ret_val(0, 8, 2000, OUTER, 0, 1000, 7);
	output_is(" 0)               |  ftest_outer() { /* <-ftest_outer+0x11/0x40 */\n"
		  " 0)   0.500 us    |    ftest_leaf(); /* <-ftest_mid+0x12/0x40 = 0x4 */\n"
		  " 0)   1.000 us    |  } /* ftest_outer = 0x7 */\n");
	/* Six words: arguments, no address; seven: both. */
	flags = DEFAULT_FLAGS | TRACE_GRAPH_PRINT_RETADDR;
	ent_words(0, 8, 1000, OUTER, 0, regs, 6);
	ent_words(0, 8, 1100, LEAF, 1, regs, 7);
	ret_val(0, 8, 1600, LEAF, 1, 1100, 4);
	ret_val(0, 8, 2000, OUTER, 0, 1000, 7);
	output_is(" 0)               |  ftest_outer() {\n"
		  " 0)   0.500 us    |    ftest_leaf(); /* <-ftest_outer+0x11/0x40 */\n"
		  " 0)   1.000 us    |  } /* ftest_outer */\n");
	/* Without the option the recorded address is not shown. */
	flags = DEFAULT_FLAGS;
	ent_words(0, 8, 1000, LEAF, 0, &at_mid, 1);
	ret_val(0, 8, 1500, LEAF, 0, 1000, 4);
	output_is(" 0)   0.500 us    |  ftest_leaf();\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nesting_and_leaves, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header, setup, teardown),
		cmocka_unit_test_setup_teardown(test_marks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpus_interleaved, setup, teardown),
		cmocka_unit_test_setup_teardown(test_task_switch_banner, setup, teardown),
		cmocka_unit_test_setup_teardown(test_return_without_entry_and_tail, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_irq_arrows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_irqs_hidden, setup, teardown),
		cmocka_unit_test_setup_teardown(test_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comments, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_a_leaf, setup, teardown),
		cmocka_unit_test_setup_teardown(test_return_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_entry_words, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
