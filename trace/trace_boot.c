/* Tracing from boot: the kernel command line's tracing options, as Linux names them. */

/*
 * Some things happen only once, at boot, before anyone could type at a shell: to trace them the
 * tracer has to be set up from the command line. tracing_init() (trace/trace.c) calls in here
 * at the right moments:
 *
 *   trace_buf_size=SIZE    the buffer is allocated this big per CPU (1408K by default):
 *                          bytes, or with K, M or G (memparse), at least 4096
 *   trace_clock=NAME       then the clock is set, before any event is recorded (a name
 *                          that is not in trace_clock keeps "local", as Linux says)
 *   alloc_snapshot         the snapshot's spare buffer is allocated at once, as big as the
 *                          trace buffer: "cat snapshot" says it is allocated
 *   ftrace_filter=LIST     set_ftrace_filter before the tracer starts, and
 *   ftrace_notrace=LIST    set_ftrace_notrace: comma-separated names or globs
 *   ftrace_graph_filter=LIST, ftrace_graph_notrace=LIST
 *                          set_graph_function, set_graph_notrace, for function_graph
 *   trace_event=LIST       set_event's words: the events recorded from boot
 *   ftrace=NAME            then the tracer starts (trace/trace.c), before the other CPUs
 *   trace_options=LIST     then the options, comma-separated, "noname" to clear: applied
 *                          before the tracer (core options) and again after (its own, such
 *                          as func_stack_trace, exist only once it is current)
 *
 * The stack tracer's stacktrace and stacktrace_filter= are in trace/trace_stack_fs.c,
 * traceoff_on_warning in trace/trace_warning.c, tp_printk_stop_on_boot in late_trace_init()
 * (trace/trace.c), maxcpus= and nosmp in arch/x86_64/smpboot.c. Linux ignores most values it
 * cannot use; Lucid says so in the log (with Linux's message where Linux has one: ftrace=,
 * trace_clock=, trace_event=, the graph filters) and goes on, so a typo cannot stop a boot.
 * Everything runs once, in kmain, before the shell starts.
 *
 * Not traced: part of the tracer's set-up.
 */
#include "trace/trace.h"
#include "trace/trace_events.h"
#include "kernel/locking/mutex.h"
#include "kernel/cmdline.h"
#include "arch/x86_64/multiboot2.h"
#include "kernel/printk.h"
#include "lib/string.h"

#define BOOT_LIST_MAX BOOT_CMDLINE_MAX /* a list may fill the command line, as in Linux */
#define TRACE_BUF_SIZE_MIN 4096 /* Linux's floor: the self-tests need some room */
#define BOOT_CLOCK_MAX 100 /* Linux's trace_boot_clock_buf: MAX_TRACER_SIZE */

unsigned long trace_boot_buf_size(void)
{
	char val[BOOT_LIST_MAX], *end;
	unsigned long long size;

	if (!cmdline_get("trace_buf_size", val, sizeof(val)))
		return TRACE_BUF_SIZE_DEFAULT;
	size = memparse(val, &end);
	if (end == val || *end) {
		printk(KERN_WARNING "tracing: trace_buf_size=%s: not a size\n", val);
		return TRACE_BUF_SIZE_DEFAULT;
	}
	return MAX((unsigned long)size, (unsigned long)TRACE_BUF_SIZE_MIN);
}

/* Linux's set_trace_boot_clock(), applied where tracer_alloc_buffers() applies it. */
void trace_boot_clock(struct trace_array *tr)
{
	char name[BOOT_CLOCK_MAX];

	if (cmdline_get("trace_clock", name, sizeof(name)) && tracing_set_clock(tr, name))
		pr_warn("Trace clock %s not defined, going back to default\n", name); /* Linux's */
}

/*
 * Linux's boot_alloc_snapshot(): the spare exists from boot, so that a snapshot can be taken
 * where allocating one could not (a "func:snapshot" trigger firing early, say).
 */
void trace_boot_snapshot(struct trace_array *tr)
{
	int ret;

	if (!cmdline_has("alloc_snapshot"))
		return;
	mutex_lock(&trace_types_lock);
	ret = tracing_alloc_snapshot(tr);
	mutex_unlock(&trace_types_lock);
	if (ret)
		pr_warn("tracing: alloc_snapshot: cannot allocate the snapshot buffer\n");
}

/*
 * Each comma-separated word of option's value, to fn; the words fn refused are reported: with
 * Linux's own message where Linux has one (refused, a format for the word), else with Lucid's.
 */
static void for_each_word(const char *option, struct trace_array *tr, bool quiet,
			  const char *refused,
			  int (*fn)(struct trace_array *tr, char *word))
{
	static char list[BOOT_LIST_MAX]; /* too big for the stack; only kmain calls this */
	char *p, *word;

	if (!cmdline_get(option, list, sizeof(list)))
		return;
	for (p = list; (word = strsep(&p, ","));) {
		if (!*word || !fn(tr, word) || quiet)
			continue;
		if (refused)
			printk(refused, word);
		else
			printk(KERN_WARNING "tracing: %s: cannot use '%s'\n", option, word);
	}
}

static int add_filter(struct trace_array *tr, char *word)
{
	return ftrace_set_filter(&tr->ops, word, false);
}

static int add_notrace(struct trace_array *tr, char *word)
{
	return ftrace_set_notrace(&tr->ops, word, false);
}

static int add_graph_filter(struct trace_array *tr, char *word)
{
	(void)tr;
	return ftrace_set_filter(&graph_hash_ops, word, false);
}

static int add_graph_notrace(struct trace_array *tr, char *word)
{
	(void)tr;
	return ftrace_set_notrace(&graph_hash_ops, word, false);
}

void trace_boot_filters(struct trace_array *tr)
{
	for_each_word("ftrace_filter", tr, false, NULL, add_filter);
	for_each_word("ftrace_notrace", tr, false, NULL, add_notrace);
	/* set_ftrace_early_graph()'s message */
	for_each_word("ftrace_graph_filter", tr, false,
		      KERN_DEBUG "ftrace: function %s not traceable\n", add_graph_filter);
	for_each_word("ftrace_graph_notrace", tr, false,
		      KERN_DEBUG "ftrace: function %s not traceable\n", add_graph_notrace);
}

static int add_event(struct trace_array *tr, char *word)
{
	struct trace_event_selector sel;
	int ret;

	(void)tr;
	trace_event_parse_selector(word, &sel);
	mutex_lock(&event_mutex);
	ret = ftrace_set_clr_event(&sel);
	mutex_unlock(&event_mutex);
	return ret;
}

void trace_boot_events(struct trace_array *tr)
{
	/* early_enable_events()'s message */
	for_each_word("trace_event", tr, false, KERN_WARNING "Failed to enable trace event: %s\n",
		      add_event);
}

/* quiet: the first pass, before the tracer whose options may be in the list. */
void trace_boot_options(struct trace_array *tr, bool quiet)
{
	for_each_word("trace_options", tr, quiet, NULL, trace_set_options);
}
