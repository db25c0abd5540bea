/*
 * Small system calls about the process itself: who it is (pids, ids), what system it runs on
 * (uname). The signal system calls are in kernel/signal.c.
 */
#include "trace/events/task.h"
#include "kernel/syscalls.h"
#include "kernel/percpu.h"
#include "kernel/sched/sched.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/version.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/signal.h"
#include "arch/x86_64/cpu.h"
#include "kernel/fs/vfs.h"
#include "kernel/sched/wait.h"
#include "kernel/drivers/random.h"
#include "kernel/time/time.h"
#include "kernel/sched/loadavg.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/mm.h"
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

/* A process's id is its first thread's (its leader's); each thread has its own too (gettid). */
long sys_getpid(void)
{
	return current->group_leader->pid;
}

long sys_gettid(void)
{
	return current->pid;
}

long sys_getppid(void)
{
	return current->group_leader->ppid; /* the process's parent, whichever thread asks */
}

/*
 * A task's new name (prctl PR_SET_NAME, /proc/PID/task/TID/comm): the task_rename event says
 * so, and the trace's TASK column shows it from now on, as Linux's __set_task_comm.
 */
void set_task_comm(struct task *t, const char *name)
{
	trace_task_rename(t, name);
	strlcpy(t->comm, name, sizeof(t->comm));
	tracing_task_renamed(t);
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
	strlcpy(u.release, UTS_RELEASE, sizeof(u.release));
	strlcpy(u.version, "#1 SMP Lucid " LUCID_VERSION, sizeof(u.version));
	strlcpy(u.machine, "x86_64", sizeof(u.machine));
	strlcpy(u.domainname, "(none)", sizeof(u.domainname));
	return copy_to_user(name, &u, sizeof(u)) ? -EFAULT : 0;
}

/*
 * getcpu: the CPU the caller runs on (it may be on another by the time it looks) and its NUMA
 * node, always 0: Lucid's machine is one node. The third argument is unused since Linux 2.6.24.
 */
long sys_getcpu(unsigned int __user *cpup, unsigned int __user *nodep, void __user *unused)
{
	unsigned int cpu = (unsigned int)smp_processor_id(), node = 0;

	(void)unused;
	if (cpup && copy_to_user(cpup, &cpu, sizeof(cpu)))
		return -EFAULT;
	if (nodep && copy_to_user(nodep, &node, sizeof(node)))
		return -EFAULT;
	return 0;
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

/*
 * Resource limits (kernel/resource.h): Linux's defaults for init, each task's own copy. Root
 * may raise a hard limit (CAP_SYS_RESOURCE), but RLIMIT_NOFILE never past NR_OPEN_MAX.
 */
#define MLOCK_LIMIT (8UL << 20) /* RLIMIT_MEMLOCK: 8 MiB, as Linux 6.1 */
#define MQ_BYTES_MAX 819200 /* RLIMIT_MSGQUEUE */

static const struct rlimit64 init_rlimits[RLIM_NLIMITS] = {
	[RLIMIT_CPU] = {RLIM_INFINITY, RLIM_INFINITY},
	[RLIMIT_FSIZE] = {RLIM_INFINITY, RLIM_INFINITY},
	[RLIMIT_DATA] = {RLIM_INFINITY, RLIM_INFINITY},
	[RLIMIT_STACK] = {STACK_MAX, RLIM_INFINITY},
	[RLIMIT_CORE] = {0, RLIM_INFINITY},
	[RLIMIT_RSS] = {RLIM_INFINITY, RLIM_INFINITY},
	[RLIMIT_NPROC] = {0, 0}, /* rlimits_init: the process limit, which depends on the RAM */
	[RLIMIT_NOFILE] = {INR_OPEN_CUR, INR_OPEN_MAX},
	[RLIMIT_MEMLOCK] = {MLOCK_LIMIT, MLOCK_LIMIT},
	[RLIMIT_AS] = {RLIM_INFINITY, RLIM_INFINITY},
	[RLIMIT_LOCKS] = {RLIM_INFINITY, RLIM_INFINITY},
	[RLIMIT_SIGPENDING] = {0, 0}, /* rlimits_init: as many as NPROC, as Linux's fork_init */
	[RLIMIT_MSGQUEUE] = {MQ_BYTES_MAX, MQ_BYTES_MAX},
	[RLIMIT_NICE] = {0, 0},
	[RLIMIT_RTPRIO] = {0, 0},
	[RLIMIT_RTTIME] = {RLIM_INFINITY, RLIM_INFINITY},
};

/*
 * Linux's fork_init sets init's RLIMIT_NPROC and RLIMIT_SIGPENDING from threads-max, which
 * depends on the RAM: here the process limit fork enforces (kernel/fork.c).
 */
void rlimits_init(struct task *t)
{
	uint64_t nproc = (uint64_t)max_user_procs();

	memcpy(t->rlim, init_rlimits, sizeof(t->rlim));
	t->rlim[RLIMIT_NPROC] = (struct rlimit64){nproc, nproc};
	t->rlim[RLIMIT_SIGPENDING] = (struct rlimit64){nproc, nproc};
}

void rlimits_copy(struct task *t, const struct task *from)
{
	memcpy(t->rlim, from->rlim, sizeof(t->rlim));
}

uint64_t rlimit(unsigned int resource)
{
	return __atomic_load_n(&current->rlim[resource].rlim_cur, __ATOMIC_RELAXED);
}

/*
 * Linux's do_prlimit: the old limits into *old_rlim, then the new ones from *new_rlim, of the
 * task pid names (0: the caller). A soft limit above the hard one is EINVAL, and NOFILE's past
 * NR_OPEN_MAX EPERM. The task is found and its limits read and set under task_list_lock, which
 * an exiting task takes to leave the list, so no task is touched after it is gone.
 */
static long do_prlimit(int pid, unsigned int resource, const struct rlimit64 *new_rlim,
		       struct rlimit64 *old_rlim)
{
	struct task *t, *found = NULL;

	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (new_rlim && new_rlim->rlim_cur > new_rlim->rlim_max)
		return -EINVAL;
	if (new_rlim && resource == RLIMIT_NOFILE && new_rlim->rlim_max > NR_OPEN_MAX)
		return -EPERM;
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	if (pid == 0 || pid == current->pid) {
		found = current;
	} else {
		list_for_each_entry(t, &task_list, tasks) {
			if (t->pid == pid && t->mm && !t->zombie)
				found = t;
		}
	}
	if (found && old_rlim)
		*old_rlim = found->rlim[resource];
	if (found && new_rlim)
		found->rlim[resource] = *new_rlim;
	spin_unlock_irqrestore(&task_list_lock, flags);
	return found ? 0 : -ESRCH;
}

long sys_prlimit64(int pid, unsigned int resource, const void __user *new_rlim,
		   void __user *old_rlim)
{
	struct rlimit64 new, old;
	long err;

	if (new_rlim && copy_from_user(&new, new_rlim, sizeof(new)))
		return -EFAULT;
	err = do_prlimit(pid, resource, new_rlim ? &new : NULL, old_rlim ? &old : NULL);
	if (!err && old_rlim && copy_to_user(old_rlim, &old, sizeof(old)))
		return -EFAULT;
	return err;
}

/* getrlimit and setrlimit: the caller's, with the same struct on x86_64 (two longs). */
long sys_getrlimit(unsigned int resource, void __user *rlim)
{
	return sys_prlimit64(0, resource, NULL, rlim);
}

long sys_setrlimit(unsigned int resource, const void __user *rlim)
{
	return sys_prlimit64(0, resource, rlim, NULL);
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
 * sysinfo: uptime, the load average (/proc/loadavg's, kernel/sched/loadavg.c), memory and the
 * number of tasks. Lucid keeps no shared or buffer memory apart from the rest, and no swap;
 * the page cache is counted as used, as ramfs's pages cannot be dropped.
 */
#define SI_LOAD_SHIFT 16 /* sysinfo's loads: fixed point with 16 bits of fraction */

long sys_sysinfo(void __user *info)
{
	struct sysinfo si;

	memset(&si, 0, sizeof(si));
	si.uptime =
		(long)((ktime_get_ns() + NSEC_PER_SEC - 1) / NSEC_PER_SEC); /* Linux rounds up */
	get_avenrun(si.loads, 0, SI_LOAD_SHIFT - FSHIFT);
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
 * caller the parent its descendants' orphans go to (kernel/exit.c), as Linux's.
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
		set_task_comm(current, comm);
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
 * sched_setaffinity and sched_getaffinity: the CPUs a task may run on, as a bitmap (taskset).
 * Lucid's cpumask is one long (NR_CPUS <= 64): Linux's cpumask_size(). pid 0 is the caller; a
 * pid is a thread's, as Linux's. Linux's checks and answers:
 *  - set: a shorter buffer is read as far as it goes (the rest 0), a longer one only as far as
 *    the mask; bits past the online CPUs are dropped, and nothing left is EINVAL.
 *  - get: len must hold a bit per possible CPU and be a whole number of longs; the answer is
 *    the mask's size in bytes, which is what glibc's sysconf and nproc count from.
 */
#define CPUMASK_SIZE sizeof(unsigned long)
#define BITS_PER_BYTE 8

static uint64_t online_mask(void)
{
	return num_online_cpus() >= 64 ? ~0UL : (1UL << num_online_cpus()) - 1;
}

/*
 * The task pid names (0: the caller) with task_list_lock held, which keeps it; NULL (and the
 * lock not held) if there is none.
 */
static struct task *lock_task(int pid, unsigned long *flags)
{
	struct task *t;

	*flags = spin_lock_irqsave(&task_list_lock);
	list_for_each_entry(t, &task_list, tasks) {
		if (pid ? t->pid == pid && !t->reaped : t == current)
			return t;
	}
	spin_unlock_irqrestore(&task_list_lock, *flags);
	return NULL;
}

long sys_sched_setaffinity(int pid, unsigned int len, unsigned long __user *user_mask_ptr)
{
	uint64_t mask = 0;
	unsigned long flags;
	struct task *t;

	if (copy_from_user(&mask, user_mask_ptr, len < CPUMASK_SIZE ? len : CPUMASK_SIZE))
		return -EFAULT;
	if (pid < 0 || !(t = lock_task(pid, &flags)))
		return -ESRCH;
	spin_unlock_irqrestore(&task_list_lock, flags);
	mask &= online_mask();
	if (!mask)
		return -EINVAL;
	if (t == current) {
		set_cpus_allowed_ptr(t, mask); /* moves this very task: with no lock held */
		return 0;
	}
	/* Another task: looked up again, since it may have gone while the lock was free. */
	if (!(t = lock_task(pid, &flags)))
		return -ESRCH;
	set_cpus_allowed_ptr(t, mask);
	spin_unlock_irqrestore(&task_list_lock, flags);
	return 0;
}

long sys_sched_getaffinity(int pid, unsigned int len, unsigned long __user *user_mask_ptr)
{
	unsigned long flags, mask;
	struct task *t;

	if (len * BITS_PER_BYTE < (unsigned int)num_online_cpus() ||
	    (len & (sizeof(unsigned long) - 1)))
		return -EINVAL;
	if (pid < 0 || !(t = lock_task(pid, &flags)))
		return -ESRCH;
	mask = READ_ONCE(t->cpus_allowed) & online_mask();
	spin_unlock_irqrestore(&task_list_lock, flags);
	return copy_to_user(user_mask_ptr, &mask, CPUMASK_SIZE) ? -EFAULT : (long)CPUMASK_SIZE;
}

/*
 * Scheduling policies (kernel/sched/sched.h): what chrt sets and shows. Linux's checks in
 * Linux's order: a bad pid or pointer first (EINVAL, EFAULT), then the task (ESRCH), then the
 * policy and priority (EINVAL): 1..99 for FIFO and RR, 0 for the others. SCHED_DEADLINE is
 * EINVAL, from sched_setattr too: Lucid has no deadline class. SCHED_RESET_ON_FORK is taken and
 * not acted on. Everyone is root, so no permission check.
 */
#define SCHED_RESET_ON_FORK 0x40000000
#define SCHED_DEADLINE 6 /* only its priority range: Lucid has no deadline class */
struct sched_param {
	int sched_priority;
};

static int sched_priority_max(int policy)
{
	if (rt_policy(policy))
		return MAX_USER_RT_PRIO;
	if (policy == SCHED_NORMAL || policy == SCHED_BATCH || policy == SCHED_IDLE ||
	    policy == SCHED_DEADLINE)
		return 0;
	return -EINVAL;
}

static int sched_priority_min(int policy)
{
	if (rt_policy(policy))
		return 1;
	return sched_priority_max(policy);
}

static long do_sched_setscheduler_kernel(int pid, int policy, const struct sched_param *param);

/* policy -1: keep the task's (sched_setparam). */
static long do_sched_setscheduler(int pid, int policy, const struct sched_param __user *param)
{
	struct sched_param p;

	if (!param || pid < 0)
		return -EINVAL;
	if (copy_from_user(&p, param, sizeof(p)))
		return -EFAULT;
	return do_sched_setscheduler_kernel(pid, policy, &p);
}

/* ... with the parameters already in the kernel (sched_setattr's). */
static long do_sched_setscheduler_kernel(int pid, int policy, const struct sched_param *param)
{
	struct sched_param p = *param;
	unsigned long flags;
	struct task *t;

	if (!(t = lock_task(pid, &flags)))
		return -ESRCH;
	if (policy < 0)
		policy = t->policy;
	policy &= ~SCHED_RESET_ON_FORK;
	if (policy == SCHED_DEADLINE || sched_priority_max(policy) < 0 ||
	    p.sched_priority < sched_priority_min(policy) ||
	    p.sched_priority > sched_priority_max(policy)) {
		spin_unlock_irqrestore(&task_list_lock, flags);
		return -EINVAL;
	}
	/* Under the list's lock, so t cannot go; a reschedule it asks for comes at the unlock. */
	sched_set_policy(t, policy, p.sched_priority);
	spin_unlock_irqrestore(&task_list_lock, flags);
	return 0;
}

long sys_sched_setscheduler(int pid, int policy, struct sched_param __user *param)
{
	if (policy < 0)
		return -EINVAL;
	return do_sched_setscheduler(pid, policy, param);
}

long sys_sched_setparam(int pid, struct sched_param __user *param)
{
	return do_sched_setscheduler(pid, -1, param);
}

long sys_sched_getscheduler(int pid)
{
	unsigned long flags;
	struct task *t;
	int policy;

	if (pid < 0)
		return -EINVAL;
	if (!(t = lock_task(pid, &flags)))
		return -ESRCH;
	policy = t->policy;
	spin_unlock_irqrestore(&task_list_lock, flags);
	return policy;
}

long sys_sched_getparam(int pid, struct sched_param __user *param)
{
	struct sched_param p = {0};
	unsigned long flags;
	struct task *t;

	if (!param || pid < 0)
		return -EINVAL;
	if (!(t = lock_task(pid, &flags)))
		return -ESRCH;
	p.sched_priority = t->rt_priority;
	spin_unlock_irqrestore(&task_list_lock, flags);
	return copy_to_user(param, &p, sizeof(p)) ? -EFAULT : 0;
}

/*
 * sched_setattr / sched_getattr (Linux 3.14): the same policy and priority as
 * sched_setscheduler, in a struct that grows (its first field says how big the caller's is):
 * rtla's -P f:95 sets its threads' this way. A caller's struct smaller than the first version
 * (48 bytes) or past a page is E2BIG, with the kernel's size written back into its size field;
 * one larger than the kernel's must have zeros past it (Linux's copy_struct_from_user). nice is
 * checked and clamped, as Linux does, but not kept: Lucid has no nice. SCHED_DEADLINE's
 * runtime, deadline and period have no class to go to: EINVAL, as from sched_setscheduler.
 */
struct sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period; /* SCHED_DEADLINE's */
	uint32_t sched_util_min, sched_util_max; /* utilization clamps (the second version) */
};
#define SCHED_ATTR_SIZE_VER0 48
#define SCHED_ATTR_SIZE_VER1 56
#define SCHED_FLAG_RESET_ON_FORK 0x01
#define SCHED_FLAG_KEEP_POLICY 0x08
#define SCHED_FLAG_KEEP_PARAMS 0x10
#define SCHED_FLAG_UTIL_CLAMP 0x60 /* UTIL_CLAMP_MIN | UTIL_CLAMP_MAX */
#define SCHED_FLAG_ALL 0x7f /* Linux 6.1's, RECLAIM and DL_OVERRUN included */
#define MIN_NICE -20
#define MAX_NICE 19

static long sched_copy_attr(struct sched_attr __user *uattr, struct sched_attr *attr)
{
	uint32_t size;
	uint32_t ksize = sizeof(*attr);

	memset(attr, 0, sizeof(*attr));
	if (copy_from_user(&size, &uattr->size, sizeof(size)))
		return -EFAULT;
	if (!size)
		size = SCHED_ATTR_SIZE_VER0; /* Linux's ABI quirk: 0 is the first version */
	if (size < SCHED_ATTR_SIZE_VER0 || size > PAGE_SIZE)
		goto err_size;
	if (size > ksize) { /* a newer caller: what we do not know of must be zero */
		char tail[64];

		for (uint32_t off = ksize; off < size; off += sizeof(tail)) {
			uint32_t n = size - off < sizeof(tail) ? size - off : sizeof(tail);

			if (copy_from_user(tail, (char __user *)uattr + off, n))
				return -EFAULT;
			for (uint32_t i = 0; i < n; i++)
				if (tail[i])
					goto err_size;
		}
	}
	if (copy_from_user(attr, uattr, size < ksize ? size : ksize))
		return -EFAULT;
	if ((attr->sched_flags & SCHED_FLAG_UTIL_CLAMP) && size < SCHED_ATTR_SIZE_VER1)
		return -EINVAL;
	if (attr->sched_nice < MIN_NICE)
		attr->sched_nice = MIN_NICE;
	if (attr->sched_nice > MAX_NICE)
		attr->sched_nice = MAX_NICE;
	return 0;
err_size:
	return copy_to_user(&uattr->size, &ksize, sizeof(ksize)) ? -EFAULT : -E2BIG;
}

long sys_sched_setattr(int pid, struct sched_attr __user *uattr, unsigned int flags)
{
	struct sched_attr attr;
	struct sched_param param;
	unsigned long irqflags;
	struct task *t;
	int policy;
	long ret;

	if (!uattr || pid < 0 || flags)
		return -EINVAL;
	ret = sched_copy_attr(uattr, &attr);
	if (ret)
		return ret;
	if ((int)attr.sched_policy < 0 || (attr.sched_flags & ~(uint64_t)SCHED_FLAG_ALL))
		return -EINVAL;
	if (!(t = lock_task(pid, &irqflags)))
		return -ESRCH;
	policy = attr.sched_flags & SCHED_FLAG_KEEP_POLICY ? t->policy : (int)attr.sched_policy;
	param.sched_priority = attr.sched_flags & SCHED_FLAG_KEEP_PARAMS ? t->rt_priority
									 : (int)attr.sched_priority;
	spin_unlock_irqrestore(&task_list_lock, irqflags);
	if (policy == SCHED_DEADLINE || attr.sched_priority > MAX_USER_RT_PRIO)
		return -EINVAL;
	/* The policy and priority, checked and set as sched_setscheduler's (from the kernel). */
	return do_sched_setscheduler_kernel(pid, policy, &param);
}

long sys_sched_getattr(int pid, struct sched_attr __user *uattr, unsigned int usize,
		       unsigned int flags)
{
	struct sched_attr kattr = {0};
	unsigned long irqflags;
	struct task *t;

	if (!uattr || pid < 0 || usize > PAGE_SIZE || usize < SCHED_ATTR_SIZE_VER0 || flags)
		return -EINVAL;
	if (!(t = lock_task(pid, &irqflags)))
		return -ESRCH;
	kattr.sched_policy = (uint32_t)t->policy;
	if (rt_policy(t->policy))
		kattr.sched_priority = (uint32_t)t->rt_priority;
	else
		kattr.sched_nice = (int32_t)task_nice(t);
	spin_unlock_irqrestore(&task_list_lock, irqflags);
	/* As much of it as the caller has room for, and the size that is (Linux's ABI). */
	kattr.size = usize < sizeof(kattr) ? usize : sizeof(kattr);
	return copy_to_user(uattr, &kattr, kattr.size) ? -EFAULT : 0;
}

long sys_sched_get_priority_max(int policy)
{
	return sched_priority_max(policy);
}

long sys_sched_get_priority_min(int policy)
{
	return sched_priority_min(policy);
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
