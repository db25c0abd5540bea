/* seq_file: files generated record by record as they are read (Linux's fs/seq_file.c, redone). */

/*
 * The buffer, one page to begin with, holds the text of whole records. A read first hands out
 * what the previous read left there; when it is empty, the buffer is refilled starting at
 * record m->index: records are printed one after another until the reader has enough, or the
 * next one does not fit (it is then printed again, from the start, on the next read). So a
 * reader taking 100 bytes at a time through a 10 MB file causes about two records of work per
 * read, and the file never exists in memory beyond one buffer.
 *
 *   reader:   |--read 1--|--read 2--|--read 3--| ...
 *   records:  [ rec 0 ][ rec 1 ][ rec 2 ][ rec 3 ]
 *   buffer:   [ rec 0 ][ rec 1 ]          <- filled at read 1; read 2 takes the rest of it
 *                                [ rec 2 ][ rec 3 ]  <- refilled at read 3
 *
 * Only if one record alone is larger than the buffer does the buffer double (and the record
 * is printed again into the bigger one). The file position counts bytes; seeking anywhere but
 * where the reader already is (or back to 0) means printing the records again from the first
 * (traverse()), which is why these files are meant to be read front to back.
 *
 * No locking of its own: show() runs under whatever the caller (the VFS) holds; start()/stop()
 * are where a file takes and drops its own locks.
 */
#include "kernel/fs/seq_file.h"
#include "kernel/mm/kmalloc.h"
#include "lib/errno.h"
#include "lib/printf.h"
#include "lib/string.h"

#define SEQ_BUF_SIZE 4096 /* one page */

int seq_open(struct file *file, const struct seq_operations *op)
{
	struct seq_file *m = kzalloc(sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->op = op;
	m->file = file;
	file->private_data = m;
	return 0; /* the buffer comes with the first read: files opened to write never need it */
}

/* next(), guarded against one that forgets to advance *pos, which would repeat forever. */
static void *seq_next(struct seq_file *m, void *v)
{
	loff_t index = m->index;
	void *p = m->op->next(m, v, &m->index);

	if (m->index == index)
		m->index++;
	return p;
}

/* Replaces the buffer by one twice the size, for a record that did not fit. */
static int grow_buffer(struct seq_file *m)
{
	char *buf = kmalloc(m->size * 2);

	m->count = 0; /* what is there is a cut-off record: it goes either way */
	if (!buf)
		return -ENOMEM;
	kfree(m->buf);
	m->buf = buf;
	m->size *= 2;
	return 0;
}

/*
 * Refills the empty buffer from record m->index: at least one record (growing the buffer for
 * it if need be), then more while fewer than want bytes are there and they fit whole.
 * Returns 0 with m->count == 0 at the end of the file.
 */
static int fill_buffer(struct seq_file *m, size_t want)
{
	void *p;
	int err = 0;

	m->count = 0;
	p = m->op->start(m, &m->index);
	while (p) {
		err = m->op->show(m, p);
		if (err < 0)
			break;
		if (err > 0)
			m->count = 0; /* SEQ_SKIP: show() asked to drop what it printed */
		if (m->count == 0) {
			p = seq_next(m, p);
			continue;
		}
		if (!seq_has_overflowed(m))
			goto more;
		m->op->stop(m, p);
		err = grow_buffer(m);
		if (err)
			return err;
		p = m->op->start(m, &m->index);
	}
	m->op->stop(m, p);
	m->count = 0;
	return err;

more:
	for (;;) {
		size_t offs = m->count;

		p = seq_next(m, p);
		if (!p || m->count >= want)
			break;
		err = m->op->show(m, p);
		if (err > 0) {
			m->count = offs;
		} else if (err < 0 || seq_has_overflowed(m)) {
			/* Drop its part; the next read starts with it (and reports its error). */
			m->count = offs;
			break;
		}
	}
	m->op->stop(m, p);
	return 0;
}

/*
 * Regenerates the records from the first up to byte offset, keeping only what lies past it,
 * so that the next seq_read() continues from offset. -EAGAIN: the buffer grew, try again.
 */
static int traverse(struct seq_file *m, loff_t offset)
{
	loff_t pos = 0;
	int err = 0;
	void *p;

	m->index = 0;
	m->count = 0;
	m->from = 0;
	if (offset == 0)
		return 0;
	if (!m->buf) {
		m->buf = kmalloc(SEQ_BUF_SIZE);
		if (!m->buf)
			return -ENOMEM;
		m->size = SEQ_BUF_SIZE;
	}
	p = m->op->start(m, &m->index);
	while (p) {
		err = m->op->show(m, p);
		if (err < 0)
			break;
		if (err > 0) {
			err = 0;
			m->count = 0;
		}
		if (seq_has_overflowed(m)) {
			m->op->stop(m, p);
			err = grow_buffer(m);
			return err ? err : -EAGAIN;
		}
		p = seq_next(m, p);
		if (pos + (loff_t)m->count > offset) {
			m->from = (size_t)(offset - pos);
			m->count -= m->from;
			break;
		}
		pos += (loff_t)m->count;
		m->count = 0;
		if (pos == offset)
			break;
	}
	m->op->stop(m, p);
	return err;
}

/* Moves the reader to byte offset; on failure back to the start, the only place known. */
static int seek_to(struct seq_file *m, loff_t offset)
{
	int err;

	do
		err = traverse(m, offset);
	while (err == -EAGAIN);
	if (err) {
		m->read_pos = 0;
		m->index = 0;
		m->count = 0;
		return err;
	}
	m->read_pos = offset;
	return 0;
}

ssize_t seq_read(struct file *file, char *buf, size_t size, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	size_t copied = 0, n;
	int err;

	if (size == 0)
		return 0;
	if (*ppos != m->read_pos) {
		/* Someone moved the position under us (seq_lseek() keeps the two equal). */
		err = seek_to(m, *ppos);
		if (err)
			return err;
	}
	if (!m->buf) {
		m->buf = kmalloc(SEQ_BUF_SIZE);
		if (!m->buf)
			return -ENOMEM;
		m->size = SEQ_BUF_SIZE;
	}
	/* First what the previous read generated but did not take. */
	if (m->count) {
		copied = MIN(m->count, size);
		memcpy(buf, m->buf + m->from, copied);
		m->count -= copied;
		m->from += copied;
		if (copied == size)
			goto done;
	}
	m->from = 0;
	err = fill_buffer(m, size - copied);
	if (err) {
		if (!copied)
			return err;
		goto done; /* report the bytes we have; the error comes again on the next read */
	}
	n = MIN(m->count, size - copied);
	memcpy(buf + copied, m->buf, n);
	m->count -= n;
	m->from = n;
	copied += n;
done:
	*ppos += (loff_t)copied;
	m->read_pos += (loff_t)copied;
	return (ssize_t)copied;
}

/* Seeks by regenerating (see traverse()); SEEK_END is refused: the size is unknown. */
loff_t seq_lseek(struct file *file, loff_t offset, int whence)
{
	struct seq_file *m = file->private_data;
	int err;

	if (whence == SEEK_CUR) {
		if (offset > 0 && file->f_pos > __LONG_MAX__ - offset)
			return -EINVAL;
		offset += file->f_pos;
	} else if (whence != SEEK_SET) {
		return -EINVAL;
	}
	if (offset < 0)
		return -EINVAL;
	if (offset != m->read_pos) {
		err = seek_to(m, offset);
		if (err) {
			file->f_pos = 0;
			return err;
		}
	}
	file->f_pos = offset;
	return offset;
}

int seq_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	(void)inode;
	kfree(m->buf);
	kfree(m);
	return 0;
}

void *__seq_open_private(struct file *file, const struct seq_operations *op, int psize)
{
	void *private = kzalloc((size_t)psize);

	if (!private)
		return NULL;
	if (seq_open(file, op)) {
		kfree(private);
		return NULL;
	}
	((struct seq_file *)file->private_data)->private = private;
	return private;
}

int seq_open_private(struct file *file, const struct seq_operations *op, int psize)
{
	return __seq_open_private(file, op, psize) ? 0 : -ENOMEM;
}

int seq_release_private(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	kfree(m->private);
	return seq_release(inode, file);
}

/* single_open: one record, SEQ_START_TOKEN, shown by the caller's show(). */
static void *single_start(struct seq_file *m, loff_t *pos)
{
	(void)m;
	return *pos ? NULL : SEQ_START_TOKEN;
}

static void *single_next(struct seq_file *m, void *v, loff_t *pos)
{
	(void)m;
	(void)v;
	++*pos;
	return NULL;
}

static void single_stop(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
}

int single_open(struct file *file, int (*show)(struct seq_file *m, void *v), void *data)
{
	struct seq_operations *op = kmalloc(sizeof(*op));
	int err;

	if (!op)
		return -ENOMEM;
	op->start = single_start;
	op->next = single_next;
	op->stop = single_stop;
	op->show = show;
	err = seq_open(file, op);
	if (err) {
		kfree(op);
		return err;
	}
	((struct seq_file *)file->private_data)->private = data;
	return 0;
}

int single_release(struct inode *inode, struct file *file)
{
	const struct seq_operations *op = ((struct seq_file *)file->private_data)->op;

	seq_release(inode, file);
	kfree((void *)op);
	return 0;
}

void seq_vprintf(struct seq_file *m, const char *fmt, va_list args)
{
	if (m->count < m->size) {
		int len = vsnprintf(m->buf + m->count, m->size - m->count, fmt, args);

		if (len >= 0 && m->count + (size_t)len < m->size) {
			m->count += (size_t)len;
			return;
		}
	}
	m->count = m->size; /* overflowed: the record is printed again into a bigger buffer */
}

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	seq_vprintf(m, fmt, args);
	va_end(args);
}

/* Like seq_printf, text must leave one byte free, so that a full buffer means "overflowed". */
void seq_write(struct seq_file *m, const void *data, size_t len)
{
	if (m->count + len < m->size) {
		memcpy(m->buf + m->count, data, len);
		m->count += len;
	} else {
		m->count = m->size;
	}
}

void seq_puts(struct seq_file *m, const char *s)
{
	seq_write(m, s, strlen(s));
}

void seq_putc(struct seq_file *m, char c)
{
	seq_write(m, &c, 1);
}
