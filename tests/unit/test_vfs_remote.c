/*
 * Tests for what the VFS offers a file system whose files are elsewhere (9p's host folder):
 * register_filesystem(), a mount with a source, and the lookup, getattr, evict and fsync hooks.
 * The "remote" file system here keeps its files in a table standing in for the host, and
 * counts each call the VFS makes to it.
 */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>
#include "kernel/fs/vfs.h"
#include "kernel/fs/vfs_internal.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "tests/unit/host_kmalloc.h"
#include "tests/unit/host_rlimit.h"
#include "tests/unit/host_vfs_lock.h"

static struct fs_context task, *current;

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

ssize_t vfs_block(struct file *file, vfs_io_fn io, int fd, void *buf, size_t count)
{
	(void)fd;
	return io(file, buf, count);
}

/* ---- the "host" and the remote file system ---------------------------------------------- */

static struct {
	const char *name;
	loff_t size;
	bool present;
} host[] = {{"a", 10, true}, {"b", 20, true}};

static int lookups, getattrs, evicts, fsyncs;

static int remote_fsync(struct file *file)
{
	(void)file;
	fsyncs++;
	return 0;
}

static const struct file_operations remote_fops = {.fsync = remote_fsync};

static int find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(host); i++) {
		if (host[i].present && strcmp(host[i].name, name) == 0)
			return (int)i;
	}
	return -1;
}

static int remote_getattr(struct dentry *dentry)
{
	int i = find(dentry->d_name);

	getattrs++;
	if (i < 0)
		return -ENOENT;
	dentry->d_inode->i_size = host[i].size;
	return 0;
}

static void remote_evict(struct inode *inode)
{
	(void)inode;
	evicts++;
}

static const struct inode_operations remote_file_iops = {
	.getattr = remote_getattr,
	.evict = remote_evict,
};

static int remote_lookup(struct inode *dir, struct dentry *dentry)
{
	int i = find(dentry->d_name);
	struct inode *inode;

	(void)dir;
	lookups++;
	if (i < 0)
		return -ENOENT;
	inode = new_inode(S_IFREG | 0644);
	if (!inode)
		return -ENOMEM;
	inode->i_op = &remote_file_iops;
	inode->i_fop = &remote_fops;
	inode->i_size = host[i].size;
	d_add(dentry, inode);
	dget(dentry);
	return 0;
}

static const struct inode_operations remote_dir_iops = {.lookup = remote_lookup};

static int remote_mount(const char *source, struct dentry **root)
{
	struct inode *inode;

	if (!source || strcmp(source, "tag"))
		return -ENOENT;
	inode = new_inode(S_IFDIR | 0755);
	if (!inode)
		return -ENOMEM;
	inode->i_op = &remote_dir_iops;
	*root = d_make_root(inode);
	return *root ? 0 : -ENOMEM;
}

static void remote_kill_sb(struct dentry *root)
{
	d_kill_tree(root, 0);
}

static struct file_system_type remote_fs_type = {
	.name = "remote",
	.mount_source = remote_mount,
	.kill_sb = remote_kill_sb,
};

static int group_setup(void **state)
{
	(void)state;
	if (vfs_init() || register_filesystem(&remote_fs_type))
		return -1;
	fs_context_init(&task);
	current = &task;
	return vfs_mkdir("/r", 0755);
}

static void test_mount_with_a_source(void **state)
{
	char buf[512];
	long live = host_kmalloc_live;

	(void)state;
	assert_int_equal(vfs_mount_source("remote", "nosuch", "/r"), -ENOENT);
	assert_int_equal(vfs_mount_source("remote", NULL, "/r"), -ENOENT);
	assert_int_equal(host_kmalloc_live, live);
	assert_int_equal(vfs_mount_source("remote", "tag", "/r"), 0);
	vfs_mount_list(buf, sizeof(buf));
	assert_non_null(strstr(buf, "\ntag on /r type remote (rw)\n"));
	/* The in-memory file systems keep their type's name: "nodev" is not a source. */
	assert_int_equal(vfs_mkdir("/m", 0755), 0);
	assert_int_equal(vfs_mount_source("ramfs", "nodev", "/m"), 0);
	vfs_mount_list(buf, sizeof(buf));
	assert_non_null(strstr(buf, "\nramfs on /m type ramfs (rw)\n"));
	assert_int_equal(vfs_umount("/m"), 0);
	assert_int_equal(vfs_rmdir("/m"), 0);
	assert_int_equal(vfs_umount("/r"), 0);
}

static void test_lookup_getattr_evict_fsync(void **state)
{
	struct kstat st;
	long live = host_kmalloc_live;
	int fd;

	(void)state;
	lookups = getattrs = evicts = fsyncs = 0;
	assert_int_equal(vfs_mount_source("remote", "tag", "/r"), 0);
	/* A name the tree lacks is asked of the file system, once; after that it is cached. */
	assert_int_equal(vfs_stat("/r/a", &st), 0);
	assert_int_equal(st.size, 10);
	assert_int_equal(lookups, 1);
	assert_int_equal(getattrs, 1);
	host[0].size = 15; /* changed on the host: stat asks again */
	assert_int_equal(vfs_stat("/r/a", &st), 0);
	assert_int_equal(st.size, 15);
	assert_int_equal(lookups, 1);
	assert_int_equal(getattrs, 2);
	/* A name the host lacks: -ENOENT, nothing kept. */
	assert_int_equal(vfs_stat("/r/nosuch", &st), -ENOENT);
	assert_int_equal(lookups, 2);
	assert_int_equal(vfs_open("/r/nosuch", O_RDONLY, 0), -ENOENT);
	/* getattr's error reaches stat: a file removed on the host. */
	host[1].present = false;
	assert_int_equal(vfs_stat("/r/b", &st), -ENOENT);
	host[1].present = true;
	/* fsync goes to the file's operation; a ramfs file has none and succeeds. */
	fd = vfs_open("/r/a", O_RDONLY, 0);
	assert_true(fd >= 0);
	assert_int_equal(vfs_fsync(fd), 0);
	assert_int_equal(fsyncs, 1);
	assert_int_equal(vfs_fstat(fd, &st), 0);
	assert_int_equal(vfs_umount("/r"), -EBUSY);
	vfs_close(fd);
	assert_int_equal(vfs_fsync(fd), -EBADF);
	fd = vfs_open("/tmpfile", O_WRONLY | O_CREAT, 0644);
	assert_int_equal(vfs_fsync(fd), 0);
	vfs_close(fd);
	assert_int_equal(vfs_unlink("/tmpfile"), 0);
	/* Unmounted: every inode the file system made is evicted, every byte comes back. */
	assert_int_equal(vfs_umount("/r"), 0);
	assert_int_equal(evicts, 1);
	assert_int_equal(host_kmalloc_live, live);
	assert_int_equal(host_vfs_lock_depth, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mount_with_a_source),
		cmocka_unit_test(test_lookup_getattr_evict_fsync),
	};
	return cmocka_run_group_tests(tests, group_setup, NULL);
}
