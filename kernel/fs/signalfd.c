/*
 * signalfd (Linux's fs/signalfd.c): signals as a file, so that an event loop waits for them in
 * epoll with its other files instead of in a handler that can run at any moment.
 *
 * The program blocks the signals (sigprocmask), so that they stay pending instead of being
 * acted on, and makes a signalfd for them: a read takes the lowest pending signal of the file's
 * mask off what is pending for the reader, its thread's own first, then its process's
 * (dequeue_signal_mask, kernel/signal.c), and returns it as a 128-byte struct
 * signalfd_siginfo; as many as fit the read, but it waits only for the first (EAGAIN with
 * SFD_NONBLOCK). Poll says readable while one is pending.
 * The file holds only the mask: whose signals it reads is whoever reads or polls it, as on
 * Linux (a forked child reads its own).
 *
 * Waiting is vfs_block's (the read answers -EAGAIN) on one queue for every signalfd, which
 * every signal sent wakes (signalfd_notify); Linux keeps one per process, but a woken reader
 * only looks again, and signals are few.
 */
#include "kernel/fs/anon_inodes.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "kernel/sched/wait.h"
#include "kernel/syscalls.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

#define SFD_CLOEXEC O_CLOEXEC
#define SFD_NONBLOCK O_NONBLOCK
#define SI_TIMER (-2)
#define SIGNALFD_SIGINFO_SIZE 128

/* What a read returns for each signal: Linux's include/uapi/linux/signalfd.h, 128 bytes. */
struct signalfd_siginfo {
	uint32_t ssi_signo;
	int32_t ssi_errno;
	int32_t ssi_code;
	uint32_t ssi_pid;
	uint32_t ssi_uid;
	int32_t ssi_fd;
	uint32_t ssi_tid;
	uint32_t ssi_band;
	uint32_t ssi_overrun;
	uint32_t ssi_trapno;
	int32_t ssi_status;
	int32_t ssi_int;
	uint64_t ssi_ptr;
	uint64_t ssi_utime;
	uint64_t ssi_stime;
	uint64_t ssi_addr;
	uint16_t ssi_addr_lsb;
	uint16_t __pad2;
	int32_t ssi_syscall;
	uint64_t ssi_call_addr;
	uint32_t ssi_arch;
	uint8_t __pad[28];
};
_Static_assert(sizeof(struct signalfd_siginfo) == SIGNALFD_SIGINFO_SIZE, "Linux's size");

static DECLARE_WAIT_QUEUE_HEAD(signalfd_wqh);

struct signalfd_ctx {
	sigset_t sigmask;
};

void signalfd_notify(void)
{
	wake_up(&signalfd_wqh);
}

/*
 * The siginfo into Linux's struct, the fields its siginfo_layout() says the signal has: a
 * kernel-made code (0 < code < SI_KERNEL) of SIGCHLD has the child and its status, of a fault
 * the address; kill's (SI_USER, SI_KERNEL) the sender; tkill's and the rest (code < 0) the
 * sender too, and a value Lucid never sends (0).
 */
static void signalfd_copyinfo(struct signalfd_siginfo *new, const struct ksiginfo *kinfo)
{
	memset(new, 0, sizeof(*new));
	new->ssi_signo = (uint32_t)kinfo->signo;
	new->ssi_code = kinfo->code;
	if (kinfo->raw) { /* a program's (sigqueue): the sender it names, and its si_value */
		new->ssi_errno = kinfo->errnum;
		siginfo_raw_sender(kinfo, &new->ssi_pid, &new->ssi_uid);
		if (kinfo->code < 0 && kinfo->code != SI_TIMER) { /* Linux's SIL_RT */
			new->ssi_ptr = siginfo_raw_value(kinfo);
			new->ssi_int = (int32_t)new->ssi_ptr;
		}
	} else if (kinfo->code == SI_TIMER) { /* a POSIX timer's: its id, overrun and sigev_value */
		new->ssi_tid = (uint32_t)kinfo->timer_id;
		new->ssi_overrun = (uint32_t)kinfo->overrun;
		new->ssi_ptr = kinfo->value;
		new->ssi_int = (int32_t)kinfo->value;
	} else if (kinfo->code > SI_USER && kinfo->code < SI_KERNEL) {
		if (kinfo->signo == SIGCHLD) {
			new->ssi_pid = (uint32_t)kinfo->pid;
			new->ssi_status = kinfo->status;
		} else {
			new->ssi_addr = kinfo->addr;
		}
	} else {
		new->ssi_pid = (uint32_t)kinfo->pid;
	}
}

static ssize_t signalfd_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct signalfd_ctx *ctx = file->private_data;
	size_t n = count / sizeof(struct signalfd_siginfo), done = 0;

	(void)pos;
	if (!n)
		return -EINVAL;
	for (; done < n; done++) {
		struct signalfd_siginfo info;
		struct ksiginfo kinfo;

		if (!dequeue_signal_mask(ctx->sigmask, &kinfo))
			break;
		signalfd_copyinfo(&info, &kinfo);
		memcpy(buf + done * sizeof(info), &info, sizeof(info));
	}
	return done ? (ssize_t)(done * sizeof(struct signalfd_siginfo)) : -EAGAIN;
}

static unsigned int signalfd_poll(struct file *file)
{
	struct signalfd_ctx *ctx = file->private_data;

	return task_pending(current) & ctx->sigmask
		       ? POLLIN | POLLRDNORM
		       : 0;
}

static struct wait_queue_head *signalfd_wait_queue(struct file *file)
{
	(void)file;
	return &signalfd_wqh;
}

static int signalfd_release(struct inode *inode, struct file *file)
{
	(void)inode;
	kfree(file->private_data);
	return 0;
}

static const struct file_operations signalfd_fops = {
	.read = signalfd_read,
	.release = signalfd_release,
	.poll = signalfd_poll,
	.wait_queue = signalfd_wait_queue,
};

/*
 * signalfd4(fd, mask, sizemask, flags): fd -1 makes a new one; a signalfd's fd gets the new
 * mask. SIGKILL and SIGSTOP are never in it (Linux drops them quietly).
 */
long sys_signalfd4(int ufd, const uint64_t __user *user_mask, size_t sizemask, int flags)
{
	struct signalfd_ctx *ctx;
	struct file *file;
	sigset_t mask;
	int err;

	if (flags & ~(SFD_CLOEXEC | SFD_NONBLOCK))
		return -EINVAL;
	if (sizemask != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&mask, user_mask, sizeof(mask)))
		return -EFAULT;
	mask &= ~SIG_KERNEL_ONLY_MASK;
	if (ufd == -1) {
		ctx = kzalloc(sizeof(*ctx));
		if (!ctx)
			return -ENOMEM;
		ctx->sigmask = mask;
		err = anon_inode_getfd("[signalfd]", &signalfd_fops, ctx,
				       O_RDWR | (flags & (O_NONBLOCK | O_CLOEXEC)));
		if (err < 0)
			kfree(ctx);
		return err;
	}
	vfs_lock();
	file = fget_anon(ufd, &signalfd_fops, &err);
	if (file) {
		((struct signalfd_ctx *)file->private_data)->sigmask = mask;
		err = ufd;
	}
	vfs_unlock();
	if (file)
		wake_up(&signalfd_wqh); /* a waiter may want one of the new signals */
	return err;
}

long sys_signalfd(int ufd, const uint64_t __user *user_mask, size_t sizemask)
{
	return sys_signalfd4(ufd, user_mask, sizemask, 0);
}
