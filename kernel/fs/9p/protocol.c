/*
 * 9P2000.L on the wire: little-endian fields in a size-prefixed message.
 *
 * Every message is size[4] type[1] tag[2] then its fields; strings are len[2] then the bytes
 * (no NUL), data is count[4] then the bytes. This file is pure code: no allocation, no device,
 * nothing of the kernel but lib/string, so the host unit test (tests/unit/test_p9_protocol.c)
 * and the fuzzer (tests/fuzz/fuzz_p9.c) run exactly what the kernel runs.
 *
 * Replies come from a device (QEMU, or something worse), so nothing in them is believed:
 * every field is read through a cursor that refuses to go past the reply's end, the size field
 * must agree with what the transport delivered, and a reply must be used up exactly. A bad
 * reply fails its own request with -EIO and nothing else.
 */
#include "kernel/fs/9p/protocol.h"
#include "lib/errno.h"
#include "lib/string.h"

struct cursor {
	uint8_t *p; /* building */
	const uint8_t *r; /* checking */
	size_t pos, end;
	bool err;
};

static void put(struct cursor *c, uint64_t v, int bytes)
{
	if (c->err || c->end - c->pos < (size_t)bytes) {
		c->err = true;
		return;
	}
	for (int i = 0; i < bytes; i++)
		c->p[c->pos++] = (uint8_t)(v >> (8 * i));
}

static void put_bytes(struct cursor *c, const void *data, size_t n)
{
	if (c->err || c->end - c->pos < n) {
		c->err = true;
		return;
	}
	if (n)
		memcpy(c->p + c->pos, data, n);
	c->pos += n;
}

static void put_str(struct cursor *c, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n > UINT16_MAX) {
		c->err = true;
		return;
	}
	put(c, n, 2);
	put_bytes(c, s, n);
}

size_t p9_vbuild(void *buf, size_t cap, uint8_t type, uint16_t tag, const char *fmt, va_list *ap)
{
	struct cursor c = {.p = buf, .end = cap};

	put(&c, 0, 4); /* the size, filled in at the end */
	put(&c, type, 1);
	put(&c, tag, 2);
	for (; *fmt; fmt++) {
		switch (*fmt) {
		case 'b':
			put(&c, (uint8_t)va_arg(*ap, unsigned int), 1);
			break;
		case 'w':
			put(&c, (uint16_t)va_arg(*ap, unsigned int), 2);
			break;
		case 'd':
			put(&c, va_arg(*ap, uint32_t), 4);
			break;
		case 'q':
			put(&c, va_arg(*ap, uint64_t), 8);
			break;
		case 's':
			put_str(&c, va_arg(*ap, const char *));
			break;
		case 'D': {
			uint32_t count = va_arg(*ap, uint32_t);

			put(&c, count, 4);
			put_bytes(&c, va_arg(*ap, const void *), count);
			break;
		}
		case 'T': {
			unsigned int n = va_arg(*ap, unsigned int);
			const char *const *names = va_arg(*ap, const char *const *);

			if (n > P9_MAXWELEM)
				c.err = true;
			put(&c, n, 2);
			for (unsigned int i = 0; i < n && !c.err; i++)
				put_str(&c, names[i]);
			break;
		}
		default:
			c.err = true;
		}
	}
	if (c.err || c.pos > UINT32_MAX)
		return 0;
	for (int i = 0; i < 4; i++)
		c.p[i] = (uint8_t)(c.pos >> (8 * i));
	return c.pos;
}

size_t p9_build(void *buf, size_t cap, uint8_t type, uint16_t tag, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = p9_vbuild(buf, cap, type, tag, fmt, &ap);
	va_end(ap);
	return n;
}

static uint64_t get(struct cursor *c, int bytes)
{
	uint64_t v = 0;

	if (c->err || c->end - c->pos < (size_t)bytes) {
		c->err = true;
		return 0;
	}
	for (int i = 0; i < bytes; i++)
		v |= (uint64_t)c->r[c->pos++] << (8 * i);
	return v;
}

static const uint8_t *get_bytes(struct cursor *c, size_t n)
{
	const uint8_t *p;

	if (c->err || c->end - c->pos < n) {
		c->err = true;
		return NULL;
	}
	p = c->r + c->pos;
	c->pos += n;
	return p;
}

static void get_qid(struct cursor *c, struct p9_qid *q)
{
	q->type = (uint8_t)get(c, 1);
	q->version = (uint32_t)get(c, 4);
	q->path = get(c, 8);
}

static void get_str(struct cursor *c, struct p9_str *s)
{
	s->len = (uint16_t)get(c, 2);
	s->s = (const char *)get_bytes(c, s->len);
}

int p9_peek_header(const void *buf, size_t len, uint32_t *size, uint8_t *type, uint16_t *tag)
{
	struct cursor c = {.r = buf, .end = len};

	*size = (uint32_t)get(&c, 4);
	*type = (uint8_t)get(&c, 1);
	*tag = (uint16_t)get(&c, 2);
	return c.err ? -EIO : 0;
}

int p9_vparse(const void *buf, size_t len, uint8_t ttype, uint16_t tag, const char *fmt,
	      va_list *ap)
{
	struct cursor c = {.r = buf, .end = len};
	uint32_t size;
	uint8_t type;
	uint16_t rtag;

	if (p9_peek_header(buf, len, &size, &type, &rtag) || size != len || rtag != tag)
		return -EIO;
	c.pos = P9_HDRSZ;
	if (type == P9_RLERROR) {
		uint32_t ecode = (uint32_t)get(&c, 4);

		if (c.err || c.pos != c.end || ecode == 0 || ecode > P9_MAX_ERRNO)
			return -EIO;
		return -(int)ecode;
	}
	if (type != ttype + 1)
		return -EIO;
	for (; *fmt && !c.err; fmt++) {
		switch (*fmt) {
		case 'b':
			*va_arg(*ap, uint8_t *) = (uint8_t)get(&c, 1);
			break;
		case 'w':
			*va_arg(*ap, uint16_t *) = (uint16_t)get(&c, 2);
			break;
		case 'd':
			*va_arg(*ap, uint32_t *) = (uint32_t)get(&c, 4);
			break;
		case 'q':
			*va_arg(*ap, uint64_t *) = get(&c, 8);
			break;
		case 'Q':
			get_qid(&c, va_arg(*ap, struct p9_qid *));
			break;
		case 's':
			get_str(&c, va_arg(*ap, struct p9_str *));
			break;
		case 'D': {
			uint32_t *count = va_arg(*ap, uint32_t *);
			const uint8_t **data = va_arg(*ap, const uint8_t **);

			*count = (uint32_t)get(&c, 4);
			*data = get_bytes(&c, *count);
			break;
		}
		case 'R': {
			unsigned int max = va_arg(*ap, unsigned int);
			uint16_t *n = va_arg(*ap, uint16_t *);
			struct p9_qid *qids = va_arg(*ap, struct p9_qid *);

			*n = (uint16_t)get(&c, 2);
			if (*n > max)
				c.err = true;
			for (unsigned int i = 0; i < *n && !c.err; i++)
				get_qid(&c, &qids[i]);
			break;
		}
		default:
			c.err = true;
		}
	}
	if (c.err || *fmt || c.pos != c.end)
		return -EIO;
	return 0;
}

int p9_parse(const void *buf, size_t len, uint8_t ttype, uint16_t tag, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = p9_vparse(buf, len, ttype, tag, fmt, &ap);
	va_end(ap);
	return ret;
}

static bool name_ok(const struct p9_str *name)
{
	if (!name->s || name->len == 0 || name->len > 255)
		return false;
	if ((name->len == 1 && name->s[0] == '.') ||
	    (name->len == 2 && name->s[0] == '.' && name->s[1] == '.'))
		return false;
	return !memchr(name->s, '/', name->len) && !memchr(name->s, '\0', name->len);
}

int p9_readdir_next(const uint8_t *data, uint32_t count, uint32_t *pos, struct p9_dirent *de)
{
	struct cursor c = {.r = data, .pos = *pos, .end = count};

	if (*pos >= count)
		return 0;
	get_qid(&c, &de->qid);
	de->offset = get(&c, 8);
	de->d_type = (uint8_t)get(&c, 1);
	get_str(&c, &de->name);
	if (c.err)
		return -EIO;
	*pos = (uint32_t)c.pos;
	/* "." and ".." are in every listing; the caller skips them as returned with name_ok. */
	if ((de->name.len == 1 && de->name.s[0] == '.') ||
	    (de->name.len == 2 && de->name.s[0] == '.' && de->name.s[1] == '.'))
		return 1;
	return name_ok(&de->name) ? 1 : -EIO;
}
