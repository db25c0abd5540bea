/* Kernel stacks, each with an unmapped guard page below it (kernel/mm/kstack.c). */
#ifndef KERNEL_KSTACK_H
#define KERNEL_KSTACK_H

#include <stdint.h>
#include <stdbool.h>

#define KSTACK_SIZE 16384 /* must match BOOT_KSTACK_SIZE in boot/boot.asm */
#define KSTACK_MAX 1024 /* stacks at once: every task, kernel threads included */

/* Returns the lowest address of a new stack (its top is that + KSTACK_SIZE), or NULL. */
void *kstack_alloc(void);
void kstack_free(void *stack);
void boot_stack_guard_init(void);
void *boot_stack_base(void);

#endif
