/* The virtual file system: one tree of names over ramfs, debugfs, tracefs and proc. */
#ifndef KERNEL_VFS_H
#define KERNEL_VFS_H

/*
 * Everything the shell and the tracer do with files goes through the calls at the bottom of this
 * header, in the spirit of Linux's system calls: they take path names and small integer file
 * descriptors and return a negative errno on failure. docs/design/vfs.md tells the whole story;
 * in short:
 *
 *   struct dentry   a name in the tree (its parent, its children)
 *   struct inode    the object the name stands for: mode, size, data, and the operations of the
 *                   file system it belongs to (i_op for the directory, i_fop for open files)
 *   struct vfsmount one file system tree grafted onto a directory of another
 *   struct path     (mount, dentry): where a name is. The mount is part of it because one tree
 *                   can be mounted in two places, and ".." must go back the way we came in.
 *   struct file     an open file: position, flags, and the inode's file operations
 *
 * Lucid has no hard links, so each inode has exactly one dentry and the two live and die
 * together: a dentry holds the only pointer to its inode.
 *
 * Locking: one global VFS lock, a sleeping mutex, taken by each entry point below, so the code
 * below them can assume nothing changes under its feet. File operations run under it and must
 * not call the entry points (they would take the lock twice). They may be preempted, but must
 * not sleep waiting for an event: that would stop every other file operation in the system.
 * tracefs_create_file() and friends take no lock: their callers hold it (boot code before
 * other tasks run needs none; tracefs instance callbacks already run under it).
 * Blocking (pipes, the console, trace_pipe): a file operation returns -EAGAIN and names a wait
 * queue (file_operations.wait_queue); vfs_read/vfs_write sleep on it with the lock let go.
 */

#include <stddef.h>
#include <stdbool.h>
#include "lib/list.h"

typedef long ssize_t;
typedef long loff_t;
typedef unsigned short umode_t;
typedef unsigned int fmode_t;

#ifndef NAME_MAX
#define NAME_MAX 255 /* longest name of one component, as Linux */
#endif
#ifndef PATH_MAX
#define PATH_MAX 4096 /* longest path, with its NUL, as Linux */
#endif
#define NR_OPEN_DEFAULT 64 /* descriptors a table starts with, as Linux's (BITS_PER_LONG) */
/* Linux's cap on one read or write (INT_MAX & PAGE_MASK): every byte count fits an int. */
#define MAX_RW_COUNT 0x7ffff000UL

/* open() flags, with Linux's x86 values (octal, as in Linux's fcntl.h). */
#define O_ACCMODE 00000003
#define O_RDONLY 00000000
#define O_WRONLY 00000001
#define O_RDWR 00000002
#define O_CREAT 00000100
#define O_EXCL 00000200
#define O_NOCTTY 00000400 /* opening a terminal does not make it the controlling tty */
#define O_TRUNC 00001000
#define O_APPEND 00002000
#define O_NONBLOCK 00004000
#define O_LARGEFILE 00100000 /* always set by open on 64-bit Linux: F_GETFL shows it */
#define O_DIRECTORY 00200000
#define O_NOFOLLOW 00400000 /* a symbolic link as the last component: ELOOP */
#define O_CLOEXEC 02000000 /* not a file flag: the descriptor's close-on-exec bit */

#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

/* Mode bits, Linux's values: the file type in the top bits, permissions below. */
#define S_IFMT 00170000
#define S_IFDIR 0040000
#define S_IFREG 0100000
#define S_IFCHR 0020000 /* a character device: its operations come from a driver (vfs_mknod) */
#define S_IFIFO 0010000 /* a pipe */
#define S_IFLNK 0120000 /* a symbolic link: its target is the name in inode->i_link */
#define S_IFBLK 0060000 /* a block device: mknod makes one, whose open is ENXIO (no driver) */
#define S_IFSOCK 0140000 /* a socket's name: mknod makes one, whose open is ENXIO, as Linux's */
#define S_ISLNK(m) (((m)&S_IFMT) == S_IFLNK)
#define S_ISDIR(m) (((m)&S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m)&S_IFMT) == S_IFREG)
#define S_ISCHR(m) (((m)&S_IFMT) == S_IFCHR)
#define S_ISFIFO(m) (((m)&S_IFMT) == S_IFIFO)
#define S_ISSOCK(m) (((m)&S_IFMT) == S_IFSOCK)
#define S_IALLUGO 07777 /* what chmod may change: permissions, setuid, setgid, sticky */
#define S_IRUGO 00444
#define S_IWUGO 00222

/* file->f_mode: what this open file may do, worked out once at open from O_ACCMODE. */
#define FMODE_READ 0x1
#define FMODE_WRITE 0x2

/* inode->i_flags */
#define S_DEAD 0x1 /* a pseudo file the kernel removed: open files get dead_file_error() */
/* With S_DEAD: the file was in tracefs or sysfs, whose removed files answer -ENODEV in Linux
 * (an event's file_data is gone; kernfs_get_active fails); debugfs's answer -EIO. */
#define S_DEAD_ENODEV 0x4
/* A /proc file: a read or write it has no operation for is -EIO, as Linux's proc_reg_read and
 * proc_reg_write answer (elsewhere, Linux's vfs_read and vfs_write say -EINVAL). */
#define S_PROC_EIO 0x2

/* struct dirent d_type values, as Linux's. */
#define DT_FIFO 1
#define DT_CHR 2
#define DT_DIR 4
#define DT_REG 8
#define DT_LNK 10
#define DT_SOCK 12

struct inode;
struct file;
struct dentry;
struct vfsmount;
struct wait_queue_head;
struct file_pages;
struct path;

/*
 * What a kernel file does when it is opened, read, written, seeked and closed. All may be NULL:
 * no open/release means nothing to set up or free, no read/write means the call fails with
 * -EINVAL (Linux's answer for a file without that operation; /proc's is -EIO), no llseek means
 * -ESPIPE. A read-only file is one without write: root opens it for writing whatever its mode.
 * read and write move *pos themselves and return the bytes done or a negative errno. A write
 * handler gets exactly the count bytes written, not NUL-terminated.
 */
struct file_operations {
	int (*open)(struct inode *inode, struct file *file);
	ssize_t (*read)(struct file *file, char *buf, size_t count, loff_t *pos);
	ssize_t (*write)(struct file *file, const char *buf, size_t count, loff_t *pos);
	loff_t (*llseek)(struct file *file, loff_t offset, int whence);
	int (*release)(struct inode *inode, struct file *file);
	/*
	 * For a file whose read or write can answer -EAGAIN ("nothing yet": an empty pipe, a
	 * console with no line typed): the wait queue its code wakes when trying again may
	 * succeed. vfs_read and vfs_write then sleep on it, without the VFS lock, until woken or
	 * Ctrl-C, unless the file was opened O_NONBLOCK. NULL: the file never waits.
	 */
	struct wait_queue_head *(*wait_queue)(struct file *file);
	/*
	 * read and write wait themselves, and their -EAGAIN is final (a socket's timeout,
	 * SO_RCVTIMEO): vfs_read and vfs_write do not wait on wait_queue after it, which is then
	 * only for poll, select and epoll.
	 */
	bool waits_itself;
	/*
	 * What splice(2) reads, where it is not what read gives: trace_pipe_raw gives splice only
	 * whole pages, as Linux's tracing_buffers_splice_read does (a recorder that splices waits
	 * for a page to fill, and reads the last part page at the end). NULL: read.
	 */
	ssize_t (*splice_read)(struct file *file, char *buf, size_t count, loff_t *pos);
	/*
	 * A signal ends that wait with -EINTR, never restarted, even after an SA_RESTART handler:
	 * Linux's trace_pipe and trace_pipe_raw (ring_buffer_wait). false: restarted, as Linux's
	 * pipe and tty waits are.
	 */
	bool wait_eintr;
	/* Makes the file's data durable where it lives (9p: Tfsync on the host). NULL: nothing
	 * to do, the data is in memory only. */
	int (*fsync)(struct file *file);
	/*
	 * read and write need no VFS lock: they keep no state it guards and never answer -EAGAIN
	 * (/dev/null, /dev/zero, trace_marker; kernel/debug/'s files, whose commands take the
	 * lock themselves for the files they use). vfs_read, vfs_pread and vfs_write then call
	 * them without it, as Linux calls every file's: a system call's fast path
	 * (docs/design/syscall-cost.md).
	 */
	bool no_vfs_lock;
	/*
	 * write never looks at the bytes (/dev/null, /dev/zero, /dev/full): the system call gives
	 * it the count with buf NULL instead of copying the bytes in, so that a write of more than
	 * the caller has mapped answers as Linux's write_null, which never touches the buffer
	 * (write(/dev/null, buf, 1 << 40) is MAX_RW_COUNT).
	 */
	bool write_ignores_data;
	/*
	 * A device's own requests (the tty's termios), called without the VFS lock, arg as the
	 * user passed it. NULL: -ENOTTY, as Linux answers a file that is not a terminal.
	 */
	long (*unlocked_ioctl)(struct file *file, unsigned int cmd, unsigned long arg);
	/* For poll and select: which POLL* events the file is ready for now, under the VFS lock;
	 * they sleep on wait_queue. NULL: always ready to read and write (a regular file). */
	unsigned int (*poll)(struct file *file);
	/*
	 * mmap may map this file (MAP_PRIVATE: kernel/mm/mmap_file.c maps its pages or copies its
	 * bytes in), as Linux's generic_file_mmap lets ramfs and 9p files be mapped. false: mmap
	 * answers -ENODEV, Linux's answer for a file without f_op->mmap (a pipe, a tracefs or proc
	 * file).
	 */
	bool may_mmap;
	/*
	 * For a file whose data is in pages (ramfs): those pages, for a private mapping to map
	 * (exec's segments, mmap; kernel/mm/filemap.c), with a reference; NULL if no memory, under
	 * the VFS lock. NULL: the file cannot be mapped (mmap answers ENODEV, exec reads it).
	 */
	struct file_pages *(*mmap_pages)(struct file *file);
	/*
	 * MAP_SHARED (kernel/mm/mmap_file.c): gives the file a page of its own over every hole of
	 * [off, off + len) before its end, so that each page a shared mapping may touch is the
	 * file's (a mapping cannot fill a hole: a fault cannot take the VFS lock), or refuses
	 * (memfd's seals: -EPERM for write). Under the VFS lock. NULL: -ENODEV (9p).
	 */
	int (*mmap_shared)(struct file *file, loff_t off, size_t len, bool write);
	/* /dev/zero: a mapping of it is anonymous memory (Linux's mmap_zero), shared or not. */
	bool mmap_zero;
};

/* poll's events, Linux's values (include/uapi/asm-generic/poll.h). */
#define POLLIN 0x0001
#define POLLPRI 0x0002
#define POLLOUT 0x0004
#define POLLERR 0x0008
#define POLLHUP 0x0010
#define POLLNVAL 0x0020
#define POLLRDNORM 0x0040
#define POLLWRNORM 0x0100

/*
 * What a directory's file system does when names are made or removed in it. A NULL operation
 * means "not here": user mkdir/unlink/rmdir/rename in such a directory fail with -EPERM and
 * creating a file with -EACCES, as on Linux's debugfs. create and mkdir get a new, nameless
 * dentry and must attach an inode to it with d_add(); rmdir decides whether the directory may
 * go (ramfs: only when empty).
 */
struct iattr;

struct inode_operations {
	int (*create)(struct inode *dir, struct dentry *dentry, umode_t mode);
	int (*mkdir)(struct inode *dir, struct dentry *dentry, umode_t mode);
	int (*unlink)(struct inode *dir, struct dentry *dentry);
	int (*rmdir)(struct inode *dir, struct dentry *dentry);
	int (*rename)(struct inode *old_dir, struct dentry *old_dentry, struct inode *new_dir,
		      struct dentry *new_dentry);
	/* Makes dentry a symbolic link to target (copied). NULL: symlink fails with EPERM. */
	int (*symlink)(struct inode *dir, struct dentry *dentry, const char *target);
	/* Cuts or extends a regular file's data to size bytes. NULL: there is no data to cut. */
	int (*truncate)(struct inode *inode, loff_t size);
	/*
	 * For a file system whose files live elsewhere (9p: on the host): tells it of a chmod or a
	 * utimensat before the inode changes, so that the next getattr does not undo it. NULL:
	 * the inode is the file (or, with getattr, such a change is refused with EPERM).
	 */
	int (*setattr)(struct inode *inode, const struct iattr *attr);
	/*
	 * For a file system whose tree is not all in memory (9p: the files are on the host):
	 * lookup is asked for a name the dentry tree does not have, and attaches an inode to the
	 * new dentry with d_add() (and a reference for the tree) if the name exists; getattr
	 * refreshes the inode's mode and size before stat shows them; evict lets go of what the
	 * file system keeps for the inode (a fid) when the inode is freed. NULL: all in memory.
	 */
	int (*lookup)(struct inode *dir, struct dentry *dentry);
	int (*getattr)(struct dentry *dentry);
	void (*evict)(struct inode *inode);
	/*
	 * For a directory whose names come and go by themselves (/proc's pids): asked whether a
	 * cached child is still there; false drops it and asks lookup again. NULL: always there.
	 */
	bool (*revalidate)(struct dentry *dentry);
	/*
	 * For such a directory: makes the names it has now before a listing starts (/proc: one
	 * per live task), so that readdir shows them too. NULL: the tree is what there is.
	 */
	void (*populate)(struct dentry *dir);
	/*
	 * For a symbolic link that stands for an open file rather than a name (/proc/PID/fd/N,
	 * Linux's "magic links"): where following it leads, the file's own path (unreferenced:
	 * the VFS lock keeps it), as Linux's proc_get_link. NULL: the link's text is walked.
	 */
	int (*proc_get_link)(struct dentry *link, struct path *path);
};

/* A time as the VFS keeps it: seconds and nanoseconds since the epoch (CLOCK_REALTIME). */
struct timespec64 {
	long tv_sec;
	long tv_nsec;
};
#define UTIME_NOW ((1L << 30) - 1L) /* utimensat: this one becomes the current time */
#define UTIME_OMIT ((1L << 30) - 2L) /* utimensat: this one stays as it is */

/*
 * What a setattr changes: Linux's struct iattr, with the fields Lucid's chmod and utimensat
 * set. The times are resolved (UTIME_NOW is the time now) before the file system sees them.
 */
#define ATTR_MODE (1 << 0)
#define ATTR_ATIME (1 << 4)
#define ATTR_MTIME (1 << 5)

struct iattr {
	unsigned int ia_valid; /* ATTR_* */
	umode_t ia_mode;       /* the whole mode: the file type with the new permission bits */
	struct timespec64 ia_atime, ia_mtime;
};

struct inode {
	unsigned long i_ino;
	umode_t i_mode;
	unsigned int i_flags;
	loff_t i_size;
	const struct inode_operations *i_op;
	const struct file_operations *i_fop;
	void *i_private; /* the data pointer given to tracefs_create_file() & co. */
	/*
	 * The page cache: a regular file's data as page-sized blocks, NULL where nothing was
	 * written yet. ramfs keeps its files here and nowhere else (as Linux's ramfs does), and the
	 * VFS frees the pages with the inode.
	 */
	char **i_pages;
	unsigned long i_nr_slots; /* length of the i_pages array */
	/*
	 * What private mappings of the file map (exec's segments, mmap): references on the pages
	 * of i_pages, taken the first time and kept until a page is added or taken away
	 * (kernel/mm/filemap.c). NULL until then.
	 */
	struct file_pages *i_mmap_pages;
	bool i_mmapped; /* its pages were mapped once: a truncate looks for the mappings */
	/*
	 * Last access, data change, status change. Set at creation; a write or truncate moves
	 * mtime and ctime, chmod and utimensat ctime; Lucid mounts everything "noatime" (reads
	 * leave atime alone) and does not touch a directory's times when its names change.
	 */
	struct timespec64 i_atime, i_mtime, i_ctime;
	char *i_link; /* a symbolic link's target, kmalloc'd; freed with the inode */
};

struct dentry {
	int d_count;		     /* references: the tree, children, open files, cwds */
	int d_mounted;		     /* how many mounts sit on this directory */
	bool d_unlinked;	     /* taken out of the tree; lives on while referenced */
	bool d_unlisted;	     /* found by name, not listed: a thread's /proc/TID */
	struct dentry *d_parent;     /* itself, for the root of a tree */
	struct list_head d_child;    /* in the parent's d_subdirs */
	struct list_head d_subdirs;  /* the children, oldest first (the order ls shows) */
	struct inode *d_inode;	     /* NULL while the dentry is being created */
	char *d_name;		     /* kmalloc'd, so rename can swap it */
};

struct path {
	struct vfsmount *mnt;
	struct dentry *dentry;
};

struct file {
	int f_count; /* descriptors (and callers) sharing it: dup2 shares, close drops */
	unsigned int f_flags; /* the O_ flags given to open */
	fmode_t f_mode;
	loff_t f_pos;
	struct path f_path;
	struct inode *f_inode;
	const struct file_operations *f_op;
	void *private_data; /* the file operations' own, e.g. a seq_file */
};

static inline struct inode *file_inode(const struct file *file)
{
	return file->f_inode;
}

/*
 * The per-task part of the file system: where relative paths start, and the open files.
 *
 * The descriptors are Linux's fdtable: fd[0..max_fds) and a close-on-exec bit for each
 * (close_on_exec, FD_CLOEXEC: closed by execve). A table starts with the arrays inside the
 * struct, NR_OPEN_DEFAULT descriptors, which nearly every task stays within; a descriptor at or
 * past max_fds (an open with all taken, dup2 or F_DUPFD to a high number) grows it, doubling,
 * into allocated arrays, up to RLIMIT_NOFILE (expand_files, kernel/fs/file.c). Only the task
 * itself changes its table, under the VFS lock.
 */
struct fs_context {
	int users; /* the tasks that share it: a process's threads (clone CLONE_FILES) */
	struct path cwd;
	unsigned int max_fds;
	struct file **fd;
	unsigned long *close_on_exec;
	struct file *fd_array[NR_OPEN_DEFAULT];
	unsigned long cloexec_init[NR_OPEN_DEFAULT / (sizeof(unsigned long) * 8)];
	umode_t umask; /* cleared from the mode of every file and directory made (umask(2)) */
};

#define FD_BITS_PER_LONG (sizeof(unsigned long) * 8)

static inline bool fd_is_cloexec(const struct fs_context *fs, int fd)
{
	return fs->close_on_exec[fd / FD_BITS_PER_LONG] & (1UL << (fd % FD_BITS_PER_LONG));
}

static inline void fd_set_cloexec(struct fs_context *fs, int fd, bool on)
{
	unsigned long bit = 1UL << (fd % FD_BITS_PER_LONG);

	if (on)
		fs->close_on_exec[fd / FD_BITS_PER_LONG] |= bit;
	else
		fs->close_on_exec[fd / FD_BITS_PER_LONG] &= ~bit;
}

/* What vfs_stat() tells about a file. */
struct kstat {
	unsigned long dev; /* the tree's device number (kernel/fs/mount.c) */
	unsigned long ino;
	umode_t mode;
	unsigned int nlink;
	loff_t size;
	struct timespec64 atime, mtime, ctime;
};

/*
 * What statfs(2) tells about the file system a file is on (Linux's struct kstatfs): its kind
 * (f_type, Linux's magic number), block size, blocks in all, free, and free for users, files in
 * all and free (0: no limit), the name length limit, and the mount's ST_* flags.
 */
struct kstatfs {
	long f_type;
	long f_bsize;
	unsigned long f_blocks, f_bfree, f_bavail;
	unsigned long f_files, f_ffree;
	unsigned long f_fsid;
	long f_namelen;
	long f_frsize;
	long f_flags;
};
#define ST_VALID 0x0020 /* f_flags: the flags are set (Linux's) */

/* One directory entry, as vfs_readdir() returns it. */
struct dirent {
	unsigned long d_ino;
	unsigned char d_type;
	char d_name[NAME_MAX + 1];
};

/* The kernel implements this: the running task's fs_context. */
struct fs_context *current_fs(void);
/*
 * The running task's open file fd without the VFS lock, when that is safe: the task has a
 * descriptor table of its own (kernel/fs/file.c says why). NULL: none, or take the lock.
 * Inline in the kernel: it is on every read and write, and a call there made vfs_read and
 * vfs_write keep their arguments in saved registers (docs/design/syscall-cost.md). The host
 * tests, which have no tasks, give their own.
 */
#ifdef LUCID_HOST
struct file *fget_unlocked(int fd);
#else
#include "kernel/sched/sched.h"

static inline struct file *fget_unlocked(int fd)
{
	struct fs_context *fs = current->fs;

	if (!fs || fd < 0 || (unsigned int)fd >= fs->max_fds)
		return NULL;
	return fs->fd[fd];
}
#endif

/* Boot: builds / (ramfs), the debugfs, tracefs and proc trees and mounts them. Call once. */
int vfs_init(void);

/* Tasks: a new task's context starts at / with no files; fork shares the open files. */
void fs_context_init(struct fs_context *fs);
int fs_context_copy(struct fs_context *dst, const struct fs_context *src); /* 0 or -ENOMEM */
void fs_context_exit(struct fs_context *fs);

/* The entry points. Each returns >= 0 on success and a negative errno on failure. */
int vfs_open(const char *pathname, int flags, umode_t mode);
#define AT_FDCWD (-100) /* the *at() calls' "from the cwd" */
/* openat2's resolve flags (Linux's include/uapi/linux/openat2.h). */
#define RESOLVE_NO_XDEV 0x01
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS 0x04
#define RESOLVE_BENEATH 0x08
#define RESOLVE_IN_ROOT 0x10
#define RESOLVE_CACHED 0x20
/* open, a relative pathname from dfd's directory (AT_FDCWD: the cwd), under resolve's rules. */
int vfs_openat2(int dfd, const char *pathname, int flags, umode_t mode, unsigned int resolve);
int vfs_close(int fd);
#define CLOSE_RANGE_UNSHARE (1U << 1)
#define CLOSE_RANGE_CLOEXEC (1U << 2)
int vfs_close_range(unsigned int first, unsigned int last, unsigned int flags);
ssize_t vfs_read(int fd, void *buf, size_t count);
/* As vfs_read, but never waits: -EAGAIN when there is nothing yet (readv after some bytes). */
ssize_t vfs_read_nowait(int fd, void *buf, size_t count);
/*
 * Whether a read of fd returns all the bytes there are, up to count, as Linux's do for a pipe,
 * a file that never waits (ramfs, 9p, proc and tracefs text) and a character device that never
 * waits (/dev/zero, /dev/urandom: Linux's read_zero and urandom_read fill the count); not for
 * those that give a page a read (trace_pipe, trace_pipe_raw) or a line (a terminal).
 */
bool vfs_read_fills(int fd);
/* Whether fd's write ignores the bytes (file_operations.write_ignores_data). */
bool vfs_write_ignores_data(int fd);
/* splice(2)'s read of fd: as vfs_read (or vfs_read_nowait), through f_op->splice_read if set. */
ssize_t vfs_splice_read(int fd, void *buf, size_t count, bool nonblock);
ssize_t vfs_write(int fd, const void *buf, size_t count);
/* The file's unlocked_ioctl; -EBADF for no such fd, -ENOTTY for a file without one. */
long vfs_ioctl(int fd, unsigned int cmd, unsigned long arg);
loff_t vfs_lseek(int fd, loff_t offset, int whence);
/* pread/pwrite: at pos, f_pos untouched; -ESPIPE for a file without positions (a pipe). */
ssize_t vfs_pread(int fd, void *buf, size_t count, loff_t pos);
/*
 * May fd be mapped (kernel/mm/filemap.c)? 0 with the file's size, -EBADF (no such fd), -EACCES
 * (not open for reading), or -ENODEV (a file whose kind cannot be mapped), as Linux's do_mmap.
 */
/* What mmap may do with fd's file, besides reading it (vfs_mmap_check's *caps). */
#define MMAP_FILE_WRITE 0x1 /* open for writing: a shared mapping of it may be writable */
#define MMAP_FILE_ZERO 0x2 /* /dev/zero (file_operations.mmap_zero) */
int vfs_mmap_check(int fd, loff_t *size, unsigned int *caps);
ssize_t vfs_pwrite(int fd, const void *buf, size_t count, loff_t pos);
/* fcntl's F_GETFL/F_SETFL (only O_APPEND and O_NONBLOCK change) and FD_CLOEXEC. */
int vfs_getfl(int fd);
int vfs_setfl(int fd, unsigned int flags);
int vfs_get_cloexec(int fd); /* 1, 0, or -EBADF */
/* fcntl F_DUPFD(_CLOEXEC): the lowest free fd >= start; EINVAL past RLIMIT_NOFILE, EMFILE. */
int vfs_dupfd(int oldfd, unsigned long start, bool cloexec);
int vfs_max_fds(void); /* the size of the running task's descriptor table now */
int vfs_set_cloexec(int fd, bool on);
void do_close_on_exec(void); /* execve: closes every descriptor marked close-on-exec */
int vfs_dup(int oldfd);
int vfs_dup2(int oldfd, int newfd);
/* 1: *de filled; 0: end of directory. "." and ".." come first, as on Linux: ls hides them. */
int vfs_readdir(int fd, struct dirent *de);
int vfs_stat(const char *pathname, struct kstat *st);
/* statfs and fstatfs: the file system pathname (fd) is on; links followed. */
int vfs_statfs(const char *pathname, struct kstatfs *st);
int vfs_fstatfs(int fd, struct kstatfs *st);
int vfs_fstat(int fd, struct kstat *st);
/*
 * The pages of fd's file for a private mapping, with a reference (kernel/mm/filemap.h); NULL
 * with *err -EBADF, -EACCES (not open for reading), -ENODEV (a file that cannot be mapped) or
 * -ENOMEM.
 */
struct file_pages *vfs_mmap_pages(int fd, int *err);
/* The same for MAP_SHARED over [off, off + len): file_operations.mmap_shared first. */
struct file_pages *vfs_mmap_shared_pages(int fd, loff_t off, size_t len, bool write, int *err);
int vfs_chmod(const char *pathname, umode_t mode);
/* Symbolic links: lstat does not follow the last one; readlink returns the bytes copied. */
int vfs_lstat(const char *pathname, struct kstat *st);
int vfs_symlink(const char *target, const char *linkpath);
int vfs_readlink(const char *pathname, char *buf, size_t size);
/* utimensat: times[0] atime, times[1] mtime, each a time, UTIME_NOW or UTIME_OMIT; NULL: now. */
int vfs_utimes(const char *pathname, const struct timespec64 *times, bool nofollow);
int vfs_futimes(int fd, const struct timespec64 *times);
/* The time to stamp a file with now (Linux's current_time). */
struct timespec64 current_time(void);
int vfs_fchmod(int fd, umode_t mode);
int vfs_truncate(const char *pathname, loff_t length);
int vfs_ftruncate(int fd, loff_t length);
int vfs_fsync(int fd);
int vfs_mkdir(const char *pathname, umode_t mode);
int vfs_rmdir(const char *pathname);
int vfs_unlink(const char *pathname);
int vfs_rename(const char *oldpath, const char *newpath);
int vfs_chdir(const char *pathname);
int vfs_fchdir(int fd);
int vfs_getcwd(char *buf, size_t size); /* returns the length of the path */
int vfs_fd_path(int fd, char *buf, size_t size); /* the absolute name of the file open at fd */
/* The inode of the file open at fd, unreferenced (an identity, as areas keep it), or NULL. */
struct inode *vfs_fd_inode(int fd);
/*
 * For code that runs under the VFS lock already (a tracefs file's write: uprobe_events): name
 * looked up, links followed, and its path referenced until vfs_path_put_locked.
 */
int vfs_path_get_locked(const char *name, struct path *path);
void vfs_path_put_locked(struct path *path);
int vfs_realpath(const char *pathname, char *buf, size_t size); /* links followed; its length */
/* The absolute name of the directory open at fd (-ENOTDIR if not one), for the *at() calls. */
int vfs_fd_dirpath(int fd, char *buf, size_t size);
int vfs_mount(const char *fstype, const char *dir);
/* mount(2) with a source: the device, or for 9p the mount tag ("host"); NULL for none. */
int vfs_mount_source(const char *fstype, const char *source, const char *dir);
int vfs_umount(const char *dir);
/* A special file whose operations are fops, e.g. /dev/console (Linux's mknod + chrdev). */
int vfs_mknod(const char *pathname, umode_t mode, const struct file_operations *fops);
/* mknod(2)'s: a FIFO, a regular file, or a device or socket node whose open is ENXIO. */
int vfs_mknod_user(const char *pathname, umode_t mode);
/*
 * bind(2) of an AF_UNIX socket (kernel/net/unix/af_unix.c), under the VFS lock: a node made as
 * vfs_mknod makes one, its path returned referenced (-EEXIST if the name is taken); and the
 * unlink that takes back one made for a bind that then fails.
 */
int vfs_mknod_path_locked(const char *pathname, umode_t mode, const struct file_operations *fops,
			  struct path *path);
int vfs_unlink_locked(const char *pathname);
/*
 * A pipe: fds[0] reads what fds[1] writes (kernel/fs/pipe.c; not in the host tests). flags:
 * O_NONBLOCK (both ends) and O_CLOEXEC (both descriptors), as pipe2's.
 */
int vfs_pipe2(int fds[2], int flags);
/* The room in the pipe whose write end is fd (splice's bound), -EINVAL if it is not one. */
ssize_t vfs_pipe_room(int fd);
/* fcntl's F_GETPIPE_SZ and F_SETPIPE_SZ on the pipe fd: its size in bytes, or -errno. */
#define F_SETPIPE_SZ 1031
#define F_GETPIPE_SZ 1032
long vfs_pipe_fcntl(int fd, unsigned int cmd, unsigned long arg);
/* fcntl's F_ADD_SEALS and F_GET_SEALS on a memfd (kernel/mm/memfd.c): 0 or the seals, -errno. */
#define F_ADD_SEALS 1033
#define F_GET_SEALS 1034
long memfd_fcntl(int fd, unsigned int cmd, unsigned long arg);
/* The mount table as mount(8) prints it; returns the full length, like snprintf. */
int vfs_mount_list(char *buf, size_t size);

/* Building blocks for file systems and file operations. */
loff_t default_llseek(struct file *file, loff_t offset, int whence);
loff_t no_llseek(struct file *file, loff_t offset, int whence);
/* A read operation for a file whose whole text is the available bytes at from (Linux's). */
ssize_t simple_read_from_buffer(void *to, size_t count, loff_t *ppos, const void *from,
				size_t available);

#endif
