/*
 * The function graph hook: a callback at each traced function's entry and at its return
 * (trace/fgraph.c, arch/x86_64/ftrace_64.S return_to_handler).
 */
#ifndef TRACE_FGRAPH_H
#define TRACE_FGRAPH_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/compiler.h"
#include "kernel/sched/sched.h"

#define FTRACE_RETFUNC_DEPTH 50 /* return stack entries per task, as classic Linux */

struct task;

struct ftrace_regs;
struct ftrace_graph_ent {
	unsigned long func;
	int depth; /* 0 for the outermost traced function of this task */
	/*
	 * The traced function's registers and return slot at its entry, before the hook swaps
	 * the slot: its arguments (funcgraph-args) and its return address (funcgraph-retaddr).
	 */
	struct ftrace_regs *fregs;
};

/* The return callback's view of a call; it lives in the task's return stack (trace/fgraph.c). */
struct ftrace_graph_ret {
	unsigned long func;
	unsigned long retval; /* RAX as the function returned (funcgraph-retval) */
	int depth;
	unsigned long overrun; /* entries lost because the return stack was full */
	uint64_t calltime, rettime;
	uint64_t childtime; /* of that, time in traced functions it called */
	uint64_t sleeptime; /* of that, time the task was switched out */
};

/*
 * Several users at once, as Linux 6.11's fgraph: each trace array running function_graph (the
 * top level and any instance), the function profiler, the boot self-test. Each registers a
 * struct fgraph_ops: its callbacks, and the ftrace_ops whose filter and notrace set choose its
 * functions (Linux embeds the ftrace_ops; here the trace array's own tr->ops is pointed to, so
 * that its set_ftrace_filter applies). A call that several want is hooked once: one return
 * stack entry, whose bitmap of fgraph_ops idx says whose return callback its return calls.
 */
#define FGRAPH_ARRAY_SIZE 16 /* fgraph_ops registered at once, as Linux (bits of a word) */

struct fgraph_ops;
/*
 * Entry callback returns false to leave this call alone (no exit event for this fgraph_ops). Both
 * callbacks run with interrupts off and the task's graph_pause raised, so a traced function
 * they call is not hooked (trace/fgraph.c); they hold no recursion lock, and the preemption
 * count is the traced code's own.
 */
typedef bool (*trace_func_graph_ent_t)(struct ftrace_graph_ent *ent, struct fgraph_ops *gops);
typedef void (*trace_func_graph_ret_t)(struct ftrace_graph_ret *ret, struct fgraph_ops *gops);

struct ftrace_ops;
struct fgraph_ops {
	trace_func_graph_ent_t entryfunc;
	trace_func_graph_ret_t retfunc;
	struct ftrace_ops *ops; /* its filter chooses the functions; registered as a subops */
	void *private;          /* the owner's (the function_graph tracer's trace array) */
	int idx;                /* its bit on the return stack: set by register_ftrace_graph */
};

/* 0, -EBUSY (gops->ops in use), -ENOSPC (FGRAPH_ARRAY_SIZE users already), -ENOMEM. */
int register_ftrace_graph(struct fgraph_ops *gops);
/* After it returns, no CPU is in gops's callbacks, and no pending return will call them. */
void unregister_ftrace_graph(struct fgraph_ops *gops);
/*
 * A word per task for each fgraph_ops (Linux's fgraph_get_task_var), zero when it registers:
 * the function_graph tracer's set_graph_function state. For current, from a callback (so it
 * has a return stack). Inline: both callbacks ask it on every call.
 */
static __always_inline unsigned long *fgraph_get_task_var(struct fgraph_ops *gops)
{
	return current->fgraph_task_vars + gops->idx;
}
/* A new task gets a return stack if the graph tracer is active (kernel/kthread.c). */
int ftrace_graph_init_task(struct task *t);
void ftrace_graph_exit_task(struct task *t);
/* For backtraces of t: the real return address behind return_to_handler at stack slot retp. */
unsigned long ftrace_graph_ret_addr(struct task *t, unsigned long ret, unsigned long *retp);
/* Every pending return of current reported and popped: it leaves for user space for good. */
void ftrace_graph_drop_frames(void);
void return_to_handler(void);

#endif
