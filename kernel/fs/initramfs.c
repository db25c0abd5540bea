/*
 * The initramfs: the programs of user/ (and anything else the build packs) reach the root file
 * system as Linux's do. The build writes a newc cpio archive (scripts/mkcpio.py), GRUB loads it
 * beside the kernel as a multiboot2 module, arch/x86_64/multiboot2.c notes where, the page
 * allocator leaves those pages alone, and initramfs_unpack() creates each directory and file in /
 * (a ramfs) before the shell starts.
 *
 * newc, as Linux's init/initramfs.c reads it: each member is a 110-byte ASCII header
 *	"070701" then 13 fields of 8 hex digits: ino mode uid gid nlink mtime filesize
 *	devmajor devminor rdevmajor rdevminor namesize check
 * followed by the name (namesize bytes, with its NUL), padded so the data starts on a 4-byte
 * boundary, then the data, padded to 4 again. A member named TRAILER!!! ends the archive.
 *
 * cpio_parse() is pure (a buffer in, callbacks out), so the host tests and the fuzzer run the
 * very same code on corrupted archives.
 */
#include "kernel/fs/initramfs.h"
#include "lib/errno.h"
#include "lib/string.h"

#define NEWC_MAGIC "070701"
#define NEWC_MAGIC_LEN 6
#define NEWC_FIELD_LEN 8
#define NEWC_HEADER_LEN 110
#define NEWC_ALIGN 4
#define NEWC_TRAILER "TRAILER!!!"

enum newc_field { F_INO, F_MODE, F_UID, F_GID, F_NLINK, F_MTIME, F_FILESIZE, F_NAMESIZE = 11 };

/* One 8-digit hex field of the header; -1 if a character is not a hex digit. */
static int64_t newc_field(const uint8_t *hdr, int n)
{
	const uint8_t *p = hdr + NEWC_MAGIC_LEN + n * NEWC_FIELD_LEN;
	int64_t v = 0;

	for (int i = 0; i < NEWC_FIELD_LEN; i++) {
		int c = p[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static size_t align4(size_t n)
{
	return (n + NEWC_ALIGN - 1) & ~(size_t)(NEWC_ALIGN - 1);
}

int cpio_parse(const void *buf, size_t len, int (*fn)(const struct cpio_entry *e, void *ctx),
	       void *ctx)
{
	const uint8_t *p = buf;
	size_t off = 0;

	for (;;) {
		if (len - off < NEWC_HEADER_LEN || memcmp(p + off, NEWC_MAGIC, NEWC_MAGIC_LEN))
			return -EINVAL;
		const uint8_t *hdr = p + off;
		int64_t mode = newc_field(hdr, F_MODE), size = newc_field(hdr, F_FILESIZE);
		int64_t namesize = newc_field(hdr, F_NAMESIZE);
		if (mode < 0 || size < 0 || namesize < 1 || namesize > CPIO_NAME_MAX)
			return -EINVAL;
		size_t name_off = off + NEWC_HEADER_LEN;
		if ((size_t)namesize > len - name_off)
			return -EINVAL;
		const char *name = (const char *)p + name_off;
		if (name[namesize - 1] != '\0' || strlen(name) != (size_t)namesize - 1)
			return -EINVAL;
		if (!strcmp(name, NEWC_TRAILER))
			return 0;
		size_t data_off = align4(name_off + namesize);
		if (data_off > len || (uint64_t)size > len - data_off)
			return -EINVAL;
		struct cpio_entry e = {name, (uint32_t)mode, p + data_off, (size_t)size};
		int ret = fn(&e, ctx);
		if (ret)
			return ret;
		off = align4(data_off + size);
		if (off > len)
			return -EINVAL;
	}
}

#ifndef LUCID_HOST
#include "kernel/fs/vfs.h"
#include "kernel/printk.h"
#include "arch/x86_64/mmu.h"
#include "kernel/mm/page_alloc.h"
#include "lib/decompress_unlz4.h"

#define PATH_MAX_INITRAMFS (CPIO_NAME_MAX + 1)

/* Creates one member under /. Directories that exist already are fine (/ itself, /bin twice). */
static int unpack_entry(const struct cpio_entry *e, void *ctx)
{
	char path[PATH_MAX_INITRAMFS + 1];
	(void)ctx;

	if (!strcmp(e->name, ".") || !e->name[0])
		return 0;
	path[0] = '/';
	strlcpy(path + 1, e->name[0] == '/' ? e->name + 1 : e->name, sizeof(path) - 1);
	if (S_ISDIR(e->mode)) {
		int err = vfs_mkdir(path, e->mode & 07777);

		if (err && err != -EEXIST)
			printk(KERN_ERR "initramfs: %s: %s\n", path, errno_text(-err));
		return 0;
	}
	/* the data is the target, without a NUL (as Linux's do_symlinkat) */
	if (S_ISLNK(e->mode)) {
		char target[PATH_MAX_INITRAMFS];
		int err = -ENAMETOOLONG;

		if (e->size < sizeof(target)) {
			memcpy(target, e->data, e->size);
			target[e->size] = '\0';
			err = vfs_symlink(target, path);
		}
		if (err)
			printk(KERN_ERR "initramfs: %s: %s\n", path, errno_text(-err));
		return 0;
	}
	if (!S_ISREG(e->mode)) {
		printk(KERN_WARNING
		       "initramfs: %s: not a regular file, directory or symbolic link, skipped\n",
		       path);
		return 0;
	}
	int fd = vfs_open(path, O_WRONLY | O_CREAT | O_TRUNC, e->mode & 07777);
	if (fd < 0) {
		printk(KERN_ERR "initramfs: %s: %s\n", path, errno_text(-fd));
		return 0;
	}
	ssize_t n = vfs_write(fd, e->data, e->size);
	if (n != (ssize_t)e->size)
		printk(KERN_ERR "initramfs: %s: %s\n", path,
		       n < 0 ? errno_text((int)-n) : "short write");
	vfs_close(fd);
	return 0;
}

/*
 * The archive may come compressed, as Linux's (the build packs it with `lz4 -l -9`: see
 * lib/decompress_unlz4.c for why LZ4): then it is decompressed into pages of its own first,
 * given back once the files are made. Like Linux's decompress_method(), the first bytes say
 * which: the LZ4 legacy magic, or newc's "070701" for an archive as it is.
 */
void initramfs_unpack(uint64_t start, uint64_t end)
{
	const void *buf = __va(start);
	size_t len = end - start, pages = 0;
	void *out = NULL;

	if (!end)
		return; /* booted without a module: no programs; the rescue console runs */
	printk(KERN_INFO "Trying to unpack rootfs image as initramfs...\n");
	if (lz4_legacy_magic(buf, len)) {
		size_t bound = unlz4_bound(buf, len);
		long n = -EINVAL;

		pages = (bound + PAGE_SIZE - 1) / PAGE_SIZE;
		out = bound ? alloc_pages(pages) : NULL;
		if (out)
			n = unlz4(buf, len, out, pages * PAGE_SIZE);
		if (n < 0) {
			printk(KERN_ERR "Initramfs unpacking failed: %s\n",
			       bound && !out ? "out of memory" : "decompressor failed");
			free_pages(out, pages);
			return;
		}
		buf = out;
		len = (size_t)n;
	}
	int err = cpio_parse(buf, len, unpack_entry, NULL);
	if (err)
		printk(KERN_ERR "Initramfs unpacking failed: %s\n", errno_text(-err));
	free_pages(out, pages);
}
#endif
