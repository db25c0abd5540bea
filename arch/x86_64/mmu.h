/* Page tables and the kernel's virtual memory layout (arch/x86_64/mmu.c). */
#ifndef ARCH_MMU_H
#define ARCH_MMU_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

struct mmu_gather;

#define PAGE_SIZE 4096UL
#define PAGE_SHIFT 12
#define KERNEL_VMA 0xffffffff80000000UL
/* All of physical memory (below 4 GiB) is mapped here, as Linux's direct map. */
#define PHYS_OFFSET 0xffff888000000000UL
#define DIRECT_MAP_SIZE (4UL << 30)
/* Kernel stacks live here, each with an unmapped guard page below it. */
#define KSTACK_AREA 0xffffc90000000000UL
#define KSTACK_AREA_SIZE (1UL << 30)
/* Text is patched through a writable alias mapped here for an instant (text_poke). */
#define POKE_AREA 0xffffc98000000000UL
/*
 * Loaded modules live here, 1 GiB above the kernel's text: within the 2 GiB that -mcmodel=kernel
 * code reaches with 32-bit displacements (arch/x86_64/module.c), as on Linux.
 */
#define MODULES_VADDR 0xffffffffc0000000UL
#define MODULES_LEN (64UL << 20)
#define MODULES_END (MODULES_VADDR + MODULES_LEN)

#define __va(pa) ((void *)((uintptr_t)(pa) + PHYS_OFFSET))
#define __pa(va) ((uintptr_t)(va) - (((uintptr_t)(va) >= KERNEL_VMA) ? KERNEL_VMA : PHYS_OFFSET))

void mmu_init(void);
/* Maps one 4 KiB page; flags are MMU_* below. Returns 0 or -ENOMEM. */
#define MMU_WRITE 0x1
#define MMU_EXEC 0x2
#define MMU_NOCACHE 0x4
#define MMU_NOACCESS 0x8 /* a user page ring 3 may not touch at all (mprotect PROT_NONE) */
#define MMU_DIRTY 0x10 /* mmu_user_page's answer only: written since mapped (the D bit) */
int mmu_map_page(uintptr_t va, uintptr_t pa, int flags);
void mmu_unmap_page(uintptr_t va);
uintptr_t mmu_virt_to_phys(uintptr_t va);
/* Makes every CPU drop its TLB entries for [start, end) (call with interrupts enabled). */
void flush_tlb_kernel_range(uintptr_t start, uintptr_t end);
bool mmu_kernel_addr_mapped(uintptr_t va);
/* True when addr falls in a kernel stack's guard page (for the stack overflow report). */
bool stack_guard_page(uintptr_t addr);
bool kernel_text_address(uintptr_t addr);
/*
 * Memory for a module: size bytes (a multiple of PAGE_SIZE) of the module area, mapped
 * read-write and no-execute; NULL when out of memory or area. module_memfree unmaps (on every
 * CPU) and frees it. set_memory_perms gives numpages pages from addr MMU_* flags, on every CPU:
 * how a module's text becomes read-only and executable once written.
 */
void *module_alloc(size_t size);
void module_memfree(void *addr, size_t size);
void set_memory_perms(uintptr_t addr, size_t numpages, int flags);
/* The physical page tables' root, for the APs to load. */
uintptr_t mmu_kernel_cr3(void);

/* User address spaces (the lower half of one process; mmu.c explains). */
uint64_t *mmu_pgd_alloc(void);
void mmu_pgd_free(uint64_t *pgd);
int mmu_user_map(uint64_t *pgd, uintptr_t va, uintptr_t pa, int flags);
void *mmu_user_page(uint64_t *pgd, uintptr_t va, int *flags);
uintptr_t mmu_user_next_mapped(uint64_t *pgd, uintptr_t va, uintptr_t end);
/* The pages and emptied tables go to tlb, freed after the flush (kernel/mm/mmu_gather.h). */
void mmu_user_unmap_range(struct mmu_gather *tlb, uint64_t *pgd, uintptr_t start, uintptr_t end);
void mmu_user_make_writable(struct mmu_gather *tlb, uint64_t *pgd, uintptr_t va, void *new_page);
/* The present page at va becomes new_page, permissions kept; the caller drops the old one's
 * reference (mmu.c says when). */
void mmu_user_replace_page(uint64_t *pgd, uintptr_t va, void *new_page);
/* Changes a present user page's MMU_WRITE/MMU_EXEC/MMU_NOACCESS; -ENOMEM if not present. */
int mmu_user_protect(uint64_t *pgd, uintptr_t va, int flags);
/* fork: [start, end) of src shared copy-on-write into dst (src loses write access). */
int mmu_user_copy_range(uint64_t *dst, uint64_t *src, uintptr_t start, uintptr_t end);
void mmu_flush_user(void);

extern char _text[], _etext[], _erodata[], _end[];

#endif
