/*
 * Each task's cwd and open files: the kernel's side of struct fs_context (kernel/fs/vfs.h).
 *
 * As after a fork, a new thread starts with a copy of its creator's context: the same cwd and
 * the same open files (shared, with their positions), so the shell can hand a command its
 * stdin and stdout just by having them open when it creates the command's thread. The thread
 * closes them when it exits. Threads of one process (clone with CLONE_FILES) share one context,
 * counted in users: the last to exit closes the files.
 *
 * Tasks without a context of their own (the idle tasks, threads made before the VFS existed)
 * use init_fs, as Linux's kernel threads do: cwd /, no open files.
 */
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/sched/sched.h"
#include "kernel/mm/kmalloc.h"
#include "lib/errno.h"

static struct fs_context init_fs;
static bool init_fs_ready;

void init_fs_context(void)
{
	fs_context_init(&init_fs);
	__atomic_store_n(&init_fs_ready, true, __ATOMIC_RELEASE);
}

struct fs_context *current_fs(void)
{
	struct task *t = current;

	return t->fs ? t->fs : &init_fs;
}

int copy_fs_context(struct task *t)
{
	struct fs_context *fs;

	if (!__atomic_load_n(&init_fs_ready, __ATOMIC_ACQUIRE))
		return 0; /* no VFS yet: t will use init_fs */
	fs = kmalloc(sizeof(*fs));
	if (!fs)
		return -ENOMEM;
	if (fs_context_copy(fs, current_fs())) {
		kfree(fs);
		return -ENOMEM;
	}
	fs->users = 1;
	t->fs = fs;
	return 0;
}

void share_fs_context(struct task *t)
{
	struct fs_context *fs = current->fs;

	if (fs)
		__atomic_add_fetch(&fs->users, 1, __ATOMIC_SEQ_CST);
	t->fs = fs;
}

void exit_fs_context(struct task *t)
{
	struct fs_context *fs = t->fs;

	if (!fs)
		return;
	if (__atomic_sub_fetch(&fs->users, 1, __ATOMIC_SEQ_CST) > 0) {
		vfs_lock(); /* as below: a reader of /proc/PID/fd may hold it */
		t->fs = NULL;
		vfs_unlock();
		return; /* the other threads keep the files open */
	}
	fs_context_exit(fs);
	/* /proc/PID/fd reads another task's table under the VFS lock: it goes under it too. */
	vfs_lock();
	t->fs = NULL;
	vfs_unlock();
	kfree(fs);
}
