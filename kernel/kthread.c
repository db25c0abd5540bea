/*
 * Kernel threads: creating a task, starting it, and cleaning up after it.
 *
 * A new task gets a kernel stack (with a guard page) whose top is laid out exactly as
 * __switch_to (arch/x86_64/switch.S) leaves a stack it switched away from: six saved registers
 * and a return address. The return address is ret_from_kthread, so the first switch to the task
 * "returns" into it, and from there into kthread_start() and the thread's function.
 *
 * A new thread starts in its creator's directory with the creator's open files (as after a
 * fork), in its creator's job and command (kernel/signal.c), and closes its files when it exits.
 *
 * A thread that returns, or calls kthread_exit(), becomes TASK_DEAD and never runs again. Its
 * stack is still in use until its CPU has switched away, so kthread_join() waits for that
 * (on_cpu == 0) before freeing anything.
 */
#include "kernel/sched/sched.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/panic.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/kprobes.h"
#include "kernel/signal.h"
#include "kernel/syscalls.h"
#include "lib/string.h"
#include "trace/fgraph.h"
#include "trace/events/sched.h"

#define SWITCH_SAVED_REGS 6 /* rbp rbx r12 r13 r14 r15, as __switch_to pushes them */
#define SAVED_RBX_SLOT 4    /* from the bottom: r15 r14 r13 r12 rbx rbp */

extern char ret_from_kthread[];

DEFINE_TRACE(sched_process_exit); /* trace/events/sched.h */
DEFINE_TRACE(sched_process_free);

/*
 * notrace: every task's first function, jumped to from ret_from_kthread, and it never returns.
 * Its function_graph entry would stay open for good, and a forked child, which drops its return
 * stack on its way to user space (fork.c, ret_from_fork), would then show every later system
 * call and fault one level inside it. Linux starts its tasks in assembly (ret_from_fork), which
 * is never traced either; what the thread calls from here is.
 */
notrace void __noreturn kthread_start(struct task *t)
{
	finish_task_switch(this_cpu()->last_prev);
	preempt_count_sub(1); /* the count schedule() held across the switch */
	kthread_exit(t->fn(t->arg));
}

static struct task *create_task(int (*fn)(void *), void *arg, const char *name, int pid,
				bool own_files, bool share_files)
{
	free_dead_tasks(); /* the stacks of tasks that ended unjoined, before taking one */
	struct task *t = kzalloc(sizeof(*t));
	if (!t)
		return NULL;
	t->stack = kstack_alloc();
	if (!t->stack) {
		kfree(t);
		return NULL;
	}
	sched_task_init(t, name);
	if (share_files)
		share_fs_context(t);
	if ((own_files && copy_fs_context(t)) || ftrace_graph_init_task(t)) {
		exit_fs_context(t); /* the cwd and files it was given, if it got them */
		kstack_free(t->stack);
		kfree(t);
		return NULL;
	}
	t->pid = pid ? pid : sched_alloc_pid();
	t->make_it_fail = current->make_it_fail; /* a command's helper threads are the command */
	t->ppid = current->pid; /* its parent, for getppid() once it runs a program */
	rlimits_copy(t, current); /* as a fork copies them */
	t->fn = fn;
	t->arg = arg;
	t->state = TASK_NEW;
	t->cpu = smp_processor_id();

	/* The return address sits at the top, so the thread starts with RSP 16-byte aligned - 8. */
	uint64_t *top = (uint64_t *)((char *)t->stack + KSTACK_SIZE);
	uint64_t *sp = top - 1 - SWITCH_SAVED_REGS;
	memset(sp, 0, (SWITCH_SAVED_REGS + 1) * sizeof(uint64_t));
	sp[SWITCH_SAVED_REGS] = (uint64_t)ret_from_kthread;
	sp[SAVED_RBX_SLOT] = (uint64_t)t;
	t->saved_rsp = (unsigned long)sp;

	/*
	 * Its creator's ids, which fork keeps for its child (its session, and its process group
	 * until setpgid_task): under the lock a kill walks the list with (kernel/signal.c).
	 */
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	t->pgrp = current->pgrp;
	t->tgid = current->tgid;
	t->sid = current->sid;
	list_add_tail(&t->tasks, &task_list);
	spin_unlock_irqrestore(&task_list_lock, flags);
	return t;
}

struct task *kthread_create(int (*fn)(void *), void *arg, const char *name)
{
	return create_task(fn, arg, name, 0, true, false);
}

/* A thread of current's process (clone CLONE_FILES): its cwd and file table are current's. */
struct task *kthread_create_shared_fs(int (*fn)(void *), void *arg, const char *name)
{
	return create_task(fn, arg, name, 0, false, true);
}

/*
 * A kernel thread as Linux's kthread_create_on_cpu makes them: its creator's files are not
 * its own (it uses init_fs: cwd /, nothing open), so it can be made, and can exit, from inside
 * a file operation, which holds the VFS lock that copying or closing files takes (the tracers
 * that start per-CPU threads from a write to current_tracer). Bound to cpu; -1: any CPU.
 */
struct task *kthread_create_on_cpu(int (*fn)(void *), void *arg, int cpu, const char *name)
{
	struct task *t = create_task(fn, arg, name, 0, false, false);

	if (t && cpu >= 0)
		kthread_bind_mask(t, 1UL << cpu);
	return t;
}

void kthread_bind_mask(struct task *t, uint64_t mask)
{
	t->cpus_allowed = mask;
}

struct task *kthread_run(int (*fn)(void *), void *arg, const char *name)
{
	struct task *t = kthread_create(fn, arg, name);
	if (t)
		wake_up_new_task(t);
	return t;
}

/* The init task, with the pid kept for it (INIT_PID); kmain starts it once, when boot is done. */
struct task *kthread_run_init(int (*fn)(void *), void *arg, const char *name)
{
	struct task *t = create_task(fn, arg, name, INIT_PID, true, false);
	if (t)
		wake_up_new_task(t);
	return t;
}

void __noreturn kthread_exit(int code)
{
	kthread_exit_status(code, -1);
}

void __noreturn kthread_exit_status(int code, int sig)
{
	struct task *t = current;
	/* Close its files now, not at join: a pipe's reader must see end of file when we exit. */
	exit_fs_context(t);
	/*
	 * A process a signal killed (sig, from do_exit) reports 128 + the signal, as bash shows
	 * it; a kernel thread takes no signals and reports what its function returned.
	 */
	t->exit_signal = sig > 0 ? sig : 0;
	t->exit_code = t->exit_signal ? STATUS_SIGNALED(t->exit_signal) : code;
	/*
	 * A process's last thread: the process (its leader) is a zombie for wait4 from now on,
	 * and its parent gets SIGCHLD, every file of it closed. Another thread is nobody's
	 * child: it goes at once (kernel/exit.c).
	 */
	struct task *leader = t->group_leader;
	if (sig >= 0 && t->exit_last && do_notify_parent(leader, leader->wait_status))
		release_self(leader); /* a kernel thread adopted it: nobody will wait for it */
	if (sig >= 0 && leader != t)
		release_self(t);
	/* Preempted once dead, we would never run again to wake the joiner: no interrupts now. */
	local_irq_disable();
	trace_sched_process_exit(t); /* tracepoints are hit with interrupts off, as all here */
	set_special_state(TASK_DEAD);
	wake_up(&t->exit_wait);
	do_notify_pidfd(); /* poll on a pidfd of it: readable now */
	/* A forked process: its parent's wait4 (under the lock that keeps the parent there). */
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	if (t->parent && !t->self_reap)
		wake_up(&t->parent->wait_chldexit);
	spin_unlock_irqrestore(&task_list_lock, flags);
	schedule();
	panic("kthread_exit: a dead task ran again");
}

/* Frees dead t once its CPU is off its stack; t is off every list. */
static void free_task(struct task *t)
{
	while (__atomic_load_n(&t->on_cpu, __ATOMIC_ACQUIRE))
		cpu_relax(); /* still switching away from its stack */
	/* A waker may still be finishing wake_up_process(t): it holds pi_lock until it is done. */
	unsigned long irq = spin_lock_irqsave(&t->pi_lock);
	spin_unlock_irqrestore(&t->pi_lock, irq);
	irq = local_irq_save(); /* tracepoints are hit with interrupts off, as all here */
	trace_sched_process_free(t);
	local_irq_restore(irq);
	ftrace_graph_exit_task(t);
	kprobe_flush_task(t);
	kstack_free(t->stack);
	kfree(t);
}

int kthread_join(struct task *t)
{
	wait_event(&t->exit_wait, READ_ONCE(t->state) == TASK_DEAD);
	int code = t->exit_code;
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	list_del(&t->tasks);
	spin_unlock_irqrestore(&task_list_lock, flags);
	free_task(t);
	return code;
}

/*
 * Tasks that ended with nobody to join them (an orphan the rescue console adopted): Linux's
 * release_task(current) of an autoreaped task, whose stack the next task frees after the last
 * switch. Here they wait on this list until a task is created or the shell shows its prompt.
 */
static LIST_HEAD(dead_tasks);

void kthread_release_self(struct task *t)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	list_move_tail(&t->tasks, &dead_tasks);
	spin_unlock_irqrestore(&task_list_lock, flags);
}

void free_dead_tasks(void)
{
	for (;;) {
		struct task *t, *found = NULL;
		unsigned long flags = spin_lock_irqsave(&task_list_lock);

		list_for_each_entry(t, &dead_tasks, tasks) {
			if (READ_ONCE(t->state) == TASK_DEAD &&
			    !__atomic_load_n(&t->on_cpu, __ATOMIC_ACQUIRE)) {
				found = t;
				list_del(&t->tasks);
				break;
			}
		}
		spin_unlock_irqrestore(&task_list_lock, flags);
		if (!found)
			return; /* any left still run their last lines: the next call frees them */
		free_task(found);
	}
}
