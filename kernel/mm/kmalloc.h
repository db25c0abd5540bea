/* The kernel heap: kmalloc/kfree for small objects, backed by the page allocator. */
#ifndef KERNEL_KMALLOC_H
#define KERNEL_KMALLOC_H

#include <stddef.h>

/* Returns NULL when memory is short (or when fault injection says so): callers must check. */
void *kmalloc(size_t size);
void *kzalloc(size_t size);
void *krealloc(void *p, size_t size);
void kfree(void *p);
/* Fault injection (kernel/debug/fault_inject.c): every Nth call fails; 0, never. */
extern unsigned long kmalloc_fail_every;
char *kstrdup(const char *s);

#endif
