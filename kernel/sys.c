/*
 * Small system calls about the process itself: who it is (pids, ids), what system it runs on
 * (uname). The signal system calls are in kernel/sched/signal.c.
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
#include "kernel/sched/time.h"
#include "kernel/mm/page_alloc.h"
#include "arch/x86_64/mmu.h"
#include "trace/trace.h"

#define __NEW_UTS_LEN 64 /* struct new_utsname: six strings of 65 bytes */

struct new_utsname {
	char sysname[__NEW_UTS_LEN + 1];
	char nodename[__NEW_UTS_LEN + 1];
	char release[__NEW_UTS_LEN + 1];
	char version[__NEW_UTS_LEN + 1];
	char machine[__NEW_UTS_LEN + 1];
	char domainname[__NEW_UTS_LEN + 1];
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
 * getgroups: the supplementary groups. Nothing on Lucid calls setgroups (no login does), so the
 * list is empty, as it is for Linux's init and whatever it starts before a login sets one; busybox
 * `id` then prints no groups=, as on such a Linux.
 */
long sys_getgroups(int gidsetsize, unsigned int __user *grouplist)
{
	(void)grouplist;
	return gidsetsize < 0 ? -EINVAL : 0;
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
#define RLIMIT_NPROC 6 /* processes at once: fork's EAGAIN (kernel/sched/fork.c) */
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
	if (resource == RLIMIT_NPROC)
		r.rlim_cur = r.rlim_max = (uint64_t)max_user_procs();
	if (old_rlim && copy_to_user(old_rlim, &r, sizeof(r)))
		return -EFAULT;
	return 0;
}

long sys_sched_yield(void)
{
	yield();
	return 0;
}

/* Linux's struct sysinfo on x86_64 (include/uapi/linux/sysinfo.h): 112 bytes. */
struct sysinfo {
	long uptime; /* seconds since boot */
	unsigned long loads[3]; /* 1, 5 and 15 minute load averages, << SI_LOAD_SHIFT */
	unsigned long totalram; /* in mem_unit units */
	unsigned long freeram;
	unsigned long sharedram;
	unsigned long bufferram;
	unsigned long totalswap;
	unsigned long freeswap;
	unsigned short procs; /* tasks: processes and kernel threads, as Linux's nr_threads */
	unsigned short pad;
	unsigned long totalhigh; /* high memory: none on 64-bit */
	unsigned long freehigh;
	unsigned int mem_unit;
	char _f[20 - 2 * sizeof(long) - sizeof(int)];
};
_Static_assert(sizeof(struct sysinfo) == 112, "struct sysinfo is Linux's x86_64 layout");

/* Tasks alive now (not yet dead), kernel threads included. */
static unsigned int nr_threads(void)
{
	struct task *t;
	unsigned int n = 0;
	unsigned long flags = spin_lock_irqsave(&task_list_lock);

	list_for_each_entry(t, &task_list, tasks)
	{
		if (READ_ONCE(t->state) != TASK_DEAD)
			n++;
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return n;
}

/*
 * sysinfo: uptime, memory and the number of tasks. Lucid keeps no load average (the loads are
 * 0), no shared or buffer memory apart from the rest, and no swap; the page cache is counted
 * as used, as ramfs's pages cannot be dropped.
 */
long sys_sysinfo(void __user *info)
{
	struct sysinfo si;

	memset(&si, 0, sizeof(si));
	si.uptime =
		(long)((ktime_get_ns() + NSEC_PER_SEC - 1) / NSEC_PER_SEC); /* Linux rounds up */
	si.totalram = nr_total_pages() * PAGE_SIZE;
	si.freeram = nr_free_pages() * PAGE_SIZE;
	si.procs = (unsigned short)MIN(nr_threads(), 0xffffU);
	si.mem_unit = 1;
	return copy_to_user(info, &si, sizeof(si)) ? -EFAULT : 0;
}

/*
 * prctl: the process's own settings. Lucid keeps one of them, its name (busybox names each
 * applet it runs in a forked child): PR_SET_NAME copies at most TASK_COMM_LEN - 1 bytes, as
 * Linux's set_task_comm, and PR_GET_NAME gives all TASK_COMM_LEN back. Any other option is
 * EINVAL, Linux's answer for an option it does not know. PR_SET_CHILD_SUBREAPER makes the
 * caller the parent its descendants' orphans go to (kernel/sched/fork.c), as Linux's.
 */
#define PR_SET_NAME 15
#define PR_GET_NAME 16
#define PR_SET_CHILD_SUBREAPER 36
#define PR_GET_CHILD_SUBREAPER 37

long sys_prctl(int option, unsigned long arg2, unsigned long arg3, unsigned long arg4,
	       unsigned long arg5)
{
	char comm[TASK_COMM_LEN];
	long n;

	(void)arg3;
	(void)arg4;
	(void)arg5;
	switch (option) {
	case PR_SET_NAME:
		n = strncpy_from_user(comm, (const char __user *)arg2, sizeof(comm) - 1);
		if (n < 0)
			return n;
		comm[n] = '\0';
		strlcpy(current->comm, comm, sizeof(current->comm));
		tracing_task_renamed(current);
		return 0;
	case PR_GET_NAME:
		strlcpy(comm, current->comm, sizeof(comm));
		return copy_to_user((void __user *)arg2, comm, sizeof(comm)) ? -EFAULT : 0;
	case PR_SET_CHILD_SUBREAPER:
		set_child_subreaper(arg2 != 0);
		return 0;
	case PR_GET_CHILD_SUBREAPER:
		n = current->child_subreaper;
		return copy_to_user((void __user *)arg2, &n, sizeof(int)) ? -EFAULT : 0;
	default:
		return -EINVAL;
	}
}

/*
 * sched_getaffinity: the CPUs a task may run on, as a bitmap. Lucid runs any task on any online
 * CPU, so it is the online mask, ids 0 .. num_online_cpus() - 1. Linux's checks: len must hold
 * a bit per possible CPU and be a whole number of longs; the answer is the mask's size in bytes
 * (cpumask_size(), one long here), which is what glibc's sysconf and nproc count from.
 */
#define CPUMASK_SIZE sizeof(unsigned long)
#define BITS_PER_BYTE 8

long sys_sched_getaffinity(int pid, unsigned int len, unsigned long __user *user_mask_ptr)
{
	unsigned long mask = 0;

	if (len * BITS_PER_BYTE < (unsigned int)num_online_cpus() ||
	    (len & (sizeof(unsigned long) - 1)))
		return -EINVAL;
	if (pid < 0 || (pid && kill_pid(pid, 0))) /* signal 0: only whether pid exists */
		return -ESRCH;
	for (int cpu = 0; cpu < num_online_cpus(); cpu++)
		mask |= 1UL << cpu;
	return copy_to_user(user_mask_ptr, &mask, CPUMASK_SIZE) ? -EFAULT : (long)CPUMASK_SIZE;
}

/*
 * rseq (restartable sequences) is a Linux option (CONFIG_RSEQ) Lucid does not have; its answer
 * is then ENOSYS, and glibc, which tries it at every start, goes on without. A table entry of
 * its own, so that it is not named as missing in the log each boot.
 */
long sys_rseq(void __user *rseq, uint32_t rseq_len, int flags, uint32_t sig)
{
	(void)rseq;
	(void)rseq_len;
	(void)flags;
	(void)sig;
	return -ENOSYS;
}
