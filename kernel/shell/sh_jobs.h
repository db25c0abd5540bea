/* The shell's background jobs: `cmd &`, `jobs`, `wait` (kernel/shell/sh_jobs.c). */
#ifndef KERNEL_SH_JOBS_H
#define KERNEL_SH_JOBS_H

struct task;

#define SH_JOBS_MAX 16 /* background jobs at once */
#define SH_JOB_TEXT 80 /* what `jobs` and "Done" show of the command */

/*
 * One background pipeline. Its creator (kernel/shell/sh_exec.c) owns the storage: tasks point into it,
 * and release() frees it once the job has been reaped.
 */
struct sh_job {
	int id; /* [1], [2], ... as bash numbers them */
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

#endif
