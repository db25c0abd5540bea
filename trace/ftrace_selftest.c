/*
 * Boot-time self-tests of dynamic ftrace's patching layer (boot option `ftrace_selftest`).
 *
 * They exercise what every tracer stands on: a filtered ops sees exactly its function, the
 * site is a call while registered and a NOP again after, a notrace set wins over a filter, and
 * two ops at once each see only their own functions (the list dispatch). Results print like
 * Linux's startup tests: "Testing dynamic ftrace: PASSED".
 *
 * Not traced: it is part of the tracer.
 */
#include "trace/ftrace.h"
#include "arch/x86_64/ftrace.h"
#include "kernel/ftest.h"
#include "kernel/kallsyms.h"
#include "kernel/printk.h"
#include "kernel/time.h"
#include "lib/string.h"

static unsigned long hits_leaf, hits_ftest;

/* Counts the calls an ops sees, in the counter its private field points to. */
static notrace void count_call(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			       struct ftrace_regs *fregs)
{
	(void)ip;
	(void)fregs;
	(void)parent_ip;
	if (!ftrace_test_recursion_trylock())
		return;
	__atomic_add_fetch((unsigned long *)op->private, 1, __ATOMIC_RELAXED);
	ftrace_test_recursion_unlock();
}

static struct ftrace_ops leaf_ops = {.func = count_call, .private = &hits_leaf};
static struct ftrace_ops ftest_ops = {.func = count_call, .private = &hits_ftest};
static unsigned long hits_all;
static struct ftrace_ops all_ops = {.func = count_call, .private = &hits_all};

/* Called through a pointer so the compiler cannot inline or skip the chain. */
static unsigned long (*volatile call_outer)(unsigned long) = ftest_outer;

static notrace bool site_is_call(void *fn)
{
	return ftrace_check_site((unsigned long)fn, true) == 0;
}

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printk(KERN_ERR "ftrace selftest: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
			ok = false;                                                                \
			goto out;                                                                  \
		}                                                                                  \
	} while (0)

notrace bool ftrace_selftest(void)
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
		CHECK(!ftrace_rec_enabled(i) && ftrace_check_site(ftrace_rec_ip(i), false) == 0);
out:
	unregister_ftrace_function(&leaf_ops);
	unregister_ftrace_function(&ftest_ops);
	unregister_ftrace_function(&all_ops);
	ftrace_reset_filters(&leaf_ops);
	ftrace_reset_filters(&ftest_ops);
	printk(KERN_INFO "Testing dynamic ftrace: %s\n", ok ? "PASSED" : "FAILED!");
	return ok;
}
