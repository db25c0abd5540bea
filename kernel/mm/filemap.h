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
 * Does a process map the file's pages (a program running from it)? Then opening it for
 * writing fails with ETXTBSY, as Linux's deny_write_access makes it. Under the VFS lock.
 */
bool filemap_mapped(const struct inode *inode);
/* One more, or one fewer, area using fp; the last one frees it and drops its page references. */
void file_pages_get(struct file_pages *fp);
void file_pages_put(struct file_pages *fp);

/* The page of file page index i, or NULL for a hole or past the end. */
static inline void *file_pages_page(const struct file_pages *fp, unsigned long i)
{
	return i < fp->nr_pages ? fp->pages[i] : NULL;
}

#endif
