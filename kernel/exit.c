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
 *
 * Then the parent's side, as in Linux's exit.c: wait4 and waitid (do_wait).
 * A wait finds an exited child (a zombie: TASK_DEAD, not yet reaped), takes its status word and
 * frees it (kthread_join); with WUNTRACED or WCONTINUED, also a child stopped or continued since
 * it last looked (docs/design/signals.md). A child's exit, stop and continue wake its parent's
 * wait_chldexit queue. A child whose parent ignores SIGCHLD is reaped by the parent's next
 * fork, wait4 or exit without being reported, as Linux reaps it at once.
 *
 * Orphans live on, as on Linux (forget_original_parent): a process that exits gives its children
 * to a new parent, the nearest ancestor that asked for them with prctl(PR_SET_CHILD_SUBREAPER),
 * else init (child_reaper, pid 1); their getppid says so, and a zombie among them is reported
 * to the new parent anew.
 * With init= that is a program, which collects them with wait4 as Linux's init does. Otherwise
 * pid 1 may be a kernel thread (the rescue console) that never calls wait4: a child of one
 * releases itself as it exits (kthread_release_self, as Linux's autoreap), and the rest of it
 * (its stack) is freed by the next task created or the console's next prompt.
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
#include "arch/x86_64/uaccess.h"
#include "trace/events/sched.h"
#include <limits.h> /* INT_MIN */
#include <stddef.h> /* offsetof */

#define EXIT_CODE_MASK 0xff /* a status is one byte */
#define SIG_EXIT_BASE 128 /* the shell's status for a death by signal N: 128 + N */
#define WSIG_MASK 0x7f /* wait status: the signal that killed it, or 0 for an exit */
#define WEXIT_SHIFT 8 /* wait status: the exit code, in the second byte */
#define PF_ERR_PRESENT 0x1 /* page-fault error code: a protection fault, not a missing page */
#define FPE_INTDIV 1 /* si_code of a division by zero */
#define ILL_ILLOPN 2 /* si_code of an invalid opcode */
#define WNOHANG 0x00000001
#define WUNTRACED 0x00000002 /* wait4's name for WSTOPPED */
#define WSTOPPED WUNTRACED
#define WEXITED 0x00000004
#define WCONTINUED 0x00000008
#define WNOWAIT 0x01000000
#define __WNOTHREAD 0x20000000
#define __WALL 0x40000000
#define __WCLONE 0x80000000

/*
 * child_reaper is pid 1, the task that adopts orphans (forget_original_parent): init, or the
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

/*
 * What a wait asks for (Linux's struct wait_opts): which children (all, one pid, or a process
 * group) and which news (options: WEXITED an exit, WSTOPPED a stop, WCONTINUED a continue,
 * WNOHANG not to sleep, WNOWAIT to leave the news for the next wait). wait4 and waitid both
 * come here (do_wait), each saying it in its own words.
 */
enum wait_type { WAIT_ALL, WAIT_PID, WAIT_PGID };

struct wait_opts {
	enum wait_type type;
	int id; /* the pid or the process group */
	int options;
};

static bool child_matches(struct task *p, struct task *t, const struct wait_opts *wo)
{
	if (t->parent != p || t->reaped || t->group_leader != t)
		return false;
	switch (wo->type) {
	case WAIT_PID:
		return t->pid == wo->id;
	case WAIT_PGID:
		return t->pgrp == wo->id;
	default:
		return true;
	}
}

/*
 * A child of p that wo selects with something to report: a zombie first (if wo asks for
 * exits; *status its wait status, read under the lock), else one stopped or continued that
 * wo asks about (*report set). *any: whether wo selects a child at all.
 */
static struct task *find_child(struct task *p, const struct wait_opts *wo, bool *any,
			       bool *report, int *status)
{
	struct task *t, *found = NULL;
	unsigned long flags = spin_lock_irqsave(&task_list_lock);

	*any = false;
	*report = false;
	list_for_each_entry(t, &task_list, tasks)
	{
		if (!child_matches(p, t, wo))
			continue;
		/* A leader that is dead but has threads left is not a zombie yet. */
		if (__atomic_load_n(&t->zombie, __ATOMIC_SEQ_CST) ||
		    (READ_ONCE(t->state) == TASK_DEAD &&
		     !__atomic_load_n(&t->nr_threads, __ATOMIC_SEQ_CST))) {
			/*
			 * An exit not asked about: no child to wait for (ECHILD if it is the only
			 * one, as Linux's wait_consider_task); it stays for a wait that asks.
			 */
			if (!(wo->options & WEXITED) && !t->autoreap)
				continue;
			*any = true;
			found = t;
			*report = false;
			*status = t->wait_status;
			break;
		}
		*any = true; /* alive: it may stop, continue or exit */
		if (!found && child_report_pending(t, wo->options & WSTOPPED,
						   wo->options & WCONTINUED)) {
			found = t;
			*report = true;
		}
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return found;
}

/* A wait's condition: a child with news, or none left to wait for. */
static bool wait_done(struct task *p, const struct wait_opts *wo)
{
	bool any, report;
	int status;

	return find_child(p, wo, &any, &report, &status) || !any;
}

static int reap(struct task *t, int *status)
{
	int pid = t->pid;

	t->reaped = true;
	*status = t->wait_status;
	kthread_join(t);
	__atomic_sub_fetch(&nr_user_procs, 1, __ATOMIC_RELAXED);
	return pid;
}

/* Frees the children that exited while p ignored SIGCHLD: nobody will ever ask for them. */
void reap_ignored_children(struct task *p)
{
	for (;;) {
		struct task *t, *found = NULL;
		unsigned long flags = spin_lock_irqsave(&task_list_lock);
		int status;

		list_for_each_entry(t, &task_list, tasks)
		{
			if (t->parent == p && !t->reaped && t->autoreap &&
			    __atomic_load_n(&t->zombie, __ATOMIC_SEQ_CST)) {
				found = t;
				break;
			}
		}
		spin_unlock_irqrestore(&task_list_lock, flags);
		if (!found)
			return;
		reap(found, &status);
	}
}

/*
 * Waits for news of a child wo selects (Linux's do_wait): its pid, with *status its wait
 * status and *ru its and its children's times; 0 under WNOHANG when no child has news;
 * -ECHILD when wo selects no child; -ERESTARTSYS when a signal came first.
 */
static long do_wait(const struct wait_opts *wo, int *status, struct rusage *ru)
{
	/* Any thread waits for any child of its process. */
	struct task *p = current->group_leader, *c;
	bool any, report, nowait = wo->options & WNOWAIT;
	/* Linux's pid_nr(wo_pid): the pid or group asked for, 0 for any child. */
	int wo_pid = wo->type == WAIT_ALL ? 0 : wo->id;

	trace_sched_process_wait(current, wo_pid);
	for (;;) {
		c = find_child(p, wo, &any, &report, status);
		if (c && !report && c->autoreap) {
			reap(c, status); /* its parent ignores SIGCHLD: nothing to report */
			continue;
		}
		if (c && report) {
			/* Taken under the signal lock: a SIGCONT may have come meanwhile. */
			if (!child_report_take(c, wo->options & WSTOPPED, wo->options & WCONTINUED,
					       !nowait, status))
				continue;
			child_rusage(c, ru);
			return c->pid;
		}
		if (c) {
			child_rusage(c, ru);
			if (nowait)
				return c->pid; /* still a zombie: the next wait finds it again */
			account_child_times(p, c); /* before reap frees it */
			return reap(c, status);
		}
		if (!any)
			return -ECHILD;
		if (wo->options & WNOHANG)
			return 0; /* children, none with news */
		if (wait_event_interruptible(&p->wait_chldexit, wait_done(p, wo)))
			return -ERESTARTSYS; /* a handler with SA_RESTART waits on */
	}
}

long sys_wait4(int upid, int __user *stat_addr, int options, void __user *ru)
{
	struct task *p = current->group_leader;
	struct wait_opts wo = {.options = options | WEXITED}; /* an exit is always news to wait4 */
	struct rusage kru; /* the child's times and its children's (kernel/sched/cputime.c) */
	int status;

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WALL | __WCLONE))
		return -EINVAL;
	if (upid == INT_MIN)
		return -ESRCH; /* the group -INT_MIN cannot be named (Linux's kernel_wait4) */
	/* upid: > 0 that pid, 0 the caller's process group, < -1 the group -upid, -1 any. */
	wo.type = upid > 0 ? WAIT_PID : upid == -1 ? WAIT_ALL : WAIT_PGID;
	wo.id = upid > 0 ? upid : upid == 0 ? p->pgrp : -upid;
	long pid = do_wait(&wo, &status, &kru);
	if (pid <= 0)
		return pid;
	if (stat_addr && copy_to_user(stat_addr, &status, sizeof(status)))
		return -EFAULT;
	if (ru && copy_to_user(ru, &kru, sizeof(kru)))
		return -EFAULT;
	return pid;
}

/*
 * waitid(2): the same wait, the child named by idtype (P_ALL, P_PID, P_PGID with 0 the
 * caller's group, P_PIDFD a pidfd), the news asked for explicitly (WEXITED and the others),
 * and the answer in a siginfo, as the SIGCHLD would carry it: 0 returned, not the pid. Linux's
 * order of checks; and as Linux's, the six siginfo fields are written whatever happened, zero
 * when nothing was found (WNOHANG) or on an error, so a caller may test si_pid. A nonblocking
 * pidfd (PIDFD_NONBLOCK) waits as WNOHANG does, but says EAGAIN rather than 0.
 */
#define P_ALL 0
#define P_PID 1
#define P_PGID 2
#define P_PIDFD 3

/* Which children waitid's idtype and id name (Linux's kernel_waitid, its switch). */
static int waitid_select(int which, int upid, struct wait_opts *wo, unsigned int *f_flags)
{
	switch (which) {
	case P_ALL:
		wo->type = WAIT_ALL;
		return 0;
	case P_PID:
		if (upid <= 0)
			return -EINVAL;
		wo->type = WAIT_PID;
		wo->id = upid;
		return 0;
	case P_PGID:
		if (upid < 0)
			return -EINVAL;
		wo->type = WAIT_PGID;
		wo->id = upid ? upid : current->group_leader->pgrp; /* 0: ours, since Linux 5.4 */
		return 0;
	case P_PIDFD:
		if (upid < 0)
			return -EINVAL;
		wo->type = WAIT_PID;
		wo->id = pidfd_get_pid(upid, f_flags);
		return wo->id < 0 ? wo->id : 0;
	default:
		return -EINVAL;
	}
}

/* The part of a siginfo waitid writes: the rest of the caller's is left as it was. */
struct waitid_info {
	int signo, errnum, code;
	int pad; /* not written */
	int pid, uid, status;
};

long sys_waitid(int which, int upid, void __user *infop, int options, void __user *ru)
{
	struct wait_opts wo = {.options = options};
	struct waitid_info info = {0};
	struct rusage kru;
	unsigned int f_flags = 0;
	int status;
	long ret;

	if (options & ~(WNOHANG | WNOWAIT | WEXITED | WSTOPPED | WCONTINUED | __WNOTHREAD |
			__WCLONE | __WALL))
		ret = -EINVAL;
	else if (!(options & (WEXITED | WSTOPPED | WCONTINUED)))
		ret = -EINVAL; /* no news asked for */
	else
		ret = waitid_select(which, upid, &wo, &f_flags);
	if (!ret) {
		if (f_flags & O_NONBLOCK)
			wo.options |= WNOHANG;
		ret = do_wait(&wo, &status, &kru);
		if (!ret && !(options & WNOHANG) && (f_flags & O_NONBLOCK))
			ret = -EAGAIN;
	}
	if (ret > 0) {
		info.signo = SIGCHLD;
		info.pid = (int)ret;
		info.code = wait_status_code(status, &info.status);
		ret = 0;
		if (ru && copy_to_user(ru, &kru, sizeof(kru)))
			return -EFAULT;
	}
	if (!infop)
		return ret;
	if (copy_to_user(infop, &info, offsetof(struct waitid_info, pad)) ||
	    copy_to_user((char __user *)infop + offsetof(struct waitid_info, pid), &info.pid,
			 sizeof(info) - offsetof(struct waitid_info, pid)))
		return -EFAULT;
	return ret;
}

/*
 * The new parent of an exiting process's children: the nearest living ancestor that is a
 * subreaper, else init. Linux's find_new_reaper. Under task_list_lock, which every change of a
 * parent pointer holds: the chain ends at a task with no parent (pid 1, a kernel thread), and no
 * task on it is freed meanwhile, as a task gives its children away before it can be reaped.
 */
static struct task *find_new_reaper(struct task *p)
{
	for (struct task *r = p->parent; r; r = r->parent)
		if (r->child_subreaper && !r->exiting)
			return r;
	return child_reaper;
}

/*
 * At exit: the children go to a new parent, as on Linux: the living
 * run on, a zombie is reported to its new parent anew (SIGCHLD), who collects it. Under the lock
 * that do_notify_parent holds too, so each child either exited first (a zombie, reported again)
 * or will tell its new parent. Zombies that a kernel thread would get (the rescue console adopts
 * only to let go) are collected here.
 */
void forget_original_parent(struct task *p)
{
	struct task *t, *reaper;
	bool any;
	int status;
	unsigned long flags = spin_lock_irqsave(&task_list_lock);

	p->exiting = true; /* no subreaper search picks it from now on */
	reaper = find_new_reaper(p);
	list_for_each_entry(t, &task_list, tasks) {
		bool zombie = __atomic_load_n(&t->zombie, __ATOMIC_SEQ_CST);

		if (t->parent != p || t->reaped || (zombie && (!reaper || !reaper->sighand)))
			continue; /* ours to collect, below */
		if (!reaper) { /* boot, before pid 1 is there: nothing can adopt it */
			send_sig(SIGKILL, t);
			continue;
		}
		t->parent = reaper;
		t->ppid = reaper->pid;
		if (zombie)
			__do_notify_parent(t, t->wait_status);
		else if (t->group_leader == t)
			__kill_orphaned_pgrp(t, p); /* p was, perhaps, its group's link */
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	const struct wait_opts exits = {.type = WAIT_ALL, .options = WEXITED};
	for (;;) {
		bool report;
		struct task *z = find_child(p, &exits, &any, &report, &status);

		if (z)
			reap(z, &status);
		else if (!any)
			break;
		else
			wait_event(&p->wait_chldexit, wait_done(p, &exits));
	}
}

/*
 * A child of a kernel thread (an orphan the rescue console, pid 1, adopted) releases itself: it
 * leaves the process count now, and kthread_release_self the task list. Called by t itself as
 * it exits, once do_notify_parent has decided it (t->self_reap).
 */
void release_self(struct task *t)
{
	t->reaped = true;
	__atomic_sub_fetch(&nr_user_procs, 1, __ATOMIC_RELAXED);
	kthread_release_self(t);
}
