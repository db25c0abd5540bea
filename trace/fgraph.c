/*
 * The function graph hook: seeing functions return, by borrowing their return address.
 *
 * On entry to a traced function (ftrace_caller calls ftrace_graph_func), the function's return
 * address is still on the stack, in fregs->parent_ret. We push it, with the function and the
 * time, on the current task's own return stack, and put the address of return_to_handler in its
 * place. When the function returns it lands in return_to_handler (ftrace_64.S), which calls
 * ftrace_return_to_handler() below: note the time, report the exit, pop the entry (after the
 * report, as Linux does, so an NMI in the callback pushes above it), and hand back the real
 * return address to jump to.
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
#include "kernel/sched/sched.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/panic.h"
#include "kernel/sched/time.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/cpu.h"
#include "lib/errno.h"

/*
 * One pending return. The return callback is handed &trace itself: the entry fills in what it
 * knows (func, depth, calltime, and in sleeptime the task's sleep total so far), callees add
 * their durations to childtime, and the return completes it in place, so no copy is made.
 */
struct ftrace_ret_stack {
	struct ftrace_graph_ret trace;
	unsigned long ret; /* the real return address */
	/* The stack slot we changed, to check we return through the same one. */
	unsigned long *retp;
};

static trace_func_graph_ent_t graph_entry;
static trace_func_graph_ret_t graph_return;
static bool graph_active;
static struct ftrace_ops *graph_ops; /* whose filter chooses the hooked sites */

static void ftrace_graph_func(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			      struct ftrace_regs *fregs);
struct ftrace_ops fgraph_ops = {.func = ftrace_graph_func};

/*
 * Recursion. A callback that calls a traced function would see that call, and if it hooked it,
 * see its return too, forever. Ftrace's callbacks guard against that with the per-CPU,
 * per-context recursion lock (trace/ftrace.h). The graph hook needs less: it runs both of its
 * callbacks with interrupts off, so until they return this CPU runs nothing of this task but
 * them (an NMI aside, which in Lucid only stops a CPU at panic). Raising the task's graph_pause
 * around each callback, which the entry hook tests first anyway, is then enough: a traced
 * function they call is not hooked. That is two increments per call where the lock would take
 * a trylock and an unlock at the entry and again at the return.
 *
 * The entry hook, on every call of every hooked function, is kept to loads, stores and the one
 * callback. No canary: its only local is the entry callback's two-field argument, with no array
 * a stray write could run along.
 */
static __no_stack_protector void ftrace_graph_func(unsigned long ip,
						   unsigned long parent_ip,
						   struct ftrace_ops *op,
						   struct ftrace_regs *fregs)
{
	(void)parent_ip;
	(void)op;
	struct task *t = current;
	if (unlikely(!t || !t->ret_stack || t->graph_pause || !READ_ONCE(graph_active)))
		return;
	unsigned long flags = raw_local_irq_save(); /* the tracer's own: no irqsoff hook */
	int depth = t->curr_ret_stack;
	if (likely(depth < FTRACE_RETFUNC_DEPTH)) {
		/* Claim the slot first: an NMI arriving now pushes above it, not over it. */
		t->curr_ret_stack = depth + 1;
		barrier();
		struct ftrace_ret_stack *e = &t->ret_stack[depth];
		e->ret = fregs->parent_ret;
		e->retp = &fregs->parent_ret;
		e->trace.func = ip;
		e->trace.depth = depth;
		e->trace.calltime = tsc_ktime_get_ns();
		e->trace.childtime = 0;
		e->trace.sleeptime = t->sleep_time; /* made a difference at the return */
		struct ftrace_graph_ent ent = {ip, depth, fregs};
		t->graph_pause++;
		barrier();
		bool want = graph_entry(&ent);
		barrier();
		t->graph_pause--;
		if (want)
			fregs->parent_ret = (unsigned long)return_to_handler;
		else
			t->curr_ret_stack = depth; /* not wanted: forget it */
	} else {
		t->graph_overrun++; /* full: this call is not hooked */
	}
	raw_local_irq_restore(flags);
}

/* The return of t's entry at depth, at time now, reported (interrupts off, entry not popped). */
static void graph_report_return(struct task *t, int depth, uint64_t now)
{
	struct ftrace_ret_stack *e = &t->ret_stack[depth];
	e->trace.rettime = now;
	e->trace.overrun = t->graph_overrun;
	e->trace.sleeptime = t->sleep_time - e->trace.sleeptime;
	if (depth > 0) /* the caller's time includes ours */
		e[-1].trace.childtime += now - e->trace.calltime;
	if (likely(READ_ONCE(graph_active))) {
		t->graph_pause++;
		barrier();
		graph_return(&e->trace);
		barrier();
		t->graph_pause--;
	}
}

/*
 * Called by return_to_handler with the function's return value (its RAX): record the return,
 * give back the real return address.
 */
unsigned long ftrace_return_to_handler(unsigned long retval)
{
	struct task *t = current;
	unsigned long flags = raw_local_irq_save(); /* the tracer's own: no irqsoff hook */
	int depth = t->curr_ret_stack - 1;
	if (unlikely(depth < 0))
		panic("ftrace: return_to_handler with an empty return stack (%s/%d)", t->comm,
		      t->pid);
	struct ftrace_ret_stack *e = &t->ret_stack[depth];
	e->trace.retval = retval;
	graph_report_return(t, depth, tsc_ktime_get_ns());
	unsigned long ret = e->ret;
	barrier();
	/* Popped after the callback (Linux's order): an NMI nests above. */
	t->curr_ret_stack = depth;
	raw_local_irq_restore(flags);
	return ret;
}

/*
 * Leaving for user space without returning: exec's start_thread and a forked child's
 * ret_from_fork abandon the kernel frames below them. On Linux those functions do return (the
 * new program starts from the system call's return), so their returns are reported here, now,
 * innermost first, as if each returned: the trace closes every brace it opened, and the next
 * system call or fault starts again at depth 0.
 */
void ftrace_graph_drop_frames(void)
{
	struct task *t = current;
	if (!t->ret_stack)
		return; /* nothing was ever pushed */
	unsigned long flags = raw_local_irq_save(); /* the tracer's own: no irqsoff hook */
	uint64_t now = tsc_ktime_get_ns();
	for (int depth = t->curr_ret_stack - 1; depth >= 0; depth--) {
		t->ret_stack[depth].trace.retval = 0; /* as the system call will: exec succeeded */
		graph_report_return(t, depth, now);
		t->curr_ret_stack = depth;
	}
	raw_local_irq_restore(flags);
}

/*
 * Backtraces under the graph tracer. Every hooked function's return slot holds
 * return_to_handler, so a frame walk would name the trampoline, never the caller. The real
 * address is on t's return stack, in the entry that hooked this very slot: Linux 6.1 on x86
 * (HAVE_FUNCTION_GRAPH_RET_ADDR_PTR) finds it by retp, the slot's address, which each entry
 * remembers. (Linux's other form, for architectures whose entries do not remember the slot,
 * counts the trampolines the walk has passed; every walker here knows the slot it read.) An
 * address that is not the trampoline, or a slot no entry hooked, comes back as it is.
 *
 * t must not be running elsewhere (current, or a task off its CPU): its return stack is
 * then still.
 */
unsigned long ftrace_graph_ret_addr(struct task *t, unsigned long ret, unsigned long *retp)
{
	if (ret != (unsigned long)return_to_handler || !t || !t->ret_stack)
		return ret;
	int top = READ_ONCE(t->curr_ret_stack) - 1;
	if (top >= FTRACE_RETFUNC_DEPTH)
		return ret; /* not a depth the push could have left: do not index with it */
	/*
	 * From the bottom, as Linux: a function that tail-calls a traced one leaves two entries
	 * on one slot, and only the first (older) holds the real address; the second saw
	 * return_to_handler there already.
	 */
	for (int i = 0; i <= top; i++)
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

void pause_graph_tracing(void)
{
	if (current)
		current->graph_pause++;
}

void unpause_graph_tracing(void)
{
	if (current)
		current->graph_pause--;
}
