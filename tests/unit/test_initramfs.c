/*
 * Tests for kernel/fs/initramfs.c's newc parser: archives written by scripts/mkcpio.py's rules (and
 * by hand where a field must be wrong), walked member by member; every malformed archive gives
 * -EINVAL, never a read outside the buffer (ASan watches).
 */
#include "lib/compiler.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "kernel/fs/initramfs.h"
#include "lib/errno.h"

#define S_IFDIR 0040000
#define S_IFREG 0100000

/* Appends one newc member to buf at *len, as scripts/mkcpio.py writes it. */
static void add(char *buf, size_t *len, const char *name, unsigned mode, const char *data)
{
	size_t dlen = strlen(data), nlen = strlen(name) + 1;

	*len += sprintf(buf + *len, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
			1, mode, 0, 0, 1, 0, dlen, 0, 0, 0, 0, nlen, 0);
	memcpy(buf + *len, name, nlen);
	*len += nlen;
	while (*len % 4)
		buf[(*len)++] = 0;
	memcpy(buf + *len, data, dlen);
	*len += dlen;
	while (*len % 4)
		buf[(*len)++] = 0;
}

struct seen {
	int n;
	char names[8][32];
	char data[8][32];
	unsigned mode[8];
};

static int collect(const struct cpio_entry *e, void *ctx)
{
	struct seen *s = ctx;

	snprintf(s->names[s->n], sizeof(s->names[0]), "%s", e->name);
	snprintf(s->data[s->n], sizeof(s->data[0]), "%.*s", (int)e->size, (const char *)e->data);
	s->mode[s->n++] = e->mode;
	return 0;
}

/* Runs the parser on an exact-size heap copy, so ASan sees a read one byte past the end. */
static int parse(const char *buf, size_t len, struct seen *s)
{
	char *copy = malloc(len ? len : 1);
	memcpy(copy, buf, len);
	memset(s, 0, sizeof(*s));
	int ret = cpio_parse(copy, len, collect, s);
	free(copy);
	return ret;
}

static void test_members(void **state)
{
	char buf[1024];
	size_t len = 0;
	struct seen s;

	(void)state;
	add(buf, &len, "bin", S_IFDIR | 0755, "");
	add(buf, &len, "bin/hello", S_IFREG | 0755, "\177ELF12345");
	add(buf, &len, "etc/motd", S_IFREG | 0644, "hi\n");
	add(buf, &len, "TRAILER!!!", 0, "");
	assert_int_equal(parse(buf, len, &s), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.names[1], "bin/hello");
	assert_string_equal(s.data[1], "\177ELF12345");
	assert_int_equal(s.mode[1], S_IFREG | 0755);
	assert_string_equal(s.names[2], "etc/motd");
	assert_string_equal(s.data[2], "hi\n");
	/* Trailing padding after the trailer, as cpio's 512-byte blocks leave, is ignored. */
	memset(buf + len, 0, 512);
	assert_int_equal(parse(buf, len + 512, &s), 0);
}

static void test_truncated(void **state)
{
	char buf[1024];
	size_t len = 0;
	struct seen s;

	(void)state;
	add(buf, &len, "bin/hello", S_IFREG | 0755, "0123456789");
	size_t trailer = len, trailer_end = len + 110 + sizeof("TRAILER!!!");
	add(buf, &len, "TRAILER!!!", 0, "");
	/*
	 * Every prefix cut before the trailer's NUL is malformed: a member or the trailer cut
	 * short.
	 */
	for (size_t cut = 0; cut < trailer_end; cut++)
		assert_int_equal(parse(buf, cut, &s), -EINVAL);
	/* The trailer's own padding may be missing (the archive's end). */
	assert_true(trailer < trailer_end);
	assert_int_equal(parse(buf, trailer_end, &s), 0);
}

static void test_bad_fields(void **state)
{
	char buf[1024];
	size_t len = 0;
	struct seen s;

	(void)state;
	add(buf, &len, "a", S_IFREG | 0644, "x");
	add(buf, &len, "TRAILER!!!", 0, "");
	char bad[1024];

	memcpy(bad, buf, len);
	bad[0] = '1'; /* magic */
	assert_int_equal(parse(bad, len, &s), -EINVAL);
	memcpy(bad, buf, len);
	bad[6 + 8 * 6] = 'g'; /* filesize is not hex */
	assert_int_equal(parse(bad, len, &s), -EINVAL);
	memcpy(bad, buf, len);
	memcpy(bad + 6 + 8 * 6, "7FFFFFFF", 8); /* filesize past the end */
	assert_int_equal(parse(bad, len, &s), -EINVAL);
	memcpy(bad, buf, len);
	memcpy(bad + 6 + 8 * 11, "00000001", 8); /* name without its NUL */
	assert_int_equal(parse(bad, len, &s), -EINVAL);
	memcpy(bad, buf, len);
	memcpy(bad + 6 + 8 * 11, "00000000", 8); /* no name at all */
	assert_int_equal(parse(bad, len, &s), -EINVAL);
}

static int stop_at_second(const struct cpio_entry *e, void *ctx)
{
	(void)e;
	return ++*(int *)ctx == 2 ? -ENOSPC : 0;
}

static void test_callback_stops(void **state)
{
	char buf[1024];
	size_t len = 0;
	int calls = 0;

	(void)state;
	add(buf, &len, "a", S_IFREG | 0644, "1");
	add(buf, &len, "b", S_IFREG | 0644, "2");
	add(buf, &len, "c", S_IFREG | 0644, "3");
	add(buf, &len, "TRAILER!!!", 0, "");
	assert_int_equal(cpio_parse(buf, len, stop_at_second, &calls), -ENOSPC);
	assert_int_equal(calls, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_fields),
		cmocka_unit_test(test_callback_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
