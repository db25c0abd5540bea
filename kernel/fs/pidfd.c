/*
 * pidfd_open(2): a file descriptor for a process, which poll and select find readable once the
 * process has exited (Linux's kernel/pid.c and pidfd_poll). trace-cmd record -P PID waits on one
 * to stop when PID ends.
 *
 * The file holds the pid, not the task: a task's memory goes when it is reaped, and the file may
 * outlive that. poll looks the pid up each time: a zombie, dead or reaped is "exited". Every exit
 * wakes one wait queue for all pidfds (do_notify_pidfd, from kthread_exit_status), where
 * Linux has one per pid: exits are few, and a woken poller just looks again.
 *
 * pidfd_send_signal sends a signal to the process, as kill(2) would to its pid (no reuse of pids
 * in between can redirect it: Lucid's pids only grow).
 *
 * waitid(P_PIDFD) waits for the process as a child (pidfd_get_pid; it must be one), and a
 * pidfd opened PIDFD_NONBLOCK makes that wait say EAGAIN rather than sleep. Not there yet:
 * pidfd_getfd.
 * Reading or writing a pidfd is EINVAL, as on Linux.
 */
#include "kernel/fs/anon_inodes.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "arch/x86_64/uaccess.h"
#include "kernel/sched/wait.h"
#include "kernel/syscalls.h"
#include "lib/errno.h"
#include "lib/string.h"

#define PIDFD_NAME "anon_inode:[pidfd]" /* what /proc/PID/fd/N names, as Linux's */
#define PIDFD_MODE 0600 /* Linux's anon inode: no file type bits */

static DECLARE_WAIT_QUEUE_HEAD(pidfd_wait);
static struct vfsmount pidfd_mnt; /* counts the paths held, shows nowhere (as pipe_mnt) */

/* What is left of process pid: none (never was, or reaped), exited (a zombie) or running. */
enum pid_state { PID_GONE, PID_EXITED, PID_RUNNING };

static enum pid_state pid_state(int pid)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	enum pid_state state = PID_GONE;
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->pid != pid || READ_ONCE(t->reaped))
			continue;
		state = READ_ONCE(t->zombie) || READ_ONCE(t->state) == TASK_DEAD ? PID_EXITED
										 : PID_RUNNING;
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return state;
}

/* Readable once it has exited; hung up too once reaped (Linux since 6.9; 6.1 says POLLIN only). */
static unsigned int pidfd_poll(struct file *file)
{
	switch (pid_state((int)(long)file->private_data)) {
	case PID_GONE:
		return POLLIN | POLLRDNORM | POLLHUP;
	case PID_EXITED:
		return POLLIN | POLLRDNORM;
	default:
		return 0;
	}
}

static struct wait_queue_head *pidfd_wait_queue(struct file *file)
{
	(void)file;
	return &pidfd_wait;
}

static const struct file_operations pidfd_fops = {
	.poll = pidfd_poll,
	.wait_queue = pidfd_wait_queue,
};

void do_notify_pidfd(void)
{
	wake_up(&pidfd_wait);
}

static int do_pidfd_open(int pid, unsigned int flags)
{
	struct fs_context *fs = current_fs();
	struct inode *inode = new_inode(PIDFD_MODE);
	struct dentry *dentry = d_alloc(NULL, PIDFD_NAME, strlen(PIDFD_NAME));
	struct file *file = alloc_file();
	int fd = -ENOMEM;

	if (!inode || !dentry || !file)
		goto fail;
	fd = get_unused_fd(fs);
	if (fd < 0)
		goto fail;
	dentry->d_inode = inode; /* a root of its own: in no directory */
	inode->i_fop = &no_open_fops; /* an open by name is ENXIO */
	file->f_path.mnt = &pidfd_mnt;
	file->f_path.dentry = dentry;
	path_get(&file->f_path);
	dput(dentry); /* the file holds it now */
	file->f_inode = inode;
	file->f_op = &pidfd_fops;
	file->f_flags = O_RDWR | flags;
	file->f_mode = FMODE_READ | FMODE_WRITE;
	file->private_data = (void *)(long)pid;
	fs->fd[fd] = file;
	fd_set_cloexec(fs, fd, true); /* always, as Linux's pidfd_open */
	return fd;
fail:
	kfree(file);
	if (dentry)
		dput(dentry);
	kfree(inode); /* not yet the dentry's */
	return fd;
}

long sys_pidfd_open(int pid, unsigned int flags)
{
	int fd;

	if (flags & ~O_NONBLOCK) /* PIDFD_NONBLOCK is O_NONBLOCK */
		return -EINVAL;
	if (pid <= 0)
		return -EINVAL;
	if (pid_state(pid) == PID_GONE)
		return -ESRCH;
	vfs_lock();
	fd = do_pidfd_open(pid, flags);
	vfs_unlock();
	return fd;
}

int pidfd_get_pid(int fd, unsigned int *flags)
{
	struct file *file;
	int pid = -EBADF;

	vfs_lock();
	file = fget(fd);
	if (file && file->f_op == &pidfd_fops) {
		pid = (int)(long)file->private_data;
		*flags = file->f_flags;
	}
	vfs_unlock();
	return pid;
}

/*
 * pidfd_send_signal(pidfd, sig, info, flags), Linux's checks in its order: flags must be 0
 * (EINVAL), pidfd a pidfd (EBADF), info's si_signo sig (EINVAL), and a code that claims to
 * come from the kernel or kill (si_code >= 0, or SI_TKILL) only for a signal to oneself (EPERM).
 * Then as kill(2): a bad signal EINVAL, a reaped process ESRCH.
 */
long sys_pidfd_send_signal(int pidfd, int sig, const void __user *uinfo, unsigned int flags)
{
	struct ksiginfo info = {.signo = sig, .code = SI_USER, .pid = current->tgid};
	struct file *file;
	int pid;

	if (flags)
		return -EINVAL;
	vfs_lock();
	file = fget(pidfd);
	pid = file && file->f_op == &pidfd_fops ? (int)(long)file->private_data : 0;
	vfs_unlock();
	if (!pid)
		return -EBADF;
	if (uinfo) { /* delivered as given: si_pid, si_uid, si_value (a program's sigqueue) */
		if (copy_siginfo_from_user(&info, uinfo))
			return -EFAULT;
		if (info.signo != sig)
			return -EINVAL;
		if (pid != current->tgid && (info.code >= 0 || info.code == SI_TKILL))
			return -EPERM;
	}
	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	return kill_pid_info(pid, sig, &info);
}
