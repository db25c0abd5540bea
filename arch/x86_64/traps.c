/*
 * Exceptions and the oops report.
 *
 * When the kernel faults and nothing claims the exception, we print what a kernel engineer needs
 * to find the bug, in Linux's words: what happened (a NULL dereference, a divide error, a stack
 * overflow), which CPU and task, the registers, and the chain of calls that led there, each
 * address turned into func+offset/size by kallsyms. Then panic() stops every CPU.
 *
 * The backtrace follows frame pointers (everything is built with -fno-omit-frame-pointer): each
 * frame starts with the caller's RBP followed by the return address. Before reading a frame we
 * check that it is mapped, so a corrupt chain ends the trace rather than faulting again.
 *
 * Not traced: the oops path must work when the tracer is the thing that broke.
 */
#include "kernel/kprobes.h"
#include "arch/x86_64/traps.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/ftrace.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/signal.h" /* SIGSEGV and the others CPU exceptions send */
#include "kernel/percpu.h"
#include "kernel/sched/sched.h"
#include "kernel/time/time.h"
#include "arch/x86_64/lapic.h"
#include "kernel/kallsyms.h"
#include "trace/fgraph.h"
#include "arch/x86_64/kprobes/kprobes.h"
#include "lib/compiler.h"
#include "arch/x86_64/uaccess.h"
#include "kernel/mm/mm.h"
#include "kernel/sched/preempt.h"
#include "kernel/syscalls.h"
#include "arch/x86_64/syscall.h" /* exit_to_user_mode */
#include "trace/events/exceptions.h"

#define MAX_BACKTRACE 32
#define PF_ERR_PRESENT 0x1 /* page-fault error code: the page was present (a protection fault) */
#define PF_ERR_WRITE 0x2
#define PF_ERR_INSTR 0x10  /* the fault was an instruction fetch */
#define NULL_PAGE_LIMIT 4096

static const char *const exception_names[32] = {
	[0] = "divide error",
	[1] = "debug",
	[2] = "nmi",
	[3] = "int3",
	[4] = "overflow",
	[5] = "bounds",
	[6] = "invalid opcode",
	[7] = "device not available",
	[8] = "double fault",
	[10] = "invalid TSS",
	[11] = "segment not present",
	[12] = "stack segment",
	[13] = "general protection fault",
	[14] = "page fault",
	[16] = "coprocessor error",
	[17] = "alignment check",
	[18] = "machine check",
	[19] = "SIMD exception",
};

static int die_counter;

/*
 * A function's frame exists only after its "push %rbp; mov %rsp,%rbp". If the CPU stopped
 * before that (on the first instruction, or in a leaf that gcc compiled without a frame), the
 * caller is not in the RBP chain: its return address is on top of the stack. Returns where, as
 * an offset from RSP, or -1 when the frame is in place and the RBP chain is right.
 */
static notrace long return_address_offset(unsigned long rip)
{
	unsigned long start;
	/*
	 * Outside every function: most likely a call through a bad pointer (into data, say), which
	 * faulted fetching its first instruction. The caller's return address is then on top.
	 */
	if (!kallsyms_lookup(rip, NULL, &start, NULL))
		return 0;
	static const uint8_t nop5[NOP5_INSN_SIZE] = {BYTES_NOP5};
	const uint8_t *p = (const uint8_t *)start;
	unsigned long body = start;
	/* An -mfentry call site: the call, or the NOP (its 0f 1f opcode) that replaces it. */
	if (p[0] == CALL_INSN_OPCODE || (p[0] == nop5[0] && p[1] == nop5[1]))
		body += MCOUNT_INSN_SIZE;
	if (*(const uint8_t *)body != PUSH_RBP_INSN_OPCODE)
		return 0; /* no frame at all: a leaf */
	if (rip <= body)
		return 0;
	if (rip == body + 1)
		return 8; /* pushed RBP, not yet moved RSP into it */
	return -1;
}

/*
 * A return address as a backtrace names it: the call before it (one byte back, so a call that
 * ends a function is not named after the next). The graph tracer's trampoline is no call's
 * return: if ftrace_graph_ret_addr() could not say whose it was, it is named as itself.
 */
static notrace void print_ret_addr(const char *loglvl, const char *mark, unsigned long ret)
{
	if (ret == (unsigned long)return_to_handler)
		printk("%s %s%pS\n", loglvl, mark, (void *)ret);
	else
		printk("%s %s%pS\n", loglvl, mark, (void *)(ret - 1));
}

/*
 * t: whose stack it is (current, or a task off its CPU): a function the graph tracer hooked
 * left return_to_handler in its return slot, and t's return stack says what was there.
 */
notrace void show_stack(struct task *t, unsigned long rip, unsigned long rsp, unsigned long rbp,
			const char *loglvl)
{
	printk("%sCall Trace:\n", loglvl);
	if (rip)
		printk("%s %pS\n", loglvl, (void *)rip);
	long off = rip && rsp ? return_address_offset(rip) : -1;
	if (off >= 0 && mmu_kernel_addr_mapped(rsp + off)) {
		unsigned long *slot = (unsigned long *)(rsp + off);
		unsigned long ret = unwind_recover_ret_addr(t, *slot, slot);
		/* A guess (a frameless function may have pushed other registers): "?" as Linux. */
		if (kernel_text_address(ret))
			print_ret_addr(loglvl, "? ", ret);
	}
	for (int depth = 0; depth < MAX_BACKTRACE && rbp; depth++) {
		if ((rbp & 7) || !mmu_kernel_addr_mapped(rbp) || !mmu_kernel_addr_mapped(rbp + 8))
			break;
		unsigned long *slot = (unsigned long *)rbp + 1;
		/*
		 * The function graph tracer or a kretprobe may have borrowed this return address.
		 */
		unsigned long ret = unwind_recover_ret_addr(t, *slot, slot);
		if (!ret || !kernel_text_address(ret))
			break;
		print_ret_addr(loglvl, "", ret);
		rbp = ((unsigned long *)rbp)[0];
	}
}

/* A context's registers, on CPU cpu running t: show_regs's for this CPU, an NMI backtrace's. */
static notrace void __show_regs(int cpu, struct task *t, struct pt_regs *r)
{
	printk(KERN_EMERG "CPU: %d PID: %d Comm: %s\n", cpu, t ? t->pid : 0,
	       t ? t->comm : "swapper");
	printk(KERN_EMERG "RIP: %04lx:%pS\n", r->cs, (void *)r->rip);
	printk(KERN_EMERG "RSP: %04lx:%016lx EFLAGS: %08lx\n", r->ss, r->rsp, r->rflags);
	printk(KERN_EMERG "RAX: %016lx RBX: %016lx RCX: %016lx\n", r->rax, r->rbx, r->rcx);
	printk(KERN_EMERG "RDX: %016lx RSI: %016lx RDI: %016lx\n", r->rdx, r->rsi, r->rdi);
	printk(KERN_EMERG "RBP: %016lx R08: %016lx R09: %016lx\n", r->rbp, r->r8, r->r9);
	printk(KERN_EMERG "R10: %016lx R11: %016lx R12: %016lx\n", r->r10, r->r11, r->r12);
	printk(KERN_EMERG "R13: %016lx R14: %016lx R15: %016lx\n", r->r13, r->r14, r->r15);
	if (cpu == smp_processor_id())
		printk(KERN_EMERG "CR2: %016lx CR3: %016lx\n", read_cr2(), read_cr3());
	/* A user context's frame pointers are user memory: its stack is not walked. */
	if (!user_mode(r))
		show_stack(t, r->rip, r->rsp, r->rbp, KERN_EMERG);
}

notrace void show_regs(struct pt_regs *r)
{
	__show_regs(smp_processor_id(), current, r);
}

/* --- NMI backtraces ----------------------------------------------------------------------- */

#define NMI_BACKTRACE_TIMEOUT_NS NSEC_PER_SEC /* a CPU the NMI does not reach is skipped */

static struct pt_regs nmi_backtrace_regs[NR_CPUS];
static unsigned long nmi_backtrace_pending; /* CPUs asked and not yet answered */

notrace void trigger_cpumask_backtrace(unsigned long mask)
{
	int self = smp_processor_id();
	unsigned long asked = mask & ~(1UL << self);
	uint64_t deadline = ktime_get_ns() + NMI_BACKTRACE_TIMEOUT_NS;

	/* This CPU, first and without an NMI, as Linux's nmi_cpu_backtrace(NULL): where it asks. */
	if (mask & (1UL << self)) {
		struct task *t = current;

		printk(KERN_ERR "NMI backtrace for cpu %d\n", self);
		printk(KERN_EMERG "CPU: %d PID: %d Comm: %s\n", self, t ? t->pid : 0,
		       t ? t->comm : "swapper");
		dump_stack();
	}

	__atomic_or_fetch(&nmi_backtrace_pending, asked, __ATOMIC_ACQ_REL);
	for (int c = 0; c < num_online_cpus(); c++)
		if (asked & (1UL << c))
			lapic_send_nmi(cpus[c].apic_id);
	while ((__atomic_load_n(&nmi_backtrace_pending, __ATOMIC_ACQUIRE) & asked) &&
	       ktime_get_ns() < deadline)
		cpu_relax();
	unsigned long missing =
		__atomic_fetch_and(&nmi_backtrace_pending, ~asked, __ATOMIC_ACQ_REL);
	for (int c = 0; c < num_online_cpus(); c++) {
		if (!(asked & (1UL << c)))
			continue;
		if (missing & (1UL << c)) {
			printk(KERN_ERR "NMI backtrace for cpu %d: no answer\n", c);
			continue;
		}
		printk(KERN_ERR "NMI backtrace for cpu %d\n", c);
		__show_regs(c, READ_ONCE(cpus[c].curr), &nmi_backtrace_regs[c]);
	}
}

/* This CPU was asked where it is: copy the interrupted context for the asker to print. */
static notrace bool nmi_cpu_backtrace(struct pt_regs *regs)
{
	unsigned long me = 1UL << smp_processor_id();

	if (!(__atomic_load_n(&nmi_backtrace_pending, __ATOMIC_ACQUIRE) & me))
		return false;
	nmi_backtrace_regs[smp_processor_id()] = *regs;
	__atomic_and_fetch(&nmi_backtrace_pending, ~me, __ATOMIC_RELEASE);
	return true;
}

/* Linux's first line for a page fault says what kind of bad access it was. */
static notrace void report_page_fault(struct pt_regs *r)
{
	unsigned long addr = read_cr2();
	unsigned long err = r->error_code;

	if (addr < NULL_PAGE_LIMIT)
		printk(KERN_EMERG "BUG: kernel NULL pointer dereference, address: %016lx\n", addr);
	else if (stack_guard_page(addr))
		printk(KERN_EMERG "BUG: stack guard page was hit at %016lx\n", addr);
	else
		printk(KERN_EMERG "BUG: unable to handle page fault for address: %016lx\n", addr);
	printk(KERN_EMERG "#PF: supervisor %s in kernel mode\n",
	       err & PF_ERR_INSTR ? "instruction fetch" : err & PF_ERR_WRITE ? "write access"
									 : "read access");
	printk(KERN_EMERG "#PF: error_code(0x%04lx) - %s\n", err,
	       err & PF_ERR_PRESENT ? "permissions violation" : "not-present page");
}

notrace void do_fatal_exception(struct pt_regs *r)
{
	const char *what = exception_names[r->vector & 31];
	oops_begin();
	if (r->vector == VEC_PAGE_FAULT) {
		report_page_fault(r);
		what = "Oops";
	} else if (r->vector == VEC_DOUBLE_FAULT && stack_guard_page(read_cr2())) {
		/* The page fault on the guard page could not push its frame: it became this. */
		printk(KERN_EMERG "BUG: stack guard page was hit at %016lx\n", read_cr2());
		what = "kernel stack overflow (double-fault)";
	}
	printk(KERN_EMERG "%s: %04lx [#%d] SMP\n", what ? what : "exception", r->error_code,
	       ++die_counter);
	show_regs(r);
	panic("Fatal exception");
}

notrace void do_nmi(struct pt_regs *regs)
{
	if (cpu_stop_requested())
		cpu_stop_this(); /* does not return */
	if (nmi_cpu_backtrace(regs))
		return;
	printk(KERN_EMERG "Uhhuh. NMI received on CPU %d\n", smp_processor_id());
}

/* A breakpoint that nobody claimed is a bug like any other; ftrace claims its own int3s. */
void trap_init(void)
{
}

notrace void dump_stack(void)
{
	show_stack(current, 0, 0, (unsigned long)__builtin_frame_address(0), KERN_EMERG);
}

notrace const char *exception_name(unsigned long vector)
{
	const char *name = exception_names[vector & 31];

	return name ? name : "exception";
}

/* The signal a CPU exception in user mode sends, as Linux's traps.c chooses it. */
static int exception_signal(unsigned long vector)
{
	switch (vector) {
	case VEC_DIVIDE_ERROR:
	case 16: /* x87 error */
	case 19: /* SIMD error */
		return SIGFPE;
	case VEC_INVALID_OPCODE:
		return SIGILL;
	case VEC_BREAKPOINT:
	case VEC_DEBUG:
		return SIGTRAP;
	case 17: /* alignment check */
		return SIGBUS;
	default:
		return SIGSEGV;
	}
}

/*
 * A #DB from ring 3 that no uprobe claimed: a program single-stepping itself (it set TF with
 * popf), or int1. As Linux's exc_debug_user: SIGTRAP with si_addr the next instruction, and
 * TRAP_TRACE for a step (DR6's BS), TRAP_BRKPT otherwise. The CPU never clears DR6's
 * conditions: cleared here, so that the next #DB says only its own.
 */
static notrace void do_user_debug(struct pt_regs *regs)
{
	unsigned long dr6 = read_dr6();
	struct ksiginfo info = {.signo = SIGTRAP, .addr = regs->rip};

	write_dr6(DR6_RESERVED);
	info.code = dr6 & DR6_BS ? TRAP_TRACE : TRAP_BRKPT;
	force_sig_trap(regs, &info, VEC_DEBUG, 0);
}

/* An exception in ring 3 that no handler fixed: the process dies of the matching signal. */
notrace void do_user_exception(struct pt_regs *regs)
{
	if (regs->vector == VEC_DEBUG) {
		do_user_debug(regs);
		return;
	}
	force_sig_fault(regs, exception_signal(regs->vector), read_cr2());
}

/*
 * Page faults that are not bugs: a first touch of a page in one of the process's areas (mapped
 * now, on demand), a write to a page fork shares (copied now), a touch just below the stack
 * (it grows), all in kernel/mm/memory.c; and a bad user pointer met by copy_from_user and
 * friends, which resume at their fixup and return -EFAULT. A fault in user mode that is none of
 * these kills the process (do_user_exception; SIGBUS for a page past a mapped file's end); one
 * in kernel mode is an oops. No memory for the
 * page: the process dies of SIGKILL with Linux's OOM line, and the kernel goes on.
 */
DEFINE_TRACE(page_fault_user); /* trace/events/exceptions.h */
DEFINE_TRACE(page_fault_kernel);

static notrace bool do_page_fault(struct pt_regs *regs)
{
	unsigned long addr = read_cr2();
	struct task *t = current;
	unsigned long fixup = user_mode(regs) ? 0 : search_exception_tables(regs->rip);
	int fault = VM_FAULT_SIGSEGV;

	/* Every fault, before anything is done about it, as Linux's trace_page_fault_entries(). */
	if (user_mode(regs))
		trace_page_fault_user(addr, regs, regs->error_code);
	else
		trace_page_fault_kernel(addr, regs, regs->error_code);

	/* pagefault_disable(): the kernel's copy fails at once, it does not page in */
	if (t->mm && addr < TASK_SIZE_MAX &&
	    (user_mode(regs) || (fixup && !t->pagefault_disabled)))
		fault = handle_mm_fault(t->mm, addr, regs->error_code & PF_ERR_WRITE,
					regs->error_code & PF_ERR_INSTR);
	if (!fault)
		return true;
	/*
	 * A copy-on-write took the old page from under the process's other threads: every CPU
	 * forgets it before it may be freed (kernel/mm/mmu_gather.c). The IPI wants interrupts
	 * on, as they were where the fault hit, and no spinlock held (a CPU spinning for it
	 * would never take the IPI); else the page waits for the next finish, or the mm's end.
	 */
	if (fault == VM_FAULT_TLB_FINISH) {
		if ((regs->rflags & RFLAGS_IF) && !preempt_count()) {
			local_irq_enable();
			tlb_finish_mmu(t->mm);
			local_irq_disable();
		}
		return true;
	}
	if (fault == VM_FAULT_OOM) {
		pagefault_out_of_memory();
		if (user_mode(regs)) {
			local_irq_enable();
			do_exit(SIGKILL);
		}
		send_sig(SIGKILL, t); /* the system call fails with EFAULT, then the process dies */
	}
	if (fixup) {
		regs->rip = fixup;
		return true;
	}
	if (fault == VM_FAULT_SIGBUS) {
		/* Past the end of a mapped file: SIGBUS, delivered as idt.c delivers the others. */
		force_sig_fault(regs, SIGBUS, addr);
		exit_to_user_mode(regs);
		return true;
	}
	return false;
}

extern const struct exception_table_entry {
	unsigned long insn, fixup;
} __start___ex_table[], __stop___ex_table[];

notrace unsigned long search_exception_tables(unsigned long ip)
{
	for (const struct exception_table_entry *e = __start___ex_table; e < __stop___ex_table; e++)
		if (e->insn == ip)
			return e->fixup;
	return 0;
}

void user_traps_init(void)
{
	set_exception_handler(VEC_PAGE_FAULT, do_page_fault);
}

/* Never probed: the exception paths a kprobe's own fault or step may take (kernel/kprobes.h) */
NOKPROBE_SYMBOL(do_fatal_exception);
NOKPROBE_SYMBOL(do_nmi);
NOKPROBE_SYMBOL(nmi_cpu_backtrace);
NOKPROBE_SYMBOL(do_page_fault);
NOKPROBE_SYMBOL(do_user_exception);
NOKPROBE_SYMBOL(search_exception_tables);
