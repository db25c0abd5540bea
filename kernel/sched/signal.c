/*
 * Signals, as far as kernel threads can have them: enough to end a command that waits or runs
 * too long, and every thread it started.
 *
 * There is no signal delivery: a task is only marked (a bit per signal in task->sigpending)
 * and, if it sleeps in wait_event_interruptible(), msleep_interruptible() or a blocking read,
 * woken. The code it runs sees the mark (signal_pending_current()), gives up what it was doing
 * with -EINTR, and the thread exits; kthread_exit() then makes its status 128 + the signal, as
 * if the signal had killed it. A thread cannot be stopped from outside, so SIGKILL and SIGTERM
 * end a command the same way, at its next check: code that loops long checks, and sleeps a
 * user can wait on are interruptible.
 *
 * Who gets a signal: Ctrl-C and `kill %N` are for a whole job, `kill PID` for one command
 * with every thread it started, as bash's SIGINT to the foreground process group and kill(2)
 * to a process are. So each task has two ids, with Linux's names: pgrp, the job it belongs
 * to, and tgid, the command (its "process"). The shell gives each command of a pipeline
 * tgid = its own pid and pgrp = the first command's pid; a thread a command starts (taskset's,
 * run_test's workers) copies both from it in kthread_create(). Threads of the kernel's own
 * (the shell itself, snapshotd) have pgrp 0 and are deaf to kill, as Linux's kernel threads.
 *
 * No thread of a group escapes: kthread_create() puts the new thread on the task list and
 * copies its creator's marks under task_list_lock, and kill_pgrp() and kill_pid() mark under
 * the same lock. A thread created during a kill either is on the list when the walk passes,
 * or is created after it, from a creator already marked. A mark on a thread that already
 * exited changes nothing: its status was fixed when it exited.
 *
 * No wakeup is lost: the sleeper marks itself asleep and then tests the mark, the sender sets
 * the mark and then tests whether the task sleeps, all with sequentially consistent atomics,
 * so at least one of them sees the other's write.
 */
#include "kernel/sched/signal.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

void send_sig(int sig, struct task *t)
{
	__atomic_fetch_or(&t->sigpending, 1UL << sig, __ATOMIC_SEQ_CST);
	/* Only interruptible sleeps: an uninterruptible one (a mutex) would sleep again anyway. */
	if (__atomic_load_n(&t->state, __ATOMIC_SEQ_CST) == TASK_INTERRUPTIBLE)
		wake_up_process(t);
}

int kill_pgrp(int pgrp, int sig)
{
	unsigned long flags;
	struct task *t;
	int n = 0;

	if (pgrp <= 0)
		return -ESRCH; /* the kernel's own threads form no group */
	flags = spin_lock_irqsave(&task_list_lock);
	list_for_each_entry(t, &task_list, tasks) {
		if (t->pgrp == pgrp) {
			if (sig)
				send_sig(sig, t);
			n++;
		}
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return n ? n : -ESRCH;
}

int kill_pid(int pid, int sig)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *t, *target = NULL;

	list_for_each_entry(t, &task_list, tasks) {
		if (t->pid == pid) /* dead but not yet joined, it is a zombie: still there */
			target = t;
	}
	if (target && target->pgrp && sig) {
		list_for_each_entry(t, &task_list, tasks) {
			if (t->tgid == target->tgid)
				send_sig(sig, t);
		}
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return target ? 0 : -ESRCH;
}

void setpgid_task(struct task *t, int pgrp)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock); /* as a kill reads them */

	t->tgid = t->pid;
	t->pgrp = pgrp;
	t->sigpending = 0; /* a Ctrl-C the shell got was for the shell (kernel/shell/sh_exec.c) */
	spin_unlock_irqrestore(&task_list_lock, flags);
}

int task_signal_pending(struct task *t)
{
	unsigned long pending = __atomic_load_n(&t->sigpending, __ATOMIC_SEQ_CST);

	return pending ? __builtin_ctzl(pending) : 0;
}

void flush_signals(void)
{
	__atomic_store_n(&current->sigpending, 0, __ATOMIC_SEQ_CST);
}

bool signal_pending_current(void)
{
	return __atomic_load_n(&current->sigpending, __ATOMIC_SEQ_CST) != 0;
}
