/*
 * ls [-l] [-a] [PATH...]: the names in a directory, sorted by byte value (as LC_ALL=C ls),
 * one per line, as ls prints when its output is not a terminal. -l adds the mode, in ls's
 * notation (drwxr-xr-x, -rw-r--r--, crw-------), and the size; Lucid keeps no owners or
 * times. -a shows the names starting with '.' too.
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/shell/cmd_io.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/sort.h"
#include "lib/string.h"

struct entry {
	char *name;
	struct kstat st;
};

struct listing {
	struct entry *v;
	size_t n, cap;
};

static void mode_string(umode_t mode, char s[11])
{
	static const char rwx[] = "rwxrwxrwx";

	s[0] = S_ISDIR(mode) ? 'd' : S_ISCHR(mode) ? 'c' : S_ISFIFO(mode) ? 'p' : '-';
	for (int i = 0; i < 9; i++)
		s[1 + i] = mode & (0400 >> i) ? rwx[i] : '-';
	if (mode & 01000) /* sticky, as /tmp: 't' over the others' x */
		s[9] = mode & 0001 ? 't' : 'T';
	s[10] = '\0';
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static int add(struct listing *l, const char *name, const struct kstat *st)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 32;
		struct entry *v = krealloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n].name = kstrdup(name);
	if (!l->v[l->n].name)
		return -ENOMEM;
	l->v[l->n++].st = *st;
	return 0;
}

static void free_listing(struct listing *l)
{
	for (size_t i = 0; i < l->n; i++)
		kfree(l->v[i].name);
	kfree(l->v);
	*l = (struct listing){0};
}

/* Reads the directory at fd, with each entry's stat (which needs its path: dir/name). */
static int read_dir(int fd, const char *dir, bool all, struct listing *l)
{
	char *path = kmalloc(PATH_MAX);
	struct dirent de;
	int ret = path ? 0 : -ENOMEM;

	while (!ret && (ret = vfs_readdir(fd, &de)) == 1) {
		struct kstat st = {0};

		ret = 0;
		if (de.d_name[0] == '.' && !all)
			continue;
		snprintf(path, PATH_MAX, "%s/%s", dir, de.d_name);
		vfs_stat(path, &st); /* "." and "..": the same as the directory's own */
		ret = add(l, de.d_name, &st);
	}
	kfree(path);
	return ret;
}

static void print_listing(struct cmd_out *o, struct listing *l, bool lng)
{
	int width = 1;

	sort(l->v, l->n, sizeof(*l->v), cmp_entry);
	for (size_t i = 0; i < l->n; i++) {
		int w = snprintf(NULL, 0, "%ld", (long)l->v[i].st.size);

		width = w > width ? w : width;
	}
	for (size_t i = 0; i < l->n; i++) {
		char mode[11];

		if (!lng) {
			out_printf(o, "%s\n", l->v[i].name);
			continue;
		}
		mode_string(l->v[i].st.mode, mode);
		out_printf(o, "%s %*ld %s\n", mode, width, (long)l->v[i].st.size, l->v[i].name);
	}
}

/* One directory's listing, under a "dir:" header if asked. */
static int ls_dir(struct cmd_out *o, const char *path, bool lng, bool all, bool header)
{
	struct listing l = {0};
	int fd = vfs_open(path, O_RDONLY | O_DIRECTORY, 0);
	int err = fd < 0 ? fd : read_dir(fd, path, all, &l);

	if (fd >= 0)
		vfs_close(fd);
	if (err) {
		out_flush(o);
		dprintf(STDERR_FILENO, "ls: cannot open directory '%s': %s\n", path,
			errno_text(-err));
		free_listing(&l);
		return 2;
	}
	if (header)
		out_printf(o, "%s:\n", path);
	print_listing(o, &l, lng);
	free_listing(&l);
	return 0;
}

/*
 * The operands in GNU ls's order: those that cannot be found are reported first, as they come;
 * then the others that are not directories, as one sorted listing; then each directory, in
 * name order, under a "dir:" header when there are several operands, a blank line between.
 */
static int ls_operands(struct cmd_out *o, char **names, int n, bool lng, bool all)
{
	struct listing files = {0}, dirs = {0};
	bool first = true;
	int status = 0;

	for (int i = 0; i < n; i++) {
		struct kstat st;
		int err = vfs_stat(names[i], &st);

		if (!err)
			err = add(S_ISDIR(st.mode) ? &dirs : &files, names[i], &st);
		if (err) {
			dprintf(STDERR_FILENO, "ls: cannot access '%s': %s\n", names[i],
				errno_text(-err));
			status = 2;
		}
	}
	if (files.n) {
		print_listing(o, &files, lng);
		first = false;
	}
	sort(dirs.v, dirs.n, sizeof(*dirs.v), cmp_entry);
	for (size_t i = 0; i < dirs.n && !out_failed(o); i++) {
		int s;

		if (!first)
			out_write(o, "\n", 1);
		first = false;
		s = ls_dir(o, dirs.v[i].name, lng, all, n > 1);
		status = s > status ? s : status;
	}
	free_listing(&files);
	free_listing(&dirs);
	return status;
}

static int cmd_ls(int argc, char **argv)
{
	static char *dot[] = {"."};
	bool lng = false, all = false;
	struct cmd_out *o = kmalloc(sizeof(*o));
	struct getopt g;
	int c, status;

	if (!o)
		return cmd_nomem("ls", 2);
	getopt_init(&g);
	while ((c = getopt(&g, argc, argv, "la1")) != -1) {
		if (c == '?') {
			kfree(o);
			return 2;
		}
		lng |= c == 'l';
		all |= c == 'a';
	}
	out_init(o, STDOUT_FILENO);
	if (g.ind == argc)
		status = ls_operands(o, dot, 1, lng, all);
	else
		status = ls_operands(o, argv + g.ind, argc - g.ind, lng, all);
	if (out_flush(o))
		status = write_error_as("ls", o->err, "write error: %s", 2);
	kfree(o);
	return status;
}
SHELL_CMD("ls", "ls [-l] [-a] [PATH...]: list a directory (-l: mode and size)", cmd_ls);
