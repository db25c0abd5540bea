/*
 * Boot-time self-tests of dynamic ftrace's patching layer (boot option `ftrace_selftest`).
 *
 * They exercise what every tracer stands on: a filtered ops sees exactly its function, the
 * site is a call while registered and a NOP again after, a notrace set wins over a filter, and
 * two ops at once each see only their own functions (the list dispatch), an ops that asks for
 * the registers gets them, and may change them. Results print like Linux's startup tests:
 * "Testing dynamic ftrace: PASSED".
 *
 * Not traced: it is part of the tracer.
 */
#include "trace/ftrace.h"
#include "trace/fgraph.h"
#include "trace/trace_stack.h"
#include "trace/ftrace_profile.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/ftrace.h"
#include "arch/x86_64/gdt.h"
#include "kernel/debug/ftest.h"
#include "kernel/kallsyms.h"
#include "kernel/printk.h"
#include "kernel/time/time.h"
#include "lib/string.h"

static unsigned long hits_leaf, hits_ftest;

/* Counts the calls an ops sees, in the counter its private field points to. */
static void count_call(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
		       struct ftrace_regs *fregs)
{
	(void)ip;
	(void)fregs;
	(void)parent_ip;
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (bit < 0)
		return;
	__atomic_add_fetch((unsigned long *)op->private, 1, __ATOMIC_RELAXED);
	ftrace_test_recursion_unlock(bit);
}

static struct ftrace_ops leaf_ops = {.func = count_call, .private = &hits_leaf};
static struct ftrace_ops ftest_ops = {.func = count_call, .private = &hits_ftest};
static unsigned long hits_all;
static struct ftrace_ops all_ops = {.func = count_call, .private = &hits_all};

/* Called through a pointer so the compiler cannot inline or skip the chain. */
static unsigned long (*volatile call_outer)(unsigned long) = ftest_outer;

static bool site_is_call(void *fn)
{
	return ftrace_check_site((unsigned long)fn, FTRACE_ADDR) == 0;
}

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printk(KERN_ERR "ftrace selftest: %s:%d: %s\n", __FILE__, __LINE__,        \
			       #cond);                                                             \
			ok = false;                                                                \
			goto out;                                                                  \
		}                                                                                  \
	} while (0)

/* The graph hook: what it saw, in order. */
#define GRAPH_LOG 16
static struct {
	unsigned long func;
	int depth;
	bool is_return;
	uint64_t duration;
} graph_log[GRAPH_LOG];
static int graph_logged;

static bool log_entry(struct ftrace_graph_ent *e, struct fgraph_ops *gops)
{
	(void)gops;
	if (graph_logged < GRAPH_LOG && current == this_cpu()->idle && smp_processor_id() == 0)
		graph_log[graph_logged++] = (typeof(graph_log[0])){e->func, e->depth, false, 0};
	return true;
}

static void log_return(struct ftrace_graph_ret *r, struct fgraph_ops *gops)
{
	(void)gops;
	if (graph_logged < GRAPH_LOG && current == this_cpu()->idle && smp_processor_id() == 0)
		graph_log[graph_logged++] =
			(typeof(graph_log[0])){r->func, r->depth, true, r->rettime - r->calltime};
}

static unsigned long graph_entries, graph_returns;

static bool count_entry(struct ftrace_graph_ent *e, struct fgraph_ops *gops)
{
	(void)e;
	(void)gops;
	__atomic_add_fetch(&graph_entries, 1, __ATOMIC_RELAXED);
	return true;
}

static void count_return(struct ftrace_graph_ret *r, struct fgraph_ops *gops)
{
	(void)r;
	(void)gops;
	__atomic_add_fetch(&graph_returns, 1, __ATOMIC_RELAXED);
}

static struct ftrace_ops log_ops, count_ops; /* ftest_* only; every function */
static struct fgraph_ops log_gops = {
	.entryfunc = log_entry,
	.retfunc = log_return,
	.ops = &log_ops,
};
static struct fgraph_ops count_gops = {
	.entryfunc = count_entry,
	.retfunc = count_return,
	.ops = &count_ops,
};

/* ftest_outer -> ftest_mid -> ftest_leaf must come back as three entries and three returns. */
static bool graph_selftest(void)
{
	static const unsigned long order[] = {(unsigned long)ftest_outer, (unsigned long)ftest_mid,
					      (unsigned long)ftest_leaf};
	bool ok = true;
	graph_logged = 0;
	if (ftrace_set_filter(&log_ops, "ftest_*", true) || register_ftrace_graph(&log_gops)) {
		printk(KERN_ERR "ftrace selftest: cannot start the graph hook\n");
		return false;
	}
	unsigned long v = call_outer(5);
	unregister_ftrace_graph(&log_gops);
	ftrace_reset_filters(&log_ops);
	ok = v == ftest_outer(5) && graph_logged == 6;
	for (int i = 0; ok && i < 3; i++) {
		ok = graph_log[i].func == order[i] && graph_log[i].depth == i &&
		     !graph_log[i].is_return && graph_log[5 - i].func == order[i] &&
		     graph_log[5 - i].depth == i && graph_log[5 - i].is_return;
	}
	for (int i = 3; ok && i < 5; i++) /* an outer call lasts at least as long as the inner */
		ok = graph_log[i].duration <= graph_log[i + 1].duration;

	/* Every function, on every CPU, with timer interrupts nesting into traced code. */
	graph_entries = graph_returns = 0;
	if (ok && register_ftrace_graph(&count_gops) == 0) {
		udelay(50000);
		unregister_ftrace_graph(&count_gops);
		ok = graph_entries > 0 && graph_returns > 0;
	}

	/*
	 * Two users at once (Linux 6.11's several fgraph_ops): the one filtering ftest_mid gets
	 * exactly its entry and its return, while the other still counts every function.
	 */
	graph_logged = 0;
	graph_entries = graph_returns = 0;
	if (ok && !ftrace_set_filter(&log_ops, "ftest_mid", true) &&
	    !register_ftrace_graph(&count_gops)) {
		if (!register_ftrace_graph(&log_gops)) {
			call_outer(5);
			unregister_ftrace_graph(&log_gops);
		}
		unregister_ftrace_graph(&count_gops);
		ok = graph_logged == 2 && graph_log[0].func == (unsigned long)ftest_mid &&
		     !graph_log[0].is_return && graph_log[1].func == (unsigned long)ftest_mid &&
		     graph_log[1].is_return && graph_log[0].depth == graph_log[1].depth &&
		     graph_entries > 0 && graph_returns > 0;
	} else {
		ok = false;
	}
	ftrace_reset_filters(&log_ops);
	printk(KERN_INFO "Testing function graph hook: %s\n", ok ? "PASSED" : "FAILED!");
	return ok;
}

/*
 * FTRACE_OPS_FL_SAVE_REGS: the sites such an ops wants call ftrace_regs_caller, and its callback
 * finds the whole registers (ftrace_get_regs); a plain ops on the same site gets them too, one on
 * a site of its own does not. What the callback changes reaches the function: an argument
 * register, and RIP (Linux's IPMODIFY: here ftest_leaf's call runs regs_redirect instead).
 */
enum regs_action { REGS_LOOK, REGS_ARG, REGS_RIP };
static enum regs_action regs_action;
static unsigned long regs_seen, regs_missing, plain_regs_leaf, plain_regs_mid;
static bool regs_right;

/* Never traced: it replaces a traced function, and has no call site of its own. */
static notrace noinline unsigned long regs_redirect(unsigned long x)
{
	return x + 1000;
}

static void regs_call(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
		      struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);

	(void)parent_ip;
	(void)op;
	if (ip != (unsigned long)ftest_leaf)
		return;
	if (!regs) {
		regs_missing++;
		return;
	}
	regs_seen++;
	/* As at the function's first instruction: ftrace_regs's copies and the stack agree. */
	regs_right = regs->rdi == fregs->rdi && regs->rax == fregs->rax &&
		     regs->rsp == (unsigned long)&fregs->parent_ret &&
		     regs->rip == ip + MCOUNT_INSN_SIZE && regs->rbp == fregs->frame1_rbp &&
		     regs->cs == GDT_KERNEL_CS;
	if (regs_action == REGS_ARG)
		regs->rdi += 100;
	else if (regs_action == REGS_RIP)
		regs->rip = (unsigned long)regs_redirect;
}

static void plain_call(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
		       struct ftrace_regs *fregs)
{
	(void)parent_ip;
	(void)op;
	if (ftrace_get_regs(fregs))
		plain_regs_leaf += ip == (unsigned long)ftest_leaf;
	else
		plain_regs_mid += ip == (unsigned long)ftest_mid;
}

static struct ftrace_ops regs_ops = {.func = regs_call, .flags = FTRACE_OPS_FL_SAVE_REGS};
static struct ftrace_ops plain_ops = {.func = plain_call};

static bool regs_selftest(void)
{
	unsigned long leaf = (unsigned long)ftest_leaf, mid = (unsigned long)ftest_mid;
	bool ok = true;

	regs_seen = regs_missing = plain_regs_leaf = plain_regs_mid = 0;
	regs_action = REGS_LOOK;
	CHECK(ftrace_set_filter(&regs_ops, "ftest_leaf", true) == 0);
	CHECK(register_ftrace_function(&regs_ops) == 0);
	CHECK(ftrace_check_site(leaf, FTRACE_REGS_ADDR) == 0 && ftrace_check_site(mid, 0) == 0);
	CHECK(call_outer(5) == 37 && regs_seen == 1 && regs_right); /* ftest_outer's 5: 37 */
	/* The list function: the plain ops has the registers on ftest_leaf's site only. */
	CHECK(ftrace_set_filter(&plain_ops, "ftest_*", true) == 0);
	CHECK(register_ftrace_function(&plain_ops) == 0);
	CHECK(ftrace_check_site(leaf, FTRACE_REGS_ADDR) == 0 &&
	      ftrace_check_site(mid, FTRACE_ADDR) == 0);
	regs_action = REGS_ARG; /* ftest_leaf(11) becomes ftest_leaf(111): 334, + 3 */
	CHECK(call_outer(5) == 337 && regs_seen == 2 && regs_right);
	CHECK(plain_regs_leaf == 1 && plain_regs_mid == 1);
	regs_action = REGS_RIP; /* regs_redirect(11) instead: 1011, + 3 */
	CHECK(call_outer(5) == 1014 && regs_seen == 3 && regs_right);
	regs_action = REGS_LOOK;
	CHECK(unregister_ftrace_function(&regs_ops) == 0);
	/* Nobody wants the registers any more: back to ftrace_caller. */
	CHECK(ftrace_check_site(leaf, FTRACE_ADDR) == 0 && call_outer(5) == 37);
	CHECK(unregister_ftrace_function(&plain_ops) == 0);
	CHECK(ftrace_check_site(leaf, 0) == 0 && regs_missing == 0);
out:
	unregister_ftrace_function(&regs_ops);
	unregister_ftrace_function(&plain_ops);
	ftrace_reset_filters(&regs_ops);
	ftrace_reset_filters(&plain_ops);
	printk(KERN_INFO "Testing ftrace regs: %s\n", ok ? "PASSED" : "FAILED!");
	return ok;
}

/* The stack tracer must find ftest_stack_deep's frames, deepest first. */
static bool stack_selftest(void)
{
	static struct stack_trace_entry e[STACK_TRACE_ENTRIES];
	stack_tracer_reset_max();
	bool ok = ftrace_set_filter(&stack_trace_ops, "ftest_stack*", true) == 0 &&
		  stack_tracer_enable(true) == 0;
	ftest_stack();
	stack_tracer_enable(false);
	ftrace_reset_filters(&stack_trace_ops);
	int n = stack_tracer_snapshot(e, STACK_TRACE_ENTRIES);
	ok = ok && n > 12 && e[0].ip == (unsigned long)ftest_stack_deep &&
	     stack_tracer_max_size() == e[0].depth && e[0].depth > 12 * 256;
	for (int i = 1; ok && i < n; i++)
		ok = e[i].depth < e[i - 1].depth;
	stack_tracer_reset_max();
	printk(KERN_INFO "Testing stack tracer: %s\n", ok ? "PASSED" : "FAILED!");
	return ok;
}

/* The profiler counts each ftest function's calls, and outer calls last longer than inner. */
static bool profile_selftest(void)
{
	bool ok = ftrace_profile_enable(true) == 0;
	for (int i = 0; i < 3; i++)
		call_outer(i);
	ftrace_profile_enable(false);
	struct profile_row *rows;
	int n = ftrace_profile_snapshot(0, &rows);
	unsigned long hits[3] = {0, 0, 0};
	uint64_t time[3] = {0, 0, 0};
	const char *names[3] = {"ftest_outer", "ftest_mid", "ftest_leaf"};
	for (int i = 0; i < n; i++) {
		for (int f = 0; f < 3; f++) {
			if (!strcmp(ftrace_rec_name(rows[i].rec), names[f])) {
				hits[f] = rows[i].hits;
				time[f] = rows[i].time_ns;
			}
		}
		if (i && rows[i].time_ns > rows[i - 1].time_ns)
			ok = false; /* sorted, longest first */
	}
	kfree(rows);
	ok = ok && n > 0 && hits[0] == 3 && hits[1] == 3 && hits[2] == 3 && time[0] >= time[1] &&
	     time[1] >= time[2];
	printk(KERN_INFO "Testing function profiler: %s\n", ok ? "PASSED" : "FAILED!");
	return ok;
}

bool ftrace_selftest(void)
{
	bool ok = true;
	hits_leaf = hits_ftest = 0;

	CHECK(ftrace_set_filter(&leaf_ops, "ftest_leaf", true) == 0);
	CHECK(ftrace_set_filter(&leaf_ops, "no_such_function_xyz", false) == -22 /* -EINVAL */);
	CHECK(leaf_ops.filter_hash.count == 1);
	CHECK(!site_is_call(ftest_leaf));
	CHECK(register_ftrace_function(&leaf_ops) == 0);
	CHECK(site_is_call(ftest_leaf) && !site_is_call(ftest_mid));
	call_outer(1);
	CHECK(hits_leaf == 1);

	/* A second ops: now ftrace_caller goes through the list, each ops sees its own:
	 * all of ftest_* but ftest_leaf, that is ftest_outer and ftest_mid. */
	CHECK(ftrace_set_filter(&ftest_ops, "ftest_*", true) == 0);
	CHECK(ftrace_set_notrace(&ftest_ops, "ftest_leaf", true) == 0);
	CHECK(register_ftrace_function(&ftest_ops) == 0);
	call_outer(2);
	CHECK(hits_leaf == 2 && hits_ftest == 2);
	CHECK(ftrace_rec_refcount(ftrace_find_rec((unsigned long)ftest_leaf)) == 1);
	CHECK(unregister_ftrace_function(&ftest_ops) == 0);

	CHECK(unregister_ftrace_function(&leaf_ops) == 0);
	CHECK(!site_is_call(ftest_leaf) && !site_is_call(ftest_mid));
	call_outer(3);
	CHECK(hits_leaf == 2 && hits_ftest == 2);

	/* Every site at once, while the other CPUs take their ticks through traced code. */
	hits_all = 0;
	CHECK(register_ftrace_function(&all_ops) == 0);
	udelay(50000); /* kmain runs this as the idle task, which must never sleep */
	CHECK(unregister_ftrace_function(&all_ops) == 0);
	CHECK(hits_all > 0);
	for (int i = 0; i < ftrace_nr_records(); i++)
		CHECK(!ftrace_rec_name(i) ||
		      (!ftrace_rec_enabled(i) && ftrace_check_site(ftrace_rec_ip(i), 0) == 0));
out:
	unregister_ftrace_function(&leaf_ops);
	unregister_ftrace_function(&ftest_ops);
	unregister_ftrace_function(&all_ops);
	ftrace_reset_filters(&leaf_ops);
	ftrace_reset_filters(&ftest_ops);
	printk(KERN_INFO "Testing dynamic ftrace: %s\n", ok ? "PASSED" : "FAILED!");
	ok = regs_selftest() && ok;
	ok = graph_selftest() && ok;
	ok = stack_selftest() && ok;
	return profile_selftest() && ok;
}
