/* Fault injection: make every Nth allocation fail, to test the paths that handle it. */
#ifndef KERNEL_FAULT_INJECT_H
#define KERNEL_FAULT_INJECT_H

/* Boot: read fail_kmalloc=N and fail_page_alloc=N, make their /proc/sys/kernel files. */
void fault_inject_init(void);
/* The shell is about to show its first prompt: the boot-time intervals take effect. */
void fault_inject_start(void);

#endif
