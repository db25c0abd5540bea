/* seq_file: generate a file's text record by record as it is read, as Linux's seq_file does. */
#ifndef KERNEL_SEQ_FILE_H
#define KERNEL_SEQ_FILE_H

#include <stdarg.h>
#include <stdbool.h>
#include "kernel/fs/vfs.h"
#include "lib/compiler.h"

/*
 * A pseudo file such as "trace" can be far larger than memory allows to build at once. With
 * seq_file its code only says how to walk its records and how to print one:
 *
 *   start(m, pos)   the record at index *pos, or NULL past the end
 *   next(m, v, pos) the record after v; must advance *pos
 *   stop(m, v)      the walk pauses (v may be NULL): drop locks taken in start
 *   show(m, v)      prints v with seq_printf() & co; 0, SEQ_SKIP to print nothing, or -errno
 *
 * and seq_read() produces the bytes a reader asks for, a buffer (one page) at a time. A record
 * is never split by the generator: if it does not fit, it is printed again on the next read,
 * and a record too big for the whole buffer makes the buffer double. See kernel/fs/seq_file.c.
 */
struct seq_file;

struct seq_operations {
	void *(*start)(struct seq_file *m, loff_t *pos);
	void (*stop)(struct seq_file *m, void *v);
	void *(*next)(struct seq_file *m, void *v, loff_t *pos);
	int (*show)(struct seq_file *m, void *v);
};

struct seq_file {
	char *buf;	/* generated text not yet read: buf[from .. from + count) */
	size_t size;	/* of buf */
	size_t from;
	size_t count;
	loff_t index;	/* the next record to generate */
	loff_t read_pos; /* the file position the buffer's contents follow */
	const struct seq_operations *op;
	struct file *file;
	void *private;	/* the file's own data: single_open's data, __seq_open_private's */
};

#define SEQ_SKIP 1
/* What start() returns for index 0 when the file begins with a header and not a record. */
#define SEQ_START_TOKEN ((void *)1)

int seq_open(struct file *file, const struct seq_operations *op);
ssize_t seq_read(struct file *file, char *buf, size_t count, loff_t *pos);
loff_t seq_lseek(struct file *file, loff_t offset, int whence);
int seq_release(struct inode *inode, struct file *file);

/* seq_open() plus a zeroed private area of psize bytes in m->private, freed by the release. */
void *__seq_open_private(struct file *file, const struct seq_operations *op, int psize);
int seq_open_private(struct file *file, const struct seq_operations *op, int psize);
int seq_release_private(struct inode *inode, struct file *file);

/* For files that are one record: show(m, v) runs once, with m->private == data. */
int single_open(struct file *file, int (*show)(struct seq_file *m, void *v), void *data);
int single_release(struct inode *inode, struct file *file);

/* Output for show(). Text that does not fit marks the buffer overflowed (record retried). */
void seq_printf(struct seq_file *m, const char *fmt, ...) __printf(2, 3);
void seq_vprintf(struct seq_file *m, const char *fmt, va_list args);
void seq_puts(struct seq_file *m, const char *s);
void seq_putc(struct seq_file *m, char c);
void seq_write(struct seq_file *m, const void *data, size_t len);

static inline bool seq_has_overflowed(const struct seq_file *m)
{
	return m->count == m->size;
}

#endif
