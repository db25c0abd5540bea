/* ramfs: the file system of "/", files kept in memory and nowhere else. */

/*
 * Linux's ramfs is famously small because it is only the page cache with no disk behind it;
 * Lucid's is the same idea. Names live in the dentry tree (kernel/fs/dcache.c), so unlink, rmdir
 * and rename are the generic simple_* operations. What is left is file data.
 *
 * A file's data is an array of page-sized blocks, inode->i_pages, block i holding bytes
 * [i * 4096, (i + 1) * 4096). Blocks are allocated when first written, so a file with a hole
 * (lseek past the end, then write) costs nothing for the hole, which reads as zeros. The array
 * of block pointers grows by doubling: writing a file of n bytes in small pieces copies the
 * array O(log n) times and never the data, so growth is linear, not quadratic.
 *
 * The blocks are whole pages with reference counts (kernel/mm/page_alloc.h), the file holding
 * one: a private mapping of the file (a program's text at exec, mmap) maps these same pages and
 * takes references of its own (kernel/mm/filemap.c), so a page cut off by truncate or freed
 * with the file lives on until the last process mapping it lets it go.
 *
 * Invariant: every byte of an allocated block that lies beyond i_size is zero. Truncation
 * re-zeroes the tail it cuts off; that is what lets a later extension (by truncate or by a
 * write past the end) show zeros without touching the blocks in between.
 */
#include "kernel/fs/vfs_internal.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/page_alloc.h"
#include "lib/errno.h"
#include "lib/string.h"

/* A teaching kernel's RAM is small; larger files fail with -EFBIG ("File too large"). */
#define RAMFS_MAX_FILE_SIZE (1L << 30)

static const struct inode_operations ramfs_dir_inode_operations;
static const struct inode_operations ramfs_file_inode_operations;
static const struct file_operations ramfs_file_operations;

static struct inode *ramfs_get_inode(umode_t mode)
{
	struct inode *inode = new_inode(mode);

	if (!inode)
		return NULL;
	if (S_ISDIR(mode)) {
		inode->i_op = &ramfs_dir_inode_operations;
	} else if (S_ISREG(mode)) {
		inode->i_op = &ramfs_file_inode_operations;
		inode->i_fop = &ramfs_file_operations;
	} /* else a device node: vfs_mknod gives it its driver's operations */
	return inode;
}

static int ramfs_mknod(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	struct inode *inode = ramfs_get_inode(mode);

	(void)dir;
	if (!inode)
		return -ENOMEM;
	d_add(dentry, inode);
	dget(dentry); /* the tree's reference: the caller drops its own */
	return 0;
}

/* A symbolic link: its target kept as a string, its size the target's length (as Linux's). */
static int ramfs_symlink(struct inode *dir, struct dentry *dentry, const char *target)
{
	struct inode *inode = ramfs_get_inode(S_IFLNK | 0777);

	(void)dir;
	if (!inode)
		return -ENOMEM;
	inode->i_link = kstrdup(target);
	if (!inode->i_link) {
		kfree(inode);
		return -ENOMEM;
	}
	inode->i_size = (loff_t)strlen(target);
	d_add(dentry, inode);
	dget(dentry); /* the tree's reference: the caller drops its own */
	return 0;
}

/* Makes room in i_pages for blocks [0, nr); doubling keeps growth linear. */
static int grow_slots(struct inode *inode, unsigned long nr)
{
	unsigned long n = inode->i_nr_slots ? inode->i_nr_slots : 8;
	char **pages;

	if (nr <= inode->i_nr_slots)
		return 0;
	while (n < nr)
		n *= 2;
	pages = krealloc(inode->i_pages, n * sizeof(*pages));
	if (!pages)
		return -ENOMEM;
	memset(pages + inode->i_nr_slots, 0, (n - inode->i_nr_slots) * sizeof(*pages));
	inode->i_pages = pages;
	inode->i_nr_slots = n;
	return 0;
}

/* The pages a file of size bytes spans. */
static unsigned long pages_of(loff_t size)
{
	return (unsigned long)(size + PAGE_CACHE_SIZE - 1) / PAGE_CACHE_SIZE;
}

static void mappings_grew(struct inode *inode);

ssize_t ramfs_read(struct file *file, char *buf, size_t count, loff_t *pos)
{
	struct inode *inode = file_inode(file);
	size_t done = 0;

	if (*pos >= inode->i_size)
		return 0;
	count = MIN(count, (size_t)(inode->i_size - *pos));
	while (done < count) {
		unsigned long index = (unsigned long)*pos / PAGE_CACHE_SIZE;
		size_t offset = (size_t)*pos % PAGE_CACHE_SIZE;
		size_t n = MIN(count - done, PAGE_CACHE_SIZE - offset);

		if (index < inode->i_nr_slots && inode->i_pages[index])
			memcpy(buf + done, inode->i_pages[index] + offset, n);
		else
			memset(buf + done, 0, n); /* a hole */
		done += n;
		*pos += (loff_t)n;
	}
	return (ssize_t)done;
}

/*
 * Writes block by block, allocating blocks as it goes. If memory runs out part way, the bytes
 * already written stay and their count is returned (a short write, as POSIX allows); only a
 * write that managed nothing fails with -ENOMEM.
 */
ssize_t ramfs_write(struct file *file, const char *buf, size_t count, loff_t *pos)
{
	struct inode *inode = file_inode(file);
	size_t done = 0;
	int err;

	loff_t old_size = inode->i_size;
	bool filled = false;

	if (file->f_flags & O_APPEND)
		*pos = inode->i_size;
	if (count == 0)
		return 0;
	if (*pos >= RAMFS_MAX_FILE_SIZE)
		return -EFBIG;
	count = MIN(count, (size_t)(RAMFS_MAX_FILE_SIZE - *pos));
	err = grow_slots(inode, (unsigned long)(*pos + (loff_t)count + PAGE_CACHE_SIZE - 1) /
					PAGE_CACHE_SIZE);
	if (err)
		return err;
	while (done < count) {
		unsigned long index = (unsigned long)*pos / PAGE_CACHE_SIZE;
		size_t offset = (size_t)*pos % PAGE_CACHE_SIZE;
		size_t n = MIN(count - done, PAGE_CACHE_SIZE - offset);

		if (!inode->i_pages[index]) {
			inode->i_pages[index] = alloc_page_zeroed();
			if (!inode->i_pages[index])
				break;
			filemap_invalidate(inode); /* mappings made from now on see this page */
			filled = true;
		}
		memcpy(inode->i_pages[index] + offset, buf + done, n);
		done += n;
		*pos += (loff_t)n;
		if (*pos > inode->i_size)
			inode->i_size = *pos;
	}
	if (inode->i_mmapped && (filled || pages_of(inode->i_size) > pages_of(old_size)))
		mappings_grew(inode); /* older mappings see the new pages */
	return done ? (ssize_t)done : -ENOMEM;
}

int ramfs_truncate(struct inode *inode, loff_t size)
{
	unsigned long keep = (unsigned long)(size + PAGE_CACHE_SIZE - 1) / PAGE_CACHE_SIZE;
	size_t tail = (size_t)size % PAGE_CACHE_SIZE;

	if (size > RAMFS_MAX_FILE_SIZE)
		return -EFBIG;
	if (size < inode->i_size) {
		if (inode->i_mmapped)
			unmap_mapping_range(inode, size); /* a touch past the end: SIGBUS */
		filemap_invalidate(inode); /* its pages past the end go */
		for (unsigned long i = keep; i < inode->i_nr_slots; i++) {
			if (inode->i_pages[i])
				put_page(inode->i_pages[i]); /* freed unless a mapping has it */
			inode->i_pages[i] = NULL;
		}
		/* Keep the invariant: what lies past the new end of the last block reads as 0. */
		if (tail && keep - 1 < inode->i_nr_slots && inode->i_pages[keep - 1])
			memset(inode->i_pages[keep - 1] + tail, 0, PAGE_CACHE_SIZE - tail);
		if (size == 0) {
			kfree(inode->i_pages);
			inode->i_pages = NULL;
			inode->i_nr_slots = 0;
		}
	}
	loff_t old_size = inode->i_size;

	inode->i_size = size;
	if (inode->i_mmapped && pages_of(size) > pages_of(old_size))
		mappings_grew(inode); /* the new part reads as zeroes in them, as on Linux */
	return 0;
}

static const struct inode_operations ramfs_dir_inode_operations = {
	.create = ramfs_mknod,
	.mkdir = ramfs_mknod,
	.unlink = simple_unlink,
	.rmdir = simple_rmdir,
	.rename = simple_rename,
	.symlink = ramfs_symlink,
};

static const struct inode_operations ramfs_file_inode_operations = {
	.truncate = ramfs_truncate,
};

/* A private mapping's pages are the file's own (kernel/mm/filemap.c). */
struct file_pages *ramfs_mmap_pages(struct file *file)
{
	return filemap_get_pages(file_inode(file));
}

/* Gives file pages [first, last) a page each where there is a hole. */
static int fill_holes(struct inode *inode, unsigned long first, unsigned long last)
{
	int err = grow_slots(inode, last);

	for (unsigned long i = first; !err && i < last; i++) {
		if (inode->i_pages[i])
			continue;
		inode->i_pages[i] = alloc_page_zeroed();
		if (!inode->i_pages[i])
			return -ENOMEM;
		filemap_invalidate(inode); /* the next list of pages has this one */
	}
	return err;
}

/*
 * A shared mapping's pages are the file's too, and a write through one is a write to the file;
 * so every page it may touch (those before the end) must be the file's own before it is made.
 */
int ramfs_mmap_shared(struct file *file, loff_t off, size_t len, bool write)
{
	struct inode *inode = file_inode(file);
	loff_t end = MIN(off + (loff_t)len, inode->i_size);

	(void)write;
	if (end <= off)
		return 0; /* wholly past the end: every touch is SIGBUS */
	/*
	 * A running program's file (mapped read-only: it cannot be open for writing) keeps the
	 * list of pages that says so (filemap_running): a hole of it stays one, and SIGBUS there.
	 */
	if (filemap_running(inode))
		return 0;
	return fill_holes(inode, (unsigned long)off / PAGE_CACHE_SIZE,
			  (unsigned long)(end + PAGE_CACHE_SIZE - 1) / PAGE_CACHE_SIZE);
}

/*
 * The file grew, or a hole of it got a page, under mappings made before: they map the new
 * pages too, as Linux's find them in the page cache (kernel/mm/filemap.h). The holes its shared
 * mappings cover are filled first, as mmap fills them; a page that finds no memory stays a hole
 * there, and a touch of it SIGBUS.
 */
static void mappings_grew(struct inode *inode)
{
	unsigned long end = (unsigned long)(inode->i_size + PAGE_CACHE_SIZE - 1) / PAGE_CACHE_SIZE;
	int nr = 0;

	if (!mapping_mapped(inode))
		return; /* only a program's segments, or nothing: no new list of pages to make */
	unsigned long *ranges = mapping_shared_ranges(inode, &nr);

	for (int i = 0; i < nr; i++)
		fill_holes(inode, ranges[2 * i], MIN(ranges[2 * i + 1], end));
	kfree(ranges);
	struct file_pages *fp = filemap_get_pages(inode);

	if (fp) {
		mapping_refresh(inode, fp);
		file_pages_put(fp);
	}
}

static const struct file_operations ramfs_file_operations = {
	.read = ramfs_read,
	.write = ramfs_write,
	.llseek = default_llseek,
	.may_mmap = true,
	.mmap_pages = ramfs_mmap_pages,
	.mmap_shared = ramfs_mmap_shared,
};

/* Every mount of ramfs is a new, empty file system. */
static struct dentry *ramfs_mount(void)
{
	struct inode *inode = ramfs_get_inode(S_IFDIR | 0755);
	struct dentry *root;

	if (!inode)
		return NULL;
	root = d_make_root(inode);
	if (!root)
		kfree(inode);
	return root;
}

/* Unmounted: nobody can reach the tree any more (umount checked), so it all goes. */
static void ramfs_kill_sb(struct dentry *root)
{
	d_kill_tree(root, 0);
}

/*
 * statfs: a ramfs holds its files in free pages and has no other limit, so its size is the
 * memory and its room the pages free now: what Linux's tmpfs says when mounted size=100%
 * (Linux's ramfs says 0 for all, and df would then hide /). No limit on the files: 0.
 */
static int ramfs_statfs(struct dentry *root, struct kstatfs *buf)
{
	(void)root;
	buf->f_bsize = (long)PAGE_CACHE_SIZE;
	buf->f_blocks = nr_total_pages();
	buf->f_bfree = buf->f_bavail = nr_free_pages();
	return 0;
}

struct file_system_type ramfs_fs_type = {
	.name = "ramfs",
	.mount = ramfs_mount,
	.kill_sb = ramfs_kill_sb,
	.magic = RAMFS_MAGIC,
	.statfs = ramfs_statfs,
};
