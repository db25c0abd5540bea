/*
 * Commands on names: cd, pwd, mkdir, rmdir, touch, rm. Messages and statuses are coreutils'
 * (bash's for cd), with the errno's Linux text, so a transcript reads as on Linux.
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/shell/cmd_io.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "lib/errno.h"
#include "kernel/shell/sh_parse.h"
#include "lib/string.h"

/*
 * The directory before the last cd, for "cd -" (bash's OLDPWD). One, like the shell: cd is a
 * builtin, so only the shell's own task runs it.
 */
static char oldpwd[PATH_MAX];

/* A builtin: it must change the shell's own cwd, not a copy's. */
static int cmd_cd(int argc, char **argv)
{
	bool back = argc > 1 && !strcmp(argv[1], "-");
	char *dir, *cwd;
	int err;

	if (argc > 1 && !strcmp(argv[1], "--")) {
		argv++;
		argc--;
	} else if (argc > 1 && argv[1][0] == '-' && argv[1][1]) { /* bash's message and status */
		dprintf(STDERR_FILENO, "sh: cd: %s: invalid option\ncd: usage: cd [dir]\n",
			argv[1]);
		return 2;
	}
	if (argc > 2) {
		dprintf(STDERR_FILENO, "sh: cd: too many arguments\n");
		return 1;
	}
	if (back && !oldpwd[0]) {
		dprintf(STDERR_FILENO, "sh: cd: OLDPWD not set\n");
		return 1;
	}
	cwd = kmalloc(2 * PATH_MAX); /* where we are, then (for "cd -") where we go */
	if (!cwd) { /* as a chdir() that failed for want of memory: name where */
		dir = back ? oldpwd : argc > 1 ? argv[1] : (char *)SH_HOME;
		dprintf(STDERR_FILENO, "sh: cd: %s: %s\n", dir, errno_text(ENOMEM));
		return 1;
	}
	dir = back ? strcpy(cwd + PATH_MAX, oldpwd) : argc > 1 ? argv[1] : (char *)SH_HOME;
	if (vfs_getcwd(cwd, PATH_MAX) < 0)
		cwd[0] = '\0'; /* too deep to name: "cd -" will say OLDPWD not set */
	err = vfs_chdir(dir);
	if (err) {
		dprintf(STDERR_FILENO, "sh: cd: %s: %s\n", dir, errno_text(-err));
		kfree(cwd);
		return 1;
	}
	strcpy(oldpwd, cwd);
	if (back) /* bash prints where "cd -" took you */
		printf("%s\n", dir);
	kfree(cwd);
	return 0;
}
SHELL_BUILTIN("cd", "cd [DIR|-]: change the current directory (default /root; - the last one)",
	      cmd_cd);

static int cmd_pwd(int argc, char **argv)
{
	char *buf = kmalloc(PATH_MAX);
	int err, status = 0;

	(void)argc;
	(void)argv;
	if (!buf)
		return cmd_nomem("pwd", 1);
	err = vfs_getcwd(buf, PATH_MAX);
	if (err < 0) { /* bash's pwd -P (Lucid keeps no $PWD): its words, to the byte */
		dprintf(STDERR_FILENO,
			"pwd: error retrieving current directory: getcwd: cannot access parent "
			"directories: %s\n",
			errno_text(-err));
		status = 1;
	} else if ((err = printf("%s\n", buf)) < 0) {
		status = write_error("sh: pwd", err); /* bash's pwd is a builtin */
	}
	kfree(buf);
	return status;
}
SHELL_CMD("pwd", "print the current directory", cmd_pwd);

/* mkdir -p: each missing directory on the way, then the last. */
static int mkdir_parents(char *path)
{
	int err = 0;

	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		err = vfs_mkdir(path, 0755);
		*p = '/';
		if (err && err != -EEXIST)
			return err;
	}
	err = vfs_mkdir(path, 0755);
	return err == -EEXIST ? 0 : err;
}

static int cmd_mkdir(int argc, char **argv)
{
	bool parents = false;
	struct getopt g;
	int c, status = 0;

	getopt_init(&g);
	while ((c = getopt(&g, argc, argv, "p")) != -1) {
		if (c == '?')
			return 1;
		parents = true;
	}
	if (g.ind == argc) {
		dprintf(STDERR_FILENO, "mkdir: missing operand\n");
		return 1;
	}
	for (int i = g.ind; i < argc; i++) {
		int err = parents ? mkdir_parents(argv[i]) : vfs_mkdir(argv[i], 0755);

		if (err) {
			dprintf(STDERR_FILENO, "mkdir: cannot create directory '%s': %s\n", argv[i],
				errno_text(-err));
			status = 1;
		}
	}
	return status;
}
SHELL_CMD("mkdir", "mkdir [-p] DIR...: make directories", cmd_mkdir);

static int cmd_rmdir(int argc, char **argv)
{
	int first = getopt_none(argc, argv), status = 0;

	if (first < 0)
		return 1;
	if (first == argc) {
		dprintf(STDERR_FILENO, "rmdir: missing operand\n");
		return 1;
	}
	for (int i = first; i < argc; i++) {
		int err = vfs_rmdir(argv[i]);

		if (err) {
			dprintf(STDERR_FILENO, "rmdir: failed to remove '%s': %s\n", argv[i],
				errno_text(-err));
			status = 1;
		}
	}
	return status;
}
SHELL_CMD("rmdir", "rmdir DIR...: remove empty directories", cmd_rmdir);

/* Lucid keeps no times, so touching only makes sure the file exists. */
static int cmd_touch(int argc, char **argv)
{
	int first = getopt_none(argc, argv), status = 0;

	if (first < 0)
		return 1;
	if (first == argc) {
		dprintf(STDERR_FILENO, "touch: missing file operand\n");
		return 1;
	}
	for (int i = first; i < argc; i++) {
		struct kstat st;
		int fd = vfs_stat(argv[i], &st) == 0 ? 0
						     : vfs_open(argv[i], O_WRONLY | O_CREAT, 0644);

		if (fd < 0) {
			dprintf(STDERR_FILENO, "touch: cannot touch '%s': %s\n", argv[i],
				errno_text(-fd));
			status = 1;
		} else if (fd > 0) {
			vfs_close(fd);
		}
	}
	return status;
}
SHELL_CMD("touch", "touch FILE...: create empty files", cmd_touch);

static int cmd_rm(int argc, char **argv)
{
	bool force = false;
	struct getopt g;
	int c, status = 0;

	getopt_init(&g);
	while ((c = getopt(&g, argc, argv, "f")) != -1) {
		if (c == '?')
			return 1;
		force = true;
	}
	if (g.ind == argc && !force) {
		dprintf(STDERR_FILENO, "rm: missing operand\n");
		return 1;
	}
	for (int i = g.ind; i < argc; i++) {
		int err = vfs_unlink(argv[i]);

		if (err && !(force && err == -ENOENT)) {
			dprintf(STDERR_FILENO, "rm: cannot remove '%s': %s\n", argv[i],
				errno_text(-err));
			status = 1;
		}
	}
	return status;
}
SHELL_CMD("rm", "rm [-f] FILE...: remove files", cmd_rm);
