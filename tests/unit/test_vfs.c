/*
 * Tests for the VFS (kernel/fs/vfs.c, namei.c, dcache.c, file.c, mount.c), ramfs and the pseudo
 * file systems. One VFS is built by vfs_init() for the whole run, as at boot; each test works
 * in its own directory, removes what it made, and checks that every allocation came back.
 * The task's fs_context is a global here; the kernel gives each task its own.
 */
/* lib/compiler.h first: glibc's cdefs.h tolerates its __always_inline, not the reverse. */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>
#include "kernel/fs/vfs.h"
#include "kernel/fs/vfs_internal.h" /* vfs_lock, vfs_block: stood in for below */
#include "kernel/fs/debugfs.h"
#include "kernel/fs/tracefs.h"
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/fs/seq_file.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"
#include "tests/unit/host_kmalloc.h"
#include "tests/unit/host_rlimit.h"
#include "tests/unit/host_vfs_lock.h"

static struct fs_context task_a, task_b, *current;
static long live_start;

struct fs_context *current_fs(void)
{
	return current;
}

/* Every test task has a table of its own, as the kernel's user processes. */
struct file *fget_unlocked(int fd)
{
	return fget(fd);
}

/* The VFS lock is a depth counter here (tests/unit/host_vfs_lock.c). */
static int would_sleep;

/* One try; where the kernel would sleep, count it and give back the -EAGAIN. */
ssize_t vfs_block(struct file *file, vfs_io_fn io, int fd, void *buf, size_t count)
{
	ssize_t ret;

	(void)fd; /* looked up again only after a sleep, which the host never does */
	assert_int_equal(host_vfs_lock_depth, 1);
	ret = io(file, buf, count);
	if (ret == -EAGAIN && file && file->f_op->wait_queue && !(file->f_flags & O_NONBLOCK))
		would_sleep++;
	return ret;
}

/* ---- helpers ---------------------------------------------------------------------------- */

static int write_file(const char *path, int flags, const char *text)
{
	int fd = vfs_open(path, O_WRONLY | O_CREAT | flags, 0644);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = vfs_write(fd, text, strlen(text));
	vfs_close(fd);
	return n < 0 ? (int)n : 0;
}

/* The whole file, NUL-terminated, in a static buffer; or "ERR<n>". */
static const char *cat(const char *path)
{
	static char buf[8192];
	size_t len = 0;
	int fd = vfs_open(path, O_RDONLY, 0);
	ssize_t n;

	if (fd < 0) {
		snprintf(buf, sizeof(buf), "ERR%d", fd);
		return buf;
	}
	while ((n = vfs_read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	vfs_close(fd);
	buf[len] = '\0';
	return buf;
}

/* The names in a directory, without "." and "..", separated by spaces; or "ERR<n>". */
static const char *ls(const char *path)
{
	static char buf[8192];
	struct dirent de;
	size_t len = 0;
	int fd = vfs_open(path, O_RDONLY | O_DIRECTORY, 0), n;

	buf[0] = '\0';
	if (fd < 0) {
		snprintf(buf, sizeof(buf), "ERR%d", fd);
		return buf;
	}
	while ((n = vfs_readdir(fd, &de)) == 1) {
		if (strcmp(de.d_name, ".") == 0 || strcmp(de.d_name, "..") == 0)
			continue;
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", len ? " " : "",
					de.d_name);
	}
	assert_int_equal(n, 0);
	vfs_close(fd);
	return buf;
}

static unsigned long ino(const char *path)
{
	struct kstat st;

	return vfs_stat(path, &st) == 0 ? st.ino : 0;
}

static int stat_err(const char *path)
{
	struct kstat st;

	return vfs_stat(path, &st);
}

/* rm -r, ignoring errors: used to clean up after failures. */
static void rm_rf(const char *path)
{
	struct kstat st;
	struct dirent de;
	char child[512];
	int fd;

	if (vfs_lstat(path, &st) < 0) /* a link is removed, not followed */
		return;
	if (!S_ISDIR(st.mode)) {
		vfs_unlink(path);
		return;
	}
	fd = vfs_open(path, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0)
		return;
	while (vfs_readdir(fd, &de) == 1) {
		if (strcmp(de.d_name, ".") == 0 || strcmp(de.d_name, "..") == 0)
			continue;
		snprintf(child, sizeof(child), "%s/%s", path, de.d_name);
		rm_rf(child);
		vfs_lseek(fd, 0, SEEK_SET); /* the listing shifted under us */
	}
	vfs_close(fd);
	vfs_rmdir(path);
}

static void assert_no_open_fds(struct fs_context *fs)
{
	for (int fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		assert_null(fs->fd[fd]);
}

/* Every test ends here: no file left open, every allocation given back. */
static void end_test(void)
{
	assert_int_equal(host_vfs_lock_depth, 0);
	assert_int_equal(vfs_chdir("/"), 0);
	assert_no_open_fds(&task_a);
	assert_int_equal(host_kmalloc_live, live_start);
}

/* A pseudo file that records what happens to it. i_private points at one of these. */
struct recorder {
	char written[256];
	size_t len;
	int opens, writes, releases;
	unsigned int open_flags;
	const char *text; /* what reading shows */
};

static int rec_open(struct inode *inode, struct file *file)
{
	struct recorder *r = inode->i_private;

	r->opens++;
	r->open_flags = file->f_flags;
	file->private_data = r;
	return 0;
}

static ssize_t rec_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct recorder *r = file->private_data;

	return simple_read_from_buffer(buf, count, pos, r->text, strlen(r->text));
}

static ssize_t rec_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct recorder *r = file->private_data;

	if (r->len + count > sizeof(r->written))
		return -ENOSPC;
	memcpy(r->written + r->len, buf, count);
	r->len += count;
	r->writes++;
	*pos += (loff_t)count;
	return (ssize_t)count;
}

static int rec_release(struct inode *inode, struct file *file)
{
	struct recorder *r = file->private_data;

	assert_ptr_equal(inode->i_private, r);
	r->releases++;
	return 0;
}

static const struct file_operations rec_fops = {
	.open = rec_open,
	.read = rec_read,
	.write = rec_write,
	.release = rec_release,
};

/* trace_pipe's shape: nothing to read yet. Waiting is the caller's business, not the VFS's. */
static ssize_t pipe_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)buf;
	(void)count;
	(void)pos;
	return file->f_flags & O_NONBLOCK ? -EAGAIN : 0;
}

static const struct file_operations pipe_fops = {
	.read = pipe_read,
	.llseek = no_llseek,
};

static const struct file_operations read_only_fops = {
	.open = rec_open,
	.read = rec_read,
	.release = rec_release,
};

/* ---- setup ------------------------------------------------------------------------------ */

static int group_setup(void **state)
{
	(void)state;
	if (vfs_init() != 0)
		return -1;
	fs_context_init(&task_a);
	current = &task_a;
	return 0;
}

static int test_setup(void **state)
{
	(void)state;
	current = &task_a;
	host_kmalloc_fail_at = 0;
	if (vfs_chdir("/") != 0)
		return -1;
	live_start = host_kmalloc_live;
	return 0;
}

/* ---- boot state ------------------------------------------------------------------------- */

static void test_boot_tree(void **state)
{
	char buf[512];

	(void)state;
	assert_string_equal(ls("/"), "sys proc");
	assert_string_equal(ls("/sys/kernel"), "debug tracing");
	assert_string_equal(ls("/sys/kernel/debug"), "tracing");
	assert_string_equal(ls("/proc"), "mounts");
	assert_int_equal(ino("/sys/kernel/debug/tracing"), ino("/sys/kernel/tracing"));
	assert_int_equal(vfs_mount_list(buf, sizeof(buf)), 27 + 30 + 47 + 49 + 29);
	assert_string_equal(buf, "ramfs on / type ramfs (rw)\n"
				 "sysfs on /sys type sysfs (rw)\n"
				 "debugfs on /sys/kernel/debug type debugfs (rw)\n"
				 "tracefs on /sys/kernel/tracing type tracefs (rw)\n"
				 "proc on /proc type proc (rw)\n");
	assert_string_equal(cat("/proc/mounts"), "ramfs / ramfs rw 0 0\n"
						 "sysfs /sys sysfs rw 0 0\n"
						 "debugfs /sys/kernel/debug debugfs rw 0 0\n"
						 "tracefs /sys/kernel/tracing tracefs rw 0 0\n"
						 "proc /proc proc rw 0 0\n");
	/* Too small a buffer: cut, NUL-terminated, and the full length returned, as snprintf. */
	assert_int_equal(vfs_mount_list(buf, 10), 27 + 30 + 47 + 49 + 29);
	assert_string_equal(buf, "ramfs on ");
	end_test();
}

/* ---- path lookup ------------------------------------------------------------------------ */

static void test_lookup(void **state)
{
	char cwd[256];

	(void)state;
	assert_int_equal(vfs_mkdir("/lk", 0755), 0);
	assert_int_equal(vfs_mkdir("/lk/a", 0755), 0);
	assert_int_equal(vfs_mkdir("/lk/a/b", 0755), 0);
	assert_int_equal(write_file("/lk/a/b/f", 0, "data"), 0);
	unsigned long b = ino("/lk/a/b"), a = ino("/lk/a"), lk = ino("/lk"), root = ino("/");

	assert_true(b && a && lk && root);
	/* absolute, repeated and trailing slashes, ".", ".." */
	assert_int_equal(ino("//lk///a//b"), b);
	assert_int_equal(ino("/lk/a/b/"), b);
	assert_int_equal(ino("/lk/a/b//"), b);
	assert_int_equal(ino("/lk/./a/./b/."), b);
	assert_int_equal(ino("/lk/a/b/.."), a);
	assert_int_equal(ino("/lk/a/b/../../a/b/../.."), lk);
	assert_int_equal(ino("/.."), root);
	assert_int_equal(ino("/../../.."), root);
	assert_int_equal(ino("/../lk/../lk/a"), a);
	assert_int_equal(ino("///"), root);
	/* relative, from the cwd */
	assert_int_equal(vfs_chdir("/lk"), 0);
	assert_int_equal(vfs_getcwd(cwd, sizeof(cwd)), 3);
	assert_string_equal(cwd, "/lk");
	assert_int_equal(ino("a/b"), b);
	assert_int_equal(ino("./a/./b"), b);
	assert_int_equal(ino("a/b/../b/f"), ino("/lk/a/b/f"));
	assert_int_equal(ino("."), lk);
	assert_int_equal(ino(".."), root);
	assert_int_equal(ino("../.."), root);
	assert_string_equal(cat("a/b/f"), "data");
	assert_int_equal(vfs_chdir("a/b"), 0);
	assert_int_equal(vfs_getcwd(cwd, sizeof(cwd)), 7);
	assert_string_equal(cwd, "/lk/a/b");
	assert_int_equal(vfs_chdir(".."), 0);
	assert_int_equal(vfs_getcwd(cwd, sizeof(cwd)), 5);
	assert_string_equal(cwd, "/lk/a");
	assert_int_equal(vfs_getcwd(cwd, 5), -ERANGE);
	assert_int_equal(vfs_chdir("/"), 0);
	assert_int_equal(vfs_getcwd(cwd, sizeof(cwd)), 1);
	assert_string_equal(cwd, "/");
	assert_int_equal(vfs_getcwd(cwd, 1), -ERANGE);
	rm_rf("/lk");
	end_test();
}

static void test_lookup_errors(void **state)
{
	char name[300];

	(void)state;
	assert_int_equal(vfs_mkdir("/le", 0755), 0);
	assert_int_equal(write_file("/le/file", 0, "x"), 0);
	assert_int_equal(stat_err(""), -ENOENT);
	assert_int_equal(stat_err("/le/missing"), -ENOENT);
	assert_int_equal(stat_err("/le/missing/x"), -ENOENT);
	assert_int_equal(stat_err("/le/file/x"), -ENOTDIR);
	assert_int_equal(stat_err("/le/file/"), -ENOTDIR);
	assert_int_equal(stat_err("/le/file/."), -ENOTDIR);
	assert_int_equal(stat_err("/le/file/.."), -ENOTDIR);
	assert_int_equal(vfs_open("/le/file/", O_RDONLY, 0), -ENOTDIR);
	assert_int_equal(vfs_open("/le/file", O_RDONLY | O_DIRECTORY, 0), -ENOTDIR);
	assert_int_equal(vfs_chdir("/le/file"), -ENOTDIR);
	/* NAME_MAX: 255 is fine, 256 is too long, even if the file does not exist */
	memset(name, 'n', sizeof(name));
	memcpy(name, "/le/", 4);
	name[4 + 255] = '\0';
	assert_int_equal(write_file(name, 0, "long"), 0);
	assert_string_equal(cat(name), "long");
	assert_int_equal(vfs_unlink(name), 0);
	name[4 + 255] = 'n';
	name[4 + 256] = '\0';
	assert_int_equal(stat_err(name), -ENAMETOOLONG);
	assert_int_equal(vfs_open(name, O_CREAT | O_WRONLY, 0644), -ENAMETOOLONG);
	assert_int_equal(vfs_mkdir(name, 0755), -ENAMETOOLONG);
	/* PATH_MAX: a path of 4096 bytes or more, however made up */
	char *path = malloc(PATH_MAX + 2);

	for (int i = 0; i < PATH_MAX; i += 2)
		memcpy(path + i, "./", 2);
	path[PATH_MAX - 1] = '\0'; /* 4095 characters: allowed */
	assert_int_equal(ino(path), ino("/"));
	path[PATH_MAX - 1] = '.';
	path[PATH_MAX] = '\0';
	assert_int_equal(stat_err(path), -ENAMETOOLONG);
	free(path);
	/* the calls that make and remove names */
	assert_int_equal(vfs_mkdir("/le", 0755), -EEXIST);
	assert_int_equal(vfs_mkdir("/le/file", 0755), -EEXIST);
	assert_int_equal(vfs_mkdir("/", 0755), -EEXIST);
	assert_int_equal(vfs_mkdir("/le/.", 0755), -EEXIST);
	assert_int_equal(vfs_mkdir("/le/..", 0755), -EEXIST);
	assert_int_equal(vfs_mkdir("/le/missing/d", 0755), -ENOENT);
	assert_int_equal(vfs_mkdir("/le/file/d", 0755), -ENOTDIR);
	assert_int_equal(vfs_rmdir("/le/file"), -ENOTDIR);
	assert_int_equal(vfs_rmdir("/le/missing"), -ENOENT);
	assert_int_equal(vfs_rmdir("/le/."), -EINVAL);
	assert_int_equal(vfs_rmdir("/le/.."), -ENOTEMPTY);
	assert_int_equal(vfs_rmdir("/"), -EBUSY);
	assert_int_equal(vfs_unlink("/le"), -EISDIR);
	assert_int_equal(vfs_unlink("/"), -EISDIR);
	assert_int_equal(vfs_unlink("/le/file/"), -ENOTDIR);
	assert_int_equal(vfs_unlink("/le/missing"), -ENOENT);
	/* open's flag errors */
	assert_int_equal(vfs_open("/le", O_WRONLY, 0), -EISDIR);
	assert_int_equal(vfs_open("/le", O_RDWR, 0), -EISDIR);
	assert_int_equal(vfs_open("/le", O_RDONLY | O_TRUNC, 0), -EISDIR);
	assert_int_equal(vfs_open("/le", O_RDONLY | O_CREAT, 0644), -EISDIR);
	assert_int_equal(vfs_open("/", O_RDONLY | O_CREAT, 0644), -EISDIR);
	assert_int_equal(vfs_open("/le/new/", O_WRONLY | O_CREAT, 0644), -EISDIR);
	assert_int_equal(vfs_open("/le/file", O_WRONLY | O_CREAT | O_EXCL, 0644), -EEXIST);
	assert_int_equal(vfs_open("/le/file/", O_WRONLY | O_CREAT, 0644), -ENOTDIR);
	assert_int_equal(vfs_open("/le/missing", O_RDONLY, 0), -ENOENT);
	assert_int_equal(vfs_open("/le/missing/f", O_WRONLY | O_CREAT, 0644), -ENOENT);
	assert_int_equal(vfs_open("/le/file", O_ACCMODE, 0), -EINVAL);
	assert_int_equal(stat_err("/le/new"), -ENOENT); /* nothing was created by the failures */
	rm_rf("/le");
	end_test();
}

/* rmdir of the cwd: allowed, and the cwd lives on, nameless, until we leave it. */
static void test_removed_cwd(void **state)
{
	char cwd[64];
	struct kstat st;

	(void)state;
	assert_int_equal(vfs_mkdir("/cw", 0755), 0);
	assert_int_equal(vfs_mkdir("/cw/d", 0755), 0);
	assert_int_equal(vfs_chdir("/cw/d"), 0);
	assert_int_equal(vfs_rmdir("/cw/d"), 0);
	assert_int_equal(vfs_getcwd(cwd, sizeof(cwd)), -ENOENT);
	assert_int_equal(vfs_stat(".", &st), 0);
	assert_true(S_ISDIR(st.mode));
	assert_int_equal(st.nlink, 0);
	assert_int_equal(vfs_open("x", O_WRONLY | O_CREAT, 0644), -ENOENT);
	assert_int_equal(vfs_mkdir("x", 0755), -ENOENT);
	assert_int_equal(vfs_open(".", O_RDONLY, 0), 0);
	struct dirent de;

	assert_int_equal(vfs_readdir(0, &de), -ENOENT);
	assert_int_equal(vfs_close(0), 0);
	assert_int_equal(vfs_chdir(".."), 0);
	assert_int_equal(vfs_getcwd(cwd, sizeof(cwd)), 3);
	assert_string_equal(cwd, "/cw");
	assert_int_equal(vfs_rmdir("/cw"), 0);
	end_test();
}

/* ---- ramfs -------------------------------------------------------------------------------- */

static void test_ramfs_read_write_lseek(void **state)
{
	char buf[64];
	struct kstat st;
	int fd;

	(void)state;
	assert_int_equal(vfs_mkdir("/rw", 0755), 0);
	fd = vfs_open("/rw/f", O_RDWR | O_CREAT, 0644);
	assert_int_equal(fd, 0);
	assert_int_equal(vfs_write(fd, "hello", 5), 5);
	assert_int_equal(vfs_read(fd, buf, sizeof(buf)), 0); /* at the end */
	assert_int_equal(vfs_lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(vfs_read(fd, buf, sizeof(buf)), 5);
	assert_memory_equal(buf, "hello", 5);
	assert_int_equal(vfs_lseek(fd, -2, SEEK_END), 3);
	assert_int_equal(vfs_read(fd, buf, sizeof(buf)), 2);
	assert_memory_equal(buf, "lo", 2);
	assert_int_equal(vfs_lseek(fd, -4, SEEK_CUR), 1);
	assert_int_equal(vfs_write(fd, "EL", 2), 2);
	assert_int_equal(vfs_lseek(fd, -1, SEEK_SET), -EINVAL);
	assert_int_equal(vfs_lseek(fd, -100, SEEK_END), -EINVAL);
	assert_int_equal(vfs_lseek(fd, 0, 7), -EINVAL);
	assert_int_equal(vfs_lseek(fd, 0, SEEK_CUR), 3); /* failures did not move it */
	assert_int_equal(vfs_write(fd, "", 0), 0);
	/* Past the end: the hole reads as zeros. */
	assert_int_equal(vfs_lseek(fd, 10000, SEEK_SET), 10000);
	assert_int_equal(vfs_write(fd, "!", 1), 1);
	assert_int_equal(vfs_fstat(fd, &st), 0);
	assert_int_equal(st.size, 10001);
	assert_true(S_ISREG(st.mode));
	assert_int_equal(st.mode & 0777, 0644);
	assert_int_equal(st.nlink, 1);
	assert_int_equal(vfs_lseek(fd, 4, SEEK_SET), 4);
	assert_int_equal(vfs_read(fd, buf, 4), 4);
	assert_memory_equal(buf, "o\0\0\0", 4);
	assert_int_equal(vfs_lseek(fd, 9998, SEEK_SET), 9998);
	assert_int_equal(vfs_read(fd, buf, sizeof(buf)), 3);
	assert_memory_equal(buf, "\0\0!", 3);
	assert_int_equal(vfs_close(fd), 0);
	assert_int_equal(vfs_close(fd), -EBADF);
	assert_int_equal(vfs_read(fd, buf, 1), -EBADF);
	assert_int_equal(vfs_read(-1, buf, 1), -EBADF);
	assert_int_equal(vfs_write(NR_OPEN_DEFAULT, buf, 1), -EBADF);
	assert_int_equal(vfs_lseek(99, 0, SEEK_SET), -EBADF);
	/* Access modes: no reading through O_WRONLY, no writing through O_RDONLY. */
	fd = vfs_open("/rw/f", O_WRONLY, 0);
	assert_int_equal(vfs_read(fd, buf, 1), -EBADF);
	vfs_close(fd);
	fd = vfs_open("/rw/f", O_RDONLY, 0);
	assert_int_equal(vfs_write(fd, "x", 1), -EBADF);
	assert_int_equal(vfs_read(fd, buf, 5), 5);
	assert_memory_equal(buf, "hELlo", 5);
	vfs_close(fd);
	/* A directory opened for reading: no read(), but readdir. */
	fd = vfs_open("/rw", O_RDONLY, 0);
	assert_int_equal(vfs_read(fd, buf, 1), -EISDIR);
	vfs_close(fd);
	/* Beyond ramfs's size limit. */
	fd = vfs_open("/rw/f", O_WRONLY, 0);
	assert_int_equal(vfs_lseek(fd, 1L << 30, SEEK_SET), 1L << 30);
	assert_int_equal(vfs_write(fd, "x", 1), -EFBIG);
	vfs_close(fd);
	assert_int_equal(vfs_truncate("/rw/f", (1L << 30) + 1), -EFBIG);
	rm_rf("/rw");
	end_test();
}

static void test_ramfs_append_truncate(void **state)
{
	struct kstat st;
	char buf[16];
	int fd;

	(void)state;
	assert_int_equal(vfs_mkdir("/at", 0755), 0);
	assert_int_equal(write_file("/at/f", 0, "one"), 0);
	assert_int_equal(write_file("/at/f", O_APPEND, "two"), 0);
	assert_string_equal(cat("/at/f"), "onetwo");
	/* O_APPEND writes at the end even after a seek */
	fd = vfs_open("/at/f", O_RDWR | O_APPEND, 0);
	assert_int_equal(vfs_lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(vfs_write(fd, "3", 1), 1);
	assert_int_equal(vfs_lseek(fd, 0, SEEK_CUR), 7);
	vfs_close(fd);
	assert_string_equal(cat("/at/f"), "onetwo3");
	/* without O_TRUNC, a write overwrites in place */
	assert_int_equal(write_file("/at/f", 0, "ON"), 0);
	assert_string_equal(cat("/at/f"), "ONetwo3");
	assert_int_equal(write_file("/at/f", O_TRUNC, "new"), 0);
	assert_string_equal(cat("/at/f"), "new");
	/* O_TRUNC on its own, as "> file" with nothing written */
	fd = vfs_open("/at/f", O_WRONLY | O_TRUNC, 0);
	vfs_close(fd);
	assert_int_equal(vfs_stat("/at/f", &st), 0);
	assert_int_equal(st.size, 0);
	/* truncate cuts, and extending again shows zeros, not the old bytes */
	assert_int_equal(write_file("/at/f", 0, "abcdefgh"), 0);
	assert_int_equal(vfs_truncate("/at/f", 2), 0);
	assert_int_equal(vfs_truncate("/at/f", 6), 0);
	fd = vfs_open("/at/f", O_RDONLY, 0);
	assert_int_equal(vfs_read(fd, buf, sizeof(buf)), 6);
	assert_memory_equal(buf, "ab\0\0\0\0", 6);
	assert_int_equal(vfs_ftruncate(fd, 0), -EINVAL); /* not open for writing */
	vfs_close(fd);
	fd = vfs_open("/at/f", O_RDWR, 0);
	assert_int_equal(vfs_ftruncate(fd, 1), 0);
	assert_int_equal(vfs_ftruncate(fd, -1), -EINVAL);
	assert_int_equal(vfs_read(fd, buf, sizeof(buf)), 1);
	vfs_close(fd);
	assert_int_equal(vfs_truncate("/at/f", -1), -EINVAL);
	assert_int_equal(vfs_truncate("/at", 0), -EISDIR);
	assert_int_equal(vfs_truncate("/at/missing", 0), -ENOENT);
	assert_int_equal(vfs_truncate("/at/f", 0), 0);
	assert_string_equal(cat("/at/f"), "");
	rm_rf("/at");
	end_test();
}

static void test_ramfs_unlink_rmdir(void **state)
{
	char buf[8];
	int fd;

	(void)state;
	assert_int_equal(vfs_mkdir("/ur", 0755), 0);
	assert_int_equal(vfs_mkdir("/ur/d", 0755), 0);
	assert_int_equal(write_file("/ur/d/f", 0, "keep"), 0);
	assert_int_equal(vfs_rmdir("/ur/d"), -ENOTEMPTY);
	assert_int_equal(vfs_rmdir("/ur"), -ENOTEMPTY);
	/* An unlinked file stays usable through an open descriptor. */
	fd = vfs_open("/ur/d/f", O_RDWR, 0);
	assert_int_equal(vfs_unlink("/ur/d/f"), 0);
	assert_int_equal(stat_err("/ur/d/f"), -ENOENT);
	assert_int_equal(vfs_unlink("/ur/d/f"), -ENOENT);
	assert_string_equal(ls("/ur/d"), "");
	assert_int_equal(vfs_rmdir("/ur/d/"), 0);
	assert_int_equal(vfs_write(fd, "K", 1), 1);
	assert_int_equal(vfs_lseek(fd, 0, SEEK_SET), 0);
	assert_int_equal(vfs_read(fd, buf, sizeof(buf)), 4);
	assert_memory_equal(buf, "Keep", 4);
	assert_true(host_kmalloc_live > live_start);
	assert_int_equal(vfs_close(fd), 0); /* now file and directory are freed */
	assert_int_equal(vfs_rmdir("/ur"), 0);
	assert_int_equal(stat_err("/ur"), -ENOENT);
	end_test();
}

static void test_ramfs_1mib_file(void **state)
{
	static unsigned char chunk[4093], back[4093];
	const long size = 1 << 20;
	struct kstat st;
	long done = 0;
	int fd;

	(void)state;
	fd = vfs_open("/big", O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	/* Written in 1000-byte pieces: every piece boundary lands somewhere else in a page. */
	while (done < size) {
		long n = MIN(1000, size - done);

		for (long i = 0; i < n; i++)
			chunk[i] = (unsigned char)((done + i) * 31 + 7);
		assert_int_equal(vfs_write(fd, chunk, (size_t)n), n);
		done += n;
	}
	assert_int_equal(vfs_fstat(fd, &st), 0);
	assert_int_equal(st.size, size);
	assert_int_equal(vfs_lseek(fd, 0, SEEK_SET), 0);
	for (done = 0; done < size;) {
		ssize_t n = vfs_read(fd, back, sizeof(back));

		assert_true(n > 0);
		for (ssize_t i = 0; i < n; i++)
			chunk[i] = (unsigned char)((done + i) * 31 + 7);
		assert_memory_equal(back, chunk, (size_t)n);
		done += n;
	}
	assert_int_equal(vfs_read(fd, back, sizeof(back)), 0);
	/* Truncating to the middle of a page frees the pages beyond it. */
	long before = host_kmalloc_live;

	assert_int_equal(vfs_ftruncate(fd, 5000), 0);
	assert_int_equal(host_kmalloc_live, before - (256 - 2));
	assert_int_equal(vfs_close(fd), 0);
	assert_int_equal(vfs_unlink("/big"), 0);
	end_test();
}

static void test_ramfs_1000_files(void **state)
{
	char name[32];
	struct kstat st;

	(void)state;
	assert_int_equal(vfs_mkdir("/many", 0755), 0);
	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "/many/file%d", i);
		assert_int_equal(write_file(name, 0, name), 0);
	}
	assert_int_equal(vfs_stat("/many/file999", &st), 0);
	assert_int_equal(st.size, strlen("/many/file999"));
	assert_string_equal(cat("/many/file500"), "/many/file500");
	int fd = vfs_open("/many", O_RDONLY | O_DIRECTORY, 0), count = 0;
	struct dirent de;

	while (vfs_readdir(fd, &de) == 1)
		count++;
	vfs_close(fd);
	assert_int_equal(count, 1002);
	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "/many/file%d", i);
		assert_int_equal(vfs_unlink(name), 0);
	}
	assert_int_equal(vfs_rmdir("/many"), 0);
	end_test();
}

static void test_readdir(void **state)
{
	struct dirent de;
	struct kstat st;
	int fd;

	(void)state;
	assert_int_equal(vfs_mkdir("/rd", 0755), 0);
	assert_int_equal(write_file("/rd/zeta", 0, ""), 0);
	assert_int_equal(vfs_mkdir("/rd/alpha", 0755), 0);
	assert_int_equal(write_file("/rd/mid", 0, ""), 0);
	fd = vfs_open("/rd", O_RDONLY, 0);
	assert_int_equal(vfs_readdir(fd, &de), 1);
	assert_string_equal(de.d_name, ".");
	assert_int_equal(de.d_type, DT_DIR);
	assert_int_equal(de.d_ino, ino("/rd"));
	assert_int_equal(vfs_readdir(fd, &de), 1);
	assert_string_equal(de.d_name, "..");
	assert_int_equal(de.d_ino, ino("/"));
	assert_int_equal(vfs_readdir(fd, &de), 1);
	assert_string_equal(de.d_name, "zeta"); /* in the order they were made */
	assert_int_equal(de.d_type, DT_REG);
	assert_int_equal(vfs_readdir(fd, &de), 1);
	assert_string_equal(de.d_name, "alpha");
	assert_int_equal(de.d_type, DT_DIR);
	assert_int_equal(de.d_ino, ino("/rd/alpha"));
	assert_int_equal(vfs_readdir(fd, &de), 1);
	assert_string_equal(de.d_name, "mid");
	assert_int_equal(vfs_readdir(fd, &de), 0);
	assert_int_equal(vfs_readdir(fd, &de), 0);
	assert_int_equal(vfs_lseek(fd, 0, SEEK_SET), 0); /* rewinddir */
	assert_int_equal(vfs_readdir(fd, &de), 1);
	assert_string_equal(de.d_name, ".");
	vfs_close(fd);
	fd = vfs_open("/rd/mid", O_RDONLY, 0);
	assert_int_equal(vfs_readdir(fd, &de), -ENOTDIR);
	vfs_close(fd);
	assert_int_equal(vfs_readdir(fd, &de), -EBADF);
	/* stat of a directory: links from its parent, its ".", and each subdirectory's ".." */
	assert_int_equal(vfs_stat("/rd", &st), 0);
	assert_true(S_ISDIR(st.mode));
	assert_int_equal(st.mode & 0777, 0755);
	assert_int_equal(st.nlink, 3);
	rm_rf("/rd");
	end_test();
}

static void test_rename(void **state)
{
	int fd;

	(void)state;
	assert_int_equal(vfs_mkdir("/rn", 0755), 0);
	assert_int_equal(vfs_mkdir("/rn/d", 0755), 0);
	assert_int_equal(vfs_mkdir("/rn/d/sub", 0755), 0);
	assert_int_equal(vfs_mkdir("/rn/e", 0755), 0);
	assert_int_equal(write_file("/rn/a", 0, "A"), 0);
	assert_int_equal(write_file("/rn/b", 0, "B"), 0);
	fd = vfs_open("/rn/a", O_RDWR | O_APPEND, 0);
	/* in place, to a longer name */
	assert_int_equal(vfs_rename("/rn/a", "/rn/a-renamed-to-something-longer"), 0);
	assert_int_equal(stat_err("/rn/a"), -ENOENT);
	assert_int_equal(vfs_write(fd, "a", 1), 1); /* the open file moved with its name */
	assert_string_equal(cat("/rn/a-renamed-to-something-longer"), "Aa");
	/* over an existing file, which goes */
	assert_int_equal(vfs_rename("/rn/a-renamed-to-something-longer", "/rn/b"), 0);
	assert_string_equal(cat("/rn/b"), "Aa");
	assert_string_equal(ls("/rn"), "d e b");
	/* into another directory, and a directory with its contents */
	assert_int_equal(vfs_rename("/rn/b", "/rn/d/sub/b"), 0);
	assert_int_equal(vfs_rename("/rn/d", "/rn/e/d2"), 0);
	assert_string_equal(cat("/rn/e/d2/sub/b"), "Aa");
	assert_int_equal(ino("/rn/e/d2/sub/.."), ino("/rn/e/d2"));
	assert_int_equal(ino("/rn/e/d2/.."), ino("/rn/e"));
	/* errors */
	assert_int_equal(vfs_rename("/rn/e", "/rn/e/d2/x"), -EINVAL);
	assert_int_equal(vfs_rename("/rn/e", "/rn/e/x"), -EINVAL);
	assert_int_equal(vfs_rename("/rn/missing", "/rn/x"), -ENOENT);
	assert_int_equal(vfs_rename("/rn/e/d2/sub/b", "/rn/e/d2"), -EISDIR);
	assert_int_equal(vfs_rename("/rn/e/d2", "/rn/e/d2/sub/b"), -EINVAL);
	assert_int_equal(vfs_mkdir("/rn/f", 0755), 0);
	assert_int_equal(write_file("/rn/file", 0, "F"), 0);
	assert_int_equal(vfs_rename("/rn/f", "/rn/file"), -ENOTDIR);
	assert_int_equal(vfs_rename("/rn/file/", "/rn/g"), -ENOTDIR);
	assert_int_equal(vfs_rename("/rn/f", "/rn/e"), -ENOTEMPTY);
	assert_int_equal(vfs_rename("/rn/f", "/rn/e/d2/sub"), -ENOTEMPTY);
	assert_int_equal(vfs_mkdir("/rn/h", 0755), 0);
	assert_int_equal(vfs_rename("/rn/f", "/rn/h"), 0); /* over an empty directory */
	assert_int_equal(stat_err("/rn/f"), -ENOENT);
	assert_int_equal(vfs_rename("/rn/file", "/rn/file"), 0);
	assert_int_equal(vfs_rename("/rn/file", "/proc/file"), -EXDEV);
	assert_int_equal(vfs_rename("/", "/rn/x"), -EBUSY);
	assert_int_equal(vfs_rename("/proc/mounts", "/proc/m"), -EPERM);
	assert_string_equal(cat("/rn/file"), "F");
	vfs_close(fd);
	rm_rf("/rn");
	end_test();
}

/* ---- mounts ------------------------------------------------------------------------------- */

static void test_mount_debugfs(void **state)
{
	static struct recorder r = { .text = "hi\n" };
	char cwd[64], list[512];
	struct dentry *f;

	(void)state;
	/* The article's "mkdir /debug; mount -t debugfs nodev /debug; ls /debug/tracing". */
	assert_int_equal(vfs_mkdir("/debug", 0755), 0);
	assert_string_equal(ls("/debug"), "");
	assert_int_equal(vfs_mount("debugfs", "/debug"), 0);
	assert_string_equal(ls("/debug"), "tracing");
	f = tracefs_create_file("hello", 0444, NULL, &r, &read_only_fops);
	assert_non_null(f);
	/* One tree, seen through three mounts. */
	assert_string_equal(ls("/debug/tracing"), "hello");
	assert_string_equal(cat("/debug/tracing/hello"), "hi\n");
	assert_string_equal(cat("/sys/kernel/debug/tracing/hello"), "hi\n");
	assert_string_equal(cat("/sys/kernel/tracing/hello"), "hi\n");
	assert_int_equal(ino("/debug/tracing/hello"), ino("/sys/kernel/tracing/hello"));
	/* ".." leaves each mount the way it came in */
	assert_int_equal(ino("/debug/.."), ino("/"));
	assert_int_equal(ino("/debug/tracing/../.."), ino("/"));
	assert_int_equal(ino("/sys/kernel/debug/.."), ino("/sys/kernel"));
	assert_int_equal(ino("/sys/kernel/tracing/.."), ino("/sys/kernel"));
	assert_int_equal(ino("/sys/kernel/tracing/../debug"), ino("/debug"));
	assert_int_equal(vfs_chdir("/debug/tracing"), 0);
	assert_int_equal(vfs_getcwd(cwd, sizeof(cwd)), 14);
	assert_string_equal(cwd, "/debug/tracing");
	assert_int_equal(vfs_umount("/debug"), -EBUSY); /* our cwd is in it */
	assert_int_equal(vfs_chdir(".."), 0);
	assert_int_equal(vfs_getcwd(cwd, sizeof(cwd)), 6);
	assert_string_equal(cwd, "/debug");
	assert_int_equal(vfs_chdir(".."), 0);
	assert_int_equal(vfs_getcwd(cwd, sizeof(cwd)), 1);
	assert_int_equal(vfs_chdir("/sys/kernel/tracing"), 0);
	assert_int_equal(vfs_getcwd(cwd, sizeof(cwd)), 19);
	assert_string_equal(cwd, "/sys/kernel/tracing");
	assert_int_equal(vfs_chdir("/"), 0);
	vfs_mount_list(list, sizeof(list));
	assert_non_null(strstr(list, "\ndebugfs on /debug type debugfs (rw)\n"));
	assert_non_null(strstr(cat("/proc/mounts"), "\ndebugfs /debug debugfs rw 0 0\n"));
	assert_int_equal(vfs_rmdir("/debug"), -EBUSY);
	assert_int_equal(vfs_umount("/debug"), 0);
	assert_string_equal(ls("/debug"), "");
	assert_int_equal(vfs_umount("/debug"), -EINVAL);
	assert_int_equal(vfs_rmdir("/debug"), 0);
	assert_string_equal(cat("/sys/kernel/tracing/hello"), "hi\n"); /* the tree stays */
	tracefs_remove(f);
	assert_string_equal(ls("/sys/kernel/tracing"), "");
	end_test();
}

static void test_mount_ramfs_and_errors(void **state)
{
	char list[512];
	int fd;

	(void)state;
	assert_int_equal(vfs_mkdir("/mnt", 0755), 0);
	assert_int_equal(write_file("/mnt/under", 0, "hidden"), 0);
	assert_int_equal(vfs_mount("nosuchfs", "/mnt"), -ENODEV);
	assert_int_equal(vfs_mount("ramfs", "/mnt/under"), -ENOTDIR);
	assert_int_equal(vfs_mount("ramfs", "/missing"), -ENOENT);
	assert_int_equal(vfs_mount("ramfs", "/"), -EBUSY);
	assert_int_equal(vfs_umount("/"), -EBUSY);
	assert_int_equal(vfs_umount("/mnt"), -EINVAL);
	assert_int_equal(vfs_umount("/missing"), -ENOENT);
	long before = host_kmalloc_live;

	assert_int_equal(vfs_mount("ramfs", "/mnt"), 0);
	assert_string_equal(ls("/mnt"), ""); /* a new, empty ramfs covers what was there */
	assert_int_equal(vfs_mkdir("/mnt/d", 0755), 0);
	assert_int_equal(write_file("/mnt/d/f", 0, "in ramfs 2"), 0);
	assert_int_equal(vfs_rename("/mnt/d/f", "/f"), -EXDEV);
	/* Busy: an open file, a cwd, a mount on top. */
	fd = vfs_open("/mnt/d/f", O_RDONLY, 0);
	assert_int_equal(vfs_umount("/mnt"), -EBUSY);
	vfs_close(fd);
	assert_int_equal(vfs_chdir("/mnt/d"), 0);
	assert_int_equal(vfs_umount("/mnt"), -EBUSY);
	assert_int_equal(vfs_chdir("/"), 0);
	assert_int_equal(vfs_mount("proc", "/mnt/d"), 0);
	assert_string_equal(ls("/mnt/d"), "mounts");
	assert_int_equal(vfs_rmdir("/mnt/d"), -EBUSY);
	assert_int_equal(vfs_rename("/mnt/d", "/mnt/e"), -EBUSY);
	assert_int_equal(vfs_umount("/mnt"), -EBUSY);
	vfs_mount_list(list, sizeof(list));
	assert_non_null(strstr(list, "ramfs on /mnt type ramfs (rw)\n"
				     "proc on /mnt/d type proc (rw)\n"));
	assert_int_equal(vfs_umount("/mnt/d/"), 0);
	/* Stacking: a second mount on the same place covers the first. */
	assert_int_equal(vfs_mount("debugfs", "/mnt"), 0);
	assert_string_equal(ls("/mnt"), "tracing");
	assert_int_equal(vfs_umount("/mnt"), 0);
	assert_string_equal(ls("/mnt"), "d");
	/* Unmounting the ramfs frees everything in it. */
	assert_int_equal(vfs_umount("/mnt"), 0);
	assert_int_equal(host_kmalloc_live, before);
	assert_string_equal(ls("/mnt"), "under");
	assert_string_equal(cat("/mnt/under"), "hidden");
	rm_rf("/mnt");
	end_test();
}

/* ---- pseudo files ------------------------------------------------------------------------- */

/* trace_marker's shape: written, never read. */
static const struct file_operations write_only_fops = {
	.open = rec_open,
	.write = rec_write,
	.release = rec_release,
};

/*
 * Lucid's only user is root, and Linux's root (CAP_DAC_OVERRIDE) opens any file for reading
 * and writing whatever its mode: a pseudo file is read-only by having no write operation, and
 * its writes fail with -EINVAL (-EIO in /proc), as on Linux.
 */
static void test_pseudo_read_only(void **state)
{
	static struct recorder r = { .text = "function nop\n" };
	struct kstat st;
	struct dentry *f;
	int fd;
	char c;

	(void)state;
	f = tracefs_create_file("available_tracers", 0444, NULL, &r, &read_only_fops);
	assert_non_null(f);
	fd = vfs_open("/sys/kernel/tracing/available_tracers", O_WRONLY, 0);
	assert_true(fd >= 0);
	assert_int_equal(r.opens, 1);
	assert_int_equal(vfs_write(fd, "x", 1), -EINVAL);
	vfs_close(fd);
	assert_int_equal(write_file("/sys/kernel/tracing/available_tracers", O_TRUNC, "x"),
			 -EINVAL);
	/* No truncate operation: nothing to cut, and Linux says 0 too. */
	assert_int_equal(vfs_truncate("/sys/kernel/tracing/available_tracers", 0), 0);
	assert_string_equal(cat("/sys/kernel/tracing/available_tracers"), "function nop\n");
	assert_int_equal(r.opens, r.releases);
	assert_int_equal(vfs_stat("/sys/kernel/tracing/available_tracers", &st), 0);
	assert_int_equal(st.mode, S_IFREG | 0444);
	assert_int_equal(st.size, 0);
	/* Nor may users make or remove names in a pseudo file system. */
	assert_int_equal(write_file("/sys/kernel/tracing/new_file", 0, "x"), -EACCES);
	assert_int_equal(vfs_mkdir("/sys/kernel/tracing/dir", 0755), -EPERM);
	assert_int_equal(vfs_unlink("/sys/kernel/tracing/available_tracers"), -EPERM);
	assert_int_equal(vfs_rmdir("/sys/kernel/debug/tracing"), -EPERM);
	assert_int_equal(vfs_mkdir("/proc/x", 0755), -EPERM);
	tracefs_remove(f);
	/* A write-only file (like trace_marker, 0220) opens for reading, and its reads fail. */
	f = tracefs_create_file("marker", 0220, NULL, &r, &write_only_fops);
	fd = vfs_open("/sys/kernel/tracing/marker", O_RDWR, 0);
	assert_true(fd >= 0);
	assert_int_equal(vfs_read(fd, &c, 1), -EINVAL);
	assert_int_equal(vfs_write(fd, "m", 1), 1);
	vfs_close(fd);
	tracefs_remove(f);
	/* In /proc, a missing operation is -EIO (Linux's proc_reg_read and proc_reg_write). */
	f = proc_create_data("ro", 0444, NULL, &read_only_fops, &r);
	assert_non_null(f);
	assert_int_equal(write_file("/proc/ro", 0, "x"), -EIO);
	proc_remove(f);
	/* A ramfs file without w bits: root writes, truncates and opens it for writing. */
	assert_int_equal(write_file("/ro", 0, "old"), 0);
	assert_int_equal(vfs_chmod("/ro", 0444), 0);
	assert_int_equal(write_file("/ro", O_TRUNC, "new"), 0);
	assert_string_equal(cat("/ro"), "new");
	assert_int_equal(vfs_chmod("/ro", 0), 0);
	assert_string_equal(cat("/ro"), "new");
	assert_int_equal(vfs_truncate("/ro", 1), 0);
	assert_string_equal(cat("/ro"), "n");
	assert_int_equal(vfs_unlink("/ro"), 0);
	end_test();
}

/* An empty pipe: never anything to read yet. */
static ssize_t empty_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)file;
	(void)buf;
	(void)count;
	(void)pos;
	return -EAGAIN;
}

static struct wait_queue_head *empty_wait_queue(struct file *file)
{
	(void)file;
	return (struct wait_queue_head *)&would_sleep; /* never slept on here; any address */
}

static const struct file_operations waiting_fops = {
	.read = empty_read,
	.wait_queue = empty_wait_queue,
};

static const struct file_operations never_waiting_fops = {
	.read = empty_read,
};

/* A device driver's operations: reads "dev\n", remembers the last write. */
static char dev_written[8];

static ssize_t dev_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	(void)file;
	return simple_read_from_buffer(buf, count, pos, "dev\n", 4);
}

static ssize_t dev_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	(void)file;
	(void)pos;
	memcpy(dev_written, buf, MIN(count, sizeof(dev_written)));
	return (ssize_t)count;
}

static const struct file_operations dev_fops = {
	.read = dev_read,
	.write = dev_write,
};

/* A read that finds nothing waits, unless O_NONBLOCK; a file without a wait queue never does. */
static void test_blocking_read_waits(void **state)
{
	struct dentry *p = tracefs_create_file("trace_pipe", 0444, NULL, NULL, &waiting_fops);
	struct dentry *q = tracefs_create_file("no_wait", 0444, NULL, NULL, &never_waiting_fops);
	char buf[4];
	int fd;

	(void)state;
	would_sleep = 0;
	fd = vfs_open("/sys/kernel/tracing/trace_pipe", O_RDONLY, 0);
	assert_int_equal(vfs_read(fd, buf, sizeof(buf)), -EAGAIN);
	assert_int_equal(would_sleep, 1);
	vfs_close(fd);
	fd = vfs_open("/sys/kernel/tracing/trace_pipe", O_RDONLY | O_NONBLOCK, 0);
	assert_int_equal(vfs_read(fd, buf, sizeof(buf)), -EAGAIN);
	vfs_close(fd);
	fd = vfs_open("/sys/kernel/tracing/no_wait", O_RDONLY, 0);
	assert_int_equal(vfs_read(fd, buf, sizeof(buf)), -EAGAIN);
	vfs_close(fd);
	assert_int_equal(would_sleep, 1);
	tracefs_remove(p);
	tracefs_remove(q);
	end_test();
}

/* mknod: a device node in ramfs whose operations are the driver's, e.g. /dev/console. */
static void test_mknod_device(void **state)
{
	struct kstat st;
	struct dirent de;
	char buf[8];
	int fd;

	(void)state;
	assert_int_equal(vfs_mkdir("/mk", 0755), 0);
	assert_int_equal(vfs_mknod("/mk/console", S_IFCHR | 0600, &dev_fops), 0);
	assert_int_equal(vfs_mknod("/mk/console", S_IFCHR | 0600, &dev_fops), -EEXIST);
	assert_int_equal(vfs_mknod("/mk/reg", S_IFREG | 0600, &dev_fops), -EINVAL);
	assert_int_equal(vfs_mknod("/mk/no/x", S_IFCHR | 0600, &dev_fops), -ENOENT);
	assert_int_equal(vfs_mknod("/sys/kernel/tracing/c", S_IFCHR | 0600, &dev_fops), -EPERM);
	assert_int_equal(vfs_stat("/mk/console", &st), 0);
	assert_true(S_ISCHR(st.mode));
	assert_int_equal(st.mode & 07777, 0600);
	/* O_TRUNC has no data to cut on a device: the driver just sees the flag. */
	fd = vfs_open("/mk/console", O_RDWR | O_TRUNC, 0);
	assert_true(fd >= 0);
	assert_int_equal(vfs_write(fd, "hi", 2), 2);
	assert_memory_equal(dev_written, "hi", 2);
	assert_int_equal(vfs_read(fd, buf, sizeof(buf)), 4);
	assert_memory_equal(buf, "dev\n", 4);
	vfs_close(fd);
	fd = vfs_open("/mk", O_RDONLY | O_DIRECTORY, 0);
	while (vfs_readdir(fd, &de) == 1 && strcmp(de.d_name, "console") != 0)
		;
	assert_int_equal(de.d_type, DT_CHR);
	vfs_close(fd);
	assert_int_equal(vfs_unlink("/mk/console"), 0);
	assert_int_equal(vfs_rmdir("/mk"), 0);
	end_test();
}

static void test_pseudo_write_exact_bytes(void **state)
{
	static struct recorder r = { .text = "" };
	struct dentry *f;
	char buf[4];
	int fd;

	(void)state;
	f = tracefs_create_file("current_tracer", 0644, NULL, &r, &rec_fops);
	fd = vfs_open("/sys/kernel/tracing/current_tracer", O_WRONLY | O_TRUNC, 0);
	assert_true(fd >= 0);
	assert_int_equal(r.open_flags, O_WRONLY | O_TRUNC); /* open sees O_TRUNC ("echo > trace") */
	assert_int_equal(vfs_write(fd, "function\n", 9), 9);
	assert_int_equal(r.len, 9);
	assert_memory_equal(r.written, "function\n", 9);
	assert_int_equal(vfs_write(fd, "a\0b", 3), 3); /* bytes, not a C string */
	assert_int_equal(r.len, 12);
	assert_memory_equal(r.written + 9, "a\0b", 3);
	assert_int_equal(r.writes, 2);
	assert_int_equal(vfs_lseek(fd, 0, SEEK_SET), -ESPIPE); /* no llseek operation */
	vfs_close(fd);
	assert_int_equal(r.releases, 1);
	/* The flags reach the file operations, which decide what O_APPEND and O_NONBLOCK mean. */
	fd = vfs_open("/sys/kernel/tracing/current_tracer", O_RDWR | O_APPEND | O_NONBLOCK, 0);
	assert_int_equal(r.open_flags, O_RDWR | O_APPEND | O_NONBLOCK);
	vfs_close(fd);
	struct dentry *p = tracefs_create_file("trace_pipe", 0444, NULL, NULL, &pipe_fops);

	fd = vfs_open("/sys/kernel/tracing/trace_pipe", O_RDONLY | O_NONBLOCK, 0);
	assert_int_equal(vfs_read(fd, buf, sizeof(buf)), -EAGAIN);
	vfs_close(fd);
	tracefs_remove(p);
	/* A writable mode without a write operation: Linux's -EINVAL. */
	static struct recorder r2 = { .text = "ro\n" };
	struct dentry *g = tracefs_create_file("no_write_op", 0644, NULL, &r2, &read_only_fops);

	fd = vfs_open("/sys/kernel/tracing/no_write_op", O_RDWR, 0);
	assert_int_equal(vfs_write(fd, "x", 1), -EINVAL);
	assert_int_equal(vfs_read(fd, buf, sizeof(buf)), 3);
	vfs_close(fd);
	/* A file without operations at all. */
	struct dentry *h = debugfs_create_file("empty", 0644, NULL, NULL, NULL);

	fd = vfs_open("/sys/kernel/debug/empty", O_RDWR, 0);
	assert_int_equal(vfs_read(fd, buf, 1), -EINVAL);
	assert_int_equal(vfs_write(fd, buf, 1), -EINVAL);
	vfs_close(fd);
	debugfs_remove(h);
	tracefs_remove(g);
	tracefs_remove(f);
	end_test();
}

static void test_dup2_shares_open_file(void **state)
{
	static struct recorder r = { .text = "" };
	struct dentry *f;
	int fd, fd2;

	(void)state;
	f = tracefs_create_file("trace_marker", 0644, NULL, &r, &rec_fops);
	fd = vfs_open("/sys/kernel/tracing/trace_marker", O_WRONLY, 0);
	assert_int_equal(fd, 0);
	/* The shell's "1>file": dup2 the file onto 1, close the original. */
	assert_int_equal(vfs_dup2(fd, 1), 1);
	assert_int_equal(vfs_close(fd), 0);
	assert_int_equal(r.releases, 0);
	assert_int_equal(vfs_write(1, "x", 1), 1);
	assert_int_equal(vfs_dup2(1, 1), 1);
	assert_int_equal(vfs_dup2(5, 2), -EBADF);
	assert_int_equal(vfs_dup2(1, -1), -EBADF);
	assert_int_equal(vfs_dup2(1, NR_OPEN_DEFAULT), -EBADF);
	fd2 = vfs_dup(1);
	assert_int_equal(fd2, 0); /* the lowest free */
	assert_int_equal(vfs_close(1), 0);
	assert_int_equal(vfs_close(fd2), 0);
	assert_int_equal(r.opens, 1);
	assert_int_equal(r.releases, 1); /* once, at the last close */
	/* Shared position: two descriptors, one struct file. */
	assert_int_equal(write_file("/dup", 0, ""), 0);
	fd = vfs_open("/dup", O_RDWR, 0);
	assert_int_equal(vfs_dup2(fd, 7), 7);
	assert_int_equal(vfs_write(fd, "ab", 2), 2);
	assert_int_equal(vfs_write(7, "cd", 2), 2);
	assert_int_equal(vfs_lseek(7, 0, SEEK_CUR), 4);
	/* dup2 onto an open descriptor closes what it named */
	fd2 = vfs_open("/sys/kernel/tracing/trace_marker", O_WRONLY, 0);
	assert_int_equal(vfs_dup2(fd, fd2), fd2);
	assert_int_equal(r.releases, 2);
	vfs_close(fd);
	vfs_close(fd2);
	vfs_close(7);
	assert_string_equal(cat("/dup"), "abcd");
	vfs_unlink("/dup");
	tracefs_remove(f);
	end_test();
}

/* Removing a pseudo file under an open descriptor: the descriptor gets -EIO, close still works. */
static void test_pseudo_remove_while_open(void **state)
{
	static struct recorder r = { .text = "x" };
	struct dentry *dir, *f, *sub;
	char buf[4];
	int fd;

	(void)state;
	dir = debugfs_create_dir("drv", NULL);
	assert_non_null(dir);
	f = debugfs_create_file("state", 0644, dir, &r, &rec_fops);
	sub = debugfs_create_dir("sub", dir);
	assert_non_null(debugfs_create_file("deep", 0444, sub, &r, &rec_fops));
	assert_non_null(f);
	assert_null(debugfs_create_file("state", 0644, dir, &r, &rec_fops)); /* taken */
	assert_null(debugfs_create_file("a/b", 0644, dir, &r, &rec_fops));
	assert_null(debugfs_create_file("..", 0644, dir, &r, &rec_fops));
	assert_null(debugfs_create_file("", 0644, dir, &r, &rec_fops));
	assert_null(debugfs_create_file("x", 0644, f, &r, &rec_fops)); /* parent not a directory */
	assert_string_equal(ls("/sys/kernel/debug/drv"), "state sub");
	fd = vfs_open("/sys/kernel/debug/drv/state", O_RDWR, 0);
	assert_int_equal(vfs_read(fd, buf, 1), 1);
	debugfs_remove(dir);
	assert_int_equal(stat_err("/sys/kernel/debug/drv"), -ENOENT);
	assert_int_equal(vfs_read(fd, buf, 1), -EIO);
	assert_int_equal(vfs_write(fd, buf, 1), -EIO);
	assert_int_equal(vfs_lseek(fd, 0, SEEK_SET), -EIO);
	assert_int_equal(vfs_ftruncate(fd, 0), -EIO);
	assert_int_equal(r.releases, 0);
	assert_int_equal(vfs_close(fd), 0);
	assert_int_equal(r.releases, 1);
	debugfs_remove(NULL);
	/* The roots cannot be removed. */
	tracefs_remove(debugfs_create_dir("tracing", NULL)); /* NULL: the name is taken */
	assert_string_equal(ls("/sys/kernel/debug"), "tracing");
	end_test();
}

/* proc files, and seq_file through the VFS. */
static void *nums_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	return *pos < 3 ? (void *)(uintptr_t)(*pos + 1) : NULL;
}

static void *nums_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)v;
	++*pos;
	return nums_start(m, pos);
}

static void nums_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

static int nums_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%s%lu\n", (const char *)m->private, (unsigned long)(uintptr_t)v);
	return 0;
}

static const struct seq_operations nums_ops = {
	.start = nums_start,
	.next = nums_next,
	.stop = nums_stop,
	.show = nums_show,
};

static int nums_open(struct inode *inode, struct file *file)
{
	int err = seq_open(file, &nums_ops);

	if (!err)
		((struct seq_file *)file->private_data)->private = inode->i_private;
	return err;
}

static const struct file_operations nums_fops = {
	.open = nums_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

static void test_proc_seq_file(void **state)
{
	struct dentry *dir, *f;
	char buf[8];
	int fd;

	(void)state;
	dir = proc_mkdir("sys", NULL);
	f = proc_create_data("nums", 0, dir, &nums_fops, "n=");
	assert_non_null(f);
	assert_non_null(proc_create("other", 0, dir, &nums_fops));
	assert_string_equal(cat("/proc/sys/nums"), "n=1\nn=2\nn=3\n");
	assert_int_equal(f->d_inode->i_mode, S_IFREG | 0444); /* proc's default mode */
	fd = vfs_open("/proc/sys/nums", O_RDONLY, 0);
	assert_int_equal(vfs_lseek(fd, 5, SEEK_SET), 5);
	assert_int_equal(vfs_read(fd, buf, 3), 3);
	assert_memory_equal(buf, "=2\n", 3);
	assert_int_equal(vfs_lseek(fd, 0, SEEK_END), -EINVAL);
	vfs_close(fd);
	proc_remove(dir);
	assert_string_equal(ls("/proc"), "mounts");
	end_test();
}

/* A name found by lookup but not listed (a thread's /proc/TID): readdir passes over it. */
static void test_readdir_skips_unlisted(void **state)
{
	struct dentry *dir, *first, *mid, *last;

	(void)state;
	dir = proc_mkdir("unl", NULL);
	first = proc_create("a", 0, dir, &nums_fops);
	assert_non_null(proc_create("b", 0, dir, &nums_fops));
	mid = proc_create_data("c", 0, dir, &nums_fops, "n=");
	assert_non_null(proc_create("d", 0, dir, &nums_fops));
	last = proc_create("e", 0, dir, &nums_fops);
	assert_string_equal(ls("/proc/unl"), "a b c d e");
	first->d_unlisted = mid->d_unlisted = last->d_unlisted = true;
	assert_string_equal(ls("/proc/unl"), "b d");
	assert_non_null(proc_mkdir("sub", dir));
	struct dentry *hidden = proc_mkdir("hidden", dir);
	struct kstat st;

	assert_int_equal(vfs_stat("/proc/unl", &st), 0);
	assert_int_equal(st.nlink, 4); /* ".." of sub and hidden */
	hidden->d_unlisted = true;
	assert_int_equal(vfs_stat("/proc/unl", &st), 0);
	assert_int_equal(st.nlink, 3); /* an unlisted directory is no link, as it is no name */
	assert_string_equal(cat("/proc/unl/c"), "n=1\nn=2\nn=3\n"); /* still there by name */
	proc_remove(dir);
	end_test();
}

/* tracefs's instances directory: mkdir and rmdir by users, carried out by the tracer. */
static struct dentry *instances;
static int instance_count;

static int make_instance(const char *name)
{
	struct dentry *d;

	if (strcmp(name, "bad") == 0)
		return -EINVAL;
	d = tracefs_create_dir(name, instances);
	if (!d || !tracefs_create_file("trace", 0644, d, NULL, NULL))
		return -ENOMEM;
	instance_count++;
	return 0;
}

static int remove_instance(const char *name)
{
	struct dentry *child;

	if (strcmp(name, "busy") == 0)
		return -EBUSY;
	list_for_each_entry(child, &instances->d_subdirs, d_child) {
		if (strcmp(child->d_name, name) == 0) {
			tracefs_remove(child);
			assert_true(strlen(name) > 0); /* still there: ASan would say */
			instance_count--;
			return 0;
		}
	}
	return -ENOENT;
}

static void test_tracefs_instances(void **state)
{
	(void)state;
	instances = tracefs_create_instance_dir("instances", NULL, make_instance, remove_instance);
	assert_non_null(instances);
	assert_null(tracefs_create_instance_dir("inst2", NULL, make_instance, remove_instance));
	assert_int_equal(vfs_mkdir("/sys/kernel/tracing/instances/foo", 0755), 0);
	assert_int_equal(instance_count, 1);
	assert_string_equal(ls("/sys/kernel/tracing/instances"), "foo");
	assert_string_equal(ls("/sys/kernel/tracing/instances/foo"), "trace");
	assert_int_equal(vfs_mkdir("/sys/kernel/tracing/instances/foo", 0755), -EEXIST);
	assert_int_equal(vfs_mkdir("/sys/kernel/tracing/instances/bad", 0755), -EINVAL);
	assert_int_equal(vfs_mkdir("/sys/kernel/tracing/instances/foo/x", 0755), -EPERM);
	assert_int_equal(vfs_rmdir("/sys/kernel/tracing/instances/foo/trace"), -ENOTDIR);
	assert_int_equal(vfs_mkdir("/sys/kernel/tracing/instances/busy", 0755), 0);
	assert_int_equal(vfs_rmdir("/sys/kernel/tracing/instances/busy"), -EBUSY);
	assert_int_equal(vfs_rmdir("/sys/kernel/tracing/instances/foo"), 0); /* not empty: fine */
	assert_int_equal(instance_count, 1);
	assert_string_equal(ls("/sys/kernel/tracing/instances"), "busy");
	tracefs_remove(instances);
	end_test();
}

/* ---- descriptors and tasks ---------------------------------------------------------------- */

static void test_fd_table_full(void **state)
{
	char name[32];

	(void)state;
	assert_int_equal(vfs_mkdir("/fds", 0755), 0);
	for (int i = 0; i < NR_OPEN_DEFAULT; i++) {
		snprintf(name, sizeof(name), "/fds/%d", i);
		assert_int_equal(vfs_open(name, O_WRONLY | O_CREAT, 0644), i);
	}
	assert_int_equal(vfs_open("/fds/one-too-many", O_WRONLY | O_CREAT, 0644), -EMFILE);
	assert_int_equal(stat_err("/fds/one-too-many"), -ENOENT); /* nothing made */
	assert_int_equal(vfs_dup(0), -EMFILE);
	assert_int_equal(vfs_close(17), 0);
	assert_int_equal(vfs_open("/fds/one-too-many", O_WRONLY | O_CREAT, 0644), 17);
	for (int i = 0; i < NR_OPEN_DEFAULT; i++)
		assert_int_equal(vfs_close(i), 0);
	rm_rf("/fds");
	end_test();
}

/*
 * Past the table's first 64: it grows to RLIMIT_NOFILE (1024 here), and no further: EMFILE for
 * a new descriptor, EBADF for dup2 there, F_DUPFD's EINVAL; close-on-exec bits move with the
 * table; a "fork" copies a grown table and an "exit" frees it (end_test counts allocations).
 */
#define TEST_NOFILE 1024

static void test_fd_table_grows_to_rlimit(void **state)
{
	(void)state;
	host_nofile = TEST_NOFILE;
	assert_int_equal(vfs_open("/", O_RDONLY, 0), 0);
	assert_int_equal(vfs_set_cloexec(0, true), 0);
	for (int i = 1; i < TEST_NOFILE; i++)
		assert_int_equal(vfs_dup(0), i);
	assert_true(task_a.max_fds >= TEST_NOFILE);
	assert_int_equal(vfs_get_cloexec(0), 1); /* carried into the grown table */
	assert_int_equal(vfs_get_cloexec(TEST_NOFILE - 1), 0);
	assert_int_equal(vfs_dup(0), -EMFILE);
	assert_int_equal(vfs_open("/", O_RDONLY, 0), -EMFILE);
	assert_int_equal(vfs_dup2(0, TEST_NOFILE), -EBADF);
	assert_int_equal(vfs_dupfd(0, TEST_NOFILE, false), -EINVAL);
	assert_int_equal(vfs_close(700), 0);
	assert_int_equal(vfs_dupfd(0, 500, true), 700);
	assert_int_equal(vfs_get_cloexec(700), 1);
	/* "fork": the child's table holds them all; its "exit" frees it. */
	assert_int_equal(fs_context_copy(&task_b, &task_a), 0);
	current = &task_b;
	assert_non_null(fget(TEST_NOFILE - 1));
	assert_int_equal(vfs_get_cloexec(700), 1);
	fs_context_exit(&task_b);
	current = &task_a;
	/* A lower limit stops new descriptors, and dup2 past it, as Linux's. */
	host_nofile = 100;
	assert_int_equal(vfs_close(50), 0);
	assert_int_equal(vfs_dup(0), 50);
	assert_int_equal(vfs_close(150), 0);
	assert_int_equal(vfs_dup(0), -EMFILE);
	assert_int_equal(vfs_dup2(0, 150), -EBADF);
	for (int i = 0; i < TEST_NOFILE; i++)
		vfs_close(i);
	host_nofile = NR_OPEN_DEFAULT;
	/* A fork of a grown table with only low descriptors open gets a small one. */
	assert_int_equal(fs_context_copy(&task_b, &task_a), 0);
	assert_int_equal(task_b.max_fds, NR_OPEN_DEFAULT);
	fs_context_exit(&task_b);
	/* A table never shrinks, as Linux's: its arrays go when the task exits. */
	assert_true(task_a.max_fds >= TEST_NOFILE);
	fs_context_exit(&task_a);
	fs_context_init(&task_a);
	end_test();
}

static void test_fs_context_fork_exit(void **state)
{
	static struct recorder r = { .text = "" };
	struct dentry *f;
	char cwd[32];

	(void)state;
	f = tracefs_create_file("marker", 0644, NULL, &r, &rec_fops);
	assert_int_equal(vfs_mkdir("/fork", 0755), 0);
	assert_int_equal(vfs_chdir("/fork"), 0);
	assert_int_equal(vfs_open("/sys/kernel/tracing/marker", O_WRONLY, 0), 0);
	/* "fork": the child shares the open file and starts in the same cwd */
	fs_context_copy(&task_b, &task_a);
	current = &task_b;
	assert_int_equal(vfs_getcwd(cwd, sizeof(cwd)), 5);
	assert_int_equal(vfs_write(0, "child", 5), 5);
	assert_int_equal(vfs_chdir("/"), 0);
	assert_int_equal(vfs_close(0), 0);
	assert_int_equal(r.releases, 0);
	assert_int_equal(vfs_open("/sys/kernel/tracing/marker", O_WRONLY, 0), 0);
	fs_context_exit(&task_b); /* "exit": closes everything */
	assert_int_equal(r.releases, 1);
	current = &task_a;
	assert_int_equal(vfs_getcwd(cwd, sizeof(cwd)), 5); /* the parent did not move */
	assert_int_equal(vfs_write(0, "parent", 6), 6);
	assert_memory_equal(r.written, "childparent", 11);
	assert_int_equal(vfs_close(0), 0);
	assert_int_equal(r.releases, 2);
	/* A fresh context starts at / with nothing open. */
	fs_context_init(&task_b);
	current = &task_b;
	assert_int_equal(vfs_getcwd(cwd, sizeof(cwd)), 1);
	assert_no_open_fds(&task_b);
	fs_context_exit(&task_b);
	current = &task_a;
	assert_int_equal(vfs_chdir("/"), 0);
	rm_rf("/fork");
	tracefs_remove(f);
	end_test();
}

/* ---- allocation failure ------------------------------------------------------------------- */

static bool strict; /* no failure expected: every call must succeed */
static struct dentry *af_dir;

static void check(long ret)
{
	if (strict)
		assert_true(ret >= 0);
	else
		assert_true(ret >= 0 || ret == -ENOMEM || ret == -ENOENT || ret == -EBADF);
}

/* A bit of everything; any allocation in it may fail. */
static void scenario(void)
{
	static struct recorder r = { .text = "pseudo\n" };
	static char big[10000];
	char buf[64];
	int fd, fd2;
	long ret;

	r.len = 0;
	check(vfs_mkdir("/af", 0755));
	check(vfs_mkdir("/af/d", 0755));
	fd = vfs_open("/af/d/f", O_RDWR | O_CREAT, 0644);
	check(fd);
	if (fd >= 0) {
		memset(big, 'z', sizeof(big));
		check(vfs_write(fd, big, sizeof(big)));
		fd2 = vfs_dup(fd);
		check(fd2);
		check(vfs_dup2(fd, 10));
		check(vfs_lseek(fd, 0, SEEK_SET));
		check(vfs_read(fd, buf, sizeof(buf)));
		check(vfs_close(fd));
		if (fd2 >= 0)
			check(vfs_close(fd2));
		check(vfs_close(10));
	}
	check(vfs_rename("/af/d/f", "/af/g"));
	check(vfs_truncate("/af/g", 3));
	check(vfs_mkdir("/af/m", 0755));
	check(vfs_mount("ramfs", "/af/m"));
	check(write_file("/af/m/x", O_TRUNC, "hello"));
	check(vfs_chdir("/af/m"));
	check(vfs_chdir("/"));
	fd = vfs_open("/proc/mounts", O_RDONLY, 0);
	check(fd);
	while (fd >= 0 && vfs_read(fd, buf, sizeof(buf)) > 0)
		;
	check(vfs_close(fd));
	check(vfs_mkdir("/af/dbg", 0755));
	check(vfs_mount("debugfs", "/af/dbg"));
	af_dir = tracefs_create_dir("af", NULL);
	if (strict)
		assert_non_null(af_dir);
	if (af_dir && tracefs_create_file("f", 0644, af_dir, &r, &rec_fops)) {
		check(write_file("/af/dbg/tracing/af/f", 0, "w"));
		if (strict)
			assert_string_equal(cat("/af/dbg/tracing/af/f"), "pseudo\n");
	}
	check(vfs_mount_list(buf, sizeof(buf)));
	ret = vfs_rename("/af/d", "/af/m/d"); /* another mount, if mounting worked */
	if (strict)
		assert_int_equal(ret, -EXDEV);
	else
		assert_true(ret == 0 || ret == -EXDEV || ret == -ENOMEM || ret == -ENOENT);
	check(vfs_rename("/af/d", "/af/d2"));
	fd = vfs_open("/af", O_RDONLY | O_DIRECTORY, 0);
	check(fd);
	struct dirent de;

	while (fd >= 0 && vfs_readdir(fd, &de) == 1)
		;
	check(vfs_close(fd));
	fd = vfs_open("/proc/mounts", O_RDONLY, 0);
	check(fd);
	check(vfs_lseek(fd, 30, SEEK_SET));
	check(vfs_read(fd, buf, sizeof(buf)));
	check(vfs_close(fd));
	check(vfs_getcwd(buf, sizeof(buf)));
}

static void cleanup(void)
{
	host_kmalloc_fail_at = 0;
	for (int fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		vfs_close(fd);
	assert_int_equal(vfs_chdir("/"), 0);
	vfs_umount("/af/m");
	vfs_umount("/af/dbg");
	tracefs_remove(af_dir);
	af_dir = NULL;
	rm_rf("/af");
}

static void test_allocation_failure_every_n(void **state)
{
	char list[512], want_list[512];
	const char *root;
	long n;

	(void)state;
	vfs_mount_list(want_list, sizeof(want_list));
	root = "sys proc";
	for (n = 1; n < 10000; n++) {
		host_kmalloc_fail_at = n;
		scenario();
		bool all_done = host_kmalloc_fail_at > 0; /* the Nth allocation never came */

		cleanup();
		/* Nothing leaked, and the tree and mount table are as before. */
		assert_int_equal(host_kmalloc_live, live_start);
		assert_string_equal(ls("/"), root);
		assert_string_equal(ls("/sys/kernel/tracing"), "");
		vfs_mount_list(list, sizeof(list));
		assert_string_equal(list, want_list);
		if (all_done)
			break;
	}
	assert_true(n > 20 && n < 10000);
	print_message("scenario survived a failure at each of its %ld allocations\n", n - 1);
	/* And afterwards the whole scenario still works. */
	strict = true;
	scenario();
	assert_string_equal(cat("/af/g"), "zzz");
	assert_string_equal(cat("/af/m/x"), "hello");
	strict = false;
	cleanup();
	end_test();
}

/*
 * statfs: each file system's magic number (Linux's), ramfs's figures from the pages, a page a
 * block; st_dev the same across a tree and its other mounts, different between trees.
 */
static void test_statfs_and_devices(void **state)
{
	struct kstatfs sf, sf2;
	struct kstat a, b;
	int fd;

	(void)state;
	assert_int_equal(vfs_statfs("/", &sf), 0);
	assert_int_equal(sf.f_type, RAMFS_MAGIC);
	assert_int_equal(sf.f_bsize, 4096);
	assert_int_equal(sf.f_frsize, 4096);
	assert_int_equal(sf.f_namelen, NAME_MAX);
	assert_int_equal(sf.f_flags, ST_VALID);
	assert_true(sf.f_blocks > 0 && sf.f_bfree <= sf.f_blocks && sf.f_bavail == sf.f_bfree);
	assert_int_equal(vfs_statfs("/proc", &sf), 0);
	assert_int_equal(sf.f_type, PROC_SUPER_MAGIC);
	assert_int_equal(sf.f_blocks, 0);
	assert_int_equal(vfs_statfs("/sys/kernel/tracing", &sf), 0);
	assert_int_equal(sf.f_type, TRACEFS_MAGIC);
	fd = vfs_open("/sys/kernel/debug", O_RDONLY, 0);
	assert_true(fd >= 0);
	assert_int_equal(vfs_fstatfs(fd, &sf2), 0);
	assert_int_equal(sf2.f_type, DEBUGFS_MAGIC);
	vfs_close(fd);
	assert_int_equal(vfs_fstatfs(fd, &sf2), -EBADF);
	assert_int_equal(vfs_statfs("/nonexistent", &sf), -ENOENT);
	/* Device numbers: one per tree. */
	assert_int_equal(vfs_mkdir("/m", 0755), 0);
	assert_int_equal(vfs_stat("/", &a), 0);
	assert_int_equal(vfs_stat("/m", &b), 0);
	assert_int_equal(a.dev, b.dev);
	assert_int_equal(vfs_mount("ramfs", "/m"), 0);
	assert_int_equal(vfs_stat("/m", &b), 0);
	assert_true(a.dev != b.dev);
	assert_int_equal(vfs_stat("/proc", &a), 0);
	assert_true(a.dev != b.dev);
	assert_int_equal(vfs_umount("/m"), 0);
	assert_int_equal(vfs_rmdir("/m"), 0);
	end_test();
}

/*
 * Symbolic links: followed in the middle of a path and at its end, relative to the link's own
 * directory or from /, not followed by lstat, readlink, unlink, rename and O_NOFOLLOW; a loop
 * and a chain longer than MAXSYMLINKS end in ELOOP; the target's memory goes with the link.
 */
static void test_symlinks(void **state)
{
	char buf[64], name[32], target[32];
	struct kstat st;

	(void)state;
	assert_int_equal(vfs_mkdir("/d", 0755), 0);
	assert_int_equal(write_file("/d/f", 0, "data"), 0);
	assert_int_equal(vfs_symlink("d", "/dl"), 0);	       /* relative to / */
	assert_int_equal(vfs_symlink("f", "/d/fl"), 0);       /* relative to /d */
	assert_int_equal(vfs_symlink("/dl/fl", "/abs"), 0); /* a link through links */
	assert_string_equal(cat("/dl/f"), "data");
	assert_string_equal(cat("/dl/fl"), "data");
	assert_string_equal(cat("/abs"), "data");
	assert_int_equal(vfs_stat("/abs", &st), 0);
	assert_true(S_ISREG(st.mode));
	assert_int_equal(vfs_lstat("/abs", &st), 0);
	assert_true(S_ISLNK(st.mode));
	assert_int_equal(st.size, 6);
	assert_int_equal(vfs_readlink("/abs", buf, sizeof(buf)), 6);
	assert_memory_equal(buf, "/dl/fl", 6);
	assert_int_equal(vfs_readlink("/d/f", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(vfs_open("/abs", O_RDONLY | O_NOFOLLOW, 0), -ELOOP);
	assert_int_equal(vfs_symlink("x", "/abs"), -EEXIST);
	assert_int_equal(vfs_symlink("", "/empty"), -ENOENT);
	assert_int_equal(vfs_symlink("x", "/sys/kernel/tracing/l"), -EPERM);

	/* a loop, and a chain one longer than Linux allows */
	assert_int_equal(vfs_symlink("/b", "/a"), 0);
	assert_int_equal(vfs_symlink("/a", "/b"), 0);
	assert_int_equal(vfs_stat("/a", &st), -ELOOP);
	assert_int_equal(vfs_stat("/a/x", &st), -ELOOP);
	for (int i = 0; i <= 40; i++) {
		snprintf(name, sizeof(name), "/c%d", i);
		snprintf(target, sizeof(target), i == 40 ? "/d/f" : "/c%d", i + 1);
		assert_int_equal(vfs_symlink(target, name), 0);
	}
	assert_string_equal(cat("/c1"), "data"); /* 40 links: allowed */
	assert_string_equal(cat("/c0"), "ERR-40"); /* 41: ELOOP */

	/* unlink and rename work on the link, and leave the target alone */
	assert_int_equal(vfs_rename("/dl", "/dl2"), 0);
	assert_string_equal(cat("/dl2/f"), "data");
	assert_int_equal(vfs_unlink("/dl2"), 0);
	assert_string_equal(cat("/d/f"), "data");
	assert_int_equal(vfs_rmdir("/abs"), -ENOTDIR);
	rm_rf("/d");
	assert_int_equal(vfs_stat("/abs", &st), -ENOENT); /* dangling now */
	for (int i = 0; i <= 40; i++) {
		snprintf(name, sizeof(name), "/c%d", i);
		assert_int_equal(vfs_unlink(name), 0);
	}
	assert_int_equal(vfs_unlink("/a"), 0);
	assert_int_equal(vfs_unlink("/b"), 0);
	assert_int_equal(vfs_unlink("/abs"), 0);
	end_test();
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, test_setup)
	const struct CMUnitTest tests[] = {
		T(test_boot_tree),
		T(test_lookup),
		T(test_lookup_errors),
		T(test_removed_cwd),
		T(test_ramfs_read_write_lseek),
		T(test_ramfs_append_truncate),
		T(test_ramfs_unlink_rmdir),
		T(test_ramfs_1mib_file),
		T(test_ramfs_1000_files),
		T(test_readdir),
		T(test_rename),
		T(test_mount_debugfs),
		T(test_mount_ramfs_and_errors),
		T(test_pseudo_read_only),
		T(test_pseudo_write_exact_bytes),
		T(test_blocking_read_waits),
		T(test_mknod_device),
		T(test_dup2_shares_open_file),
		T(test_pseudo_remove_while_open),
		T(test_proc_seq_file),
		T(test_readdir_skips_unlisted),
		T(test_tracefs_instances),
		T(test_fd_table_full),
		T(test_fs_context_fork_exit),
		T(test_fd_table_grows_to_rlimit),
		T(test_allocation_failure_every_n),
		T(test_symlinks),
		T(test_statfs_and_devices),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
