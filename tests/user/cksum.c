/*
 * cksum: POSIX's checksum of each file, as GNU cksum prints it: "CRC SIZE NAME" (no name for
 * standard input). Debian's busybox has no cksum applet, and the tests compare files across
 * the host share with the host's cksum, so Lucid has this one.
 *
 * The CRC is POSIX's: the polynomial 0x04C11DB7, most significant bit first, over the bytes
 * and then the length (least significant byte first, only as many bytes as it needs), the
 * result complemented.
 *
 * Usage: cksum [--] [FILE]...   ("-" is standard input)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CRC_POLY 0x04C11DB7u /* POSIX cksum's generator polynomial */
#define CHUNK 65536 /* bytes a read */

static uint32_t crc_table[256];

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i << 24;

		for (int bit = 0; bit < 8; bit++)
			c = (c & 0x80000000u) ? (c << 1) ^ CRC_POLY : c << 1;
		crc_table[i] = c;
	}
}

static uint32_t crc_add(uint32_t crc, const unsigned char *p, size_t n)
{
	while (n--)
		crc = (crc << 8) ^ crc_table[(crc >> 24) ^ *p++];
	return crc;
}

/* The checksum and size of what fd holds, read to its end: 0, or -errno from the read. */
static int crc_fd(int fd, uint32_t *crc_out, unsigned long long *size_out)
{
	static unsigned char buf[CHUNK];
	uint32_t crc = 0;
	unsigned long long size = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		crc = crc_add(crc, buf, (size_t)n);
		size += (unsigned long long)n;
	}
	if (n < 0)
		return -errno;
	for (unsigned long long len = size; len; len >>= 8) {
		unsigned char b = (unsigned char)len;

		crc = crc_add(crc, &b, 1);
	}
	*crc_out = ~crc;
	*size_out = size;
	return 0;
}

/*
 * One line: for name (standard input if "-"), or for standard input unnamed if name is NULL.
 * 1, and a message naming the file, if it cannot be read.
 */
static int sum(const char *name)
{
	int fd = !name || !strcmp(name, "-") ? STDIN_FILENO : open(name, O_RDONLY);
	uint32_t crc = 0;
	unsigned long long size = 0;
	int err = fd < 0 ? -errno : crc_fd(fd, &crc, &size);

	if (fd > STDIN_FILENO)
		close(fd);
	if (err) {
		fprintf(stderr, "cksum: %s: %s\n", name ? name : "-", strerror(-err));
		return 1;
	}
	if (name)
		printf("%u %llu %s\n", crc, size, name);
	else
		printf("%u %llu\n", crc, size);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1, status = 0;

	crc_init();
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		fprintf(stderr,
			"cksum: invalid option -- '%c'\n"
			"Try 'cksum --help' for more information.\n",
			argv[i][1]);
		return 1;
	}
	if (i == argc)
		status = sum(NULL);
	for (; i < argc; i++)
		status |= sum(argv[i]);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "cksum: write error\n"); /* GNU cksum's words */
		return 1;
	}
	return status;
}
