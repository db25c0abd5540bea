/*
 * Running a parsed line (kernel/shell/sh_parse.h): pipelines, redirections, $?, and Ctrl-C.
 *
 * Each command of a pipeline runs in a kernel thread of its own, named after it (so `ps` and
 * the tracer show "cat", "grep"), as a program runs in a process forked by the shell. The
 * thread starts with a copy of the shell's fd table (kernel/fs/fs_struct.c), so the shell only
 * has to make the pipes before it creates the threads; each thread then, like a forked child:
 *	1. puts its pipe ends on fds 0 and 1 (dup2) and closes every other pipe end,
 *	2. performs its redirections, left to right, with bash's meanings,
 *	3. runs the command, whose return value is its exit status.
 * Only those threads are subject to fault injection (kernel/debug/fault_inject.c), never the shell.
 * The shell closes its own copies of the pipe ends, so that a reader sees end of file once the
 * writer exits, and waits for every thread; the status is the last command's, as in bash.
 *
 * A builtin alone on its pipeline (cd) runs in the shell itself: its redirections are applied
 * to the shell's fds and undone afterwards, as bash does for its builtins.
 *
 * Ctrl-C: the commands of a pipeline form a job, a process group whose id is the first one's
 * pid, and every thread a command starts joins it (kernel/sched/signal.c). While the job runs it
 * is the terminal's foreground group (tty_set_fg_pgrp, bash's tcsetpgrp), and the tty's line
 * discipline reports Ctrl-C to sh_interrupt(); that sends SIGINT to the foreground group
 * (kill_pgrp): the job, or a group a program of it gave the terminal to. It ends a blocking
 * read, an interruptible sleep and any further output of every command and of the threads they
 * started (-EINTR), and a program's process. Ctrl-\ goes to the job's programs only (SIGQUIT):
 * the shell's own commands have nothing to do with it, and so does Ctrl-Z (SIGTSTP): the job's
 * programs stop, and the shell, seeing them all stopped, reports the job Stopped and keeps it
 * for fg and bg (sh_jobctl.c). The rest of the line does not run (`sleep 60; echo hi`): bash,
 * seeing its child die of SIGINT, stops too. A
 * Ctrl-C between two jobs of a line, or while the shell starts one, is for the shell itself:
 * it stops the line, and a job being started hears it (sh_foreground_begin).
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/sh_parse.h"
#include "kernel/shell/sh_jobs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/shell/stdio.h"
#include "kernel/drivers/console.h"
#include "kernel/debug/fault_inject.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/signal.h"
#include "kernel/sched/session.h"
#include "kernel/sched/spinlock.h"
#include "kernel/drivers/tty.h"
#include "kernel/fs/vfs.h"
#include "kernel/syscalls.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/printf.h"

#define STATUS_NOT_FOUND 127

/* The shell holds every pipe of the longest pipeline at once, besides fds 0, 1 and 2. */
_Static_assert(STDERR_FILENO + 1 + 2 * (SH_MAX_CMDS - 1) <= NR_OPEN_DEFAULT,
	       "a pipeline of SH_MAX_CMDS commands needs more fds than a task has");

struct stage {
	const struct sh_command *cmd;
	int in, out; /* the pipe ends that become fds 0 and 1, or -1 */
	const int *pipe_fds; /* every pipe end the shell made: the stage closes them all */
	int npipe_fds;
	bool cancelled; /* the pipeline could not be started: return at once */
	bool background; /* no terminal input: stdin is /dev/null unless redirected */
};

/*
 * Ctrl-C while a line runs, for sh_interrupt(): the job in the foreground (its process group),
 * or, between jobs and in a builtin (`wait`), the shell itself, as a tty sends SIGINT to bash
 * when no job has the terminal. Either way the rest of the line does not run.
 */
static DEFINE_SPINLOCK(fg_lock);
static struct task *fg_shell;
static int fg_pgrp; /* 0: no job in the foreground */
static bool fg_interrupted; /* Ctrl-C since the line began */
static bool fg_caught; /* and a program caught it: its status stands (shell's thread only) */

/* Called by the tty, from the console's interrupt, for a signal key while the shell runs a line. */
static void sh_interrupt(int sig)
{
	unsigned long flags = spin_lock_irqsave(&fg_lock);

	if (sig != SIGINT) {
		int pgrp = tty_get_fg_pgrp();

		/* ^\ or ^Z: for the programs in the foreground (the shell's own commands, kernel
		 * threads, neither dump nor stop). */
		if (fg_pgrp)
			kill_pgrp_procs(pgrp, sig);
	} else if (fg_pgrp) {
		int pgrp = tty_get_fg_pgrp();

		/* A group the job gave the terminal to (a shell's child) ends alone, as under bash. */
		if (pgrp == fg_pgrp)
			fg_interrupted = true;
		/* every task of the job, the threads it started too */
		kill_pgrp(pgrp, SIGINT);
	} else {
		fg_interrupted = true;
		send_sig(SIGINT, fg_shell); /* ends a builtin's wait; children inherit it */
	}
	spin_unlock_irqrestore(&fg_lock, flags);
}

static bool line_interrupted(void)
{
	return __atomic_load_n(&fg_interrupted, __ATOMIC_SEQ_CST);
}

/*
 * From now on until line_end(), the tty hands Ctrl-C to sh_interrupt(); the terminal gets back
 * the settings the prompt found (cooked, with ISIG), as the line's commands expect them.
 */
static void line_begin(void)
{
	unsigned long flags = spin_lock_irqsave(&fg_lock);

	fg_shell = current;
	fg_pgrp = 0;
	fg_interrupted = false;
	fg_caught = false;
	spin_unlock_irqrestore(&fg_lock, flags);
	tty_set_intr_hook(sh_interrupt);
	sh_tty_restore();
}

/*
 * Ctrl-C is input again; after one, the typed-ahead input goes and the line ends with a newline
 * after the tty's "^C", as bash ends a line that a job's SIGINT cut short. Returns whether there
 * was one.
 */
static bool line_end(void)
{
	unsigned long flags;

	tty_set_intr_hook(NULL);
	flags = spin_lock_irqsave(&fg_lock); /* a sh_interrupt() under way finishes first */
	spin_unlock_irqrestore(&fg_lock, flags);
	flush_signals(); /* a Ctrl-C sent to the shell was for this line only */
	if (!line_interrupted())
		return false;
	tty_flush_input(); /* the half-typed line the command was reading */
	printf("\n");
	return true;
}

void sh_foreground_begin(int pgrp)
{
	unsigned long flags = spin_lock_irqsave(&fg_lock);

	fg_pgrp = pgrp;
	tty_set_fg_pgrp(pgrp); /* the job has the terminal: it may read, ^C is for it */
	spin_unlock_irqrestore(&fg_lock, flags);
	/*
	 * A Ctrl-C that came before fg_pgrp was set marked the shell; threads created since
	 * inherited it, but those created before must hear it now. One that comes later finds
	 * fg_pgrp set, under the lock.
	 */
	if (signal_pending_current())
		kill_pgrp(pgrp, SIGINT);
}

/* Exited, or stopped by a signal (a program: kernel/sched/signal.c wakes exit_wait then too). */
static bool task_settled(struct task *t)
{
	return READ_ONCE(t->state) == TASK_DEAD || READ_ONCE(t->stopped);
}

int sh_foreground_wait(struct task **tasks, int n, bool *stopped)
{
	unsigned long flags;
	int status = 1, stop_sig = 0;
	bool settled;

	/*
	 * Every one exits (or stops) before Ctrl-C stops going to the group: a later one must
	 * hear it too. A task continued meanwhile from elsewhere is waited for again.
	 */
	do {
		for (int i = 0; i < n; i++)
			wait_event(&tasks[i]->exit_wait, task_settled(tasks[i]));
		settled = true;
		for (int i = 0; i < n; i++)
			settled &= task_settled(tasks[i]);
	} while (!settled);
	flags = spin_lock_irqsave(&fg_lock);
	fg_pgrp = 0;
	tty_take_back(current->sid); /* the shell takes the terminal back, as bash's tcsetpgrp */
	spin_unlock_irqrestore(&fg_lock, flags);
	for (int i = 0; i < n; i++)
		if (READ_ONCE(tasks[i]->state) != TASK_DEAD)
			stop_sig = READ_ONCE(tasks[i]->stop_sig);
	*stopped = stop_sig != 0;
	if (stop_sig) /* bash: a job stopped in the foreground goes to the table, $? 128 + sig */
		return STATUS_SIGNALED(stop_sig);
	/* A program that caught the Ctrl-C and exited says its own status (its handler ran). */
	bool own_status = tasks[n - 1]->execed && !tasks[n - 1]->exit_signal;
	for (int i = 0; i < n; i++)
		status = kthread_join(tasks[i]);
	/* Even if the last one saw end of file first, as bash reports a job Ctrl-C ended. */
	fg_caught = own_status;
	return line_interrupted() && !own_status ? STATUS_SIGINT : status;
}

/* Opens r's file (or copies r's fd) onto fd r->fd. Prints bash's message on failure. */
static int redirect(const struct sh_redir *r)
{
	static const int open_flags[] = {
		[SH_REDIR_IN] = O_RDONLY,
		[SH_REDIR_OUT] = O_WRONLY | O_CREAT | O_TRUNC,
		[SH_REDIR_APPEND] = O_WRONLY | O_CREAT | O_APPEND,
	};
	int fd, err;

	if (r->kind == SH_REDIR_DUP) {
		err = vfs_dup2(r->target_fd, r->fd);
		/* bash names the target as typed; one past INT_MAX, for fds over 1, the fd */
		if (err < 0 && r->target_fd < 0 && r->fd > STDOUT_FILENO)
			dprintf(STDERR_FILENO, "sh: %d: %s\n", r->fd, errno_text(-err));
		else if (err < 0)
			dprintf(STDERR_FILENO, "sh: %s: %s\n", r->word, errno_text(-err));
		return err < 0 ? err : 0;
	}
	fd = vfs_open(r->path, open_flags[r->kind], 0644);
	if (fd < 0) {
		dprintf(STDERR_FILENO, "sh: %s: %s\n", r->path, errno_text(-fd));
		return fd;
	}
	if (fd == r->fd)
		return 0;
	err = vfs_dup2(fd, r->fd);
	vfs_close(fd);
	if (err < 0)
		dprintf(STDERR_FILENO, "sh: %d: %s\n", r->fd, errno_text(-err));
	return err < 0 ? err : 0;
}

static int redirect_all(const struct sh_command *c)
{
	for (int i = 0; i < c->nredirs; i++) {
		if (redirect(&c->redirs[i]))
			return -1;
	}
	return 0;
}

static int run_command(const struct sh_command *c)
{
	const struct shell_cmd *sc;

	if (c->argc == 0)
		return 0; /* "> f" alone: only the redirections */
	sc = shell_find_cmd(c->argv[0]);
	if (!sc) {
		char path[PROGRAM_PATH_MAX];

		if (find_program(c->argv[0], path, sizeof(path))) /* a user program (kernel/fs/exec.c) */
			return run_program(path, c->argv);
		dprintf(STDERR_FILENO, "sh: %s: command not found\n", c->argv[0]);
		return STATUS_NOT_FOUND;
	}
	return sc->fn(c->argc, c->argv);
}

/* Whether c writes to a fault-injection knob: that command must get through (fault_inject.c). */
static bool writes_fault_knob(const struct sh_command *c)
{
	for (int i = 0; i < c->nredirs; i++) {
		const struct sh_redir *r = &c->redirs[i];

		if ((r->kind == SH_REDIR_OUT || r->kind == SH_REDIR_APPEND) &&
		    fault_inject_is_knob(r->path))
			return true;
	}
	return false;
}

static int stage_main(void *arg)
{
	struct stage *s = arg;

	if (s->cancelled)
		return 1;
	/* From here on this thread is the command: fault injection is for it, not for the shell. */
	current->make_it_fail = !writes_fault_knob(s->cmd);
	if (s->in >= 0) {
		vfs_dup2(s->in, STDIN_FILENO);
	} else if (s->background) {
		int fd = vfs_open("/dev/null", O_RDONLY, 0);

		if (fd < 0) { /* not the console: a job must not read what is typed */
			dprintf(STDERR_FILENO, "sh: /dev/null: %s\n", errno_text(-fd));
			return 1;
		}
		if (fd != STDIN_FILENO) {
			vfs_dup2(fd, STDIN_FILENO);
			vfs_close(fd);
		}
	}
	if (s->out >= 0)
		vfs_dup2(s->out, STDOUT_FILENO);
	for (int i = 0; i < s->npipe_fds; i++)
		vfs_close(s->pipe_fds[i]);
	if (redirect_all(s->cmd))
		return 1;
	return run_command(s->cmd);
}

/* A free fd near the top of the table, where a saved fd is out of the redirections' way. */
static int save_fd(int fd)
{
	struct kstat st;

	if (vfs_fstat(fd, &st) < 0)
		return -1; /* not open: closing it restores it */
	for (int hi = NR_OPEN_DEFAULT - 1; hi > STDERR_FILENO; hi--) {
		if (vfs_fstat(hi, &st) == -EBADF)
			return vfs_dup2(fd, hi);
	}
	return -EMFILE;
}

static int run_builtin(const struct sh_command *c)
{
	int fds[SH_MAX_REDIRS], saved[SH_MAX_REDIRS], n = 0, status = 1;

	for (int i = 0; i < c->nredirs; i++) {
		int fd = c->redirs[i].fd, j;

		for (j = 0; j < n && fds[j] != fd; j++)
			;
		if (j < n)
			continue; /* already saved */
		saved[n] = save_fd(fd);
		if (saved[n] == -EMFILE) { /* bash's words when it cannot save an fd */
			dprintf(STDERR_FILENO, "sh: redirection error: cannot duplicate fd: %s\n",
				errno_text(EMFILE));
			goto restore;
		}
		fds[n++] = fd;
	}
	if (!redirect_all(c))
		status = run_command(c);
restore:
	while (n--) {
		if (saved[n] >= 0) {
			vfs_dup2(saved[n], fds[n]);
			vfs_close(saved[n]);
		} else {
			vfs_close(fds[n]);
		}
	}
	return status;
}

static bool is_builtin(const struct sh_command *c)
{
	const struct shell_cmd *sc = c->argc ? shell_find_cmd(c->argv[0]) : NULL;

	return sc && sc->builtin;
}

/*
 * Makes the pipes and one thread per command (not yet started). Returns how many threads were
 * made; fewer than p->ncmds means a failure, already reported, and those made will return at
 * once. pipe_fds has room for 2 * (SH_MAX_CMDS - 1) ends.
 */
static int create_pipeline(const struct sh_pipeline *p, struct stage *stages, struct task **tasks,
			   int *pipe_fds)
{
	int npipe_fds = 0, n = p->ncmds, created;

	for (int i = 0; i < n - 1; i++) {
		int err = vfs_pipe(&pipe_fds[2 * i]);

		if (err) {
			dprintf(STDERR_FILENO, "sh: pipe: %s\n", errno_text(-err));
			n = 0; /* start nothing */
			break;
		}
		npipe_fds += 2;
	}
	for (created = 0; created < n; created++) {
		const struct sh_command *c = &p->cmds[created];
		struct stage *s = &stages[created];

		*s = (struct stage){
			.cmd = c,
			.in = created ? pipe_fds[2 * (created - 1)] : -1, /* the previous pipe */
			.out = created < n - 1 ? pipe_fds[2 * created + 1] : -1, /* the next */
			.pipe_fds = pipe_fds,
			.npipe_fds = npipe_fds,
			.background = p->background,
		};
		tasks[created] = kthread_create(stage_main, s, c->argc ? c->argv[0] : "sh");
		if (!tasks[created]) { /* what bash says when fork() fails */
			dprintf(STDERR_FILENO, "sh: fork: %s\n", errno_text(ENOMEM));
			for (int i = 0; i < created; i++)
				stages[i].cancelled = true;
			break;
		}
		/* Its own command, in the job of the first, as bash's setpgid() for a pipeline. */
		setpgid_task(tasks[created], tasks[0]->pid);
	}
	/* Our copies of the pipe ends: a reader sees end of file only when every writer closed. */
	for (int i = 0; i < npipe_fds; i++)
		vfs_close(pipe_fds[i]);
	return created;
}

/*
 * A background pipeline outlives the line it was typed on: its threads read their argv and
 * redirections from the parsed line, so the job holds a reference to it.
 */
struct line_ref {
	int refs; /* the shell's thread only */
	struct sh_line line;
};

static void line_put(struct line_ref *lr)
{
	if (--lr->refs == 0) {
		sh_line_free(&lr->line);
		kfree(lr);
	}
}

struct bg_pipeline {
	struct sh_job job;
	struct stage stages[SH_MAX_CMDS];
	struct task *tasks[SH_MAX_CMDS];
	int pipe_fds[2 * (SH_MAX_CMDS - 1)];
	struct line_ref *lr;
};

static void bg_release(struct sh_job *job)
{
	struct bg_pipeline *bg = container_of(job, struct bg_pipeline, job);

	line_put(bg->lr);
	kfree(bg);
}

/* One redirection as bash's `jobs` shows it: "> f", "2>> f", "< f", "2>&1". */
static size_t redir_text(const struct sh_redir *r, char *buf, size_t size)
{
	static const char *const ops[] = {[SH_REDIR_IN] = "<",
					  [SH_REDIR_OUT] = ">",
					  [SH_REDIR_APPEND] = ">>",
					  [SH_REDIR_DUP] = ">&"};
	int usual_fd = r->kind == SH_REDIR_IN ? 0 : 1;
	const char *op = r->kind == SH_REDIR_DUP && r->fd == 0 ? "<&" : ops[r->kind];
	char fd[12] = ""; /* up to INT_MAX */

	if (r->fd != usual_fd && !(r->kind == SH_REDIR_DUP && r->fd == 0))
		snprintf(fd, sizeof(fd), "%d", r->fd);
	if (r->kind == SH_REDIR_DUP)
		return (size_t)snprintf(buf, size, " %s%s%s", fd, op, r->word);
	return (size_t)snprintf(buf, size, " %s%s %s", fd, op, r->word);
}

/* "a | b > f" as typed, for `jobs` and "Done" (cut to fit). */
static void job_text(const struct sh_pipeline *p, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < p->ncmds; i++) {
		const struct sh_command *c = &p->cmds[i];

		for (int j = 0; j < c->argc; j++)
			n += snprintf(buf + MIN(n, size - 1), size - MIN(n, size - 1), "%s%s",
				      i && !j ? " | "
				      : j     ? " "
					      : "",
				      c->words[j]);
		for (int j = 0; j < c->nredirs; j++)
			n += redir_text(&c->redirs[j], buf + MIN(n, size - 1),
					size - MIN(n, size - 1));
	}
}

static int run_background(const struct sh_pipeline *p, struct line_ref *lr)
{
	struct bg_pipeline *bg = kzalloc(sizeof(*bg));
	int created;

	if (!bg) {
		dprintf(STDERR_FILENO, "sh: %s\n", errno_text(ENOMEM));
		return 1;
	}
	created = create_pipeline(p, bg->stages, bg->tasks, bg->pipe_fds);
	bg->job = (struct sh_job){.ntasks = created, .tasks = bg->tasks, .release = bg_release};
	if (created)
		bg->job.pgrp = bg->tasks[0]->pgrp;
	bg->lr = lr;
	lr->refs++;
	job_text(p, bg->job.text, sizeof(bg->job.text));
	if (created < p->ncmds || sh_job_add(&bg->job)) {
		if (created == p->ncmds)
			dprintf(STDERR_FILENO, "sh: too many jobs (max %d)\n", SH_JOBS_MAX);
		for (int i = 0; i < created; i++) {
			bg->stages[i].cancelled = true;
			wake_up_new_task(bg->tasks[i]);
			kthread_join(bg->tasks[i]);
		}
		bg_release(&bg->job);
		return 1;
	}
	for (int i = 0; i < created; i++)
		wake_up_new_task(bg->tasks[i]);
	return 0; /* bash: starting a job succeeds */
}

/*
 * A pipeline in the foreground. Its storage is a job's from the start: if it stops (a program's
 * SIGSTOP or SIGTSTP), it goes to the job table, as bash's does, and outlives the line.
 */
static int run_pipeline(const struct sh_pipeline *p, struct line_ref *lr)
{
	struct bg_pipeline *bg;
	int n = p->ncmds, created, status;
	bool stopped;

	if (n == 1 && is_builtin(&p->cmds[0]))
		return run_builtin(&p->cmds[0]);
	bg = kzalloc(sizeof(*bg));
	if (!bg) {
		dprintf(STDERR_FILENO, "sh: %s\n", errno_text(ENOMEM));
		return 1;
	}
	bg->lr = lr;
	lr->refs++;
	created = create_pipeline(p, bg->stages, bg->tasks, bg->pipe_fds);
	if (!created) {
		bg_release(&bg->job);
		return 1;
	}
	bg->job = (struct sh_job){.ntasks = created,
				  .tasks = bg->tasks,
				  .pgrp = bg->tasks[0]->pgrp,
				  .release = bg_release};
	job_text(p, bg->job.text, sizeof(bg->job.text));
	sh_foreground_begin(bg->job.pgrp);
	for (int i = 0; i < created; i++)
		wake_up_new_task(bg->tasks[i]);
	status = sh_foreground_wait(bg->tasks, created, &stopped);
	while (stopped && sh_job_stop(&bg->job)) { /* no room to keep it: it goes */
		dprintf(STDERR_FILENO, "sh: too many jobs (max %d)\n", SH_JOBS_MAX);
		kill_pgrp(bg->job.pgrp, SIGKILL);
		status = sh_foreground_wait(bg->tasks, created, &stopped);
	}
	if (stopped)
		return status; /* the job table has it now */
	bg_release(&bg->job);
	return created == n || status == STATUS_SIGINT ? status : 1;
}

int sh_run_line(const char *text, int status)
{
	struct line_ref *lr = kzalloc(sizeof(*lr));

	if (!lr) {
		dprintf(STDERR_FILENO, "sh: %s\n", errno_text(ENOMEM));
		return 1;
	}
	lr->refs = 1;
	if (sh_parse(&lr->line, text)) {
		dprintf(STDERR_FILENO, "%s\n", lr->line.err);
		line_put(lr);
		return 2; /* bash's status for a syntax error */
	}
	line_begin();
	for (int i = 0; i < lr->line.npipelines && !line_interrupted(); i++) {
		struct sh_pipeline *p = &lr->line.pipelines[i];

		if (!sh_should_run(p->op, status))
			continue;
		if (sh_expand_pipeline(p, status)) {
			dprintf(STDERR_FILENO, "sh: %s\n", errno_text(ENOMEM));
			status = 1;
			continue;
		}
		status = p->background ? run_background(p, lr) : run_pipeline(p, lr);
	}
	if (line_end() && !fg_caught)
		status = STATUS_SIGINT; /* as bash after a Ctrl-C, whatever ran last */
	line_put(lr);
	return status;
}
