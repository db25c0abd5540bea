/* Signals as far as kernel threads can have them: Ctrl-C, kill and job control (kernel/sched/signal.c). */
#ifndef KERNEL_SIGNAL_H
#define KERNEL_SIGNAL_H

#include <stdbool.h>

struct task;

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
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20

/* The exit status of a command a signal ended, as bash reports it: 128 + the signal number. */
#define STATUS_SIGNALED(sig) (128 + (sig))
#define STATUS_SIGINT STATUS_SIGNALED(SIGINT) /* 130: Ctrl-C */
#define STATUS_SIGPIPE STATUS_SIGNALED(SIGPIPE) /* 141: a pipeline's reader went away */

/* Marks t with sig and wakes it if it sleeps interruptibly. Safe from an interrupt, as are the
 * two below. */
void send_sig(int sig, struct task *t);
/* sig to every task of process group pgrp (a job). Returns how many, or -ESRCH if none. */
int kill_pgrp(int pgrp, int sig);
/*
 * sig to the task pid and every thread it belongs with (its thread group: a command and the
 * threads it started), as kill(2) does. 0, or -ESRCH if no task has that pid. A task in no
 * job (the shell, snapshotd: the kernel's own threads) ignores it, as Linux's kernel threads.
 */
int kill_pid(int pid, int sig);
/*
 * Makes t, not yet started, a command of its own (tgid = its pid) in job pgrp, as a shell's
 * setpgid() after fork does, with no signal pending: what it copied from the shell was for
 * the shell.
 */
void setpgid_task(struct task *t, int pgrp);
/* The lowest-numbered signal t was sent, or 0: the one it dies of, as Linux delivers it first. */
int task_signal_pending(struct task *t);
/* Forgets the signals current was sent (the shell, after a Ctrl-C ended its own wait). */
void flush_signals(void);
/* bool signal_pending_current(void) is declared in kernel/sched/wait.h, which tests it. */

#endif
