/*
 * fork, and wait4 to collect what a child left (Linux's kernel/sched/fork.c and kernel/sched/exit.c).
 *
 * fork makes a new task (a kernel thread, as every Lucid task starts) with a copy of the
 * parent's address space, FPU state, TLS base, signal state and open files, and a copy of the
 * parent's system-call frame with RAX 0: the child's first run leaves the kernel through that
 * frame (ret_from_fork), so it returns from the same fork as its parent, with 0.
 *
 * wait4 finds an exited child (a zombie: TASK_DEAD, not yet reaped), takes its status word and
 * frees it (kthread_join); with WUNTRACED or WCONTINUED, also a child stopped or continued since
 * it last looked (docs/design/signals.md). A child's exit, stop and continue wake its parent's
 * wait_chldexit queue. A child whose parent ignores SIGCHLD is reaped by the parent's next
 * fork, wait4 or exit without being reported, as Linux reaps it at once.
 *
 * One deviation from Linux, until there is an init to adopt orphans: a process that exits ends
 * its children too (as Ctrl-C would) and reaps them, so that no task is left that nobody can
 * collect. The clone flags accepted are what the C libraries' fork() passes: SIGCHLD, with
 * glibc's CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID, and no new stack.
 */
#include "kernel/syscalls.h"
#include "kernel/sched/sched.h"
#include "trace/trace_pid.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/signal.h"
#include "kernel/sched/cputime.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/syscall.h"
#include "arch/x86_64/uaccess.h"
#include "kernel/mm/kstack.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "trace/events/sched.h"

#define CSIGNAL 0x000000ff /* the low byte of clone's flags: the signal sent at exit */
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_CHILD_SETTID 0x01000000
#define WNOHANG 0x00000001
#define WUNTRACED 0x00000002
#define WCONTINUED 0x00000008
#define __WALL 0x40000000
#define __WCLONE 0x80000000
#define MAX_USER_PROCS 64 /* a fork bomb meets EAGAIN here, and the shell still answers */
_Static_assert(MAX_USER_PROCS == INIT_NPROC, "RLIMIT_NPROC says how many processes fork allows");

static int nr_user_procs;

DEFINE_TRACE(sched_process_fork); /* trace/events/sched.h */
DEFINE_TRACE(sched_process_wait);

void ret_to_user(struct pt_regs *regs) __noreturn;

/* What the child's first code needs: the parent's frame, and where CLONE_CHILD_SETTID writes. */
struct fork_frame {
	struct pt_regs regs;
	int __user *set_child_tid;
};

/*
 * The child's first code: CLONE_CHILD_SETTID's write, in the child's own memory and through
 * copy_to_user (the page is shared copy-on-write with the parent, or not there yet: the fault
 * gives the child its copy, as Linux's schedule_tail does it); then its copy of the parent's
 * frame, RAX 0, back to ring 3.
 */
static int ret_from_fork(void *arg)
{
	struct fork_frame *f = arg;
	struct pt_regs regs = f->regs;
	int __user *tidp = f->set_child_tid;
	int pid = current->pid;

	kfree(arg);
	if (tidp) /* a bad pointer is ignored, as Linux ignores it */
		(void)copy_to_user(tidp, &pid, sizeof(pid));
	regs.rax = 0;
	local_irq_disable();
	current->curr_ret_stack = 0; /* the kernel frames below never return */
	ret_to_user(&regs);
}

static void reap_ignored_children(struct task *p);

static long do_fork(unsigned long flags, unsigned long newsp, int __user *child_tidptr)
{
	struct task *p = current, *c;
	struct pt_regs *regs = (struct pt_regs *)((char *)p->stack + KSTACK_SIZE) - 1;

	reap_ignored_children(p); /* their slots count against MAX_USER_PROCS until reaped */
	if ((flags & ~(CSIGNAL | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) ||
	    (flags & CSIGNAL) != SIGCHLD || newsp)
		return -EINVAL; /* threads and the rest of clone come later */
	if (__atomic_add_fetch(&nr_user_procs, 1, __ATOMIC_RELAXED) > MAX_USER_PROCS) {
		__atomic_sub_fetch(&nr_user_procs, 1, __ATOMIC_RELAXED);
		return -EAGAIN;
	}
	struct fork_frame *frame = kmalloc(sizeof(*frame));
	struct mm_struct *mm = frame ? dup_mm(p->mm) : NULL;
	struct fpu *fpu = mm ? fpu_alloc() : NULL;
	/* The handlers, ignored signals and mask are the parent's; nothing is pending. */
	struct sighand_struct *sighand = fpu ? sighand_dup(p->sighand) : NULL;

	c = sighand ? kthread_create(ret_from_fork, frame, p->comm) : NULL;
	if (!c) {
		sighand_free(sighand);
		if (fpu)
			fpu_free(fpu);
		mmput(mm);
		kfree(frame);
		__atomic_sub_fetch(&nr_user_procs, 1, __ATOMIC_RELAXED);
		return -ENOMEM;
	}
	frame->regs = *regs;
	frame->set_child_tid = flags & CLONE_CHILD_SETTID ? child_tidptr : NULL;
	fpu_save(fpu); /* the parent's registers, live: the kernel never touches them */
	c->mm = mm;
	c->fpu = fpu;
	c->fsbase = p->fsbase;
	c->blocked = p->blocked;
	c->execed = true; /* a program, as its parent */
	c->parent = p;
	if (flags & CLONE_CHILD_CLEARTID)
		c->clear_child_tid = (unsigned long)child_tidptr;
	/* A process of its own in its parent's job, with no signal pending, as after fork(2). */
	setpgid_task(c, p->pgrp);
	attach_sighand(c, sighand); /* under sig_lock: a kill may see c already */
	int pid = c->pid;
	trace_sched_process_fork(p, c);
	trace_pid_follow_fork(p->pid, pid); /* before it runs: its first calls are traced */
	wake_up_new_task(c);
	return pid;
}

long sys_fork(void)
{
	return do_fork(SIGCHLD, 0, NULL);
}

long sys_vfork(void)
{
	return do_fork(SIGCHLD, 0, NULL); /* a copy, not a shared address space: correct, slower */
}

long sys_clone(unsigned long clone_flags, unsigned long newsp, int __user *parent_tidptr,
	       int __user *child_tidptr, unsigned long tls)
{
	(void)parent_tidptr;
	(void)tls;
	return do_fork(clone_flags, newsp, child_tidptr);
}

/* Does child t match wait4's pid argument (> 0: that pid, 0: p's group, < -1: a group)? */
static bool child_matches(struct task *p, struct task *t, int upid)
{
	if (t->parent != p || t->reaped)
		return false;
	if (upid > 0)
		return t->pid == upid;
	if (upid == 0)
		return t->pgrp == p->pgrp;
	if (upid < -1)
		return t->pgrp == -upid;
	return true;
}

/*
 * A child of p that upid selects with something to report: a zombie first, else one stopped
 * or continued that options ask about (*report set). *any: whether upid selects a child at all.
 */
static struct task *find_child(struct task *p, int upid, int options, bool *any, bool *report)
{
	struct task *t, *found = NULL;
	unsigned long flags = spin_lock_irqsave(&task_list_lock);

	*any = false;
	*report = false;
	list_for_each_entry(t, &task_list, tasks)
	{
		if (!child_matches(p, t, upid))
			continue;
		*any = true;
		if (__atomic_load_n(&t->zombie, __ATOMIC_SEQ_CST) ||
		    READ_ONCE(t->state) == TASK_DEAD) {
			found = t;
			*report = false;
			break;
		}
		if (!found && child_report_pending(t, options & WUNTRACED, options & WCONTINUED)) {
			found = t;
			*report = true;
		}
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return found;
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
static void reap_ignored_children(struct task *p)
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

long sys_wait4(int upid, int __user *stat_addr, int options, void __user *ru)
{
	struct task *p = current, *c;
	bool any, report;
	int status, pid;
	struct rusage kru; /* the child's times and its children's (kernel/sched/cputime.c) */

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WALL | __WCLONE))
		return -EINVAL;
	/* Linux's pid_nr(wo_pid): the pid or group asked for, 0 for any child. */
	trace_sched_process_wait(p, upid > 0 ? upid : upid == 0 ? p->pgrp : upid < -1 ? -upid : 0);
	for (;;) {
		c = find_child(p, upid, options, &any, &report);
		if (c && !report && c->autoreap) {
			reap(c, &status); /* its parent ignores SIGCHLD: nothing to report */
			continue;
		}
		if (c && report) {
			/* Taken under the signal lock: a SIGCONT may have come meanwhile. */
			if (!child_report_take(c, options & WUNTRACED, options & WCONTINUED, &status))
				continue;
			child_rusage(c, &kru);
			pid = c->pid;
			break;
		}
		if (c) {
			child_rusage(c, &kru);
			account_child_times(p, c); /* before reap frees it */
			pid = reap(c, &status);
			break;
		}
		if (!any)
			return -ECHILD;
		if (options & WNOHANG)
			return 0; /* children, none with news */
		if (wait_event_interruptible(&p->wait_chldexit, ({
			    bool a, r;
			    find_child(p, upid, options, &a, &r) || !a;
		    })))
			return -ERESTARTSYS; /* a handler with SA_RESTART waits on */
	}
	if (stat_addr && copy_to_user(stat_addr, &status, sizeof(status)))
		return -EFAULT;
	if (ru && copy_to_user(ru, &kru, sizeof(kru)))
		return -EFAULT;
	return pid;
}

/* At exit: end the children still running, and collect every child. */
void exit_children(struct task *p)
{
	struct task *t;
	bool any;
	int status;
	unsigned long flags = spin_lock_irqsave(&task_list_lock);

	list_for_each_entry(t, &task_list, tasks) {
		if (t->parent == p && !t->reaped)
			send_sig(SIGKILL, t); /* no init to adopt them (yet): orphans die */
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	for (;;) {
		bool report;
		struct task *z = find_child(p, -1, 0, &any, &report);

		if (z)
			reap(z, &status);
		else if (!any)
			break;
		else
			wait_event(&p->wait_chldexit, ({
				bool a, r;
				find_child(p, -1, 0, &a, &r) || !a;
			}));
	}
}
