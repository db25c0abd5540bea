/*
 * The rescue console's commands on the system: help, echo, dmesg, ps, insmod, rmmod, exec,
 * poweroff, reboot (and sysrq, kernel/debug/sysrq.c). Each is the kernel's own code for what
 * the system call would do, run from the console's thread.
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/version.h"
#include "kernel/printk.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/module/module.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/power.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

#define DMESG_CHUNK 512 /* bytes of the log copied and written at a time */
#define PS_MAX 256 /* tasks listed: a snapshot taken under the lock, printed after */
#define MODULE_DIR "/lib/modules/" UTS_RELEASE "/kernel/modules/" /* where the Makefile puts them */
#define PARAMS_MAX 256 /* insmod's parameters, joined */

/* The command whose name comes first after prev's (all of them: prev NULL), or NULL. */
static const struct shell_cmd *next_cmd_by_name(const struct shell_cmd *prev)
{
	const struct shell_cmd *best = NULL;

	for (const struct shell_cmd *c = __start_shell_cmds; c < __stop_shell_cmds; c++)
		if ((!prev || strcmp(c->name, prev->name) > 0) &&
		    (!best || strcmp(c->name, best->name) < 0))
			best = c;
	return best;
}

/*
 * Sorted by name, so that a command is found at a glance: the linker lays the table out in
 * whatever order it meets the files, and it is read-only, so each line looks up the next name
 * (a few dozen commands: no copy to sort is worth its memory).
 */
static int cmd_help(int argc __unused, char **argv __unused)
{
	printf("The rescue console: one command a line, words split at blanks; no pipes,\n"
	       "redirections, jobs, quotes or variables. 'exec /sbin/init' starts init.\n");
	for (const struct shell_cmd *c = next_cmd_by_name(NULL); c; c = next_cmd_by_name(c))
		printf("%-10s %s\n", c->name, c->help);
	return 0;
}
SHELL_CMD("help", "help: list the commands", cmd_help);

static int cmd_echo(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		printf("%s%s", argv[i], i + 1 < argc ? " " : "");
	printf("\n");
	return 0;
}
SHELL_CMD("echo", "echo WORDS: print the words", cmd_echo);

static int cmd_dmesg(int argc __unused, char **argv __unused)
{
	char buf[DMESG_CHUNK];
	size_t pos = 0, n;

	while ((n = printk_log_read_text(buf, sizeof(buf), &pos)) > 0) /* without each "<N>" */
		if (fd_write(STDOUT_FILENO, buf, n) < 0)
			return 1;
	return 0;
}
SHELL_CMD("dmesg", "dmesg: print the kernel log", cmd_dmesg);

struct ps_row {
	int pid, ppid;
	char state, comm[TASK_COMM_LEN];
	bool user; /* a process (it has an mm), not a kernel thread */
};

static int cmd_ps(int argc __unused, char **argv __unused)
{
	struct ps_row *rows = kmalloc(PS_MAX * sizeof(*rows));
	unsigned long flags;
	struct task *t;
	int n = 0;

	if (!rows) {
		dprintf(STDERR_FILENO, "ps: %s\n", errno_text(ENOMEM));
		return 1;
	}
	flags = spin_lock_irqsave(&task_list_lock);
	list_for_each_entry(t, &task_list, tasks)
	{
		if (n == PS_MAX)
			break;
		rows[n].pid = t->pid;
		rows[n].ppid = t->ppid;
		rows[n].user = t->mm != NULL;
		rows[n].state = task_state_char(t->state);
		memcpy(rows[n++].comm, t->comm, TASK_COMM_LEN);
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	/* Kernel threads in [], as Linux's ps shows those with no command line. */
	printf("  PID  PPID S COMMAND\n");
	for (int i = 0; i < n; i++)
		printf("%5d %5d %c %s%s%s\n", rows[i].pid, rows[i].ppid, rows[i].state,
		       rows[i].user ? "" : "[", rows[i].comm, rows[i].user ? "" : "]");
	kfree(rows);
	return 0;
}
SHELL_CMD("ps", "ps: list the tasks (kernel threads in [])", cmd_ps);

/* FILE as given; failing that, a bare name in MODULE_DIR, where modprobe finds it. */
static int open_module(const char *arg)
{
	char path[sizeof(MODULE_DIR) + NAME_MAX + sizeof(".ko")];
	int fd = vfs_open(arg, O_RDONLY, 0);

	if (fd != -ENOENT || strchr(arg, '/'))
		return fd;
	snprintf(path, sizeof(path), MODULE_DIR "%s.ko", arg);
	return vfs_open(path, O_RDONLY, 0);
}

static int cmd_insmod(int argc, char **argv)
{
	char params[PARAMS_MAX] = "";
	int fd, err;

	if (argc < 2) {
		dprintf(STDERR_FILENO, "insmod: ERROR: missing filename.\n");
		return 1;
	}
	for (int i = 2; i < argc; i++) /* kmod joins them with spaces */
		snprintf(params + strlen(params), sizeof(params) - strlen(params), "%s%s",
			 i > 2 ? " " : "", argv[i]);
	fd = open_module(argv[1]);
	if (fd < 0) {
		dprintf(STDERR_FILENO, "insmod: ERROR: could not load module %s: %s\n", argv[1],
			errno_text(-fd));
		return 1;
	}
	err = load_module_fd(fd, params);
	vfs_close(fd);
	if (err)
		dprintf(STDERR_FILENO, "insmod: ERROR: could not insert module %s: %s\n", argv[1],
			err == -ENOEXEC ? "Invalid module format" : errno_text(-err)); /* kmod's */
	return err ? 1 : 0;
}
SHELL_CMD("insmod", "insmod FILE|NAME [PARAMS]: load a module", cmd_insmod);

static int cmd_rmmod(int argc, char **argv)
{
	int err;

	if (argc != 2) {
		dprintf(STDERR_FILENO, "usage: rmmod NAME\n");
		return 1;
	}
	err = delete_module(argv[1], O_NONBLOCK);
	if (err == -ENOENT)
		dprintf(STDERR_FILENO, "rmmod: ERROR: Module %s is not currently loaded\n",
			argv[1]);
	else if (err == -EWOULDBLOCK)
		dprintf(STDERR_FILENO, "rmmod: ERROR: Module %s is in use\n", argv[1]);
	else if (err)
		dprintf(STDERR_FILENO, "rmmod: ERROR: could not remove module %s: %s\n", argv[1],
			errno_text(-err));
	return err ? 1 : 0;
}
SHELL_CMD("rmmod", "rmmod NAME: unload a module", cmd_rmmod);

/*
 * exec PATH [ARGS]: the console's task (pid 1) becomes the program, as the kernel runs init:
 * `exec /sbin/init` boots on as if nothing had been wrong. If the program ends, init has died
 * and the console comes back (kernel/exit.c).
 */
static int cmd_exec(int argc, char **argv)
{
	int err;

	if (argc < 2) {
		dprintf(STDERR_FILENO, "usage: exec PATH [ARGS]\n");
		return 1;
	}
	err = run_init_process(argv[1], argv + 1);
	dprintf(STDERR_FILENO, "exec: %s: %s\n", argv[1], errno_text(-err));
	return 1;
}
SHELL_CMD("exec", "exec PATH [ARGS]: run PATH as init (exec /sbin/init, exec /bin/sh)", cmd_exec);

static int cmd_reboot(int argc __unused, char **argv __unused)
{
	printk(KERN_EMERG "reboot: Restarting system\n");
	machine_restart();
	return 1;
}
SHELL_CMD("reboot", "reboot: restart the machine", cmd_reboot);

static int cmd_poweroff(int argc __unused, char **argv __unused)
{
	printk(KERN_EMERG "reboot: Power down\n");
	machine_power_off();
	return 1;
}
SHELL_CMD("poweroff", "poweroff: switch the machine off", cmd_poweroff);
