/*
 * Signals: sending one, keeping it pending, and acting on it, as Linux's kernel/signal.c.
 *
 * Only user processes receive them. A kernel thread (the kernel's own: snapshotd, the rescue
 * console, a workload's workers) has no signal table and takes none, as Linux's kernel threads
 * ignore every signal: a signal sent to one is dropped as it is sent.
 *
 * A user process (a task exec gave a program) has a struct sighand_struct: an action for each
 * of the 64 signals, and what each pending signal carries (its siginfo). A signal sent to it is
 *	- dropped at once if the process ignores it (SIG_IGN, or a default of "ignore") and does
 *	  not block it: blocked signals are kept, since the action may change before unblocking;
 *	- for a standard signal (1-31), one pending bit: a second one sent before delivery merges
 *	  with the first; for a real-time signal (32-64), one entry more in a queue, in order;
 *	- a wakeup if it is not blocked and the process sleeps interruptibly (a kick, an IPI, if it
 *	  runs on another CPU): the sleep ends with
 *	  -EINTR (or a code asking for a restart, arch/x86_64/signal.c) and the signal is acted on
 *	  in exit_to_user_mode(), on the way back to user mode: get_signal() below takes the
 *	  lowest one pending, does the default action itself (terminate, stop, ignore), or returns
 *	  it for the architecture to build the handler's frame.
 * SIGSTOP and friends stop the process until SIGCONT (a stopped task sleeps in TASK_STOPPED,
 * which only SIGCONT and SIGKILL end); SIGCONT also discards pending stop signals and a stop
 * signal a pending SIGCONT, as Linux's prepare_signal(). Each stop, continue and exit sends
 * the parent SIGCHLD with the matching si_code and makes wait4 able to report it.
 *
 * Who gets a signal: Ctrl-C and `kill -- -PGRP` are for a whole process group (a shell's
 * job), `kill PID` for one process with every thread it has, as Linux's kill_pgrp and kill(2).
 * So each task has two ids, with Linux's names: pgrp, its process group, and tgid, its
 * process. A forked child gets tgid = its own pid and its parent's pgrp (setpgid_task).
 *
 * No thread of a group escapes: kthread_create() puts the new thread on the task list and
 * copies its creator's marks under task_list_lock, and kill_pgrp() and kill_pid_info() mark
 * under the same lock. All signal state (pending sets, masks, actions, the stop flags) changes
 * under one lock, sig_lock, taken inside task_list_lock; a sender may be an interrupt (Ctrl-C).
 *
 * Threads (CLONE_THREAD): the threads of a process share one table, counted (sighand->count).
 * A signal is sent either to one thread (tgkill, a fault's) and kept in its sigpending, or to
 * the process (kill, a job's, SIGCHLD) and kept in its leader's shared_pending, which every
 * thread of it looks at; complete_signal wakes one thread that does not block it, as Linux's.
 * A thread acting on a fatal default kills its siblings (do_group_exit: SIGKILL to each, the
 * process's status the first signal's), and a stop stops them all (group stop), until SIGCONT.
 * The leader's thread_head lists the threads that still have the table, under sig_lock, so a
 * sender can choose among them without task_list_lock (which an interrupt's sender lacks).
 *
 * No wakeup is lost: the sleeper marks itself asleep and then tests the mark, the sender sets
 * the mark and then tests whether the task sleeps, all with sequentially consistent atomics,
 * so at least one of them sees the other's write.
 */
#include <limits.h>
#include "trace/events/signal.h"
#include "kernel/signal.h"
#include "kernel/locking/lockdep.h"
#include "kernel/sched/sched.h"
#include "kernel/syscalls.h"
#include "kernel/session.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/time/posix-timers.h"
#include "kernel/time/hrtimer.h"
#include "kernel/time/time.h"
#include "kernel/panic.h"
#include "arch/x86_64/uaccess.h"
#include "arch/x86_64/regs.h" /* the user's stack pointer, for sigaltstack */
#include "kernel/mm/kstack.h"
#include "lib/errno.h"
#include "lib/string.h"

#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#define MAX_RT_QUEUED 1024 /* real-time signals queued per process (Linux: RLIMIT_SIGPENDING) */
#define WSTOPPED_CODE 0x7f /* wait status of a stopped child: (sig << 8) | 0x7f */
#define WCONTINUED_STATUS 0xffff /* wait status of a continued child */
/* The stops a terminal's job control sends: discarded in an orphaned process group. */
#define JOB_CONTROL_STOP_MASK (SIG_KERNEL_STOP_MASK & ~sigmask(SIGSTOP))

static DEFINE_SPINLOCK(sig_lock);

/* The default actions (Linux's SIG_KERNEL_*_MASK): what is neither of these terminates. */
#define SIG_KERNEL_IGNORE_MASK \
	(sigmask(SIGCONT) | sigmask(SIGCHLD) | sigmask(SIGWINCH) | sigmask(SIGURG))
#define SIG_KERNEL_COREDUMP_MASK                                                    \
	(sigmask(SIGQUIT) | sigmask(SIGILL) | sigmask(SIGTRAP) | sigmask(SIGABRT) | \
	 sigmask(SIGFPE) | sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGSYS) |   \
	 sigmask(SIGXCPU) | sigmask(SIGXFSZ))

static bool sig_in(int sig, sigset_t set)
{
	return sig < SIGRTMIN && (set & sigmask(sig));
}

struct sighand_struct *sighand_alloc(void)
{
	struct sighand_struct *sh = kzalloc(sizeof(*sh));

	if (sh) {
		INIT_LIST_HEAD(&sh->rtqueue);
		sh->count = 1;
	}
	return sh;
}

struct sighand_struct *sighand_get(struct sighand_struct *sh)
{
	unsigned long flags = spin_lock_irqsave(&sig_lock);

	sh->count++;
	spin_unlock_irqrestore(&sig_lock, flags);
	return sh;
}

/* fork: the actions are copied, nothing pending is (the child starts with none). */
struct sighand_struct *sighand_dup(const struct sighand_struct *old)
{
	struct sighand_struct *sh = sighand_alloc();
	unsigned long flags;

	if (!sh)
		return NULL;
	flags = spin_lock_irqsave(&sig_lock);
	memcpy(sh->action, old->action, sizeof(sh->action));
	spin_unlock_irqrestore(&sig_lock, flags);
	return sh;
}

void sighand_free(struct sighand_struct *sh)
{
	struct sigqueue *q, *n;

	if (!sh)
		return;
	list_for_each_entry_safe(q, n, &sh->rtqueue, list)
	{
		list_del_init(&q->list);
		if (!q->prealloc) /* a timer's own entry is its timer's to free */
			kfree(q);
	}
	kfree(sh);
}

/*
 * exec: a handler's address means nothing in the new program, so a handled signal goes back
 * to its default; an ignored one stays ignored, and the mask and what is pending stay (Linux's
 * flush_signal_handlers()).
 */
void flush_signal_handlers(struct task *t)
{
	unsigned long flags = spin_lock_irqsave(&sig_lock);

	for (int i = 0; i < _NSIG; i++) {
		struct k_sigaction *ka = &t->sighand->action[i];

		if (ka->handler != SIG_IGN)
			ka->handler = SIG_DFL;
		ka->flags = 0;
		ka->restorer = 0;
		ka->mask = 0;
	}
	spin_unlock_irqrestore(&sig_lock, flags);
}

void task_sigactions(struct task *t, sigset_t *ignored, sigset_t *caught)
{
	unsigned long flags = spin_lock_irqsave(&sig_lock);

	*ignored = *caught = 0;
	for (int sig = 1; t->sighand && sig <= _NSIG; sig++) {
		unsigned long handler = t->sighand->action[sig - 1].handler;

		if (handler == SIG_IGN)
			*ignored |= sigmask(sig);
		else if (handler != SIG_DFL)
			*caught |= sigmask(sig);
	}
	spin_unlock_irqrestore(&sig_lock, flags);
}

bool sig_handled(struct task *t, int sig)
{
	unsigned long flags = spin_lock_irqsave(&sig_lock);
	bool handled = false;

	if (t->sighand && !(t->blocked & sigmask(sig))) {
		unsigned long handler = t->sighand->action[sig - 1].handler;

		handled = handler != SIG_DFL && handler != SIG_IGN;
	}
	spin_unlock_irqrestore(&sig_lock, flags);
	return handled;
}

bool sig_ignored_or_blocked(int sig)
{
	struct task *t = current;
	unsigned long flags = spin_lock_irqsave(&sig_lock);
	bool ret = (t->blocked & sigmask(sig)) ||
		   (t->sighand && t->sighand->action[sig - 1].handler == SIG_IGN);

	spin_unlock_irqrestore(&sig_lock, flags);
	return ret;
}

static void retarget_shared_pending(struct task *t, sigset_t which);

struct sighand_struct *detach_sighand(struct task *t)
{
	unsigned long flags = spin_lock_irqsave(&sig_lock);
	struct sighand_struct *sh = t->sighand;

	/* What was left for t goes to a sibling (Linux's exit_signals); a group exit takes all. */
	if (!t->group_leader->group_exit)
		retarget_shared_pending(t, ~t->blocked);
	list_del_init(&t->thread_node); /* no sender chooses it from now on */
	t->sighand = NULL;
	if (sh && --sh->count)
		sh = NULL; /* its other threads keep it */
	spin_unlock_irqrestore(&sig_lock, flags);
	return sh;
}

void attach_sighand(struct task *t, struct sighand_struct *fresh)
{
	unsigned long flags = spin_lock_irqsave(&sig_lock);
	bool had = t->sighand != NULL;

	if (!had) {
		t->sighand = fresh;
		list_add_tail(&t->thread_node, &t->group_leader->thread_head);
	}
	spin_unlock_irqrestore(&sig_lock, flags);
	if (had) {
		sighand_free(fresh);
		flush_signal_handlers(t);
	}
}

void attach_thread(struct task *c, struct task *p)
{
	struct task *leader = p->group_leader;
	unsigned long flags = spin_lock_irqsave(&sig_lock);

	c->sighand = p->sighand;
	c->sighand->count++;
	c->group_leader = leader;
	c->tgid = leader->pid;
	list_add_tail(&c->thread_node, &leader->thread_head);
	__atomic_add_fetch(&leader->nr_threads, 1, __ATOMIC_SEQ_CST);
	/* Born into a dying process (exit_group on another CPU): it dies before it runs a line. */
	if (leader->group_exit) {
		c->sigpending |= sigmask(SIGKILL);
		set_tsk_thread_flag(c, TIF_SIGPENDING);
	}
	spin_unlock_irqrestore(&sig_lock, flags);
}

/* What is pending for t: its own signals and its process's. */
sigset_t task_pending(const struct task *t)
{
	return __atomic_load_n(&t->sigpending, __ATOMIC_SEQ_CST) |
	       __atomic_load_n(&t->group_leader->shared_pending, __ATOMIC_SEQ_CST);
}

#define for_each_thread(leader, th) list_for_each_entry(th, &(leader)->thread_head, thread_node)

/* Would delivering sig to t do nothing? Called with sig_lock held. */
static bool sig_ignored(struct task *t, struct sighand_struct *sh, int sig)
{
	unsigned long handler = sh->action[sig - 1].handler;

	if (t->blocked & sigmask(sig))
		return false; /* the action may change before it is unblocked */
	if (handler == SIG_IGN)
		return true;
	if (handler == SIG_DFL && t == child_reaper)
		return true; /* init takes only the signals it handles: Linux's SIGNAL_UNKILLABLE */
	return handler == SIG_DFL && sig_in(sig, SIG_KERNEL_IGNORE_MASK);
}

static void signal_wake_up(struct task *t, bool fatal)
{
	long state = __atomic_load_n(&t->state, __ATOMIC_SEQ_CST);

	/* Only interruptible sleeps: an uninterruptible one (a mutex) would sleep again anyway. */
	if (state == TASK_INTERRUPTIBLE || (fatal && state == TASK_STOPPED))
		wake_up_process(t);
	else if (state == TASK_RUNNING)
		kick_process(t);
}

/*
 * Linux's retarget_shared_pending: t no longer takes the signals of which (it blocks them now,
 * or it exits), so those of them its process has pending go to other threads that can take
 * them: each such thread is woken, one for each signal at least, as complete_signal would have
 * chosen it had t blocked them when they were sent. Without it a process-directed signal
 * complete_signal gave t would wait while a sibling that could take it sleeps on. Called with
 * sig_lock held.
 */
static void retarget_shared_pending(struct task *t, sigset_t which)
{
	struct task *leader = t->group_leader, *th;
	sigset_t retarget = __atomic_load_n(&leader->shared_pending, __ATOMIC_SEQ_CST) & which;

	lockdep_assert_held(&sig_lock);
	if (!retarget || !t->sighand)
		return;
	for_each_thread(leader, th)
	{
		if (th == t || !(retarget & ~th->blocked))
			continue;
		retarget &= th->blocked; /* th takes the others */
		set_tsk_thread_flag(th, TIF_SIGPENDING);
		signal_wake_up(th, false);
		if (!retarget)
			break;
	}
}

/*
 * SIGCONT and the stop signals cancel each other, and SIGCONT ends a stop of the whole process:
 * before queueing. Called with sig_lock held. The wait4 reports are the leader's (the process's).
 */
static void prepare_signal(int sig, struct task *t)
{
	struct task *leader = t->group_leader, *th;

	if (sig_in(sig, SIG_KERNEL_STOP_MASK)) {
		__atomic_fetch_and(&leader->shared_pending, ~sigmask(SIGCONT), __ATOMIC_SEQ_CST);
		for_each_thread(leader, th)
			__atomic_fetch_and(&th->sigpending, ~sigmask(SIGCONT), __ATOMIC_SEQ_CST);
	} else if (sig == SIGCONT) {
		bool was_stopped = false;

		__atomic_fetch_and(&leader->shared_pending, ~SIG_KERNEL_STOP_MASK,
				   __ATOMIC_SEQ_CST);
		for_each_thread(leader, th)
		{
			__atomic_fetch_and(&th->sigpending, ~SIG_KERNEL_STOP_MASK,
					   __ATOMIC_SEQ_CST);
			if (th->stopped) {
				__atomic_store_n(&th->stopped, false, __ATOMIC_SEQ_CST);
				set_tsk_thread_flag(th, TIF_SIGPENDING);
				wake_up_process(th);
				was_stopped = true;
			}
		}
		if (was_stopped) {
			leader->stop_report = false;
			leader->cont_report = true;
			/* The first thread to run tells its parent (get_signal). */
			__atomic_store_n(&leader->cont_notify, true, __ATOMIC_SEQ_CST);
		}
	}
}

/*
 * A signal sent to the process: which thread wakes to take it. t, the one it was sent through,
 * if it does not block it, else the first that does not; none if all block it (it waits in
 * shared_pending until one unblocks it). Linux's complete_signal, without its fatal shortcut:
 * the thread that takes a fatal signal kills the others (do_group_exit).
 */
static void complete_signal(int sig, struct task *t)
{
	struct task *w = NULL, *th;

	if (t->sighand && (sig == SIGKILL || !(t->blocked & sigmask(sig)))) {
		w = t;
	} else {
		for_each_thread(t->group_leader, th)
		{
			if (sig == SIGKILL || !(th->blocked & sigmask(sig))) {
				w = th;
				break;
			}
		}
	}
	if (!w)
		return;
	set_tsk_thread_flag(w, TIF_SIGPENDING);
	signal_wake_up(w, sig == SIGKILL);
}

DEFINE_TRACE(signal_generate); /* trace/events/signal.h */
DEFINE_TRACE(signal_deliver);

int do_send_sig_info(int sig, const struct ksiginfo *info, struct task *t, bool group)
{
	unsigned long flags = spin_lock_irqsave(&sig_lock);
	struct task *leader = t->group_leader;
	struct sighand_struct *sh = t->sighand;
	int ret = 0, result = TRACE_SIGNAL_IGNORED;
	unsigned long *pending = group ? &leader->shared_pending : &t->sigpending;

	if (!sh && group && !list_empty(&leader->thread_head)) /* the leader exited, threads live */
		sh = list_first_entry(&leader->thread_head, struct task, thread_node)->sighand;
	if (!sh) /* a kernel thread, or a process past its exit: it takes none, as Linux's */
		goto out;
	prepare_signal(sig, t);
	if ((sig != SIGKILL || t == child_reaper) && sig_ignored(t, sh, sig))
		goto out;
	result = TRACE_SIGNAL_ALREADY_PENDING;
	if (sig < SIGRTMIN) {
		if (*pending & sigmask(sig))
			goto out; /* standard signals do not queue: the two are one */
		sh->info[sig] = *info;
	} else {
		struct sigqueue *q = NULL;

		if (sh->nr_queued < MAX_RT_QUEUED)
			q = kmalloc(sizeof(*q));
		if (q) {
			q->info = *info;
			q->tid = group ? 0 : t->pid;
			list_add_tail(&q->list, &sh->rtqueue);
			sh->nr_queued++;
		} else if (info->code < 0) {
			ret = -EAGAIN; /* as Linux: kill() still marks it, sigqueue() fails */
			result = TRACE_SIGNAL_OVERFLOW_FAIL;
			goto out;
		} else {
			result = TRACE_SIGNAL_LOSE_INFO;
		}
	}
	if (result == TRACE_SIGNAL_ALREADY_PENDING)
		result = TRACE_SIGNAL_DELIVERED;
	__atomic_fetch_or(pending, sigmask(sig), __ATOMIC_SEQ_CST);
	if (group) {
		complete_signal(sig, t);
	} else {
		set_tsk_thread_flag(t, TIF_SIGPENDING);
		if (!(t->blocked & sigmask(sig)) || sig == SIGKILL)
			signal_wake_up(t, sig == SIGKILL);
	}
	signalfd_notify(); /* a signalfd's reader waits for blocked ones too */
out:
	trace_signal_generate(sig, info, t, group, result);
	spin_unlock_irqrestore(&sig_lock, flags);
	return ret;
}

/*
 * A POSIX timer's signal (Linux's send_sigqueue): the timer's own entry, never a second one, so
 * a timer has one signal pending at most and counts the expiries meanwhile in its si_overrun.
 * The entry is queued for a standard signal too: a kill of the same signal pending meanwhile
 * is delivered as this one (Linux would deliver both; a standard signal merges anyway).
 */
int send_sigqueue(struct sigqueue *q, struct task *leader, int tid)
{
	unsigned long flags = spin_lock_irqsave(&sig_lock);
	int sig = q->info.signo, ret = -1, result = TRACE_SIGNAL_IGNORED;
	struct task *t = tid ? NULL : leader, *th;
	struct sighand_struct *sh = NULL;

	if (tid) {
		for_each_thread(leader, th)
		{
			if (th->pid == tid)
				t = th;
		}
	}
	if (t)
		sh = t->sighand;
	if (t && !sh && !tid && !list_empty(&leader->thread_head)) /* the leader exited */
		sh = list_first_entry(&leader->thread_head, struct task, thread_node)->sighand;
	if (!sh || WARN_ON(!q->prealloc)) /* only a timer's own entry is sent this way */
		goto out;
	prepare_signal(sig, t);
	ret = 1;
	if (sig_ignored(t, sh, sig))
		goto out;
	ret = 0;
	if (!list_empty(&q->list)) { /* its last signal is still pending */
		q->info.overrun++;
		result = TRACE_SIGNAL_ALREADY_PENDING;
		goto out;
	}
	q->info.overrun = 0;
	q->tid = tid;
	list_add_tail(&q->list, &sh->rtqueue);
	sh->nr_queued++;
	if (tid) {
		__atomic_fetch_or(&t->sigpending, sigmask(sig), __ATOMIC_SEQ_CST);
		set_tsk_thread_flag(t, TIF_SIGPENDING);
		if (!(t->blocked & sigmask(sig)))
			signal_wake_up(t, false);
	} else {
		__atomic_fetch_or(&leader->shared_pending, sigmask(sig), __ATOMIC_SEQ_CST);
		complete_signal(sig, t);
	}
	signalfd_notify();
	result = TRACE_SIGNAL_DELIVERED;
out:
	if (t)
		trace_signal_generate(sig, &q->info, t, !tid, result);
	spin_unlock_irqrestore(&sig_lock, flags);
	return ret;
}

void sigqueue_free(struct sigqueue *q)
{
	unsigned long flags = spin_lock_irqsave(&sig_lock);

	WARN_ON(!q->prealloc); /* its timer frees it, once */
	q->prealloc = false;
	if (!list_empty(&q->list))
		q = NULL; /* queued: its dequeue frees it, as any other entry */
	spin_unlock_irqrestore(&sig_lock, flags);
	kfree(q);
}

/* Drops the entries of SI_TIMER from t's queue, and the pending marks that were theirs alone. */
void flush_itimer_signals(struct task *t)
{
	unsigned long flags = spin_lock_irqsave(&sig_lock);
	struct sighand_struct *sh = t->sighand;
	struct sigqueue *q, *n;
	sigset_t dropped = 0, kept = 0;

	if (!sh)
		goto out;
	list_for_each_entry_safe(q, n, &sh->rtqueue, list)
	{
		if (q->info.code != SI_TIMER) {
			kept |= sigmask(q->info.signo);
			continue;
		}
		dropped |= sigmask(q->info.signo);
		list_del_init(&q->list);
		sh->nr_queued--;
		/* The timers were deleted first (exec): none is still a timer's own. */
		if (!WARN_ON(q->prealloc))
			kfree(q);
	}
	dropped &= ~kept;
	__atomic_fetch_and(&t->sigpending, ~dropped, __ATOMIC_SEQ_CST);
	__atomic_fetch_and(&t->group_leader->shared_pending, ~dropped, __ATOMIC_SEQ_CST);
out:
	spin_unlock_irqrestore(&sig_lock, flags);
}

int send_sig_info(int sig, const struct ksiginfo *info, struct task *t)
{
	return do_send_sig_info(sig, info, t, true);
}

void send_sig(int sig, struct task *t)
{
	struct ksiginfo info = {.signo = sig, .code = SI_KERNEL};

	send_sig_info(sig, &info, t);
}

static int kill_pgrp_info(int pgrp, int sig, const struct ksiginfo *info)
{
	unsigned long flags;
	struct task *t;
	int n = 0;

	if (pgrp <= 0)
		return -ESRCH; /* the kernel's own threads form no group */
	flags = spin_lock_irqsave(&task_list_lock);
	list_for_each_entry(t, &task_list, tasks)
	{
		/*
		 * A zombie too, as Linux: it is still in the group. Each process once: its leader.
		 */
		if (t->pgrp == pgrp && t->group_leader == t) {
			if (sig)
				send_sig_info(sig, info, t);
			n++;
		}
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return n ? n : -ESRCH;
}

int kill_pgrp(int pgrp, int sig)
{
	struct ksiginfo info = {.signo = sig, .code = SI_KERNEL};

	return kill_pgrp_info(pgrp, sig, &info);
}

static int check_sig(int sig)
{
	return sig < 0 || sig > _NSIG ? -EINVAL : 0;
}

/*
 * To the process of task pid, as Linux's kill_pid_info: ESRCH, then EINVAL, then the send's
 * -EAGAIN (a full queue of real-time signals). The one lookup kill, sigqueue and
 * pidfd_send_signal share: a thread's id names its process, as kill(2) takes it, and a zombie
 * is still there. A kernel thread (no pgrp) ignores it, as Linux's.
 */
int kill_pid_info(int pid, int sig, const struct ksiginfo *info)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *t, *target = NULL;
	int ret = -ESRCH;

	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->pid == pid)
			target = t;
	}
	if (target)
		ret = check_sig(sig);
	if (target && !ret && target->pgrp && sig)
		ret = send_sig_info(sig, info, target->group_leader);
	spin_unlock_irqrestore(&task_list_lock, flags);
	return ret;
}

void setpgid_task(struct task *t, int pgrp)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock); /* as a kill reads them */

	t->tgid = t->pid;
	t->pgrp = pgrp;
	t->sigpending = 0; /* what was sent to its parent was for its parent */
	t->shared_pending = 0; /* t is its own leader here: its process's too */
	spin_unlock_irqrestore(&task_list_lock, flags);
}

/*
 * Will a signal pending for current kill it: SIGKILL, or one it neither blocks nor handles
 * whose default is to terminate? Linux makes such a signal a SIGKILL as it is sent
 * (complete_signal), so a killable sleep (TASK_KILLABLE: a vfork parent's) ends for it too.
 */
bool fatal_signal_pending(void)
{
	struct task *t = current;
	sigset_t pending = task_pending(t);
	bool fatal = pending & sigmask(SIGKILL);

	if (fatal || !t->sighand || t == child_reaper)
		return fatal; /* init dies of nothing it does not handle */
	unsigned long flags = spin_lock_irqsave(&sig_lock);
	for (int sig = 1; sig <= _NSIG && !fatal; sig++)
		fatal = (pending & ~t->blocked & sigmask(sig)) &&
			t->sighand->action[sig - 1].handler == SIG_DFL &&
			!sig_in(sig, SIG_KERNEL_IGNORE_MASK | SIG_KERNEL_STOP_MASK);
	spin_unlock_irqrestore(&sig_lock, flags);
	return fatal;
}

void flush_signals(void)
{
	__atomic_store_n(&current->sigpending, 0, __ATOMIC_SEQ_CST);
	if (current->group_leader == current) /* a kernel thread's, or a process of one thread */
		__atomic_store_n(&current->shared_pending, 0, __ATOMIC_SEQ_CST);
}

/* A signal that is not blocked: it ends interruptible sleeps. Kernel threads never have one. */
bool signal_pending_current(void)
{
	struct task *t = current;

	/* A group stop asked for is work too: the thread stops with its process (get_signal). */
	return (task_pending(t) & ~READ_ONCE(t->blocked)) != 0 ||
	       __atomic_load_n(&t->stopped, __ATOMIC_SEQ_CST);
}

void set_current_blocked(sigset_t mask)
{
	unsigned long flags = spin_lock_irqsave(&sig_lock);

	mask &= ~SIG_KERNEL_ONLY_MASK;
	retarget_shared_pending(current, mask & ~current->blocked); /* those it blocks now */
	current->blocked = mask;
	/* A signal this unblocks is acted on before the way back to user space. */
	if (task_pending(current) & ~current->blocked)
		set_tsk_thread_flag(current, TIF_SIGPENDING);
	spin_unlock_irqrestore(&sig_lock, flags);
}

void restore_saved_sigmask(void)
{
	struct task *t = current;

	if (t->restore_sigmask) {
		t->restore_sigmask = false;
		set_current_blocked(t->saved_sigmask);
	}
}

long set_user_sigmask(const sigset_t __user *umask, size_t sigsetsize)
{
	struct task *t = current;
	sigset_t mask;

	if (!umask)
		return 0;
	if (sigsetsize != SIGSET_SIZE)
		return -EINVAL;
	if (copy_from_user(&mask, umask, sizeof(mask)))
		return -EFAULT;
	t->saved_sigmask = t->blocked;
	t->restore_sigmask = true;
	set_tsk_thread_flag(t, TIF_SIGPENDING); /* the mask goes back on the way out */
	set_current_blocked(mask);
	return 0;
}

void signal_delivered(int sig, const struct k_sigaction *ka)
{
	struct task *t = current;
	sigset_t mask = t->blocked | ka->mask;

	if (!(ka->flags & SA_NODEFER))
		mask |= sigmask(sig);
	t->restore_sigmask = false; /* the frame holds the mask to go back to */
	set_current_blocked(mask);
	/* The frame keeps the stack to go back to (uc_stack): rt_sigreturn rearms it. */
	if (t->sas_ss_flags & SS_AUTODISARM)
		sas_ss_reset(t);
}

/*
 * sigaltstack. Only the task itself changes its own stack (each thread has one), so no lock:
 * a thread's starts empty (kernel/fork.c), a forked child's is a copy, exec forgets the stack
 * but keeps the flags, as Linux's.
 */
static unsigned long current_user_stack_pointer(void)
{
	return ((struct pt_regs *)((char *)current->stack + KSTACK_SIZE) - 1)->rsp;
}

bool __on_sig_stack(unsigned long sp)
{
	struct task *t = current;

	/* sp just above the top is on it: a full stack, as after a push to its last byte. */
	return sp > t->sas_ss_sp && sp - t->sas_ss_sp <= t->sas_ss_size;
}

bool on_sig_stack(unsigned long sp)
{
	/*
	 * Disarmed while a handler runs: a handler that leaves by longjmp, or a stack pointer
	 * left near the stack's end, never makes the next signal think it is nested.
	 */
	if (current->sas_ss_flags & SS_AUTODISARM)
		return false;
	return __on_sig_stack(sp);
}

int sas_ss_flags(unsigned long sp)
{
	if (!current->sas_ss_size)
		return SS_DISABLE;
	return on_sig_stack(sp) ? SS_ONSTACK : 0;
}

void sas_ss_reset(struct task *t)
{
	t->sas_ss_sp = 0;
	t->sas_ss_size = 0;
	t->sas_ss_flags = SS_DISABLE;
}

int do_sigaltstack(const stack_t *ss, stack_t *oss, unsigned long sp)
{
	struct task *t = current;

	if (oss) {
		memset(oss, 0, sizeof(*oss));
		oss->ss_sp = t->sas_ss_sp;
		oss->ss_size = t->sas_ss_size;
		oss->ss_flags = (int)(sas_ss_flags(sp) | (t->sas_ss_flags & SS_FLAG_BITS));
	}
	if (!ss)
		return 0;
	unsigned long ss_sp = ss->ss_sp, ss_size = ss->ss_size;
	unsigned int ss_flags = (unsigned int)ss->ss_flags;
	unsigned int mode = ss_flags & ~SS_FLAG_BITS;

	if (on_sig_stack(sp))
		return -EPERM; /* the handlers running on it would lose their frames */
	/* SS_ONSTACK as a mode: old programs pass it to mean "enable", Linux takes it as 0. */
	if (mode != SS_DISABLE && mode != SS_ONSTACK && mode != 0)
		return -EINVAL;
	if (mode == SS_DISABLE) {
		ss_sp = 0;
		ss_size = 0;
	} else if (ss_size < MINSIGSTKSZ) {
		return -ENOMEM;
	}
	t->sas_ss_sp = ss_sp;
	t->sas_ss_size = ss_size;
	t->sas_ss_flags = ss_flags;
	return 0;
}

long sys_sigaltstack(const stack_t __user *uss, stack_t __user *uoss)
{
	stack_t new, old;
	int err;

	if (uss && copy_from_user(&new, uss, sizeof(new)))
		return -EFAULT;
	err = do_sigaltstack(uss ? &new : NULL, uoss ? &old : NULL, current_user_stack_pointer());
	if (!err && uoss && copy_to_user(uoss, &old, sizeof(old)))
		err = -EFAULT;
	return err;
}

/* Takes sig off t's pending set, its siginfo into *info. Called with sig_lock held. */
static void dequeue_signal(struct task *t, int sig, struct ksiginfo *info, struct sigqueue **freed)
{
	struct sighand_struct *sh = t->sighand;
	bool more = false;
	/* Its own first, as Linux's: then the process's. */
	bool own = __atomic_load_n(&t->sigpending, __ATOMIC_SEQ_CST) & sigmask(sig);
	unsigned long *pending = own ? &t->sigpending : &t->group_leader->shared_pending;
	int tid = own ? t->pid : 0;

	struct sigqueue *q, *taken = NULL;

	*freed = NULL;
	memset(info, 0, sizeof(*info));
	/* The queue: real-time signals, and a timer's entry of any signal (send_sigqueue). */
	list_for_each_entry(q, &sh->rtqueue, list)
	{
		if (q->info.signo != sig || q->tid != tid)
			continue;
		if (taken) {
			more = true;
			break;
		}
		*info = q->info;
		taken = q;
	}
	if (taken) {
		list_del_init(&taken->list);
		sh->nr_queued--;
		if (!taken->prealloc)
			*freed = taken;
	} else if (sig < SIGRTMIN) {
		*info = sh->info[sig];
	}
	if (info->signo != sig) { /* marked before it had a table, or a queue that overflowed */
		memset(info, 0, sizeof(*info));
		info->signo = sig;
		info->code = SI_KERNEL;
	}
	if (!more)
		__atomic_fetch_and(pending, ~sigmask(sig), __ATOMIC_SEQ_CST);
}

int dequeue_signal_mask(sigset_t mask, struct ksiginfo *info)
{
	struct task *t = current;
	struct sigqueue *freed = NULL;
	unsigned long flags = spin_lock_irqsave(&sig_lock);
	/* Its own signals first (tkill, a fault's), then the process's (kill), as Linux's. */
	sigset_t own = __atomic_load_n(&t->sigpending, __ATOMIC_SEQ_CST) & mask;
	sigset_t avail = own ? own : task_pending(t) & mask;
	int sig = avail && t->sighand ? __builtin_ctzll(avail) + 1 : 0;

	if (sig)
		dequeue_signal(t, sig, info, &freed);
	spin_unlock_irqrestore(&sig_lock, flags);
	kfree(freed);
	if (sig)
		posixtimer_rearm(info);
	return sig;
}

/* The lowest unblocked signal pending, SIGKILL first; 0 if none. */
static int next_signal(struct task *t)
{
	sigset_t avail = task_pending(t) & ~t->blocked;

	if (avail & sigmask(SIGKILL))
		return SIGKILL;
	return avail ? __builtin_ctzll(avail) + 1 : 0;
}

/* The parent's action for SIGCHLD, read under sig_lock; SIG_DFL if it has no table. */
static struct k_sigaction parent_sigchld(struct task *p)
{
	struct k_sigaction ka = {0};

	if (p->sighand)
		ka = p->sighand->action[SIGCHLD - 1];
	return ka;
}

void do_notify_parent_cldstop(struct task *t, int why, int sig)
{
	struct ksiginfo info = {.signo = SIGCHLD, .code = why, .pid = t->pid, .status = sig};

	wake_up(&t->exit_wait);
	/* Under the lock a parent's exit gives its children away with (kernel/fork.c). */
	unsigned long tflags = spin_lock_irqsave(&task_list_lock);
	struct task *p = t->parent;
	if (p) {
		unsigned long flags = spin_lock_irqsave(&sig_lock);
		struct k_sigaction ka = parent_sigchld(p);
		spin_unlock_irqrestore(&sig_lock, flags);
		if (!(ka.flags & SA_NOCLDSTOP))
			send_sig_info(SIGCHLD, &info, p);
		wake_up(&p->wait_chldexit);
	}
	spin_unlock_irqrestore(&task_list_lock, tflags);
}

/* do_notify_parent, task_list_lock held: a zombie's new parent's too (forget_original_parent). */
void __do_notify_parent(struct task *t, int status)
{
	struct ksiginfo info = {.signo = SIGCHLD, .pid = t->pid};
	struct task *p = t->parent;

	if (!p || !p->sighand) {
		/*
		 * A process whose parent is a kernel thread (pid 1 as the rescue console, or before
		 * its exec): it never waits, the task frees itself.
		 */
		t->self_reap = p != NULL;
		__atomic_store_n(&t->zombie, true, __ATOMIC_SEQ_CST);
		return;
	}
	/*
	 * No core is ever written: a "core" signal's death is reported as a kill, as with
	 * ulimit -c 0.
	 */
	info.code = wait_status_code(status, &info.status);
	unsigned long flags = spin_lock_irqsave(&sig_lock);
	struct k_sigaction ka = parent_sigchld(p);
	spin_unlock_irqrestore(&sig_lock, flags);
	/* As Linux: SIG_IGN or SA_NOCLDWAIT means nobody collects it; it is reaped at once. */
	t->autoreap = ka.handler == SIG_IGN || (ka.flags & SA_NOCLDWAIT);
	/* A zombie before the signal: a handler's waitpid(WNOHANG) must find it. */
	__atomic_store_n(&t->zombie, true, __ATOMIC_SEQ_CST);
	if (ka.handler != SIG_IGN)
		send_sig_info(SIGCHLD, &info, p);
	wake_up(&p->wait_chldexit);
}

bool do_notify_parent(struct task *t, int status)
{
	/* Under the lock a parent's exit gives its children away with: one parent or the other. */
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	__do_notify_parent(t, status);
	/* Read under the lock: once it is dropped, a parent's wait4 may free t. */
	bool self_reap = t->self_reap;
	spin_unlock_irqrestore(&task_list_lock, flags);
	return self_reap;
}

bool child_report_pending(struct task *c, bool stopped, bool continued)
{
	return (stopped && READ_ONCE(c->stop_report)) || (continued && READ_ONCE(c->cont_report));
}

bool child_report_take(struct task *c, bool stopped, bool continued, bool take, int *status)
{
	unsigned long flags = spin_lock_irqsave(&sig_lock);
	bool taken = true;

	if (stopped && c->stop_report) {
		c->stop_report = !take;
		*status = (c->stop_sig << 8) | WSTOPPED_CODE;
	} else if (continued && c->cont_report) {
		c->cont_report = !take;
		*status = WCONTINUED_STATUS;
	} else {
		taken = false;
	}
	spin_unlock_irqrestore(&sig_lock, flags);
	return taken;
}

/*
 * Stopped: the thread that took sig tells the parent (notify), then every thread sleeps until
 * SIGCONT (or SIGKILL) ends the stop.
 */
static void do_signal_stop(int sig, bool notify)
{
	struct task *t = current;

	if (notify)
		do_notify_parent_cldstop(t->group_leader, CLD_STOPPED, sig);
	for (;;) {
		set_special_state(TASK_STOPPED);
		if (!__atomic_load_n(&t->stopped, __ATOMIC_SEQ_CST) ||
		    (task_pending(t) & sigmask(SIGKILL)))
			break;
		schedule();
	}
	set_current_state(TASK_RUNNING);
}

int get_signal(struct ksiginfo *info, struct k_sigaction *ka)
{
	struct task *t = current;

	for (;;) {
		struct sigqueue *freed;
		unsigned long flags;
		int sig;

		struct task *leader = t->group_leader;

		if (__atomic_exchange_n(&leader->cont_notify, false, __ATOMIC_SEQ_CST))
			do_notify_parent_cldstop(leader, CLD_CONTINUED, SIGCONT);
		if (__atomic_load_n(&t->stopped, __ATOMIC_SEQ_CST) &&
		    !(task_pending(t) & sigmask(SIGKILL))) {
			do_signal_stop(0, false); /* another thread took the stop: stop with it */
			continue;
		}
		/*
		 * A job-control stop does nothing in an orphaned group (SIGSTOP always works):
		 * asked here, before sig_lock, as task_list_lock comes first (Linux drops siglock
		 * for it).
		 */
		bool orphaned = (task_pending(t) & ~t->blocked & JOB_CONTROL_STOP_MASK) &&
				is_current_pgrp_orphaned();

		flags = spin_lock_irqsave(&sig_lock);
		sig = next_signal(t);
		if (!sig) {
			spin_unlock_irqrestore(&sig_lock, flags);
			return 0;
		}
		dequeue_signal(t, sig, info, &freed);
		*ka = t->sighand->action[sig - 1];
		trace_signal_deliver(sig, info, ka); /* taken, whatever its action: as Linux's */
		if (ka->handler != SIG_DFL && ka->handler != SIG_IGN && (ka->flags & SA_RESETHAND))
			t->sighand->action[sig - 1].handler = SIG_DFL;
		if (ka->handler == SIG_DFL && t == child_reaper)
			ka->handler = SIG_IGN; /* sent while blocked: init ignores it still */
		bool stop = ka->handler == SIG_DFL && sig_in(sig, SIG_KERNEL_STOP_MASK);
		bool discard = stop && orphaned && sig_in(sig, JOB_CONTROL_STOP_MASK);
		if (discard)
			stop = false;
		if (stop) { /* under the lock, so that a SIGCONT from now on ends it */
			struct task *th;

			for_each_thread(leader, th)
			{
				__atomic_store_n(&th->stopped, true, __ATOMIC_SEQ_CST);
				if (th != t) { /* each stops on its way out of the kernel */
					set_tsk_thread_flag(th, TIF_SIGPENDING);
					signal_wake_up(th, false);
				}
			}
			leader->stop_sig = sig;
			leader->stop_report = true;
			leader->cont_report = false;
		}
		spin_unlock_irqrestore(&sig_lock, flags);
		kfree(freed);
		posixtimer_rearm(info); /* a periodic timer's signal taken: it goes again */

		if (ka->handler == SIG_IGN || discard)
			continue;
		if (ka->handler != SIG_DFL)
			return sig;
		if (sig_in(sig, SIG_KERNEL_IGNORE_MASK))
			continue;
		if (stop) {
			do_signal_stop(sig, true);
			continue;
		}
		do_group_exit(sig); /* terminate, or "core" (no core is written): killed by sig */
	}
}

/* The system calls. */

long sys_rt_sigaction(int sig, const struct k_sigaction __user *act,
		      struct k_sigaction __user *oact, size_t sigsetsize)
{
	struct task *t = current;
	struct k_sigaction new, old;
	unsigned long flags;

	if (sigsetsize != SIGSET_SIZE)
		return -EINVAL;
	if (sig < 1 || sig > _NSIG || (act && (sigmask(sig) & SIG_KERNEL_ONLY_MASK)))
		return -EINVAL;
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	if (!t->sighand)
		return -EINVAL; /* not a program: nothing here ever runs a handler */
	flags = spin_lock_irqsave(&sig_lock);
	old = t->sighand->action[sig - 1];
	if (act) {
		new.mask &= ~SIG_KERNEL_ONLY_MASK;
		t->sighand->action[sig - 1] = new;
		/* POSIX: setting SIG_IGN (or a default of ignore) discards what is pending. */
		if (new.handler == SIG_IGN ||
		    (new.handler == SIG_DFL &&sig_in(sig, SIG_KERNEL_IGNORE_MASK))) {
			struct ksiginfo info;
			struct sigqueue *q;

			while (task_pending(t) & sigmask(sig)) {
				dequeue_signal(t, sig, &info, &q);
				kfree(q);
			}
		}
	}
	spin_unlock_irqrestore(&sig_lock, flags);
	if (oact && copy_to_user(oact, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_rt_sigprocmask(int how, const sigset_t __user *set, sigset_t __user *oset,
			size_t sigsetsize)
{
	struct task *t = current;
	sigset_t new, old = t->blocked;

	if (sigsetsize != SIGSET_SIZE)
		return -EINVAL;
	if (set) {
		if (copy_from_user(&new, set, sizeof(new)))
			return -EFAULT;
		switch (how) {
		case SIG_BLOCK:
			new = old | new;
			break;
		case SIG_UNBLOCK:
			new = old & ~new;
			break;
		case SIG_SETMASK:
			break;
		default:
			return -EINVAL;
		}
	}
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	if (set)
		set_current_blocked(new); /* one unblocked now is delivered on the way out */
	return 0;
}

long sys_rt_sigpending(sigset_t __user *uset, size_t sigsetsize)
{
	struct task *t = current;
	sigset_t pending = task_pending(t) & t->blocked;

	if (sigsetsize > SIGSET_SIZE)
		return -EINVAL;
	return copy_to_user(uset, &pending, sigsetsize) ? -EFAULT : 0;
}

/* Sleeps until a signal is pending that is not blocked. */
static void sleep_until_signal(void)
{
	set_current_state(TASK_INTERRUPTIBLE);
	while (!signal_pending_current()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	set_current_state(TASK_RUNNING);
}

/* pause: until a signal's handler has run (then -EINTR), or forever. */
long sys_pause(void)
{
	sleep_until_signal();
	return -ERESTARTNOHAND;
}

/*
 * rt_sigsuspend: the mask replaced until a signal comes; the old one goes back once its handler
 * returns (the frame holds it, arch/x86_64/signal.c), or at once if no handler runs.
 */
long sys_rt_sigsuspend(const sigset_t __user *unewset, size_t sigsetsize)
{
	long err;

	if (sigsetsize != SIGSET_SIZE)
		return -EINVAL;
	err = unewset ? set_user_sigmask(unewset, sigsetsize) : -EFAULT;
	if (err)
		return err;
	sleep_until_signal();
	return -ERESTARTNOHAND;
}

/*
 * rt_sigtimedwait (sigwaitinfo, sigtimedwait, sigwait): takes a pending signal of the set
 * with no handler run, waiting for one (with the set unblocked meanwhile, so that its signals
 * wake the wait) until the timeout, relative on CLOCK_MONOTONIC (NULL: for ever). The
 * signal's number, -EAGAIN once the time is up, -EINTR if another signal's handler is to run:
 * never restarted, as Linux's. glibc's SIGEV_THREAD timers wait here in their helper thread.
 */
long sys_rt_sigtimedwait(const sigset_t __user *uthese, void __user *uinfo,
			 const struct __kernel_timespec __user *uts, size_t sigsetsize)
{
	struct task *t = current;
	struct __kernel_timespec ts;
	struct ksiginfo info;
	uint64_t end = KTIME_MAX;
	sigset_t these;
	int sig;

	if (sigsetsize != SIGSET_SIZE)
		return -EINVAL;
	if (copy_from_user(&these, uthese, sizeof(these)))
		return -EFAULT;
	if (uts) {
		if (copy_from_user(&ts, uts, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (long)NSEC_PER_SEC)
			return -EINVAL;
		if ((uint64_t)ts.tv_sec < KTIME_MAX / NSEC_PER_SEC / 2) /* else: for ever */
			end = ktime_get_ns() + (uint64_t)ts.tv_sec * NSEC_PER_SEC +
			      (uint64_t)ts.tv_nsec;
	}
	these &= ~SIG_KERNEL_ONLY_MASK;
	sig = dequeue_signal_mask(these, &info);
	if (!sig && !(uts && !ts.tv_sec && !ts.tv_nsec)) {
		sigset_t saved = t->blocked;
		struct hrtimer_sleeper sl;

		set_current_blocked(saved & ~these);
		hrtimer_init_sleeper(&sl, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
		/* Asleep before the timer and the look at the signals: no wakeup is lost. */
		set_current_state(TASK_INTERRUPTIBLE);
		if (end != KTIME_MAX)
			hrtimer_start(&sl.timer, end, HRTIMER_MODE_ABS);
		while (READ_ONCE(sl.task) && !signal_pending_current()) {
			schedule();
			set_current_state(TASK_INTERRUPTIBLE);
		}
		set_current_state(TASK_RUNNING);
		hrtimer_cancel(&sl.timer); /* after it, its function runs nowhere: sl may go */
		set_current_blocked(saved);
		sig = dequeue_signal_mask(these, &info);
		if (!sig)
			return READ_ONCE(sl.task) ? -EINTR : -EAGAIN;
	}
	if (!sig)
		return -EAGAIN;
	if (uinfo && copy_siginfo_to_user(uinfo, &info))
		return -EFAULT;
	return sig;
}

/* kill's and sigqueue's pid > 0: one process. POSIX.1b names no group, so no pid <= 0 does. */
static long kill_proc_info(int sig, const struct ksiginfo *info, int pid)
{
	return pid > 0 ? kill_pid_info(pid, sig, info) : -ESRCH;
}

/*
 * kill: a process (pid > 0), the caller's group (0), every process but init and the caller
 * (-1), or a group (< -1). As Linux's kill_something_info, the target is looked for first and
 * the signal checked only against one that was found: kill(no such pid, 65) is ESRCH, not
 * EINVAL, and sig 0 only asks whether there is one.
 */
long sys_kill(int pid, int sig)
{
	struct task *me = current;
	struct ksiginfo info = {.signo = sig, .code = SI_USER, .pid = me->tgid};
	int bad = check_sig(sig), send = bad ? 0 : sig;
	unsigned long flags;
	struct task *t;
	int n = 0;

	if (pid > 0)
		return kill_proc_info(sig, &info, pid);
	if (pid == INT_MIN)
		return -ESRCH; /* as Linux: -INT_MIN names no group */
	if (pid != -1)
		return kill_pgrp_info(pid ? -pid : me->pgrp, send, &info) < 0 ? -ESRCH : bad;
	flags = spin_lock_irqsave(&task_list_lock);
	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->pgrp && t->group_leader == t && t->tgid != me->tgid && t != child_reaper) {
			if (send)
				send_sig_info(send, &info, t);
			n++;
		}
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return n ? bad : -ESRCH;
}

/*
 * One thread, by its id (and, tgid > 0, its process's), as Linux's do_send_specific: ESRCH if
 * there is none, then EINVAL for a bad signal; sig 0 only checks.
 */
static long do_send_specific(int tgid, int pid, int sig, const struct ksiginfo *info)
{
	unsigned long flags;
	struct task *t, *target = NULL;
	long ret = -ESRCH;

	flags = spin_lock_irqsave(&task_list_lock);
	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->pid == pid && (tgid <= 0 || t->group_leader->pid == tgid))
			target = t;
	}
	if (target)
		ret = check_sig(sig);
	if (target && !ret && target->pgrp && sig)
		ret = do_send_sig_info(sig, info, target, false); /* to that thread */
	spin_unlock_irqrestore(&task_list_lock, flags);
	return ret;
}

/* tgkill and tkill: one thread, by its id (and, for tgkill, its process's). */
static long do_tkill(int tgid, int pid, int sig)
{
	struct ksiginfo info = {.signo = sig, .code = SI_TKILL, .pid = current->tgid};

	return do_send_specific(tgid, pid, sig, &info);
}

long sys_tgkill(int tgid, int pid, int sig)
{
	if (pid <= 0 || tgid <= 0)
		return -EINVAL;
	return do_tkill(tgid, pid, sig);
}

long sys_tkill(int pid, int sig)
{
	if (pid <= 0)
		return -EINVAL;
	return do_tkill(0, pid, sig);
}

/*
 * rt_sigqueueinfo and rt_tgsigqueueinfo (sigqueue(3), pthread_sigqueue): a signal with the
 * siginfo the program made, delivered as given (si_value, si_pid, si_uid), its si_signo made
 * sig. Not even root may pretend to be the kernel (si_code >= 0) or a kill()/tgkill()
 * (SI_TKILL), which add the sender themselves, except towards itself: Linux compares pid with
 * the caller's thread id, so a thread other than the leader gets EPERM naming its process.
 */
static bool sigqueue_impersonates(int pid, const struct ksiginfo *info)
{
	return (info->code >= 0 || info->code == SI_TKILL) && current->pid != pid;
}

static long do_rt_sigqueueinfo(int pid, int sig, struct ksiginfo *info)
{
	if (sigqueue_impersonates(pid, info))
		return -EPERM;
	return kill_proc_info(sig, info, pid);
}

long sys_rt_sigqueueinfo(int pid, int sig, const void __user *uinfo)
{
	struct ksiginfo info;

	if (copy_siginfo_from_user(&info, uinfo))
		return -EFAULT;
	info.signo = sig;
	return do_rt_sigqueueinfo(pid, sig, &info);
}

static long do_rt_tgsigqueueinfo(int tgid, int pid, int sig, struct ksiginfo *info)
{
	if (pid <= 0 || tgid <= 0) /* one thread only */
		return -EINVAL;
	if (sigqueue_impersonates(pid, info))
		return -EPERM;
	return do_send_specific(tgid, pid, sig, info);
}

long sys_rt_tgsigqueueinfo(int tgid, int pid, int sig, const void __user *uinfo)
{
	struct ksiginfo info;

	if (copy_siginfo_from_user(&info, uinfo))
		return -EFAULT;
	info.signo = sig;
	return do_rt_tgsigqueueinfo(tgid, pid, sig, &info);
}

/*
 * The process of t ends with code: its leader says so (new threads are killed at birth), and
 * every other thread gets SIGKILL (Linux's zap_other_threads). Called with sig_lock held.
 */
static void group_exit_locked(struct task *t, int code)
{
	struct task *leader = t->group_leader, *th;

	lockdep_assert_held(&sig_lock);
	leader->group_exit = true;
	leader->group_exit_code = code;
	for_each_thread(leader, th)
	{
		if (th == t)
			continue;
		__atomic_fetch_or(&th->sigpending, sigmask(SIGKILL), __ATOMIC_SEQ_CST);
		set_tsk_thread_flag(th, TIF_SIGPENDING);
		signal_wake_up(th, true);
	}
}

/*
 * The whole process ends (exit_group, a fatal signal): every other thread gets SIGKILL, and the
 * process's status is the first one's to ask (code: a wait status), as Linux's do_group_exit.
 */
void __noreturn do_group_exit(int code)
{
	struct task *t = current, *leader = t->group_leader;
	unsigned long flags = spin_lock_irqsave(&sig_lock);

	if (leader->group_exit)
		code = leader->group_exit_code;
	else if (t->sighand)
		group_exit_locked(t, code);
	spin_unlock_irqrestore(&sig_lock, flags);
	do_exit(code);
}

/*
 * execve's de_thread (kernel/exit.c): every other thread of t's process gets SIGKILL, and
 * the process counts as exiting meanwhile (a new thread is killed at birth). true if another
 * thread was ending the process already: t must not go on.
 */
bool zap_other_threads(struct task *t)
{
	struct task *leader = t->group_leader;
	unsigned long flags = spin_lock_irqsave(&sig_lock);
	bool busy = leader->group_exit;

	if (!busy)
		group_exit_locked(t, SIGKILL);
	spin_unlock_irqrestore(&sig_lock, flags);
	return busy;
}

/* The others are gone: t, the leader now, is its process's only thread, and it lives on. */
void end_group_exec(struct task *t)
{
	struct task *old = t->group_leader;
	unsigned long flags = spin_lock_irqsave(&sig_lock);

	list_del_init(&t->thread_node);
	list_add_tail(&t->thread_node, &t->thread_head);
	t->group_exit = false;
	old->group_exit = false;
	spin_unlock_irqrestore(&sig_lock, flags);
}

/*
 * A signal the kernel imposes, as Linux's force_sig(): the handler runs if the thread has one
 * and does not block it; otherwise the default action, whatever the program chose (a program
 * cannot ignore its own crash), which for these signals ends the process.
 */
void force_sig(int sig)
{
	struct task *t = current;
	struct ksiginfo info = {.signo = sig, .code = SI_KERNEL};

	if (sig_handled(t, sig)) {
		do_send_sig_info(sig, &info, t, false);
		return;
	}
	do_group_exit(sig);
}

/*
 * The frame of sig's handler could not be written (a stack pointer into nowhere, an alternate
 * stack too small): SIGSEGV, as Linux's force_sigsegv(). If sig was SIGSEGV itself, its handler
 * cannot run either: the process dies.
 */
void force_sigsegv(int sig)
{
	if (sig == SIGSEGV)
		do_group_exit(SIGSEGV);
	force_sig(SIGSEGV);
}
