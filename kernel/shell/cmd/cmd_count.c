/*
 * Counting: wc and cksum, with GNU's output formats to the byte, so that a test can compare
 * Lucid's answer with the host's for the same file.
 */
#include <stdint.h>
#include "kernel/shell/shell.h"
#include "kernel/shell/stdio.h"
#include "kernel/shell/cmd_io.h"
#include "kernel/fs/vfs.h"
#include "kernel/mm/kmalloc.h"
#include "lib/ctype.h"
#include "lib/errno.h"
#include "lib/printf.h"

#define READ_BUF 4096
#define WC_MAX_FILES 64 /* operands wc sizes up before it starts */

struct wc_counts {
	unsigned long lines, words, bytes;
};

/* Counts fd into *c; in_word carries a word across reads. */
static long wc_fd(int fd, char *buf, struct wc_counts *c)
{
	bool in_word = false;
	long n;

	while ((n = fd_read(fd, buf, READ_BUF)) > 0) {
		c->bytes += (unsigned long)n;
		for (long i = 0; i < n; i++) {
			bool space = isspace(buf[i]);

			c->lines += buf[i] == '\n';
			c->words += !space && !in_word;
			in_word = !space;
		}
	}
	return n;
}

/* Returns 0, or the first write's negative errno. */
static int wc_print(const struct wc_counts *c, const bool show[3], int width, const char *name)
{
	const unsigned long v[3] = {c->lines, c->words, c->bytes};
	bool first = true;
	int ret = 0;

	for (int i = 0; i < 3 && ret >= 0; i++) {
		if (!show[i])
			continue;
		ret = printf("%s%*lu", first ? "" : " ", width, v[i]);
		first = false;
	}
	if (ret >= 0)
		ret = printf(name ? " %s\n" : "\n", name);
	return ret < 0 ? ret : 0;
}

/*
 * GNU's column width: wide enough for the total size of the regular files, at least 7 if
 * some input is not a regular file (its size is unknown: a pipe, the console), and no padding
 * at all for a single count of a single input ("echo hi | wc -l" prints "1").
 */
static int wc_width(int ninputs, char **names, int ncolumns)
{
	unsigned long total = 0;
	int width = 1, min = 1;

	if (ncolumns == 1 && ninputs == 1)
		return 1;
	for (int i = 0; i < ninputs; i++) {
		struct kstat st;
		int err = names ? vfs_stat(names[i], &st) : vfs_fstat(STDIN_FILENO, &st);

		if (err)
			continue;
		if (S_ISREG(st.mode))
			total += (unsigned long)st.size;
		else
			min = 7;
	}
	for (; total >= 10; total /= 10)
		width++;
	return width > min ? width : min;
}

static int cmd_wc(int argc, char **argv)
{
	bool show[3] = {false, false, false}; /* lines, words, bytes */
	struct wc_counts total = {0};
	struct getopt g;
	char *buf;
	int c, n, width, status = 0;

	getopt_init(&g);
	while ((c = getopt(&g, argc, argv, "lwc")) != -1) {
		if (c == '?')
			return 1;
		show[c == 'l' ? 0 : c == 'w' ? 1 : 2] = true;
	}
	if (!show[0] && !show[1] && !show[2])
		show[0] = show[1] = show[2] = true;
	n = argc - g.ind;
	if (n > WC_MAX_FILES) {
		dprintf(STDERR_FILENO, "wc: at most %d files\n", WC_MAX_FILES);
		return 1;
	}
	buf = NULL; /* once a file is open: its failure is that file's (cmd_io.h) */
	width = wc_width(n ? n : 1, n ? argv + g.ind : NULL, show[0] + show[1] + show[2]);
	for (int i = 0; i < (n ? n : 1); i++) {
		const char *name = n ? argv[g.ind + i] : NULL;
		struct wc_counts counts = {0};
		int fd = open_input("wc", name ? name : "-");
		long err;

		if (fd < 0) {
			status = 1;
			continue;
		}
		if (!buf)
			buf = kmalloc(READ_BUF);
		err = buf ? wc_fd(fd, buf, &counts) : -ENOMEM;
		close_input(fd);
		if (err == -EINTR) {
			kfree(buf);
			return STATUS_SIGINT;
		}
		if (err < 0) {
			if (name)
				dprintf(STDERR_FILENO, "wc: %s: %s\n", name, errno_text((int)-err));
			else /* GNU's name for it, quoted */
				dprintf(STDERR_FILENO, "wc: 'standard input': %s\n",
					errno_text((int)-err));
			status = 1;
		}
		err = wc_print(&counts, show, width, name);
		if (err < 0) {
			kfree(buf);
			return write_error_as("wc", (int)err, "write error", 1);
		}
		total.lines += counts.lines;
		total.words += counts.words;
		total.bytes += counts.bytes;
	}
	kfree(buf);
	if (n > 1 && (c = wc_print(&total, show, width, "total")) < 0)
		return write_error_as("wc", c, "write error", 1);
	return status;
}
SHELL_CMD("wc", "wc [-l] [-w] [-c] [FILE...]: count lines, words and bytes", cmd_wc);

/*
 * POSIX cksum: a CRC-32 (polynomial 0x04C11DB7, most significant bit first, no reflection)
 * over the data and then over its length, least significant byte first, complemented.
 * The table holds the CRC of each byte value, computed bit by bit once.
 */
static uint32_t crc_table[256];

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t crc = i << 24;

		for (int bit = 0; bit < 8; bit++)
			crc = crc & 0x80000000u ? (crc << 1) ^ 0x04C11DB7u : crc << 1;
		crc_table[i] = crc;
	}
}

static uint32_t crc_update(uint32_t crc, unsigned char byte)
{
	return (crc << 8) ^ crc_table[(crc >> 24) ^ byte];
}

static int cmd_cksum(int argc, char **argv)
{
	int first = getopt_none(argc, argv), n = argc - first, status = 0;
	char *buf;

	if (first < 0)
		return 1;
	buf = NULL; /* once a file is open: its failure is that file's (cmd_io.h) */
	if (!crc_table[1])
		crc_init();
	for (int i = 0; i < (n ? n : 1); i++) {
		const char *name = n ? argv[first + i] : NULL;
		int fd = open_input("cksum", name ? name : "-");
		unsigned long size = 0;
		uint32_t crc = 0;
		long got;

		if (fd < 0) {
			status = 1;
			continue;
		}
		got = buf || (buf = kmalloc(READ_BUF)) ? 0 : -ENOMEM;
		while (buf && (got = fd_read(fd, buf, READ_BUF)) > 0) {
			for (long k = 0; k < got; k++)
				crc = crc_update(crc, (unsigned char)buf[k]);
			size += (unsigned long)got;
		}
		close_input(fd);
		if (got < 0) {
			dprintf(STDERR_FILENO, "cksum: %s: %s\n", name ? name : "-",
				errno_text((int)-got));
			status = got == -EINTR ? STATUS_SIGINT : 1;
			continue;
		}
		for (unsigned long len = size; len; len >>= 8)
			crc = crc_update(crc, len & 0xff);
		got = printf(name ? "%u %lu %s\n" : "%u %lu\n", ~crc, size, name);
		if (got < 0) {
			status = write_error_as("cksum", (int)got, "write error", 1);
			break;
		}
	}
	kfree(buf);
	return status;
}
SHELL_CMD("cksum", "cksum [FILE...]: POSIX CRC and size, as GNU cksum prints them", cmd_cksum);
