/*
 * /proc's files about the machine: uptime, stat, loadavg, cpuinfo, meminfo, interrupts, in
 * Linux 6.1's formats, so that what students know from Linux (and top, ps, uptime) reads the
 * same here. The times all come from one count, the tick's (kernel/sched/cputime.c): uptime's
 * idle seconds are the idle column of stat summed over the CPUs, and each CPU's columns add
 * up to its ticks. Each is a seq_file with one
 * record (single_open), generated afresh at every open, so it is always current. kallsyms is
 * made here too; its seq_file is kernel/kallsyms.c's.
 * /proc/sys/kernel/ is made here, empty; kernel/fs/proc/sysctl.c and the tracer add their files to
 * it.
 */
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/kallsyms.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/percpu.h"
#include "kernel/time/time.h"
#include "kernel/sched/cputime.h"
#include "kernel/sched/loadavg.h"
#include "kernel/sched/sched.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/idt.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/printf.h"

struct dentry *proc_sys_kernel;

/* A CPU's time in one of /proc/stat's columns, in ns; cpu -1: all of them summed. */
static uint64_t cpustat(int cpu, enum cpu_usage_stat which)
{
	uint64_t ns = 0;

	for (int c = 0; c < num_online_cpus(); c++) {
		if (cpu < 0 || c == cpu)
			ns += READ_ONCE(kernel_cpustat[c].cpustat[which]);
	}
	return ns;
}

/* "12.34 40.12": seconds up, and seconds idle summed over the CPUs (stat's idle column). */
static int uptime_show(struct seq_file *m, void *v)
{
	uint64_t cs = ktime_get_ns() / (NSEC_PER_SEC / 100);
	uint64_t idle = cpustat(-1, CPUTIME_IDLE) / (NSEC_PER_SEC / 100);

	(void)v;
	seq_printf(m, "%lu.%02lu %lu.%02lu\n", (unsigned long)(cs / 100), (unsigned long)(cs % 100),
		   (unsigned long)(idle / 100), (unsigned long)(idle % 100));
	return 0;
}

/* One "cpu" line of /proc/stat: its ten columns in clock ticks (USER_HZ). */
static void stat_cpu_line(struct seq_file *m, const char *label, int cpu)
{
	seq_puts(m, label);
	for (int i = 0; i < NR_STATS; i++)
		seq_printf(m, " %lu",
			   (unsigned long)nsec_to_clock_t(cpustat(cpu, (enum cpu_usage_stat)i)));
	seq_putc(m, '\n');
}

#define NR_SOFTIRQS 10 /* the columns of stat's softirq line: Linux's HI .. RCU */
#define NR_IRQS_SHOWN (VEC_MSI_BASE - VEC_ISA_BASE) /* stat's intr columns: IRQ 0 and up */

static unsigned long irq_sum(int vector)
{
	unsigned long n = 0;

	for (int c = 0; c < num_online_cpus(); c++)
		n += READ_ONCE(cpus[c].irq_count[vector]);
	return n;
}

/* Linux 6.1's show_stat (fs/proc/stat.c): what top, vmstat and mpstat read. */
static int stat_show(struct seq_file *m, void *v)
{
	uint64_t boot_real_ns = ktime_get_real_ns() - ktime_get_ns();
	unsigned long intr = 0;

	(void)v;
	stat_cpu_line(m, "cpu ", -1); /* "cpu  ": two spaces, as Linux */
	for (int c = 0; c < num_online_cpus(); c++) {
		char label[8];

		snprintf(label, sizeof(label), "cpu%d", c);
		stat_cpu_line(m, label, c);
	}
	/* The total counts every vector (the local timer, IPIs), as Linux's arch_irq_stat does. */
	for (int vec = VEC_FIRST_IRQ; vec < (int)ARRAY_SIZE(cpus[0].irq_count); vec++)
		intr += irq_sum(vec);
	seq_printf(m, "intr %lu", intr);
	for (int irq = 0; irq < NR_IRQS_SHOWN; irq++)
		seq_printf(m, " %lu", irq_sum(VEC_ISA_BASE + irq));
	seq_printf(m, "\nctxt %lu\nbtime %lu\nprocesses %d\nprocs_running %lu\nprocs_blocked %lu\n",
		   (unsigned long)nr_context_switches(),
		   (unsigned long)(boot_real_ns / NSEC_PER_SEC), sched_last_pid(),
		   nr_running_total(), nr_uninterruptible());
	seq_puts(m, "softirq 0");
	for (int i = 0; i < NR_SOFTIRQS; i++)
		seq_puts(m, " 0");
	seq_putc(m, '\n');
	return 0;
}

/* The number of tasks there are (every state but reaped): loadavg's "1/57". */
static unsigned long nr_threads(void)
{
	unsigned long flags = spin_lock_irqsave(&task_list_lock), n = 0;
	struct task *t;

	list_for_each_entry(t, &task_list, tasks)
	{
		if (t->pid > 0 && !t->reaped)
			n++;
	}
	spin_unlock_irqrestore(&task_list_lock, flags);
	return n;
}

/*
 * "0.00 0.01 0.05 1/57 123": the three averages, runnable/all tasks, the last pid (Linux's
 * loadavg_proc_show).
 */
static int loadavg_show(struct seq_file *m, void *v)
{
	unsigned long avnrun[3];

	(void)v;
	get_avenrun(avnrun, FIXED_1 / 200, 0);
	seq_printf(m, "%lu.%02lu %lu.%02lu %lu.%02lu %lu/%lu %d\n", LOAD_INT(avnrun[0]),
		   LOAD_FRAC(avnrun[0]), LOAD_INT(avnrun[1]), LOAD_FRAC(avnrun[1]),
		   LOAD_INT(avnrun[2]), LOAD_FRAC(avnrun[2]), nr_running_total(), nr_threads(),
		   sched_last_pid());
	return 0;
}

static void cpuid_string(uint32_t leaf, char *out)
{
	uint32_t r[4];

	cpuid(leaf, 0, &r[0], &r[1], &r[2], &r[3]);
	memcpy(out, r, sizeof(r));
}

static int cpuinfo_show(struct seq_file *m, void *v)
{
	uint32_t eax, ebx, ecx, edx, vendor[3];
	char name[49] = "";

	(void)v;
	cpuid(0, 0, &eax, &vendor[0], &vendor[2], &vendor[1]); /* EBX EDX ECX spell it */
	cpuid(0x80000000, 0, &eax, &ebx, &ecx, &edx);
	if (eax >= 0x80000004) {
		for (int i = 0; i < 3; i++)
			cpuid_string(0x80000002 + i, name + 16 * i);
		name[48] = '\0';
	}
	cpuid(1, 0, &eax, &ebx, &ecx, &edx);
	for (int c = 0; c < num_online_cpus(); c++) {
		seq_printf(m, "processor\t: %d\n", c);
		seq_printf(m, "vendor_id\t: %.12s\n", (const char *)vendor);
		seq_printf(m, "cpu family\t: %u\n", (eax >> 8) & 0xf);
		seq_printf(m, "model\t\t: %u\n", ((eax >> 4) & 0xf) | ((eax >> 12) & 0xf0));
		seq_printf(m, "model name\t: %s\n", strim(name));
		seq_printf(m, "stepping\t: %u\n", eax & 0xf);
		seq_printf(m, "cpu MHz\t\t: %lu.%03lu\n", (unsigned long)(tsc_khz / 1000),
			   (unsigned long)(tsc_khz % 1000));
		seq_printf(m, "apicid\t\t: %u\n\n", cpus[c].apic_id);
	}
	return 0;
}

static void meminfo_kb(struct seq_file *m, const char *name, unsigned long pages)
{
	seq_printf(m, "%-16s%8lu kB\n", name, pages * (PAGE_SIZE / 1024));
}

/*
 * Linux 6.1's first lines of meminfo. Lucid has no swap, no buffers, and a page cache it
 * cannot drop (ramfs's), so what is free is what is available, as sysinfo says too.
 */
static int meminfo_show(struct seq_file *m, void *v)
{
	static const char *const zero[] = {
		"Buffers:",   "Cached:",   "SwapCached:", "Active:",	"Inactive:",
		"SwapTotal:", "SwapFree:", "Dirty:",	  "Writeback:", "Shmem:"};
	unsigned long free = nr_free_pages();

	(void)v;
	meminfo_kb(m, "MemTotal:", nr_total_pages());
	meminfo_kb(m, "MemFree:", free);
	meminfo_kb(m, "MemAvailable:", free);
	for (size_t i = 0; i < ARRAY_SIZE(zero); i++)
		meminfo_kb(m, zero[i], 0);
	return 0;
}

/* Linux shows the local APIC's vectors by name rather than number. */
static const struct {
	int vector;
	const char *label, *name;
} named_vectors[] = {
	{VEC_TIMER, "LOC", "Local timer interrupts"},
	{VEC_SERIAL, "4", "IO-APIC   4-edge      ttyS0"},
	{VEC_IPI_RESCHEDULE, "RES", "Rescheduling interrupts"},
	{VEC_IPI_CALL_FUNCTION, "CAL", "Function call interrupts"},
	{VEC_SPURIOUS, "SPU", "Spurious interrupts"},
};

static int interrupts_show(struct seq_file *m, void *v)
{
	(void)v;
	seq_printf(m, "%11s", "");
	for (int c = 0; c < num_online_cpus(); c++)
		seq_printf(m, "CPU%-8d", c);
	seq_putc(m, '\n');
	for (size_t i = 0; i < ARRAY_SIZE(named_vectors); i++) {
		seq_printf(m, "%3s: ", named_vectors[i].label);
		for (int c = 0; c < num_online_cpus(); c++)
			seq_printf(m, "%10lu ", cpus[c].irq_count[named_vectors[i].vector]);
		seq_printf(m, "  %s\n", named_vectors[i].name);
	}
	/* The PCI devices' MSI-X vectors (virtio), numbered as request_irq() numbered them. */
	for (int vec = VEC_FIRST_IRQ; vec < VEC_IPI_RESCHEDULE; vec++) {
		if (!irq_chip_name(vec))
			continue;
		seq_printf(m, "%3d: ", vec - VEC_ISA_BASE);
		for (int c = 0; c < num_online_cpus(); c++)
			seq_printf(m, "%10lu ", cpus[c].irq_count[vec]);
		seq_printf(m, "  %s      %s\n", irq_chip_name(vec), irq_name(vec));
	}
	return 0;
}

#define PROC_SINGLE(name)                                              \
	static int name##_open(struct inode *inode, struct file *file) \
	{                                                              \
		(void)inode;                                           \
		return single_open(file, name##_show, NULL);           \
	}                                                              \
	static const struct file_operations name##_fops = {            \
		.open = name##_open,                                   \
		.read = seq_read,                                      \
		.llseek = seq_lseek,                                   \
		.release = single_release,                             \
	}

PROC_SINGLE(uptime);
PROC_SINGLE(stat);
PROC_SINGLE(loadavg);
PROC_SINGLE(cpuinfo);
PROC_SINGLE(meminfo);
PROC_SINGLE(interrupts);

int proc_misc_init(void)
{
	struct dentry *sys = proc_mkdir("sys", NULL);

	proc_sys_kernel = proc_mkdir("kernel", sys);
	proc_root_set_operations(&proc_root_inode_operations);
	if (!proc_sys_kernel || !proc_create("uptime", 0444, NULL, &uptime_fops) ||
	    !proc_create("stat", 0444, NULL, &stat_fops) ||
	    !proc_create("loadavg", 0444, NULL, &loadavg_fops) ||
	    !proc_create("cpuinfo", 0444, NULL, &cpuinfo_fops) ||
	    !proc_create("meminfo", 0444, NULL, &meminfo_fops) ||
	    !proc_create("interrupts", 0444, NULL, &interrupts_fops) ||
	    !proc_create("kallsyms", 0444, NULL, &kallsyms_proc_ops) ||
	    !proc_create("slabinfo", 0400, NULL, &slabinfo_fops))
		return -ENOMEM;
	return 0;
}
