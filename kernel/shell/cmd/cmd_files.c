/*
 * The rescue console's commands on files: cat, ls, cd, pwd, mount, umount. Each is the
 * system call's code (kernel/fs/) run from the console's thread, with a message in the words
 * of coreutils or util-linux when it fails; the options are the few a rescue needs.
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/sort.h"
#include "lib/string.h"

#define CAT_CHUNK 512 /* bytes read and written at a time */
#define LS_MAX 1024 /* names of one directory listed */
#define MODE_STRING_LEN 11 /* "drwxr-xr-x" and its NUL */

static int cmd_cat(int argc, char **argv)
{
	char buf[CAT_CHUNK];
	int status = 0;

	if (argc < 2) {
		dprintf(STDERR_FILENO, "usage: cat FILE... (no standard input here)\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		int fd = vfs_open(argv[i], O_RDONLY, 0);
		long n = fd;

		while (fd >= 0 && (n = vfs_read(fd, buf, sizeof(buf))) > 0)
			if ((n = fd_write(STDOUT_FILENO, buf, (size_t)n)) < 0)
				break;
		if (n < 0) {
			dprintf(STDERR_FILENO, "cat: %s: %s\n", argv[i], errno_text((int)-n));
			status = 1;
		}
		if (fd >= 0)
			vfs_close(fd);
	}
	return status;
}
SHELL_CMD("cat", "cat FILE...: print files", cmd_cat);

/* One name; with -l first ls's mode column (the type, then rwx for owner, group, others). */
static void ls_line(const char *path, const char *name, bool lng)
{
	static const char rwx[] = "rwxrwxrwx";
	char mode[MODE_STRING_LEN] = "";
	struct kstat st;

	if (lng && !vfs_lstat(path, &st)) {
		mode[0] = S_ISDIR(st.mode) ? 'd' : S_ISLNK(st.mode) ? 'l' : '-';
		mode[0] = S_ISCHR(st.mode) ? 'c' : mode[0];
		for (int i = 0; i < 9; i++)
			mode[1 + i] = st.mode & (0400 >> i) ? rwx[i] : '-';
		printf("%s %8ld ", mode, (long)st.size);
	}
	printf("%s\n", name);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One directory's names, sorted as LC_ALL=C ls sorts them; at most LS_MAX of them. */
static int ls_dir(const char *dir, bool lng)
{
	char **names = kmalloc(LS_MAX * sizeof(*names));
	char *path = kmalloc(PATH_MAX);
	int fd = vfs_open(dir, O_RDONLY | O_DIRECTORY, 0), n = 0, ret = 0;
	struct dirent de;

	if (fd < 0 || !names || !path) {
		dprintf(STDERR_FILENO, "ls: cannot open directory '%s': %s\n", dir,
			errno_text(fd < 0 ? -fd : ENOMEM));
		ret = 2;
	}
	while (!ret && n < LS_MAX && vfs_readdir(fd, &de) == 1) {
		if (de.d_name[0] == '.')
			continue; /* hidden, as ls without -a */
		names[n] = kstrdup(de.d_name);
		if (names[n])
			n++;
	}
	sort(names, (size_t)n, sizeof(*names), cmp_name);
	for (int i = 0; i < n; i++) {
		snprintf(path, PATH_MAX, "%s/%s", dir, names[i]);
		ls_line(path, names[i], lng);
		kfree(names[i]);
	}
	if (fd >= 0)
		vfs_close(fd);
	kfree(names);
	kfree(path);
	return ret;
}

static int cmd_ls(int argc, char **argv)
{
	bool lng = argc > 1 && !strcmp(argv[1], "-l");
	int first = lng ? 2 : 1, status = 0;

	if (first == argc)
		return ls_dir(".", lng);
	for (int i = first; i < argc; i++) {
		struct kstat st;
		int err = vfs_stat(argv[i], &st);

		if (err) {
			dprintf(STDERR_FILENO, "ls: cannot access '%s': %s\n", argv[i],
				errno_text(-err));
			status = 2;
		} else if (!S_ISDIR(st.mode)) {
			ls_line(argv[i], argv[i], lng);
		} else {
			if (argc - first > 1)
				printf("%s:\n", argv[i]);
			status |= ls_dir(argv[i], lng);
		}
	}
	return status;
}
SHELL_CMD("ls", "ls [-l] [PATH...]: list directories (-l: mode and size)", cmd_ls);

static int cmd_cd(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/";
	int err = argc > 2 ? -E2BIG : vfs_chdir(dir);

	if (err == -E2BIG)
		dprintf(STDERR_FILENO, "cd: too many arguments\n");
	else if (err)
		dprintf(STDERR_FILENO, "cd: %s: %s\n", dir, errno_text(-err));
	return err ? 1 : 0;
}
SHELL_CMD("cd", "cd [DIR]: change the current directory (default /)", cmd_cd);

static int cmd_pwd(int argc __unused, char **argv __unused)
{
	char *cwd = kmalloc(PATH_MAX);

	if (!cwd || vfs_getcwd(cwd, PATH_MAX) < 0) {
		kfree(cwd);
		dprintf(STDERR_FILENO, "pwd: cannot get the current directory\n");
		return 1;
	}
	printf("%s\n", cwd);
	kfree(cwd);
	return 0;
}
SHELL_CMD("pwd", "pwd: print the current directory", cmd_pwd);

static int mount_list(void)
{
	int len = vfs_mount_list(NULL, 0);
	char *buf = len >= 0 ? kmalloc((size_t)len + 1) : NULL;

	if (!buf) {
		dprintf(STDERR_FILENO, "mount: %s\n", errno_text(ENOMEM));
		return 1;
	}
	len = vfs_mount_list(buf, (size_t)len + 1); /* a mount made meanwhile is cut off */
	if (len > 0)
		fd_write(STDOUT_FILENO, buf, (size_t)len);
	kfree(buf);
	return 0;
}

/*
 * mount				list the mounts
 * mount -t TYPE [SOURCE] DIR		mount TYPE (proc, sysfs, tmpfs, tracefs, 9p ...) on DIR;
 *					SOURCE is 9p's mount tag, the others take none
 */
static int cmd_mount(int argc, char **argv)
{
	const char *dir = argv[argc - 1], *source = argc == 5 ? argv[3] : NULL;
	int err;

	if (argc == 1)
		return mount_list();
	if ((argc != 4 && argc != 5) || strcmp(argv[1], "-t")) {
		dprintf(STDERR_FILENO, "usage: mount [-t TYPE [SOURCE] DIR]\n");
		return 1;
	}
	err = vfs_mount_source(argv[2], source, dir);
	if (err == -ENODEV)
		dprintf(STDERR_FILENO, "mount: %s: unknown filesystem type '%s'.\n", dir, argv[2]);
	else if (err == -ENOENT)
		dprintf(STDERR_FILENO, "mount: %s: mount point does not exist.\n", dir);
	else if (err)
		dprintf(STDERR_FILENO, "mount: %s: %s.\n", dir, errno_text(-err));
	return err ? 32 : 0; /* util-linux's "mount failure" */
}
SHELL_CMD("mount", "mount [-t TYPE [SOURCE] DIR]: list mounts, or mount one", cmd_mount);

static int cmd_umount(int argc, char **argv)
{
	int err;

	if (argc != 2) {
		dprintf(STDERR_FILENO, "usage: umount DIR\n");
		return 1;
	}
	err = vfs_umount(argv[1]);
	if (err == -EINVAL)
		dprintf(STDERR_FILENO, "umount: %s: not mounted.\n", argv[1]);
	else if (err == -EBUSY)
		dprintf(STDERR_FILENO, "umount: %s: target is busy.\n", argv[1]);
	else if (err)
		dprintf(STDERR_FILENO, "umount: %s: %s.\n", argv[1], errno_text(-err));
	return err ? 32 : 0;
}
SHELL_CMD("umount", "umount DIR: unmount the file system on DIR", cmd_umount);
