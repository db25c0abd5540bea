/*
 * Dynamic ftrace: the call sites of every traceable function, and who wants them
 * (trace/ftrace.c; the x86 half is arch/x86_64/ftrace.c and ftrace_64.S).
 *
 * Every function compiled with -pg -mfentry starts with "call __fentry__". At boot ftrace_init()
 * checks each recorded site and turns it into a 5-byte NOP. A tracer registers a struct
 * ftrace_ops: its callback, and which functions it wants (a filter: all when empty; a notrace
 * set: none when empty). ftrace then turns exactly the wanted sites back into calls to
 * ftrace_caller, which calls the callback with (ip, parent_ip).
 */
#ifndef TRACE_FTRACE_H
#define TRACE_FTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/compiler.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/regs.h"
#include "kernel/percpu.h"
#include "kernel/sched/preempt.h"
#include "trace/ftrace_cmd_parse.h"
#include "trace/ftrace_mod_map.h"

struct ftrace_ops;

/*
 * The stack as ftrace_caller (arch/x86_64/ftrace_64.S) leaves it when it calls a callback, lowest
 * address first: the traced function's argument registers, the two fake frames, and the two
 * return addresses. The function graph tracer replaces parent_ret to catch the return.
 * ftrace_regs_caller leaves the same, with a whole struct pt_regs below it (ftrace_get_regs).
 */
struct ftrace_regs {
	unsigned long r9, r8, rcx, rdx, rsi, rdi, rax; /* the traced function's arguments */
	unsigned long frame2_rbp, frame2_ret;          /* fake frame: ... -> the traced function */
	unsigned long frame1_rbp, frame1_ret;          /* fake frame: ... -> its parent */
	unsigned long ret_into_function;               /* pushed by the call at the site */
	unsigned long parent_ret;                      /* the traced function's return address */
};

/*
 * What ftrace_regs_caller leaves: every register of the traced function as at its first
 * instruction (Linux's SAVE_REGS trampoline), then the struct ftrace_regs that every callback
 * reads. regs.rsp points at parent_ret, regs.rip is where the trampoline returns: the site + 5,
 * or wherever a callback moved it (Linux's IPMODIFY). On the way out the registers, RIP and the
 * flags are taken from regs; fregs's argument registers are a copy, for reading.
 */
struct ftrace_regs_frame {
	struct pt_regs regs;
	struct ftrace_regs fregs;
};

/*
 * The whole registers, when this callback was reached through ftrace_regs_caller, else NULL
 * (Linux's ftrace_get_regs). Linux tells the two trampolines apart by a CS of 0 in the partial
 * pt_regs; here by the word just below fregs, which ftrace_caller never writes but its call to
 * the callback does: there it is that call's return address, inside ftrace_caller (kernel text),
 * and under ftrace_regs_caller it is regs.ss, the kernel's data selector. No text address is a
 * selector, so the test never errs. ftrace_caller stays as it was: no marker to write.
 */
static __always_inline struct pt_regs *ftrace_get_regs(struct ftrace_regs *fregs)
{
	struct ftrace_regs_frame *f = container_of(fregs, struct ftrace_regs_frame, fregs);

	return f->regs.ss == GDT_KERNEL_DS ? &f->regs : NULL;
}

/*
 * ip: the traced function (its call site's address); parent_ip: where it was called from;
 * fregs: the saved registers and return slot, as above. Linux's callbacks take the same four.
 */
typedef void (*ftrace_func_t)(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			      struct ftrace_regs *fregs);

/*
 * A set of functions, as a bit per call site record (ftrace_rec_*): with a few thousand sites a
 * bitmap is small, and membership is one bit test. Linux uses a hash table of addresses.
 */
struct ftrace_hash {
	unsigned long *bits; /* NULL or ftrace_nr_records() bits */
	unsigned long count; /* bits set */
	struct ftrace_hash *next_hash; /* on ftrace.c's list of sets that hold bits */
};

struct ftrace_ops {
	ftrace_func_t func;
	struct ftrace_hash filter_hash;  /* empty: every function */
	struct ftrace_hash notrace_hash; /* empty: no function */
	void *private;
	struct ftrace_ops *next; /* on the list of registered ops */
	bool enabled;
	unsigned int flags; /* FTRACE_OPS_FL_* */
	/*
	 * A manager's (FTRACE_OPS_FL_SUBOPS): the ops it calls for, linked by their subop_next.
	 * It wants a function when one of them does, and is registered while it has any.
	 */
	struct ftrace_ops *subop_list;
	struct ftrace_ops *subop_next;
};

/*
 * A function probe's ops (set_ftrace_filter's "func:traceoff", trace/ftrace_probe.c): for a
 * function that other ops want too, it is called after them. So traceoff stops the trace just
 * after the tracer recorded the call, and a stacktrace comes after the call's own event.
 */
#define FTRACE_OPS_FL_PROBE 0x1
/*
 * Its sets are edited by the rules of Linux's ftrace_graph_set_hash (the function_graph
 * tracer's sets): no available_filter_functions line numbers (it knows no MATCH_INDEX), and a
 * "!glob" must remove a function that is in the set.
 */
#define FTRACE_OPS_FL_GRAPH_SET 0x2
/*
 * A manager of subops (Linux 6.11's, for the function graph hook: trace/fgraph.c): one callback
 * at the sites any of its subops wants, which then asks each subop's filter itself. So one
 * ftrace_caller call serves every trace array running function_graph, and the hook pushes one
 * return stack entry per call, however many arrays want it.
 */
#define FTRACE_OPS_FL_SUBOPS 0x4
/*
 * Its callback needs every register of the traced function (ftrace_get_regs), as kprobes on a
 * function's entry do (Linux's flag of the same name): the sites it wants call
 * ftrace_regs_caller, which saves a whole struct pt_regs, instead of ftrace_caller, which saves
 * only the argument registers and RAX. Every other site keeps the cheaper trampoline, and every
 * ops wanting a "regs" site is called from there too.
 */
#define FTRACE_OPS_FL_SAVE_REGS 0x8

/* Boot: verify and NOP out every recorded call site (before the other CPUs start). */
void ftrace_init(void);

/* Start/stop calling ops->func for its chosen functions. 0, or a negative errno. */
int register_ftrace_function(struct ftrace_ops *ops);
int unregister_ftrace_function(struct ftrace_ops *ops);
/*
 * Adding subops to (or taking it from) manager, a FTRACE_OPS_FL_SUBOPS ops: the manager is
 * registered with its first subops and unregistered with its last; the sites follow the union
 * of the subops' filters, and a later write to a subops's filter patches them too. -EBUSY if
 * subops is registered already. After ftrace_shutdown_subops returns, no CPU is still asking
 * subops's sets (so its owner may free it).
 */
int ftrace_startup_subops(struct ftrace_ops *manager, struct ftrace_ops *subops);
int ftrace_shutdown_subops(struct ftrace_ops *manager, struct ftrace_ops *subops);
/* Does ops want the function at ip (its filter, its notrace set)? A callback may ask. */
bool ftrace_ops_test(const struct ftrace_ops *ops, unsigned long ip);
/* /proc/sys/kernel/ftrace_enabled: false makes every site a NOP, the ops staying registered. */
void ftrace_set_enabled(bool on);
void ftrace_init_sysctl(void); /* makes that file (trace/ftrace_fs.c) */

/*
 * Changes ops's filter (or notrace set) as a write to set_ftrace_filter does: pattern is a
 * function name or a glob (lib/glob.c), or a number, the line of available_filter_functions
 * counted from 1 (Linux's MATCH_INDEX; not for FTRACE_OPS_FL_GRAPH_SET); a leading '!' removes
 * what matches instead of adding; reset empties the set first (the ">" case; ">>" appends). A
 * pattern that matches no function returns -EINVAL and changes nothing. If ops is registered,
 * the call sites are updated at once.
 */
int ftrace_set_filter(struct ftrace_ops *ops, const char *pattern, bool reset);
int ftrace_set_notrace(struct ftrace_ops *ops, const char *pattern, bool reset);
/*
 * Adds the one function whose call site is ip to ops's filter, or takes it out (remove);
 * reset empties the filter first. -ENOENT if ip is no call site (Linux's ftrace_set_filter_ip,
 * which kprobes on ftrace use). Taking out the last function leaves the filter empty, which
 * means every function: unregister the ops first.
 */
int ftrace_set_filter_ip(struct ftrace_ops *ops, unsigned long ip, int remove, int reset);

/*
 * Editing a set as one write to a filter file does: begin copies the set (or starts empty:
 * reset, the ">" case), each word changes the copy as ftrace_set_filter's pattern would, or
 * fails with -EINVAL and changes nothing, and commit installs the copy whole: a write that
 * fails anywhere changes nothing, and one that succeeds patches the call sites once. A begun
 * edit ends in commit or abort. Callers serialise edits of one set (trace_types_lock).
 */
/* A ":mod:" word of the edit, to be kept (or forgotten: remove) at commit. */
struct ftrace_mod_load {
	struct ftrace_mod_load *next;
	bool remove;
	char func[FTRACE_MOD_FUNC_LEN];
	char module[FTRACE_MODNAME_LEN];
};

struct ftrace_hash_edit {
	struct ftrace_ops *ops;
	struct ftrace_hash *hash; /* ops's filter_hash or notrace_hash */
	unsigned long *bits;      /* the copy being edited */
	bool reset;               /* ">": the kept ":mod:" words go too */
	struct ftrace_mod_load *mods;
};
int ftrace_hash_edit_begin(struct ftrace_hash_edit *edit, struct ftrace_ops *ops, bool is_notrace,
			   bool reset);
int ftrace_hash_edit_word(struct ftrace_hash_edit *edit, const char *pattern);
void ftrace_hash_edit_commit(struct ftrace_hash_edit *edit);
void ftrace_hash_edit_abort(struct ftrace_hash_edit *edit);
void ftrace_reset_filters(struct ftrace_ops *ops); /* both sets emptied; never fails */
bool ftrace_hash_contains(const struct ftrace_hash *hash, int rec);
/* Is the function at ip in the set? Safe in a callback, while a filter write swaps the set. */
bool ftrace_lookup_ip(const struct ftrace_hash *hash, unsigned long ip);

/*
 * The call site records (available_filter_functions, enabled_functions), numbered from 0: the
 * kernel's, sorted by address, then modules' (FTRACE_MODULE_SITES numbers reserved for them, a
 * group per module). ftrace_nr_records() is how many numbers there are, a bound that never
 * changes once ftrace_init() ran (arrays by record are that long); a number no live record has
 * gives a NULL name. A module's name and record may go when it unloads: walk them holding
 * ftrace_records_lock() (not from a callback: ftrace_find_rec is safe there).
 */
#define FTRACE_MODULE_SITES 1024
int ftrace_nr_records(void);
int ftrace_nr_live_records(void); /* live records: the kernel's and the loaded modules' */
unsigned long ftrace_rec_ip(int rec);
const char *ftrace_rec_name(int rec);
const char *ftrace_rec_modname(int rec); /* its module's name, NULL for the kernel's */
void ftrace_records_lock(void);
void ftrace_records_unlock(void);
int ftrace_nr_groups(void); /* the kernel's records and each module's: dyn_ftrace_total_info */
/*
 * set_ftrace_filter's kept ":mod:" words (of ops's filter or notrace set): the nth as its line,
 * "glob:mod:module\n", into buf; 0 when there is no nth.
 */
size_t ftrace_mod_cache_show(struct ftrace_ops *ops, bool is_notrace, int n, char *buf,
			     size_t size);

/*
 * Modules (called by the loader, kernel/module/main.c, under its module_mutex).
 * ftrace_module_init: the module's sites, its text still writable and not yet executable: each
 * checked to be "call __fentry__" and made a NOP (a site that is not is refused and left alone,
 * as at boot), and its functions join the tables, disabled. ftrace_module_enable: just before
 * its init runs, its functions become traceable, those the current filters (and ":mod:" words
 * kept for it) select are enabled. ftrace_release_mod: its records leave every table and set,
 * and the names of its traced functions stay for the trace's lines (ftrace_mod_map).
 */
void ftrace_module_sites_add(const char *modname, const struct ftrace_mod_site *sites, int n);
void ftrace_module_sites_enable(const char *modname);
void ftrace_module_sites_release(const char *modname);
/*
 * kallsyms' last resort (Linux's ftrace_mod_address_lookup): addr in a function of a module
 * that was unloaded since, as the map ftrace kept of it has it. The names point into the map,
 * which stays until a module of the same name loads again. Any context.
 */
bool ftrace_mod_address_lookup(unsigned long addr, const char **name, unsigned long *start,
			       unsigned long *size, const char **modname);
/*
 * /proc/kallsyms' last part (Linux's ftrace_mod_get_kallsym): the symnum-th function of the
 * kept maps, as type 't' of its module; name: FTRACE_MOD_FUNC_LEN bytes, module_name:
 * FTRACE_MODNAME_LEN. -ERANGE past the last.
 */
int ftrace_mod_get_kallsym(unsigned int symnum, unsigned long *value, char *type, char *name,
			   char *module_name);
/* The last ftrace_module_init: how long it took (TSC ticks), for how many sites (`bench`). */
extern uint64_t ftrace_module_init_tsc;
extern int ftrace_module_init_sites;
int ftrace_rec_refcount(int rec); /* how many ops want this function */
bool ftrace_rec_enabled(int rec); /* is the site a call right now */
bool ftrace_rec_regs(int rec); /* a call to ftrace_regs_caller (enabled_functions' " R") */
int ftrace_find_rec(unsigned long ip); /* -1 if ip is not a call site */
unsigned long ftrace_nr_pages(void); /* pages the records take, for the boot message */

/*
 * How long ftrace_init() took, in TSC ticks: cycles on hardware, executed instructions under
 * QEMU's -icount shift=0, where /sys/kernel/debug/bench reports it (kernel/debug/bench.c).
 * dmesg shows it in us.
 */
extern uint64_t ftrace_init_tsc;

/*
 * Recursion guard, as Linux's: a callback starts with
 *
 *	int bit = ftrace_test_recursion_trylock(ip, parent_ip);
 *	if (bit < 0)
 *		return;	  (already inside a callback in this context on this CPU: a function the
 *			   tracer itself calls)
 *	...
 *	ftrace_test_recursion_unlock(bit);
 *
 * One bit per context, so an interrupt that arrives in the middle of a callback can still be
 * traced. Disables preemption while held: the bits are per CPU.
 *
 * The context is read off the preemption counter (kernel/sched/preempt.h): its highest set bit
 * above the preempt-disable byte is 8-15 in a softirq, 16-19 in a hardirq, 20-23 in an NMI, and 7
 * (a bit we set ourselves) in a task. That bit number is the context's bit in trace_recursion, so
 * one BSR finds it, and a nested interrupt (count 2) even gets a bit of its own. Inline: the
 * guard runs on every traced call, and a call to it would cost as much as the guard.
 */
#define TRACE_CTX_TASK_BIT 0x80 /* below the softirq count: what a task's context reads as */

static __always_inline int ftrace_test_recursion_trylock(unsigned long ip, unsigned long parent_ip)
{
	struct cpu *c;
	int bit;

	(void)ip; /* Linux records the recursing ip and parent_ip for debugging; we do not */
	(void)parent_ip;
	preempt_count_add(1);
	c = this_cpu();
	bit = 31 - __builtin_clz(((unsigned int)preempt_count() & ~PREEMPT_MASK) |
				 TRACE_CTX_TASK_BIT);
	if (unlikely(c->trace_recursion & (1u << bit))) {
		preempt_count_sub(1);
		return -1;
	}
	/* Not atomic, and need not be: an interrupt that lands here restores the bits it set. */
	c->trace_recursion |= 1u << bit;
	barrier(); /* the bit is set before the callback's work, as the compiler sees it too */
	return bit;
}

static __always_inline void ftrace_test_recursion_unlock(int bit)
{
	barrier();
	this_cpu()->trace_recursion &= ~(1u << bit);
	preempt_count_sub(1); /* no reschedule from inside the tracer: the next tick will do */
}

/* Boot self-test of the patching layer (trace/ftrace_selftest.c); true when it passed. */
bool ftrace_selftest(void);

/* Counters of what the call sites did, for dyn_ftrace_total_info and the tests. */
extern unsigned long ftrace_update_count; /* sites patched since boot */

#endif
