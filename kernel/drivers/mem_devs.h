/* /dev/null, /dev/zero, /dev/full (kernel/drivers/mem_devs.c). */
#ifndef KERNEL_MEM_DEVS_H
#define KERNEL_MEM_DEVS_H

/* Boot: makes them in the existing /dev. */
int mem_devs_init(void);

#endif
