/*
 * A process's address space (kernel/mm/mmap.c): its page tables and its areas (VMAs), Linux's
 * mm_struct and vm_area_struct. The areas say what may be mapped where, with which permissions;
 * the page tables say what is mapped now. An area's pages come on demand (kernel/mm/memory.c),
 * and fork shares them copy-on-write.
 */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include "arch/x86_64/page_64_types.h"
#include "lib/list.h"
#include "kernel/locking/spinlock.h"
#include "kernel/mm/mmu_gather.h"

struct inode;
struct xol_area;
struct uprobe_kept_page;

#define STACK_TOP TASK_SIZE_MAX /* the initial stack ends at the top of the user half */
#define STACK_MAX (8UL << 20) /* RLIMIT_STACK's default: 8 MiB, grown on demand */
#define STACK_EXPAND (128UL << 10) /* exec's stack area: the arguments and 128 KiB, as Linux */
#define STACK_GUARD_GAP (256UL << 12) /* Linux's stack_guard_gap: 256 pages kept free below it */
#define MMAP_BASE 0x00007f0000000000UL /* anonymous mmaps go down from here */
#define ELF_ET_DYN_BASE 0x0000555555554000UL /* where a static-pie program is loaded */

#define EXE_PATH_LEN 128 /* longer paths are cut: only /proc/PID/maps shows them */

/* vm_flags: Linux's values. */
#define VM_READ 0x00000001
#define VM_WRITE 0x00000002
#define VM_EXEC 0x00000004
#define VM_SHARED 0x00000008 /* MAP_SHARED: a write reaches the pages every mapper sees */
#define VM_MAYWRITE 0x00000020 /* a shared area mprotect may make writable (fd open for it) */
#define VM_MAYSHARE 0x00000080 /* MAP_SHARED asked for: maps shows 's' */
#define VM_GROWSDOWN 0x00000100 /* the stack: a fault just below it grows it */
#define VM_ACCESS_FLAGS (VM_READ | VM_WRITE | VM_EXEC)

/* What an area holds: /proc/PID/maps names it, and only areas of one kind merge. */
enum vma_kind {
	VMA_ANON, /* an anonymous mmap */
	VMA_BRK, /* the heap: [start_brk, brk) */
	VMA_STACK, /* the stack, growing down */
	VMA_ELF, /* a PT_LOAD segment of the program (mm->exe_path) */
	VMA_FILE, /* a private mmap of a file (filemap.c): a shared library, say */
	VMA_XOL, /* the uprobes' execute-out-of-line page (kernel/events/uprobes.c): [uprobes] */
	VMA_SHARED, /* MAP_SHARED: vm_file's pages themselves, never copied (filemap.c) */
	VMA_VVAR, /* the vDSO's data, read-only (arch/x86_64/entry/vdso/vma.c): [vvar] */
	VMA_VDSO, /* the vDSO's image: [vdso] */
};

struct vm_area_struct {
	unsigned long vm_start, vm_end; /* [vm_start, vm_end), page-aligned */
	unsigned long vm_flags; /* VM_* */
	enum vma_kind kind;
	struct list_head vm_list; /* on mm->mmap, sorted by address, never overlapping */
	/*
	 * A mapping of a file (a program's segment, an mmap, private or shared) or of shared
	 * anonymous memory: its pages (kernel/mm/filemap.c), the page at vm_start, and the
	 * address where the file's bytes end: from there to vm_end a segment is zeroes (its
	 * bss), an mmap SIGBUS (a file cut short since). NULL: anonymous.
	 */
	struct file_pages *vm_file;
	unsigned long vm_pgoff;
	unsigned long vm_file_end;
	/*
	 * Does the area map pages of its own, not the file's (a copy made by a write, the bss)?
	 * Until it does, fork leaves its page tables out: the child's faults find the same file
	 * pages (Linux's copy_page_range skips such an area, one without an anon_vma).
	 */
	bool vm_private_pages;
	/*
	 * What /proc/PID/maps names the area after: the file it maps (a library, ld.so), or
	 * NULL to be named by its kind (the program's segments, [heap], [stack], anonymous).
	 */
	struct vma_name *vm_name;
	/*
	 * The file whose bytes the area holds from file page vm_pgoff (a segment, an mmap of a
	 * file), or NULL: what a uprobe on (inode, offset) looks for (kernel/events/uprobes.c).
	 * An identity only, never followed: no reference is held, and the inode of a file
	 * unlinked since may be gone. vm_ino tells such an area from one of a new file whose
	 * inode got the same address.
	 */
	const struct inode *vm_inode;
	unsigned long vm_ino;
};

/*
 * A mapped file's path as it was at mmap or exec, shared by the areas cut from that mapping
 * and by fork's copies; the last one frees it. (Linux's area holds the struct file itself and
 * asks d_path at each read of maps, so a rename shows there; Lucid's keeps only the name.)
 */
struct vma_name {
	int refcount;
	char path[];
};
struct vma_name *vma_name_new(const char *path); /* NULL if no memory */
void vma_name_get(struct vma_name *name); /* name may be NULL in both */
void vma_name_put(struct vma_name *name);

struct mm_struct {
	uint64_t *pgd; /* the top-level page table (arch/x86_64/mmu.c) */
	/*
	 * The tasks that use it, Linux's mm_users: one, or two while a clone(CLONE_VM) child
	 * (vfork, posix_spawn) runs in its parent's memory until it execs or exits
	 * (kernel/fork.c). The last mmput frees it.
	 */
	int mm_users;
	/*
	 * Held while the areas or the page tables change (mmap, munmap, mprotect, brk, a fault),
	 * and by /proc/PID's readers, who walk them from another process. Linux's mmap_lock is a
	 * reader-writer semaphore; a spinlock here, as the fault handler runs with interrupts off
	 * and /proc reads under task_list_lock, and nothing sleeps while holding it.
	 */
	spinlock_t mmap_lock;
	struct list_head mmap; /* its areas, in address order */
	int map_count;
	unsigned long start_brk; /* the heap: [start_brk, brk), grown by brk() */
	unsigned long brk;
	unsigned long mmap_base; /* anonymous mmaps go below this */
	unsigned long start_code, end_code, start_data, end_data, start_stack;
	unsigned long arg_start, arg_end, env_start, env_end;
	char exe_path[EXE_PATH_LEN]; /* the program's path, as /proc/PID/maps names its pages */
	struct xol_area *uprobes_xol; /* the uprobes' [uprobes] page, once one was hit (NULL) */
	struct uprobe_kept_page *uprobes_kept; /* pages its int3s replaced, kept till it goes */
	struct list_head uprobes_dup; /* a fork's copy, until its task has it (uprobes.c) */
	unsigned long vdso; /* where the vDSO's image is mapped (AT_SYSINFO_EHDR), 0: none */
	unsigned int membarrier_state; /* MEMBARRIER_CMD_REGISTER_*s done (sched/membarrier.c) */
	/* Pages unmapped, freed once no CPU's TLB reaches them (mmu_gather.c), under mmap_lock. */
	struct mmu_gather tlb;
};

struct mm_struct *mm_alloc(void); /* one user: the caller's */
/*
 * After a change that takes a page or a right away (munmap, mprotect, madvise, brk, mremap,
 * fork's copy-on-write), with mmap_lock dropped, the caller calls tlb_finish_mmu(mm)
 * (mmu_gather.h): other CPUs may hold the old translations if a thread of the same process
 * runs there, so they flush too (a TLB shootdown), and only then are the pages freed.
 */
/* One user more: a CLONE_VM child shares it. */
static inline void mmget(struct mm_struct *mm)
{
	__atomic_add_fetch(&mm->mm_users, 1, __ATOMIC_RELAXED);
}
/* One user less; the last frees every page and area of it, and it must not be loaded then. */
void mmput(struct mm_struct *mm);
/* fork: a copy of old (the address space loaded on this CPU), its pages shared copy-on-write. */
struct mm_struct *dup_mm(struct mm_struct *old);
void switch_mm(struct mm_struct *mm); /* load mm's tables (NULL: the kernel's alone) */

/* Areas (kernel/mm/mmap.c). */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr); /* first end > addr */

/* The areas either side of vma in the list, or NULL. */
static inline struct vm_area_struct *next_vma(struct mm_struct *mm, struct vm_area_struct *vma)
{
	if (vma->vm_list.next == &mm->mmap)
		return NULL;
	return list_entry(vma->vm_list.next, struct vm_area_struct, vm_list);
}

static inline struct vm_area_struct *prev_vma(struct mm_struct *mm, struct vm_area_struct *vma)
{
	if (vma->vm_list.prev == &mm->mmap)
		return NULL;
	return list_entry(vma->vm_list.prev, struct vm_area_struct, vm_list);
}

/* A new area over [start, end), which must be free; -ENOMEM if no memory for it. */
int insert_vma(struct mm_struct *mm, unsigned long start, unsigned long end, unsigned long flags,
	       enum vma_kind kind);
/*
 * The same, mapping fp's pages from file page pgoff; file bytes up to file_end (see above).
 * The area takes a reference of its own on fp and on name.
 */
int insert_file_vma(struct mm_struct *mm, unsigned long start, unsigned long end,
		    unsigned long flags, enum vma_kind kind, struct file_pages *fp,
		    unsigned long pgoff, unsigned long file_end, struct vma_name *name);
int do_munmap(struct mm_struct *mm, unsigned long start, unsigned long end);
int split_vma(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr);
void vma_merge_around(struct mm_struct *mm, struct vm_area_struct *vma);
/* The area at addr now maps inode's bytes (vm_inode, for uprobes). */
void vma_set_inode(struct mm_struct *mm, unsigned long addr, const struct inode *inode);
/* Where an mmap without MAP_FIXED would go (0 if nowhere), mmap_lock held. */
unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long hint, unsigned long len);
/* Maps zeroed pages over [start, end) (page-aligned) with MMU_* flags at once (exec's segments). */
int mm_map_zeroed(struct mm_struct *mm, unsigned long start, unsigned long end, int flags);
int vm_flags_to_mmu(unsigned long vm_flags);

/* Page faults (kernel/mm/memory.c): 0 when the page is there now, else what to do. */
#define VM_FAULT_SIGSEGV 1 /* no area, or one that does not allow this access */
#define VM_FAULT_OOM 2 /* no page to be had */
#define VM_FAULT_SIGBUS 4 /* a page of a file mapping wholly past the file's end */
/*
 * Done, but a copy-on-write took the old page from under other CPUs that may run mm: the
 * caller calls tlb_finish_mmu(mm) with interrupts on (kernel/mm/mmu_gather.c). Not an error;
 * a code of its own so that the usual fault's path checks nothing more.
 */
#define VM_FAULT_TLB_FINISH 8
int handle_mm_fault(struct mm_struct *mm, unsigned long addr, bool write, bool instr);
/* A page of mm that only this process maps, for uprobes' int3 (memory.c); mmap_lock held. */
/* Copies len bytes (one page at most) at addr of another process's mm (memory.c). 0, -EFAULT. */
int access_remote_page(struct mm_struct *mm, unsigned long addr, void *buf, size_t len, bool write);
void *get_user_page_private(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long va,
			    void **old);
/* Out of memory in a page fault: Linux's one-line OOM report for the current process. */
void pagefault_out_of_memory(void);

/*
 * mmap's work (mmap.c), with mm->mmap_lock held: a new private area of this kind at addr (or
 * where there is room), mapping fp's pages from off if fp is not NULL, the old ones under it
 * unmapped. Returns its address or an error.
 */
long do_mmap(struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long prot,
	     unsigned long flags, struct file_pages *fp, unsigned long off, enum vma_kind kind);
/*
 * Shared anonymous memory (MAP_SHARED|MAP_ANONYMOUS, MAP_SHARED of /dev/zero): a new object of
 * len bytes (filemap.c's shmem_zero_setup) in a VMA_SHARED area, mmap_lock not held.
 */
long mmap_shmem(struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long prot,
		unsigned long flags);
/* mmap of file descriptor fd (mmap_file.c), mmap_lock not held: its pages mapped (ramfs) or its
 * bytes copied in (9p). */
long mmap_file(struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long prot,
	       unsigned long flags, int fd, unsigned long off);

long sys_brk(unsigned long brk);
long sys_mmap(unsigned long addr, unsigned long len, unsigned long prot, unsigned long flags,
	      unsigned long fd, unsigned long off);
long sys_munmap(unsigned long addr, unsigned long len);
long sys_mprotect(unsigned long start, unsigned long len, unsigned long prot);
long sys_madvise(unsigned long start, size_t len, int behavior);
long sys_mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
		unsigned long flags, unsigned long new_addr); /* mremap.c */
long sys_msync(unsigned long start, size_t len, int flags); /* msync.c */

#endif
