/* Boot self-tests of the tracer core (boot option `ftrace_selftest`), as Linux's startup tests. */

/*
 * Each test drives the tracer the way the files do and checks what lands in the buffer:
 *
 *   function          filter ftest_leaf, become the function tracer, call ftest_leaf (and
 *                     ftest_outer, which calls it through ftest_mid): exactly those calls of
 *                     ftest_leaf are recorded, each with the right parent, and nothing else.
 *   func_stack_trace  each event is followed by a stack trace: leaf, mid, outer.
 *   switch            nop -> function -> nop: the tracer changes, the buffer starts empty,
 *                     writing the current name changes nothing, nop records nothing.
 *   buffer resize     small buffers, recording still works, the default size comes back.
 *   trace_printk      called while another event is half written on this CPU (as from a
 *                     tracer callback, or an interrupt): both arrive whole, the outer first,
 *                     the arguments as passed; with the option off, nothing. A literal
 *                     format's call, recorded through its parsed layout, and the same
 *                     arguments with a format outside __trace_printk_fmt, recorded by
 *                     vbin_printf, make records of the same length and the same words.
 *
 * Results print as "Testing tracer function: PASSED" (or FAILED!). The tests leave things as
 * they found them at boot: nop, empty filters, default sizes, tracing on.
 *
 * Not traced: it is part of the tracer (and reads what the tracer recorded of ftest_*).
 */
#include "trace/trace.h"
#include "trace/ring_buffer.h"
#include "arch/x86_64/ftrace.h"
#include "kernel/debug/ftest.h"
#include "kernel/kallsyms.h"
#include "kernel/locking/mutex.h"
#include "kernel/printk.h"
#include "kernel/sched/preempt.h"
#include "trace/trace_printk.h"
#include "lib/errno.h"
#include "lib/string.h"

#define CALLS 3
#define SMALL_BUFFER (8 * 1024)

/* Called through a pointer: the compiler cannot inline or drop the calls we count. */
static unsigned long (*volatile leaf_fn)(unsigned long) = ftest_leaf;
static unsigned long (*volatile outer_fn)(unsigned long) = ftest_outer;

struct counts {
	int leaf; /* TRACE_FN events of ftest_leaf */
	int leaf_parent; /* ... whose parent is where we expect */
	int stacks; /* TRACE_STACK events reading leaf <- mid <- outer */
	int other; /* anything else */
};

/* addr is in function name (or in a copy gcc made of it: "name.constprop.0"). */
static bool in_function(unsigned long addr, const char *name)
{
	size_t len = strlen(name);
	const char *found;

	return kallsyms_lookup(addr, &found, NULL, NULL) && strncmp(found, name, len) == 0 &&
	       (found[len] == '\0' || found[len] == '.');
}

/* Reads (and consumes) every event in the buffer. */
static void count_events(struct trace_array *tr, struct counts *c)
{
	unsigned long leaf = kallsyms_lookup_name("ftest_leaf");
	struct ring_buffer_event *event;

	memset(c, 0, sizeof(*c));
	for (int cpu = 0; cpu < tr->nr_cpus; cpu++) {
		while ((event = ring_buffer_consume(tr->buffer, cpu, NULL, NULL))) {
			struct trace_entry *ent = ring_buffer_event_data(event);
			struct ftrace_entry *fn = (struct ftrace_entry *)ent;
			struct stack_entry *st = (struct stack_entry *)ent;

			if (ent->type == TRACE_FN && fn->ip == leaf) {
				c->leaf++;
				if (in_function(fn->parent_ip, "trace_selftest_function") ||
				    in_function(fn->parent_ip, "ftest_mid"))
					c->leaf_parent++;
			} else if (ent->type == TRACE_STACK && st->size >= 3 &&
				   in_function(st->caller[0], "ftest_leaf") &&
				   in_function(st->caller[1], "ftest_mid") &&
				   in_function(st->caller[2], "ftest_outer")) {
				c->stacks++;
			} else if (ent->type != TRACE_STACK) {
				c->other++;
			}
		}
	}
}

static void report(const char *what, bool ok)
{
	printk(KERN_INFO "Testing %s: %s\n", what, ok ? "PASSED" : "FAILED!");
}

static int set_func_stack_trace(struct trace_array *tr, int on)
{
	int ret = -EINVAL;

	mutex_lock(&trace_types_lock);
	for (struct tracer *t = trace_types; t; t = t->next) {
		if (strcmp(t->name, "function") || !t->flags)
			continue;
		for (struct tracer_opt *o = t->flags->opts; o->name; o++)
			if (strcmp(o->name, "func_stack_trace") == 0)
				ret = set_tracer_option(tr, t->flags, o, on);
	}
	mutex_unlock(&trace_types_lock);
	return ret;
}

/* Filter ftest_leaf, trace, call: exactly our calls. */
static noinline bool trace_selftest_function(struct trace_array *tr, bool stacks)
{
	struct counts c;
	bool ok;

	if (ftrace_set_filter(&tr->ops, "ftest_leaf", true) ||
	    (stacks && set_func_stack_trace(tr, 1)) || tracing_set_tracer(tr, "function"))
		return false;
	for (int i = 0; i < CALLS; i++)
		leaf_fn(i);
	outer_fn(CALLS); /* outer -> mid -> leaf: one more leaf, with ftest_mid as parent */
	tracer_tracing_off(tr);
	count_events(tr, &c);
	tracer_tracing_on(tr);
	tracing_set_tracer(tr, "nop");
	if (stacks)
		set_func_stack_trace(tr, 0);
	ftrace_set_filter(&tr->ops, "", true);
	ok = c.leaf == CALLS + 1 && c.leaf_parent == CALLS + 1 && c.other == 0;
	if (stacks)
		ok = ok && c.stacks == 1; /* only the call that came through ftest_outer */
	if (!ok)
		printk(KERN_ERR "trace selftest: %d leaf events (%d with the right parent), "
				"%d stacks, %d others\n",
		       c.leaf, c.leaf_parent, c.stacks, c.other);
	return ok;
}

static bool trace_selftest_switch(struct trace_array *tr)
{
	struct counts c;
	bool ok = tr->current_trace == &nop_trace;

	ok = ok && !ftrace_set_filter(&tr->ops, "ftest_leaf", true);
	ok = ok && !tracing_set_tracer(tr, "function") &&
	     strcmp(tr->current_trace->name, "function") == 0;
	leaf_fn(1);
	/* The current name again: no change, the event stays. */
	ok = ok && !tracing_set_tracer(tr, "function") && ring_buffer_entries(tr->buffer) == 1;
	ok = ok && tracing_set_tracer(tr, "no_such_tracer") == -EINVAL &&
	     strcmp(tr->current_trace->name, "function") == 0;
	/* nop: the buffer is cleared and ftest_leaf is no longer traced. */
	ok = ok && !tracing_set_tracer(tr, "nop") && tr->current_trace == &nop_trace;
	leaf_fn(2);
	count_events(tr, &c);
	ok = ok && c.leaf == 0 && c.other == 0;
	ftrace_set_filter(&tr->ops, "", true);
	return ok;
}

static bool trace_selftest_resize(struct trace_array *tr)
{
	bool ok = !tracing_resize_ring_buffer(tr, SMALL_BUFFER, RING_BUFFER_ALL_CPUS);
	struct counts c;

	for (int cpu = 0; ok && cpu < tr->nr_cpus; cpu++)
		ok = tr->buffer_size[cpu] == SMALL_BUFFER &&
		     ring_buffer_size(tr->buffer, cpu) >= SMALL_BUFFER &&
		     ring_buffer_size(tr->buffer, cpu) < SMALL_BUFFER + 2 * BUF_PAGE_SIZE;
	/* One CPU alone, then a size no one can have: refused, nothing changes. */
	ok = ok && !tracing_resize_ring_buffer(tr, 2 * SMALL_BUFFER, 0) &&
	     tr->buffer_size[0] == 2 * SMALL_BUFFER;
	ok = ok && tracing_resize_ring_buffer(tr, ~0UL >> 1, RING_BUFFER_ALL_CPUS) == -ENOMEM &&
	     tr->buffer_size[0] == 2 * SMALL_BUFFER;
	ok = ok && trace_selftest_function(tr, false);
	ok = ok && !tracing_resize_ring_buffer(tr, TRACE_BUF_SIZE_DEFAULT, RING_BUFFER_ALL_CPUS);
	for (int cpu = 0; ok && cpu < tr->nr_cpus; cpu++)
		ok = tr->buffer_size[cpu] == TRACE_BUF_SIZE_DEFAULT;
	count_events(tr, &c);
	return ok;
}

/* The next event of this CPU's buffer, consumed, with its type; NULL if there is none. */
static struct trace_entry *next_entry(struct trace_array *tr, int cpu, unsigned short type)
{
	struct ring_buffer_event *event = ring_buffer_consume(tr->buffer, cpu, NULL, NULL);
	struct trace_entry *ent = event ? ring_buffer_event_data(event) : NULL;

	return ent && ent->type == type ? ent : NULL;
}

/* A copy of a literal's text that is not in __trace_printk_fmt: it takes the general path. */
static const char printk_general_fmt[] = "selftest %d %lx %c %p %-*d %%\n";

/* This CPU's next record if it is a TRACE_BPRINT, and its payload length. */
static struct bprint_entry *next_bprint(struct trace_array *tr, int cpu, unsigned int *len)
{
	struct ring_buffer_event *event = ring_buffer_consume(tr->buffer, cpu, NULL, NULL);
	struct trace_entry *ent = event ? ring_buffer_event_data(event) : NULL;

	if (!ent || ent->type != TRACE_BPRINT)
		return NULL;
	*len = ring_buffer_event_length(event);
	return (struct bprint_entry *)ent;
}

static noinline bool trace_selftest_printk_layout(struct trace_array *tr)
{
	struct bprint_entry *fast, *general;
	unsigned int fast_len = 0, general_len = 0;
	const size_t words = 1 + 2 + 1 + 2 + 1 + 1; /* int, long, char, pointer, '*', int */
	int cpu;
	bool ok;

	tracing_reset_online_cpus(tr);
	preempt_disable(); /* both records on this CPU */
	cpu = smp_processor_id();
	trace_printk("selftest %d %lx %c %p %-*d %%\n", -7, 0x1122334455667788UL, 'z', (void *)tr,
		     5, 42);
	__trace_bprintk(_THIS_IP_, printk_general_fmt, -7, 0x1122334455667788UL, 'z', (void *)tr, 5,
			42);
	preempt_enable();
	fast = next_bprint(tr, cpu, &fast_len);
	general = next_bprint(tr, cpu, &general_len);
	ok = fast && general && trace_bprintk_has_layout(fast->fmt) &&
	     !trace_bprintk_has_layout(general->fmt) && general->fmt == printk_general_fmt &&
	     !strcmp(fast->fmt, printk_general_fmt) && fast_len == general_len &&
	     fast_len >= sizeof(*fast) + words * sizeof(uint32_t) && fast->buf[0] == (uint32_t)-7 &&
	     memcmp(fast->buf, general->buf, words * sizeof(uint32_t)) == 0;
	tracing_reset_online_cpus(tr);
	return ok;
}

static noinline bool trace_selftest_printk(struct trace_array *tr)
{
	unsigned long leaf = kallsyms_lookup_name("ftest_leaf");
	struct ring_buffer_event *event;
	struct bprint_entry *bp;
	struct ftrace_entry *fn;
	bool ok;
	int cpu;

	tracing_reset_online_cpus(tr);
	preempt_disable();
	cpu = smp_processor_id();
	event = ring_buffer_lock_reserve(tr->buffer, sizeof(*fn));
	if (!event) {
		preempt_enable();
		return false;
	}
	fn = ring_buffer_event_data(event);
	tracing_generic_entry_update(&fn->ent, TRACE_FN, tracing_gen_ctx());
	fn->ip = leaf;
	fn->parent_ip = 0;
	trace_printk("selftest %d %s\n", 7, "nested"); /* inside the outer event */
	ring_buffer_unlock_commit(tr->buffer);
	preempt_enable();

	fn = (struct ftrace_entry *)next_entry(tr, cpu, TRACE_FN);
	bp = (struct bprint_entry *)next_entry(tr, cpu, TRACE_BPRINT);
	ok = fn && fn->ip == leaf && bp && !strcmp(bp->fmt, "selftest %d %s\n") &&
	     bp->buf[0] == 7 && memcmp(&bp->buf[1], "nested", 7) == 0 &&
	     in_function(bp->ip, "trace_selftest_printk");
	/* option trace_printk off: nothing */
	mutex_lock(&trace_types_lock);
	set_tracer_flag(tr, TRACE_ITER_PRINTK, 0);
	trace_printk("selftest %d %s\n", 8, "off");
	set_tracer_flag(tr, TRACE_ITER_PRINTK, 1);
	mutex_unlock(&trace_types_lock);
	ok = ok && ring_buffer_entries(tr->buffer) == 0;
	tracing_reset_online_cpus(tr);
	return ok && trace_selftest_printk_layout(tr);
}

/*
 * function_graph on ftest_outer, ftest_mid and ftest_leaf, one call of ftest_outer: exactly
 * three entries and three returns, nested (depths 0 1 2 2 1 0, the returns in reverse order),
 * each return after its entry and lasting at least as long as the call it contains.
 */
static noinline bool trace_selftest_graph(struct trace_array *tr)
{
	static const char *const names[] = {"ftest_outer", "ftest_mid", "ftest_leaf"};
	struct ring_buffer_event *event;
	unsigned long func[3];
	uint64_t len[3] = {0};
	int n = 0, bad = 0;

	for (int i = 0; i < 3; i++) {
		func[i] = kallsyms_lookup_name(names[i]);
		if (ftrace_set_filter(&tr->ops, names[i], i == 0))
			return false;
	}
	if (tracing_set_tracer(tr, "function_graph"))
		return false;
	outer_fn(CALLS);
	tracer_tracing_off(tr);
	for (int cpu = 0; cpu < tr->nr_cpus; cpu++) {
		while ((event = ring_buffer_consume(tr->buffer, cpu, NULL, NULL))) {
			struct trace_entry *ent = ring_buffer_event_data(event);
			struct ftrace_graph_ent_entry *e = (struct ftrace_graph_ent_entry *)ent;
			struct ftrace_graph_ret_entry *r = (struct ftrace_graph_ret_entry *)ent;
			int want = n < 3 ? n : 5 - n; /* depth, and index in names[] */
			/*
			 * The two records lay func and depth out differently (retval, Linux 6.5).
			 */
			bool is_ret = ent->type == TRACE_GRAPH_RET;
			unsigned long f = is_ret ? r->func : e->func;
			int depth = is_ret ? r->depth : e->depth;

			if (n >= 6 ||
			    (ent->type != TRACE_GRAPH_ENT && ent->type != TRACE_GRAPH_RET)) {
				bad++;
			} else if (ent->type == (n < 3 ? TRACE_GRAPH_ENT : TRACE_GRAPH_RET) &&
				   f == func[want] && depth == want) {
				if (ent->type == TRACE_GRAPH_RET) {
					len[want] = r->rettime - r->calltime;
					bad += r->rettime < r->calltime;
				}
			} else {
				bad++;
			}
			n++;
		}
	}
	tracer_tracing_on(tr);
	tracing_set_tracer(tr, "nop");
	ftrace_set_filter(&tr->ops, "", true);
	bad += len[0] < len[1] || len[1] < len[2];
	if (n != 6 || bad)
		printk(KERN_ERR "trace selftest: function_graph: %d events, %d out of place\n", n,
		       bad);
	return n == 6 && !bad;
}

void trace_selftest_run(void)
{
	struct trace_array *tr = &global_trace;

	if (!tr->buffer || ftrace_nr_records() == 0) {
		printk(KERN_INFO "Testing tracer function: skipped (no buffer or no call sites)\n");
		return;
	}
	report("tracer function", trace_selftest_function(tr, false));
	report("tracer function (func_stack_trace)", trace_selftest_function(tr, true));
	report("tracer switch nop/function/nop", trace_selftest_switch(tr));
	report("trace buffer resize", trace_selftest_resize(tr));
	report("tracer function_graph", trace_selftest_graph(tr));
	report("trace_printk", trace_selftest_printk(tr));
	tracing_reset_online_cpus(tr);
}
