/*
 * The page cache as mappings see it: a mapping of a ramfs file (a program's segments at exec,
 * mmap of a file, private or shared) maps the file's own pages, as Linux maps its page
 * cache's, instead of copying the file: the text is shared read-only by every process running
 * the program, and a written page is copied first (copy-on-write, kernel/mm/memory.c).
 *
 * ramfs keeps a file's data in pages (inode->i_pages, kernel/fs/ramfs.c), but that array
 * changes under the VFS lock, which a page fault cannot take: it runs with interrupts off under
 * the process's mmap_lock. So an area does not look at the inode: it holds a struct file_pages,
 * a snapshot of the array with a reference on each page, which nobody changes once made. The
 * inode keeps the current snapshot, so that every exec of a program shares one (an exec costs a
 * reference, not a walk of the file); when a page is added to the file or taken from it (a
 * write into a hole or past the end, a truncate, the file's end) the inode lets its snapshot go
 * and the next mapping takes a new one. A page's bytes are the file's: a write into an existing
 * page shows in every mapping of it that has not copied it, as on Linux. A page added (a hole
 * filled, the file grown) is not in the older snapshots: ramfs then hands every mapping the new
 * one (mapping_refresh, memory.c, which finds the mappings). A truncate unmaps what lies past
 * the new end in every mapping (unmap_mapping_range), and a touch there is SIGBUS, as on
 * Linux; the pages live on, with their references, until the last area lets them go.
 *
 * Shared anonymous memory (shmem_zero_setup, below) is a file_pages too, that no inode owns.
 * A shared mapping writes the pages in place, never copying them (memory.c's do_shared_page).
 */
#include "kernel/mm/filemap.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/fs/vfs.h"
#include "lib/string.h"
#include "lib/errno.h"

#define FILE_PAGE_SIZE 4096UL

static struct file_pages *snapshot(struct inode *inode)
{
	unsigned long n = ((unsigned long)inode->i_size + FILE_PAGE_SIZE - 1) / FILE_PAGE_SIZE;
	struct file_pages *fp = kmalloc(sizeof(*fp) + n * sizeof(fp->pages[0]));

	if (!fp)
		return NULL;
	fp->refcount = 1;
	fp->exec_maps = 0;
	fp->ino = 0;
	fp->nr_pages = n;
	for (unsigned long i = 0; i < n; i++) {
		fp->pages[i] = i < inode->i_nr_slots ? inode->i_pages[i] : NULL;
		if (fp->pages[i])
			get_page(fp->pages[i]);
	}
	return fp;
}

struct file_pages *filemap_get_pages(struct inode *inode)
{
	inode->i_mmapped = true;
	if (!inode->i_mmap_pages)
		inode->i_mmap_pages = snapshot(inode);
	if (inode->i_mmap_pages)
		file_pages_get(inode->i_mmap_pages);
	return inode->i_mmap_pages;
}

void filemap_invalidate(struct inode *inode)
{
	file_pages_put(inode->i_mmap_pages);
	inode->i_mmap_pages = NULL;
}

bool filemap_running(const struct inode *inode)
{
	return inode->i_mmap_pages &&
	       __atomic_load_n(&inode->i_mmap_pages->exec_maps, __ATOMIC_RELAXED) > 0;
}

void file_pages_get(struct file_pages *fp)
{
	__atomic_add_fetch(&fp->refcount, 1, __ATOMIC_RELAXED);
}

void file_pages_get_area(struct file_pages *fp, bool exec)
{
	if (exec)
		__atomic_add_fetch(&fp->exec_maps, 1, __ATOMIC_RELAXED);
	file_pages_get(fp);
}

void file_pages_put_area(struct file_pages *fp, bool exec)
{
	if (fp && exec)
		__atomic_sub_fetch(&fp->exec_maps, 1, __ATOMIC_RELAXED);
	file_pages_put(fp);
}

void file_pages_put(struct file_pages *fp)
{
	if (!fp || __atomic_sub_fetch(&fp->refcount, 1, __ATOMIC_ACQ_REL))
		return;
	for (unsigned long i = 0; i < fp->nr_pages; i++) {
		if (fp->pages[i])
			put_page(fp->pages[i]);
	}
	kfree(fp);
}

/*
 * Shared anonymous memory is a file_pages no inode owns: its slots start empty and each fills
 * once, with a compare-and-exchange, since two processes may fault on the same page at once
 * on two CPUs under two different mmap_locks; the loser frees its page and maps the winner's.
 * A slot never changes again until the last area lets the object go.
 */
#define SHMEM_FIRST_INO 0x1000 /* numbers of their own, clear of the boot files' small ones */

struct file_pages *shmem_zero_setup(unsigned long nr_pages)
{
	static unsigned long last_ino = SHMEM_FIRST_INO;
	struct file_pages *fp = kzalloc(sizeof(*fp) + nr_pages * sizeof(fp->pages[0]));

	if (!fp)
		return NULL;
	fp->refcount = 1;
	fp->nr_pages = nr_pages;
	fp->ino = __atomic_add_fetch(&last_ino, 1, __ATOMIC_RELAXED);
	return fp;
}

int shmem_fault_page(struct file_pages *fp, unsigned long i, void **page)
{
	if (i >= fp->nr_pages)
		return -EFAULT;
	*page = __atomic_load_n(&fp->pages[i], __ATOMIC_ACQUIRE);
	if (*page)
		return 0;
	if (!fp->ino)
		return -EFAULT; /* a file's hole: mmap_shared filled those before the end */
	void *fresh = alloc_page_zeroed(), *none = NULL;

	if (!fresh)
		return -ENOMEM;
	if (__atomic_compare_exchange_n(&fp->pages[i], &none, fresh, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		*page = fresh; /* the slot holds the reference alloc gave it */
	} else {
		put_page(fresh); /* its only reference: freed */
		*page = none; /* another CPU's, put in meanwhile */
	}
	return 0;
}
