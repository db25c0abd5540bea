/*
 * Job control: kill, fg and bg, with bash's meanings, messages and statuses.
 *
 * `kill %N` sends a signal to the job's process group, `kill PID` to one command and the
 * threads it started, `kill -- -PGID` to a group (kernel/sched/signal.c). A program acts on it
 * as on Linux: its handler, or the default action (docs/design/signals.md), a stop included.
 * The shell's own commands are kernel threads, which cannot be stopped: a stop signal, and what
 * a process ignores by default, do nothing to them, and any other ends a command as Ctrl-C
 * does: the command is marked, gives up at its next check (a blocking read, an interruptible
 * sleep, its next write, its loop's test) and reports 128 + the signal; SIGKILL is no more
 * forceful than SIGTERM. On Linux a killed process is gone before the shell reads its next
 * line, and scripts count on it (`kill %1; echo function > current_tracer` once `cat
 * trace_pipe &` let go of the tracer): so kill waits, a moment at most, for the jobs it
 * signalled to end (or, for a stop signal, to stop).
 *
 * fg waits for a background job as for a pipeline typed in the foreground: Ctrl-C now goes to
 * its process group, and a stopped one is continued (SIGCONT) first. bg continues a stopped job
 * and prints it as bash does ("[1]+ cmd &"), or says a running one already runs. A job keeps
 * the stdin it started with (/dev/null): fg does not give it the console.
 */
#include "kernel/shell/sh_jobs.h"
#include "kernel/sched/sched.h"
#include "kernel/shell/shell.h"
#include "kernel/sched/signal.h"
#include "kernel/shell/stdio.h"
#include "kernel/sched/time.h"
#include "kernel/sched/timer.h"
#include "lib/compiler.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/kstrtox.h"
#include "lib/string.h"
#include "lib/printf.h"

#define KILL_SETTLE_MS 500 /* how long kill waits for the jobs it signalled to end */
#define KILL_SETTLE_MAX 32 /* tasks it waits for: beyond, the next prompt reports them */
#define STATUS_USAGE 2 /* bash's status for a builtin used wrongly */
#define NO_SIGNAL (-1)
/* Signals after which kill does not wait for the jobs to end: they continue, or do nothing. */
#define NOT_FATAL_MASK (sigmask(SIGCONT) | sigmask(SIGCHLD) | sigmask(SIGURG) | sigmask(SIGWINCH))

/* The standard signals by number, without "SIG", as `kill -l 15` prints them. */
static const char *const signal_names[SIGRTMIN] = {
	[SIGHUP] = "HUP",   [SIGINT] = "INT",	    [SIGQUIT] = "QUIT", [SIGILL] = "ILL",
	[SIGTRAP] = "TRAP", [SIGABRT] = "ABRT",	    [SIGBUS] = "BUS",	[SIGFPE] = "FPE",
	[SIGKILL] = "KILL", [SIGUSR1] = "USR1",	    [SIGSEGV] = "SEGV", [SIGUSR2] = "USR2",
	[SIGPIPE] = "PIPE", [SIGALRM] = "ALRM",	    [SIGTERM] = "TERM", [SIGSTKFLT] = "STKFLT",
	[SIGCHLD] = "CHLD", [SIGCONT] = "CONT",	    [SIGSTOP] = "STOP", [SIGTSTP] = "TSTP",
	[SIGTTIN] = "TTIN", [SIGTTOU] = "TTOU",	    [SIGURG] = "URG",	[SIGXCPU] = "XCPU",
	[SIGXFSZ] = "XFSZ", [SIGVTALRM] = "VTALRM", [SIGPROF] = "PROF", [SIGWINCH] = "WINCH",
	[SIGIO] = "IO",	    [SIGPWR] = "PWR",	    [SIGSYS] = "SYS",
};

/*
 * The real-time signals as bash names them: glibc keeps 32 and 33 for itself, so they have no
 * name; 34 is RTMIN, up to RTMIN+15, then RTMAX-14 down to RTMAX (64).
 */
#define BASH_SIGRTMIN 34
#define RT_HALF 15 /* RTMIN+1..RTMIN+15, then RTMAX-14..RTMAX-1 */

/* The name of a signal kill can send ("TERM", "RTMIN+2"), in buf; NULL if it has none. */
static const char *signal_name(int sig, char *buf, size_t size)
{
	if (sig > 0 && sig < SIGRTMIN)
		return signal_names[sig];
	if (sig < BASH_SIGRTMIN || sig > _NSIG)
		return NULL;
	if (sig == BASH_SIGRTMIN)
		return "RTMIN";
	if (sig == _NSIG)
		return "RTMAX";
	if (sig - BASH_SIGRTMIN <= RT_HALF)
		snprintf(buf, size, "RTMIN+%d", sig - BASH_SIGRTMIN);
	else
		snprintf(buf, size, "RTMAX-%d", _NSIG - sig);
	return buf;
}

#define SIGNAME_LEN 16

/* "TERM", "SIGTERM", "term", "RTMIN+2" or "15" to 15; 0 is the null signal (`kill -0`). */
static int decode_signal(const char *spec)
{
	char buf[SIGNAME_LEN];
	unsigned int n;

	if (isdigit((unsigned char)*spec)) {
		if (kstrtouint(spec, 10, &n) || (n && !signal_name((int)n, buf, sizeof(buf))))
			return NO_SIGNAL;
		return (int)n;
	}
	if (!strncasecmp(spec, "SIG", 3))
		spec += 3;
	for (int sig = 1; sig <= _NSIG; sig++) {
		const char *name = signal_name(sig, buf, sizeof(buf));

		if (name && !strcasecmp(spec, name))
			return sig;
	}
	return NO_SIGNAL;
}

static int invalid_signal(const char *spec)
{
	dprintf(STDERR_FILENO, "sh: kill: %s: invalid signal specification\n", spec);
	return 1;
}

static int kill_usage(void)
{
	dprintf(STDERR_FILENO,
		"kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec "
		"... or kill -l [sigspec]\n");
	return STATUS_USAGE;
}

#define KILL_LIST_COLUMNS 5 /* bash's `kill -l`: five signals a line, tab-separated */

/* kill -l [SIG...]: the names for numbers (an exit status 128 + N too), numbers for names. */
static int kill_list(int argc, char **argv)
{
	char buf[SIGNAME_LEN];
	int status = 0;

	if (argc == 0) {
		int column = 0;

		for (int sig = 1; sig <= _NSIG; sig++) {
			const char *name = signal_name(sig, buf, sizeof(buf));

			if (!name)
				continue;
			printf("%2d) SIG%s", sig, name);
			if (++column < KILL_LIST_COLUMNS) {
				printf("\t");
			} else {
				printf("\n");
				column = 0;
			}
		}
		if (column)
			printf("\n");
		return 0;
	}
	for (int i = 0; i < argc; i++) {
		unsigned int n;
		int sig;

		if (!kstrtouint(argv[i], 10, &n)) {
			if (n > STATUS_SIGNALED(0)) /* bash: `kill -l $?` names what ended a job */
				n -= STATUS_SIGNALED(0);
			if (signal_name((int)n, buf, sizeof(buf))) {
				printf("%s\n", signal_name((int)n, buf, sizeof(buf)));
				continue;
			}
		} else if ((sig = decode_signal(argv[i])) > 0) {
			printf("%d\n", sig);
			continue;
		}
		status = invalid_signal(argv[i]);
	}
	return status;
}

/* "123" or, after --, "-123" (a process group); anything else is not an id. */
static bool parse_pid(const char *s, int *pid)
{
	const char *digits = *s == '-' ? s + 1 : s;

	return isdigit((unsigned char)*digits) && !kstrtoint(s, 10, pid);
}

static int no_such_job(const char *builtin, const char *spec, int err)
{
	if (err == -EINVAL) /* bash names an ambiguous spec without its '%' */
		dprintf(STDERR_FILENO, "sh: %s: %s: ambiguous job spec\n", builtin,
			spec[0] == '%' ? spec + 1 : spec);
	else
		dprintf(STDERR_FILENO, "sh: %s: %s: no such job\n", builtin,
			spec ? spec : "current");
	return 1;
}

/* The tasks kill waits a moment for: those of the shell's jobs it signalled. */
struct kill_targets {
	int n;
	struct task *tasks[KILL_SETTLE_MAX];
};

static void add_target(struct kill_targets *kt, struct task *t)
{
	if (kt->n < KILL_SETTLE_MAX)
		kt->tasks[kt->n++] = t;
}

/* Whether t has done what sig asks of it: ended, or, for a stop signal, stopped. */
static bool settled(struct task *t, int sig)
{
	if (READ_ONCE(t->state) == TASK_DEAD)
		return true;
	return (sigmask(sig) & SIG_KERNEL_STOP_MASK) && READ_ONCE(t->stopped);
}

/*
 * Gives the tasks just signalled a moment to end (or stop), so the next line finds them gone
 * (or `jobs` says Stopped).
 */
static void kill_settle(const struct kill_targets *kt, int sig)
{
	uint64_t deadline = ktime_get_ns() + KILL_SETTLE_MS * NSEC_PER_MSEC;

	for (int i = 0; i < kt->n; i++)
		while (!settled(kt->tasks[i], sig) && ktime_get_ns() < deadline)
			msleep(1);
}

/* One operand of kill: a jobspec or a pid. 0, or 1 after bash's message. */
static int kill_one(const char *arg, int sig, struct kill_targets *kt)
{
	struct sh_job *job;
	int pid, err;

	if (*arg == '%') {
		job = sh_job_find(arg, &err);
		if (!job)
			return no_such_job("kill", arg, err);
		/* Its tasks are joined only once it is reaped: the group still has them. */
		kill_pgrp(job->pgrp, sig);
		/* As bash: a stopped job would only hold these pending, so it is woken to die. */
		if ((sig == SIGTERM || sig == SIGHUP) && sh_job_stopped(job))
			kill_pgrp(job->pgrp, SIGCONT);
		for (int i = 0; sig && i < job->ntasks; i++)
			add_target(kt, job->tasks[i]);
	} else if (parse_pid(arg, &pid)) {
		err = pid < 0 ? kill_pgrp(-pid, sig) : kill_pid(pid, sig);
		if (err < 0) {
			dprintf(STDERR_FILENO, "sh: kill: (%d) - %s\n", pid, errno_text(-err));
			return 1;
		}
		job = pid > 0 ? sh_job_find_pid(pid) : NULL;
		for (int i = 0; sig && job && i < job->ntasks; i++)
			if (job->tasks[i]->pid == pid)
				add_target(kt, job->tasks[i]);
	} else {
		dprintf(STDERR_FILENO, "sh: kill: %s: arguments must be process or job IDs\n", arg);
		return 1;
	}
	return 0;
}

/*
 * kill [-s SIG | -n NUM | -SIG] pid|%job... or kill -l [SIG]. As bash's, the status is 0 if
 * any operand was signalled, and each one that could not be gets its message.
 */
static int cmd_kill(int argc, char **argv)
{
	struct kill_targets kt = {0};
	int sig = SIGTERM, i = 1, ok = 0;
	bool saw_signal = false;

	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *opt = argv[i];

		if (!strcmp(opt, "-l") || !strcmp(opt, "-L"))
			return kill_list(argc - i - 1, argv + i + 1);
		if (!strcmp(opt, "-s") || !strcmp(opt, "-n")) {
			if (++i == argc) {
				dprintf(STDERR_FILENO,
					"sh: kill: %s: option requires an argument\n", opt);
				return 1;
			}
			opt = argv[i];
		} else if (!strcmp(opt, "--")) {
			i++;
			break;
		} else if (saw_signal || !opt[1]) {
			break; /* a second "-x" is an operand, as in bash */
		} else {
			opt++;
		}
		sig = decode_signal(opt);
		if (sig == NO_SIGNAL)
			return invalid_signal(opt);
		saw_signal = true;
	}
	if (i == argc)
		return kill_usage();
	for (; i < argc; i++)
		ok += !kill_one(argv[i], sig, &kt);
	if (sig && !(sigmask(sig) & NOT_FATAL_MASK))
		kill_settle(&kt, sig);
	return ok ? 0 : 1;
}
SHELL_BUILTIN("kill", "kill [-s SIG | -SIG] PID|%N...: end a job or command (INT, TERM, KILL)",
	      cmd_kill);

/* fg [%N]: waits for the job in the foreground, where Ctrl-C reaches it. Its status. */
static int cmd_fg(int argc, char **argv)
{
	const char *spec = argc > 1 ? argv[1] : NULL;
	struct sh_job *job;
	int err, status;
	bool stopped;

	if (!sh_job_control()) {
		dprintf(STDERR_FILENO, "sh: fg: no job control\n");
		return 1;
	}
	job = sh_job_find(spec, &err);
	if (!job)
		return no_such_job("fg", spec, err);
	if (sh_job_done(job)) {
		dprintf(STDERR_FILENO, "sh: fg: job has terminated\n");
		return 1;
	}
	printf("%s\n", job->text); /* bash shows what it brings back */
	sh_foreground_begin(job->pgrp);
	if (sh_job_stopped(job))
		kill_pgrp(job->pgrp, SIGCONT);
	status = sh_foreground_wait(job->tasks, job->ntasks, &stopped);
	if (stopped) {
		sh_job_stop(job); /* stopped again: it stays in the table */
		return status;
	}
	sh_job_forget(job);
	return status;
}
SHELL_BUILTIN("fg", "fg [%N]: wait for a background job as if typed without &", cmd_fg);

/* bg [%N]...: every job already runs in the background, as bash says of a running job. */
static int cmd_bg(int argc, char **argv)
{
	int status = 0;

	if (!sh_job_control()) {
		dprintf(STDERR_FILENO, "sh: bg: no job control\n");
		return 1;
	}
	for (int i = 0; i < (argc > 1 ? argc - 1 : 1); i++) {
		const char *spec = argc > 1 ? argv[i + 1] : NULL; /* none: the current job */
		int err;
		struct sh_job *job = sh_job_find(spec, &err);

		if (!job) {
			status = no_such_job("bg", spec, err);
		} else if (sh_job_done(job)) {
			dprintf(STDERR_FILENO, "sh: bg: job has terminated\n");
			status = 1;
		} else if (sh_job_stopped(job)) { /* it goes on where it stopped */
			kill_pgrp(job->pgrp, SIGCONT);
			printf("[%d]%c %s &\n", job->id, sh_job_is_current(job) ? '+' : ' ',
			       job->text);
		} else {
			dprintf(STDERR_FILENO, "sh: bg: job %d already in background\n", job->id);
		}
	}
	return status;
}
SHELL_BUILTIN("bg", "bg [%N]: go on with a job in the background (all already are)", cmd_bg);
