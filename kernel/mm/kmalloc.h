/* The kernel heap: kmalloc/kfree for small objects, backed by the page allocator. */
#ifndef KERNEL_KMALLOC_H
#define KERNEL_KMALLOC_H

#include <stddef.h>

/* Returns NULL when memory is short (or when fault injection says so): callers must check. */
void *kmalloc(size_t size);
void *kzalloc(size_t size);
void *krealloc(void *p, size_t size);
void kfree(void *p);
char *kstrdup(const char *s);

/* /proc/slabinfo: objects in use per size class, in Linux's format (made by proc_misc_init). */
struct file_operations;
extern const struct file_operations slabinfo_fops;

#endif
