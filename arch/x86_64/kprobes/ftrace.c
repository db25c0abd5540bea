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
 * The handler hands the probe a struct pt_regs as the int3 path would: regs->ip is the probed
 * address + 1 for the pre_handler and the address after the call site for the post_handler
 * (as Linux's); the argument registers, RAX, RBP, RSP (pointing at the return address, as at
 * the function's first instruction), flags and CS are the function's; RBX and R12-R15 read 0,
 * because ftrace_caller does not save them (Linux's SAVE_REGS trampoline does; Lucid's keeps
 * the function tracer's path short). Changes a handler makes to the argument registers and RAX
 * reach the function. A pre_handler that returns nonzero (it moved regs->ip) is not honoured:
 * ftrace_caller always returns into the function (Linux's IPMODIFY is not implemented).
 *
 * Not traced, and blacklisted (Makefile's NOTRACE_SRCS and NOKPROBE_SRCS): it runs inside
 * ftrace's callback.
 */
#include "arch/x86_64/kprobes/kprobes.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/ftrace.h"
#include "arch/x86_64/gdt.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "trace/ftrace.h"

static void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *ops,
				  struct ftrace_regs *fregs);

static struct ftrace_ops kprobe_ftrace_ops = {
	.func = kprobe_ftrace_handler,
};
static int kprobe_ftrace_enabled; /* probes armed on ftrace; the ops is registered while > 0 */

notrace bool kprobe_ftrace_location(unsigned long addr)
{
	return ftrace_find_rec(addr) >= 0;
}

/* The registers as the function's first instruction would see them (see above). */
static notrace void fill_regs(struct pt_regs *regs, struct ftrace_regs *fregs)
{
	memset(regs, 0, sizeof(*regs));
	regs->rdi = fregs->rdi;
	regs->rsi = fregs->rsi;
	regs->rdx = fregs->rdx;
	regs->rcx = fregs->rcx;
	regs->r8 = fregs->r8;
	regs->r9 = fregs->r9;
	regs->rax = fregs->rax;
	regs->rbp = fregs->frame1_rbp; /* the caller's: the function's prologue has not run */
	regs->rsp = (unsigned long)&fregs->parent_ret;
	regs->rflags = read_rflags();
	regs->cs = GDT_KERNEL_CS;
	regs->orig_rax = ~0UL;
}

static notrace void writeback_regs(const struct pt_regs *regs, struct ftrace_regs *fregs)
{
	fregs->rdi = regs->rdi;
	fregs->rsi = regs->rsi;
	fregs->rdx = regs->rdx;
	fregs->rcx = regs->rcx;
	fregs->r8 = regs->r8;
	fregs->r9 = regs->r9;
	fregs->rax = regs->rax;
}

static notrace void kprobe_ftrace_handler(unsigned long ip, unsigned long parent_ip,
					  struct ftrace_ops *ops, struct ftrace_regs *fregs)
{
	struct pt_regs regs;
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
	if (kcb->current_kprobe) {
		kprobes_inc_nmissed_count(p); /* a handler on this CPU got here: never recurse */
		goto out;
	}
	fill_regs(&regs, fregs);
	regs.rip = ip + INT3_INSN_SIZE; /* as if an int3 had trapped here */
	kcb->current_kprobe = p;
	kcb->kprobe_status = KPROBE_HIT_ACTIVE;
	if (!p->pre_handler || !p->pre_handler(p, &regs)) {
		regs.rip = ip + MCOUNT_INSN_SIZE; /* "after the instruction" */
		if (p->post_handler) {
			kcb->kprobe_status = KPROBE_HIT_SSDONE;
			p->post_handler(p, &regs, 0);
		}
	}
	writeback_regs(&regs, fregs);
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
