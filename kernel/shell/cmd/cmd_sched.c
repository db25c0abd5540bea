/* Shell commands about tasks and CPUs: ps, sleep, taskset. */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/shell/cmd_io.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/timer.h"
#include "kernel/sched/time.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/kstrtox.h"
#include "lib/ctype.h"

#define PS_MAX 256 /* tasks listed; a snapshot taken under the lock, printed after */

struct ps_row {
	int pid, cpu;
	char state;
	bool user; /* a user process (it has an mm), not a kernel thread */
	char comm[TASK_COMM_LEN];
};

static int cmd_ps(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	/* Its own copy: two ps may run at once (ps & ps, a pipeline in the background). */
	struct ps_row *rows = kmalloc(PS_MAX * sizeof(*rows));
	int n = 0;
	unsigned long flags;
	struct task *t;

	if (!rows)
		return cmd_nomem("ps", 1);
	flags = spin_lock_irqsave(&task_list_lock);
	list_for_each_entry(t, &task_list, tasks) {
		if (n == PS_MAX)
			break;
		rows[n].pid = t->pid;
		rows[n].cpu = t->cpu;
		rows[n].state = task_state_char(t->state);
		rows[n].user = t->mm != NULL;
		memcpy(rows[n].comm, t->comm, TASK_COMM_LEN);
		n++;
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	/* TYPE tells user processes from kernel threads (Linux's ps puts the latter in []). */
	int ret = printf("  PID CPU TYPE   STATE COMM\n");
	for (int i = 0; i < n && ret >= 0; i++)
		ret = printf("%5d %3d %-6s %-5c %s\n", rows[i].pid, rows[i].cpu,
			     rows[i].user ? "user" : "kernel", rows[i].state, rows[i].comm);
	kfree(rows);
	return ret < 0 ? write_error("ps", ret) : 0;
}
SHELL_CMD("ps", "list tasks: PID, CPU, TYPE (user or kernel), STATE, COMM", cmd_ps);

/* Parses "1", "0.25", "2.5" as milliseconds; -1 if malformed. */
static long parse_seconds_ms(const char *s)
{
	long ms = 0, scale = 1000;
	bool digits = false;
	for (; isdigit(*s); s++, digits = true) {
		ms = ms * 10 + (*s - '0') * 1000;
		if (ms > 1000L * 1000 * 1000)
			return -1;
	}
	if (*s == '.')
		for (s++; isdigit(*s); s++, digits = true)
			if ((scale /= 10) > 0)
				ms += (*s - '0') * scale;
	return digits && *s == '\0' ? ms : -1;
}

static int cmd_sleep(int argc, char **argv)
{
	long ms = argc == 2 ? parse_seconds_ms(argv[1]) : -1;
	if (ms < 0) {
		dprintf(STDERR_FILENO, "usage: sleep SECONDS (fractions allowed)\n");
		return 1;
	}
	/* Interruptible, as a sleep a user waits on must be: Ctrl-C ends it at once. */
	if (msleep_interruptible((unsigned long)ms))
		return STATUS_SIGINT;
	return 0;
}
SHELL_CMD("sleep", "sleep SECONDS: pause (fractions allowed)", cmd_sleep);

struct taskset_job {
	const struct shell_cmd *cmd;
	int argc;
	char **argv;
};

static int taskset_thread(void *arg)
{
	struct taskset_job *job = arg;
	return job->cmd->fn(job->argc, job->argv);
}

/* "1,3" or "0-2" to a CPU mask; 0 if malformed. */
static uint64_t parse_cpu_list(const char *s)
{
	uint64_t mask = 0;
	while (*s) {
		unsigned long a, b;
		char *end;
		if (!isdigit(*s))
			return 0;
		a = b = simple_strtoul(s, &end, 10);
		if (*end == '-') {
			if (!isdigit(end[1]))
				return 0;
			b = simple_strtoul(end + 1, &end, 10);
		}
		if (a > b || b >= 64)
			return 0;
		for (unsigned long c = a; c <= b; c++)
			mask |= 1UL << c;
		if (*end == ',')
			end++;
		else if (*end)
			return 0;
		s = end;
	}
	return mask;
}

/*
 * taskset MASK CMD... or taskset -c LIST CMD...: run CMD in a thread allowed only there. The
 * thread is in taskset's job and command (kernel/sched/signal.c): Ctrl-C and kill reach it as they
 * would reach the program Linux's taskset execs, and taskset returns its status.
 */
static int cmd_taskset(int argc, char **argv)
{
	uint64_t mask = 0;
	int first = 2;
	if (argc >= 4 && !strcmp(argv[1], "-c")) {
		mask = parse_cpu_list(argv[2]);
		first = 3;
	} else if (argc >= 3) {
		unsigned long m;
		if (!kstrtoul(argv[1], 16, &m))
			mask = m;
	}
	uint64_t online = num_online_cpus() >= 64 ? ~0UL : (1UL << num_online_cpus()) - 1;
	if (!(mask & online) || first >= argc) {
		dprintf(STDERR_FILENO, "usage: taskset MASK CMD [ARGS] | taskset -c LIST CMD [ARGS]\n"
				       "  (CPUs online: 0-%d)\n",
			num_online_cpus() - 1);
		return 1;
	}
	/* util-linux's message and statuses for a command it cannot run: 127, else 126 */
	struct taskset_job job = {shell_find_cmd(argv[first]), argc - first, argv + first};
	if (!job.cmd) {
		dprintf(STDERR_FILENO, "taskset: failed to execute %s: %s\n", argv[first],
			errno_text(ENOENT));
		return 127;
	}
	struct task *t = kthread_create(taskset_thread, &job, argv[first]);
	if (!t) {
		dprintf(STDERR_FILENO, "taskset: failed to execute %s: %s\n", argv[first],
			errno_text(ENOMEM));
		return 126;
	}
	kthread_bind_mask(t, mask & online);
	wake_up_new_task(t);
	return kthread_join(t);
}
SHELL_CMD("taskset", "taskset -c CPUS CMD: run CMD on the chosen CPUs", cmd_taskset);

static int cmd_cpu(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("%d\n", smp_processor_id());
	return 0;
}
SHELL_CMD("whichcpu", "print the CPU this command runs on", cmd_cpu);
