/*
 * getdents64: a directory's entries for user programs (Linux's fs/readdir.c), one
 * struct linux_dirent64 each, packed into the user's buffer as far as they fit.
 *
 * Lucid's VFS hands out one entry per vfs_readdir() call, its position an index (0 is ".",
 * 1 is ".."): d_off is the position after the entry, and an entry that does not fit is put
 * back by seeking to where it started, so the next call returns it.
 */
#include "kernel/syscalls.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "arch/x86_64/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

#define DIRENT_ALIGN 8

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

long sys_getdents64(unsigned int fd, void __user *dirent, unsigned int count)
{
	struct dirent *de = kmalloc(sizeof(*de));
	char *rec = kmalloc(sizeof(struct linux_dirent64) + NAME_MAX + 1 + DIRENT_ALIGN);
	unsigned int done = 0;
	long err = 0;

	if (!de || !rec) {
		kfree(de);
		kfree(rec);
		return -ENOMEM;
	}
	if (!access_ok(dirent, count))
		err = -EFAULT;
	while (!err) {
		loff_t pos = vfs_lseek((int)fd, 0, SEEK_CUR);
		int ret = vfs_readdir((int)fd, de);

		if (ret <= 0) {
			err = ret;
			break;
		}
		size_t namelen = strlen(de->d_name);
		size_t reclen = ALIGN_UP(offsetof(struct linux_dirent64, d_name) + namelen + 1,
					 (size_t)DIRENT_ALIGN);
		if (done + reclen > count) {
			if (pos >= 0)
				vfs_lseek((int)fd, pos, SEEK_SET); /* for the next call */
			if (!done)
				err = -EINVAL; /* not even one entry fits: Linux's answer */
			break;
		}
		struct linux_dirent64 *d = (struct linux_dirent64 *)rec;
		memset(rec, 0, reclen);
		d->d_ino = de->d_ino;
		d->d_off = pos >= 0 ? pos + 1 : 0;
		d->d_reclen = (unsigned short)reclen;
		d->d_type = de->d_type;
		memcpy(d->d_name, de->d_name, namelen + 1);
		if (copy_to_user((char *)dirent + done, rec, reclen)) {
			err = -EFAULT;
			break;
		}
		done += (unsigned int)reclen;
	}
	kfree(de);
	kfree(rec);
	return done ? (long)done : err;
}
