/* The IDT, interrupt vectors and their handlers (arch/x86_64/idt.c). */
#ifndef ARCH_IDT_H
#define ARCH_IDT_H

#include <stdbool.h>
#include "arch/x86_64/regs.h"

/* Vector numbers. 0-31 are the CPU's exceptions; the rest are ours to assign. */
#define VEC_DIVIDE_ERROR 0
#define VEC_DEBUG 1
#define VEC_NMI 2
#define VEC_BREAKPOINT 3
#define VEC_INVALID_OPCODE 6
#define VEC_DOUBLE_FAULT 8
#define VEC_STACK_SEGMENT 12
#define VEC_GENERAL_PROTECTION 13
#define VEC_PAGE_FAULT 14
#define VEC_FIRST_IRQ 32
#define VEC_TIMER 32           /* the LAPIC timer */
#define VEC_ISA_BASE 33        /* ISA IRQ n arrives at VEC_ISA_BASE + n through the IOAPIC */
#define VEC_SERIAL (VEC_ISA_BASE + 4)
#define VEC_MSI_BASE 0x60        /* MSI-X vectors of PCI devices (virtio) start here */
#define VEC_IPI_RESCHEDULE 0xf0
#define VEC_IPI_CALL_FUNCTION 0xf1
#define VEC_SPURIOUS 0xff

typedef void (*irq_handler_t)(struct pt_regs *regs);
/* An exception handler returns true when it dealt with the exception (the code continues). */
typedef bool (*exception_handler_t)(struct pt_regs *regs);

void idt_init(void);
void idt_load(void);
void set_irq_handler(int vector, irq_handler_t fn);
/* Is addr a handler set_irq_handler or request_irq installed? (function_graph's arrows) */
bool is_irq_handler(unsigned long addr);
/* A device interrupt: ISA IRQ irq (at vector VEC_ISA_BASE + irq), named as Linux names it. */
void request_irq(int irq, irq_handler_t fn, const char *name);
/* Undoes request_irq (and irq_set_chip_name): the vector has no handler, name or chip again. */
void free_irq(int irq);
void set_exception_handler(int vector, exception_handler_t fn);
/*
 * Each vector has a short chain of handlers, asked in order until one returns true (Linux
 * chains its int3 users the same way: kprobes first, then text_poke). set_exception_handler
 * adds fn at the end of the chain, add_exception_handler at the front. At most
 * EXCEPTION_CHAIN_MAX per vector; boot-time only.
 */
#define EXCEPTION_CHAIN_MAX 4
void add_exception_handler(int vector, exception_handler_t fn);
/*
 * For /proc/interrupts: the controller line of a device interrupt that is not an ISA IRQ (an
 * MSI-X vector: "PCI-MSIX-0000:00:04.0   0-edge"), and the name request_irq() gave it.
 */
void irq_set_chip_name(int vector, const char *chip);
const char *irq_chip_name(int vector);
const char *irq_name(int vector);

#endif
