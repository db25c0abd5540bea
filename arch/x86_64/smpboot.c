/*
 * Starting the other CPUs.
 *
 * ACPI's MADT (acpi.c) told us every CPU's local APIC id. For each one, the boot CPU:
 *   1. copies boot/trampoline.asm to TRAMPOLINE_PHYS and writes in it the page tables, a fresh
 *      kernel stack, the entry point and the CPU's number;
 *   2. sends INIT, waits 10 ms, sends a STARTUP IPI (SIPI) whose vector is the trampoline's page
 *      number, and a second SIPI if the CPU has not answered (as Intel's MP protocol says);
 *   3. waits, boundedly, until the CPU reports in from ap_start().
 * One CPU at a time: they share the trampoline's data block.
 *
 * Linux's boot options: maxcpus=N starts CPUs until N are online, the boot CPU counted; the
 * others stay possible (listed, each with its trace buffer, never started: Linux keeps them for
 * hotplug). nosmp, or maxcpus=0, starts none, and then no other CPU is possible at all, as in
 * Linux's prefill_possible_map(). (Linux's nosmp also turns the IOAPIC off for the old PIC;
 * Lucid's serial port needs the IOAPIC, so it stays on.)
 *
 * The trampoline turns paging on while running at a low physical address, so the page tables it
 * loads must map that address to itself. The kernel's own tables map nothing low, so the APs
 * start on a copy of the kernel's top level with the first 2 MiB identity-mapped added; ap_start
 * switches to the real tables at once.
 */
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/syscall.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/mmu.h"
#include "kernel/cmdline.h"
#include "kernel/mm/kstack.h"
#include "arch/x86_64/multiboot2.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/smp.h"
#include "kernel/time/time.h"
#include "kernel/time/timer.h"
#include "lib/kstrtox.h"
#include "lib/string.h"

#define TRAMPOLINE_PHYS 0x8000 /* must match boot/trampoline.asm; below 1 MiB, page aligned */
#define PTE_PRESENT_WRITE 0x3
#define PTE_HUGE 0x80
#define INIT_DEASSERT_WAIT_US 10000 /* 10 ms after INIT, per Intel's MP specification */
#define SIPI_WAIT_US 200
#define AP_ANSWER_TIMEOUT_NS (2 * NSEC_PER_SEC) /* TCG is slow, but not that slow */

struct trampoline_data {
	uint64_t cr3, stack, entry, cpu;
};

#define SETUP_MAX_CPUS_DEFAULT NR_CPUS /* Linux's setup_max_cpus: no limit but NR_CPUS */

extern char trampoline_start[], trampoline_end[], trampoline_data[];
static volatile int ap_answered;

/*
 * Linux's setup_max_cpus, from the command line each time it is asked (boot only): nosmp is 0;
 * maxcpus=N as early_param's get_option() reads it (0x.. too, a minus sign, and no digits at
 * all is 0: then it is nosmp), the last one winning.
 */
static unsigned int setup_max_cpus(void)
{
	static char buf[BOOT_CMDLINE_MAX]; /* the whole value, uncut; only the boot CPU asks */

	if (cmdline_has("nosmp"))
		return 0;
	if (!cmdline_get("maxcpus", buf, sizeof(buf)) || !buf[0])
		return SETUP_MAX_CPUS_DEFAULT;
	if (buf[0] == '-')
		return (unsigned int)-simple_strtoul(buf + 1, NULL, 0);
	return (unsigned int)simple_strtoul(buf, NULL, 0);
}

int num_possible_cpus(void)
{
	int n = MAX(MIN(acpi_info.nr_cpus, NR_CPUS), 1); /* no MADT: the boot CPU alone */

	return setup_max_cpus() == 0 ? 1 : n;
}

/* The first C code a new CPU runs: make it a full member of the kernel, then idle. */
/* notrace: until the GS base is set, a traced function's callback would find no per-CPU data. */
static notrace void __noreturn ap_start(uint64_t cpu_index)
{
	struct cpu *c = &cpus[cpu_index];
	write_cr3(mmu_kernel_cr3());
	percpu_init_this_cpu(c);
	gdt_init_this_cpu(c->id);
	syscall_init();
	idt_load();
	lapic_init_this_cpu();
	tick_setup_sched_timer();
	sched_init_this_cpu(c->boot_stack);
	c->online = true;
	__atomic_store_n(&ap_answered, 1, __ATOMIC_RELEASE);
	cpu_idle();
}

/* The boot tables' top level, plus an identity map of the first 2 MiB for the trampoline. */
static uintptr_t make_ap_page_tables(void)
{
	uint64_t *pml4 = alloc_page_zeroed(), *pdpt = alloc_page_zeroed(),
		 *pd = alloc_page_zeroed();
	if (!pml4 || !pdpt || !pd)
		return 0;
	memcpy(pml4, __va(mmu_kernel_cr3()), PAGE_SIZE);
	pd[0] = 0 | PTE_PRESENT_WRITE | PTE_HUGE;
	pdpt[0] = __pa(pd) | PTE_PRESENT_WRITE;
	pml4[0] = __pa(pdpt) | PTE_PRESENT_WRITE;
	return __pa(pml4);
}

static bool wait_for_answer(void)
{
	uint64_t deadline = ktime_get_ns() + AP_ANSWER_TIMEOUT_NS;
	while (!__atomic_load_n(&ap_answered, __ATOMIC_ACQUIRE)) {
		if (ktime_get_ns() > deadline)
			return false;
		cpu_relax();
	}
	return true;
}

static bool boot_one_cpu(int index, uint32_t apic_id, uintptr_t cr3)
{
	void *stack = kstack_alloc();
	if (!stack)
		return false;
	struct cpu *c = &cpus[index];
	c->id = index;
	c->apic_id = apic_id;
	c->boot_stack = stack;

	struct trampoline_data *d =
		__va(TRAMPOLINE_PHYS + (uintptr_t)(trampoline_data - trampoline_start));
	*d = (struct trampoline_data){cr3, (uint64_t)stack + KSTACK_SIZE, (uint64_t)ap_start,
				      index};
	__atomic_store_n(&ap_answered, 0, __ATOMIC_RELEASE);

	lapic_send_init(apic_id);
	udelay(INIT_DEASSERT_WAIT_US);
	for (int sipi = 0; sipi < 2 && !__atomic_load_n(&ap_answered, __ATOMIC_ACQUIRE); sipi++) {
		lapic_send_startup(apic_id, TRAMPOLINE_PHYS / PAGE_SIZE);
		udelay(SIPI_WAIT_US);
	}
	if (!wait_for_answer()) {
		printk(KERN_ERR "smpboot: CPU with APIC id %u did not start\n", apic_id);
		kstack_free(stack);
		return false;
	}
	return true;
}

void smp_boot_cpus(void)
{
	uint32_t me = lapic_id();
	unsigned int max_cpus = setup_max_cpus();
	cpus[0].apic_id = me;
	cpus[0].online = true;
	if (max_cpus == 0 && acpi_info.nr_cpus > 1) /* Linux's words, from prefill_possible_map */
		printk(KERN_WARNING "smpboot: %d Processors exceeds max_cpus limit of %u\n",
		       acpi_info.nr_cpus, max_cpus);
	if (acpi_info.nr_cpus <= 1 || max_cpus <= 1)
		goto done;

	memcpy(__va(TRAMPOLINE_PHYS), trampoline_start, trampoline_end - trampoline_start);
	uintptr_t cr3 = make_ap_page_tables();
	if (!cr3) {
		printk(KERN_ERR "smpboot: no memory for the trampoline's page tables\n");
		goto done;
	}
	for (int i = 0; i < acpi_info.nr_cpus; i++) {
		uint32_t id = acpi_info.cpu_apic_ids[i];
		if (id == me)
			continue;
		if ((unsigned int)num_online_cpus() >= max_cpus)
			break; /* maxcpus=N: N are online */
		if (boot_one_cpu(num_online_cpus(), id, cr3))
			__num_online_cpus++;
	}
	/* The identity map is not needed any more: free the trampoline's tables. */
	uint64_t *pml4 = __va(cr3);
	uint64_t *pdpt = __va(pml4[0] & ~0xfffUL);
	free_pages(__va(pdpt[0] & ~0xfffUL), 1);
	free_pages(pdpt, 1);
	free_pages(pml4, 1);
done:
	printk(KERN_INFO "smp: Brought up %d CPU%s\n", num_online_cpus(),
	       num_online_cpus() > 1 ? "s" : "");
}
