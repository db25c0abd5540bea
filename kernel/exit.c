/*
 * The end of a user process: exit and exit_group, and death by a fault.
 *
 * A process is a kernel thread that exec turned into a program (kernel/fs/exec.c), so its end is
 * a kernel thread's end (kthread_exit: files closed, its parent's wait4 wakes) after freeing
 * what exec gave it: every page of its address space, its FPU area, its signal table.
 *
 * A thread (clone with CLONE_THREAD) lets go of its share of those; the process ends with its
 * last thread. exit ends one thread, exit_group (and a fatal signal) every thread of the
 * process (do_group_exit, kernel/signal.c). A thread other than the leader is nobody's
 * child: it releases itself at once. The leader, the process to its parent, stays a zombie
 * that wait4 cannot collect until the last thread is gone; that thread then gives the
 * process's children away, drops its terminal and timers, and tells the parent, with the
 * status of the group exit if there was one, else the leader's own, as Linux's
 * (delay_group_leader, release_task). Each thread first wakes pthread_join's waiter
 * (CLONE_CHILD_CLEARTID) and marks the robust locks it held (kernel/futex/core.c).
 */
#include "trace/events/signal.h"
#include "kernel/events/uprobes.h"
#include "kernel/syscalls.h"
#include "kernel/sched/sched.h"
#include "kernel/mm/mm.h"
#include "trace/trace_pid.h"
#include "trace/trace.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/traps.h"
#include "kernel/signal.h"
#include "kernel/session.h"
#include "kernel/time/timer.h"
#include "kernel/time/posix-timers.h"
#include "kernel/drivers/tty.h"
#include "kernel/sched/cputime.h"
#include "kernel/shell/shell.h"
#include "kernel/futex/futex.h"
#include "lib/errno.h"

#define EXIT_CODE_MASK 0xff /* a status is one byte */
#define SIG_EXIT_BASE 128 /* the shell's status for a death by signal N: 128 + N */
#define WSIG_MASK 0x7f /* wait status: the signal that killed it, or 0 for an exit */
#define WEXIT_SHIFT 8 /* wait status: the exit code, in the second byte */
#define PF_ERR_PRESENT 0x1 /* page-fault error code: a protection fault, not a missing page */
#define FPE_INTDIV 1 /* si_code of a division by zero */
#define ILL_ILLOPN 2 /* si_code of an invalid opcode */

/*
 * child_reaper is pid 1, the task that adopts orphans (kernel/fork.c): init, or the
 * rescue console.
 *
 * code is the wait status word as Linux's wait4 reports it: (exit code << 8) for an exit, the
 * signal number for a death by signal. The kernel thread's own exit code (kthread_join's) is
 * bash's: the exit code, or 128 + the signal.
 */
struct task *child_reaper;

/* What exec gave the task: its address space, its FPU area, its signal table. */
static void exit_process_state(struct task *t)
{
	task_replace_mm(t, NULL, NULL); /* its memory, FPU area and uprobe state go */
	sighand_free(detach_sighand(t));
}

/*
 * Linux panics when init ends ("Attempted to kill init!"): nothing would be left to run. Lucid
 * says the same, then pid 1 drops what its program had, as an exit does, and becomes the
 * rescue console (kernel/shell/shell.c): a kernel thread again, still pid 1, which adopts the
 * orphans. The processes of init's session hear SIGHUP as their terminal goes (tty_exit).
 */
static void __noreturn init_died(struct task *t, int code)
{
	printk(KERN_EMERG "Attempted to kill init! exitcode=0x%08x\n", code);
	t->group_exit = false; /* pid 1 lives on: the next program it runs may exit_group anew */
	tty_exit(t);
	exit_itimers(t);
	exit_process_state(t);
	rescue_console(NULL);
}

void __noreturn do_exit(int code)
{
	struct task *t = current, *leader = t->group_leader;
	int sig = code & WSIG_MASK;

	if (t == child_reaper && leader->nr_threads == 1)
		init_died(t, code);
	futex_exit_release(t); /* in its memory, still loaded */
	trace_pid_follow_exit(t->pid);
	tracing_record_cmdline_exit(t); /* its name, if the tracer could not save it yet */
	t->wait_status = code;
	exit_process_state(t); /* off its leader's thread list too, before the count below */
	/*
	 * The last thread out ends the process: what follows is the whole process's. Under the
	 * lock the last one's do_notify_parent takes: until it is dropped nobody can reap the
	 * leader, so a thread that is not the last may still wake the leader's queue.
	 */
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	bool last = __atomic_sub_fetch(&leader->nr_threads, 1, __ATOMIC_SEQ_CST) == 0;
	account_thread_exit(t); /* a thread's times stay its process's (getrusage, times) */
	if (!last)
		wake_up(&leader->wait_chldexit); /* an execve in another thread waits for this */
	spin_unlock_irqrestore(&task_list_lock, flags);
	if (last) {
		t->exit_last = true;
		if (leader->group_exit)
			leader->wait_status = leader->group_exit_code;
		forget_original_parent(leader);
		kill_orphaned_pgrp(leader, NULL); /* its group may lose its last link outside */
		tty_exit(leader); /* a session leader lets go of its terminal */
		exit_itimers(leader);
	}
	kthread_exit_status(sig ? SIG_EXIT_BASE + sig : (code >> WEXIT_SHIFT) & EXIT_CODE_MASK,
			    sig);
}

long sys_exit(int error_code)
{
	do_exit((error_code & EXIT_CODE_MASK) << WEXIT_SHIFT); /* this thread; the last one: all */
}

long sys_exit_group(int error_code)
{
	do_group_exit((error_code & EXIT_CODE_MASK) << WEXIT_SHIFT);
}

/*
 * execve from a thread of a process with others: they all end first (SIGKILL, as a group exit,
 * but the process lives on in t), and if t is not the leader it takes the leader's place and its
 * pid, so that the process keeps its pid, parent and children, as Linux's de_thread. Before the
 * point of no return: -EAGAIN if another thread is ending the process meanwhile (t dies then).
 * Returns the thread id t had, for sched_process_exec's old_pid.
 */
int de_thread(struct task *t)
{
	struct task *leader = t->group_leader, *c;
	int old_tid = t->pid;

	if (leader == t && __atomic_load_n(&t->nr_threads, __ATOMIC_SEQ_CST) == 1)
		return old_tid; /* one thread: the common case */
	if (zap_other_threads(t))
		return -EAGAIN;
	wait_event(&leader->wait_chldexit,
		   __atomic_load_n(&leader->nr_threads, __ATOMIC_SEQ_CST) == 1);
	if (leader != t) {
		wait_event(&leader->exit_wait, READ_ONCE(leader->state) == TASK_DEAD);
		/* The alarm is the process's: t keeps it (Linux's signal_struct real_timer). */
		itimer_real_takeover(t, leader);
		exit_posix_timers(leader); /* the exec deletes them anyway, as Linux's */
		unsigned long flags = spin_lock_irqsave(&task_list_lock);
		t->pid = leader->pid; /* Linux's exchange_tids: the process keeps its pid */
		leader->pid = old_tid;
		t->tgid = t->pid;
		t->parent = leader->parent;
		t->ppid = leader->ppid;
		t->start_time = leader->start_time;
		t->cutime = leader->cutime;
		t->cstime = leader->cstime;
		t->cnvcsw = leader->cnvcsw;
		t->cnivcsw = leader->cnivcsw;
		t->cmaxrss = leader->cmaxrss;
		t->cmin_flt = leader->cmin_flt;
		/* The old leader's figures, and those of the threads it kept, are the process's. */
		t->dead_utime = leader->dead_utime + leader->utime;
		t->dead_stime = leader->dead_stime + leader->stime;
		t->dead_nvcsw = leader->dead_nvcsw + leader->nvcsw;
		t->dead_nivcsw = leader->dead_nivcsw + leader->nivcsw;
		t->dead_min_flt = leader->dead_min_flt + leader->min_flt;
		leader->cputime_folded = true; /* counted in t now, until it is gone */
		t->child_subreaper = leader->child_subreaper;
		t->shared_pending = leader->shared_pending;
		list_for_each_entry(c, &task_list, tasks)
		{
			if (c->parent == leader)
				c->parent = t;
		}
		leader->parent = NULL; /* nobody's child now: it goes below */
		t->group_leader = t;
		t->nr_threads = 1;
		spin_unlock_irqrestore(&task_list_lock, flags);
		leader->group_leader = t;
		release_self(leader);
	}
	end_group_exec(t); /* t's thread list is t alone, the process no longer exiting */
	return old_tid;
}

/*
 * A fault in user mode: the process's handler for sig runs (on the way out, with the address
 * in its siginfo), or, if it has none or blocks the signal, Linux's show_signal_msg line and
 * the default action: the process dies. The kernel, the shell and every other process go on.
 */
void force_sig_fault(struct pt_regs *regs, int sig, unsigned long addr)
{
	struct ksiginfo info = {.signo = sig, .code = SI_KERNEL, .addr = addr};
	unsigned long error_code = regs->error_code;

	if (regs->vector == VEC_PAGE_FAULT && sig == SIGBUS) {
		info.code = BUS_ADRERR; /* a page past a mapped file's end (kernel/mm/memory.c) */
	} else if (regs->vector == VEC_PAGE_FAULT && addr >= TASK_SIZE_MAX) {
		/*
		 * Not a user address: no mapping, and a protection fault whatever the page tables
		 * say, so that they tell user space nothing (Linux's sanitize_error_code).
		 */
		info.code = SEGV_MAPERR;
		error_code |= PF_ERR_PRESENT;
	} else if (regs->vector == VEC_PAGE_FAULT) {
		info.code = regs->error_code & PF_ERR_PRESENT ? SEGV_ACCERR : SEGV_MAPERR;
	} else if (regs->vector == VEC_DIVIDE_ERROR || regs->vector == VEC_INVALID_OPCODE) {
		info.code = regs->vector == VEC_DIVIDE_ERROR ? FPE_INTDIV : ILL_ILLOPN;
		info.addr = regs->rip; /* the instruction, as Linux's do_error_trap() */
	}
	force_sig_trap(regs, &info, regs->vector, error_code);
}

void force_sig_trap(struct pt_regs *regs, const struct ksiginfo *info, unsigned long trap_nr,
		    unsigned long error_code)
{
	struct task *t = current;
	int sig = info->signo;

	/* What the handler's sigcontext says of it: trapno, err and (a page fault) cr2. */
	t->trap_nr = trap_nr;
	t->error_code = error_code;
	if (trap_nr == VEC_PAGE_FAULT)
		t->cr2 = info->addr;
	if (sig_handled(t, sig)) {
		do_send_sig_info(sig, info, t, false); /* to the thread that faulted */
		return;
	}
	if (trap_nr == VEC_PAGE_FAULT && sig == SIGBUS)
		; /* Linux's do_sigbus says nothing */
	else if (trap_nr == VEC_PAGE_FAULT) /* the address and the error code, as Linux */
		printk(KERN_INFO "%s[%d]: segfault at %lx ip %016lx sp %016lx error %lx\n", t->comm,
		       t->pid, info->addr, regs->rip, regs->rsp, error_code);
	else if (trap_nr == VEC_GENERAL_PROTECTION)
		printk(KERN_INFO "traps: %s[%d] general protection fault ip:%lx sp:%lx error:%lx\n",
		       t->comm, t->pid, regs->rip, regs->rsp, error_code);
	else
		printk(KERN_INFO "traps: %s[%d] trap %s ip:%lx sp:%lx error:%lx\n", t->comm, t->pid,
		       exception_name(trap_nr), regs->rip, regs->rsp, error_code);
	local_irq_enable();
	/*
	 * Linux sends the signal (to this thread), and its default action is what the task takes:
	 * the events say so, as Linux's do, though Lucid goes straight to the end.
	 */
	struct k_sigaction dfl = {.handler = SIG_DFL};
	trace_signal_generate(sig, info, t, false, TRACE_SIGNAL_DELIVERED);
	trace_signal_deliver(sig, info, &dfl);
	do_group_exit(sig);
}
