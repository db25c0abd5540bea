/* Background jobs: `run_test &` runs while the shell takes the next line, as in bash. */

/*
 * A pipeline ended by '&' is started like any other (kernel/shell/sh_exec.c), but the shell does not
 * wait for it: it goes into a small table here and the prompt comes back at once. Before each
 * prompt the shell reaps the jobs whose threads have all exited: it joins them and reports
 * "[1]+  Done    cmd", "Exit N" or the signal that ended it ("Terminated"), as bash does. A
 * job whose programs all stopped (kernel/sched/signal.c) is "Stopped" until fg or bg continues
 * it; one that stops in the foreground comes here too (sh_job_stop).
 * `jobs` lists the table; `wait` blocks until every job (or the ones named) has ended; Ctrl-C
 * stops the waiting, not the jobs. fg, bg and kill (kernel/shell/sh_jobctl.c) find jobs here.
 *
 * Only the shell's thread touches the table, so it needs no lock.
 */
#include "kernel/shell/sh_jobs.h"
#include "kernel/sched/sched.h"
#include "kernel/shell/shell.h"
#include "kernel/sched/signal.h"
#include "kernel/shell/stdio.h"
#include "kernel/sched/wait.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/string.h"
#include "lib/printf.h"

#define STATUS_NOT_CHILD 127 /* bash's `wait` for a job or pid it does not have */

static struct sh_job *jobs[SH_JOBS_MAX];
static int last_id; /* the most recent job: bash marks it '+' */

bool sh_job_done(const struct sh_job *job)
{
	for (int i = 0; i < job->ntasks; i++)
		if (READ_ONCE(job->tasks[i]->state) != TASK_DEAD)
			return false;
	return true;
}

/* The current job, bash's '+': the most recent one, or the newest left when it has gone. */
static struct sh_job *current_job(void)
{
	struct sh_job *best = NULL;

	for (int slot = 0; slot < SH_JOBS_MAX; slot++) {
		if (!jobs[slot])
			continue;
		if (jobs[slot]->id == last_id)
			return jobs[slot];
		if (!best || jobs[slot]->id > best->id)
			best = jobs[slot];
	}
	return best;
}

bool sh_job_is_current(const struct sh_job *job)
{
	return job == current_job();
}

/* bash's "[1]+  Done                    sleep 1": the state padded to 24 columns. */
static void report(const struct sh_job *job, const char *state)
{
	printf("[%d]%c  %-24s%s\n", job->id, job == current_job() ? '+' : ' ', state, job->text);
}

/* How bash names the signal that ended a job (glibc's strsignal() text). */
static const char *signal_state(int sig)
{
	static const char *const text[SIGRTMIN] = {
		[SIGHUP] = "Hangup",
		[SIGINT] = "Interrupt",
		[SIGQUIT] = "Quit",
		[SIGILL] = "Illegal instruction",
		[SIGTRAP] = "Trace/breakpoint trap",
		[SIGABRT] = "Aborted",
		[SIGBUS] = "Bus error",
		[SIGFPE] = "Floating point exception",
		[SIGKILL] = "Killed",
		[SIGUSR1] = "User defined signal 1",
		[SIGSEGV] = "Segmentation fault",
		[SIGUSR2] = "User defined signal 2",
		[SIGPIPE] = "Broken pipe",
		[SIGALRM] = "Alarm clock",
		[SIGTERM] = "Terminated",
		[SIGSTKFLT] = "Stack fault",
		[SIGXCPU] = "CPU time limit exceeded",
		[SIGXFSZ] = "File size limit exceeded",
		[SIGVTALRM] = "Virtual timer expired",
		[SIGPROF] = "Profiling timer expired",
		[SIGIO] = "I/O possible",
		[SIGPWR] = "Power failure",
		[SIGSYS] = "Bad system call",
	};

	return sig > 0 && sig < SIGRTMIN && text[sig] ? text[sig] : "Signalled";
}

/* bash's words for a stopped job: SIGTSTP's plain "Stopped", the others' with a reason. */
static const char *stop_state(int sig)
{
	switch (sig) {
	case SIGSTOP:
		return "Stopped (signal)";
	case SIGTTIN:
		return "Stopped (tty input)";
	case SIGTTOU:
		return "Stopped (tty output)";
	default:
		return "Stopped";
	}
}

int sh_job_stopped(const struct sh_job *job)
{
	int sig = 0;

	for (int i = 0; i < job->ntasks; i++) {
		struct task *t = job->tasks[i];

		if (READ_ONCE(t->state) == TASK_DEAD)
			continue;
		if (!READ_ONCE(t->stopped))
			return 0;
		sig = READ_ONCE(t->stop_sig);
	}
	return sig;
}

static int job_insert(struct sh_job *job)
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
	return 0;
}

int sh_job_add(struct sh_job *job)
{
	int err = job_insert(job);

	if (!err)
		printf("[%d] %d\n", job->id, job->tasks[job->ntasks - 1]->pid);
	return err;
}

int sh_job_stop(struct sh_job *job)
{
	bool known = false;

	for (int slot = 0; slot < SH_JOBS_MAX; slot++)
		known |= jobs[slot] == job;
	if (!known && job_insert(job))
		return -EAGAIN;
	last_id = job->id; /* the stopped job becomes the current one, as in bash */
	printf("\n");
	report(job, stop_state(sh_job_stopped(job)));
	return 0;
}

void sh_job_forget(struct sh_job *job)
{
	for (int slot = 0; slot < SH_JOBS_MAX; slot++)
		if (jobs[slot] == job)
			jobs[slot] = NULL;
	job->release(job);
}

int sh_job_finish(struct sh_job *job, bool notify)
{
	struct task *last = job->tasks[job->ntasks - 1];
	int sig = last->exit_signal, code = 0;
	char state[24];

	if (notify) {
		snprintf(state, sizeof(state), "Exit %d", last->exit_code);
		report(job, sig ? signal_state(sig) : last->exit_code ? state : "Done");
	}
	for (int i = 0; i < job->ntasks; i++)
		code = kthread_join(job->tasks[i]);
	sh_job_forget(job);
	return code;
}

void sh_jobs_reap(void)
{
	for (int slot = 0; slot < SH_JOBS_MAX; slot++)
		if (jobs[slot] && sh_job_done(jobs[slot]))
			sh_job_finish(jobs[slot], true);
}

/*
 * The table is the shell's: a builtin run in a pipeline's thread (`wait | cat`), like bash's
 * subshell, has no jobs. The shell's own thread is in no process group.
 */
bool sh_job_control(void)
{
	return current->pgrp == 0;
}

struct sh_job *sh_job_find(const char *spec, int *err)
{
	struct sh_job *found = NULL, *cur = current_job();
	unsigned int id;

	*err = -ESRCH;
	if (!sh_job_control())
		return NULL;
	if (spec && *spec == '%')
		spec++;
	if (!spec || !*spec || !strcmp(spec, "%") || !strcmp(spec, "+")) {
		found = cur;
	} else if (!strcmp(spec, "-")) { /* the previous: the newest after the current one */
		for (int slot = 0; slot < SH_JOBS_MAX; slot++)
			if (jobs[slot] && jobs[slot] != cur &&
			    (!found || jobs[slot]->id > found->id))
				found = jobs[slot];
	} else if (!kstrtouint(spec, 10, &id)) {
		for (int slot = 0; slot < SH_JOBS_MAX; slot++)
			if (jobs[slot] && jobs[slot]->id == (int)id)
				found = jobs[slot];
	} else {
		bool anywhere = *spec == '?';
		const char *word = spec + anywhere;

		for (int slot = 0; slot < SH_JOBS_MAX; slot++) {
			struct sh_job *j = jobs[slot];

			if (!j || !(anywhere ? strstr(j->text, word) != NULL
					     : !strncmp(j->text, word, strlen(word))))
				continue;
			if (found) {
				*err = -EINVAL; /* bash: "ambiguous job spec" */
				return NULL;
			}
			found = j;
		}
	}
	if (found)
		*err = 0;
	return found;
}

struct sh_job *sh_job_find_pid(int pid)
{
	if (!sh_job_control())
		return NULL;
	for (int slot = 0; slot < SH_JOBS_MAX; slot++)
		for (int i = 0; jobs[slot] && i < jobs[slot]->ntasks; i++)
			if (jobs[slot]->tasks[i]->pid == pid)
				return jobs[slot];
	return NULL;
}

static const char *job_state(const struct sh_job *job)
{
	int sig;

	if (sh_job_done(job))
		return "Done";
	sig = sh_job_stopped(job);
	return sig ? stop_state(sig) : "Running";
}

static int cmd_jobs(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (int id = 1; id <= last_id; id++)
		for (int slot = 0; slot < SH_JOBS_MAX; slot++)
			if (jobs[slot] && jobs[slot]->id == id)
				report(jobs[slot], job_state(jobs[slot]));
	return 0;
}
SHELL_BUILTIN("jobs", "jobs: list the background jobs", cmd_jobs);

/* Sleeps until task t has exited; -EINTR if Ctrl-C came first. */
static int wait_task(struct task *t)
{
	return wait_event_interruptible(&t->exit_wait, READ_ONCE(t->state) == TASK_DEAD);
}

/* `wait %N` or `wait PID`: that job's status, or that task's; bash's messages otherwise. */
static int wait_one(const char *arg)
{
	struct sh_job *job;
	struct task *t = NULL;
	int err, status;

	if (*arg == '%') {
		job = sh_job_find(arg, &err);
		if (!job) {
			dprintf(STDERR_FILENO, "sh: wait: %s: %s\n", arg + (err == -EINVAL),
				err == -EINVAL ? "ambiguous job spec" : "no such job");
			return STATUS_NOT_CHILD;
		}
	} else {
		int pid;

		if (kstrtoint(arg, 10, &pid) || pid < 0) {
			dprintf(STDERR_FILENO, "sh: wait: `%s': not a pid or valid job spec\n",
				arg);
			return 1;
		}
		job = sh_job_find_pid(pid);
		if (!job) {
			dprintf(STDERR_FILENO, "sh: wait: pid %d is not a child of this shell\n",
				pid);
			return STATUS_NOT_CHILD;
		}
		for (int i = 0; i < job->ntasks; i++)
			if (job->tasks[i]->pid == pid)
				t = job->tasks[i];
	}
	for (int i = 0; i < job->ntasks; i++)
		if ((!t || job->tasks[i] == t) && wait_task(job->tasks[i]))
			return STATUS_SIGINT;
	if (!t)
		return sh_job_finish(job, true); /* bash reports a job it waited for at once */
	status = t->exit_code;
	if (sh_job_done(job))
		sh_job_finish(job, true);
	return status;
}

/*
 * wait [%N|PID]...: sleeps until every job (or each one named) has ended. With names, the
 * status is the last one's (128 + a signal that killed it), as in bash; without, 0. Ctrl-C
 * gives up (130, as bash), and the jobs run on.
 */
static int cmd_wait(int argc, char **argv)
{
	int status = 0;

	if (!sh_job_control() && argc == 1)
		return 0; /* in a pipeline: no jobs of its own (and wait_one() finds none) */
	/* A Ctrl-C is for the shell while it waits (kernel/shell/sh_exec.c): it ends the waiting. */
	for (int i = 1; i < argc && status != STATUS_SIGINT; i++)
		status = wait_one(argv[i]);
	for (int slot = 0; argc == 1 && slot < SH_JOBS_MAX && !status; slot++) {
		struct sh_job *job = jobs[slot];

		for (int i = 0; job && i < job->ntasks && !status; i++)
			if (wait_task(job->tasks[i]))
				status = STATUS_SIGINT;
	}
	return status;
}
SHELL_BUILTIN("wait", "wait [%N|PID]...: wait until the background jobs have ended", cmd_wait);
