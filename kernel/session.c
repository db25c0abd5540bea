/*
 * Sessions and process groups: setsid, getsid, setpgid, getpgid and getpgrp, with Linux's rules
 * and errors (kernel/sys.c there).
 *
 * A process group is a job: the processes a shell started for one pipeline, which ^C reaches
 * together (kernel/signal.c). A session is a login: the groups a shell started, sharing
 * one controlling terminal, of which one group at a time is in the foreground
 * (kernel/drivers/tty.c). Both are named by the pid of the process that made them, their
 * leader, and kept in the task (task->pgrp, task->sid); a fork inherits both.
 *
 * pid 1 leads the console's session from the start (tty_claim_console). A program can make a
 * new group in it (setpgid), give it the terminal (tcsetpgrp, TIOCSPGRP) or leave for a session
 * of its own with no terminal (setsid), as init does for the login bash, and bash for each job.
 *
 * The rules hold a process to its own session: setpgid moves only the caller or a child of
 * it, never a session leader, only into a group of the same session, and a child only until it
 * calls execve (EACCES after: its program may rely on its group, Linux's PF_FORKNOEXEC).
 *
 * The ids are the process's, as Linux keeps them in the signal_struct its threads share; Lucid
 * keeps a copy in each thread (a new one copies its creator's: kernel/kthread.c), so a change
 * writes every thread's under task_list_lock (set_process_ids), and getpgrp, getpgid(tid) and
 * /proc/PID/task/TID/stat agree in every thread.
 */
#include "kernel/session.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "kernel/syscalls.h"
#include "kernel/locking/lockdep.h"
#include "lib/errno.h"

/* The task with this pid, zombies included (their ids still count), or NULL. Under the lock. */
static struct task *find_task(int pid)
{
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->pid == pid && !t->reaped)
			return t;
	}
	return NULL;
}

/* A live task of group pgrp, or NULL. Under the lock. */
static struct task *find_pgrp_member(int pgrp)
{
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->pgrp == pgrp && READ_ONCE(t->state) != TASK_DEAD)
			return t;
	}
	return NULL;
}

int session_of_pgrp(int pgrp)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *t = pgrp > 0 ? find_pgrp_member(pgrp) : NULL;
	int sid = -ESRCH;

	if (!t && pgrp > 0)
		t = find_task(pgrp);
	if (t)
		sid = t->sid;
	spin_unlock_irqrestore(&task_list_lock, flags);
	return sid;
}

/* Every thread of leader's process in group pgrp of session sid. Under task_list_lock. */
static void set_process_ids(struct task *leader, int pgrp, int sid)
{
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->group_leader == leader) {
			t->pgrp = pgrp;
			t->sid = sid;
		}
	}
}

/* setsid(): a new session and group, both the caller's pid, with no controlling terminal. */
long sys_setsid(void)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *p = current->group_leader; /* the process: named by its pid, as Linux's */
	long ret = -EPERM;

	/* A group leader cannot leave its group behind in the old session; nor can anyone whose
	 * pid names a group already (Linux: pid_task(sid, PIDTYPE_PGID)). */
	if (!find_pgrp_member(p->pid)) {
		set_process_ids(p, p->pid, p->pid);
		ret = p->sid;
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return ret;
}

/* getsid(pid) and getpgid(pid): 0 is the caller; ESRCH for no such process. */
static long get_id(int pid, bool session)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *t = pid ? find_task(pid) : current;
	long ret = -ESRCH;

	if (pid >= 0 && t)
		ret = session ? t->sid : t->pgrp;
	spin_unlock_irqrestore(&task_list_lock, flags);
	return ret;
}

long sys_getsid(int pid)
{
	return get_id(pid, true);
}

long sys_getpgid(int pid)
{
	return get_id(pid, false);
}

long sys_getpgrp(void)
{
	return current->pgrp;
}

/*
 * setpgid(pid, pgid): moves the caller or one of its children (pid 0: the caller) into group
 * pgid of its session (0: a new group named by pid), every thread of it. The errors, in
 * Linux's order: EINVAL for a negative pgid, ESRCH for no such pid, EINVAL for a thread that is
 * not its process's leader, EPERM for a child in another session, EACCES for a child that has
 * called execve, ESRCH for a pid that is neither the caller nor its child, EPERM for a session
 * leader or a group that does not exist in this session.
 */
long sys_setpgid(int pid, int pgid)
{
	/* The caller is its process (its children's parent is the leader: kernel/fork.c). */
	struct task *p = current->group_leader, *t, *g;
	unsigned long flags;
	long err;

	if (!pid)
		pid = p->pid;
	if (!pgid)
		pgid = pid;
	if (pgid < 0)
		return -EINVAL;
	flags = spin_lock_irqsave(&task_list_lock);
	t = find_task(pid);
	err = -ESRCH;
	if (!t)
		goto out;
	err = -EINVAL;
	if (t->group_leader != t) /* a thread's id: only a process has a group */
		goto out;
	if (t != p && t->parent == p) {
		err = -EPERM;
		if (t->sid != p->sid)
			goto out;
		err = -EACCES;
		if (!t->forknoexec)
			goto out;
	} else {
		err = -ESRCH;
		if (t != p)
			goto out;
	}
	err = -EPERM;
	if (t->sid == t->pid) /* a session leader stays the leader of its group */
		goto out;
	if (pgid != pid) {
		g = find_pgrp_member(pgid);
		if (!g || g->sid != p->sid)
			goto out;
	}
	set_process_ids(t, pgid, t->sid);
	err = 0;
out:
	spin_unlock_irqrestore(&task_list_lock, flags);
	return err;
}

/*
 * Orphaned process groups (POSIX, Linux's kernel/exit.c). A group is orphaned when none of its
 * processes has a parent in another group of the same session: no job-control shell is left
 * that could continue it. So a job-control stop (SIGTSTP, SIGTTIN, SIGTTOU, not SIGSTOP) is
 * discarded there (get_signal), the terminal answers EIO where it would send SIGTTIN or SIGTTOU
 * (kernel/drivers/tty.c), and a group that becomes orphaned with a stopped process in it gets
 * SIGHUP then SIGCONT (kill_orphaned_pgrp), so that it is neither stuck nor unaware. A process
 * whose parent is init (or a kernel thread: pid 1 as the rescue console) links nothing, as
 * Linux's is_global_init(p->real_parent): init does no job control.
 */

/* Linux's will_become_orphaned_pgrp: is pgrp orphaned, leaving ignored out? task_list_lock held. */
static bool will_become_orphaned_pgrp(int pgrp, const struct task *ignored)
{
	struct task *p;

	list_for_each_entry(p, &task_list, tasks)
	{
		struct task *parent = p->parent;

		if (p->pgrp != pgrp || p->group_leader != p || p->reaped)
			continue;
		if (p == ignored || __atomic_load_n(&p->zombie, __ATOMIC_SEQ_CST) || !parent ||
		    parent == child_reaper || !parent->execed)
			continue;
		if (parent->pgrp != pgrp && parent->sid == p->sid)
			return false;
	}
	return true;
}

bool is_current_pgrp_orphaned(void)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	bool orphaned = will_become_orphaned_pgrp(current->pgrp, NULL);

	spin_unlock_irqrestore(&task_list_lock, flags);
	return orphaned;
}

/* Is a process of pgrp stopped (Linux's has_stopped_jobs)? task_list_lock held. */
static bool has_stopped_jobs(int pgrp)
{
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->pgrp == pgrp && !t->reaped && __atomic_load_n(&t->stopped, __ATOMIC_SEQ_CST))
			return true;
	}
	return false;
}

void __kill_orphaned_pgrp(struct task *tsk, struct task *parent)
{
	const struct task *ignored = tsk;
	struct task *p;
	int pgrp = tsk->pgrp;

	lockdep_assert_held(&task_list_lock);
	if (!parent) /* tsk exits: its parent was, perhaps, its group's only link outside */
		parent = tsk->parent;
	else /* tsk's parent exits: it was, perhaps, tsk's group's only link outside */
		ignored = NULL;
	if (!parent || parent->pgrp == pgrp || parent->sid != tsk->sid ||
	    !will_become_orphaned_pgrp(pgrp, ignored) || !has_stopped_jobs(pgrp))
		return;
	/* As Linux's __kill_pgrp_info with SEND_SIG_PRIV: from the kernel, each process once. */
	list_for_each_entry(p, &task_list, tasks)
	{
		if (p->pgrp == pgrp && p->group_leader == p)
			send_sig(SIGHUP, p);
	}
	list_for_each_entry(p, &task_list, tasks)
	{
		if (p->pgrp == pgrp && p->group_leader == p)
			send_sig(SIGCONT, p);
	}
}

void kill_orphaned_pgrp(struct task *tsk, struct task *parent)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);

	__kill_orphaned_pgrp(tsk, parent);
	spin_unlock_irqrestore(&task_list_lock, flags);
}
