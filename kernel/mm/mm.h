/*
 * A process's address space (kernel/mm/mmap.c): its page tables and the few boundaries Lucid
 * keeps. No list of areas yet (Linux's VMAs): the page tables are the record of what is mapped,
 * and the boundaries say where the heap and the stack may grow on demand.
 */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include "arch/x86_64/page_64_types.h"

#define STACK_TOP TASK_SIZE_MAX /* the initial stack ends at the top of the user half */
#define STACK_MAX (8UL << 20) /* RLIMIT_STACK's default: 8 MiB, grown on demand */
#define MMAP_BASE 0x00007f0000000000UL /* anonymous mmaps go down from here */
#define ELF_ET_DYN_BASE 0x0000555555554000UL /* where a static-pie program is loaded */

#define EXE_PATH_LEN 128 /* longer paths are cut: only /proc/PID/maps shows them */

struct mm_struct {
	uint64_t *pgd; /* the top-level page table (arch/x86_64/mmu.c) */
	unsigned long start_brk; /* the heap: [start_brk, brk), grown by brk() */
	unsigned long brk;
	unsigned long mmap_base; /* the next anonymous mmap ends here */
	unsigned long stack_low; /* the lowest address the stack may grow down to */
	unsigned long start_code, end_code, start_data, end_data, start_stack;
	unsigned long arg_start, arg_end, env_start, env_end;
	char exe_path[EXE_PATH_LEN]; /* the program's path, as /proc/PID/maps names its pages */
};

struct mm_struct *mm_alloc(void);
void mmput(struct mm_struct *mm); /* frees every page of it: it must not be loaded */
/* Maps zeroed pages over [start, end) (page-aligned) with MMU_* flags; -ENOMEM undoes them. */
int mm_map_zeroed(struct mm_struct *mm, unsigned long start, unsigned long end, int flags);
void mm_unmap(struct mm_struct *mm, unsigned long start, unsigned long end);
/* A fault at addr in the stack or heap area: map a zeroed page there. Returns true if it did. */
bool mm_fault_in(struct mm_struct *mm, unsigned long addr, bool write);
void switch_mm(struct mm_struct *mm); /* load mm's tables (NULL: the kernel's alone) */

long sys_brk(unsigned long brk);
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot, unsigned long flags,
	      unsigned long fd, unsigned long off);
long sys_munmap(unsigned long addr, unsigned long len);
long sys_mprotect(unsigned long start, unsigned long len, unsigned long prot);

#endif
