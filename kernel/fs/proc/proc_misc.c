/*
 * /proc's files about the machine: uptime, cpuinfo, meminfo, interrupts, in Linux's formats,
 * so that what students know from Linux reads the same here. Each is a seq_file with one
 * record (single_open), generated afresh at every open, so it is always current. kallsyms is
 * made here too; its seq_file is kernel/kallsyms.c's.
 * /proc/sys/kernel/ is made here, empty; kernel/fs/proc/sysctl.c and the tracer add their files to it.
 */
#include "kernel/fs/proc/proc_fs.h"
#include "kernel/kallsyms.h"
#include "kernel/fs/seq_file.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/percpu.h"
#include "kernel/sched/time.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/idt.h"
#include "lib/errno.h"
#include "lib/string.h"

struct dentry *proc_sys_kernel;

/* "12.34 40.12": seconds up, and seconds idle summed over the CPUs (counted in ticks). */
static int uptime_show(struct seq_file *m, void *v)
{
	uint64_t cs = ktime_get_ns() / (NSEC_PER_SEC / 100), idle = 0;

	(void)v;
	for (int c = 0; c < num_online_cpus(); c++)
		idle += READ_ONCE(cpus[c].idle_ticks);
	idle = idle * 100 / HZ; /* in hundredths */
	seq_printf(m, "%lu.%02lu %lu.%02lu\n", (unsigned long)(cs / 100), (unsigned long)(cs % 100),
		   (unsigned long)(idle / 100), (unsigned long)(idle % 100));
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

static int meminfo_show(struct seq_file *m, void *v)
{
	(void)v;
	seq_printf(m, "%-16s%8lu kB\n", "MemTotal:", nr_total_pages() * (PAGE_SIZE / 1024));
	seq_printf(m, "%-16s%8lu kB\n", "MemFree:", nr_free_pages() * (PAGE_SIZE / 1024));
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
PROC_SINGLE(cpuinfo);
PROC_SINGLE(meminfo);
PROC_SINGLE(interrupts);

int proc_misc_init(void)
{
	struct dentry *sys = proc_mkdir("sys", NULL);

	proc_sys_kernel = proc_mkdir("kernel", sys);
	proc_root_set_operations(&proc_root_inode_operations);
	if (!proc_sys_kernel || !proc_create("uptime", 0444, NULL, &uptime_fops) ||
	    !proc_create("cpuinfo", 0444, NULL, &cpuinfo_fops) ||
	    !proc_create("meminfo", 0444, NULL, &meminfo_fops) ||
	    !proc_create("interrupts", 0444, NULL, &interrupts_fops) ||
	    !proc_create("kallsyms", 0444, NULL, &kallsyms_proc_ops) ||
	    !proc_create("slabinfo", 0400, NULL, &slabinfo_fops))
		return -ENOMEM;
	return 0;
}
