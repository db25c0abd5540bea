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
 * Several users (struct fgraph_ops, Linux 6.11's design): the hook is one ftrace_ops, graph_ops,
 * a manager whose subops are the users' ftrace_ops (trace/ftrace.c), so a site is a call when
 * any user wants the function, and the hook runs once per call whoever wants it. It pushes one
 * entry, asks each user that wants the function (its filter, then its entry callback), and
 * keeps in the entry a bitmap of those that said yes (bit = fgraph_ops idx); the return calls
 * exactly those. With one user (the common case) its filter is the sites', so the hook calls it
 * directly without asking the filter (fgraph_direct_gops, Linux's static call).
 *
 * Not traced: this is the tracer.
 */
#include "trace/fgraph.h"
#include "trace/ftrace.h"
#include "kernel/sched/sched.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/panic.h"
#include "kernel/time/time.h"
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/cpu.h"
#include "kernel/locking/mutex.h"
#include "kernel/smp.h"
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
	unsigned long bitmap; /* bit idx: fgraph_array[idx] wants this return */
};

/*
 * A task's return stack: FTRACE_RETFUNC_DEPTH entries, then one word per fgraph_ops idx
 * (fgraph_get_task_var).
 */
#define RET_STACK_BYTES                                           \
	(sizeof(struct ftrace_ret_stack) * FTRACE_RETFUNC_DEPTH + \
	 sizeof(unsigned long) * FGRAPH_ARRAY_SIZE)

/* A task's new return stack, zeroed, its words found by t->fgraph_task_vars. */
static struct ftrace_ret_stack *ret_stack_alloc(void)
{
	return kzalloc(RET_STACK_BYTES);
}

static void ret_stack_attach(struct task *t, struct ftrace_ret_stack *stack)
{
	t->fgraph_task_vars = (unsigned long *)(stack + FTRACE_RETFUNC_DEPTH);
	t->ret_stack = stack;
}

/*
 * The users, by idx. Written under fgraph_lock; read by the hook with interrupts off, so a
 * user's callbacks have stopped once every CPU took an interrupt after its slot was cleared.
 * fgraph_array_bitmask has bit idx set while slot idx holds a user; fgraph_direct_gops is the
 * only user when there is exactly one, NULL otherwise.
 */
static DEFINE_MUTEX(fgraph_lock);
static struct fgraph_ops *fgraph_array[FGRAPH_ARRAY_SIZE];
_Static_assert(FGRAPH_ARRAY_SIZE <= sizeof(unsigned long) * 8, "a bit per user in a bitmap");
static unsigned long fgraph_array_bitmask;
static struct fgraph_ops *fgraph_direct_gops;
static int fgraph_next_idx; /* where the search for a free slot starts (below) */

static void ftrace_graph_func(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			      struct ftrace_regs *fregs);
static struct ftrace_ops graph_ops = {.func = ftrace_graph_func, .flags = FTRACE_OPS_FL_SUBOPS};

/* Several users: each that wants the function (its filter) and says yes gets its bit. */
static noinline unsigned long fgraph_enter_all(struct ftrace_graph_ent *ent)
{
	unsigned long mask = READ_ONCE(fgraph_array_bitmask), bitmap = 0;

	while (mask) {
		int i = __builtin_ctzl(mask);
		struct fgraph_ops *gops = READ_ONCE(fgraph_array[i]);

		mask &= mask - 1;
		if (gops && ftrace_ops_test(gops->ops, ent->func) && gops->entryfunc(ent, gops))
			bitmap |= 1UL << i;
	}
	return bitmap;
}

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
 * callback (with one user). No canary: its only local is the entry callback's argument, with
 * no array a stray write could run along.
 */
static __no_stack_protector void ftrace_graph_func(unsigned long ip,
						   unsigned long parent_ip,
						   struct ftrace_ops *op,
						   struct ftrace_regs *fregs)
{
	(void)parent_ip;
	(void)op;
	struct task *t = current;
	if (unlikely(!t || !t->ret_stack || t->graph_pause))
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
		struct fgraph_ops *direct = READ_ONCE(fgraph_direct_gops);
		bool want;
		if (likely(direct)) {
			/* before the call: nothing kept across it */
			e->bitmap = 1UL << direct->idx;
			want = direct->entryfunc(&ent, direct);
		} else {
			e->bitmap = fgraph_enter_all(&ent);
			want = e->bitmap != 0;
		}
		barrier();
		t->graph_pause--;
		if (want) {
			fregs->parent_ret = (unsigned long)return_to_handler;
		} else {
			t->curr_ret_stack = depth; /* not wanted: forget it */
		}
	} else {
		t->graph_overrun++; /* full: this call is not hooked */
	}
	raw_local_irq_restore(flags);
}

/* The return of t's entry at depth, at time now, reported (interrupts off, entry not popped). */
static __always_inline void graph_report_return(struct task *t, int depth, uint64_t now)
{
	struct ftrace_ret_stack *e = &t->ret_stack[depth];
	e->trace.rettime = now;
	e->trace.overrun = t->graph_overrun;
	e->trace.sleeptime = t->sleep_time - e->trace.sleeptime;
	if (depth > 0) /* the caller's time includes ours */
		e[-1].trace.childtime += now - e->trace.calltime;
	/*
	 * Those whose entry callback said yes, if still registered: with one user, its bit (any
	 * other is an old user's); else each bit whose slot is not empty.
	 */
	unsigned long bitmap = e->bitmap;
	struct fgraph_ops *direct = READ_ONCE(fgraph_direct_gops);
	t->graph_pause++;
	barrier();
	if (likely(direct)) {
		if (likely(bitmap & (1UL << direct->idx)))
			direct->retfunc(&e->trace, direct);
	} else {
		while (bitmap) {
			int i = __builtin_ctzl(bitmap);
			struct fgraph_ops *gops = READ_ONCE(fgraph_array[i]);

			bitmap &= bitmap - 1;
			if (gops)
				gops->retfunc(&e->trace, gops);
		}
	}
	barrier();
	t->graph_pause--;
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
	if (t->ret_stack || !READ_ONCE(fgraph_array_bitmask))
		return 0;
	struct ftrace_ret_stack *stack = ret_stack_alloc();
	if (!stack)
		return -ENOMEM;
	ret_stack_attach(t, stack);
	return 0;
}

void ftrace_graph_exit_task(struct task *t)
{
	kfree(t->ret_stack);
	t->ret_stack = NULL;
	t->fgraph_task_vars = NULL;
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
		struct ftrace_ret_stack *stack = ret_stack_alloc();
		if (!stack)
			return -ENOMEM;
		flags = spin_lock_irqsave(&task_list_lock);
		if (!need->ret_stack) {
			ret_stack_attach(need, stack);
			stack = NULL;
		}
		spin_unlock_irqrestore(&task_list_lock, flags);
		kfree(stack);
	}
}

/* Every task's word for slot idx is zero: a new user starts with no state left by an old one. */
static void clear_task_vars(int idx)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *t;

	list_for_each_entry(t, &task_list, tasks) {
		if (t->ret_stack)
			t->fgraph_task_vars[idx] = 0;
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
}

/* The only user, or NULL when there are several (or none). fgraph_lock held. */
static void update_direct(void)
{
	unsigned long mask = fgraph_array_bitmask;
	bool one = mask && !(mask & (mask - 1));

	WRITE_ONCE(fgraph_direct_gops, one ? fgraph_array[__builtin_ctzl(mask)] : NULL);
}

static void sync_graph_cpu(void *info)
{
	(void)info;
}

/* Every CPU took an interrupt since: none is still in the hook with what it read before. */
static void sync_graph_callers(void)
{
	smp_call_function(sync_graph_cpu, NULL);
}

int register_ftrace_graph(struct fgraph_ops *gops)
{
	int idx = -1, ret;

	mutex_lock(&fgraph_lock);
	/*
	 * A free slot, searched from the one after the last taken: a return still pending for an
	 * old user of a slot would go to the new user of that slot, so slots are reused last.
	 */
	for (int n = 0; n < FGRAPH_ARRAY_SIZE && idx < 0; n++) {
		int i = (fgraph_next_idx + n) % FGRAPH_ARRAY_SIZE;

		if (!fgraph_array[i])
			idx = i;
	}
	if (idx < 0) {
		mutex_unlock(&fgraph_lock);
		return -ENOSPC;
	}
	gops->idx = idx;
	clear_task_vars(idx);
	/*
	 * Direct calls end before the sites of a second user are patched in (ftrace_startup_subops
	 * syncs every CPU when it patches), so a direct call always has its user's filter.
	 */
	WRITE_ONCE(fgraph_array[idx], gops);
	WRITE_ONCE(fgraph_array_bitmask, fgraph_array_bitmask | 1UL << idx);
	update_direct();
	ret = alloc_all_ret_stacks(); /* new tasks get return stacks from now on */
	if (!ret)
		ret = ftrace_startup_subops(&graph_ops, gops->ops);
	if (ret) {
		WRITE_ONCE(fgraph_array[idx], NULL);
		WRITE_ONCE(fgraph_array_bitmask, fgraph_array_bitmask & ~(1UL << idx));
		update_direct();
		sync_graph_callers();
	} else {
		fgraph_next_idx = (idx + 1) % FGRAPH_ARRAY_SIZE;
	}
	mutex_unlock(&fgraph_lock);
	return ret;
}

/*
 * Functions hooked before this keep returning through return_to_handler, so the return stacks
 * stay allocated (until each task exits) and return_to_handler keeps working: it finds the slot
 * empty and calls nobody for this user.
 */
void unregister_ftrace_graph(struct fgraph_ops *gops)
{
	mutex_lock(&fgraph_lock);
	if (gops->idx < 0 || gops->idx >= FGRAPH_ARRAY_SIZE || fgraph_array[gops->idx] != gops) {
		mutex_unlock(&fgraph_lock);
		return;
	}
	/* Its sites go first (synced), so a remaining user made direct only sees its own. */
	ftrace_shutdown_subops(&graph_ops, gops->ops);
	WRITE_ONCE(fgraph_array[gops->idx], NULL);
	WRITE_ONCE(fgraph_array_bitmask, fgraph_array_bitmask & ~(1UL << gops->idx));
	update_direct();
	sync_graph_callers(); /* nobody is still in its callbacks */
	mutex_unlock(&fgraph_lock);
}
