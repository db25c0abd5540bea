/* Background jobs: `run_test &` runs while the shell takes the next line, as in bash. */

/*
 * A pipeline ended by '&' is started like any other (kernel/shell/sh_exec.c), but the shell does not
 * wait for it: it goes into a small table here and the prompt comes back at once. Before each
 * prompt the shell reaps the jobs whose threads have all exited: it joins them and reports
 * "[1]+  Done    cmd" (or "Exit N"), as bash does. `jobs` lists the table; `wait` blocks until
 * every job has ended (Ctrl-C stops the waiting, not the jobs).
 *
 * There is no job control: no fg, bg or Ctrl-Z, and Ctrl-C does not reach a background job.
 * Only the shell's thread touches the table, so it needs no lock.
 */
#include "kernel/shell/sh_jobs.h"
#include "kernel/drivers/console.h"
#include "kernel/sched/sched.h"
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/sched/wait.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/printf.h"
#include "kernel/sched/signal.h"

static struct sh_job *jobs[SH_JOBS_MAX];
static int last_id; /* the most recent job: bash marks it '+' */

static bool job_done(const struct sh_job *job)
{
	for (int i = 0; i < job->ntasks; i++)
		if (READ_ONCE(job->tasks[i]->state) != TASK_DEAD)
			return false;
	return true;
}

/* bash's "[1]+  Done                    sleep 1": the state padded to 24 columns. */
static void report(const struct sh_job *job, const char *state)
{
	printf("[%d]%c  %-24s%s\n", job->id, job->id == last_id ? '+' : ' ', state, job->text);
}

int sh_job_add(struct sh_job *job)
{
	int slot, id = 1;

	for (slot = 0; slot < SH_JOBS_MAX && jobs[slot]; slot++)
		;
	if (slot == SH_JOBS_MAX)
		return -EAGAIN;
	for (int i = 0; i < SH_JOBS_MAX; i++) /* bash reuses the lowest free number */
		if (jobs[i] && jobs[i]->id >= id)
			id = jobs[i]->id + 1;
	job->id = id;
	last_id = id;
	jobs[slot] = job;
	printf("[%d] %d\n", id, job->tasks[job->ntasks - 1]->pid);
	return 0;
}

void sh_jobs_reap(void)
{
	for (int slot = 0; slot < SH_JOBS_MAX; slot++) {
		struct sh_job *job = jobs[slot];
		char state[24];
		int code = 0;

		if (!job || !job_done(job))
			continue;
		for (int i = 0; i < job->ntasks; i++)
			code = kthread_join(job->tasks[i]);
		if (code)
			snprintf(state, sizeof(state), "Exit %d", code);
		report(job, code ? state : "Done");
		jobs[slot] = NULL;
		job->release(job);
	}
}

static int cmd_jobs(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (int id = 1; id <= last_id; id++)
		for (int slot = 0; slot < SH_JOBS_MAX; slot++)
			if (jobs[slot] && jobs[slot]->id == id)
				report(jobs[slot], job_done(jobs[slot]) ? "Done" : "Running");
	return 0;
}
SHELL_BUILTIN("jobs", "jobs: list the background jobs", cmd_jobs);

static struct task *waiter;

static void wait_interrupted(void)
{
	send_sigint(waiter);
}

/* Sleeps until every job ended; Ctrl-C gives up (status 130, as bash). */
static int cmd_wait(int argc, char **argv)
{
	int status = 0;

	(void)argc;
	(void)argv;
	waiter = current;
	console_set_intr(wait_interrupted);
	for (int slot = 0; slot < SH_JOBS_MAX && !status; slot++) {
		struct sh_job *job = jobs[slot];

		for (int i = 0; job && i < job->ntasks && !status; i++)
			if (wait_event_interruptible(&job->tasks[i]->exit_wait,
						     READ_ONCE(job->tasks[i]->state) == TASK_DEAD))
				status = 130;
	}
	console_set_intr(NULL);
	__atomic_store_n(&current->sigint, false, __ATOMIC_SEQ_CST);
	return status;
}
SHELL_BUILTIN("wait", "wait: wait until every background job has ended", cmd_wait);
