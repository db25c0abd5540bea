/*
 * insmod, rmmod and lsmod, as kmod's: the same arguments, the same output, the same messages.
 * Each is the system call's code (kernel/module/main.c) run from the shell's task:
 *
 *     insmod FILE [PARAMS]    finit_module: FILE, or /lib/modules/FILE[.ko] when FILE has no /
 *     rmmod NAME              delete_module (NAME may be foo.ko or a path, as kmod allows)
 *     lsmod                   /proc/modules, as a table
 *
 * Linux's insmod takes only a path; finding a bare name in /lib/modules is what modprobe does,
 * and Lucid's insmod does it too, so that `insmod foo` (the article's) works.
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/module/module.h"
#include "kernel/fs/vfs.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

#define MODULE_DIR "/lib/modules/"
#define PARAMS_MAX 256

/* kmod's wording (tools/insmod.c: mod_strerror) for what the kernel said. */
static const char *mod_strerror(int err)
{
	switch (err) {
	case ENOEXEC:
		return "Invalid module format";
	case ENOENT:
	case ESRCH:
		return "Unknown symbol in module";
	case EINVAL:
		return "Invalid parameters";
	default:
		return errno_text(err);
	}
}

/* FILE as given; failing that, a bare name in /lib/modules, with or without its .ko. */
static int open_module(const char *arg)
{
	char path[sizeof(MODULE_DIR) + NAME_MAX + sizeof(".ko")];
	int fd = vfs_open(arg, O_RDONLY, 0);

	if (fd != -ENOENT || strchr(arg, '/'))
		return fd;
	snprintf(path, sizeof(path), MODULE_DIR "%s", arg);
	fd = vfs_open(path, O_RDONLY, 0);
	if (fd == -ENOENT) {
		snprintf(path, sizeof(path), MODULE_DIR "%s.ko", arg);
		fd = vfs_open(path, O_RDONLY, 0);
	}
	return fd;
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
	if (err) {
		dprintf(STDERR_FILENO, "insmod: ERROR: could not insert module %s: %s\n", argv[1],
			mod_strerror(-err));
		return 1;
	}
	return 0;
}
SHELL_CMD("insmod", "insmod FILE [PARAMS]: load a module (FILE, or NAME in /lib/modules)",
	  cmd_insmod);

/* "foo", "foo.ko" and "/lib/modules/foo.ko" all name the module foo. */
static void module_name_of(const char *arg, char *name, size_t size)
{
	const char *base = strrchr(arg, '/');
	size_t len;

	base = base ? base + 1 : arg;
	len = strlen(base);
	if (len > 3 && !strcmp(base + len - 3, ".ko"))
		len -= 3;
	snprintf(name, size, "%.*s", (int)len, base);
}

static int cmd_rmmod(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		dprintf(STDERR_FILENO, "rmmod: ERROR: missing module name.\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		char name[MODULE_NAME_LEN];
		int err;

		module_name_of(argv[i], name, sizeof(name));
		err = delete_module(name, O_NONBLOCK);
		if (!err)
			continue;
		status = 1;
		if (err == -ENOENT)
			dprintf(STDERR_FILENO, "rmmod: ERROR: Module %s is not currently loaded\n",
				name);
		else if (err == -EWOULDBLOCK)
			dprintf(STDERR_FILENO, "rmmod: ERROR: Module %s is in use\n", name);
		else
			dprintf(STDERR_FILENO, "rmmod: ERROR: could not remove module %s: %s\n",
				name, errno_text(-err));
	}
	return status;
}
SHELL_CMD("rmmod", "rmmod NAME...: unload modules", cmd_rmmod);

static void lsmod_line(struct module *mod, void *data)
{
	(void)data;
	printf("%-19s %8u  %d\n", mod->name, mod->core_layout.size, module_refcount(mod));
}

static int cmd_lsmod(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		dprintf(STDERR_FILENO, "Usage: lsmod\n");
		return 1;
	}
	printf("Module                  Size  Used by\n");
	module_for_each(lsmod_line, NULL);
	return 0;
}
SHELL_CMD("lsmod", "lsmod: the loaded modules (/proc/modules as a table)", cmd_lsmod);
