/*
 * The trace file's header and lines, byte for byte against profile PA of
 * ../shared/reference/ftrace-formats.md (the samples there come from Linux's ftrace.rst), and
 * the pid -> comm cache that fills the TASK column.
 */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "trace/trace_output.h"
#include "lib/printf.h"
#include "lib/errno.h"
#include "tests/unit/host_kmalloc.h"
#include "lib/bprintf.h"
#include "tests/unit/host_syms.h"

/* --- stand-ins for the kernel ---------------------------------------------------------------- */

/* A tiny symbol table: the functions the reference samples name. */
static const struct host_sym syms[] = {
	{"mutex_unlock", 0xffffffff81001000, 0x40},
	{"rb_simple_write", 0xffffffff81002000, 0x100},
	{"hrtimer_interrupt", 0xffffffff81003000, 0x200},
	{"smp_apic_timer_interrupt", 0xffffffff81004000, 0x80},
	{"simple_strtoul", 0xffffffff81005000, 0xa0},
	{"kstrtoul", 0xffffffff81006000, 0x30},
	{"ttwu_do_activate.constprop.89", 0xffffffff81007000, 0x60},
	{"try_to_wake_up", 0xffffffff81008000, 0x300},
	{"vfs_read", 0xffffffff81009000, 0x120},
	{"ksys_read", 0xffffffff8100a000, 0x90},
	{"foo_init", 0xffffffff8100b000, 0x50},
	{"tracing_mark_write", 0xffffffff8100c000, 0x120},
};

/* A module's functions: kernel/kallsyms.c's sprint_symbol puts " [foo]" after them. */
static const struct host_sym mod_syms[] = {
	{"howdy_init", 0xffffffffc0000010, 0x40},
};

size_t sprint_symbol(char *buf, size_t size, unsigned long addr, bool with_offset)
{
	size_t n = host_sprint_symbol(mod_syms, ARRAY_SIZE(mod_syms), buf, size, addr, with_offset);

	if (n)
		return n + (size_t)snprintf(buf + n, size - n, " [howdy]");
	return host_sprint_symbol(syms, ARRAY_SIZE(syms), buf, size, addr, with_offset);
}

#define SYM(i) (syms[i].start)

/* --- fixtures -------------------------------------------------------------------------------- */

static struct tracer function_tracer = {.name = "function"};
static struct tracer nop_tracer = {.name = "nop"};
static struct trace_array tr;
static struct trace_iterator iter;
static union {
	struct ftrace_entry fn;
	struct stack_entry stack;
	struct bprint_entry bprint;
	struct print_entry print;
	struct bputs_entry bputs;
	struct raw_data_entry raw;
	char bytes[256];
} ev;

#define DEFAULT_FLAGS                                                             \
	(TRACE_ITER_PRINT_PARENT | TRACE_ITER_PRINTK | TRACE_ITER_ANNOTATE |      \
	 TRACE_ITER_CONTEXT_INFO | TRACE_ITER_RECORD_CMD | TRACE_ITER_OVERWRITE | \
	 TRACE_ITER_IRQ_INFO | TRACE_ITER_MARKERS)

static int setup(void **state)
{
	(void)state;
	memset(&tr, 0, sizeof(tr));
	memset(&iter, 0, sizeof(iter));
	memset(&ev, 0, sizeof(ev));
	tr.trace_flags = DEFAULT_FLAGS;
	iter.tr = &tr;
	iter.trace = &function_tracer;
	iter.iter_flags = TRACE_FILE_TIME_IN_NS;
	iter.ent = &ev.fn.ent;
	iter.ent_size = sizeof(ev.fn);
	iter.idx = 1;
	trace_seq_init(&iter.seq);
	trace_save_cmdline(1994, "bash");
	trace_save_cmdline(2665, "usleep");
	return 0;
}

static const char *text(void)
{
	iter.seq.buffer[iter.seq.len] = '\0';
	return iter.seq.buffer;
}

static void fn_event(int pid, int cpu, uint64_t ts_ns, unsigned long ip, unsigned long parent,
		     unsigned char flags, unsigned char pc)
{
	ev.fn.ent.type = TRACE_FN;
	ev.fn.ent.pid = pid;
	ev.fn.ent.flags = flags;
	ev.fn.ent.preempt_count = pc;
	ev.fn.ip = ip;
	ev.fn.parent_ip = parent;
	iter.cpu = cpu;
	iter.ts = ts_ns;
	trace_seq_init(&iter.seq);
}

static void line_is(const char *want)
{
	assert_int_equal(print_trace_line(&iter), TRACE_TYPE_HANDLED);
	assert_string_equal(text(), want);
}

/* --- headers --------------------------------------------------------------------------------- */

static void test_header_irq_info(void **state)
{
	(void)state;
	iter.entries = 140080;
	iter.total = 250280;
	iter.cpus_online = 4;
	trace_print_header(&iter);
	assert_string_equal(text(), "# tracer: function\n"
				    "#\n"
				    "# entries-in-buffer/entries-written: 140080/250280   #P:4\n"
				    "#\n"
				    "#                              _-----=> irqs-off\n"
				    "#                             / _----=> need-resched\n"
				    "#                            | / _---=> hardirq/softirq\n"
				    "#                            || / _--=> preempt-depth\n"
				    "#                            ||| /     delay\n"
				    "#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
				    "#              | |       |   ||||       |         |\n");
}

static void test_header_nop_empty(void **state)
{
	(void)state;
	iter.trace = &nop_tracer;
	iter.cpus_online = 4;
	trace_print_header(&iter);
	const char *want = "# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:4\n#\n";

	assert_true(strncmp(text(), want, strlen(want)) == 0);
}

static void test_header_noirq_info(void **state)
{
	(void)state;
	tr.trace_flags &= ~TRACE_ITER_IRQ_INFO;
	iter.entries = 144405;
	iter.total = 9452052;
	iter.cpus_online = 4;
	trace_print_header(&iter);
	assert_string_equal(text(), "# tracer: function\n"
				    "#\n"
				    "# entries-in-buffer/entries-written: 144405/9452052   #P:4\n"
				    "#\n"
				    "#           TASK-PID   CPU#      TIMESTAMP  FUNCTION\n"
				    "#              | |       |          |         |\n");
}

static void test_header_no_context_info(void **state)
{
	(void)state;
	tr.trace_flags &= ~TRACE_ITER_CONTEXT_INFO;
	trace_print_header(&iter);
	assert_string_equal(text(), "# tracer: function\n#\n");
}

static void custom_header(struct trace_iterator *it)
{
	trace_seq_puts(&it->seq, "# CPU  DURATION\n");
}

static void test_header_from_tracer(void **state)
{
	(void)state;
	struct tracer t = {.name = "function_graph", .print_header = custom_header};
	iter.trace = &t;
	trace_print_header(&iter);
	assert_string_equal(text(), "# tracer: function_graph\n#\n# CPU  DURATION\n");
}

/* --- function lines -------------------------------------------------------------------------- */

static void test_function_line_ftrace_rst(void **state)
{
	(void)state;
	/* 3082.0630296 s rounds to the microsecond above, as Linux's ns2usecs does */
	fn_event(1994, 2, 3082063029600ULL, SYM(0), SYM(1) + 0x3c, 0, 0);
	line_is("            bash-1994  [002] ....  3082.063030: mutex_unlock <-rb_simple_write\n");
}

/*
 * A module's function: the bare name, as Linux's seq_print_sym prints it (kallsyms_lookup); with
 * sym-offset, sprint_symbol's "name+0x../0x.. [howdy]"; as the graph's %ps, "name [howdy]".
 */
static void test_function_line_module(void **state)
{
	(void)state;
	fn_event(12, 0, 123456789000ULL, mod_syms[0].start, SYM(10) + 0x1c, 0, 0);
	line_is("          insmod-12    [000] ....   123.456789: howdy_init <-foo_init\n");
	iter.tr->trace_flags |= TRACE_ITER_SYM_OFFSET;
	fn_event(12, 0, 123456789000ULL, mod_syms[0].start + 4, SYM(10) + 0x1c, 0, 0);
	line_is("          insmod-12    [000] ....   123.456789: "
		"howdy_init+0x4/0x40 [howdy] <-foo_init+0x1c/0x50\n");
	iter.tr->trace_flags &= ~TRACE_ITER_SYM_OFFSET;
	trace_seq_init(&iter.seq);
	seq_print_ip_sym(&iter.seq, mod_syms[0].start, SEQ_PRINT_SYM_MOD);
	seq_print_ip_sym(&iter.seq, SYM(10), SEQ_PRINT_SYM_MOD);
	iter.seq.buffer[iter.seq.len] = '\0';
	assert_string_equal(iter.seq.buffer, "howdy_init [howdy]foo_init");
}

static void test_function_line_idle_hardirq(void **state)
{
	(void)state;
	fn_event(0, 1, 4186475409000ULL, SYM(2), SYM(3) + 0x10,
		 TRACE_FLAG_IRQS_OFF | TRACE_FLAG_HARDIRQ, 1);
	line_is("          <idle>-0     [001] d.h1  4186.475409: "
		"hrtimer_interrupt <-smp_apic_timer_interrupt\n");
	fn_event(2665, 1, 4186475355000ULL, SYM(2), SYM(3), 0, 0);
	line_is("          usleep-2665  [001] ....  4186.475355: "
		"hrtimer_interrupt <-smp_apic_timer_interrupt\n");
}

static void test_function_line_noirq_info(void **state)
{
	(void)state;
	tr.trace_flags &= ~TRACE_ITER_IRQ_INFO;
	fn_event(0, 2, 23636756054000ULL, SYM(6), SYM(7) + 5, TRACE_FLAG_IRQS_OFF, 2);
	line_is("          <idle>-0     [002]  23636.756054: "
		"ttwu_do_activate.constprop.89 <-try_to_wake_up\n");
}

static void test_print_parent_and_sym_flags(void **state)
{
	(void)state;
	fn_event(1994, 1, 1477606694000ULL, SYM(4), SYM(5) + 0x10, 0, 0);
	line_is("            bash-1994  [001] ....  1477.606694: simple_strtoul <-kstrtoul\n");

	tr.trace_flags &= ~TRACE_ITER_PRINT_PARENT;
	fn_event(1994, 1, 1477606694000ULL, SYM(4), SYM(5) + 0x10, 0, 0);
	line_is("            bash-1994  [001] ....  1477.606694: simple_strtoul\n");

	tr.trace_flags |= TRACE_ITER_SYM_OFFSET;
	fn_event(1994, 1, 1477606694000ULL, SYM(4) + 6, SYM(5) + 0x10, 0, 0);
	line_is("            bash-1994  [001] ....  1477.606694: simple_strtoul+0x6/0xa0\n");

	tr.trace_flags = (tr.trace_flags & ~TRACE_ITER_SYM_OFFSET) | TRACE_ITER_SYM_ADDR;
	fn_event(1994, 1, 1477606694000ULL, SYM(4), 0, 0, 0);
	line_is("            bash-1994  [001] ....  1477.606694: "
		"simple_strtoul <ffffffff81005000>\n");

	tr.trace_flags |= TRACE_ITER_PRINT_PARENT | TRACE_ITER_SYM_OFFSET;
	fn_event(1994, 1, 1477606694000ULL, SYM(4) + 6, SYM(5) + 0x10, 0, 0);
	line_is("            bash-1994  [001] ....  1477.606694: "
		"simple_strtoul+0x6/0xa0 <ffffffff81005006> "
		"<-kstrtoul+0x10/0x30 <ffffffff81006010>\n");
}

static void test_parent_zero_and_unknown_symbol(void **state)
{
	(void)state;
	fn_event(1994, 0, 1000000, SYM(0), 0, 0, 0);
	line_is("            bash-1994  [000] ....     0.001000: mutex_unlock\n");
	fn_event(1994, 0, 1000000, 0x1234, SYM(0), 0, 0);
	line_is("            bash-1994  [000] ....     0.001000: 0x00001234 <-mutex_unlock\n");
	fn_event(1994, 0, 1000000, 0, SYM(0), 0, 0);
	line_is("            bash-1994  [000] ....     0.001000: 0 <-mutex_unlock\n");
}

static void test_unknown_and_long_comm(void **state)
{
	(void)state;
	fn_event(4242, 3, 5000000000ULL, SYM(0), SYM(1), 0, 0);
	line_is("           <...>-4242  [003] ....     5.000000: mutex_unlock <-rb_simple_write\n");
	trace_save_cmdline(4242, "kworker/u8:5-some-long-name");
	fn_event(4242, 3, 5000000000ULL, SYM(0), SYM(1), 0, 0);
	line_is(" kworker/u8:5-so-4242  [003] ....     5.000000: mutex_unlock <-rb_simple_write\n");
	fn_event(123456, 3, 5000000000ULL, SYM(0), SYM(1), 0, 0);
	line_is("           <...>-123456 [003] ....     5.000000: "
		"mutex_unlock <-rb_simple_write\n");
}

static void check_flags(unsigned char flags, unsigned char pc, const char *want)
{
	struct trace_entry e = {.flags = flags, .preempt_count = pc};
	struct trace_seq *s = &iter.seq;

	trace_seq_init(s);
	trace_print_lat_fmt(s, &e);
	s->buffer[s->len] = '\0';
	assert_string_equal(s->buffer, want);
}

static void test_flag_columns(void **state)
{
	(void)state;
	check_flags(0, 0, "....");
	check_flags(TRACE_FLAG_IRQS_OFF, 0, "d...");
	check_flags(TRACE_FLAG_IRQS_NOSUPPORT, 0, "X...");
	check_flags(TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED, 1, ".N.1");
	check_flags(TRACE_FLAG_NEED_RESCHED, 0, ".n..");
	check_flags(TRACE_FLAG_PREEMPT_RESCHED, 0, ".p..");
	check_flags(TRACE_FLAG_HARDIRQ, 2, "..h2");
	check_flags(TRACE_FLAG_SOFTIRQ, 0, "..s.");
	check_flags(TRACE_FLAG_HARDIRQ | TRACE_FLAG_SOFTIRQ, 0, "..H.");
	check_flags(TRACE_FLAG_NMI, 0, "..z.");
	check_flags(TRACE_FLAG_NMI | TRACE_FLAG_HARDIRQ | TRACE_FLAG_IRQS_OFF, 0xf, "d.Zf");
	check_flags(TRACE_FLAG_IRQS_OFF | TRACE_FLAG_NEED_RESCHED | TRACE_FLAG_PREEMPT_RESCHED, 10,
		    "dN.a");
}

static void test_raw_clock(void **state)
{
	(void)state;
	iter.iter_flags &= ~TRACE_FILE_TIME_IN_NS;
	fn_event(1994, 0, 123456789ULL, SYM(0), SYM(1), 0, 0);
	line_is("            bash-1994  [000] ....    123456789: mutex_unlock <-rb_simple_write\n");
}

static void test_no_context_info(void **state)
{
	(void)state;
	tr.trace_flags &= ~TRACE_ITER_CONTEXT_INFO;
	fn_event(1994, 0, 1, SYM(0), SYM(1), 0, 0);
	line_is("mutex_unlock <-rb_simple_write\n");
}

static void test_lost_events(void **state)
{
	(void)state;
	fn_event(1994, 2, 3082063030000ULL, SYM(0), SYM(1), 0, 0);
	iter.lost_events = 42;
	line_is("CPU:2 [LOST 42 EVENTS]\n"
		"            bash-1994  [002] ....  3082.063030: mutex_unlock <-rb_simple_write\n");
	fn_event(1994, 2, 3082063030000ULL, SYM(0), SYM(1), 0, 0);
	iter.lost_events = (unsigned long)-1;
	line_is("CPU:2 [LOST EVENTS]\n"
		"            bash-1994  [002] ....  3082.063030: mutex_unlock <-rb_simple_write\n");
}

static void test_annotate(void **state)
{
	(void)state;
	iter.iter_flags |= TRACE_FILE_ANNOTATE;
	fn_event(1994, 1, 1000, SYM(0), SYM(1), 0, 0);
	iter.idx = 1; /* the first line of the trace is never annotated */
	line_is("            bash-1994  [001] ....     0.000001: mutex_unlock <-rb_simple_write\n");
	fn_event(1994, 0, 2000, SYM(0), SYM(1), 0, 0);
	iter.idx = 2;
	line_is("##### CPU 0 buffer started ####\n"
		"            bash-1994  [000] ....     0.000002: mutex_unlock <-rb_simple_write\n");
	fn_event(1994, 0, 3000, SYM(0), SYM(1), 0, 0);
	iter.idx = 3; /* once per CPU */
	line_is("            bash-1994  [000] ....     0.000003: mutex_unlock <-rb_simple_write\n");
	/* option annotate off: never */
	iter.started = 0;
	tr.trace_flags &= ~TRACE_ITER_ANNOTATE;
	fn_event(1994, 0, 3000, SYM(0), SYM(1), 0, 0);
	line_is("            bash-1994  [000] ....     0.000003: mutex_unlock <-rb_simple_write\n");
}

static void test_stack_trace(void **state)
{
	(void)state;
	ev.stack.ent.type = TRACE_STACK;
	ev.stack.ent.pid = 1994;
	ev.stack.size = 3;
	ev.stack.caller[0] = SYM(8) + 5;
	ev.stack.caller[1] = SYM(9) + 0x20;
	ev.stack.caller[2] = 0xffffffffc02e3083UL;
	iter.ent_size = sizeof(ev.stack) + 3 * sizeof(unsigned long);
	iter.cpu = 1;
	iter.ts = 37609582000ULL;
	line_is("            bash-1994  [001] ....    37.609582: <stack trace>\n"
		" => vfs_read\n"
		" => ksys_read\n"
		" => 0xffffffffc02e3083\n");
	/* size beyond the record: only what the record holds */
	ev.stack.size = 100;
	trace_seq_init(&iter.seq);
	assert_int_equal(print_trace_line(&iter), TRACE_TYPE_HANDLED);
	assert_true(strstr(text(), "0xffffffffc02e3083\n") != NULL);
}

/* --- trace_printk and trace_marker lines ---------------------------------------------------- */

/* A TRACE_BPRINT record as trace_vbprintk makes it: the arguments saved by vbin_printf. */
static void bprint_event(int pid, int cpu, uint64_t ts_ns, unsigned long ip, const char *fmt, ...)
{
	va_list ap;
	int words;

	memset(&ev, 0, sizeof(ev));
	ev.bprint.ent.type = TRACE_BPRINT;
	ev.bprint.ent.pid = pid;
	ev.bprint.ip = ip;
	ev.bprint.fmt = fmt;
	va_start(ap, fmt);
	words = vbin_printf(ev.bprint.buf, 32, fmt, ap);
	va_end(ap);
	assert_true(words <= 32);
	/* the ring buffer rounds the payload up to 8 bytes: the reader sees a zero word more */
	iter.ent_size = (unsigned int)(sizeof(ev.bprint) + ALIGN_UP((size_t)words * 4, 8));
	iter.ent = &ev.bprint.ent;
	iter.cpu = cpu;
	iter.ts = ts_ns;
	trace_seq_init(&iter.seq);
}

static void print_event(int pid, unsigned long ip, const char *text, size_t room)
{
	memset(&ev, 0, sizeof(ev));
	ev.print.ent.type = TRACE_PRINT;
	ev.print.ent.pid = pid;
	ev.print.ip = ip;
	memcpy(ev.print.buf, text, strlen(text) + 1);
	iter.ent_size = (unsigned int)(sizeof(ev.print) + room);
	iter.ent = &ev.print.ent;
	iter.cpu = 1;
	iter.ts = 60503461000ULL;
	trace_seq_init(&iter.seq);
}

static void test_bprint_line(void **state)
{
	(void)state;
	trace_save_cmdline(12, "insmod");
	/* the article's module, in profile PA: its line byte for byte (%p as Linux's) */
	bprint_event(12, 1, 123456789000ULL, SYM(10) + 0x1c, "read foo %d out of bar %p\n", 10,
		     (void *)0xffff880013a5bef8UL);
	line_is("          insmod-12    [001] ....   123.456789: "
		"foo_init: read foo 10 out of bar ffff880013a5bef8\n");
	/* sym-offset applies to the caller */
	bprint_event(12, 1, 123456789000ULL, SYM(10) + 0x1c, "%s=%lu %c\n", "jiffies", 4294967296UL,
		     'x');
	iter.tr->trace_flags |= TRACE_ITER_SYM_OFFSET;
	line_is("          insmod-12    [001] ....   123.456789: "
		"foo_init+0x1c/0x50: jiffies=4294967296 x\n");
	/* only the message, for function_graph's comments */
	trace_seq_init(&iter.seq);
	assert_int_equal(trace_print_bprintk_msg_only(&iter), TRACE_TYPE_HANDLED);
	assert_string_equal(text(), "jiffies=4294967296 x\n");
}

static void test_bprint_truncated_record(void **state)
{
	(void)state;
	/* a record cut before its string's end prints nothing for it, never past the record */
	bprint_event(1994, 0, 1000, SYM(10), "%d %s!\n", 7, "a string longer than the record");
	iter.ent_size = (unsigned int)(sizeof(ev.bprint) + 8);
	line_is("            bash-1994  [000] ....     0.000001: foo_init: 7 !\n");
}

static void test_bputs_line(void **state)
{
	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.bputs.ent.type = TRACE_BPUTS;
	ev.bputs.ent.pid = 1994;
	ev.bputs.ip = SYM(10) + 4;
	ev.bputs.str = "s3_entry\n";
	iter.ent = &ev.bputs.ent;
	iter.ent_size = sizeof(ev.bputs);
	iter.cpu = 0;
	iter.ts = 318726581000ULL;
	line_is("            bash-1994  [000] ....   318.726581: foo_init: s3_entry\n");
	trace_seq_init(&iter.seq);
	assert_int_equal(trace_print_bputs_msg_only(&iter), TRACE_TYPE_HANDLED);
	assert_string_equal(text(), "s3_entry\n");
}

static void test_marker_line(void **state)
{
	(void)state;
	trace_save_cmdline(93, "sh");
	/* linux-6.1/trace_marker_nop.txt, in profile PA */
	print_event(93, SYM(11) + 0x80, "hello\n", 8);
	line_is("              sh-93    [001] ....    60.503461: tracing_mark_write: hello\n");
	trace_seq_init(&iter.seq);
	assert_int_equal(trace_print_printk_msg_only(&iter), TRACE_TYPE_HANDLED);
	assert_string_equal(text(), "hello\n");
	/* text without its NUL inside the record: only what the record holds */
	print_event(93, SYM(11), "hello\n", 3);
	line_is("              sh-93    [001] ....    60.503461: tracing_mark_write: hel");
	/* ip 0: Linux's 2009 "0: hello world" */
	print_event(93, 0, "hello world\n", 16);
	line_is("              sh-93    [001] ....    60.503461: 0: hello world\n");
}

/* trace_marker_raw's record, as Linux's trace_raw_data(): every byte the record holds. */
static void test_raw_data_line(void **state)
{
	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.raw.ent.type = TRACE_RAW_DATA;
	ev.raw.ent.pid = 93;
	ev.raw.id = 0x2a;
	memcpy(ev.raw.buf, "hi", 2);
	trace_seq_init(&iter.seq);
	iter.ent = &ev.raw.ent;
	iter.ent_size = (unsigned int)(sizeof(ev.raw) + 8);
	iter.cpu = 1;
	iter.ts = 60503461000ULL;
	line_is("              sh-93    [001] ....    60.503461: "
		"# 2a buf: 68 69 00 00 00 00 00 00\n");
	/* an id alone */
	ev.raw.id = 0xdeadbeef;
	iter.ent_size = sizeof(ev.raw);
	trace_seq_init(&iter.seq);
	line_is("              sh-93    [001] ....    60.503461: # deadbeef buf:\n");
}

static void test_unknown_type(void **state)
{
	(void)state;
	fn_event(1994, 0, 1000, 0, 0, 0, 0);
	ev.fn.ent.type = 99;
	line_is("            bash-1994  [000] ....     0.000001: Unknown type 99\n");
}

static enum print_line_t print_five(struct trace_iterator *it, unsigned int flags,
				    struct trace_event *event)
{
	(void)flags;
	trace_seq_printf(&it->seq, "event %d\n", event->type);
	return trace_handle_return(&it->seq);
}

static void test_register_trace_event(void **state)
{
	(void)state;
	static struct trace_event mmio_event = {.type = TRACE_MMIO_RW, .trace = print_five};
	static struct trace_event fn_again = {.type = TRACE_FN, .trace = print_five};
	static struct trace_event print_again = {.type = TRACE_PRINT, .trace = print_five};
	static struct trace_event bad = {.type = __TRACE_LAST_TYPE, .trace = print_five};

	assert_int_equal(register_trace_event(&fn_again), 0); /* taken */
	assert_int_equal(register_trace_event(&print_again), 0);
	assert_int_equal(register_trace_event(&bad), 0);
	assert_int_equal(register_trace_event(&mmio_event), TRACE_MMIO_RW);
	fn_event(1994, 0, 1000, 0, 0, 0, 0);
	ev.fn.ent.type = TRACE_MMIO_RW;
	line_is("            bash-1994  [000] ....     0.000001: event 7\n");
}

static enum print_line_t tracer_line(struct trace_iterator *it)
{
	if (it->ent->type != TRACE_FN)
		return TRACE_TYPE_UNHANDLED;
	trace_seq_puts(&it->seq, "mine\n");
	return TRACE_TYPE_HANDLED;
}

static void test_tracer_print_line(void **state)
{
	(void)state;
	struct tracer t = {.name = "mine", .print_line = tracer_line};
	iter.trace = &t;
	fn_event(1994, 0, 1000, SYM(0), 0, 0, 0);
	line_is("mine\n");
	ev.fn.ent.type = TRACE_STACK; /* UNHANDLED: the default format prints it */
	ev.stack.size = 0;
	iter.ent_size = sizeof(ev.stack);
	trace_seq_init(&iter.seq);
	line_is("            bash-1994  [000] ....     0.000001: <stack trace>\n");
}

/* --- trace_seq ------------------------------------------------------------------------------- */

static void test_trace_seq_all_or_nothing(void **state)
{
	(void)state;
	struct trace_seq *s = &iter.seq;
	char big[TRACE_SEQ_BUFFER_SIZE];
	char out[8];

	memset(big, 'x', sizeof(big) - 10);
	big[sizeof(big) - 10] = '\0';
	trace_seq_init(s);
	trace_seq_puts(s, big);
	assert_false(trace_seq_has_overflowed(s));
	trace_seq_printf(s, "%s", "0123456789abc"); /* does not fit: nothing written */
	assert_true(trace_seq_has_overflowed(s));
	assert_int_equal(trace_seq_used(s), sizeof(big) - 10);
	trace_seq_putc(s, 'y'); /* once full, stays full */
	assert_int_equal(trace_seq_used(s), sizeof(big) - 10);

	trace_seq_init(s);
	trace_seq_puts(s, "hello world");
	assert_int_equal(trace_seq_to_buffer(s, out, 5), 5);
	assert_memory_equal(out, "hello", 5);
	assert_int_equal(trace_seq_to_buffer(s, out, 8), 6);
	assert_memory_equal(out, " world", 6);
	assert_int_equal(trace_seq_to_buffer(s, out, 8), 0);
}

static void test_line_that_does_not_fit(void **state)
{
	(void)state;
	fn_event(1994, 0, 1000, SYM(0), SYM(1), 0, 0);
	iter.seq.len = TRACE_SEQ_BUFFER_SIZE - 20;
	assert_int_equal(print_trace_line(&iter), TRACE_TYPE_PARTIAL_LINE);
}

/* --- the comm cache -------------------------------------------------------------------------- */

static void test_cmdline_cache(void **state)
{
	(void)state;
	char comm[TRACE_COMM_LEN];

	trace_find_cmdline(0, comm);
	assert_string_equal(comm, "<idle>");
	trace_find_cmdline(1994, comm);
	assert_string_equal(comm, "bash");
	trace_find_cmdline(-1, comm);
	assert_string_equal(comm, "<...>");
	/* a rename is seen */
	trace_save_cmdline(1994, "bash2");
	trace_find_cmdline(1994, comm);
	assert_string_equal(comm, "bash2");
	/* 128 slots, reused round-robin: after 200 more pids the oldest are forgotten */
	for (int pid = 10000; pid < 10200; pid++) {
		char name[16];
		snprintf(name, sizeof(name), "t%d", pid);
		assert_true(trace_save_cmdline(pid, name));
	}
	trace_find_cmdline(10199, comm);
	assert_string_equal(comm, "t10199");
	trace_find_cmdline(10072, comm);
	assert_string_equal(comm, "t10072");
	trace_find_cmdline(10000, comm);
	assert_string_equal(comm, "<...>");
	/* two pids that share a hash bucket (1024 apart) do not see each other's names */
	trace_save_cmdline(20001, "first");
	trace_save_cmdline(20001 + 1024, "second");
	trace_find_cmdline(20001 + 1024, comm);
	assert_string_equal(comm, "second");
	trace_find_cmdline(20001, comm);
	assert_string_equal(comm, "<...>");
}

/* saved_cmdlines_size: a resize forgets every name; slots list in order; bad sizes refused. */
static void test_cmdline_resize(void **state)
{
	char comm[TRACE_COMM_LEN];
	int pid;

	(void)state;
	assert_int_equal(trace_resize_saved_cmdlines(0), -EINVAL);
	assert_int_equal(trace_resize_saved_cmdlines(PID_MAX_DEFAULT + 1), -EINVAL);
	assert_int_equal(trace_saved_cmdlines_size(), 128);
	assert_int_equal(trace_resize_saved_cmdlines(2), 0);
	assert_int_equal(trace_saved_cmdlines_size(), 2);
	trace_find_cmdline(1994, comm);
	assert_string_equal(comm, "<...>");
	assert_true(trace_saved_cmdline(0, &pid, comm));
	assert_int_equal(pid, -1);
	trace_save_cmdline(7, "seven");
	trace_save_cmdline(8, "eight");
	trace_save_cmdline(9, "nine"); /* takes slot 0 back from 7 */
	assert_true(trace_saved_cmdline(0, &pid, comm));
	assert_int_equal(pid, 9);
	assert_string_equal(comm, "nine");
	assert_true(trace_saved_cmdline(1, &pid, comm));
	assert_int_equal(pid, 8);
	assert_false(trace_saved_cmdline(2, &pid, comm));
	trace_find_cmdline(7, comm);
	assert_string_equal(comm, "<...>");
	host_kmalloc_fail_at = 1;
	assert_int_equal(trace_resize_saved_cmdlines(64), -ENOMEM);
	host_kmalloc_fail_at = 0;
	assert_int_equal(trace_saved_cmdlines_size(), 2); /* unchanged */
	trace_find_cmdline(9, comm);
	assert_string_equal(comm, "nine");
	assert_int_equal(trace_resize_saved_cmdlines(128), 0);
}

/*
 * trace_event_printf and hash-ptr: on (Linux's default), a plain %p is a 32-bit hash in 16
 * digits, the same for the same pointer and another for another one; off, the address. The
 * other directives print as vsnprintf prints them, '*' widths included, either way.
 */
static void test_hash_ptr(void **state)
{
	void *p = (void *)0xffff888001234560UL, *q = (void *)0xffff888001234568UL;
	const char *fmt = "ptr=%p sym=%px n=%*d s=%-*.*s|%lu %lld %c %% %x";
	char raw[128], hashed[128], expect[128];

	(void)state;
	tr.trace_flags = DEFAULT_FLAGS; /* hash-ptr off */
	trace_event_printf(&iter, fmt, p, p, 4, 7, 6, 2, "abc", 5UL, -3LL, 'z', 0xbeef);
	strcpy(raw, text());
	assert_string_equal(raw, "ptr=ffff888001234560 sym=ffff888001234560 n=   7 s=ab    |5 -3 z "
				 "% beef");

	trace_seq_init(&iter.seq);
	tr.trace_flags = DEFAULT_FLAGS | TRACE_ITER_HASH_PTR;
	trace_event_printf(&iter, fmt, p, p, 4, 7, 6, 2, "abc", 5UL, -3LL, 'z', 0xbeef);
	strcpy(hashed, text());
	snprintf(expect, sizeof(expect),
		 "ptr=%016lx sym=ffff888001234560 n=   7 s=ab    |5 -3 z %% beef",
		 trace_hash_ptr(p));
	assert_string_equal(hashed, expect);
	assert_true(trace_hash_ptr(p) <= 0xffffffffUL);
	assert_true(trace_hash_ptr(p) != (unsigned long)p);
	assert_true(trace_hash_ptr(p) != trace_hash_ptr(q));
	/* another boot's key, another hash */
	unsigned long before = trace_hash_ptr(p);
	trace_hash_ptr_init(0x1234);
	assert_true(trace_hash_ptr(p) != before);
	/* a negative '*' precision is none, as printf's */
	trace_seq_init(&iter.seq);
	trace_event_printf(&iter, "[%.*s]", -1, "whole");
	assert_string_equal(text(), "[whole]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_header_irq_info, setup),
		cmocka_unit_test_setup(test_header_nop_empty, setup),
		cmocka_unit_test_setup(test_header_noirq_info, setup),
		cmocka_unit_test_setup(test_header_no_context_info, setup),
		cmocka_unit_test_setup(test_header_from_tracer, setup),
		cmocka_unit_test_setup(test_function_line_ftrace_rst, setup),
		cmocka_unit_test_setup(test_function_line_idle_hardirq, setup),
		cmocka_unit_test_setup(test_function_line_noirq_info, setup),
		cmocka_unit_test_setup(test_print_parent_and_sym_flags, setup),
		cmocka_unit_test_setup(test_parent_zero_and_unknown_symbol, setup),
		cmocka_unit_test_setup(test_unknown_and_long_comm, setup),
		cmocka_unit_test_setup(test_flag_columns, setup),
		cmocka_unit_test_setup(test_raw_clock, setup),
		cmocka_unit_test_setup(test_no_context_info, setup),
		cmocka_unit_test_setup(test_lost_events, setup),
		cmocka_unit_test_setup(test_annotate, setup),
		cmocka_unit_test_setup(test_stack_trace, setup),
		cmocka_unit_test_setup(test_bprint_line, setup),
		cmocka_unit_test_setup(test_function_line_module, setup),
		cmocka_unit_test_setup(test_bprint_truncated_record, setup),
		cmocka_unit_test_setup(test_bputs_line, setup),
		cmocka_unit_test_setup(test_marker_line, setup),
		cmocka_unit_test_setup(test_raw_data_line, setup),
		cmocka_unit_test_setup(test_unknown_type, setup),
		cmocka_unit_test_setup(test_register_trace_event, setup),
		cmocka_unit_test_setup(test_tracer_print_line, setup),
		cmocka_unit_test_setup(test_trace_seq_all_or_nothing, setup),
		cmocka_unit_test_setup(test_line_that_does_not_fit, setup),
		cmocka_unit_test_setup(test_cmdline_cache, setup),
		cmocka_unit_test_setup(test_cmdline_resize, setup),
		cmocka_unit_test_setup(test_hash_ptr, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
