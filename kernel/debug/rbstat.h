/* The trace buffer's counters, checked to add up (kernel/debug/rbstat.c). */
#ifndef KERNEL_RBSTAT_H
#define KERNEL_RBSTAT_H

/* Boot: /sys/kernel/debug/rbstat. */
void rbstat_init(void);

#endif
