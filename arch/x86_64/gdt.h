/* Segment selectors and Interrupt Stack Table slots (arch/x86_64/gdt.c). */
#ifndef ARCH_GDT_H
#define ARCH_GDT_H

#include <stdint.h>

#define GDT_KERNEL_CS 0x08
#define GDT_KERNEL_DS 0x10
#define GDT_TSS 0x18
#define GDT_ENTRIES 5 /* null, code, data, and the TSS's two slots */

#define IST_DOUBLE_FAULT 1
#define IST_NMI 2
#define IST_COUNT 2
#define IST_STACK_SIZE 8192

void gdt_init_this_cpu(int cpu);
uintptr_t ist_stack_top(int cpu, int ist);

#endif
