/*
 * The vDSO's getcpu (Linux's arch/x86/entry/vdso/vgetcpu.c): the CPU (and NUMA node) this
 * thread runs on, without a system call. Each CPU's GDT has an entry of its own at
 * GDT_CPUNODE (arch/x86_64/gdt.c) whose segment limit is cpu | node << 12; LSL reads a
 * segment's limit and is allowed in ring 3, so one instruction answers, on whichever CPU it
 * runs. (Linux uses RDPID where the CPU has it, LSL otherwise: qemu64 has no RDPID, so Lucid
 * uses LSL always.) As on Linux, the answer may be stale by the time it is used: the thread
 * may move.
 */
#include "arch/x86_64/gdt.h"

long __vdso_getcpu(unsigned int *cpu, unsigned int *node, void *unused)
{
	unsigned int p;

	(void)unused; /* the tcache argument, unused since Linux 2.6.24 */
	__asm__("lsl %1, %0" : "=r"(p) : "r"(__CPUNODE_SEG));
	if (cpu)
		*cpu = p & VDSO_CPUNODE_MASK;
	if (node)
		*node = p >> VDSO_CPUNODE_BITS;
	return 0;
}

long getcpu(unsigned int *, unsigned int *, void *) __attribute__((weak, alias("__vdso_getcpu")));
