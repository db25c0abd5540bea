/*
 * The function graph hook: seeing functions return, by borrowing their return address.
 *
 * On entry to a traced function (ftrace_caller calls ftrace_graph_func), the function's return
 * address is still on the stack, in fregs->parent_ret. We push it, with the function and the
 * time, on the current task's own return stack, and put the address of return_to_handler in its
 * place. When the function returns it lands in return_to_handler (ftrace_64.S), which calls
 * ftrace_return_to_handler() below: pop the entry, note the time, report the exit, and hand
 * back the real return address to jump to.
 *
 *      task's return stack                      the traced function's stack
 *   +----------------------------+           +-----------------------------+
 *   | ret = parent+0x1c          |   <---    | return_to_handler           |  (was parent+0x1c)
 *   | func = ftest_mid, time, &slot |        +-----------------------------+
 *   +----------------------------+
 *
 * The stack is per task, not per CPU, so a task that sleeps or moves to another CPU in the
 * middle of a traced function still returns through the right entry. An interrupt's traced
 * functions push on top of the interrupted task's entries and pop before it resumes. When the
 * stack is full, the call is not hooked and counted as an overrun.
 *
 * Interrupts are off from the push to the end of the entry callback, and from the return
 * callback to the pop, so that what a tracer records of an interrupt never falls between a
 * function's entry and the event that records it, nor between its return event and the pop:
 * the interrupt's functions are always one level deeper than the function they interrupted,
 * in the stack and in the trace.
 *
 * Not traced: this is the tracer.
 */
#include "trace/fgraph.h"
#include "trace/ftrace.h"
#include "kernel/sched.h"
#include "kernel/kmalloc.h"
#include "kernel/panic.h"
#include "kernel/time.h"
#include "arch/x86_64/cpu.h"
#include "lib/errno.h"

struct ftrace_ret_stack {
	unsigned long ret;    /* the real return address */
	unsigned long func;
	uint64_t calltime;
	unsigned long *retp;  /* the stack slot we changed, to check we return through the same one */
	uint64_t subtime;     /* time spent in traced callees (the profiler's graph-time option) */
	uint64_t sleep_at_entry; /* the task's total time switched out, when this call began */
};

static trace_func_graph_ent_t graph_entry;
static trace_func_graph_ret_t graph_return;
static bool graph_active;
static struct ftrace_ops *graph_ops; /* whose filter chooses the hooked sites */

static void ftrace_graph_func(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			      struct ftrace_regs *fregs);
struct ftrace_ops fgraph_ops = {.func = ftrace_graph_func};

static notrace bool push_return(struct task *t, unsigned long func, unsigned long *retp)
{
	int depth = t->curr_ret_stack;
	if (depth >= FTRACE_RETFUNC_DEPTH) {
		t->graph_overrun++;
		return false;
	}
	/* Claim the slot first: an interrupt arriving now pushes above it, not over it. */
	t->curr_ret_stack = depth + 1;
	barrier();
	t->ret_stack[depth] = (struct ftrace_ret_stack){*retp, func, ktime_get_ns(), retp, 0,
							t->sleep_time};
	return true;
}

static notrace void ftrace_graph_func(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	(void)parent_ip;
	(void)op;
	struct task *t = current;
	if (!t || !t->ret_stack || t->graph_pause || !READ_ONCE(graph_active))
		return;
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	unsigned long *retp = &fregs->parent_ret;
	unsigned long flags = local_irq_save();
	if (push_return(t, ip, retp)) {
		struct ftrace_graph_ent ent = {ip, t->curr_ret_stack - 1};
		if (graph_entry(&ent))
			*retp = (unsigned long)return_to_handler;
		else
			t->curr_ret_stack--; /* not wanted: forget it */
	}
	local_irq_restore(flags);
	ftrace_test_recursion_unlock(bit);
}

/* Called by return_to_handler: record the return, give back the real return address. */
notrace unsigned long ftrace_return_to_handler(void)
{
	struct task *t = current;
	unsigned long flags = local_irq_save();
	int depth = t->curr_ret_stack - 1;
	if (unlikely(depth < 0))
		panic("ftrace: return_to_handler with an empty return stack (%s/%d)", t->comm,
		      t->pid);
	struct ftrace_ret_stack *e = &t->ret_stack[depth];
	struct ftrace_graph_ret trace = {
		.func = e->func,
		.depth = depth,
		.overrun = t->graph_overrun,
		.calltime = e->calltime,
		.rettime = ktime_get_ns(),
		.childtime = e->subtime,
		.sleeptime = t->sleep_time - e->sleep_at_entry,
	};
	unsigned long ret = e->ret;
	if (depth > 0) /* the caller's time includes ours */
		t->ret_stack[depth - 1].subtime += trace.rettime - trace.calltime;
	int bit = READ_ONCE(graph_active) ? ftrace_test_recursion_trylock(trace.func, ret) : -1;
	if (bit >= 0) {
		graph_return(&trace);
		ftrace_test_recursion_unlock(bit);
	}
	barrier();
	t->curr_ret_stack = depth; /* popped after the callback (Linux's order): an NMI nests above */
	local_irq_restore(flags);
	return ret;
}

notrace unsigned long ftrace_graph_ret_addr(struct task *t, unsigned long ret, unsigned long *retp)
{
	if (ret != (unsigned long)return_to_handler || !t || !t->ret_stack)
		return ret;
	for (int i = t->curr_ret_stack - 1; i >= 0; i--)
		if (t->ret_stack[i].retp == retp)
			return t->ret_stack[i].ret;
	return ret;
}

int ftrace_graph_init_task(struct task *t)
{
	t->curr_ret_stack = 0;
	t->graph_pause = 0;
	if (t->ret_stack || !READ_ONCE(graph_active))
		return 0;
	t->ret_stack = kzalloc(sizeof(struct ftrace_ret_stack) * FTRACE_RETFUNC_DEPTH);
	return t->ret_stack ? 0 : -ENOMEM;
}

void ftrace_graph_exit_task(struct task *t)
{
	kfree(t->ret_stack);
	t->ret_stack = NULL;
}

/* Every existing task needs a return stack before any site can hook a return. */
static int alloc_all_ret_stacks(void)
{
	for (;;) {
		struct task *need = NULL;
		unsigned long flags = spin_lock_irqsave(&task_list_lock);
		struct task *t;
		list_for_each_entry(t, &task_list, tasks) {
			if (!t->ret_stack) {
				need = t;
				break;
			}
		}
		spin_unlock_irqrestore(&task_list_lock, flags);
		if (!need)
			return 0;
		/* Allocate unlocked (kmalloc may not be called with the list lock), then attach. */
		void *stack = kzalloc(sizeof(struct ftrace_ret_stack) * FTRACE_RETFUNC_DEPTH);
		if (!stack)
			return -ENOMEM;
		flags = spin_lock_irqsave(&task_list_lock);
		if (!need->ret_stack) {
			need->ret_stack = stack;
			stack = NULL;
		}
		spin_unlock_irqrestore(&task_list_lock, flags);
		kfree(stack);
	}
}

int register_ftrace_graph_ops(struct ftrace_ops *ops, trace_func_graph_ent_t entry,
			      trace_func_graph_ret_t ret)
{
	if (graph_active)
		return -EBUSY;
	graph_entry = entry;
	graph_return = ret;
	graph_ops = ops;
	ops->func = ftrace_graph_func;
	WRITE_ONCE(graph_active, true); /* new tasks get return stacks from now on */
	int err = alloc_all_ret_stacks();
	if (!err)
		err = register_ftrace_function(ops);
	if (err)
		WRITE_ONCE(graph_active, false);
	return err;
}

int register_ftrace_graph(trace_func_graph_ent_t entry, trace_func_graph_ret_t ret)
{
	return register_ftrace_graph_ops(&fgraph_ops, entry, ret);
}

/*
 * Functions hooked before this keep returning through return_to_handler, so the return stacks
 * stay allocated (until each task exits) and return_to_handler keeps working: it just stops
 * reporting.
 */
void unregister_ftrace_graph(void)
{
	if (!graph_active)
		return;
	unregister_ftrace_function(graph_ops);
	WRITE_ONCE(graph_active, false);
}

notrace void pause_graph_tracing(void)
{
	if (current)
		current->graph_pause++;
}

notrace void unpause_graph_tracing(void)
{
	if (current)
		current->graph_pause--;
}
