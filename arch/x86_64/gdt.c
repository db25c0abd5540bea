/*
 * The GDT and TSS of each CPU.
 *
 * In long mode segmentation is mostly gone, but the CPU still needs a code segment (to know it is
 * in 64-bit mode), a data segment, and a Task State Segment. Lucid uses the TSS only for its
 * Interrupt Stack Table: a double fault or an NMI switches to a known-good stack of its own, so
 * that a kernel stack overflow (which faults again the moment anything is pushed) still produces
 * a clean oops instead of a triple fault and a reboot. And for its RSP0: an interrupt that
 * arrives while a user program runs (ring 3) switches to the running task's kernel stack,
 * which the scheduler writes there at every switch (tss_set_rsp0).
 */
#include <stdint.h>
#include "arch/x86_64/gdt.h"
#include "kernel/percpu.h"
#include "lib/string.h"
#include "kernel/panic.h"

#define GDT_KERNEL_CODE 0x00209a0000000000ULL /* present, ring 0, code, 64-bit (L) */
#define GDT_KERNEL_DATA 0x0000920000000000ULL /* present, ring 0, data, writable */
#define GDT_USER_CODE 0x0020fa0000000000ULL   /* present, ring 3, code, 64-bit (L) */
#define GDT_USER_DATA 0x0000f20000000000ULL   /* present, ring 3, data, writable */
#define GDT_USER_CODE32 0x00cffa000000ffffULL /* present, ring 3, code, 32-bit, 4 GiB */
#define TSS_TYPE_AVAILABLE 0x89ULL             /* present, 64-bit TSS, not busy */
/* present, ring 3, data, read-only, accessed (Linux's 0x40f5 for its CPUNODE entry) */
#define GDT_CPUNODE_TYPE 0x0040f50000000000ULL

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7]; /* ist[0] is IST1 */
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __packed;

struct arch_cpu {
	uint64_t gdt[GDT_ENTRIES];
	struct tss tss;
	uint8_t ist_stacks[IST_COUNT][IST_STACK_SIZE] __aligned(16);
};

static struct arch_cpu arch_cpus[NR_CPUS] __aligned(4096);

struct gdt_ptr {
	uint16_t limit;
	uint64_t base;
} __packed;

void gdt_init_this_cpu(int cpu)
{
	struct arch_cpu *a = &arch_cpus[cpu];
	uint64_t tss = (uint64_t)&a->tss;
	uint64_t limit = sizeof(a->tss) - 1;

	memset(&a->tss, 0, sizeof(a->tss));
	for (int i = 0; i < IST_COUNT; i++)
		a->tss.ist[i] = (uint64_t)&a->ist_stacks[i][IST_STACK_SIZE];
	a->tss.iomap_base = sizeof(a->tss); /* no I/O permission bitmap */

	a->gdt[0] = 0;
	a->gdt[GDT_KERNEL_CS / 8] = GDT_KERNEL_CODE;
	a->gdt[GDT_KERNEL_DS / 8] = GDT_KERNEL_DATA;
	a->gdt[GDT_USER32_CS / 8] = GDT_USER_CODE32;
	a->gdt[GDT_USER_DS / 8] = GDT_USER_DATA;
	a->gdt[GDT_USER_CS / 8] = GDT_USER_CODE;
	/* A 64-bit TSS descriptor takes two slots: base and limit scattered as in 32-bit days. */
	a->gdt[GDT_TSS / 8] = (limit & 0xffff) | ((tss & 0xffffff) << 16) |
			      (TSS_TYPE_AVAILABLE << 40) | ((limit >> 16 & 0xf) << 48) |
			      ((tss >> 24 & 0xff) << 56);
	a->gdt[GDT_TSS / 8 + 1] = tss >> 32;
	/*
	 * The vDSO's getcpu: the limit is this CPU's number, node 0 (one node). It fits the
	 * limit's low 16 bits, the descriptor's first field, as VDSO_CPUNODE_MASK is 12 bits:
	 * checked. Nothing loads the selector; LSL reads the limit.
	 */
	uint64_t cpunode = (uint64_t)cpu & VDSO_CPUNODE_MASK;

	BUG_ON((uint64_t)cpu != cpunode);
	a->gdt[GDT_CPUNODE / 8] = GDT_CPUNODE_TYPE | cpunode;

	struct gdt_ptr p = {sizeof(a->gdt) - 1, (uint64_t)a->gdt};
	__asm__ __volatile__("lgdt %0\n\t"
			     "pushq %1\n\t"
			     "leaq 1f(%%rip), %%rax\n\t"
			     "pushq %%rax\n\t"
			     "lretq\n" /* reload CS */
			     "1:\n\t"
			     "movw %w2, %%ds\n\t"
			     "movw %w2, %%es\n\t"
			     "movw %w2, %%ss\n\t"
			     "ltr %w3\n\t"
			     :
			     : "m"(p), "i"(GDT_KERNEL_CS), "r"(GDT_KERNEL_DS), "r"(GDT_TSS)
			     : "rax", "memory");
	cpus[cpu].arch = a;
}

/* notrace: called by the scheduler in the middle of a switch. */
notrace void tss_set_rsp0(uint64_t rsp0)
{
	struct arch_cpu *a = this_cpu()->arch;

	a->tss.rsp[0] = rsp0;
}
