/* The shell's background jobs: `cmd &`, `jobs`, `wait` (kernel/shell/sh_jobs.c), fg, bg, kill. */
#ifndef KERNEL_SH_JOBS_H
#define KERNEL_SH_JOBS_H

#include <stdbool.h>

struct task;

#define SH_JOBS_MAX 16 /* background jobs at once */
#define SH_JOB_TEXT 80 /* what `jobs` and "Done" show of the command */

/*
 * One background pipeline. Its creator (kernel/shell/sh_exec.c) owns the storage: tasks point into it,
 * and release() frees it once the job has been reaped.
 */
struct sh_job {
	int id; /* [1], [2], ... as bash numbers them */
	int pgrp; /* its process group (kernel/sched/signal.c): what Ctrl-C in fg and kill %N reach */
	int ntasks;
	struct task **tasks; /* started; the last one's exit code is the job's status */
	char text[SH_JOB_TEXT];
	void (*release)(struct sh_job *job);
};

/* Takes a started job; prints "[id] pid". -EAGAIN (nothing taken) when the table is full. */
int sh_job_add(struct sh_job *job);
/* Joins the jobs that ended, printing bash's "[1]+  Done    cmd". The shell calls it before
 * each prompt. */
void sh_jobs_reap(void);

/*
 * The job a jobspec names, as bash reads one: "%1" or "1", "%%", "%+" or "%" (the current
 * job, also for spec NULL), "%-" (the previous), "%sl" (the one whose command starts so),
 * "%?20" (whose command contains it). NULL and -ESRCH if none, -EINVAL if several match.
 */
struct sh_job *sh_job_find(const char *spec, int *err);
/* Whether the running thread is the shell's own, the only one with jobs (not `fg | cat`). */
bool sh_job_control(void);
/* The job with a task of this pid, or NULL. */
struct sh_job *sh_job_find_pid(int pid);
/* Whether every task of job has exited. */
bool sh_job_done(const struct sh_job *job);
/* Whether job is bash's current one, marked '+'. */
bool sh_job_is_current(const struct sh_job *job);
/* The signal that stopped job (every task stopped or exited, one stopped), or 0. */
int sh_job_stopped(const struct sh_job *job);
/* A foreground job stopped: into the table if not there yet, with bash's "[1]+  Stopped"
 * line. -EAGAIN (nothing taken) when the table is full. */
int sh_job_stop(struct sh_job *job);
/* Takes an ended job out of the table: joins it, returns its status (128 + a signal that
 * killed it), and prints bash's notice ("[1]+  Terminated    cmd") if report is set. */
int sh_job_finish(struct sh_job *job, bool report);
/* Takes a job whose tasks were joined already (by sh_foreground_wait) out of the table. */
void sh_job_forget(struct sh_job *job);

/* Ctrl-C goes to process group pgrp until sh_foreground_wait() returns (kernel/shell/sh_exec.c). */
void sh_foreground_begin(int pgrp);
/*
 * Waits for the tasks of the foreground job and joins them. Their status: the last one's, or
 * 130 if Ctrl-C was pressed during the line (the shell prints "^C" when the line ends). If the
 * job stops instead (a program's SIGSTOP or SIGTSTP), *stopped is set, nothing is joined, and
 * the status is 128 + the stop signal, as bash's.
 */
int sh_foreground_wait(struct task **tasks, int n, bool *stopped);

#endif
