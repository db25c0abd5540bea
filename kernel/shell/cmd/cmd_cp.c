/*
 * cp and mv, with coreutils' messages, for regular files:
 *	cp SRC DST	copy SRC's bytes to DST (made or emptied), or into DST/ if a directory
 *	mv SRC DST	rename; across file systems (ramfs to the 9p share, say) copy, then remove
 * A copy moves COPY_CHUNK bytes a call, so on the shared folder each read and write is one
 * full-size 9p request.
 */
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/shell/cmd_io.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

#define COPY_CHUNK (128 * 1024)

/* DST, or DST/basename(SRC) when DST is a directory; kmalloc'd. */
static char *target_name(const char *src, const char *dst)
{
	const char *base = strrchr(src, '/');
	struct kstat st;
	size_t len;
	char *name;

	if (vfs_stat(dst, &st) || !S_ISDIR(st.mode))
		return kstrdup(dst);
	base = base ? base + 1 : src;
	len = strlen(dst) + strlen(base) + 2;
	name = kmalloc(len);
	if (name)
		snprintf(name, len, "%s/%s", dst, base);
	return name;
}

/* Copies the file src to dst; prints prog's message and returns 1 on failure. */
static int copy_file(const char *prog, const char *src, const char *dst)
{
	char *buf = NULL;
	int in, out, status = 1;
	struct kstat st;
	long n = 0;
	int err = vfs_stat(src, &st);

	if (err) {
		dprintf(STDERR_FILENO, "%s: cannot stat '%s': %s\n", prog, src, errno_text(-err));
		return 1;
	}
	if (S_ISDIR(st.mode)) {
		dprintf(STDERR_FILENO, "%s: -r not specified; omitting directory '%s'\n", prog,
			src);
		return 1;
	}
	in = vfs_open(src, O_RDONLY, 0);
	if (in < 0) {
		dprintf(STDERR_FILENO, "%s: cannot open '%s' for reading: %s\n", prog, src,
			errno_text(-in));
		return 1;
	}
	out = vfs_open(dst, O_WRONLY | O_CREAT | O_TRUNC, st.mode & 0777);
	if (out < 0) {
		dprintf(STDERR_FILENO, "%s: cannot create regular file '%s': %s\n", prog, dst,
			errno_text(-out));
		vfs_close(in);
		return 1;
	}
	buf = kmalloc(COPY_CHUNK);
	if (!buf) {
		status = cmd_nomem(prog, 1);
		goto out;
	}
	while ((n = vfs_read(in, buf, COPY_CHUNK)) > 0) {
		for (long done = 0; done < n;) {
			long w = vfs_write(out, buf + done, (size_t)(n - done));

			if (w <= 0) {
				dprintf(STDERR_FILENO, "%s: error writing '%s': %s\n", prog, dst,
					errno_text(w < 0 ? (int)-w : EIO));
				goto out;
			}
			done += w;
		}
	}
	if (n < 0)
		dprintf(STDERR_FILENO, "%s: error reading '%s': %s\n", prog, src, errno_text(-n));
	else
		status = 0;
out:
	kfree(buf);
	vfs_close(in);
	err = vfs_close(out);
	if (err && !status) {
		dprintf(STDERR_FILENO, "%s: failed to close '%s': %s\n", prog, dst,
			errno_text(-err));
		status = 1;
	}
	return status;
}

/* The two operands, or -1 after coreutils' message. */
static int operands(const char *prog, int argc, char **argv)
{
	int first = getopt_none(argc, argv);

	if (first < 0)
		return -1;
	if (argc - first == 0) {
		dprintf(STDERR_FILENO, "%s: missing file operand\n", prog);
		return -1;
	}
	if (argc - first == 1) {
		dprintf(STDERR_FILENO, "%s: missing destination file operand after '%s'\n", prog,
			argv[first]);
		return -1;
	}
	if (argc - first > 2) {
		dprintf(STDERR_FILENO, "%s: extra operand '%s'\n", prog, argv[first + 2]);
		return -1;
	}
	return first;
}

static int cmd_cp(int argc, char **argv)
{
	int first = operands("cp", argc, argv), status;
	char *dst;

	if (first < 0)
		return 1;
	dst = target_name(argv[first], argv[first + 1]);
	if (!dst)
		return cmd_nomem("cp", 1);
	status = copy_file("cp", argv[first], dst);
	kfree(dst);
	return status;
}
SHELL_CMD("cp", "cp SRC DST: copy a file (into DST if a directory)", cmd_cp);

static int cmd_mv(int argc, char **argv)
{
	int first = operands("mv", argc, argv), status = 0, err;
	const char *src;
	char *dst;

	if (first < 0)
		return 1;
	src = argv[first];
	dst = target_name(src, argv[first + 1]);
	if (!dst)
		return cmd_nomem("mv", 1);
	err = vfs_rename(src, dst);
	if (err == -EXDEV) {
		/* Another file system: as coreutils does, copy, then remove the original. */
		status = copy_file("mv", src, dst);
		err = status ? 0 : vfs_unlink(src);
		if (err)
			dprintf(STDERR_FILENO, "mv: cannot remove '%s': %s\n", src,
				errno_text(-err));
	} else if (err == -ENOENT && vfs_stat(src, &(struct kstat){0})) {
		dprintf(STDERR_FILENO, "mv: cannot stat '%s': %s\n", src, errno_text(-err));
	} else if (err) {
		dprintf(STDERR_FILENO, "mv: cannot move '%s' to '%s': %s\n", src, dst,
			errno_text(-err));
	}
	kfree(dst);
	return status || err ? 1 : 0;
}
SHELL_CMD("mv", "mv SRC DST: rename or move a file (into DST if a directory)", cmd_mv);
