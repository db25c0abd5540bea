/*
 * mmap of a file, MAP_PRIVATE: the file's own pages, or a private copy of its bytes; MAP_SHARED:
 * the file's own pages, written where they are.
 *
 * ld.so maps every shared library so: one mapping of the whole library from offset 0 (which
 * reserves the room), then each PT_LOAD segment over it with MAP_FIXED at its own offset and
 * permissions, mprotect(PROT_NONE) on the holes between them, and anonymous memory for the bss.
 *
 * A ramfs file's data is in pages already: the area maps those (filemap.c's snapshot of them),
 * shared with every other mapping until a write copies one (memory.c), as Linux maps its page
 * cache and as exec maps a program's segments. A file with no pages of its own (9p: its bytes
 * are on the host) is copied into fresh pages at mmap time instead. For MAP_PRIVATE that is the
 * same memory to the process: what it writes stays its own, and Linux leaves it unspecified
 * whether later changes to the file show through a private mapping.
 *
 * The copy is made first, outside mmap_lock (reading a 9p file sleeps, and the lock is a
 * spinlock), then the area (do_mmap, kind VMA_FILE) and all its copied pages go in at once under
 * the lock, with the area's permissions: the process never sees the area half filled. A touch
 * of a page wholly past the file's end is SIGBUS, as on Linux (memory.c): a library cut short
 * on disk dies so. From then on the copied pages are anonymous ones: fork shares them
 * copy-on-write, munmap and mprotect cut the area like any other.
 *
 * MAP_SHARED of a ramfs file (or a memfd) maps the file's pages too, writable: a write through
 * the mapping is a write to the file, which read() and every other mapping see at once, and
 * there is nothing to write back (msync checks its arguments and the range, mremap.c). Each
 * page the mapping may touch is given to the file first (file_operations.mmap_shared fills its
 * holes), as a fault cannot take the VFS lock to add one. A page wholly past the file's end
 * when the mapping was made is SIGBUS, as on Linux, and so is one past the end of a file cut
 * short since (unmap_mapping_range); a file grown since shows its new pages (ramfs gives the
 * mappings a new list of them, kernel/mm/filemap.h). A 9p file's bytes are on the host, with
 * no page here for two processes to share: MAP_SHARED of one is ENODEV, as on a Linux file
 * system without shared mmap. /dev/zero's mappings are anonymous memory: shared (mmap_shmem)
 * or private, as Linux's mmap_zero.
 */
#include "kernel/mm/mm.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/fs/vfs.h"
#include "kernel/events/uprobes.h"
#include "arch/x86_64/mmu.h"
#include "lib/errno.h"
#include "lib/string.h"

#define MAP_SHARED 0x01 /* mmap's flags, Linux's values */
#define MAP_PRIVATE 0x02
#define MAP_SHARED_VALIDATE 0x03
#define MAP_TYPE 0x0f
#define PROT_WRITE 0x2
/*
 * Linux's LEGACY_MAP_MASK: the flags every mmap took before MAP_SHARED_VALIDATE, which fails with
 * EOPNOTSUPP on any other (MAP_FIXED_NOREPLACE, MAP_SYNC); plain MAP_SHARED ignores the others.
 */
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define MAP_GROWSDOWN 0x100
#define MAP_DENYWRITE 0x800
#define MAP_EXECUTABLE 0x1000
#define MAP_LOCKED 0x2000
#define MAP_NORESERVE 0x4000
#define MAP_POPULATE 0x8000
#define MAP_NONBLOCK 0x10000
#define MAP_STACK 0x20000
#define MAP_HUGETLB 0x40000
#define MAP_UNINITIALIZED 0x4000000
#define LEGACY_MAP_MASK                                                                          \
	(MAP_SHARED | MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS | MAP_DENYWRITE | MAP_EXECUTABLE | \
	 MAP_UNINITIALIZED | MAP_GROWSDOWN | MAP_LOCKED | MAP_NORESERVE | MAP_POPULATE |         \
	 MAP_NONBLOCK | MAP_STACK | MAP_HUGETLB)

/* Frees the pages of the copy still in hand (those not mapped). */
static void free_copy(void **pages, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		if (pages[i])
			free_pages(pages[i], 1);
	kfree(pages);
}

/*
 * Reads the file's n pages from off into fresh pages (pages[i], the part of the last one past
 * the file's end zeroed). 0 or an error.
 */
static int copy_file_pages(int fd, unsigned long off, void **pages, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		loff_t pos = (loff_t)(off + i * PAGE_SIZE);

		pages[i] = alloc_page_zeroed();
		if (!pages[i])
			return -ENOMEM;
		for (size_t got = 0; got < PAGE_SIZE;) {
			ssize_t r = vfs_pread(fd, (char *)pages[i] + got, PAGE_SIZE - got,
					      pos + (loff_t)got);
			if (r < 0)
				return (int)r;
			if (r == 0)
				break; /* the file ends inside this page */
			got += (size_t)r;
		}
	}
	return 0;
}

/* Puts the copied pages in at addr, in the area just made; false if a page table is missing. */
static bool map_copy(struct mm_struct *mm, unsigned long addr, unsigned long prot, void **pages,
		     unsigned long n)
{
	int flags = vm_flags_to_mmu(prot & VM_ACCESS_FLAGS);

	for (unsigned long i = 0; i < n; i++) {
		if (!pages[i])
			continue;
		if (mmu_user_map(mm->pgd, addr + i * PAGE_SIZE, __pa(pages[i]), flags))
			return false;
		pages[i] = NULL; /* the page tables own it now */
	}
	return true;
}

/*
 * The area just made at addr takes name, the file's path, for /proc/PID/maps (file areas never
 * merge with their neighbours, so it is the area alone). Called with mmap_lock held.
 */
static void name_area(struct mm_struct *mm, unsigned long addr, struct vma_name *name,
		      const struct inode *inode)
{
	struct vm_area_struct *vma = find_vma(mm, addr);

	vma->vm_name = name;
	vma_name_get(name);
	vma_set_inode(mm, addr, inode);
	uprobe_mmap(mm, vma); /* the probes on the file go in, as Linux's mmap_region does */
}

/* The name of the file open at fd for its areas, or NULL: no memory, or a file unlinked. */
static struct vma_name *fd_vma_name(int fd)
{
	char *path = kmalloc(PATH_MAX);
	struct vma_name *name = NULL;

	if (path && vfs_fd_path(fd, path, PATH_MAX) >= 0)
		name = vma_name_new(path);
	kfree(path);
	return name;
}

/* The two ways to map the file (see above), the area named after it. */
static long map_pages_or_copy(struct mm_struct *mm, unsigned long addr, unsigned long len,
			      unsigned long prot, unsigned long flags, int fd, unsigned long off,
			      loff_t size, struct vma_name *name, const struct inode *inode)
{
	unsigned long n = ALIGN_UP(len, PAGE_SIZE) / PAGE_SIZE;
	long ret;
	int err;

	/* A ramfs file: its pages, mapped as they are (-ENODEV: a file without pages). */
	struct file_pages *fp = vfs_mmap_pages(fd, &err);
	if (fp || err != -ENODEV) {
		if (!fp)
			return err;
		unsigned long irq = spin_lock_irqsave(&mm->mmap_lock);
		ret = do_mmap(mm, addr, len, prot, flags, fp, off, VMA_ANON);
		if (ret >= 0)
			name_area(mm, (unsigned long)ret, name, inode);
		spin_unlock_irqrestore(&mm->mmap_lock, irq);
		file_pages_put(fp); /* the area has its own reference */
		return ret;
	}

	/*
	 * Any other file: the pages with file bytes in them are copied; a touch past them, SIGBUS.
	 */
	unsigned long nfile = 0;
	if ((loff_t)off < size)
		nfile = MIN(n, ALIGN_UP((unsigned long)size - off, PAGE_SIZE) / PAGE_SIZE);
	void **pages = kzalloc(MAX(nfile, 1UL) * sizeof(*pages));
	if (!pages)
		return -ENOMEM;
	err = copy_file_pages(fd, off, pages, nfile);
	if (err) {
		free_copy(pages, nfile);
		return err;
	}
	unsigned long irq = spin_lock_irqsave(&mm->mmap_lock);
	ret = do_mmap(mm, addr, len, prot, flags, NULL, off, VMA_FILE);
	if (ret >= 0 && !map_copy(mm, (unsigned long)ret, prot, pages, nfile)) {
		do_munmap(mm, (unsigned long)ret, (unsigned long)ret + n * PAGE_SIZE);
		ret = -ENOMEM;
	}
	if (ret >= 0)
		name_area(mm, (unsigned long)ret, name, inode);
	spin_unlock_irqrestore(&mm->mmap_lock, irq);
	free_copy(pages, nfile);
	return ret;
}

/* MAP_SHARED of a ramfs file: its pages, holes filled first (see above), written in place. */
static long map_shared(struct mm_struct *mm, unsigned long addr, unsigned long len,
		       unsigned long prot, unsigned long flags, int fd, unsigned long off,
		       struct vma_name *name, unsigned int caps)
{
	int err;
	struct file_pages *fp = vfs_mmap_shared_pages(fd, (loff_t)off, ALIGN_UP(len, PAGE_SIZE),
						      prot & PROT_WRITE, &err);

	if (!fp)
		return err;
	/* Before mmap_lock: the VFS lock is a mutex, and mmap_lock a spin lock (no sleeping). */
	const struct inode *inode = vfs_fd_inode(fd);
	unsigned long irq = spin_lock_irqsave(&mm->mmap_lock);
	long ret = do_mmap(mm, addr, len, prot, flags, fp, off, VMA_SHARED);

	if (ret >= 0) {
		name_area(mm, (unsigned long)ret, name, inode);
		if (!(caps & MMAP_FILE_WRITE)) /* read-only for good: mprotect says EACCES */
			find_vma(mm, (unsigned long)ret)->vm_flags &= ~(VM_MAYWRITE | VM_SHARED);
	}
	spin_unlock_irqrestore(&mm->mmap_lock, irq);
	tlb_finish_mmu(mm); /* MAP_FIXED over pages that were mapped */
	file_pages_put(fp); /* the area has its own reference */
	return ret;
}

/* A private mapping of /dev/zero: anonymous memory, named after the device in maps. */
static long map_zero(struct mm_struct *mm, unsigned long addr, unsigned long len,
		     unsigned long prot, unsigned long flags, unsigned long off,
		     struct vma_name *name)
{
	unsigned long irq = spin_lock_irqsave(&mm->mmap_lock);
	long ret = do_mmap(mm, addr, len, prot, flags, NULL, off, VMA_ANON);

	if (ret >= 0) /* named: it merges with nothing */
		find_vma(mm, (unsigned long)ret)->vm_name = name;
	vma_name_get(ret >= 0 ? name : NULL);
	spin_unlock_irqrestore(&mm->mmap_lock, irq);
	tlb_finish_mmu(mm);
	return ret;
}

long mmap_file(struct mm_struct *mm, unsigned long addr, unsigned long len, unsigned long prot,
	       unsigned long flags, int fd, unsigned long off)
{
	loff_t size = 0;

	/* Linux's order: the arguments, then the descriptor, then what the file allows. */
	if (!len || (off & (PAGE_SIZE - 1)))
		return -EINVAL;
	if (len > STACK_TOP)
		return -ENOMEM;
	unsigned long n = ALIGN_UP(len, PAGE_SIZE) / PAGE_SIZE;
	if (off / PAGE_SIZE + n < off / PAGE_SIZE)
		return -EOVERFLOW; /* the last page's offset wraps */
	if (fd < 0)
		return -EBADF;
	unsigned int caps;
	int err = vfs_mmap_check(fd, &size, &caps);
	if (err)
		return err;
	bool shared = true;

	switch (flags & MAP_TYPE) {
	case MAP_PRIVATE:
		shared = false;
		break;
	case MAP_SHARED:
		flags &= LEGACY_MAP_MASK;
		break;
	case MAP_SHARED_VALIDATE:
		if (flags & ~(unsigned long)LEGACY_MAP_MASK)
			return -EOPNOTSUPP;
		break;
	default:
		return -EINVAL;
	}
	if (shared && (prot & PROT_WRITE) && !(caps & MMAP_FILE_WRITE))
		return -EACCES;
	if (shared && (caps & MMAP_FILE_ZERO))
		return mmap_shmem(mm, addr, len, prot, flags);
	struct vma_name *name = fd_vma_name(fd);
	long ret;

	if (caps & MMAP_FILE_ZERO)
		ret = map_zero(mm, addr, len, prot, flags, off, name);
	else if (shared)
		ret = map_shared(mm, addr, len, prot, flags, fd, off, name, caps);
	else
		ret = map_pages_or_copy(mm, addr, len, prot, flags, fd, off, size, name,
					vfs_fd_inode(fd));

	vma_name_put(name); /* the area has its own reference */
	return ret;
}
