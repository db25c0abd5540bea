/*
 * /proc/PID and /proc/self: a directory for every task, user process or kernel thread, with
 * Linux's stat, status, cmdline and maps (Linux: fs/proc/base.c, array.c, task_mmu.c), fd and
 * fdinfo (kernel/fs/proc/fd.c), and for a user process the symbolic link exe to its program
 * (busybox reads it to find itself, and runs its applets by an execve of /proc/self/exe).
 *
 * Tasks come and go far more often than files are read, so the directories are not made at
 * fork and removed at exit: /proc's lookup makes one when a name is asked for and the task
 * exists, and its revalidate drops it once the task is gone (pids are never reused, so a
 * directory that names a live pid is the right one). "self" is made the same way for the task
 * that looks it up, and dropped when another task asks: a symbolic link whose text is the
 * reader's process's pid (its tgid, whichever thread reads), as Linux's proc_self_get_link, so
 * that `cd /proc/self/fd` lands in /proc/PID/fd, which stays when another task looks at its own
 * /proc/self.
 *
 * Threads: /proc lists processes (their leaders' pids) only, as Linux's; /proc/TID of a thread
 * is found when asked for by name all the same, and /proc/PID/task holds a directory per thread
 * of the process, /proc/PID/task/TID, with that thread's files (`ps -T`, top's threads). A
 * thread's own /proc/TID/task lists its whole process too, as Linux's.
 *
 * The files keep only the pid. Each read finds the task under task_list_lock and copies what it
 * shows (its user memory too, for cmdline and maps) before the lock is dropped: do_exit() and
 * exec take a process's mm away under that lock, so the pages cannot go while they are read.
 */
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/fs/vfs_internal.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "kernel/sched/cputime.h"
#include "kernel/time/posix-timers.h"
#include "kernel/drivers/tty.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/regs.h"
#include "kernel/mm/kstack.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/sort.h"
#include "lib/bsearch.h"
#include "lib/kstrtox.h"
#include "lib/printf.h"

#define PROC_CMDLINE_MAX PAGE_SIZE /* argv bytes shown: enough for any command Lucid runs */
#define PROC_MAPS_MAX 256 /* lines in maps: an area each; more are left out */
#define PF_KTHREAD 0x00200000 /* Linux's task flag for a kernel thread, shown in stat */
#define RLIM_INFINITY (~0UL)
#define NICE_0_PRIO 100 /* stat's priority field is prio - 100, as Linux */
#define SELF_NAME "self"
#define CAP_FULL_SET ((1UL << 41) - 1) /* capabilities 0 to CAP_LAST_CAP (40) */

/* What a file shows of a task, copied under task_list_lock. */
struct proc_task {
	int pid, tgid, ppid, pgrp, sid, cpu, prio;
	int nr_threads; /* its process's live threads */
	int tpgid; /* its controlling terminal's foreground group; -1: it has none */
	char state;
	char comm[TASK_COMM_LEN];
	bool kthread;
	uint64_t nvcsw, nivcsw, sigpending, blocked, cpus_allowed;
	uint64_t shared_pending; /* sent to its process (kill), not to it (tgkill) */
	uint64_t utime, stime, cutime, cstime, start_time; /* ns (kernel/sched/cputime.c) */
	uint64_t sigignore, sigcatch; /* the signals its actions ignore, and those it handles */
	struct mm_struct mm; /* a copy of its boundaries; mm.pgd is NULL for a kernel thread */
	unsigned long rss; /* pages mapped */
	unsigned long rss_file; /* of them, a file's own pages (a program's text): RssFile */
	unsigned long rss_shmem; /* and shared anonymous memory's: RssShmem */
	unsigned long vsize; /* bytes in its areas (maps's lines) */
};

/*
 * smaps's counts for one area, in pages (Linux's struct mem_size_stats): each mapped page is
 * shared if another page table maps it too (Linux's page_mapcount >= 2), private if not, and
 * dirty if written through this mapping (the entry's D bit); pss adds 1/mapcount of a page,
 * in units of 1/PSS_SCALE.
 */
#define PSS_SCALE 4096
struct mem_size_stats {
	unsigned long resident, shared_clean, shared_dirty, private_clean, private_dirty;
	unsigned long referenced, anonymous, pss, pss_dirty;
};

struct proc_vma {
	unsigned long start, end;
	unsigned long flags; /* VM_* */
	unsigned long offset; /* in the file it maps, in bytes */
	const char *name; /* NULL, "[heap]", "[stack]", or the program's path */
	/* Or the mapped file's name, with a reference: the area may go once the lock is off. */
	struct vma_name *file;
	unsigned long ino; /* shared anonymous memory's inode number (its device is 00:01) */
	struct mem_size_stats mss; /* smaps's counts of its pages */
};

/* The maps lines are done with: each file name's reference goes, then the array. */
static void put_vmas(struct proc_vma *vmas, int n)
{
	for (int i = 0; i < n; i++)
		vma_name_put(vmas[i].file);
	kfree(vmas);
}

/* The state letter Linux's /proc shows: a task that exited but is not yet reaped is a zombie. */
static char proc_state(const struct task *t)
{
	return t->state & TASK_DEAD ? 'Z' : task_state_char(t->state);
}

static const char *state_name(char state)
{
	switch (state) {
	case 'R':
		return "R (running)";
	case 'S':
		return "S (sleeping)";
	case 'D':
		return "D (disk sleep)";
	case 'T':
		return "T (stopped)";
	default:
		return "Z (zombie)";
	}
}

static struct task *find_task_locked(int pid)
{
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->pid == pid)
			return t;
	}
	return NULL;
}

static bool task_alive(int pid)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *t = find_task_locked(pid);
	bool alive = t && !t->reaped;

	spin_unlock_irqrestore(&task_list_lock, flags);
	return alive;
}

/* The pages of [start, end) that are mapped, skipping missing page tables whole. */
static unsigned long count_mapped(uint64_t *pgd, unsigned long start, unsigned long end)
{
	unsigned long n = 0;

	for (unsigned long va = mmu_user_next_mapped(pgd, start, end); va < end;
	     va = mmu_user_next_mapped(pgd, va + PAGE_SIZE, end))
		n++;
	return n;
}

/* The pages of a file-mapping area that are the file's own (not yet copied on a write). */
static unsigned long count_file_pages(uint64_t *pgd, const struct vm_area_struct *vma)
{
	unsigned long n = 0;

	for (unsigned long va = mmu_user_next_mapped(pgd, vma->vm_start, vma->vm_end);
	     va < vma->vm_end; va = mmu_user_next_mapped(pgd, va + PAGE_SIZE, vma->vm_end)) {
		unsigned long index = vma->vm_pgoff + (va - vma->vm_start) / PAGE_SIZE;
		void *page = mmu_user_page(pgd, va, NULL);

		if (va < vma->vm_file_end && page && page == file_pages_page(vma->vm_file, index))
			n++;
	}
	return n;
}

/*
 * How many page tables map page, as Linux's page_mapcount: its references, less those of the
 * object it belongs to. A shared anonymous page has one more (its object's slot); a file's
 * page two (the file and the snapshot this area maps); an anonymous page none. (A file's page
 * held by older snapshots too counts as mapped once more for each: Lucid keeps no map count.)
 */
static unsigned long page_mapcount(const struct vm_area_struct *vma, unsigned long va, void *page)
{
	unsigned long refs = page_count(page), extra = 0;

	if (vma->vm_file && vma->vm_file->ino)
		extra = 1;
	else if (vma->vm_file && va < vma->vm_file_end &&
		 page == file_pages_page(vma->vm_file,
					 vma->vm_pgoff + (va - vma->vm_start) / PAGE_SIZE))
		extra = 2;
	return refs > extra ? refs - extra : 1;
}

/* Linux's smaps_account, a page at a time. */
static void smaps_account(uint64_t *pgd, const struct vm_area_struct *vma,
			  struct mem_size_stats *mss)
{
	for (unsigned long va = mmu_user_next_mapped(pgd, vma->vm_start, vma->vm_end);
	     va < vma->vm_end; va = mmu_user_next_mapped(pgd, va + PAGE_SIZE, vma->vm_end)) {
		int flags = 0;
		void *page = mmu_user_page(pgd, va, &flags);
		bool dirty = flags & MMU_DIRTY;
		unsigned long mapcount = page_mapcount(vma, va, page);

		mss->resident++;
		mss->referenced++; /* Lucid does not read the accessed bit: every page counts */
		/* An anonymous page: not a file's, nor shared memory's (Linux's PageAnon). */
		if (vma->kind != VMA_SHARED &&
		    !(vma->vm_file && va < vma->vm_file_end &&
		      page == file_pages_page(vma->vm_file,
					      vma->vm_pgoff + (va - vma->vm_start) / PAGE_SIZE)))
			mss->anonymous++;
		mss->pss += PSS_SCALE / mapcount;
		if (dirty)
			mss->pss_dirty += PSS_SCALE / mapcount;
		if (mapcount >= 2)
			*(dirty ? &mss->shared_dirty : &mss->shared_clean) += 1;
		else
			*(dirty ? &mss->private_dirty : &mss->private_clean) += 1;
	}
}

static const char *vma_name(const struct mm_struct *mm, const struct vm_area_struct *vma)
{
	switch (vma->kind) {
	case VMA_ELF:
		return mm->exe_path;
	case VMA_BRK:
		return "[heap]";
	case VMA_STACK:
		return "[stack]";
	case VMA_XOL:
		return "[uprobes]";
	case VMA_VVAR:
		return "[vvar]";
	case VMA_VDSO:
		return "[vdso]";
	default:
		return NULL;
	}
}

/*
 * One line of maps for each of the process's areas (kernel/mm/mmap.c), and its resident pages:
 * those mapped in the page tables, which demand paging fills only as they are touched.
 */
static int collect_vmas(struct mm_struct *mm, struct proc_task *pt, struct proc_vma *vmas,
			bool smaps)
{
	struct vm_area_struct *vma;
	unsigned long rss = 0;
	int n = 0;

	pt->vsize = 0;
	pt->rss_file = 0;
	pt->rss_shmem = 0;
	list_for_each_entry(vma, &mm->mmap, vm_list)
	{
		rss += count_mapped(mm->pgd, vma->vm_start, vma->vm_end);
		if (vma->vm_file && vma->vm_file->ino) /* shared anonymous memory */
			pt->rss_shmem += count_mapped(mm->pgd, vma->vm_start, vma->vm_end);
		else if (vma->vm_file)
			pt->rss_file += count_file_pages(mm->pgd, vma);
		pt->vsize += vma->vm_end - vma->vm_start;
		if (n == PROC_MAPS_MAX)
			continue;
		/* An anonymous area's vm_pgoff means nothing (a cut moves it): Linux shows 0. */
		bool file = vma->vm_file || vma->vm_name || vma->kind == VMA_ELF;

		vmas[n] = (struct proc_vma){vma->vm_start,
					    vma->vm_end,
					    vma->vm_flags,
					    file ? vma->vm_pgoff * PAGE_SIZE : 0,
					    vma_name(&pt->mm, vma),
					    vma->vm_name,
					    vma->vm_file ? vma->vm_file->ino : 0,
					    {0}};
		if (smaps) /* a walk of every page: only smaps asks */
			smaps_account(mm->pgd, vma, &vmas[n].mss);
		n++;
		vma_name_get(vma->vm_name);
	}
	pt->rss = rss;
	return n;
}

/* Copies argv (its NUL-separated strings) out of the task's memory; returns the length. */
static size_t copy_cmdline(const struct mm_struct *mm, char *buf)
{
	size_t len = 0;

	for (unsigned long va = mm->arg_start; va < mm->arg_end && len < PROC_CMDLINE_MAX;) {
		const char *page = mmu_user_page(mm->pgd, ALIGN_DOWN(va, PAGE_SIZE), NULL);
		size_t chunk = MIN(ALIGN_DOWN(va, PAGE_SIZE) + PAGE_SIZE, mm->arg_end) - va;

		chunk = MIN(chunk, PROC_CMDLINE_MAX - len);
		if (!page)
			break; /* the program unmapped its own stack: show what there is */
		memcpy(buf + len, page + (va & (PAGE_SIZE - 1)), chunk);
		len += chunk;
		va += chunk;
	}
	return len;
}

/*
 * Fills *pt (and, if wanted, the maps lines, with smaps's counts if smaps, and cmdline) from the
 * task called pid. -ESRCH if it is gone, as Linux's files answer once their process has been
 * reaped.
 */
static int snapshot(int pid, struct proc_task *pt, struct proc_vma *vmas, int *nr_vmas, bool smaps,
		    char *cmdline, size_t *cmdline_len)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *t = find_task_locked(pid);
	int n = 0;

	if (!t || t->reaped) {
		spin_unlock_irqrestore(&task_list_lock, flags);
		return -ESRCH;
	}
	memset(pt, 0, sizeof(*pt));
	pt->pid = t->pid;
	pt->tgid = t->tgid ? t->tgid : t->pid;
	pt->ppid = t->group_leader->ppid; /* the process's parent, for each of its threads */
	pt->nr_threads = t->group_leader->nr_threads;
	pt->pgrp = t->pgrp;
	pt->sid = t->sid;
	pt->cpu = t->cpu;
	pt->prio = t->prio;
	pt->state = proc_state(t);
	memcpy(pt->comm, t->comm, TASK_COMM_LEN);
	pt->comm[TASK_COMM_LEN - 1] = '\0';
	pt->nvcsw = t->nvcsw;
	pt->nivcsw = t->nivcsw;
	pt->utime = t->utime;
	pt->stime = t->stime;
	pt->cutime = t->cutime;
	pt->cstime = t->cstime;
	pt->start_time = t->start_time;
	pt->sigpending = t->sigpending;
	pt->shared_pending = t->group_leader->shared_pending;
	pt->blocked = t->blocked;
	task_sigactions(t, &pt->sigignore, &pt->sigcatch);
	/* Of the CPUs there are, as Linux's mask has a bit only for each possible CPU. */
	pt->cpus_allowed = t->cpus_allowed & ((1ULL << num_online_cpus()) - 1);
	pt->kthread = !t->mm;
	if (t->mm) {
		/* The process may be changing its areas on another CPU: its mmap_lock stops it. */
		spin_lock(&t->mm->mmap_lock);
		pt->mm = *t->mm;
		if (vmas)
			n = collect_vmas(t->mm, pt, vmas, smaps);
		if (cmdline)
			*cmdline_len = copy_cmdline(t->mm, cmdline);
		spin_unlock(&t->mm->mmap_lock);
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	if (nr_vmas)
		*nr_vmas = n;
	return 0;
}

static int file_pid(struct seq_file *m)
{
	return (int)(long)m->private;
}

/*
 * The file's task and its mappings, for a show function: give the mappings back with
 * put_vmas(vmas, *nr_vmas). NULL and *err when memory is short or the task is gone.
 */
static struct proc_vma *file_snapshot(struct seq_file *m, struct proc_task *pt, int *nr_vmas,
				      bool smaps, int *err)
{
	struct proc_vma *vmas = kmalloc(PROC_MAPS_MAX * sizeof(*vmas));

	if (!vmas) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = snapshot(file_pid(m), pt, vmas, nr_vmas, smaps, NULL, NULL);
	if (*err) {
		put_vmas(vmas, 0);
		return NULL;
	}
	return vmas;
}

/* The 52 fields of proc(5)'s /proc/pid/stat; what Lucid does not count is 0. */
static int stat_show(struct seq_file *m, void *v)
{
	struct proc_task pt;
	int n, err;
	struct proc_vma *vmas = file_snapshot(m, &pt, &n, false, &err);

	(void)v;
	if (!vmas)
		return err;
	put_vmas(vmas, n);
	pt.tpgid = tty_foreground_pgrp(pt.sid);
	const struct mm_struct *mm = &pt.mm;
	/* pid (comm) state ppid pgrp session tty_nr tpgid flags */
	seq_printf(m, "%d (%s) %c %d %d %d 0 %d %u ", pt.pid, pt.comm, pt.state, pt.ppid, pt.pgrp,
		   pt.sid, pt.tpgid, pt.kthread ? PF_KTHREAD : 0);
	/* minflt cminflt majflt cmajflt utime stime cutime cstime, the times in clock ticks */
	seq_printf(m, "0 0 0 0 %lu %lu %lu %lu ", (unsigned long)nsec_to_clock_t(pt.utime),
		   (unsigned long)nsec_to_clock_t(pt.stime),
		   (unsigned long)nsec_to_clock_t(pt.cutime),
		   (unsigned long)nsec_to_clock_t(pt.cstime));
	/* priority nice num_threads itrealvalue starttime (ticks after boot) vsize rss rsslim */
	seq_printf(m, "%d 0 %d 0 %lu %lu %lu %lu ", pt.prio - NICE_0_PRIO,
		   pt.nr_threads ? pt.nr_threads : 1, (unsigned long)nsec_to_clock_t(pt.start_time),
		   pt.vsize, pt.rss, RLIM_INFINITY);
	/* startcode endcode startstack kstkesp kstkeip */
	seq_printf(m, "%lu %lu %lu 0 0 ", mm->start_code, mm->end_code, mm->start_stack);
	/* signal blocked sigignore sigcatch wchan nswap cnswap exit_signal processor */
	seq_printf(m, "%lu %lu %lu %lu 0 0 0 %d %d ", (unsigned long)pt.sigpending,
		   (unsigned long)pt.blocked, (unsigned long)pt.sigignore,
		   (unsigned long)pt.sigcatch, SIGCHLD, pt.cpu);
	/* rt_priority policy delayacct_blkio_ticks guest_time cguest_time */
	seq_puts(m, "0 0 0 0 0 ");
	/* start_data end_data start_brk arg_start arg_end env_start env_end exit_code */
	seq_printf(m, "%lu %lu %lu %lu %lu %lu %lu 0\n", mm->start_data, mm->end_data,
		   mm->start_brk, mm->arg_start, mm->arg_end, mm->env_start, mm->env_end);
	return 0;
}

/* "0-1,3": the CPUs of mask as ranges, as Linux's %*pbl prints a cpumask. */
static void print_cpu_list(struct seq_file *m, uint64_t mask)
{
	const char *sep = "";

	for (int c = 0; c < 64; c++) {
		int last = c;

		if (!(mask & (1ULL << c)))
			continue;
		while (last + 1 < 64 && (mask & (1ULL << (last + 1))))
			last++;
		if (last == c)
			seq_printf(m, "%s%d", sep, c);
		else
			seq_printf(m, "%s%d-%d", sep, c, last);
		sep = ",";
		c = last;
	}
	seq_putc(m, '\n');
}

static void status_kb(struct seq_file *m, const char *name, unsigned long bytes)
{
	seq_printf(m, "%s:\t%8lu kB\n", name, bytes / 1024);
}

/* The lines of Linux 6.1's status that ps (procps, busybox) and people read. */
static int status_show(struct seq_file *m, void *v)
{
	struct proc_task pt;
	int n, err;
	struct proc_vma *vmas = file_snapshot(m, &pt, &n, false, &err);

	(void)v;
	if (!vmas)
		return err;
	seq_printf(m, "Name:\t%s\nUmask:\t0022\nState:\t%s\n", pt.comm, state_name(pt.state));
	seq_printf(m, "Tgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n", pt.tgid, pt.pid,
		   pt.ppid);
	seq_puts(m, "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nFDSize:\t64\nGroups:\t \n");
	seq_printf(m, "NStgid:\t%d\nNSpid:\t%d\nNSpgid:\t%d\nNSsid:\t%d\n", pt.tgid, pt.pid,
		   pt.pgrp, pt.pgrp);
	if (!pt.kthread) {
		unsigned long size = pt.vsize, stk = 0, exe = 0;

		for (int i = 0; i < n; i++) {
			if (vmas[i].name && strcmp(vmas[i].name, "[stack]") == 0)
				stk += vmas[i].end - vmas[i].start;
			else if (vmas[i].flags & VM_EXEC)
				exe += vmas[i].end - vmas[i].start;
		}
		status_kb(m, "VmPeak", size);
		status_kb(m, "VmSize", size);
		status_kb(m, "VmLck", 0);
		status_kb(m, "VmPin", 0);
		status_kb(m, "VmHWM", pt.rss * PAGE_SIZE);
		status_kb(m, "VmRSS", pt.rss * PAGE_SIZE);
		status_kb(m, "RssAnon", (pt.rss - pt.rss_file - pt.rss_shmem) * PAGE_SIZE);
		status_kb(m, "RssFile", pt.rss_file * PAGE_SIZE);
		status_kb(m, "RssShmem", pt.rss_shmem * PAGE_SIZE);
		status_kb(m, "VmData", size - stk - exe);
		status_kb(m, "VmStk", stk);
		status_kb(m, "VmExe", exe);
		status_kb(m, "VmLib", 0);
		status_kb(m, "VmPTE", 0);
		status_kb(m, "VmSwap", 0);
		status_kb(m, "HugetlbPages", 0);
		seq_puts(m, "CoreDumping:\t0\nTHP_enabled:\t1\n");
	}
	put_vmas(vmas, n);
	seq_printf(m, "Threads:\t%d\nSigQ:\t0/0\n", pt.nr_threads ? pt.nr_threads : 1);
	seq_printf(m, "SigPnd:\t%016lx\nShdPnd:\t%016lx\nSigBlk:\t%016lx\n",
		   (unsigned long)pt.sigpending, (unsigned long)pt.shared_pending,
		   (unsigned long)pt.blocked);
	seq_printf(m, "SigIgn:\t%016lx\nSigCgt:\t%016lx\n", (unsigned long)pt.sigignore,
		   (unsigned long)pt.sigcatch);
	/* Everyone is root with every capability (Linux 6.1's CAP_LAST_CAP: 41 bits). */
	seq_printf(m, "CapInh:\t%016lx\nCapPrm:\t%016lx\nCapEff:\t%016lx\nCapBnd:\t%016lx\n", 0UL,
		   CAP_FULL_SET, CAP_FULL_SET, CAP_FULL_SET);
	seq_puts(m,
		 "CapAmb:\t0000000000000000\nNoNewPrivs:\t0\nSeccomp:\t0\nSeccomp_filters:\t0\n");
	seq_printf(m, "Cpus_allowed:\t%lx\nCpus_allowed_list:\t", (unsigned long)pt.cpus_allowed);
	print_cpu_list(m, pt.cpus_allowed);
	seq_printf(m, "voluntary_ctxt_switches:\t%lu\nnonvoluntary_ctxt_switches:\t%lu\n",
		   (unsigned long)pt.nvcsw, (unsigned long)pt.nivcsw);
	return 0;
}

/* The task's name (its program's, or the kernel thread's) and a newline, as Linux's comm. */
static int comm_show(struct seq_file *m, void *v)
{
	struct proc_task pt;
	int err = snapshot(file_pid(m), &pt, NULL, NULL, false, NULL, NULL);

	(void)v;
	if (!err)
		seq_printf(m, "%s\n", pt.comm);
	return err;
}

/* argv as the process holds it, its strings NUL-separated; empty for a kernel thread. */
static int cmdline_show(struct seq_file *m, void *v)
{
	char *buf = kmalloc(PROC_CMDLINE_MAX);
	struct proc_task pt;
	size_t len = 0;
	int err;

	(void)v;
	if (!buf)
		return -ENOMEM;
	err = snapshot(file_pid(m), &pt, NULL, NULL, false, buf, &len);
	if (!err)
		seq_write(m, buf, len);
	kfree(buf);
	return err;
}

/* Linux pads a line to this width, then a space and the path (fs/proc/task_mmu.c's seq_pad). */
#define MAPS_NAME_COLUMN (25 + 6 * (int)sizeof(void *) - 1)

#define SHMEM_DEV_MINOR 1 /* the device of Linux's internal tmpfs, shared memory's: 00:01 */

/* One line of maps: Linux's show_map_vma. */
static void show_map_vma(struct seq_file *m, const struct proc_vma *a)
{
	const char *name = a->file ? a->file->path : a->name;
	char head[MAPS_NAME_COLUMN + 1];
	/*
	 * Lucid's files have no device or inode numbers to show; shared anonymous memory has
	 * Linux's device (its internal tmpfs's, 00:01) and a number of its own.
	 */
	int len =
		snprintf(head, sizeof(head), "%08lx-%08lx %c%c%c%c %08lx %02x:%02x %lu ", a->start,
			 a->end, a->flags & VM_READ ? 'r' : '-', a->flags & VM_WRITE ? 'w' : '-',
			 a->flags & VM_EXEC ? 'x' : '-', a->flags & VM_MAYSHARE ? 's' : 'p',
			 a->offset, 0, a->ino ? SHMEM_DEV_MINOR : 0, a->ino);

	seq_puts(m, head);
	if (name && name[0])
		seq_printf(m, "%*s %s", MAX(MAPS_NAME_COLUMN - len, 0), "", name);
	seq_putc(m, '\n');
}

/*
 * smaps's VmFlags: Linux's two-letter names, for the flags Lucid's areas have. Every area may
 * be read, written and run (mr mw me: Linux's VM_MAY*), but a shared mapping of a file not open
 * for writing, which can never be written (no mw).
 */
static void show_vm_flags(struct seq_file *m, unsigned long flags)
{
	bool maywrite = !(flags & VM_MAYSHARE) || (flags & VM_MAYWRITE);

	seq_printf(m, "VmFlags: %s%s%s%s%s%s%s%s%s\n", flags & VM_READ ? "rd " : "",
		   flags & VM_WRITE ? "wr " : "", flags & VM_EXEC ? "ex " : "",
		   flags & VM_SHARED ? "sh " : "", "mr ", maywrite ? "mw " : "", "me ",
		   flags & VM_MAYSHARE ? "ms " : "", flags & VM_GROWSDOWN ? "gd " : "");
}

static int maps_show(struct seq_file *m, void *v)
{
	struct proc_task pt;
	int n, err;
	struct proc_vma *vmas = file_snapshot(m, &pt, &n, false, &err);

	(void)v;
	if (!vmas)
		return err;
	for (int i = 0; i < n; i++)
		show_map_vma(m, &vmas[i]);
	put_vmas(vmas, n);
	return 0;
}

/* smaps's figures are kB, right-aligned in 8 columns after the label (Linux's SEQ_PUT_DEC). */
static void smaps_kb(struct seq_file *m, const char *label, unsigned long kb)
{
	seq_printf(m, "%-16s%8lu kB\n", label, kb);
}

static void smaps_line(struct seq_file *m, const char *label, unsigned long pages)
{
	smaps_kb(m, label, pages * (PAGE_SIZE >> 10));
}

/*
 * smaps: each maps line, then what its pages are (Linux 6.1's fields, in its order); Lucid has
 * no huge pages, swap, lazy-free pages or locked memory, so those are 0.
 */
static int smaps_show(struct seq_file *m, void *v)
{
	struct proc_task pt;
	int n, err;
	struct proc_vma *vmas = file_snapshot(m, &pt, &n, true, &err);

	(void)v;
	if (!vmas)
		return err;
	for (int i = 0; i < n; i++) {
		const struct proc_vma *a = &vmas[i];
		const struct mem_size_stats *mss = &a->mss;

		show_map_vma(m, a);
		smaps_line(m, "Size:", (a->end - a->start) / PAGE_SIZE);
		seq_printf(m, "KernelPageSize: %8lu kB\nMMUPageSize:    %8lu kB\n", PAGE_SIZE >> 10,
			   PAGE_SIZE >> 10);
		smaps_line(m, "Rss:", mss->resident);
		smaps_kb(m, "Pss:", mss->pss * (PAGE_SIZE >> 10) / PSS_SCALE);
		smaps_kb(m, "Pss_Dirty:", mss->pss_dirty * (PAGE_SIZE >> 10) / PSS_SCALE);
		smaps_line(m, "Shared_Clean:", mss->shared_clean);
		smaps_line(m, "Shared_Dirty:", mss->shared_dirty);
		smaps_line(m, "Private_Clean:", mss->private_clean);
		smaps_line(m, "Private_Dirty:", mss->private_dirty);
		smaps_line(m, "Referenced:", mss->referenced);
		smaps_line(m, "Anonymous:", mss->anonymous);
		static const char *const zero[] = {
			"LazyFree:",	  "AnonHugePages:",  "ShmemPmdMapped:",
			"FilePmdMapped:", "Shared_Hugetlb:", "Private_Hugetlb:",
			"Swap:",	  "SwapPss:",	     "Locked:"};
		for (size_t z = 0; z < ARRAY_SIZE(zero); z++)
			smaps_line(m, zero[z], 0);
		seq_puts(m, "THPeligible:    0\n");
		show_vm_flags(m, a->flags);
	}
	put_vmas(vmas, n);
	return 0;
}

#define PID_FILE(name)                                                   \
	static int name##_open(struct inode *inode, struct file *file)   \
	{                                                                \
		return single_open(file, name##_show, inode->i_private); \
	}                                                                \
	static const struct file_operations proc_pid_##name##_fops = {   \
		.open = name##_open,                                     \
		.read = seq_read,                                        \
		.llseek = seq_lseek,                                     \
		.release = single_release,                               \
	}

/*
 * syscall: the system call the task is in, as Linux's proc_pid_syscall prints it: its number,
 * its six arguments, then the user stack pointer and program counter, in hex; "-1 SP PC" when it
 * is not in one (an interrupt from user mode), "-1 0x0 0x0" once it has exited (its stack
 * gone), and "running" for another task on a CPU now, whose registers are not saved.
 * The frame is the one at the top of the task's kernel stack (arch/x86_64/regs.h), read under
 * task_list_lock, which keeps the task and its stack from going away.
 */
static int syscall_show(struct seq_file *m, void *v)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *t = find_task_locked(file_pid(m));
	struct pt_regs regs = {0};
	enum { GONE, RUNNING, EXITED, SAVED } what = GONE;

	(void)v;
	if (t && !t->reaped) {
		if (t->zombie || t->state == TASK_DEAD || !t->stack || !t->mm)
			what = EXITED;
		else if (t != current && t->state == TASK_RUNNING)
			what = RUNNING;
		else
			what = SAVED;
		if (what == SAVED)
			regs = *((struct pt_regs *)((char *)t->stack + KSTACK_SIZE) - 1);
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	switch (what) {
	case GONE:
		return -ESRCH;
	case RUNNING:
		seq_puts(m, "running\n");
		break;
	case EXITED:
		seq_puts(m, "-1 0x0 0x0\n");
		break;
	case SAVED:
		if (regs.vector != VEC_SYSCALL)
			seq_printf(m, "-1 0x%lx 0x%lx\n", regs.rsp, regs.rip);
		else
			seq_printf(m, "%ld 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx 0x%lx\n",
				   (long)regs.orig_rax, regs.rdi, regs.rsi, regs.rdx, regs.r10,
				   regs.r8, regs.r9, regs.rsp, regs.rip);
		break;
	}
	return 0;
}

PID_FILE(stat);
PID_FILE(syscall);

/* timers: the process's POSIX timers (kernel/time/posix-timers.c prints them, as Linux's). */
static int timers_show(struct seq_file *m, void *v)
{
	(void)v;
	return proc_timers_show(m, file_pid(m));
}
PID_FILE(timers);
PID_FILE(status);
PID_FILE(cmdline);
PID_FILE(maps);
PID_FILE(smaps);

/*
 * make-it-fail: whether fault injection (kernel/debug/fault_inject.c) may fail this task's
 * allocations, 0 or 1, as Linux's. fork copies it, so `echo 1 > /proc/self/make-it-fail; exec
 * CMD` in a shell of its own puts CMD and everything it starts under test, and nothing else.
 */
static int make_it_fail_show(struct seq_file *m, void *v)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *t = find_task_locked(file_pid(m));
	int val = t && !t->reaped ? t->make_it_fail : -1;

	(void)v;
	spin_unlock_irqrestore(&task_list_lock, flags);
	if (val < 0)
		return -ESRCH;
	seq_printf(m, "%d\n", val);
	return 0;
}

static int make_it_fail_open(struct inode *inode, struct file *file)
{
	return single_open(file, make_it_fail_show, inode->i_private);
}

#define MAKE_IT_FAIL_WRITE_MAX 16

static ssize_t make_it_fail_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	char buf[MAKE_IT_FAIL_WRITE_MAX];
	unsigned long flags;
	struct task *t;
	int val;

	if (cnt >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, ubuf, cnt);
	buf[cnt] = '\0';
	if (kstrtoint(buf, 10, &val) || val < 0 || val > 1)
		return -EINVAL; /* Linux's proc_fault_inject_write: 0 or 1 */
	flags = spin_lock_irqsave(&task_list_lock);
	t = find_task_locked((int)(long)file->f_inode->i_private);
	if (t && !t->reaped)
		t->make_it_fail = val;
	spin_unlock_irqrestore(&task_list_lock, flags);
	if (!t || t->reaped)
		return -ESRCH;
	*ppos += (loff_t)cnt;
	return (ssize_t)cnt;
}

static const struct file_operations proc_pid_make_it_fail_fops = {
	.open = make_it_fail_open,
	.read = seq_read,
	.write = make_it_fail_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/*
 * comm: the task's name, and, written, its new name (what prctl(PR_SET_NAME) sets; musl's and
 * glibc's pthread_setname_np write /proc/self/task/TID/comm for another thread). As Linux's
 * comm_write: the first TASK_COMM_LEN - 1 bytes as they are, only by a thread of the same
 * process (EINVAL otherwise).
 */
static int comm_open(struct inode *inode, struct file *file)
{
	return single_open(file, comm_show, inode->i_private);
}

static ssize_t comm_write(struct file *file, const char *ubuf, size_t cnt, loff_t *ppos)
{
	char comm[TASK_COMM_LEN] = {0};
	unsigned long flags;
	struct task *t;
	ssize_t ret = (ssize_t)cnt;

	memcpy(comm, ubuf, MIN(cnt, sizeof(comm) - 1));
	flags = spin_lock_irqsave(&task_list_lock);
	t = find_task_locked((int)(long)file->f_inode->i_private);
	if (!t || t->reaped)
		ret = -ESRCH;
	else if (t->group_leader != current->group_leader)
		ret = -EINVAL;
	else
		set_task_comm(t, comm);
	spin_unlock_irqrestore(&task_list_lock, flags);
	if (ret > 0)
		*ppos += ret;
	return ret;
}

static const struct file_operations proc_pid_comm_fops = {
	.open = comm_open,
	.read = seq_read,
	.write = comm_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static const struct {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
} pid_files[] = {
	{"cmdline", 0444, &proc_pid_cmdline_fops},
	{"comm", 0644, &proc_pid_comm_fops},
	{"make-it-fail", 0644, &proc_pid_make_it_fail_fops},
	{"maps", 0444, &proc_pid_maps_fops},
	{"smaps", 0444, &proc_pid_smaps_fops},
	{"stat", 0444, &proc_pid_stat_fops},
	{"status", 0444, &proc_pid_status_fops},
	{"syscall", 0400, &proc_pid_syscall_fops}, /* Linux's S_IRUSR */
	{"timers", 0444, &proc_pid_timers_fops},
};

#define EXE_NAME "exe"
#define PROC_PID_NAME_MAX 12 /* an int in decimal, its sign and NUL */

/* The program task pid runs, copied into buf (EXE_PATH_LEN bytes): false for a kernel thread. */
static bool task_exe(int pid, char *buf)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *t = find_task_locked(pid);
	bool user = t && !t->reaped && t->mm;

	if (user)
		strlcpy(buf, t->mm->exe_path, EXE_PATH_LEN);
	spin_unlock_irqrestore(&task_list_lock, flags);
	return user;
}

/*
 * /proc/PID/exe: a link whose target is the program's path, fixed when the directory is made;
 * revalidate drops the directory when the process has run another program since.
 */
static int proc_exe_create(struct dentry *dir, const char *target)
{
	struct inode *inode = new_inode(S_IFLNK | 0777);
	struct dentry *dentry;

	if (!inode)
		return -ENOMEM;
	inode->i_link = kstrdup(target);
	dentry = inode->i_link ? d_alloc(dir, EXE_NAME, strlen(EXE_NAME)) : NULL;
	if (!dentry) {
		kfree(inode->i_link);
		kfree(inode);
		return -ENOMEM;
	}
	d_add(dentry, inode);
	return 0;
}

/* Whether the pid directory's exe link (if any) still names what the task runs. */
static bool proc_exe_current(struct dentry *dir, int pid)
{
	char exe[EXE_PATH_LEN];
	struct dentry *d = d_lookup(dir, EXE_NAME, strlen(EXE_NAME));
	bool user = task_exe(pid, exe);

	if (!d)
		return !user;
	return user && strcmp(d->d_inode->i_link, exe) == 0;
}

static int dentry_pid(const struct dentry *dentry)
{
	return (int)(long)dentry->d_inode->i_private;
}

/* The name a lookup asked for: a live pid, or "self"; 0 if neither. */
static int name_to_pid(const char *name)
{
	int pid;

	if (strcmp(name, SELF_NAME) == 0) /* the reader's process, from any of its threads */
		return current->group_leader->pid;
	if (name[0] < '1' || name[0] > '9' || kstrtoint(name, 10, &pid) || !task_alive(pid))
		return 0;
	return pid;
}

static bool proc_root_revalidate(struct dentry *dentry);

#define PROC_LIST_MAX 1024 /* pids listed at most: far more tasks than Lucid runs */

static int cmp_pid(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * The directories of tasks that are gone leave /proc here, at the next lookup of a new name,
 * so that reading many pids' files once each does not keep them all. The live pids are taken
 * once, sorted, and each directory looked up in them: a fork bomb's 900 processes, each
 * looking up /proc/self/exe as busybox starts, made a check per directory that walked the task
 * list (O(n^2) a lookup) the cost of every exec. A program run since in a directory's task is
 * revalidate's to find, when that directory is looked up.
 */
static void prune_dead(struct dentry *root)
{
	int *pids = kmalloc(PROC_LIST_MAX * sizeof(*pids)), n = 0;
	struct dentry *d, *next;
	unsigned long flags;
	struct task *t;
	bool all = true;

	if (!pids)
		return; /* nothing pruned this time: the next lookup tries again */
	flags = spin_lock_irqsave(&task_list_lock);
	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->reaped)
			continue;
		if (n == PROC_LIST_MAX) {
			all = false;
			break;
		}
		pids[n++] = t->pid;
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	if (all) {
		sort(pids, (size_t)n, sizeof(*pids), cmp_pid);
		list_for_each_entry_safe(d, next, &root->d_subdirs, d_child)
		{
			int pid = d->d_inode ? dentry_pid(d) : 0;

			if (!pid)
				continue; /* a file of /proc's own */
			if (S_ISLNK(d->d_inode->i_mode)
				    ? name_to_pid(d->d_name) != pid
				    : !bsearch(&pid, pids, (size_t)n, sizeof(*pids), cmp_pid))
				d_kill_tree(d, 0);
		}
	}
	kfree(pids);
}

/* /proc/self for task pid: a link to "PID", Linux's lrwxrwxrwx with the size 0. */
static int proc_self_create(struct dentry *dentry, int pid)
{
	struct inode *inode = new_inode(S_IFLNK | 0777);

	if (!inode)
		return -ENOMEM;
	inode->i_private = (void *)(long)pid;
	inode->i_link = kmalloc(PROC_PID_NAME_MAX);
	if (!inode->i_link) {
		kfree(inode);
		return -ENOMEM;
	}
	snprintf(inode->i_link, PROC_PID_NAME_MAX, "%d", pid);
	dget(dentry); /* the tree's reference, as d_add's callers give it */
	d_add(dentry, inode);
	return 0;
}

static const struct inode_operations proc_task_inode_operations;

/*
 * Makes dentry the directory of task pid, with its files holding the pid: /proc/PID, or
 * /proc/PID/task/TID (no task directory in that one, as Linux's).
 */
static int proc_pid_dir_create(struct dentry *dentry, int pid, bool with_task)
{
	struct inode *inode = new_inode(S_IFDIR | 0555);
	if (!inode)
		return -ENOMEM;
	inode->i_private = (void *)(long)pid;
	dget(dentry); /* the tree's reference, as d_add's callers give it */
	d_add(dentry, inode);
	for (size_t i = 0; i < ARRAY_SIZE(pid_files); i++) {
		if (!proc_create_data(pid_files[i].name, pid_files[i].mode, dentry,
				      pid_files[i].fops, inode->i_private)) {
			d_kill_tree(dentry, S_DEAD);
			return -ENOMEM;
		}
	}
	char exe[EXE_PATH_LEN];
	struct dentry *task = with_task ? proc_mkdir("task", dentry) : NULL;
	if ((with_task && !task) || proc_fd_dirs_create(dentry, pid) ||
	    (task_exe(pid, exe) && proc_exe_create(dentry, exe))) {
		d_kill_tree(dentry, S_DEAD);
		return -ENOMEM;
	}
	if (task) {
		task->d_inode->i_op = &proc_task_inode_operations;
		task->d_inode->i_private = (void *)(long)pid;
	}
	return 0;
}

/* Does pid name a process (its leader), not one of its other threads? */
static bool is_group_leader(int pid)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *t = find_task_locked(pid);
	bool leader = !t || t->group_leader == t;

	spin_unlock_irqrestore(&task_list_lock, flags);
	return leader;
}

/* Makes /proc/<name> for the task pid: the directory, and its files holding the pid. */
static int proc_root_lookup(struct inode *dir, struct dentry *dentry)
{
	int pid = name_to_pid(dentry->d_name);

	(void)dir;
	prune_dead(dentry->d_parent);
	if (!pid)
		return -ENOENT;
	if (strcmp(dentry->d_name, SELF_NAME) == 0)
		return proc_self_create(dentry, pid);
	/* A thread's /proc/TID is found by name but not listed, as Linux's: ps reads /proc. */
	dentry->d_unlisted = !is_group_leader(pid);
	return proc_pid_dir_create(dentry, pid, true);
}

/*
 * Is tid a live thread of the process of task pid? pid is any thread's, as Linux's /proc/TID of a
 * thread that is not the leader has a task directory listing its whole process.
 */
static bool thread_of(int tid, int pid)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock);
	struct task *t = find_task_locked(tid), *p = find_task_locked(pid);
	bool ok = t && p && !t->reaped && t->group_leader == p->group_leader;

	spin_unlock_irqrestore(&task_list_lock, flags);
	return ok;
}

/* /proc/PID/task/TID: a thread of process PID (the directory's pid). */
static int proc_task_lookup(struct inode *dir, struct dentry *dentry)
{
	const char *name = dentry->d_name;
	int tid;

	if (name[0] < '1' || name[0] > '9' || kstrtoint(name, 10, &tid) ||
	    !thread_of(tid, dentry_pid(dentry->d_parent)))
		return -ENOENT;
	(void)dir;
	return proc_pid_dir_create(dentry, tid, false);
}

static bool proc_task_revalidate(struct dentry *dentry)
{
	return thread_of(dentry_pid(dentry), dentry_pid(dentry->d_parent));
}

/* Before /proc/PID/task is listed: a directory for each thread the process has now. */
static void proc_task_populate(struct dentry *dir)
{
	int *tids = kmalloc(PROC_LIST_MAX * sizeof(*tids)), n = 0;
	struct task *t, *leader;
	struct dentry *d, *next;
	unsigned long flags;

	if (!tids)
		return;
	list_for_each_entry_safe(d, next, &dir->d_subdirs, d_child)
	{
		if (d->d_inode && !proc_task_revalidate(d))
			d_kill_tree(d, 0); /* a thread that has exited */
	}
	flags = spin_lock_irqsave(&task_list_lock);
	t = find_task_locked(dentry_pid(dir)); /* a thread's /proc/TID/task: its process's */
	leader = t ? t->group_leader : NULL;
	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->group_leader == leader && leader && t->pid > 0 && !t->reaped &&
		    (t->sighand || t == t->group_leader) && n < PROC_LIST_MAX)
			tids[n++] = t->pid;
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	sort(tids, (size_t)n, sizeof(*tids), cmp_pid);
	for (int i = 0; i < n; i++) {
		char name[PROC_PID_NAME_MAX];
		size_t len = (size_t)snprintf(name, sizeof(name), "%d", tids[i]);
		d = d_lookup(dir, name, len) ? NULL : d_alloc(dir, name, len);

		if (d) {
			proc_task_lookup(dir->d_inode, d); /* gone since: no directory */
			dput(d);
		}
	}
	kfree(tids);
}

static const struct inode_operations proc_task_inode_operations = {
	.lookup = proc_task_lookup,
	.revalidate = proc_task_revalidate,
	.populate = proc_task_populate,
};

/* A cached /proc/PID stays while its task does; /proc/self while the same task asks. */
static bool proc_root_revalidate(struct dentry *dentry)
{
	int pid = dentry_pid(dentry);

	if (!pid)
		return true; /* a file of /proc's own */
	if (S_ISLNK(dentry->d_inode->i_mode))
		return name_to_pid(dentry->d_name) == pid; /* self: the same reader */
	return name_to_pid(dentry->d_name) == pid && proc_exe_current(dentry, pid);
}

/*
 * Before /proc is listed: a directory for each live task that has none yet, so that readdir
 * shows every pid (busybox ps lists /proc), as Linux's proc_pid_readdir does. pid 0, the idle
 * tasks, has none, as in Linux.
 */

static void proc_root_populate(struct dentry *root)
{
	int *pids = kmalloc(PROC_LIST_MAX * sizeof(*pids)), n = 0;
	unsigned long flags;
	struct task *t;

	if (!pids)
		return; /* the listing shows what is there already */
	flags = spin_lock_irqsave(&task_list_lock);
	list_for_each_entry(t, &task_list, tasks)
	{
		/* Processes only, as Linux's: their threads are in /proc/PID/task. */
		if (t->pid > 0 && !t->reaped && t->group_leader == t && n < PROC_LIST_MAX)
			pids[n++] = t->pid;
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	prune_dead(root);
	for (int i = 0; i < n; i++) {
		char name[PROC_PID_NAME_MAX];
		size_t len = (size_t)snprintf(name, sizeof(name), "%d", pids[i]);
		struct dentry *d = d_lookup(root, name, len) ? NULL : d_alloc(root, name, len);

		if (d) {
			/* gone since: no directory, as lookup */
			proc_root_lookup(root->d_inode, d);
			dput(d); /* ours; the tree keeps its own */
		}
	}
	kfree(pids);
}

const struct inode_operations proc_root_inode_operations = {
	.lookup = proc_root_lookup,
	.revalidate = proc_root_revalidate,
	.populate = proc_root_populate,
};
