/*
 * CPU time: how long each task ran in user mode and in the kernel, and each CPU in each state
 * (Linux's kernel/sched/cputime.c, tick-based accounting), and the calls that report it:
 * getrusage and times (Linux's kernel/sys.c).
 *
 * The tick samples: every CPU's timer interrupt gives a whole TICK_NSEC to whatever it
 * interrupted, the running task's user time if the interrupt came from ring 3, its system
 * time if from the kernel, or the CPU's idle time if the CPU ran its idle task. That is
 * Linux's tick-based accounting (without CONFIG_VIRT_CPU_ACCOUNTING): a task that runs in
 * short bursts between ticks is seen less than it runs, one that spins is seen exactly, and
 * over many ticks it averages out. The same samples make /proc/stat's per-CPU columns, so
 * they add up with the tasks' times and with /proc/uptime's idle figure.
 *
 * A child's times reach its parent when wait4 collects it: its own and those of the
 * children it collected itself, summed into the parent's cutime and cstime (what
 * getrusage(RUSAGE_CHILDREN) and times() report, and bash's `time` and `times` print). A child
 * nobody waited for (its parent ignored SIGCHLD) adds nothing, as on Linux.
 *
 * ru_maxrss is the largest resident size seen: counted in the page tables when getrusage asks
 * and when exec or exit gives an address space up. Linux keeps a high-water mark that every
 * unmap updates; here memory a program mapped and unmapped between two of those moments is
 * not seen.
 */
#include "kernel/syscalls.h"
#include "kernel/sched/cputime.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "kernel/locking/lockdep.h"
#include "kernel/locking/spinlock.h"
#include "kernel/mm/mm.h"
#include "kernel/time/posix-timers.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

#define RUSAGE_SELF 0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD 1 /* the calling thread alone; RUSAGE_SELF: its whole process */
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF 2

struct kernel_cpustat kernel_cpustat[NR_CPUS];

/*
 * ITIMER_VIRTUAL and ITIMER_PROF are the process's, as Linux's signal->it[]: its leader keeps
 * them, and every thread's tick runs them down, so they count the whole process's CPU time.
 * Ticks on several CPUs and setitimer meet under cpu_itimer_lock (taken from the tick too).
 */
static DEFINE_SPINLOCK(cpu_itimer_lock);

/*
 * ITIMER_VIRTUAL (user time) or ITIMER_PROF (user and system time) of t's process runs down
 * by a tick; at 0 it sends its signal to the process and starts again from its interval, as
 * Linux's check_cpu_itimer. Inline, and a timer not armed is seen without the lock (Linux's
 * fastpath_timer_check): every tick of every process passes here.
 */
static __always_inline void itimer_tick(struct task *t, int which, int sig)
{
	struct task *leader = t->group_leader;
	uint64_t *left = &leader->it_cpu_left[which - 1];
	bool fire = false;

	if (!READ_ONCE(*left))
		return; /* not armed; one set meanwhile starts counting at the next tick */
	spin_lock(&cpu_itimer_lock);
	if (*left > TICK_NSEC) {
		*left -= TICK_NSEC;
	} else if (*left) {
		*left = leader->it_cpu_incr[which - 1];
		fire = true;
	}
	spin_unlock(&cpu_itimer_lock);
	/* to the process: a thread that does not block it takes it */
	if (fire)
		send_sig(sig, leader);
}

void cpu_itimer_get(struct task *leader, int which, uint64_t *left, uint64_t *incr)
{
	unsigned long flags = spin_lock_irqsave(&cpu_itimer_lock);

	*left = leader->it_cpu_left[which - 1];
	*incr = leader->it_cpu_incr[which - 1];
	spin_unlock_irqrestore(&cpu_itimer_lock, flags);
}

void cpu_itimer_set(struct task *leader, int which, uint64_t left, uint64_t incr)
{
	unsigned long flags = spin_lock_irqsave(&cpu_itimer_lock);

	leader->it_cpu_left[which - 1] = left;
	leader->it_cpu_incr[which - 1] = incr;
	spin_unlock_irqrestore(&cpu_itimer_lock, flags);
}

void account_process_tick(bool user)
{
	lockdep_assert_irqs_disabled();
	struct cpu *cpu = this_cpu();
	struct task *t = cpu->curr;
	uint64_t *cpustat = kernel_cpustat[cpu->id].cpustat;

	if (t == cpu->idle) {
		cpustat[CPUTIME_IDLE] += TICK_NSEC;
		return;
	}
	if (user) {
		t->utime += TICK_NSEC;
		cpustat[CPUTIME_USER] += TICK_NSEC;
	} else {
		t->stime += TICK_NSEC;
		cpustat[CPUTIME_SYSTEM] += TICK_NSEC;
	}
	if (!t->mm)
		return; /* a kernel thread has no interval timers */
	if (user)
		itimer_tick(t, ITIMER_VIRTUAL, SIGVTALRM);
	itimer_tick(t, ITIMER_PROF, SIGPROF);
}

#define KIB 1024

/* The pages of mm's areas that are mapped now, in KiB. */
static unsigned long mm_rss_kib(struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	unsigned long pages = 0;

	spin_lock(&mm->mmap_lock); /* /proc/PID's readers walk it too */
	list_for_each_entry(vma, &mm->mmap, vm_list)
	{
		for (unsigned long va = mmu_user_next_mapped(mm->pgd, vma->vm_start, vma->vm_end);
		     va < vma->vm_end;
		     va = mmu_user_next_mapped(mm->pgd, va + PAGE_SIZE, vma->vm_end))
			pages++;
	}
	spin_unlock(&mm->mmap_lock);
	return pages * (PAGE_SIZE / KIB);
}

void update_maxrss(struct task *t, struct mm_struct *mm)
{
	unsigned long kib = mm ? mm_rss_kib(mm) : 0;

	if (kib > t->maxrss)
		t->maxrss = kib;
}

void account_thread_exit(struct task *t)
{
	struct task *leader = t->group_leader;

	lockdep_assert_held(&task_list_lock);
	if (t == leader || t->cputime_folded)
		return; /* the leader's own figures stay its own: it is reaped last */
	leader->dead_utime += READ_ONCE(t->utime);
	leader->dead_stime += READ_ONCE(t->stime);
	leader->dead_nvcsw += t->nvcsw;
	leader->dead_nivcsw += t->nivcsw;
	leader->dead_min_flt += t->min_flt;
	t->cputime_folded = true;
}

void thread_group_usage(const struct task *leader, struct group_usage *u, bool locked)
{
	unsigned long flags = locked ? 0 : spin_lock_irqsave(&task_list_lock);
	struct task *t;

	*u = (struct group_usage){leader->dead_utime, leader->dead_stime, leader->dead_nvcsw,
				  leader->dead_nivcsw, leader->dead_min_flt};
	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->tgid != leader->tgid || t->reaped || t->cputime_folded)
			continue;
		u->utime += READ_ONCE(t->utime);
		u->stime += READ_ONCE(t->stime);
		u->nvcsw += t->nvcsw;
		u->nivcsw += t->nivcsw;
		u->min_flt += t->min_flt;
	}
	if (!locked)
		spin_unlock_irqrestore(&task_list_lock, flags);
}

/*
 * Called by wait4 before it frees the child: nothing runs the child any more, and its threads
 * have all folded their figures into it (the leader), the last thread to exit too.
 */
void account_child_times(struct task *parent, const struct task *child)
{
	unsigned long maxrss = MAX(child->maxrss, child->cmaxrss);

	parent->cmaxrss = MAX(parent->cmaxrss, maxrss);
	parent->cutime += child->utime + child->dead_utime + child->cutime;
	parent->cstime += child->stime + child->dead_stime + child->cstime;
	parent->cnvcsw += child->nvcsw + child->dead_nvcsw + child->cnvcsw;
	parent->cnivcsw += child->nivcsw + child->dead_nivcsw + child->cnivcsw;
	parent->cmin_flt += child->min_flt + child->dead_min_flt + child->cmin_flt;
}

static void ns_to_timeval(uint64_t ns, long *sec, long *usec)
{
	*sec = (long)(ns / NSEC_PER_SEC);
	*usec = (long)(ns % NSEC_PER_SEC / NSEC_PER_USEC);
}

/* Linux fills these; the other BSD fields (ixrss, nswap, msgsnd, nsignals...) it leaves 0. */
static void fill_rusage(struct rusage *ru, const struct group_usage *u, unsigned long maxrss)
{
	memset(ru, 0, sizeof(*ru));
	ru->ru_maxrss = (long)maxrss;
	ns_to_timeval(u->utime, &ru->ru_utime_sec, &ru->ru_utime_usec);
	ns_to_timeval(u->stime, &ru->ru_stime_sec, &ru->ru_stime_usec);
	ru->ru_nvcsw = (long)u->nvcsw;
	ru->ru_nivcsw = (long)u->nivcsw;
	ru->ru_minflt = (long)u->min_flt; /* ru_majflt stays 0: no page is read from a disk */
}

void child_rusage(const struct task *c, struct rusage *ru)
{
	struct group_usage u = {
		.utime = c->utime + c->dead_utime + c->cutime,
		.stime = c->stime + c->dead_stime + c->cstime,
		.nvcsw = c->nvcsw + c->dead_nvcsw + c->cnvcsw,
		.nivcsw = c->nivcsw + c->dead_nivcsw + c->cnivcsw,
		.min_flt = c->min_flt + c->dead_min_flt + c->cmin_flt,
	};

	fill_rusage(ru, &u, MAX(c->maxrss, c->cmaxrss));
}

long sys_getrusage(int who, struct rusage __user *uru)
{
	struct task *t = current;
	struct rusage ru;

	struct group_usage u;

	switch (who) {
	case RUSAGE_SELF:
		update_maxrss(t, t->mm);
		thread_group_usage(t->group_leader, &u, false);
		fill_rusage(&ru, &u, t->maxrss);
		break;
	case RUSAGE_THREAD:
		update_maxrss(t, t->mm);
		u = (struct group_usage){READ_ONCE(t->utime), READ_ONCE(t->stime), t->nvcsw,
					 t->nivcsw, t->min_flt};
		fill_rusage(&ru, &u, t->maxrss);
		break;
	case RUSAGE_CHILDREN:
		t = t->group_leader; /* wait4 counts them into the process's: its leader's */
		u = (struct group_usage){t->cutime, t->cstime, t->cnvcsw, t->cnivcsw, t->cmin_flt};
		fill_rusage(&ru, &u, t->cmaxrss);
		break;
	default:
		return -EINVAL;
	}
	return copy_to_user(uru, &ru, sizeof(ru)) ? -EFAULT : 0;
}

/* struct tms: the four times in clock ticks (USER_HZ). */
struct tms {
	long tms_utime, tms_stime, tms_cutime, tms_cstime;
};

/* times: the process's times in clock ticks, and clock ticks since boot as its value (Linux:
 * since an arbitrary point; programs use only differences). */
long sys_times(struct tms __user *tbuf)
{
	struct task *t = current->group_leader; /* the process's times: its leader keeps them */

	if (tbuf) {
		struct group_usage u;

		thread_group_usage(t, &u, false);
		struct tms tms = {(long)nsec_to_clock_t(u.utime), (long)nsec_to_clock_t(u.stime),
				  (long)nsec_to_clock_t(t->cutime),
				  (long)nsec_to_clock_t(t->cstime)};

		if (copy_to_user(tbuf, &tms, sizeof(tms)))
			return -EFAULT;
	}
	return (long)nsec_to_clock_t(ktime_get_ns());
}
