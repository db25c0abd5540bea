/*
 * Pages for host unit tests: what ramfs keeps a file's data in (kernel/mm/page_alloc.h's API,
 * on the host's heap, counted with host_kmalloc's live allocations so the leak checks see them).
 * Nothing on the host maps a file (exec and mmap are the kernel's), so a page never has more
 * than its file's reference: put_page frees it, and a mapping's get_page is never called.
 */
#include <stdlib.h>
#include <string.h>
#include "kernel/mm/page_alloc.h"
#include "kernel/mm/filemap.h"
#include "tests/unit/host_kmalloc.h"

#define HOST_PAGE_SIZE 4096

void *alloc_page_zeroed(void)
{
	void *p;

	if (host_kmalloc_fail_at > 0 && --host_kmalloc_fail_at == 0)
		return NULL;
	p = aligned_alloc(HOST_PAGE_SIZE, HOST_PAGE_SIZE);
	if (p) {
		memset(p, 0, HOST_PAGE_SIZE);
		host_kmalloc_live++;
	}
	return p;
}

void put_page(void *va)
{
	host_kmalloc_live--;
	free(va);
}

/* ramfs's statfs: a machine of HOST_TOTAL_PAGES pages, the pages in use those allocated. */
#define HOST_TOTAL_PAGES 4096UL

size_t nr_total_pages(void)
{
	return HOST_TOTAL_PAGES;
}

size_t nr_free_pages(void)
{
	size_t used = (size_t)host_kmalloc_live;

	return used < HOST_TOTAL_PAGES ? HOST_TOTAL_PAGES - used : 0;
}

void get_page(void *va)
{
	(void)va;
	abort(); /* only a mapping takes a second reference */
}

/* ramfs's truncate tells the mappings of a file; nothing on the host maps one. */
void unmap_mapping_range(const struct inode *inode, long long size)
{
	(void)inode;
	(void)size;
}

unsigned long *mapping_shared_ranges(const struct inode *inode, int *nr)
{
	(void)inode;
	*nr = 0;
	return NULL;
}

void mapping_refresh(const struct inode *inode, struct file_pages *fp)
{
	(void)inode;
	(void)fp;
}

bool mapping_mapped(const struct inode *inode)
{
	(void)inode;
	return false;
}
