/*
 * Small system calls about the process itself: who it is (pids, ids), what system it runs on
 * (uname), and the signal bookkeeping the C library does at start-up.
 *
 * Signals: Lucid delivers none to handlers yet (Ctrl-C's default action is all, issue 16 brings
 * the rest), but rt_sigaction and rt_sigprocmask check their arguments as Linux does and
 * remember what was asked, so a program that sets a handler or a mask gets what it reads back.
 */
#include "kernel/syscalls.h"
#include "kernel/sched.h"
#include "kernel/kmalloc.h"
#include "kernel/version.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

#define __NEW_UTS_LEN 64 /* struct new_utsname: six strings of 65 bytes */
#define NSIG 64
#define SIGKILL 9
#define SIGSTOP 19
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
