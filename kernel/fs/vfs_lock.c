/*
 * The VFS lock: one sleeping mutex around every VFS entry point (kernel/fs/vfs.h), and the one
 * place where a file's "nothing yet" (-EAGAIN) turns into waiting.
 *
 * A mutex and not a spin lock: file operations may run long (a seq_file generating a page of
 * trace), may allocate memory and may be preempted; a spin lock would keep preemption off on
 * that CPU all the while.
 *
 * Waiting (vfs_block): the task must let the lock go while it sleeps, or the writer it waits
 * for could never get in. A first try runs as it is (most tries succeed, and a task that is not
 * on the queue costs the waker nothing). After an -EAGAIN the task goes on the file's wait
 * queue *before* it tries the operation again, so a wakeup that comes between the operation's
 * -EAGAIN and the sleep (a byte typed on the console, from an interrupt that takes no lock) is
 * not lost: it marks the task running and schedule() returns at once. That is the order
 * wait_event() uses (kernel/sched/wait.h). The operation therefore runs in TASK_INTERRUPTIBLE
 * state; if it sleeps itself (a mutex), it comes back running and we only go round the loop once
 * more.
 *
 * The wait queue belongs to whatever the open file refers to (a pipe, the console) and lives
 * at least as long as the file is open; we hold the file open in our own fd table.
 */
#include "kernel/fs/vfs_internal.h"
#include "kernel/locking/mutex.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "lib/errno.h"
#include "kernel/locking/lockdep.h"

static DEFINE_MUTEX(vfs_mutex);

void vfs_lock(void)
{
	mutex_lock(&vfs_mutex);
}

void vfs_unlock(void)
{
	mutex_unlock(&vfs_mutex);
}

bool vfs_lock_held(void)
{
	return READ_ONCE(vfs_mutex.owner) == current || current == this_cpu()->idle;
}

ssize_t vfs_block(struct file *file, vfs_io_fn io, int fd, void *buf, size_t count)
{
	lockdep_assert_held(&vfs_mutex);
	struct wait_queue_entry w = {0};
	struct wait_queue_head *wq = NULL;
	ssize_t ret;

	/* First the plain try: most find their data (or room) and need no wait queue at all. */
	ret = io(file, buf, count);
	if (ret != -EAGAIN)
		return ret;
	if (file && file->f_op && file->f_op->wait_queue && !file->f_op->waits_itself &&
	    !(file->f_flags & O_NONBLOCK))
		wq = file->f_op->wait_queue(file);
	if (!wq)
		return ret;
	for (;;) {
		prepare_to_wait(wq, &w, TASK_INTERRUPTIBLE);
		ret = io(file, buf, count);
		if (ret != -EAGAIN)
			break;
		if (signal_pending_current()) {
			/*
			 * A program's read or write starts again after a handler with SA_RESTART,
			 * as Linux's pipe and tty code asks (arch/x86_64/signal.c), but for a file
			 * whose wait says EINTR (trace_pipe_raw: trace-cmd's recorders count on
			 * it to stop); the kernel's own commands just stop.
			 */
			ret = current->sighand && !(file && file->f_op && file->f_op->wait_eintr)
				      ? -ERESTARTSYS
				      : -EINTR;
			break;
		}
		vfs_unlock();
		schedule();
		vfs_lock();
		file = fget(fd); /* the lock was let go: look again (a shared init_fs may change) */
	}
	finish_wait(wq, &w);
	return ret;
}
