/*
 * The function graph hook: a callback at each traced function's entry and at its return
 * (trace/fgraph.c, arch/x86_64/ftrace_64.S return_to_handler).
 */
#ifndef TRACE_FGRAPH_H
#define TRACE_FGRAPH_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/compiler.h"

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
 * Entry callback returns false to leave this call alone (no return hook, no exit event). Both
 * callbacks run with interrupts off and the task's graph_pause raised, so a traced function
 * they call is not hooked (trace/fgraph.c); they hold no recursion lock, and the preemption
 * count is the traced code's own.
 */
typedef bool (*trace_func_graph_ent_t)(struct ftrace_graph_ent *ent);
typedef void (*trace_func_graph_ret_t)(struct ftrace_graph_ret *ret);

int register_ftrace_graph(trace_func_graph_ent_t entry, trace_func_graph_ret_t ret);
/*
 * The same, hooking the functions ops's filter chooses (ops->func is set here): the
 * function_graph tracer passes global_trace.ops, so that set_ftrace_filter applies to it.
 */
struct ftrace_ops;
int register_ftrace_graph_ops(struct ftrace_ops *ops, trace_func_graph_ent_t entry,
			      trace_func_graph_ret_t ret);
void unregister_ftrace_graph(void);
/* A new task gets a return stack if the graph tracer is active (kernel/sched/kthread.c). */
int ftrace_graph_init_task(struct task *t);
void ftrace_graph_exit_task(struct task *t);
/* For backtraces of t: the real return address behind return_to_handler at stack slot retp. */
unsigned long ftrace_graph_ret_addr(struct task *t, unsigned long ret, unsigned long *retp);
/* Every pending return of current reported and popped: it leaves for user space for good. */
void ftrace_graph_drop_frames(void);
/* Stop/restart hooking for the current task (trace_printk's internals, for instance). */
void pause_graph_tracing(void);
void unpause_graph_tracing(void);
/* The ops register_ftrace_graph hooks sites with: its filter chooses them (the profiler's). */
extern struct ftrace_ops fgraph_ops;
void return_to_handler(void);

#endif
