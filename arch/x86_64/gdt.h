/* Segment selectors and Interrupt Stack Table slots (arch/x86_64/gdt.c). */
#ifndef ARCH_GDT_H
#define ARCH_GDT_H


/*
 * The order is Linux's, because SYSCALL and SYSRET compute the selectors from one base each
 * (MSR_STAR): SYSCALL loads CS = base and SS = base + 8 (kernel code, then kernel data);
 * SYSRET to 64-bit mode loads CS = base + 16 and SS = base + 8 (so: 32-bit user code, user
 * data, 64-bit user code, in that order). User selectors carry RPL 3 in their low bits.
 */
#define GDT_KERNEL_CS 0x08
#define GDT_KERNEL_DS 0x10
#define GDT_USER32_CS 0x18 /* __USER32_CS without its RPL: only SYSRET's base, never loaded */
#define GDT_USER_DS 0x20
#define GDT_USER_CS 0x28
#define GDT_TSS 0x30
/*
 * The vDSO's getcpu reads its CPU from here (arch/x86_64/entry/vdso/vgetcpu.c): a ring-3 data
 * segment in each CPU's own GDT whose limit is cpu | node << VDSO_CPUNODE_BITS, read by LSL.
 * Linux's slot (GDT_ENTRY_CPUNODE 15, selector 0x7b), in a GDT of Linux's 16 entries.
 */
#define GDT_CPUNODE 0x78
#define GDT_ENTRIES 16 /* null, 2 kernel, 3 user, the TSS's two slots, ..., the CPUNODE */
#define VDSO_CPUNODE_BITS 12
#define VDSO_CPUNODE_MASK 0xfff
#define USER_RPL 3
#define __USER32_CS (GDT_USER32_CS | USER_RPL)
#define __USER_DS (GDT_USER_DS | USER_RPL)
#define __USER_CS (GDT_USER_CS | USER_RPL)
#define __CPUNODE_SEG (GDT_CPUNODE | USER_RPL)

#define IST_DOUBLE_FAULT 1
#define IST_NMI 2
#define IST_COUNT 2
#define IST_STACK_SIZE 8192

#if !defined(__ASSEMBLY__) && !defined(VDSO_BUILD)
#include <stdint.h>

void gdt_init_this_cpu(int cpu);
/* The stack the CPU switches to when an interrupt comes in ring 3: the running task's. */
void tss_set_rsp0(uint64_t rsp0);
#endif

#endif
