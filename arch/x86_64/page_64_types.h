/*
 * arch/x86_64/page_64_types.h - the bounds of the user half, as Linux's page_64_types.h gives
 * them. No types or suffixes: assembly (entry_64.S), the kernel and the host tests of the ELF
 * loader all include it.
 */
#ifndef ARCH_PAGE_64_TYPES_H
#define ARCH_PAGE_64_TYPES_H

/*
 * The user half ends here, one page short of the 2^47 that 4-level paging gives it: SYSRET to
 * the last page would put a user RIP at the non-canonical edge (Linux leaves it out the same).
 */
#define TASK_SIZE_MAX 0x00007ffffffff000

/* Nothing maps below this (Linux's mmap_min_addr default): a NULL dereference always faults. */
#define MMAP_MIN_ADDR 0x10000

#endif
