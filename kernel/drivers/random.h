/* Random bytes for the kernel, getrandom(2), /dev/random and /dev/urandom (random.c). */
#ifndef KERNEL_DRIVERS_RANDOM_H
#define KERNEL_DRIVERS_RANDOM_H

#include <stddef.h>

void get_random_bytes(void *buf, size_t n);
/* Boot: makes /dev/random and /dev/urandom in the existing /dev. */
int random_devs_init(void);

#endif
