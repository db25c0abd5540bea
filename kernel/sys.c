/*
 * Small system calls about the process itself: who it is (pids, ids), what system it runs on
 * (uname), and the signal bookkeeping the C library does at start-up.
 *
 * Signals: Lucid delivers none to handlers yet (Ctrl-C's default action is all, issue 16 brings
 * the rest), but rt_sigaction and rt_sigprocmask check their arguments as Linux does and
 * remember what was asked, so a program that sets a handler or a mask gets what it reads back.
 */
#include "kernel/syscalls.h"
#include "kernel/sched/sched.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/version.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/sched/signal.h"
#include "arch/x86_64/cpu.h"
#include "kernel/fs/vfs.h"
#include "kernel/sched/wait.h"
#include "kernel/drivers/random.h"

#define MAX_RW_COUNT 0x7ffff000UL /* Linux caps one transfer so the result fits an int */
#define __NEW_UTS_LEN 64 /* struct new_utsname: six strings of 65 bytes */
#define NSIG 64
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#define SIGSET_SIZE sizeof(uint64_t) /* the only sigsetsize Linux x86_64 accepts */
#define SIG_UNBLOCKABLE ((1ULL << (SIGKILL - 1)) | (1ULL << (SIGSTOP - 1)))

struct new_utsname {
	char sysname[__NEW_UTS_LEN + 1];
	char nodename[__NEW_UTS_LEN + 1];
	char release[__NEW_UTS_LEN + 1];
	char version[__NEW_UTS_LEN + 1];
	char machine[__NEW_UTS_LEN + 1];
	char domainname[__NEW_UTS_LEN + 1];
};

/* What rt_sigaction reads and writes: Linux's struct sigaction for x86_64, as the libcs pass it. */
struct k_sigaction {
	unsigned long handler;
	unsigned long flags;
	unsigned long restorer;
	uint64_t mask;
};

long sys_getpid(void)
{
	return current->pid; /* one thread per process: the thread group id is the pid */
}

long sys_gettid(void)
{
	return current->pid;
}

long sys_getppid(void)
{
	return current->ppid;
}

/* Everyone is root on Lucid. */
long sys_getuid(void)
{
	return 0;
}

long sys_geteuid(void)
{
	return 0;
}

long sys_getgid(void)
{
	return 0;
}

long sys_getegid(void)
{
	return 0;
}

/*
 * "Linux" as the system's name: programs built for Linux (the C libraries, busybox) read it and
 * the release to decide what the kernel can do, and Lucid speaks Linux's system-call ABI.
 * The release and version say which kernel this really is.
 */
long sys_newuname(void __user *name)
{
	struct new_utsname u;

	memset(&u, 0, sizeof(u));
	strlcpy(u.sysname, "Linux", sizeof(u.sysname));
	strlcpy(u.nodename, "(none)", sizeof(u.nodename)); /* Linux's before sethostname */
	strlcpy(u.release, "6.1.0-lucid", sizeof(u.release));
	strlcpy(u.version, "#1 SMP Lucid " LUCID_VERSION, sizeof(u.version));
	strlcpy(u.machine, "x86_64", sizeof(u.machine));
	strlcpy(u.domainname, "(none)", sizeof(u.domainname));
	return copy_to_user(name, &u, sizeof(u)) ? -EFAULT : 0;
}

long sys_set_tid_address(int __user *tidptr)
{
	current->clear_child_tid = (unsigned long)tidptr;
	return current->pid;
}

long sys_rt_sigaction(int sig, const void __user *act, void __user *oact, size_t sigsetsize)
{
	struct task *t = current;
	struct k_sigaction new;

	if (sigsetsize != SIGSET_SIZE)
		return -EINVAL;
	if (sig < 1 || sig > NSIG || (act && (sig == SIGKILL || sig == SIGSTOP)))
		return -EINVAL;
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	if (!t->sighand) {
		t->sighand = kzalloc(NSIG * sizeof(struct k_sigaction));
		if (!t->sighand)
			return -ENOMEM;
	}
	if (oact && copy_to_user(oact, &t->sighand[sig - 1], sizeof(struct k_sigaction)))
		return -EFAULT;
	if (act) {
		new.mask &= ~SIG_UNBLOCKABLE;
		t->sighand[sig - 1] = new;
	}
	return 0;
}

long sys_rt_sigprocmask(int how, const uint64_t __user *set, uint64_t __user *oset,
			size_t sigsetsize)
{
	struct task *t = current;
	uint64_t new, old = t->blocked;

	if (sigsetsize != SIGSET_SIZE)
		return -EINVAL;
	if (set) {
		if (copy_from_user(&new, set, sizeof(new)))
			return -EFAULT;
		new &= ~SIG_UNBLOCKABLE;
		switch (how) {
		case SIG_BLOCK:
			new = old | new;
			break;
		case SIG_UNBLOCK:
			new = old & ~new;
			break;
		case SIG_SETMASK:
			break;
		default:
			return -EINVAL;
		}
	}
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	if (set)
		t->blocked = new;
	return 0;
}

/*
 * getrandom: get_random_bytes() (kernel/drivers/random.c), a chunk at a time into the user's
 * buffer. GRND_NONBLOCK and GRND_RANDOM are accepted; nothing ever blocks.
 */
#define GRND_NONBLOCK 0x0001
#define GRND_RANDOM 0x0002
#define GRND_INSECURE 0x0004
#define GETRANDOM_CHUNK 256

long sys_getrandom(char __user *buf, size_t count, unsigned int flags)
{
	uint8_t chunk[GETRANDOM_CHUNK];
	size_t done = 0;

	if (flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	while (done < count) {
		size_t n = MIN(count - done, sizeof(chunk));

		get_random_bytes(chunk, n);
		if (copy_to_user(buf + done, chunk, n))
			return done ? (long)done : -EFAULT;
		done += n;
	}
	return (long)done;
}

/* The robust futex list: remembered (nothing walks it until threads exist), as Linux checks. */
#define ROBUST_LIST_HEAD_SIZE 24 /* sizeof(struct robust_list_head) on x86_64 */

long sys_set_robust_list(void __user *head, size_t len)
{
	(void)head;
	return len == ROBUST_LIST_HEAD_SIZE ? 0 : -EINVAL;
}

/* Resource limits: Linux's defaults for a root shell, read-only for now. */
#define RLIMIT_STACK 3
#define RLIMIT_NOFILE 7
#define RLIM_NLIMITS 16
#define RLIM_INFINITY (~0UL)
#define STACK_LIMIT (8UL << 20)

struct rlimit64 {
	uint64_t rlim_cur, rlim_max;
};

long sys_prlimit64(int pid, unsigned int resource, const void __user *new_rlim,
		   void __user *old_rlim)
{
	struct rlimit64 r = {RLIM_INFINITY, RLIM_INFINITY};

	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (pid != 0 && pid != current->pid)
		return -ESRCH;
	if (new_rlim)
		return -EPERM; /* not settable yet: say so rather than pretend */
	if (resource == RLIMIT_STACK)
		r.rlim_cur = STACK_LIMIT;
	if (resource == RLIMIT_NOFILE)
		r.rlim_cur = r.rlim_max = NR_OPEN_DEFAULT;
	if (old_rlim && copy_to_user(old_rlim, &r, sizeof(r)))
		return -EFAULT;
	return 0;
}

long sys_sched_yield(void)
{
	yield();
	return 0;
}

/* pause: sleep until a signal. Lucid's only one, Ctrl-C, then ends the program on its way out. */
long sys_pause(void)
{
	set_current_state(TASK_INTERRUPTIBLE);
	while (!signal_pending_current()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	set_current_state(TASK_RUNNING);
	return -EINTR;
}
