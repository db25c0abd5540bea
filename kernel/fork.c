/*
 * fork, vfork, clone and clone3 (Linux's kernel/fork.c); waiting for a child is kernel/exit.c's.
 *
 * fork makes a new task (a kernel thread, as every Lucid task starts) with a copy of the
 * parent's address space, FPU state, TLS base, signal state and open files, and a copy of the
 * parent's system-call frame with RAX 0: the child's first run leaves the kernel through that
 * frame (ret_from_fork), so it returns from the same fork as its parent, with 0.
 *
 * clone(CLONE_VM | CLONE_VFORK | SIGCHLD, stack), vfork's and how both C libraries start a
 * helper (system, popen, posix_spawn): the child runs in its parent's address space itself
 * (mm_users counts both, kernel/mm/mm.h), on the stack it was given, while the parent sleeps
 * until the child has execed or exited (mm_release below: exec gives the child an mm of its own
 * and only then wakes the parent). So the child may write the parent's memory (glibc's
 * posix_spawn leaves the exec's error there) but never runs beside it. The sleep is killable, as
 * Linux's: a signal that kills (SIGKILL, an unhandled TERM) ends it, others wait.
 * clone3 is the same call with its arguments in a struct (glibc's posix_spawn tries it first).
 *
 * Threads: clone(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
 * CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID, stack), what
 * musl's and glibc's pthread_create pass (glibc through clone3). The new task shares the
 * memory (mm_users), the cwd and file table (fs_context's users), the signal actions (sighand's
 * count) and joins its creator's thread group (attach_thread, kernel/signal.c): its own
 * pid (the thread id), its process's tgid, parent and process group; only its FPU registers,
 * TLS base, stack and signal mask are its own. Linux's rules hold: CLONE_THREAD needs
 * CLONE_SIGHAND, which needs CLONE_VM (EINVAL). A thread is nobody's child (its exit signal is
 * none, kernel/exit.c), and the children any thread forks are its process's: their
 * parent is the group leader, whose wait_chldexit queue every thread's wait4 sleeps on and
 * whose pid their getppid says (Linux's real_parent->tgid). Lucid keeps CLONE_FS and
 * CLONE_FILES in one struct (fs_context), so either shares both.
 */
#include "trace/events/task.h"
#include "kernel/events/uprobes.h"
#include "kernel/syscalls.h"
#include "kernel/sched/sched.h"
#include "trace/trace_pid.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/signal.h"
#include "kernel/session.h"
#include "kernel/sched/cputime.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/fpu.h"
#include "arch/x86_64/regs.h"
#include "arch/x86_64/syscall.h"
#include "arch/x86_64/uaccess.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/page_alloc.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "trace/events/sched.h"
#include "trace/fgraph.h"

#define CSIGNAL 0x000000ff /* the low byte of clone's flags: the signal sent at exit */
#define CLONE_VM 0x00000100 /* run in the parent's memory */
#define CLONE_FS 0x00000200 /* share the cwd (and, here, the file table: see above) */
#define CLONE_FILES 0x00000400 /* share the file table */
#define CLONE_SIGHAND 0x00000800 /* share the signal actions */
#define CLONE_VFORK 0x00004000 /* the parent sleeps until the child execs or exits */
#define CLONE_THREAD 0x00010000 /* a thread of the caller's process */
#define CLONE_SYSVSEM 0x00040000 /* share SysV semaphore undo lists: Lucid has none to share */
#define CLONE_SETTLS 0x00080000 /* the child's TLS base (FS) is clone's tls argument */
#define CLONE_PARENT_SETTID 0x00100000 /* the child's pid is written at parent_tidptr */
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_DETACHED 0x00400000 /* ignored, as Linux ignores it (musl still passes it) */
#define CLONE_CHILD_SETTID 0x01000000
#define CLONE_CLEAR_SIGHAND 0x100000000ULL /* clone3: the child's handlers back to SIG_DFL */
#define CLONE_FLAGS_OK                                                                             \
	(CSIGNAL | CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |              \
	 CLONE_SYSVSEM | CLONE_VFORK | CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | \
	 CLONE_DETACHED | CLONE_CHILD_SETTID | CLONE_CLEAR_SIGHAND)
/*
 * The process limit, Linux's default RLIMIT_NPROC (fork_init): half of threads-max, which
 * is the RAM over eight kernel stacks each (1024 with 256 MiB), less whatever would leave too
 * few kernel stacks for the kernel's own threads and the shell's commands. A fork bomb meets
 * EAGAIN there, with memory to spare: a paused child costs about 60 KiB (its stack, page tables
 * and the pages it wrote), and the shell still answers.
 */
#define THREADS_MAX_STACK_SHARE 8 /* threads-max: at most 1/8 of the RAM in kernel stacks */
#define NPROC_SHARE 2 /* RLIMIT_NPROC: half of threads-max */
#define KSTACK_RESERVE 64 /* kernel stacks kept for the kernel's threads and the shell's */

int nr_user_procs; /* user processes now: fork counts them in, the reaping out */

/* Linux's RLIMIT_NPROC default for this machine's memory (see above). */
int max_user_procs(void)
{
	size_t threads_max = nr_total_pages() / (THREADS_MAX_STACK_SHARE * KSTACK_SIZE / PAGE_SIZE);

	return (int)MIN(threads_max / NPROC_SHARE, (size_t)(KSTACK_MAX - KSTACK_RESERVE));
}

DEFINE_TRACE(sched_process_fork); /* trace/events/sched.h */
DEFINE_TRACE(sched_process_wait);
DEFINE_TRACE(task_newtask); /* trace/events/task.h */

void ret_to_user(struct pt_regs *regs) __noreturn;

/* What the child's first code needs: the parent's frame, and where CLONE_CHILD_SETTID writes. */
struct fork_frame {
	struct pt_regs regs;
	int __user *set_child_tid;
};

/* Guards task->vfork_done: the child completes it, or its parent, killed, takes it back. */
static DEFINE_SPINLOCK(vfork_lock);

/*
 * The child t is done with its parent's memory (it execed or is exiting): a vfork parent may
 * go on. Linux's mm_release / complete_vfork_done. The completion lives on the parent's stack,
 * so it is completed under the lock that the parent takes to give it up.
 */
void mm_release(struct task *t)
{
	unsigned long flags = spin_lock_irqsave(&vfork_lock);

	if (t->vfork_done)
		complete(t->vfork_done);
	t->vfork_done = NULL;
	spin_unlock_irqrestore(&vfork_lock, flags);
}

/*
 * t leaves its memory and FPU area for mm and fpu: a new program's (execve) or none (exit).
 * Interrupts are off across the change so that a switch sees all of it or none, and t->mm
 * changes under the lock /proc/PID reads memory with (kernel/fs/proc/base.c). Then the old
 * memory's users hear of it: getrusage's ru_maxrss counts it, a vfork parent goes on
 * (mm_release), uprobes' steps and return frames in it end; and the old memory (only a vfork
 * child's share of it) and FPU area are dropped. Linux's exec_mmap and exit_mm, whose common
 * part this is.
 */
void task_replace_mm(struct task *t, struct mm_struct *mm, struct fpu *fpu)
{
	struct mm_struct *old_mm = t->mm;
	struct fpu *old_fpu = t->fpu;

	local_irq_disable();
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	t->mm = mm;
	spin_unlock_irqrestore(&task_list_lock, flags);
	t->fpu = fpu;
	switch_mm(mm);
	local_irq_enable();
	update_maxrss(t, old_mm);
	mm_release(t);
	uprobe_free_utask(t);
	mmput(old_mm);
	if (old_fpu)
		fpu_free(old_fpu);
}

/*
 * The vfork parent's sleep until child c lets its memory go. c cannot be freed meanwhile: only
 * its parent, asleep here, reaps it. Killed, the parent takes the completion back first.
 */
static void wait_for_vfork_done(struct task *c, struct completion *vfork)
{
	if (wait_for_completion_killable(vfork)) {
		unsigned long flags = spin_lock_irqsave(&vfork_lock);
		c->vfork_done = NULL;
		spin_unlock_irqrestore(&vfork_lock, flags);
	}
	/*
	 * The child may have changed the page tables (an munmap, a mapping) on another CPU while
	 * this CPU still had them loaded and never switched: forget any stale translation.
	 */
	mmu_flush_user();
}

/*
 * The child's first code: CLONE_CHILD_SETTID's write, in the child's own memory and through
 * copy_to_user (the page is shared copy-on-write with the parent, or not there yet: the fault
 * gives the child its copy, as Linux's schedule_tail does it); then its copy of the parent's
 * frame, RAX 0, back to ring 3. notrace: it never returns (the kernel frames below are dropped
 * on the way to user space), so a function_graph entry would never close; Linux's ret_from_fork
 * is assembly, untraced, and the child's trace starts with what it calls (schedule_tail there).
 */
static notrace int ret_from_fork(void *arg)
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
	ftrace_graph_drop_frames(); /* the kernel frames below never return */
	trace_hardirqs_on_prepare(); /* IRET turns them on */
	ret_to_user(&regs);
}


/* Linux's kernel_clone (do_fork before 5.10): fork, vfork, clone and clone3 all come here. */
static long kernel_clone(unsigned long flags, unsigned long newsp, int __user *parent_tidptr,
			 int __user *child_tidptr, unsigned long tls)
{
	struct task *p = current, *c;
	struct task *leader = p->group_leader; /* the parent of what a fork makes: the process */
	struct pt_regs *regs = (struct pt_regs *)((char *)p->stack + KSTACK_SIZE) - 1;
	struct completion vfork;
	bool thread = flags & CLONE_THREAD;

	reap_ignored_children(leader); /* their slots count against the process limit */
	if ((flags & ~CLONE_FLAGS_OK) || (thread && !(flags & CLONE_SIGHAND)) ||
	    ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM)) ||
	    ((flags & CLONE_CLEAR_SIGHAND) && (flags & CLONE_SIGHAND)))
		return -EINVAL; /* as Linux's copy_process */
	if (!thread && (flags & CSIGNAL) != SIGCHLD)
		return -EINVAL; /* a child that says its end with another signal: not yet */
	if ((flags & CLONE_SETTLS) && tls >= TASK_SIZE_MAX)
		return -EPERM; /* as arch_prctl(ARCH_SET_FS) answers */
	if (__atomic_add_fetch(&nr_user_procs, 1, __ATOMIC_RELAXED) > max_user_procs()) {
		__atomic_sub_fetch(&nr_user_procs, 1, __ATOMIC_RELAXED);
		return -EAGAIN;
	}
	struct fork_frame *frame = kmalloc(sizeof(*frame));
	struct mm_struct *mm = NULL;

	if (frame && (flags & CLONE_VM)) {
		mm = p->mm; /* the same memory: one user more */
		mmget(mm);
	} else if (frame) {
		uprobe_start_dup_mmap(); /* no uprobe comes or goes during the copy */
		mm = dup_mm(p->mm);
		uprobe_end_dup_mmap(mm); /* until c has it, uprobe_register finds it on a list */
	}
	struct fpu *fpu = mm ? fpu_alloc() : NULL;
	/* The handlers, ignored signals and mask are the parent's; nothing is pending. */
	struct sighand_struct *sighand = NULL;

	if (fpu)
		sighand = flags & CLONE_SIGHAND ? p->sighand : sighand_dup(p->sighand);

	if (sighand && (flags & (CLONE_FS | CLONE_FILES)))
		c = kthread_create_shared_fs(ret_from_fork, frame, p->comm);
	else
		c = sighand ? kthread_create(ret_from_fork, frame, p->comm) : NULL;
	if (!c) {
		if (!(flags & CLONE_SIGHAND))
			sighand_free(sighand);
		if (fpu)
			fpu_free(fpu);
		if (!(flags & CLONE_VM))
			uprobe_forked(mm);
		mmput(mm);
		kfree(frame);
		__atomic_sub_fetch(&nr_user_procs, 1, __ATOMIC_RELAXED);
		return -ENOMEM;
	}
	frame->regs = *regs;
	/* the child's stack: musl's and glibc's clone pop from it */
	if (newsp)
		frame->regs.rsp = newsp;
	frame->set_child_tid = flags & CLONE_CHILD_SETTID ? child_tidptr : NULL;
	fpu_save(fpu); /* the parent's registers, live: the kernel never touches them */
	c->mm = mm;
	if (!(flags & CLONE_VM))
		uprobe_forked(mm); /* c has it: found through c from now on */
	uprobe_copy_process(c, flags); /* the parent's pending uretprobes, on the copied stack */
	c->fpu = fpu;
	c->fsbase = flags & CLONE_SETTLS ? tls : p->fsbase;
	c->blocked = p->blocked;
	/* The parent's alternate signal stack, except in a thread: two threads on one stack would
	 * overwrite each other's frames (vfork's child shares it while its parent waits). */
	if ((flags & (CLONE_VM | CLONE_VFORK)) == CLONE_VM) {
		sas_ss_reset(c);
	} else {
		c->sas_ss_sp = p->sas_ss_sp;
		c->sas_ss_size = p->sas_ss_size;
		c->sas_ss_flags = p->sas_ss_flags;
	}
	c->cpus_allowed = p->cpus_allowed; /* taskset's pin holds for what CMD starts, as Linux's */
	c->policy = p->policy; /* chrt's policy holds for the program it starts */
	c->rt_priority = p->rt_priority;
	c->prio = p->prio;
	c->execed = true; /* a program, as its parent */
	c->forknoexec = true; /* until its execve: setpgid by its parent is EACCES after */
	c->parent = thread ? NULL : leader;
	c->ppid = thread ? 0 : leader->pid; /* getppid: the process (a thread: its leader's) */
	if (flags & CLONE_CHILD_CLEARTID)
		c->clear_child_tid = (unsigned long)child_tidptr;
	if (flags & CLONE_VFORK) {
		init_completion(&vfork);
		c->vfork_done = &vfork;
	}
	if (thread) {
		attach_thread(c, p); /* one of p's process's threads, with its table */
	} else {
		/* A process of its own in its parent's job, no signal pending, as after fork(2). */
		setpgid_task(c, p->pgrp);
		if (flags & CLONE_SIGHAND)
			sighand_get(sighand); /* the same actions, another process: rare, allowed */
		attach_sighand(c, sighand); /* under sig_lock: a kill may see c already */
	}
	if (flags & CLONE_CLEAR_SIGHAND)
		flush_signal_handlers(c); /* the ignored stay ignored, as after exec */
	int pid = c->pid;
	if ((flags & CLONE_PARENT_SETTID) && parent_tidptr)
		(void)copy_to_user(parent_tidptr, &pid, sizeof(pid)); /* a bad one is ignored */
	trace_task_newtask(c, flags);
	trace_sched_process_fork(p, c);
	trace_pid_follow_fork(p->pid, pid); /* before it runs: its first calls are traced */
	wake_up_new_task(c);
	if (flags & CLONE_VFORK)
		wait_for_vfork_done(c, &vfork);
	return pid;
}

long sys_fork(void)
{
	return kernel_clone(SIGCHLD, 0, NULL, NULL, 0);
}

long sys_vfork(void)
{
	return kernel_clone(CLONE_VM | CLONE_VFORK | SIGCHLD, 0, NULL, NULL, 0);
}

long sys_clone(unsigned long clone_flags, unsigned long newsp, int __user *parent_tidptr,
	       int __user *child_tidptr, unsigned long tls)
{
	/* Only clone3 reaches the flags above 32 bits, as Linux's legacy clone. */
	return kernel_clone((uint32_t)clone_flags, newsp, parent_tidptr, child_tidptr, tls);
}

/*
 * clone3: clone's arguments in a struct clone_args of a size that grows with new versions: a
 * caller's bigger struct is fine if the fields this kernel does not know are zero (E2BIG if
 * not), as Linux's copy_struct_from_user. The stack is given by its lowest address and size.
 */
#define CLONE_ARGS_SIZE_VER0 64 /* the first struct clone_args: up to tls */
#define CLONE_ARGS_SIZE_MAX 4096 /* Linux's PAGE_SIZE bound on the struct */

struct clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size, cgroup; /* later versions: not supported, must be 0 */
};

long sys_clone3(struct clone_args __user *uargs, size_t size)
{
	struct clone_args args = {0};
	unsigned char rest;

	if (size < CLONE_ARGS_SIZE_VER0)
		return -EINVAL;
	if (size > CLONE_ARGS_SIZE_MAX)
		return -E2BIG;
	if (copy_from_user(&args, uargs, MIN(size, sizeof(args))))
		return -EFAULT;
	for (size_t i = sizeof(args); i < size; i++) {
		if (copy_from_user(&rest, (const char __user *)uargs + i, 1))
			return -EFAULT;
		if (rest)
			return -E2BIG;
	}
	if ((args.flags & CSIGNAL) || args.exit_signal > _NSIG || args.set_tid ||
	    args.set_tid_size || args.cgroup || (args.stack && !args.stack_size) ||
	    (!args.stack && args.stack_size))
		return -EINVAL;
	return kernel_clone(args.flags | args.exit_signal,
			    args.stack ? args.stack + args.stack_size : 0,
			    (int __user *)args.parent_tid, (int __user *)args.child_tid, args.tls);
}

/*
 * prctl(PR_SET_CHILD_SUBREAPER): orphans below the caller come to it, not to init (Linux's
 * is_child_subreaper, kept across exec, not inherited by fork).
 */
void set_child_subreaper(bool on)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	current->child_subreaper = on;
	spin_unlock_irqrestore(&task_list_lock, flags);
}

/*
 * unshare(2): stop sharing with other tasks what a clone shared. Lucid's tasks share their
 * descriptor table and file system context (cwd, umask) with nobody yet (fork copies both,
 * struct fs_context), so CLONE_FILES and CLONE_FS have nothing to do and succeed, as Linux's do
 * for a task that shares nothing. CLONE_THREAD, CLONE_SIGHAND and CLONE_VM succeed, as Linux's,
 * only for a task that is alone in its thread group (and, for CLONE_VM, its memory: not a vfork
 * child); CLONE_SYSVSEM has no semaphore adjustments to drop. Lucid has no namespaces: each
 * CLONE_NEW* is EINVAL (Linux makes a new one; docs/design/syscalls.md says so).
 */
#define CLONE_NEWTIME 0x00000080
#define CLONE_FS 0x00000200
#define CLONE_FILES 0x00000400
#define CLONE_SIGHAND 0x00000800
#define CLONE_THREAD 0x00010000
#define CLONE_NEWNS 0x00020000
#define CLONE_SYSVSEM 0x00040000
#define CLONE_NEWCGROUP 0x02000000
#define CLONE_NEWUTS 0x04000000
#define CLONE_NEWIPC 0x08000000
#define CLONE_NEWUSER 0x10000000
#define CLONE_NEWPID 0x20000000
#define CLONE_NEWNET 0x40000000
#define UNSHARE_NAMESPACES                                                                         \
	(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWUSER | CLONE_NEWPID | \
	 CLONE_NEWCGROUP | CLONE_NEWTIME)
#define UNSHARE_FLAGS                                                                       \
	(CLONE_THREAD | CLONE_FS | CLONE_SIGHAND | CLONE_VM | CLONE_FILES | CLONE_SYSVSEM | \
	 UNSHARE_NAMESPACES)

/* No other task is in current's thread group (Linux's thread_group_empty). */
static bool thread_group_empty_current(void)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *t;
	bool alone = true;

	list_for_each_entry(t, &task_list, tasks)
	{
		if (t != current && t->tgid == current->tgid && !t->reaped && !t->zombie)
			alone = false;
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return alone;
}

long sys_unshare(unsigned long unshare_flags)
{
	/* What implies what, in Linux's ksys_unshare order. */
	if (unshare_flags & CLONE_NEWUSER)
		unshare_flags |= CLONE_THREAD | CLONE_FS;
	if (unshare_flags & CLONE_VM)
		unshare_flags |= CLONE_SIGHAND;
	if (unshare_flags & CLONE_SIGHAND)
		unshare_flags |= CLONE_THREAD;
	if (unshare_flags & CLONE_NEWNS)
		unshare_flags |= CLONE_FS;
	/* Linux's check_unshare_flags: "pretend it works if there is nothing to unshare". */
	if (unshare_flags & ~(unsigned long)UNSHARE_FLAGS)
		return -EINVAL;
	if ((unshare_flags & (CLONE_THREAD | CLONE_SIGHAND | CLONE_VM)) &&
	    !thread_group_empty_current())
		return -EINVAL;
	if ((unshare_flags & CLONE_VM) && current->mm && READ_ONCE(current->mm->mm_users) > 1)
		return -EINVAL;
	if (unshare_flags & UNSHARE_NAMESPACES)
		return -EINVAL; /* no namespaces in Lucid */
	return 0; /* CLONE_FILES, CLONE_FS, CLONE_SYSVSEM: nothing shared, nothing to do */
}
