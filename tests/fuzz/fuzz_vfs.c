/*
 * Fuzzing the VFS (kernel/fs/vfs.c namei.c dcache.c file.c mount.c ramfs.c pseudofs.c seq_file.c)
 * by reading the input as a program of file operations on a handful of paths.
 *
 * Each input runs in a fresh ramfs mounted on /fz, beside the boot tree (/proc, debugfs, tracefs
 * with the pseudo files of fuzz_vfs_files.c), as a task that may fork a child sharing its
 * files. Operations that change the tree only name paths under /fz or relative ones (and the
 * tracefs instances directory), and the working directory never leaves /fz, so the boot tree
 * stays as it was. Then everything is torn down: files closed, mounts under /fz unmounted, /fz
 * emptied. Checked, besides ASan and UBSan:
 *   - the VFS lock is taken once per entry point and always let go (the stand-ins below);
 *   - results are in range: fds, byte counts, positions, names, the cwd;
 *   - what is written to a ramfs file at an offset reads back the same;
 *   - after teardown every allocation is back (host_kmalloc_live as before the input) and the
 *     mount table reads as at boot.
 * An operation may also make the Nth next kmalloc fail, so error paths get the same scrutiny.
 *
 * To see the program an input stands for: FUZZ_VFS_TRACE=1 build/fuzz/fuzz_vfs INPUT
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "kernel/fs/vfs.h"
#include "kernel/fs/vfs_internal.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "tests/fuzz/fuzz_input.h"
#include "tests/fuzz/fuzz_vfs.h"
#include "tests/unit/host_kmalloc.h"
#include "tests/fuzz/fuzz_check.h"

#define IS_ERR_OR(v, ok) ((v) >= 0 ? (ok) : (v) > -4096)

static bool verbose;
#define TRACE(...)                                    \
	do {                                          \
		if (verbose)                          \
			fprintf(stderr, __VA_ARGS__); \
	} while (0)

#define MAX_OPS 200
#define IO_MAX 9000 /* a little over two pages */
#define MOUNTS_MAX 2048

/* ---- the stand-ins the kernel provides (kernel/fs/vfs_lock.c, the task) --------------------- */

/* Two tasks: the first, and a child that fork() would make, sharing its open files. */
static struct fs_context tasks[2], *current_task = &tasks[0];
static bool have_child;
static int lock_depth;

struct fs_context *current_fs(void)
{
	return current_task;
}

/* Every test task has a table of its own, as the kernel's user processes. */
struct file *fget_unlocked(int fd)
{
	return fget(fd);
}

void vfs_lock(void)
{
	CHECK(lock_depth == 0);
	lock_depth++;
}

void vfs_unlock(void)
{
	CHECK(lock_depth == 1);
	lock_depth--;
}

/* One try: nothing here blocks for real (no pipes, no console), so -EAGAIN is just returned. */
ssize_t vfs_block(struct file *file, vfs_io_fn io, int fd, void *buf, size_t count)
{
	(void)fd;
	CHECK(lock_depth == 1);
	return io(file, buf, count);
}

/* ---- what the operations choose from ---------------------------------------------------- */

static char long_name[NAME_MAX + 8], long_path[PATH_MAX + 16];

/* Anything may be opened, stat'ed or read; only these may be created, removed or mounted on. */
static const char *const tree_paths[] = {
	"/fz",	   "/fz/a",	    "/fz/b",	   "/fz/a/b",	 "/fz/a/c",	"/fz/m",
	"/fz/m/x", "/fz/m/tracing", "/fz//a/./b/", "/fz/a/../b", "/fz/a/b/c/d", "x",
	"b",	   "./x",	    "b/x",	   "b/..",	 "x/.",		"",
	long_name, long_path,
};
static const char *const read_paths[] = {
	"/",
	"/proc",
	"/proc/mounts",
	"/sys/kernel/tracing/fz_value",
	"/sys/kernel/tracing/fz_list",
	"/sys/kernel/debug/tracing/fz_list",
	"/sys/kernel/tracing/fz_tmp",
	"/sys/kernel/tracing/instances",
	"/sys/kernel/tracing/instances/i1",
	"/sys/kernel/tracing/instances/i1/fz_value",
	"/fz/m/tracing/fz_value",
	"/fz/m/fz_list",
	"..",
	"../..",
};
/* Instances are made and removed by mkdir/rmdir in the boot tree; teardown removes them. */
static const char *const instance_paths[] = {
	"/sys/kernel/tracing/instances/i1",
	"/sys/kernel/tracing/instances/i2",
	"/sys/kernel/tracing/instances/fz_value",
};
static const char *const cwd_paths[] = {"/fz", "/fz/a", "/fz/a/b", "/fz/m", "b", "/fz/m/x"};
static const char *const fs_types[] = {"ramfs", "debugfs", "tracefs", "proc", "nosuchfs"};
static const int open_flags[] = {O_RDONLY, O_WRONLY, O_RDWR,	 O_CREAT,    O_EXCL,
				 O_TRUNC,  O_APPEND, O_NONBLOCK, O_DIRECTORY};

/* What each task's fds were opened with, to know O_APPEND. */
static unsigned int fd_flags[2][NR_OPEN_DEFAULT];
#define FD_FLAGS(fd) fd_flags[current_task - tasks][fd]
static char io_buf[IO_MAX], io_check[IO_MAX];

static const char *tree_path(struct fuzz_input *in)
{
	return tree_paths[take_below(in, ARRAY_SIZE(tree_paths))];
}

static const char *any_path(struct fuzz_input *in)
{
	unsigned int k = take_below(in, ARRAY_SIZE(tree_paths) + ARRAY_SIZE(read_paths));

	return k < ARRAY_SIZE(tree_paths) ? tree_paths[k] : read_paths[k - ARRAY_SIZE(tree_paths)];
}

/* Mostly a small fd that may be open, sometimes one that cannot be. */
static int take_fd(struct fuzz_input *in)
{
	unsigned int k = take_u8(in);

	return k < 240 ? (int)(k % 8) : k < 250 ? (int)(k % NR_OPEN_DEFAULT) : (int)k - 256;
}

static size_t take_count(struct fuzz_input *in)
{
	unsigned int k = take_u8(in);

	return k < 200 ? k : k < 250 ? (k - 199) * 180 : IO_MAX;
}

static loff_t take_offset(struct fuzz_input *in)
{
	static const loff_t odd[] = {-1, -4096, (loff_t)1 << 40, INT64_MAX, INT64_MIN, 4095, 4096};
	unsigned int k = take_u8(in);

	return k < 200 ? (loff_t)k * 37 : odd[k % ARRAY_SIZE(odd)];
}

/* ---- the operations --------------------------------------------------------------------- */

static void op_open(struct fuzz_input *in)
{
	unsigned int bits = take_u8(in) | take_u8(in) << 8;
	int flags = 0;

	for (size_t i = 0; i < ARRAY_SIZE(open_flags); i++)
		if (bits & (1u << i))
			flags |= open_flags[i];
	/* Creating or truncating is for paths under /fz only. */
	const char *path = flags & (O_CREAT | O_TRUNC) ? tree_path(in) : any_path(in);
	int fd = vfs_open(path, flags, 0644);

	TRACE("open(\"%.40s\", %#o) = %d\n", path, flags, fd);
	CHECK(IS_ERR_OR(fd, fd < NR_OPEN_DEFAULT));
	if (fd >= 0)
		FD_FLAGS(fd) = flags;
}

/*
 * Write at an offset, and read it back: ramfs must return what it was given. Or write a number
 * (with a newline, as echo does), which is what fz_value takes.
 */
static void op_write(struct fuzz_input *in)
{
	int fd = take_fd(in);
	size_t count = take_count(in);
	loff_t off = take_offset(in);
	unsigned int seed = take_u8(in);
	bool number = seed & 0x80;
	struct kstat st;

	if (number)
		count = snprintf(io_buf, sizeof(io_buf), "%u\n", (seed & 0x7f) * 37);
	else
		for (size_t i = 0; i < count; i++)
			io_buf[i] = 'A' + (seed + i * 7) % 26;
	if (vfs_lseek(fd, off, SEEK_SET) != off)
		return;
	ssize_t n = vfs_write(fd, io_buf, count);

	TRACE("pwrite(%d, %zu, %ld) = %zd\n", fd, count, (long)off, n);
	CHECK(IS_ERR_OR(n, (size_t)n <= count));
	if (number || !n || n != (ssize_t)count || fd < 0 || fd >= NR_OPEN_DEFAULT ||
	    (FD_FLAGS(fd) & O_APPEND))
		return;
	CHECK(vfs_fstat(fd, &st) == 0 && st.size >= off + (loff_t)count);
	if (vfs_lseek(fd, off, SEEK_SET) != off || vfs_read(fd, io_check, count) != (ssize_t)count)
		return; /* opened write-only */
	CHECK(memcmp(io_buf, io_check, count) == 0);
}

static void op_read(struct fuzz_input *in)
{
	int fd = take_fd(in);
	size_t count = take_count(in);
	ssize_t n = vfs_read(fd, io_buf, count);

	TRACE("read(%d, %zu) = %zd\n", fd, count, n);
	CHECK(IS_ERR_OR(n, (size_t)n <= count));
}

static void op_lseek(struct fuzz_input *in)
{
	int fd = take_fd(in);
	loff_t off = take_offset(in);
	int whence = (int)take_below(in, 4); /* 3 is not a valid whence */
	loff_t pos = vfs_lseek(fd, off, whence);

	TRACE("lseek(%d, %ld, %d) = %ld\n", fd, (long)off, whence, (long)pos);
	CHECK(IS_ERR_OR(pos, true));
	if (pos >= 0 && whence == SEEK_SET)
		CHECK(pos == off);
}

static void op_readdir(struct fuzz_input *in)
{
	int fd = take_fd(in);
	struct dirent de;

	for (int i = take_below(in, 8); i >= 0; i--) {
		int ret = vfs_readdir(fd, &de);

		CHECK(IS_ERR_OR(ret, ret <= 1));
		if (ret != 1)
			break;
		CHECK(memchr(de.d_name, '\0', sizeof(de.d_name)) && de.d_name[0]);
	}
}

static void op_getcwd(struct fuzz_input *in)
{
	char buf[64];
	size_t size = take_below(in, sizeof(buf) + 1);
	int n = vfs_getcwd(buf, size);

	if (n >= 0)
		CHECK((size_t)n < size && buf[0] == '/' && strlen(buf) == (size_t)n);
}

static void op_stat(struct fuzz_input *in)
{
	struct kstat st;
	int err = take_u8(in) & 1 ? vfs_fstat(take_fd(in), &st) : vfs_stat(any_path(in), &st);

	CHECK(IS_ERR_OR(err, err == 0 && st.size >= 0));
}

static void op_mount_list(struct fuzz_input *in)
{
	char buf[256];
	size_t size = take_below(in, sizeof(buf) + 1);
	int n = vfs_mount_list(buf, size);

	CHECK(IS_ERR_OR(n, true));
	if (size && n >= 0)
		CHECK(strlen(buf) == MIN((size_t)n, size - 1));
}

static void op_dup(struct fuzz_input *in)
{
	int oldfd = take_fd(in), newfd = take_u8(in) & 1 ? take_fd(in) : -1;
	int fd = newfd < 0 ? vfs_dup(oldfd) : vfs_dup2(oldfd, newfd);

	TRACE("dup2(%d, %d) = %d\n", oldfd, newfd, fd);
	CHECK(IS_ERR_OR(fd, fd < NR_OPEN_DEFAULT));
	if (fd >= 0)
		FD_FLAGS(fd) = FD_FLAGS(oldfd);
}

/* fork() when there is no child (it shares every open file), its exit when there is. */
static void op_fork(void)
{
	if (have_child) {
		current_task = &tasks[0];
		fs_context_exit(&tasks[1]);
		have_child = false;
		TRACE("child exits\n");
		return;
	}
	fs_context_copy(&tasks[1], &tasks[0]);
	memcpy(fd_flags[1], fd_flags[0], sizeof(fd_flags[0]));
	have_child = true;
	TRACE("fork\n");
}

/* An instance directory in the boot tree, or a path under /fz. */
static const char *dir_path(struct fuzz_input *in)
{
	return take_u8(in) & 1 ? tree_path(in) : instance_paths[take_below(in, 3)];
}

static void run_op(struct fuzz_input *in)
{
	const char *what = NULL, *path = NULL, *path2 = NULL;
	int err = 0, fd = 0;

	switch (take_below(in, 20)) {
	case 0:
		op_open(in);
		break;
	case 1:
		fd = take_fd(in);
		err = vfs_close(fd);
		TRACE("close(%d) = %d\n", fd, err);
		break;
	case 2:
		op_read(in);
		break;
	case 3:
		op_write(in);
		break;
	case 4:
		op_lseek(in);
		break;
	case 5:
		what = "mkdir", path = dir_path(in);
		err = vfs_mkdir(path, 0755);
		break;
	case 6:
		what = "rmdir", path = dir_path(in);
		err = vfs_rmdir(path);
		break;
	case 7:
		what = "unlink", path = tree_path(in);
		err = vfs_unlink(path);
		break;
	case 8:
		op_dup(in);
		break;
	case 9:
		what = "mount", path = fs_types[take_below(in, ARRAY_SIZE(fs_types))];
		path2 = tree_path(in);
		err = vfs_mount(path, path2);
		break;
	case 10:
		what = "umount", path = tree_path(in);
		err = vfs_umount(path);
		break;
	case 11:
		what = "rename", path = tree_path(in), path2 = tree_path(in);
		err = vfs_rename(path, path2);
		break;
	case 12: {
		loff_t len;

		if (take_u8(in) & 1) {
			fd = take_fd(in), len = take_offset(in);
			err = vfs_ftruncate(fd, len);
			TRACE("ftruncate(%d, %ld) = %d\n", fd, (long)len, err);
		} else {
			path = tree_path(in), len = take_offset(in);
			err = vfs_truncate(path, len);
			TRACE("truncate(\"%.40s\", %ld) = %d\n", path, (long)len, err);
		}
		break;
	}
	case 13:
		what = "chdir", path = cwd_paths[take_below(in, ARRAY_SIZE(cwd_paths))];
		err = vfs_chdir(path);
		break;
	case 14:
		switch (take_below(in, 4)) {
		case 0:
			op_stat(in);
			break;
		case 1:
			op_readdir(in);
			break;
		case 2:
			op_getcwd(in);
			break;
		default:
			op_mount_list(in);
			break;
		}
		break;
	case 15:
		TRACE("toggle fz_tmp\n");
		fuzz_files_toggle_tmp();
		break;
	case 16:
		what = "mknod", path = tree_path(in);
		err = vfs_mknod(path, S_IFCHR | 0600, &fuzz_null_fops);
		break;
	case 17:
		op_fork();
		break;
	case 18:
		current_task = have_child && current_task == &tasks[0] ? &tasks[1] : &tasks[0];
		TRACE("now running as task %d\n", (int)(current_task - tasks));
		break;
	default:
		host_kmalloc_fail_at = take_below(in, 8);
		TRACE("fail kmalloc #%ld from now\n", host_kmalloc_fail_at);
		break;
	}
	if (what)
		TRACE("%s(\"%.40s\"%s%.40s%s) = %d\n", what, path, path2 ? ", \"" : "",
		      path2 ? path2 : "", path2 ? "\"" : "", err);
	CHECK(IS_ERR_OR(err, err == 0));
	CHECK(lock_depth == 0);
}

/* ---- teardown --------------------------------------------------------------------------- */

#define MAX_CHILDREN 64

/* The names in a directory but "." and "..", at most MAX_CHILDREN (names may be NULL): how many. */
static int list_children(const char *path, char (*names)[NAME_MAX + 1])
{
	struct dirent de;
	int n = 0, fd = vfs_open(path, O_RDONLY | O_DIRECTORY, 0);

	if (fd < 0)
		return 0;
	while (n < MAX_CHILDREN && vfs_readdir(fd, &de) == 1) {
		if (!strcmp(de.d_name, ".") || !strcmp(de.d_name, ".."))
			continue;
		if (names)
			strcpy(names[n], de.d_name);
		n++;
	}
	vfs_close(fd);
	return n;
}

/*
 * Removes what can be removed at and below path, mounts included: unmount what is mounted on
 * it, remove (recursively) what is in it, and again while that makes progress, since a mount
 * may only go once the mounts below it have gone. The pseudo file systems' files cannot be
 * removed, but unmounting takes them away from /fz all the same.
 */
static void remove_tree(const char *path, bool keep_top)
{
	struct kstat st;

	if (vfs_stat(path, &st) < 0)
		return;
	if (!S_ISDIR(st.mode)) {
		vfs_unlink(path);
		return;
	}
	char(*names)[NAME_MAX + 1] = malloc(MAX_CHILDREN * sizeof(*names));
	char *child = malloc(PATH_MAX);

	for (bool progress = true; progress;) {
		int n = list_children(path, names);

		for (int i = 0; i < n; i++) {
			snprintf(child, PATH_MAX, "%s/%s", path, names[i]);
			remove_tree(child, false);
		}
		progress = vfs_umount(path) == 0;
	}
	if (!keep_top)
		vfs_rmdir(path);
	free(child);
	free(names);
}

static char boot_mounts[MOUNTS_MAX];
static long live_before;

static void setup_once(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	verbose = getenv("FUZZ_VFS_TRACE") != NULL;
	CHECK(vfs_init() == 0);
	fs_context_init(&tasks[0]);
	fuzz_files_init();
	CHECK(vfs_mkdir("/fz", 0755) == 0);
	memset(long_name, 'n', sizeof(long_name) - 1);
	memset(long_path, '/', sizeof(long_path) - 1);
	memcpy(long_path, "/fz/a", 5);
	vfs_mount_list(boot_mounts, sizeof(boot_mounts));
	live_before = host_kmalloc_live;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = {data, size};
	char mounts[MOUNTS_MAX];

	setup_once();
	CHECK(vfs_mount("ramfs", "/fz") == 0);
	CHECK(vfs_chdir("/fz") == 0);
	for (int i = 0; i < MAX_OPS && in.n; i++)
		run_op(&in);

	host_kmalloc_fail_at = 0;
	if (have_child)
		op_fork(); /* its exit */
	for (int fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		vfs_close(fd);
	CHECK(vfs_chdir("/") == 0);
	fuzz_files_reset();
	remove_tree("/fz", true);
	CHECK(list_children("/fz", NULL) == 0);
	CHECK(host_kmalloc_live == live_before);
	vfs_mount_list(mounts, sizeof(mounts));
	CHECK(strcmp(mounts, boot_mounts) == 0);
	return 0;
}
