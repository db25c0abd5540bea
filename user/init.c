/*
 * init: Lucid's own pid 1, booted with init=/sbin/init. It does what a Linux initramfs's init
 * (or busybox's init with a console getty) does before a person types, and nothing more:
 *
 * 1. Mount what is not mounted yet: proc at /proc (first: /proc/mounts tells what else is
 *    there), tracefs at /sys/kernel/tracing, debugfs at /sys/kernel/debug, and QEMU's shared
 *    folder (9p, mount tag "host") at /mnt/host. Lucid's kernel mounts all of them itself at
 *    boot (kernel/fs/vfs.c, kernel/fs/9p/v9fs.c), so today this finds them there and says
 *    nothing; a mount a kernel did not make is made here, as on Linux, where the kernel mounts
 *    none of these. Mounting again what is there would stack a second copy (mount(2) allows
 *    that), hence the look first. No share is normal (make run SHARE=): quiet. The kernel
 *    mounts sysfs at /sys itself (the mount points of the other two are in it); Lucid has no
 *    devtmpfs to mount: /dev is made by the kernel (kernel/fs/fs_boot.c).
 * 2. Give the shell the console as its controlling terminal, in a session of its own: the
 *    child calls setsid() and TIOCSCTTY on /dev/console, as getty and busybox's cttyhack do
 *    (opening /dev/console never makes it a controlling terminal on Linux). Argument 1 takes
 *    it from init's session: Lucid's kernel hands the console to pid 1 (kernel/main.c), and
 *    root may take a terminal from another session. Job control needs this: bash makes a
 *    process group per job and gives the terminal's foreground to one (tcsetpgrp), which only
 *    works on its own controlling terminal; else "no job control in this shell".
 * 3. Start a login shell, as login(1) does after the password: argv[0] "-bash" (the dash makes
 *    it a login shell: it reads /etc/profile, which sets the prompt), in root's home with the
 *    environment login sets. If bash cannot run, busybox's sh ("-sh") instead.
 * 4. Reap: every process whose parent ends becomes init's child (Linux's reparenting), and
 *    only init can collect it; an uncollected one stays a zombie in ps. So init waits for any
 *    child, forever, not only for the shell.
 * 5. When the shell ends, sync and power off (reboot(2)): the session is over, and QEMU exits
 *    with status 0, as `poweroff` at the kernel shell makes it. pid 1 must never exit: the
 *    kernel would panic ("Attempted to kill init!").
 *
 * Signals: the kernel delivers to pid 1 only those it has a handler for (Linux's
 * SIGNAL_UNKILLABLE): Ctrl-C at the shell reaches only the shell's jobs. init handles the two
 * that busybox's `poweroff` and `reboot` send to pid 1 (SIGUSR2, SIGTERM), as busybox's init
 * does: sync, then reboot(2) with that command. (busybox's halt sends SIGUSR1: Lucid has no
 * halt, so init leaves it unhandled and it does nothing.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CONSOLE "/dev/console"
#define MOUNTS "/proc/mounts"
#define TIOCSCTTY_STEAL 1 /* TIOCSCTTY's argument: take the terminal from another session */
#define EXIT_NOT_RUN 127 /* the shell's "command not found": neither shell could start */

static const struct {
	const char *source, *dir, *type;
	bool optional; /* missing device: nothing to say (QEMU shares no folder) */
} mounts[] = {
	{"proc", "/proc", "proc", false}, /* first: the others are looked up in its /proc/mounts */
	{"tracefs", "/sys/kernel/tracing", "tracefs", false},
	{"debugfs", "/sys/kernel/debug", "debugfs", false},
	{"host", "/mnt/host", "9p", true},
};

/* The environment login(1) gives root's shell (util-linux's ENV_ROOTPATH for PATH); TERM is
 * the one the kernel gave init (main.c: "linux"), as getty passes its own on. */
static char term[64] = "TERM=linux";
static char *const shell_env[] = {
	"HOME=/root",
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	"SHELL=/bin/bash",
	"USER=root",
	"LOGNAME=root",
	term,
	NULL,
};

/* What the machine does when init's work is over: the shell ended (power off) or a signal. */
static volatile sig_atomic_t shutdown_cmd;

static void on_shutdown_signal(int sig)
{
	shutdown_cmd = sig == SIGTERM ? RB_AUTOBOOT : RB_POWER_OFF;
}

/* Is something mounted on dir? /proc/mounts's second field; without /proc, nothing is known. */
static bool is_mounted(const char *dir)
{
	char line[512], where[256];
	FILE *f = fopen(MOUNTS, "r");
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %255s", where) == 1 && strcmp(where, dir) == 0;
	fclose(f);
	return found;
}

/* mkdir -p for dir; how many components it made (to undo them if the mount fails). */
static int make_dirs(const char *dir, char made[][64], int max)
{
	char path[64];
	int n = 0;

	for (const char *p = dir + 1;; p++) {
		if (*p != '/' && *p)
			continue;
		snprintf(path, sizeof(path), "%.*s", (int)(p - dir), dir);
		if (mkdir(path, 0755) == 0 && n < max)
			strcpy(made[n++], path);
		if (!*p)
			return n;
	}
}

static void mount_all(void)
{
	for (size_t i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++) {
		char made[4][64];
		int n;

		if (is_mounted(mounts[i].dir))
			continue;
		n = make_dirs(mounts[i].dir, made, 4);
		if (mount(mounts[i].source, mounts[i].dir, mounts[i].type, 0, NULL) == 0)
			continue;
		if (errno == EBUSY)
			continue; /* there already: what we wanted */
		/* No such device: no share. Linux says ENOENT for a 9p tag no device has. */
		if (!(mounts[i].optional && (errno == ENOENT || errno == ENODEV)))
			fprintf(stderr, "init: mount %s on %s: %s\n", mounts[i].type, mounts[i].dir,
				strerror(errno));
		while (n > 0)
			rmdir(made[--n]); /* leave no empty mount point behind */
	}
}

/* In the child: the console as controlling terminal of a new session, then the login shell. */
static void run_shell(void)
{
	char *const bash_argv[] = {"-bash", NULL};
	char *const sh_argv[] = {"-sh", NULL};
	int fd;

	if (setsid() < 0)
		perror("init: setsid");
	fd = open(CONSOLE, O_RDWR);
	/* On failure the shell still runs, without job control. */
	if (fd < 0 || ioctl(fd, TIOCSCTTY, TIOCSCTTY_STEAL) < 0)
		perror("init: " CONSOLE " as controlling terminal");
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
	if (chdir("/root") < 0)
		perror("init: chdir /root");
	execve("/bin/bash", bash_argv, shell_env);
	fprintf(stderr, "init: cannot run /bin/bash: %s; trying /bin/sh\n", strerror(errno));
	execve("/bin/sh", sh_argv, shell_env);
	fprintf(stderr, "init: cannot run /bin/sh: %s\n", strerror(errno));
	_exit(EXIT_NOT_RUN);
}

int main(void)
{
	const char *t = getenv("TERM");
	pid_t shell, pid;
	int status;

	/* Typed at a shell, it would power the machine off when its own shell ends: refuse. */
	if (getpid() != 1) {
		fprintf(stderr, "init: must be run as process 1 (boot with init=/sbin/init)\n");
		return 1;
	}
	if (t)
		snprintf(term, sizeof(term), "TERM=%s", t);
	/* No SA_RESTART: the signal ends init's waitpid (EINTR), so the loop below sees it. */
	struct sigaction sa = {.sa_handler = on_shutdown_signal};
	sigaction(SIGUSR2, &sa, NULL); /* busybox poweroff */
	sigaction(SIGTERM, &sa, NULL); /* busybox reboot */
	mount_all();
	shell = fork();
	if (shell < 0) {
		perror("init: fork");
		return 1; /* the kernel panics: nothing can run */
	}
	if (shell == 0)
		run_shell();
	while (!shutdown_cmd) {
		pid = waitpid(-1, &status, 0);
		if (pid == shell || (pid < 0 && errno == ECHILD))
			shutdown_cmd = RB_POWER_OFF;
	}
	sync();
	reboot(shutdown_cmd);
	perror("init: reboot");
	for (;;)
		pause(); /* pid 1 may not end */
}
