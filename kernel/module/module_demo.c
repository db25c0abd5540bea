/*
 * `insmod NAME` and `rmmod NAME`: "modules" built into the kernel, to replay examples that load
 * a module.
 *
 * Lucid cannot load code at run time, so the modules insmod knows are compiled in, each an init
 * and an exit function. Loading one runs its init in the insmod task through
 * do_one_initcall(), as Linux runs a module's init in the insmod process; unloading runs its
 * exit. What they do shows in a trace as it would on Linux: the foo module is the one of
 * "Debugging the kernel using Ftrace", whose init reports with trace_printk() what it read.
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/sched/preempt.h"
#include "kernel/printk.h"
#include "trace/trace_printk.h"
#include "lib/errno.h"
#include "lib/string.h"

typedef int (*initcall_t)(void);

struct demo_module {
	const char *name;
	initcall_t init;
	void (*exit)(void);
	bool loaded;
};

/* --- foo --------------------------------------------------------------------------------- */

struct bar {
	int foo;
};

static struct bar foo_bar = {.foo = 10};

static noinline int foo_init(void)
{
	struct bar *bar = &foo_bar;

	trace_printk("read foo %d out of bar %p\n", bar->foo, bar);
	return 0;
}

/* A message without arguments: only the string's address is recorded (TRACE_BPUTS). */
static noinline void foo_exit(void)
{
	trace_printk("foo says goodbye\n");
}

/* --- loading ------------------------------------------------------------------------------ */

static struct demo_module demo_modules[] = {
	{"foo", foo_init, foo_exit, false},
};

static struct demo_module *find_module(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(demo_modules); i++)
		if (!strcmp(demo_modules[i].name, name))
			return &demo_modules[i];
	return NULL;
}

/*
 * Linux's name, so that a trace of a module load reads as on Linux. As Linux does, it checks
 * that the init left preemption as it found it (which also keeps the call a real call, not a
 * jump that would make the init look called by insmod itself).
 */
noinline int do_one_initcall(initcall_t fn)
{
	int count = preempt_count();
	int ret = fn();

	if (preempt_count() != count) {
		printk(KERN_WARNING "initcall %pS returned with preemption imbalance\n", fn);
		preempt_count_sub(preempt_count() - count);
	}
	return ret;
}

/* The messages are kmod's. Two tasks loading at once is not guarded against: a demo. */
static int cmd_insmod(int argc, char **argv)
{
	struct demo_module *mod;
	int ret;

	if (argc != 2) {
		dprintf(STDERR_FILENO, "usage: insmod NAME (a built-in demo module: foo)\n");
		return 1;
	}
	mod = find_module(argv[1]);
	ret = !mod ? -ENOENT : mod->loaded ? -EEXIST : do_one_initcall(mod->init);
	if (ret) {
		dprintf(STDERR_FILENO, "insmod: ERROR: could not %s module %s: %s\n",
			mod ? "insert" : "load", argv[1], errno_text(-ret));
		return 1;
	}
	mod->loaded = true;
	return 0;
}
SHELL_CMD("insmod", "insmod NAME: load a built-in demo module (foo)", cmd_insmod);

static int cmd_rmmod(int argc, char **argv)
{
	struct demo_module *mod;

	if (argc != 2) {
		dprintf(STDERR_FILENO, "usage: rmmod NAME\n");
		return 1;
	}
	mod = find_module(argv[1]);
	if (!mod || !mod->loaded) {
		dprintf(STDERR_FILENO, "rmmod: ERROR: Module %s is not currently loaded\n",
			argv[1]);
		return 1;
	}
	mod->exit();
	mod->loaded = false;
	return 0;
}
SHELL_CMD("rmmod", "rmmod NAME: unload a demo module", cmd_rmmod);
