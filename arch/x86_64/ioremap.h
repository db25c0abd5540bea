/* Device registers mapped into the kernel's address space (arch/x86_64/ioremap.c). */
#ifndef ARCH_IOREMAP_H
#define ARCH_IOREMAP_H

#include <stddef.h>
#include <stdint.h>

/*
 * Where ioremap() maps: the gigabyte after the kernel stacks (KSTACK_AREA), in the same top-level
 * page table entry, which mmu_init() made before the other CPUs started: a mapping made here is
 * seen by every CPU without copying tables.
 */
#define IOREMAP_AREA 0xffffc90040000000UL
#define IOREMAP_AREA_SIZE (1UL << 30)

/* size bytes of registers at physical address phys, uncached; NULL if there is no room left. */
void *ioremap(uintptr_t phys, size_t size);

#endif
