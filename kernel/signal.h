/* Signals: sending, queueing and the system calls around them (kernel/signal.c). */
#ifndef KERNEL_SIGNAL_H
#define KERNEL_SIGNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/list.h"
#include "kernel/syscalls.h" /* __user */

struct task;
struct pt_regs;

/*
 * Linux's numbers (asm/signal.h): `kill -9` and an exit status of 128 + 9 mean the same here,
 * and user programs see the numbers their C library expects.
 */
#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGSTKFLT 16
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGURG 23
#define SIGXCPU 24
#define SIGXFSZ 25
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define SIGIO 29
#define SIGPWR 30
#define SIGSYS 31
#define SIGRTMIN 32 /* the kernel's: the C libraries keep the first two or three for themselves */
#define _NSIG 64

/* A set of signals as Linux keeps it (sigset_t on x86_64): bit sig - 1 for signal sig. */
typedef uint64_t sigset_t;
#define sigmask(sig) (1ULL << ((sig)-1))
/* Neither caught, blocked nor ignored, whatever a program asks. */
#define SIG_KERNEL_ONLY_MASK (sigmask(SIGKILL) | sigmask(SIGSTOP))
#define SIG_KERNEL_STOP_MASK \
	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | sigmask(SIGTTOU))

/* sa_handler's two special values, and sa_flags, as asm/signal-defs.h has them. */
#define SIG_DFL 0UL
#define SIG_IGN 1UL
#define SA_NOCLDSTOP 0x00000001
#define SA_NOCLDWAIT 0x00000002
#define SA_SIGINFO 0x00000004
#define SA_RESTORER 0x04000000
#define SA_ONSTACK 0x08000000
#define SA_RESTART 0x10000000
#define SA_NODEFER 0x40000000
#define SA_RESETHAND 0x80000000

/* siginfo's si_code values Lucid sends (asm-generic/siginfo.h). */
#define SI_USER 0 /* kill */
#define SI_KERNEL 0x80
#define SI_TKILL (-6) /* tkill, tgkill */
#define SI_TIMER (-2) /* a POSIX timer's (kernel/time/posix-timers.c) */
#define SI_QUEUE (-1) /* sigqueue(3): rt_sigqueueinfo, with the sender's si_value */
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2
#define BUS_ADRERR 2 /* SIGBUS: no memory behind the address (past a mapped file's end) */
#define TRAP_BRKPT 1 /* SIGTRAP: a breakpoint (int1) */
#define TRAP_TRACE 2 /* SIGTRAP: a single step (TF) */
#define CLD_EXITED 1
#define CLD_KILLED 2
#define CLD_DUMPED 3
#define CLD_STOPPED 5
#define CLD_CONTINUED 6

#define SIGSET_SIZE sizeof(sigset_t) /* the only sigsetsize Linux x86_64 accepts */

/*
 * An alternate signal stack (sigaltstack), Linux's stack_t: where the handlers of SA_ONSTACK
 * signals run, so that a program whose own stack overflowed can still catch the SIGSEGV.
 * ss_flags as the system call reports it: SS_ONSTACK (running on it), SS_DISABLE (none), and
 * the flag SS_AUTODISARM (disarmed while a handler runs: a handler may longjmp away at will).
 */
typedef struct sigaltstack {
	unsigned long ss_sp; /* a user address: the stack's lowest byte */
	int ss_flags;
	unsigned long ss_size;
} stack_t;
#define SS_ONSTACK 1
#define SS_DISABLE 2
#define SS_AUTODISARM (1U << 31)
#define SS_FLAG_BITS SS_AUTODISARM /* the flags beside the mode */
#define MINSIGSTKSZ 2048 /* x86's: smaller is ENOMEM */

/* What rt_sigaction reads and writes: Linux's struct sigaction for x86_64, as the libcs pass it. */
struct k_sigaction {
	unsigned long handler;
	unsigned long flags;
	unsigned long restorer;
	sigset_t mask;
};

#define SI_FIELDS_SIZE 32 /* kernel_siginfo's union: what a program's siginfo may fill */

/*
 * What a sent signal carries until it is delivered: the fields of siginfo_t Lucid fills in.
 * arch/x86_64/signal.c lays it out as the 128 bytes of Linux's siginfo_t.
 */
struct ksiginfo {
	int signo;
	int code;
	int pid; /* SI_USER, SI_TKILL, SIGCHLD: the sender, or the child */
	int status; /* SIGCHLD: the exit code or the signal */
	unsigned long addr; /* SIGSEGV, SIGBUS, SIGILL, SIGFPE: the faulting address */
	/* SI_TIMER: the timer's id, its overrun count and the program's sigev_value. */
	int timer_id;
	int overrun;
	uint64_t value;
	int sys_private; /* SI_TIMER: re-arm the timer as it is taken (never seen by the user) */
	/*
	 * A siginfo a program made (rt_sigqueueinfo, rt_tgsigqueueinfo, pidfd_send_signal):
	 * delivered as it was given, si_errno and the union after si_code byte for byte (its
	 * si_pid, si_uid, si_value), as Linux copies a user's kernel_siginfo whole.
	 */
	bool raw;
	int errnum;
	uint8_t fields[SI_FIELDS_SIZE];
};

/* A real-time signal waiting in its queue: each one sent is delivered, in order. */
struct sigqueue {
	struct list_head list;
	struct ksiginfo info;
	int tid; /* sent to that thread (tgkill); 0: to the process */
	bool prealloc; /* a POSIX timer's own entry: that timer frees it, not its dequeue */
};

/*
 * A process's signal state, allocated at exec (a kernel thread has none: see signal.c):
 * the action for each signal, the siginfo of each standard signal pending (one at most), and
 * the queue of real-time ones.
 */
struct sighand_struct {
	int count; /* the tasks that share it (a process's threads), under sig_lock */
	struct k_sigaction action[_NSIG];
	struct ksiginfo info[SIGRTMIN];
	struct list_head rtqueue;
	int nr_queued;
};

/* The exit status of a command a signal ended, as bash reports it: 128 + the signal number. */
#define STATUS_SIGNALED(sig) (128 + (sig))
#define STATUS_SIGINT STATUS_SIGNALED(SIGINT) /* 130: Ctrl-C */
#define STATUS_SIGPIPE STATUS_SIGNALED(SIGPIPE) /* 141: a pipeline's reader went away */

/* Marks t with sig and wakes it if it sleeps interruptibly. Safe from an interrupt, as are the
 * two below. The signal comes from the kernel (SI_KERNEL). */
void send_sig(int sig, struct task *t);
/* As send_sig, with what the siginfo says. 0, or -EAGAIN if a real-time queue is full. */
int send_sig_info(int sig, const struct ksiginfo *info, struct task *t);
/*
 * The same, to the whole process (group: kill, a job's signal, SIGCHLD: send_sig_info's) or
 * to the thread t alone (tkill, a fault's signal): the signal_generate event tells which.
 */
int do_send_sig_info(int sig, const struct ksiginfo *info, struct task *t, bool group);
/* sig to every task of process group pgrp (a job). Returns how many, or -ESRCH if none. */
int kill_pgrp(int pgrp, int sig);
/*
 * sig, with the siginfo given (kill's SI_USER, pidfd_send_signal's), to the task pid and every
 * thread of its process, as kill(2) does; sig 0 only checks. 0, -ESRCH if no task has that pid,
 * -EINVAL for a bad sig, or the send's -EAGAIN. A kernel thread ignores it, as Linux's.
 */
int kill_pid_info(int pid, int sig, const struct ksiginfo *info);
/*
 * Makes t, not yet started, a process of its own (tgid = its pid) in process group pgrp, as
 * fork() does, with no signal pending: what was sent to its creator was for its creator.
 */
void setpgid_task(struct task *t, int pgrp);
/* Will a pending signal kill current (SIGKILL, or a fatal default action)? Killable sleeps ask. */
bool fatal_signal_pending(void);
/* Forgets the signals current was sent. */
void flush_signals(void);
/* bool signal_pending_current(void) is declared in kernel/sched/wait.h, which tests it. */

/* /proc/PID/status's SigIgn and SigCgt: the signals t's actions ignore, and those it handles. */
void task_sigactions(struct task *t, sigset_t *ignored, sigset_t *caught);
/* Whether t has a handler for sig that it does not block: a fault's signal then runs it. */
bool sig_handled(struct task *t, int sig);
/* Whether current blocks or ignores sig: the tty's SIGTTIN and SIGTTOU checks, Linux's
 * is_ignored() in tty_check_change. */
bool sig_ignored_or_blocked(int sig);
/*
 * Takes t's signal table away (exit), so that signals sent from now on only mark it: returns it
 * for freeing if t was its last user, else NULL.
 */
struct sighand_struct *detach_sighand(struct task *t);
/* A process's signal table: a fresh one (exec), a copy (fork), and exec's reset of it. */
struct sighand_struct *sighand_alloc(void);
struct sighand_struct *sighand_dup(const struct sighand_struct *old);
/* One user more: a thread (CLONE_SIGHAND) shares the table. detach_sighand drops one. */
struct sighand_struct *sighand_get(struct sighand_struct *sh);
/*
 * clone(CLONE_THREAD): c, not yet started, becomes a thread of p's process: p's table, its
 * leader, its tgid, one live thread more; SIGKILL at once if the process is already exiting.
 */
void attach_thread(struct task *c, struct task *p);
/* exit_group and a fatal signal: every thread of current's process ends, with status code. */
void __attribute__((noreturn)) do_group_exit(int code);
/* execve in a process of several threads (kernel/exit.c's de_thread uses these two). */
bool zap_other_threads(struct task *t);
void end_group_exec(struct task *t);
/* The other threads gone, t the leader: its old tid, or -EAGAIN if the process is exiting. */
int de_thread(struct task *t);
void sighand_free(struct sighand_struct *sh);
void flush_signal_handlers(struct task *t);
/*
 * fresh becomes t's table (fork, and exec of a kernel thread); if t had one (exec from a
 * program), that one stays, minus its handlers, and fresh is freed.
 */
void attach_sighand(struct task *t, struct sighand_struct *fresh);

/*
 * The next signal current should act on, taken off its pending set, with its siginfo: 0 if none.
 * Default actions are taken here (a stop stops, a fatal one exits, an ignored one is dropped),
 * so what it returns has a handler; *ka is a copy of the action, already reset if SA_RESETHAND.
 */
int get_signal(struct ksiginfo *info, struct k_sigaction *ka);
/*
 * signalfd's read (kernel/fs/signalfd.c): the lowest signal of mask pending for current, taken
 * off its pending set with its siginfo, whether blocked or not and with no action taken; 0 if
 * none. signalfd_notify wakes signalfd's readers and pollers: a signal was sent to someone.
 */
int dequeue_signal_mask(sigset_t mask, struct ksiginfo *info);
/* What is pending for t: its own signals and its process's (its leader's shared_pending). */
sigset_t task_pending(const struct task *t);
void signalfd_notify(void);
/* current's mask after a handler for sig starts (sa_mask, and sig itself unless SA_NODEFER). */
void signal_delivered(int sig, const struct k_sigaction *ka);
/* Sets current's mask; SIGKILL and SIGSTOP stay unblocked. */
void set_current_blocked(sigset_t mask);
/* rt_sigsuspend's and pselect's mask ends: the one before, unless a handler's frame took it. */
void restore_saved_sigmask(void);
/*
 * Linux's set_user_sigmask: the mask a call waits under (rt_sigsuspend, ppoll, pselect6), the
 * caller's kept in saved_sigmask for restore_saved_sigmask(), after the handler of the signal
 * that ends the wait has its frame. A NULL umask: nothing changes. -EINVAL, -EFAULT.
 */
long set_user_sigmask(const sigset_t __user *umask, size_t sigsetsize);
/*
 * The alternate signal stack of current (Linux's names): is sp on it (never with SS_AUTODISARM,
 * which a handler's delivery disarms), and what sigaltstack would report for sp: SS_DISABLE,
 * SS_ONSTACK or 0. sas_ss_reset forgets t's (a new thread's, an exec's start).
 */
bool on_sig_stack(unsigned long sp);
bool __on_sig_stack(unsigned long sp); /* on it, armed or not: a frame's overflow check */
int sas_ss_flags(unsigned long sp);
void sas_ss_reset(struct task *t);
/*
 * sigaltstack's work, ss and oss kernel copies, either NULL; sp is the user's stack pointer,
 * which must not be on the stack for a change (-EPERM). 0, -EPERM, -EINVAL, -ENOMEM.
 */
int do_sigaltstack(const stack_t *ss, stack_t *oss, unsigned long sp);
/*
 * Linux's force_sig: sig to current's handler if it has one it does not block, else death by
 * sig. force_sigsegv(sig): sig's handler frame could not be written, SIGSEGV instead (death if
 * sig was SIGSEGV).
 */
void force_sig(int sig);
void force_sigsegv(int sig);
/* SIGCHLD and the wait4 bookkeeping for a stop (CLD_STOPPED) or a continue (CLD_CONTINUED). */
void do_notify_parent_cldstop(struct task *t, int why, int sig);
/* wait4: has child c a stop (WUNTRACED) or continue (WCONTINUED) not yet reported? */
bool child_report_pending(struct task *c, bool stopped, bool continued);
/*
 * The same, taken (or, take false, left for the next wait: waitid's WNOWAIT): *status is
 * wait4's word for it ((sig << 8) | 0x7f, or 0xffff).
 */
bool child_report_take(struct task *c, bool stopped, bool continued, bool take, int *status);
/*
 * A wait status as a SIGCHLD's siginfo says it (and waitid's): the si_code returned,
 * *si_status the exit code or the signal. Linux's wait_task_zombie and do_notify_parent.
 */
static inline int wait_status_code(int status, int *si_status)
{
	if (status == 0xffff) { /* continued */
		*si_status = SIGCONT;
		return CLD_CONTINUED;
	}
	if ((status & 0xff) == 0x7f) { /* stopped, by the signal above */
		*si_status = (status >> 8) & 0xff;
		return CLD_STOPPED;
	}
	if (!(status & 0x7f)) { /* exited, with the code above */
		*si_status = (status >> 8) & 0xff;
		return CLD_EXITED;
	}
	*si_status = status & 0x7f; /* killed, 0x80 if it dumped a core (never here) */
	return status & 0x80 ? CLD_DUMPED : CLD_KILLED;
}
/*
 * At exit, its files closed: t becomes a zombie wait4 can collect (t->zombie), and its parent
 * gets SIGCHLD, CLD_EXITED or CLD_KILLED; t->autoreap if the parent will never wait for it.
 */
/* Returns t->self_reap as it was decided: true if nobody will wait for t (it frees itself). */
bool do_notify_parent(struct task *t, int status);
void __do_notify_parent(struct task *t, int status); /* task_list_lock held */

/*
 * POSIX timers' signals (kernel/time/posix-timers.c), Linux's send_sigqueue: q, the timer's own
 * entry, is queued for the thread tid of the process whose leader is leader (tid 0: for the
 * process). If q is still queued from the timer's last expiry, its overrun count goes up
 * instead: one signal per timer at most. 0: queued or counted; 1: the signal is ignored;
 * -1: nobody to take it (the thread has exited).
 */
int send_sigqueue(struct sigqueue *q, struct task *leader, int tid);
/* The timer is going: q is freed now, or by its dequeue if it is still queued (Linux's). */
void sigqueue_free(struct sigqueue *q);
/* exec: the old program's pending timer signals are dropped (Linux's flush_itimer_signals). */
void flush_itimer_signals(struct task *t);
/* siginfo_t as the user sees it, from info (arch/x86_64/signal.c): 0 or -EFAULT. */
int copy_siginfo_to_user(void __user *to, const struct ksiginfo *info);
/*
 * A program's siginfo_t into *info, raw (Linux's __copy_siginfo_from_user): its si_code and
 * what follows as given; si_signo as given too (the callers decide what it must be). -EFAULT.
 */
int copy_siginfo_from_user(struct ksiginfo *info, const void __user *from);
/* The sender a program's siginfo names (si_pid, si_uid): signalfd's ssi_pid and ssi_uid. */
void siginfo_raw_sender(const struct ksiginfo *info, uint32_t *pid, uint32_t *uid);
/* Its si_value (sigqueue's): signalfd's ssi_ptr. */
uint64_t siginfo_raw_value(const struct ksiginfo *info);

#endif
