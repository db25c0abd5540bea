/*
 * A file's pages as its private mappings see them (kernel/mm/filemap.c): what exec's segments
 * and mmap(MAP_PRIVATE) of a ramfs file fault in, instead of copying the file.
 */
#ifndef KERNEL_MM_FILEMAP_H
#define KERNEL_MM_FILEMAP_H

#include <stdbool.h>
#include <stddef.h>

struct inode;

struct file_pages {
	int refcount; /* the areas using it, and the inode while it is the current one */
	int exec_maps; /* of those areas, a running program's segments (ETXTBSY) */
	/*
	 * Shared anonymous memory (shmem_zero_setup): the inode number maps shows for it, and
	 * its holes fill on first touch (shmem_fault_page). 0: a file's snapshot, which no one
	 * changes once made.
	 */
	unsigned long ino;
	unsigned long nr_pages; /* pages[i] holds the file's bytes [i * 4096, (i + 1) * 4096) */
	void *pages[]; /* each with a reference of its own; NULL: a hole, which reads as zeroes */
};

/*
 * The inode's pages (ramfs: inode->i_pages) with a reference for the caller, made the first
 * time and kept with the inode until its pages change; NULL if no memory. Under the VFS lock.
 */
struct file_pages *filemap_get_pages(struct inode *inode);
/* A page was added to or taken from inode->i_pages: the next mapping takes a new snapshot. */
void filemap_invalidate(struct inode *inode);
/*
 * Is a program running from the file (its segments mapping the pages)? Then opening it for
 * writing fails with ETXTBSY, as Linux's deny_write_access makes it; an mmap of the file does
 * not count. Under the VFS lock.
 */
bool filemap_running(const struct inode *inode);
/* One more, or one fewer, user of fp; the last one frees it and drops its page references. */
void file_pages_get(struct file_pages *fp);
void file_pages_put(struct file_pages *fp);
/* The same for an area: exec says it is a program's segment. */
void file_pages_get_area(struct file_pages *fp, bool exec);
void file_pages_put_area(struct file_pages *fp, bool exec);

/*
 * MAP_SHARED|MAP_ANONYMOUS, or MAP_SHARED of /dev/zero: nr_pages of memory no file names, all
 * holes until touched, shared by the area and every copy fork makes of it; the last one frees
 * it (Linux's shmem_zero_setup makes an unlinked tmpfs file "/dev/zero"). NULL if no memory.
 */
struct file_pages *shmem_zero_setup(unsigned long nr_pages);
/*
 * A shared area's page i (its fault, kernel/mm/memory.c): in shared anonymous memory a hole
 * gets a zeroed page, the first toucher's for every process; 0, -ENOMEM, or -EFAULT past the
 * end or at a hole of a file's snapshot (SIGBUS).
 */
int shmem_fault_page(struct file_pages *fp, unsigned long i, void **page);

/*
 * inode was cut short to size bytes (ramfs's truncate, under the VFS lock): every process's
 * mappings of it lose their pages past the new end, and a touch there is SIGBUS from then on
 * (kernel/mm/memory.c).
 */
void unmap_mapping_range(const struct inode *inode, long long size);

/* Has inode a shared mapping that may write it (memfd's F_SEAL_WRITE: EBUSY)? memory.c. */
bool mapping_writably_mapped(const struct inode *inode);
/*
 * A file grown (or a hole of it filled) under its mappings, which map an older list of its
 * pages (ramfs, under the VFS lock; memory.c walks the mappings). First the file page ranges
 * [pages[2i], pages[2i + 1]) its shared mappings cover, kmalloc'd, *nr of them (NULL: none),
 * for ramfs to give a page to every hole there before the end, as mmap does; then every
 * mapping takes fp, the new list, and maps the file to its end, as Linux's would find the new
 * pages in the page cache.
 */
bool mapping_mapped(const struct inode *inode); /* has it mappings (but running programs)? */
unsigned long *mapping_shared_ranges(const struct inode *inode, int *nr);
void mapping_refresh(const struct inode *inode, struct file_pages *fp);

/* The page of file page index i, or NULL for a hole or past the end. */
static inline void *file_pages_page(const struct file_pages *fp, unsigned long i)
{
	return i < fp->nr_pages ? fp->pages[i] : NULL;
}

#endif
