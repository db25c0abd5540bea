/*
 * Kprobes on a function's first instruction ride on ftrace (Linux's KPROBES_ON_FTRACE).
 *
 * With -mfentry every traceable function starts with a 5-byte call site that dynamic ftrace
 * turns into a NOP or a call to ftrace_caller. An int3 there would fight ftrace for the same
 * bytes; instead one ftrace_ops (kprobe_ftrace_ops) has the probed functions in its filter,
 * and ftrace calls kprobe_ftrace_handler for them, alongside the function tracer or any other
 * ops that wants the same function (ftrace's list function calls each). No trap, no single
 * step: the "probed instruction" is the call site itself, which has nothing to run.
 *
 * A probe sees every register, as the int3 path gives them, so the ops asks for them
 * (FTRACE_OPS_FL_SAVE_REGS): its sites call ftrace_regs_caller, which saves a whole struct
 * pt_regs, while the sites only other tracers want keep the cheaper ftrace_caller (argument
 * registers and RAX only). The handler passes that pt_regs itself (ftrace_get_regs), as Linux's:
 * all sixteen registers and the flags are the function's at its first instruction, RSP points at
 * its return address; regs->ip is the probed address + 1 for the pre_handler (as if an int3 had
 * trapped there) and the address after the call site for the post_handler. What a handler
 * changes reaches the function, and a pre_handler that returns nonzero has moved regs->ip (to
 * another function, say): ftrace_regs_caller returns there (Linux's IPMODIFY), and the
 * post_handler is skipped. regs->sp, CS and SS are for reading: the trampoline does not move
 * the stack.
 *
 * While a site changes from one trampoline to the other, a CPU may still come through
 * ftrace_caller into the list function, which calls this handler without registers: that hit
 * is counted as missed, not reported with half of them.
 *
 * Not traced, and blacklisted (Makefile's NOTRACE_SRCS and NOKPROBE_SRCS): it runs inside
 * ftrace's callback.
 */
#include "arch/x86_64/kprobes/kprobes.h"
#include "arch/x86_64/ftrace.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "trace/ftrace.h"

static void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *ops,
				  struct ftrace_regs *fregs);

static struct ftrace_ops kprobe_ftrace_ops = {
	.func = kprobe_ftrace_handler,
	.flags = FTRACE_OPS_FL_SAVE_REGS,
};
static int kprobe_ftrace_enabled; /* probes armed on ftrace; the ops is registered while > 0 */

notrace bool kprobe_ftrace_location(unsigned long addr)
{
	return ftrace_find_rec(addr) >= 0;
}

static notrace void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
					  struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	int bit;

	(void)ops;
	bit = ftrace_test_recursion_trylock(ip, parent_ip); /* also disables preemption */
	if (bit < 0) {
		/*
		 * Inside another ftrace callback of this context (preemption is off): a kprobe
		 * handler's call reached a probed function. Linux's guard lets it through once
		 * and counts it as kprobe_running()'s miss; so do we, without going further.
		 */
		struct kprobe *p = get_kprobe((void *)ip);

		if (p && !kprobe_disabled(p) && kprobe_running())
			kprobes_inc_nmissed_count(p);
		return;
	}
	struct kprobe *p = get_kprobe((void *)ip);
	if (unlikely(!p) || kprobe_disabled(p))
		goto out;
	struct kprobe_ctlblk *kcb = get_kprobe_ctlblk();
	if (kcb->current_kprobe || unlikely(!regs)) {
		/* A handler on this CPU got here (never recurse), or a site changing (above). */
		kprobes_inc_nmissed_count(p);
		goto out;
	}
	unsigned long orig_ip = regs->rip; /* the site + 5, where ftrace_regs_caller returns */

	regs->rip = ip + INT3_INSN_SIZE; /* as if an int3 had trapped here */
	/*
	 * Interrupts are on: an interrupt's int3 probe that finds current_kprobe set reads the
	 * status to choose between a reentry and a fatal hit mid-step (KPROBE_HIT_SS), and one
	 * that comes before current_kprobe is set leaves its own last status behind (its step's
	 * KPROBE_HIT_SS). So the status is right on both sides of current_kprobe's store: before,
	 * for an interrupt after it; after, over what an interrupt before it left.
	 */
	WRITE_ONCE(kcb->kprobe_status, KPROBE_HIT_ACTIVE);
	barrier();
	WRITE_ONCE(kcb->current_kprobe, p);
	barrier();
	WRITE_ONCE(kcb->kprobe_status, KPROBE_HIT_ACTIVE);
	if (!p->pre_handler || !p->pre_handler(p, regs)) {
		regs->rip = ip + MCOUNT_INSN_SIZE; /* "after the instruction" */
		if (p->post_handler) {
			kcb->kprobe_status = KPROBE_HIT_SSDONE;
			p->post_handler(p, regs, 0);
		}
		regs->rip = orig_ip; /* on into the function */
	}
	/* Else the pre_handler moved regs->rip, and ftrace_regs_caller goes there. */
	WRITE_ONCE(kcb->current_kprobe, NULL);
out:
	ftrace_test_recursion_unlock(bit);
}

/* Under kprobe_mutex (kernel/kprobes.c). */
notrace int arm_kprobe_ftrace(struct kprobe *p)
{
	int ret = ftrace_set_filter_ip(&kprobe_ftrace_ops, (unsigned long)p->addr, 0, 0);

	if (ret)
		return ret;
	if (kprobe_ftrace_enabled == 0) {
		ret = register_ftrace_function(&kprobe_ftrace_ops);
		if (ret) {
			ftrace_set_filter_ip(&kprobe_ftrace_ops, (unsigned long)p->addr, 1, 0);
			return ret;
		}
	}
	kprobe_ftrace_enabled++;
	return 0;
}

notrace void disarm_kprobe_ftrace(struct kprobe *p)
{
	/* The last one: unregister first, since an empty filter means every function. */
	if (kprobe_ftrace_enabled == 1)
		unregister_ftrace_function(&kprobe_ftrace_ops);
	kprobe_ftrace_enabled--;
	if (kprobe_ftrace_enabled)
		ftrace_set_filter_ip(&kprobe_ftrace_ops, (unsigned long)p->addr, 1, 0);
	else
		ftrace_reset_filters(&kprobe_ftrace_ops);
}
