/* Tasks and the scheduler (kernel/sched/sched.c, kernel/kthread.c). */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include <stdint.h>
#include <stdbool.h>
#include "lib/list.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/wait.h"
#include "kernel/time/timer.h"
#include "kernel/percpu.h"
#include "kernel/resource.h"

#define TASK_COMM_LEN 16 /* as Linux: 15 characters and a NUL */
#define DEFAULT_PRIO 120 /* Linux's prio for nice 0, as the sched_switch lines show it */

/*
 * Scheduling policies, Linux's values (sched_setscheduler, chrt). A real-time task (FIFO or
 * RR) runs before every normal one, and before any of lower rt_priority (1..99): its prio is
 * MAX_RT_PRIO - 1 - rt_priority, so a smaller prio is more urgent, as in Linux's trace lines.
 * FIFO runs until it blocks or a more urgent task comes; RR also takes turns with its equals.
 */
#define SCHED_NORMAL 0
#define SCHED_FIFO 1
#define SCHED_RR 2
#define SCHED_BATCH 3
#define SCHED_IDLE 5
#define MAX_RT_PRIO 100
#define MAX_USER_RT_PRIO 99 /* the most chrt accepts (sched_get_priority_max) */
#define rt_policy(p) ((p) == SCHED_FIFO || (p) == SCHED_RR)
#define rt_prio(prio) ((prio) < MAX_RT_PRIO)
#define rt_task(t) rt_prio((t)->prio)

/* Task states, with Linux's values (the sched_switch event records them). */
#define TASK_RUNNING 0x0000
#define TASK_INTERRUPTIBLE 0x0001   /* sleeping: "S" */
#define TASK_UNINTERRUPTIBLE 0x0002 /* sleeping, deaf to Ctrl-C: "D" */
#define TASK_STOPPED 0x0004         /* stopped by SIGSTOP and friends until SIGCONT: "T" */
#define TASK_DEAD 0x0080            /* exited: "X" */
#define TASK_NEW 0x0800             /* created, not yet woken */

struct fs_context;
struct ftrace_ret_stack;
struct mm_struct;
struct fpu;
struct sighand_struct;
struct uprobe_task;
struct kretprobe_instance;
struct task {
	unsigned long saved_rsp; /* must stay first: arch/x86_64/switch.S saves RSP here */
	int pid;
	char comm[TASK_COMM_LEN];
	volatile long state;
	int prio;
	int policy;           /* SCHED_NORMAL, SCHED_FIFO, SCHED_RR (above) */
	int rt_priority;      /* 1..99 for FIFO and RR, 0 otherwise */
	int cpu;              /* the CPU whose run queue holds it, or where it last ran */
	bool on_rq;           /* on a run queue (running or waiting to run) */
	volatile int on_cpu;  /* its stack is in use: don't run it elsewhere yet */
	uint64_t cpus_allowed; /* bit n set: may run on CPU n (taskset) */
	int time_slice;       /* ticks left before the tick preempts it */
	struct uprobe_task *utask; /* a uprobe's step or uretprobes in flight (events/uprobes.c) */
	/*
	 * Its kretprobe instances in flight, newest first (kernel/kprobes.c); only it changes it.
	 */
	struct kretprobe_instance *kretprobe_instances;
	void *stack;          /* lowest address of its kernel stack (KSTACK_SIZE bytes) */
	spinlock_t pi_lock;   /* serializes wakeups of this task */
	struct list_head run_list; /* on its CPU's run queue */
	struct list_head tasks;    /* on the list of all tasks (ps) */
	int (*fn)(void *arg); /* what a kernel thread runs */
	void *arg;
	int exit_code;
	int exit_signal;      /* the signal that ended it (kernel/signal.c), or 0 */
	unsigned long sigpending; /* bit n - 1: signal n was sent to it (kernel/signal.c) */
	unsigned long thread_flags; /* TIF_*: work for the way back to user space (below) */
	/* its job (process group): the first command's pid; 0: the kernel's */
	int pgrp;
	int tgid;             /* its command (thread group): `kill PID` reaches all of it */
	/*
	 * Threads (clone with CLONE_THREAD, kernel/fork.c): the tasks of one process share
	 * its memory, files and signal actions, and have their own pid (the thread id, gettid)
	 * and the process's tgid, its first thread's pid (getpid). That first thread, the group
	 * leader, stands for the process: its parent waits for it, and it is not reaped before
	 * every thread has exited, so what the whole process owns lives in the leader's task
	 * (Linux's signal_struct): the count of live threads, the group exit, the signals sent to
	 * the process, the wait queue of wait4 (wait_chldexit). A task of no group is its own
	 * leader.
	 */
	struct task *group_leader;
	/* the leader's: its threads with a signal table, under sig_lock */
	struct list_head thread_head;
	struct list_head thread_node; /* on its leader's thread_head */
	int nr_threads;       /* the leader's: threads that have not passed do_exit's count yet */
	bool group_exit;      /* the leader's: exit_group or a fatal signal ends every thread */
	int group_exit_code;  /* the leader's: the process's wait status once group_exit */
	bool exit_last;       /* it was the last thread of its group to exit: it tells the parent */
	/* the leader's: signals sent to the process (kill), not a thread */
	unsigned long shared_pending;
	unsigned long robust_list; /* set_robust_list: the locks it holds (kernel/futex/core.c) */
	bool make_it_fail;    /* a command's task: fault injection may fail its allocations */
	/* in handle_mm_fault: what it allocates is a user page (or its table) */
	bool in_user_fault;
	/* > 0: a fault on a user page is not serviced (pagefault_disable) */
	int pagefault_disabled;
	wait_queue_head_t exit_wait;
	struct fs_context *fs; /* cwd and open files (kernel/fs/vfs.h) */
	uint64_t nr_switches;
	/* The function graph tracer's return stack (trace/fgraph.c). */
	struct ftrace_ret_stack *ret_stack;
	int curr_ret_stack;   /* entries in use */
	int graph_pause;      /* nonzero: do not hook this task's calls */
	unsigned long graph_overrun; /* calls not hooked because the stack was full */
	uint64_t sleep_time;     /* total ns switched out, kept only while it has a return stack */
	unsigned long *fgraph_task_vars; /* in the return stack's memory: fgraph_get_task_var */
	uint64_t switched_out_at; /* when it last left a CPU */
	bool trace_cmdline_pending; /* the tracer could not save its name yet (trace/trace.c) */
	/* User space: NULL mm means a kernel thread, as in Linux. */
	struct mm_struct *mm;      /* its address space (kernel/mm/mmap.c) */
	struct fpu *fpu;           /* its FPU/SSE registers while it is switched out */
	unsigned long fsbase;      /* arch_prctl(ARCH_SET_FS): the user's TLS pointer */
	int ppid;                  /* the pid of the task that created it (getppid) */
	unsigned long clear_child_tid; /* set_tid_address */
	uint64_t blocked;          /* rt_sigprocmask: the signals it blocks */
	/* Signals of a user process (kernel/signal.c), under its sig_lock. */
	struct sighand_struct *sighand; /* actions and pending siginfo; NULL: a kernel thread */
	uint64_t saved_sigmask;    /* the mask rt_sigsuspend replaced, while restore_sigmask */
	bool restore_sigmask;
	/* sigaltstack's stack (kernel/signal.h): sas_ss_size 0 is none. */
	unsigned long sas_ss_sp, sas_ss_size;
	unsigned int sas_ss_flags;
	/*
	 * The last fault's, for a handler's sigcontext (Linux's thread.trap_nr, error_code, cr2).
	 */
	unsigned long trap_nr, error_code, cr2;
	bool stopped;              /* in a group stop until SIGCONT or SIGKILL */
	int stop_sig;              /* the signal that stopped it, for wait4 */
	bool stop_report;          /* stopped, and no wait4 has said so yet (WUNTRACED) */
	bool cont_report;          /* continued, and no wait4 has said so yet (WCONTINUED) */
	bool cont_notify;          /* continued: it sends its parent CLD_CONTINUED when it runs */
	bool autoreap;             /* its parent ignores SIGCHLD: nobody waits for its status */
	bool zombie;               /* exited, its status final: wait4 may collect it */
	bool execed;               /* became a program: its exit status is its own, signals aside */
	bool forknoexec;           /* no execve since its fork (Linux's PF_FORKNOEXEC): setpgid */
	/* nanosleep's restart_block: where an interrupted sleep resumes (restart_syscall). */
	uint64_t restart_end;      /* the clock's reading the sleep ends at, in ns */
	void *restart_rmtp;        /* where to say the time left if interrupted again */
	int restart_clock;
	struct timer_list real_timer; /* alarm(2): SIGALRM when it expires (kernel/time/itimer.c) */
	uint64_t it_real_incr;     /* ITIMER_REAL's interval in ns: re-armed by this; 0: once */
	/* ITIMER_VIRTUAL and ITIMER_PROF: ns of CPU time left (0: off) and their intervals. */
	uint64_t it_cpu_left[2], it_cpu_incr[2];
	/* The leader's: its process's POSIX timers (kernel/time/posix-timers.c) and the next id. */
	struct list_head posix_timers;
	int next_posix_timer_id;
	/* CPU time, counted at the tick (kernel/sched/cputime.c), in ns. */
	uint64_t utime, stime;     /* in user mode, in the kernel */
	uint64_t cutime, cstime;   /* of the children wait4 collected, and of theirs */
	uint64_t nvcsw, nivcsw;    /* switches away: it waited (voluntary) / it was preempted */
	uint64_t cnvcsw, cnivcsw;  /* the same, of the children collected */
	/* page faults handled (all minor: no swap), own and children's */
	uint64_t min_flt, cmin_flt;
	/*
	 * The leader's: what its threads that exited had used (Linux's signal->utime and
	 * friends), so a process's figures never go down; an exited thread is folded in, and
	 * counted there alone, under task_list_lock (kernel/sched/cputime.c).
	 */
	uint64_t dead_utime, dead_stime, dead_nvcsw, dead_nivcsw, dead_min_flt;
	bool cputime_folded;
	unsigned long maxrss, cmaxrss; /* largest resident size seen, own and children's: KiB */
	uint64_t start_time;       /* ktime_get_ns() when it was made: /proc/PID/stat's starttime */
	/* a forked process: the process that forked it (kernel/fork.c) */
	struct task *parent;
	wait_queue_head_t wait_chldexit; /* wait4 sleeps here until a child exits */
	int wait_status;           /* how it ended, as wait4's status word */
	bool reaped;               /* wait4 has collected it */
	/*
	 * Orphans (kernel/exit.c) and vfork (kernel/fork.c); parent, exiting, the subreaper under
	 * task_list_lock.
	 */
	struct completion *vfork_done; /* a vfork child: its parent sleeps until this completes */
	bool child_subreaper;      /* prctl(PR_SET_CHILD_SUBREAPER): it adopts orphans below it */
	bool exiting;              /* gave its children away: adopts none any more */
	bool self_reap;            /* its parent is a kernel thread: it releases itself at exit */
	int sid;                   /* its session (setsid): the leader's pid; 0: the kernel's */
	struct rlimit64 rlim[RLIM_NLIMITS]; /* its resource limits (kernel/resource.h) */
};

/*
 * thread_flags, Linux's thread_info->flags: the one word a system call's way back to ring 3
 * tests (do_syscall_64, arch/x86_64/syscall_64.c), instead of a load for each kind of work.
 * TIF_SIGPENDING says "look at the signals": it is set (after the mark it announces) wherever
 * a signal is sent, a continued task must tell its parent, a saved mask waits to be put back,
 * or a new mask unblocks a pending signal; only exit_to_user_mode clears it, once it has found
 * nothing left to do.
 */
#define TIF_SIGPENDING 0
#define _TIF_SIGPENDING (1UL << TIF_SIGPENDING)

/* t takes a policy and rt_priority (checked): kernel/sched/sched.c. */
void sched_set_policy(struct task *t, int policy, int rt_priority);

/* Linux's task_nice: Lucid has no nice(2), so a normal task is at 0, and so is a real-time one. */
static inline long task_nice(const struct task *t)
{
	return rt_task(t) ? 0 : t->prio - DEFAULT_PRIO;
}

static inline void set_tsk_thread_flag(struct task *t, int flag)
{
	__atomic_fetch_or(&t->thread_flags, 1UL << flag, __ATOMIC_SEQ_CST);
}

static inline void clear_tsk_thread_flag(struct task *t, int flag)
{
	__atomic_fetch_and(&t->thread_flags, ~(1UL << flag), __ATOMIC_SEQ_CST);
}

static inline bool test_tsk_thread_flag(struct task *t, int flag)
{
	return (__atomic_load_n(&t->thread_flags, __ATOMIC_SEQ_CST) >> flag) & 1;
}

extern struct list_head task_list;
extern spinlock_t task_list_lock;
/* kernel/fs/pidfd.c: wakes whoever polls a pidfd, as a task exits. */
void do_notify_pidfd(void);
/* The pid pidfd fd names, *flags its file's (O_NONBLOCK), for waitid's P_PIDFD; else -EBADF. */
int pidfd_get_pid(int fd, unsigned int *flags);

/*
 * Linux's pagefault_disable(): between the two, a fault on a user address taken by the kernel
 * (copy_from_user and friends) is not serviced by paging in, which may sleep, but fails at
 * once through the exception table. For code that cannot sleep (probe handlers, interrupts
 * off) reading user memory; it nests.
 */
static inline void pagefault_disable(void)
{
	current->pagefault_disabled++;
	barrier();
}
static inline void pagefault_enable(void)
{
	barrier();
	current->pagefault_disabled--;
}
static inline bool faulthandler_disabled(void)
{
	return current->pagefault_disabled != 0;
}

void sched_init(void);         /* the boot CPU, before anything sleeps */
void sched_init_this_cpu(void *stack); /* each CPU: its idle task, on the stack it runs on */
void __noreturn cpu_idle(void);
void schedule(void);
void preempt_schedule_irq(void);
void preempt_count_leaked(const char *where, int was); /* panics: sched.c says why */
void scheduler_tick(void);
bool wake_up_process(struct task *t);
void kick_process(struct task *t); /* a running t looks at its signals now */
void set_current_state(long state);
void set_special_state(long state); /* TASK_DEAD, TASK_STOPPED: no wakeup undoes it */
void yield(void);

struct task *kthread_create(int (*fn)(void *), void *arg, const char *name);
/* The same, sharing current's cwd and file table (clone with CLONE_FILES, kernel/fork.c). */
struct task *kthread_create_shared_fs(int (*fn)(void *), void *arg, const char *name);
/* Without its creator's files, so from inside a file operation too; on cpu (-1: any). */
struct task *kthread_create_on_cpu(int (*fn)(void *), void *arg, int cpu, const char *name);
void kthread_bind_mask(struct task *t, uint64_t mask);
void set_cpus_allowed_ptr(struct task *t, uint64_t mask); /* and moves t off CPUs not in it */
void wake_up_new_task(struct task *t);
struct task *kthread_run(int (*fn)(void *), void *arg, const char *name);
/*
 * pid 1 is the init task's, as in Linux: the task kmain starts last (kernel_init), which runs
 * init, or the rescue console. Linux creates it first (rest_init) and has it wait for
 * the rest of boot; here boot runs in kmain itself, so the pid is kept for it instead.
 */
#define INIT_PID 1
struct task *kthread_run_init(int (*fn)(void *), void *arg, const char *name);
void __noreturn kthread_exit(int code);
/* A process's end (do_exit): its status says itself whether a signal (sig, or 0) ended it. */
void __noreturn kthread_exit_status(int code, int sig);
/* Waits for t to exit, frees it and returns its exit code. */
int kthread_join(struct task *t);
/* t, exiting, that nobody will join: off the task list now, freed once off its CPU. */
void kthread_release_self(struct task *t);
/* Frees the tasks kthread_release_self left that are off their CPUs. */
void free_dead_tasks(void);

char task_state_char(long state);
/* A new name for t (prctl PR_SET_NAME, a write of /proc/PID/comm): kernel/sys.c. */
void set_task_comm(struct task *t, const char *name);
void finish_task_switch(struct task *prev);
int sched_alloc_pid(void);
void sched_task_init(struct task *t, const char *name);
int nr_running(int cpu);
uint64_t nr_context_switches(void);
int sched_last_pid(void);

#endif
