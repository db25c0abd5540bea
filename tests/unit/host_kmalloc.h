/* Host stand-in for the kernel heap (see host_kmalloc.c). */
#ifndef TESTS_UNIT_HOST_KMALLOC_H
#define TESTS_UNIT_HOST_KMALLOC_H
#include "kernel/mm/kmalloc.h"
extern long host_kmalloc_live;
extern long host_kmalloc_fail_at;
#endif
