/*
 * Registers by name, and the bounds of the kernel stack a struct pt_regs points into (Linux:
 * arch/x86/kernel/ptrace.c's regoffset_table). Probes read registers by these names: a
 * kprobe_events "%ax" is regs_get_register(regs, regs_query_register_offset("ax")).
 *
 * Not traced: probe handlers call these, with the probe machinery's recursion guard held.
 */
#include "arch/x86_64/ptrace.h"
#include "arch/x86_64/mmu.h"
#include "kernel/mm/kstack.h"
#include "kernel/percpu.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/string.h"

struct pt_regs_offset {
	const char *name;
	unsigned int offset;
};

#define REG_OFFSET_NAME(n, field)                                    \
	{                                                            \
		.name = n, .offset = offsetof(struct pt_regs, field) \
	}

/* Linux's x86_64 names, in Linux's order. */
static const struct pt_regs_offset regoffset_table[] = {
	REG_OFFSET_NAME("r15", r15),	  REG_OFFSET_NAME("r14", r14),
	REG_OFFSET_NAME("r13", r13),	  REG_OFFSET_NAME("r12", r12),
	REG_OFFSET_NAME("r11", r11),	  REG_OFFSET_NAME("r10", r10),
	REG_OFFSET_NAME("r9", r9),	  REG_OFFSET_NAME("r8", r8),
	REG_OFFSET_NAME("bx", rbx),	  REG_OFFSET_NAME("cx", rcx),
	REG_OFFSET_NAME("dx", rdx),	  REG_OFFSET_NAME("si", rsi),
	REG_OFFSET_NAME("di", rdi),	  REG_OFFSET_NAME("bp", rbp),
	REG_OFFSET_NAME("ax", rax),	  REG_OFFSET_NAME("orig_ax", orig_rax),
	REG_OFFSET_NAME("ip", rip),	  REG_OFFSET_NAME("cs", cs),
	REG_OFFSET_NAME("flags", rflags), REG_OFFSET_NAME("sp", rsp),
	REG_OFFSET_NAME("ss", ss),
};

notrace int regs_query_register_offset(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(regoffset_table); i++)
		if (!strcmp(name, regoffset_table[i].name))
			return (int)regoffset_table[i].offset;
	return -EINVAL;
}

notrace const char *regs_query_register_name(unsigned int offset)
{
	for (size_t i = 0; i < ARRAY_SIZE(regoffset_table); i++)
		if (regoffset_table[i].offset == offset)
			return regoffset_table[i].name;
	return NULL;
}

/*
 * Linux aligns every kernel stack to its size and compares the two addresses' stack bases.
 * Lucid's task stacks are KSTACK_SIZE long at task->stack; the boot and IST stacks are not a
 * task's, and there the word must at least be on RSP's page, above RSP, and mapped.
 */
notrace bool regs_within_kernel_stack(struct pt_regs *regs, unsigned long addr)
{
	unsigned long sp = kernel_stack_pointer(regs);
	struct task *t = current;

	if (t && t->stack) {
		unsigned long lo = (unsigned long)t->stack, hi = lo + KSTACK_SIZE;

		if (sp >= lo && sp < hi)
			return addr >= lo && addr <= hi - sizeof(unsigned long);
	}
	return addr >= sp && (addr & ~(PAGE_SIZE - 1)) == (sp & ~(PAGE_SIZE - 1)) &&
	       mmu_kernel_addr_mapped(addr);
}
