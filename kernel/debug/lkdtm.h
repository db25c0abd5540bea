/* Crashing the kernel on purpose, through Linux's lkdtm file (kernel/debug/lkdtm.c). */
#ifndef KERNEL_LKDTM_H
#define KERNEL_LKDTM_H

/* Boot: /sys/kernel/debug/provoke-crash/DIRECT. */
void lkdtm_init(void);

#endif
