/*
 * Page tables: the kernel's final memory map, built once at boot.
 *
 * boot.asm left us on coarse tables that map everything read-write-executable, including page 0.
 * Here we build the tables Lucid really runs on:
 *
 *   0xffffffff80000000  the kernel image in 4 KiB pages: text read-only+executable, rodata
 *                       read-only, data and bss read-write and no-execute
 *   0xffff888000000000  the direct map of physical memory 0-4 GiB, 2 MiB pages, no-execute
 *                       (the device registers near 4 GiB uncached; the kernel's own text
 *                       read-only here too)
 *   0xffffc90000000000  kernel stacks, 4 KiB pages, each with an unmapped guard page below it
 *   0xffffc98000000000  one page where text_poke maps a writable alias of code it patches
 *   0xffffffffc0000000  loaded modules (64 MiB), 4 KiB pages: text read-only+executable, rodata
 *                       read-only, data read-write and no-execute (module_alloc)
 *
 * Nothing is mapped at address 0, so a NULL dereference faults. Only the boot CPU builds the
 * tables; the other CPUs load the same root.
 *
 * Not traced: runs before the tracer exists, and text_poke uses it while patching.
 */
#include "kernel/kprobes.h"
#include "arch/x86_64/mmu.h"
#include "arch/x86_64/cpu.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/mmu_gather.h"
#include "arch/x86_64/page_64.h"
#include "kernel/mm/kstack.h"
#include "kernel/module/module.h"
#include "kernel/locking/spinlock.h"
#include "kernel/panic.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/string.h"

#define PTE_PRESENT (1UL << 0)
#define PTE_WRITE (1UL << 1)
#define PTE_PWT (1UL << 3) /* write-through */
#define PTE_PCD (1UL << 4) /* cache disable: device registers */
#define PTE_DIRTY (1UL << 6) /* the CPU sets it at a write through the entry */
#define PTE_HUGE (1UL << 7)
#define PTE_GLOBAL (1UL << 8)
#define PTE_NX (1UL << 63)
#define PTE_ADDR_MASK 0x000ffffffffff000UL
#define HUGE_PAGE_SIZE (2UL << 20)
#define MMIO_START 0xfe000000UL /* IOAPIC, HPET, LAPIC live in the last 32 MiB below 4 GiB */
#define ENTRIES 512

static uint64_t *kernel_pml4;
/*
 * Taken with the untraced __raw_ forms: text_poke maps pages under it
 * (kernel/locking/spinlock.h).
 */
static DEFINE_SPINLOCK(mmu_lock);

static inline int pt_index(uintptr_t va, int level)
{
	return (va >> (PAGE_SHIFT + 9 * level)) & (ENTRIES - 1);
}

/* Returns the table at the next level down, allocating it if asked and needed. */
static notrace uint64_t *next_table(uint64_t *table, int idx, bool alloc)
{
	if (!(table[idx] & PTE_PRESENT)) {
		if (!alloc)
			return NULL;
		void *page = alloc_page_zeroed();
		if (!page)
			return NULL;
		table[idx] = __pa(page) | PTE_PRESENT | PTE_WRITE;
	}
	if (table[idx] & PTE_HUGE)
		return NULL;
	return __va(table[idx] & PTE_ADDR_MASK);
}

static uint64_t pte_flags(int flags)
{
	uint64_t f = PTE_PRESENT | PTE_GLOBAL;
	if (flags & MMU_WRITE)
		f |= PTE_WRITE;
	if (!(flags & MMU_EXEC))
		f |= PTE_NX;
	if (flags & MMU_NOCACHE)
		f |= PTE_PCD | PTE_PWT;
	return f;
}

static int map_page_locked(uintptr_t va, uintptr_t pa, int flags)
{
	uint64_t *t = kernel_pml4;
	for (int level = 3; level > 0; level--) {
		t = next_table(t, pt_index(va, level), true);
		if (!t)
			return -ENOMEM;
	}
	t[pt_index(va, 0)] = pa | pte_flags(flags);
	invlpg(va);
	return 0;
}

notrace int mmu_map_page(uintptr_t va, uintptr_t pa, int flags)
{
	unsigned long irq = __raw_spin_lock_irqsave(&mmu_lock);
	int ret = map_page_locked(va, pa, flags);
	__raw_spin_unlock_irqrestore(&mmu_lock, irq);
	return ret;
}

notrace void mmu_unmap_page(uintptr_t va)
{
	unsigned long irq = __raw_spin_lock_irqsave(&mmu_lock);
	uint64_t *t = kernel_pml4;
	for (int level = 3; level > 0 && t; level--)
		t = next_table(t, pt_index(va, level), false);
	if (t)
		t[pt_index(va, 0)] = 0;
	invlpg(va);
	__raw_spin_unlock_irqrestore(&mmu_lock, irq);
}

struct flush_range {
	uintptr_t start, end;
};

static notrace void flush_range_local(void *info)
{
	struct flush_range *r = info;
	for (uintptr_t va = r->start; va < r->end; va += PAGE_SIZE)
		invlpg(va);
}

/*
 * After unmapping, every CPU must forget its cached translation (TLB) of those pages, or a CPU
 * could go on reading the old physical page after it was freed and reused: for a kernel stack
 * slot handed to a new task, that means running on a dead task's stack. So: a TLB shootdown.
 */
void flush_tlb_kernel_range(uintptr_t start, uintptr_t end)
{
	struct flush_range r = {start, end};

	on_each_cpu(flush_range_local, &r); /* this CPU too, and the same one throughout */
}

/* The physical address behind a 4 KiB mapping (0 if none). */
notrace uintptr_t mmu_virt_to_phys(uintptr_t va)
{
	uint64_t *t = kernel_pml4;
	for (int level = 3; level > 0 && t; level--)
		t = next_table(t, pt_index(va, level), false);
	if (!t || !(t[pt_index(va, 0)] & PTE_PRESENT))
		return 0;
	return (t[pt_index(va, 0)] & PTE_ADDR_MASK) | (va & (PAGE_SIZE - 1));
}

/* Walks the live tables; used by the oops path to avoid faulting on a bad frame pointer. */
notrace bool mmu_kernel_addr_mapped(uintptr_t va)
{
	uint64_t *t = __va(read_cr3() & PTE_ADDR_MASK);
	for (int level = 3; level >= 0; level--) {
		uint64_t e = t[pt_index(va, level)];
		if (!(e & PTE_PRESENT))
			return false;
		if (level == 0 || (e & PTE_HUGE))
			return true;
		t = __va(e & PTE_ADDR_MASK);
	}
	return false;
}

/* The kernel's text, or a loaded module's (kernel/module/main.c), as Linux's. */
notrace bool kernel_text_address(uintptr_t addr)
{
	if (addr >= MODULES_VADDR && addr < MODULES_END)
		return is_module_text_address(addr);
	return addr >= (uintptr_t)_text && addr < (uintptr_t)_etext;
}

/* The image's sections, each mapped with what it needs and no more. */
static void map_kernel_image(void)
{
	for (uintptr_t va = (uintptr_t)_text; va < (uintptr_t)_end; va += PAGE_SIZE) {
		int flags;
		if (va < (uintptr_t)_etext)
			flags = MMU_EXEC;
		else if (va < (uintptr_t)_erodata)
			flags = 0;
		else
			flags = MMU_WRITE;
		if (map_page_locked(va, va - KERNEL_VMA, flags))
			panic("mmu: out of memory mapping the kernel");
	}
}

/*
 * The direct map, in 2 MiB pages. Where it covers the kernel image it uses 4 KiB pages instead,
 * so that the second view of the kernel's text and rodata is read-only too: otherwise anyone
 * could patch code through __va() and text_poke's alias would be for show.
 */
static void map_direct(void)
{
	uintptr_t image_lo = ALIGN_DOWN(__pa(_text), HUGE_PAGE_SIZE);
	uintptr_t image_hi = ALIGN_UP(__pa(_end), HUGE_PAGE_SIZE);
	uintptr_t ro_lo = __pa(_text), ro_hi = __pa(_erodata);
	uint64_t *pdpt = next_table(kernel_pml4, pt_index(PHYS_OFFSET, 3), true);

	for (uintptr_t pa = 0; pa < DIRECT_MAP_SIZE; pa += HUGE_PAGE_SIZE) {
		uintptr_t va = PHYS_OFFSET + pa;
		uint64_t *pd = pdpt ? next_table(pdpt, pt_index(va, 2), true) : NULL;
		if (!pd)
			panic("mmu: out of memory mapping physical memory");
		if (pa >= image_lo && pa < image_hi) {
			for (uintptr_t p = pa; p < pa + HUGE_PAGE_SIZE; p += PAGE_SIZE) {
				bool ro = p >= ro_lo && p < ro_hi;
				if (map_page_locked(PHYS_OFFSET + p, p, ro ? 0 : MMU_WRITE))
					panic("mmu: out of memory mapping physical memory");
			}
			continue;
		}
		uint64_t f = PTE_PRESENT | PTE_WRITE | PTE_HUGE | PTE_GLOBAL | PTE_NX;
		if (pa >= MMIO_START)
			f |= PTE_PCD | PTE_PWT;
		pd[pt_index(va, 1)] = pa | f;
	}
}

/*
 * The module area. Its page tables are made at boot, all of them (33 pages for 64 MiB): mapping a
 * module then never allocates a table, so a load that fails gives back exactly the pages it took,
 * and no table is ever freed under another CPU's walk. Virtual pages are handed out first-fit from
 * a bitmap; the physical pages behind a module are one contiguous allocation, so that freeing
 * needs nothing but the first page's address.
 */
#define MODULE_AREA_PAGES (MODULES_LEN / PAGE_SIZE)
#define BITS_PER_WORD 64
static uint64_t module_area_used[MODULE_AREA_PAGES / BITS_PER_WORD];
static DEFINE_SPINLOCK(module_area_lock);

static int module_area_init(void)
{
	for (uintptr_t va = MODULES_VADDR; va < MODULES_END; va += HUGE_PAGE_SIZE) {
		uint64_t *t = kernel_pml4;

		for (int level = 3; level > 0; level--) {
			t = next_table(t, pt_index(va, level), true);
			if (!t)
				return -ENOMEM;
		}
	}
	return 0;
}

static bool area_page_used(size_t i)
{
	return module_area_used[i / BITS_PER_WORD] & (1UL << (i % BITS_PER_WORD));
}

static void area_mark(size_t first, size_t n, bool used)
{
	for (size_t i = first; i < first + n; i++) {
		if (used)
			module_area_used[i / BITS_PER_WORD] |= 1UL << (i % BITS_PER_WORD);
		else
			module_area_used[i / BITS_PER_WORD] &= ~(1UL << (i % BITS_PER_WORD));
	}
}

/* n free pages in a row of the area: the first one's index, or -1. */
static long area_reserve(size_t n)
{
	unsigned long irq = spin_lock_irqsave(&module_area_lock);
	size_t run = 0;

	for (size_t i = 0; i < MODULE_AREA_PAGES; i++) {
		run = area_page_used(i) ? 0 : run + 1;
		if (run == n) {
			area_mark(i + 1 - n, n, true);
			spin_unlock_irqrestore(&module_area_lock, irq);
			return (long)(i + 1 - n);
		}
	}
	spin_unlock_irqrestore(&module_area_lock, irq);
	return -1;
}

static void area_release(size_t first, size_t n)
{
	unsigned long irq = spin_lock_irqsave(&module_area_lock);

	area_mark(first, n, false);
	spin_unlock_irqrestore(&module_area_lock, irq);
}

void *module_alloc(size_t size)
{
	size_t n = size / PAGE_SIZE;
	long first;
	void *pages;

	if (!n || size % PAGE_SIZE || n > MODULE_AREA_PAGES)
		return NULL;
	first = area_reserve(n);
	if (first < 0)
		return NULL;
	pages = alloc_pages(n);
	if (!pages) {
		area_release((size_t)first, n);
		return NULL;
	}
	uintptr_t base = MODULES_VADDR + (uintptr_t)first * PAGE_SIZE;
	for (size_t i = 0; i < n; i++)
		if (mmu_map_page(base + i * PAGE_SIZE, __pa(pages) + i * PAGE_SIZE, MMU_WRITE))
			panic("mmu: the module area's tables are missing"); /* made at boot */
	return (void *)base;
}

void module_memfree(void *addr, size_t size)
{
	uintptr_t base = (uintptr_t)addr;
	size_t n = size / PAGE_SIZE;
	uintptr_t pa = mmu_virt_to_phys(base);

	if (!addr)
		return;
	for (size_t i = 0; i < n; i++)
		mmu_unmap_page(base + i * PAGE_SIZE);
	/* No CPU may still reach the pages (a stale TLB entry) once someone else owns them. */
	flush_tlb_kernel_range(base, base + size);
	free_pages(__va(pa), n);
	area_release((base - MODULES_VADDR) / PAGE_SIZE, n);
}

void set_memory_perms(uintptr_t addr, size_t numpages, int flags)
{
	for (size_t i = 0; i < numpages; i++) {
		uintptr_t va = addr + i * PAGE_SIZE;

		if (mmu_map_page(va, mmu_virt_to_phys(va), flags))
			panic("mmu: the module area's tables are missing");
	}
	flush_tlb_kernel_range(addr, addr + numpages * PAGE_SIZE);
}

void mmu_init(void)
{
	kernel_pml4 = alloc_page_zeroed();
	if (!kernel_pml4)
		panic("mmu: no memory for page tables");
	map_direct();
	map_kernel_image();
	/* Allocate the stack area's top-level table now, so every CPU's copy of it is shared. */
	if (!next_table(kernel_pml4, pt_index(KSTACK_AREA, 3), true) ||
	    !next_table(kernel_pml4, pt_index(POKE_AREA, 3), true) || module_area_init())
		panic("mmu: out of memory");
	write_cr3(__pa(kernel_pml4));
	boot_stack_guard_init();
}

/* notrace: a starting CPU calls it before its GS base is set (smpboot.c ap_start). */
notrace uintptr_t mmu_kernel_cr3(void)
{
	return __pa(kernel_pml4);
}

/*
 * User address spaces. Each process has its own top-level table (a "pgd", as Linux
 * calls it): entries 0-255 map its lower half, its own; entries 256-511 are copied from the
 * kernel's, so every process shares the one kernel half, whose lower-level tables mmu_init made
 * in advance. User pages carry the U bit (ring 3 may touch them), and never G (they must leave
 * the TLB when CR3 changes). Kernel pages have no U bit: ring 3 cannot reach them.
 *
 * Each user table counts its present entries (in its struct page's inuse field, which only
 * slab pages use otherwise): when an unmap empties a table, the table is freed and its entry in
 * the table above cleared, so munmap gives page tables back too, and freeing an address space
 * walks only the ranges its areas cover (mmu_user_unmap_range), never all 512 entries of every
 * table. The pgd's count is of its user entries: 0 once everything is unmapped.
 */
#define PTE_USER (1UL << 2)
#define USER_PGD_ENTRIES (ENTRIES / 2) /* the lower half */
#define LEVEL_SPAN(level) (1UL << (PAGE_SHIFT + 9 * (level))) /* what one entry maps */
#define USER_TABLE (PTE_PRESENT | PTE_WRITE | PTE_USER) /* the leaf says what is allowed */

static inline uint16_t *table_count(uint64_t *table)
{
	return &virt_to_page(table)->inuse;
}

uint64_t *mmu_pgd_alloc(void)
{
	uint64_t *pgd = alloc_page_zeroed();

	if (pgd)
		copy_qwords(pgd + USER_PGD_ENTRIES, kernel_pml4 + USER_PGD_ENTRIES,
			    USER_PGD_ENTRIES);
	return pgd;
}

/* The table below entry e of t, made (zeroed, and counted in t) if missing; NULL if no memory. */
static uint64_t *table_below(uint64_t *t, int idx)
{
	if (!(t[idx] & PTE_PRESENT)) {
		void *page = alloc_page_zeroed();

		if (!page)
			return NULL;
		t[idx] = __pa(page) | USER_TABLE;
		(*table_count(t))++;
	}
	return __va(t[idx] & PTE_ADDR_MASK);
}

int mmu_user_map(uint64_t *pgd, uintptr_t va, uintptr_t pa, int flags)
{
	uint64_t *t = pgd;

	for (int level = 3; level > 0; level--) {
		t = table_below(t, pt_index(va, level));
		if (!t)
			return -ENOMEM;
	}
	uint64_t pte = pa | PTE_PRESENT | (flags & MMU_NOACCESS ? 0 : PTE_USER);
	if (flags & MMU_WRITE)
		pte |= PTE_WRITE;
	if (!(flags & MMU_EXEC))
		pte |= PTE_NX;
	if (!(t[pt_index(va, 0)] & PTE_PRESENT))
		(*table_count(t))++;
	t[pt_index(va, 0)] = pte;
	return 0;
}

/* A user PTE's permissions as MMU_* flags. */
static int pte_to_mmu(uint64_t pte)
{
	return (pte & PTE_WRITE ? MMU_WRITE : 0) | (pte & PTE_NX ? 0 : MMU_EXEC) |
	       (pte & PTE_USER ? 0 : MMU_NOACCESS) | (pte & PTE_DIRTY ? MMU_DIRTY : 0);
}

/* A user page's entry, or NULL if a table above it is missing. */
static uint64_t *user_pte(uint64_t *pgd, uintptr_t va)
{
	uint64_t *t = pgd;

	for (int level = 3; level > 0; level--) {
		uint64_t e = t[pt_index(va, level)];

		if (!(e & PTE_PRESENT))
			return NULL;
		t = __va(e & PTE_ADDR_MASK);
	}
	return &t[pt_index(va, 0)];
}

/* The page behind a user address (its direct-map address), or NULL; *flags gets MMU_*. */
void *mmu_user_page(uint64_t *pgd, uintptr_t va, int *flags)
{
	uint64_t *pte = user_pte(pgd, va);

	if (!pte || !(*pte & PTE_PRESENT))
		return NULL;
	if (flags)
		*flags = pte_to_mmu(*pte);
	return __va(*pte & PTE_ADDR_MASK);
}

/*
 * The first mapped user page at or above va and below end (end if none), skipping a whole
 * missing table at a time: /proc/PID/maps walks areas that may be terabytes and nearly empty.
 */
uintptr_t mmu_user_next_mapped(uint64_t *pgd, uintptr_t va, uintptr_t end)
{
	while (va < end) {
		uint64_t *t = pgd;
		int level;

		for (level = 3; level > 0; level--) {
			uint64_t e = t[pt_index(va, level)];

			if (!(e & PTE_PRESENT))
				break;
			t = __va(e & PTE_ADDR_MASK);
		}
		if (level == 0 && (t[pt_index(va, 0)] & PTE_PRESENT))
			return va;
		/* Past what the missing entry at this level would have mapped. */
		uintptr_t span = LEVEL_SPAN(level);
		uintptr_t next = (va & ~(span - 1)) + span;

		if (next <= va)
			break; /* wrapped: the top of the address space */
		va = next;
	}
	return end;
}

/*
 * mprotect's work on one page: the new permissions, the same physical page. PROT_NONE is a
 * page without the U bit: present (its data kept), but ring 3 faults on any touch.
 */
int mmu_user_protect(uint64_t *pgd, uintptr_t va, int flags)
{
	uint64_t *pte = user_pte(pgd, va);

	if (!pte || !(*pte & PTE_PRESENT))
		return -ENOMEM;
	*pte = (*pte & PTE_ADDR_MASK) | PTE_PRESENT | (flags & MMU_NOACCESS ? 0 : PTE_USER) |
	       (flags & MMU_WRITE ? PTE_WRITE : 0) | (flags & MMU_EXEC ? 0 : PTE_NX);
	invlpg(va);
	return 0;
}

/*
 * The end of the part of [va, end) that entry va of a table at this level maps: the next
 * entry's start, or end if that comes first.
 */
static inline uintptr_t entry_end(uintptr_t va, uintptr_t end, int level)
{
	uintptr_t next = (va & ~(LEVEL_SPAN(level) - 1)) + LEVEL_SPAN(level);

	return next < end ? next : end;
}

/*
 * Unmaps every present page of [start, end) below table t (of this level), dropping each
 * page's reference, and unhooks the tables that this leaves empty. flush: the tables are
 * loaded on this CPU, whose TLB forgets each page now (invlpg also empties the
 * paging-structure caches). Another CPU running a thread of the process may still reach them:
 * the pages and tables are not freed here but gathered in tlb, and freed once every CPU has
 * flushed (kernel/mm/mmu_gather.c).
 */
static void zap_range(struct mmu_gather *tlb, uint64_t *t, int level, uintptr_t start,
		      uintptr_t end, bool flush)
{
	for (uintptr_t va = start, next; va < end; va = next) {
		uint64_t *e = &t[pt_index(va, level)];

		next = entry_end(va, end, level);
		if (!(*e & PTE_PRESENT))
			continue;
		void *below = __va(*e & PTE_ADDR_MASK);

		if (level > 0) {
			zap_range(tlb, below, level - 1, va, next, flush);
			if (*table_count(below))
				continue; /* other pages still in it */
			*e = 0;
			tlb_remove_table(tlb, below);
		} else {
			*e = 0;
			if (flush)
				invlpg(va);
			tlb_remove_page(tlb, below); /* freed later if no other process shares it */
		}
		(*table_count(t))--;
	}
}

void mmu_user_unmap_range(struct mmu_gather *tlb, uint64_t *pgd, uintptr_t start, uintptr_t end)
{
	zap_range(tlb, pgd, 3, start, end, read_cr3() == __pa(pgd));
}

/*
 * Copy-on-write, the fault's side: the present page at va becomes writable in place (this table
 * holds its last reference), or is replaced by new_page, a copy, mapped writable; the old
 * page's reference goes (through tlb: another CPU may still read it). Either way this CPU
 * forgets the read-only translation.
 */
void mmu_user_make_writable(struct mmu_gather *tlb, uint64_t *pgd, uintptr_t va, void *new_page)
{
	uint64_t *pte = user_pte(pgd, va);
	uint64_t e = *pte;

	if (new_page)
		*pte = __pa(new_page) | (e & ~PTE_ADDR_MASK) | PTE_WRITE;
	else
		*pte = e | PTE_WRITE;
	invlpg(va);
	if (new_page)
		tlb_remove_page(tlb, __va(e & PTE_ADDR_MASK));
}

/*
 * The present page at va is replaced by new_page with the same permissions (a private copy for
 * a debugger's write, kernel/mm/memory.c), and this CPU forgets the old translation. The old
 * page's reference is the caller's to drop: another CPU running this process keeps its
 * translation until its next switch, reading the old page a while longer.
 */
void mmu_user_replace_page(uint64_t *pgd, uintptr_t va, void *new_page)
{
	uint64_t *pte = user_pte(pgd, va);

	*pte = __pa(new_page) | (*pte & ~PTE_ADDR_MASK);
	invlpg(va);
}

/* Frees a table and everything below it; level 0 is a page table, whose entries are pages. */
static void free_user_table(uint64_t *t, int level)
{
	for (int i = 0; i < ENTRIES; i++) {
		if (!(t[i] & PTE_PRESENT))
			continue;
		void *below = __va(t[i] & PTE_ADDR_MASK);
		if (level > 0)
			free_user_table(below, level - 1);
		else
			put_page(below);
	}
	free_pages(t, 1);
}

/*
 * Frees the pgd, and whatever is still mapped in the lower half: nothing, once the caller
 * unmapped every area (kernel/mm/mmap.c mmput), which costs a walk of the areas only. Not
 * while it is loaded in CR3.
 */
void mmu_pgd_free(uint64_t *pgd)
{
	for (int i = 0; *table_count(pgd) && i < USER_PGD_ENTRIES; i++) {
		if (pgd[i] & PTE_PRESENT) {
			free_user_table(__va(pgd[i] & PTE_ADDR_MASK), 2);
			pgd[i] = 0;
			(*table_count(pgd))--;
		}
	}
	free_pages(pgd, 1);
}

/*
 * fork's copy of [start, end) of src's table t (level 0: a page table) into dst, at the same
 * place: the tables below are new, the pages are shared. A writable page becomes read-only in
 * both (the first write faults and gets a copy, kernel/mm/memory.c); every shared page gains a
 * reference.
 */
static int copy_range(uint64_t *dst, uint64_t *src, int level, uintptr_t start, uintptr_t end)
{
	for (uintptr_t va = start, next; va < end; va = next) {
		int i = pt_index(va, level);
		uint64_t e = src[i];

		next = entry_end(va, end, level);
		if (!(e & PTE_PRESENT))
			continue;
		if (level == 0) {
			if (e & PTE_WRITE)
				src[i] = e &= ~PTE_WRITE;
			get_page(__va(e & PTE_ADDR_MASK));
			dst[i] = e;
			(*table_count(dst))++;
			continue;
		}
		uint64_t *below = table_below(dst, i);

		if (!below || copy_range(below, __va(e & PTE_ADDR_MASK), level - 1, va, next))
			return -ENOMEM;
	}
	return 0;
}

/*
 * fork's copy of [start, end) of an address space (an area: kernel/mm/mmap.c dup_mm),
 * copy-on-write: dst gets tables of its own mapping src's pages, read-only in both. On
 * -ENOMEM, dst holds part of the copy, each page in it counted; the caller frees it whole.
 * The caller flushes src's TLB when every area is done (mmu_flush_user).
 */
int mmu_user_copy_range(uint64_t *dst, uint64_t *src, uintptr_t start, uintptr_t end)
{
	return copy_range(dst, src, 3, start, end);
}

/* This CPU forgets every user translation (a CR3 reload: user pages are never global). */
void mmu_flush_user(void)
{
	write_cr3(read_cr3());
}

/* Never probed: text_poke's int3 handler calls it (kernel/kprobes.h). */
NOKPROBE_SYMBOL(kernel_text_address);
