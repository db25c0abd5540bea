/*
 * The stack tracer: how deep does the kernel stack get, and on which call chain?
 *
 * It is an ftrace_ops whose callback runs at the entry of every traced function. There it
 * measures how much of the current task's stack is in use (stack top minus the address of the
 * traced function's return slot). When that beats the maximum seen so far, it walks the frame
 * pointers and keeps, for each function on the chain, how deep its frame sits: the table that
 * stack_trace shows, deepest first, with each frame's size as the difference between two depths.
 *
 * Stacks are 16 KiB here (kernel/mm/kstack.h); interrupts run on the interrupted task's stack, so
 * their frames count too, as in Linux.
 *
 * Not traced: it is a tracer callback.
 */
#include "trace/trace_stack.h"
#include "trace/ftrace.h"
#include "trace/fgraph.h"
#include "arch/x86_64/kprobes/kprobes.h" /* unwind_recover_ret_addr */
#include "kernel/mm/kstack.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/spinlock.h"
#include "lib/printf.h"

static void stack_trace_call(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			     struct ftrace_regs *fregs);
struct ftrace_ops stack_trace_ops = {.func = stack_trace_call};

static bool enabled;
static unsigned long max_size;
static struct stack_trace_entry max_trace[STACK_TRACE_ENTRIES];
static int max_entries;
static spinlock_t max_lock = SPINLOCK_INIT; /* writers of max_trace, and readers copying it */

static bool on_stack(unsigned long p, unsigned long lo, unsigned long hi)
{
	return p >= lo && p + 2 * sizeof(unsigned long) <= hi && !(p & 7);
}

/* Walks from the traced function up through its callers' frames, recording depths. */
static int save_trace(struct task *t, unsigned long ip, struct ftrace_regs *fregs,
		      unsigned long lo, unsigned long top)
{
	int n = 0;
	max_trace[n++] = (struct stack_trace_entry){ip, top - (unsigned long)&fregs->parent_ret};
	/* retp: the slot of the next return address, which the graph tracer may have hooked */
	unsigned long *retp = &fregs->parent_ret;
	unsigned long fp = fregs->frame1_rbp; /* the parent's frame: the traced one has none yet */
	while (n < STACK_TRACE_ENTRIES && on_stack(fp, lo, top)) {
		unsigned long *frame = (unsigned long *)fp;
		unsigned long ret = unwind_recover_ret_addr(t, *retp, retp);
		max_trace[n++] = (struct stack_trace_entry){ret, top - (unsigned long)&frame[1]};
		retp = &frame[1];
		if (frame[0] <= fp)
			break; /* frames go up the stack; anything else is the end or garbage */
		fp = frame[0];
	}
	return n;
}

static void stack_trace_call(unsigned long ip, unsigned long parent_ip,
			     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	(void)parent_ip;
	(void)op;
	struct task *t = current;
	int bit;
	if (!t || !t->stack)
		return;
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0)
		return;
	unsigned long lo = (unsigned long)t->stack, top = lo + KSTACK_SIZE;
	unsigned long here = (unsigned long)&fregs->parent_ret;
	/* Not on this task's stack (an NMI's or double fault's own stack): nothing to measure. */
	if (here >= lo && here < top && top - here > READ_ONCE(max_size)) {
		unsigned long flags = local_irq_save();
		arch_spin_lock(&max_lock);
		if (top - here > max_size) {
			max_entries = save_trace(t, ip, fregs, lo, top);
			max_size = top - here;
		}
		arch_spin_unlock(&max_lock);
		local_irq_restore(flags);
	}
	ftrace_test_recursion_unlock(bit);
}

int stack_tracer_enable(bool on)
{
	if (on == enabled)
		return 0;
	int ret = on ? register_ftrace_function(&stack_trace_ops)
		     : unregister_ftrace_function(&stack_trace_ops);
	if (!ret)
		enabled = on;
	return ret;
}

bool stack_tracer_enabled(void)
{
	return enabled;
}

unsigned long stack_tracer_max_size(void)
{
	return READ_ONCE(max_size);
}

void stack_tracer_reset_max(void)
{
	unsigned long flags = spin_lock_irqsave(&max_lock);
	max_size = 0;
	max_entries = 0;
	spin_unlock_irqrestore(&max_lock, flags);
}

int stack_tracer_snapshot(struct stack_trace_entry *out, int max)
{
	unsigned long flags = spin_lock_irqsave(&max_lock);
	int n = MIN(max, max_entries);
	for (int i = 0; i < n; i++)
		out[i] = max_trace[i];
	spin_unlock_irqrestore(&max_lock, flags);
	return n;
}

size_t stack_trace_format(char *buf, size_t size)
{
	struct stack_trace_entry e[STACK_TRACE_ENTRIES];
	int n = stack_tracer_snapshot(e, STACK_TRACE_ENTRIES);
	size_t len = scnprintf(buf, size,
			       "        Depth    Size   Location    (%d entries)\n"
			       "        -----    ----   --------\n",
			       n);
	if (!n && !enabled)
		return len +
		       scnprintf(buf + len, size - len,
				 "#\n#  Stack tracer disabled\n#\n"
				 "# To enable the stack tracer, either add 'stacktrace' to the\n"
				 "# kernel command line\n"
				 "# or 'echo 1 > /proc/sys/kernel/stack_tracer_enabled'\n#\n");
	for (int i = 0; i < n; i++) {
		unsigned long sz = i + 1 < n ? e[i].depth - e[i + 1].depth : e[i].depth;
		len += scnprintf(buf + len, size - len, "%3d) %8lu   %5lu   %pS\n", i, e[i].depth,
				 sz, (void *)e[i].ip);
	}
	return len;
}
