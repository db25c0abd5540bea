/*
 * Big reads and writes, as Linux answers them: one read of /dev/zero or
 * /dev/urandom fills the whole count, a write or read of a regular file (in DIR: /tmp, or the
 * 9p share) moves it all in one call, a count larger than the buffer is Linux's answer
 * (MAX_RW_COUNT from /dev/null, which never looks at the bytes; EFAULT for a range that
 * reaches the kernel half; the bytes up to the first unmapped page otherwise), and readv/writev
 * with a bad iovec are EFAULT. Prints only what is the same on every run, for
 * tests/qemu/user/test_syscalls.py and test_hostshare.py to compare with the host.
 *
 * Usage: bigrw DIR
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define MIB (1024 * 1024)
#define PAGE 4096
#define DD_BS (64 * 1024) /* dd bs=64k count=100, the example */
#define DD_COUNT 100
#define HUGE_COUNT (1UL << 40) /* more than anybody has mapped */
#define KERNEL_COUNT (1UL << 47) /* from any user address, this reaches the kernel half */

static char buf[2 * MIB]; /* in .bss: a low address, so buf + HUGE_COUNT is still user space */

static void step(const char *what, long ret)
{
	printf("%s: %ld%s%s\n", what, ret, ret < 0 ? " " : "", ret < 0 ? strerror(errno) : "");
}

static int all_zero(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i])
			return 0;
	}
	return 1;
}

/* Two mapped pages followed by an unmapped one: a buffer that ends early. */
static char *short_buffer(void)
{
	char *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	memset(p, 'm', 2 * PAGE);
	munmap(p + 2 * PAGE, PAGE);
	return p;
}

static void char_devices(char *shortbuf)
{
	int zero = open("/dev/zero", O_RDWR), null = open("/dev/null", O_RDWR);
	int full = open("/dev/full", O_WRONLY), urandom = open("/dev/urandom", O_RDWR);
	int random = open("/dev/random", O_RDONLY);

	memset(buf, 'x', MIB);
	step("zero read 1MiB", read(zero, buf, MIB));
	step("all zero", all_zero(buf, MIB));
	step("zero read 1MiB+1", read(zero, buf, MIB + 1));
	step("urandom read 1MiB", read(urandom, buf, MIB));
	step("random read 1MiB", read(random, buf, MIB));
	step("urandom read 100000", read(urandom, buf, 100000));
	/* A buffer whose third page is not mapped: the two pages, as Linux's read_zero. */
	step("zero read past the mapping", read(zero, shortbuf, 3 * PAGE));
	step("urandom read past the mapping", read(urandom, shortbuf, 3 * PAGE));
	step("zero read into the kernel half", read(zero, shortbuf, KERNEL_COUNT));
	/* /dev/null and /dev/zero never look at what is written; /dev/full refuses it all. */
	step("null write 1<<40", write(null, buf, HUGE_COUNT));
	step("zero write 1<<40", write(zero, buf, HUGE_COUNT));
	step("null write unmapped", write(null, shortbuf + 2 * PAGE, 100));
	step("full write unmapped", write(full, shortbuf + 2 * PAGE, 100));
	step("null write into the kernel half", write(null, shortbuf, KERNEL_COUNT));
	step("null read 1<<40", read(null, buf, HUGE_COUNT));
	step("urandom write past the mapping", write(urandom, shortbuf, 3 * PAGE));
	/* The descriptor is looked at before the buffer: EBADF, not EFAULT. */
	step("read closed fd, kernel buffer", read(99, (void *)-PAGE, 10));
	step("read closed fd, 1<<47", read(99, buf, KERNEL_COUNT));
	step("write closed fd, unmapped", write(99, shortbuf + 2 * PAGE, 10));
	step("write O_RDONLY fd, unmapped", write(random, shortbuf + 2 * PAGE, 10));
	step("write O_RDONLY fd, 1<<47", write(random, buf, KERNEL_COUNT));
	step("read O_WRONLY fd, kernel buffer", read(full, (void *)-PAGE, 10));
	close(zero);
	close(null);
	close(full);
	close(urandom);
	close(random);
}

static void vectors(char *shortbuf)
{
	int null = open("/dev/null", O_WRONLY), zero = open("/dev/zero", O_RDONLY);
	struct iovec kernel[2] = {{buf, 10}, {(void *)-PAGE, 10}};
	struct iovec big[2] = {{buf, MIB}, {buf + MIB, MIB}};
	struct iovec past[1] = {{shortbuf, 3 * PAGE}};
	struct iovec negative[1] = {{buf, (size_t)-1}};

	step("writev bad vector", writev(null, (struct iovec *)8, 2));
	step("writev kernel iov_base", writev(null, kernel, 2));
	step("readv kernel iov_base", readv(zero, kernel, 2));
	step("readv zero 2MiB", readv(zero, big, 2));
	step("writev null 2MiB", writev(null, big, 2));
	step("readv zero past the mapping", readv(zero, past, 1));
	step("writev negative length", writev(null, negative, 1));
	step("writev 1025 vectors", writev(null, big, 1025));
	step("writev closed fd, kernel iov_base", writev(99, kernel, 2));
	close(null);
	close(zero);
}

static void regular_file(const char *dir, char *shortbuf)
{
	char path[256];
	struct stat st;
	long total = 0;
	int fd, zero = open("/dev/zero", O_RDONLY);

	snprintf(path, sizeof(path), "%s/bigrw.dat", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	step("open", fd >= 0 ? 0 : -1);
	for (size_t i = 0; i < MIB; i++)
		buf[i] = (char)(i * 7 + i / 4096);
	step("write 1MiB", write(fd, buf, MIB));
	step("lseek", lseek(fd, 0, SEEK_SET));
	memset(buf + MIB, 0, MIB);
	step("read 1MiB+1", read(fd, buf + MIB, MIB + 1));
	step("same bytes", memcmp(buf, buf + MIB, MIB) == 0);
	step("pread 1MiB at 4", pread(fd, buf + MIB, MIB, 4));
	step("pwrite 1MiB at 2MiB", pwrite(fd, buf, MIB, 2 * MIB));
	step("fstat", fstat(fd, &st) ? -1 : st.st_size);
	/* dd if=/dev/zero of=FILE bs=64k count=100: each read a whole block, each write too. */
	step("ftruncate", ftruncate(fd, 0));
	step("lseek", lseek(fd, 0, SEEK_SET));
	for (int i = 0; i < DD_COUNT; i++) {
		long r = read(zero, buf, DD_BS), w = r > 0 ? write(fd, buf, (size_t)r) : -1;

		if (r != DD_BS || w != DD_BS) {
			step("short dd block read", r);
			step("short dd block write", w);
			break;
		}
		total += w;
	}
	step("dd total", total);
	step("fstat", fstat(fd, &st) ? -1 : st.st_size);
	/* From a buffer that ends early: the bytes before the hole, as Linux's copy stops. */
	step("write past the mapping", write(fd, shortbuf, 3 * PAGE));
	step("write into the kernel half", write(fd, shortbuf, KERNEL_COUNT));
	step("lseek", lseek(fd, 0, SEEK_SET));
	step("read past the mapping", read(fd, shortbuf, 3 * PAGE));
	step("position after it", lseek(fd, 0, SEEK_CUR));
	step("pread past the mapping", pread(fd, shortbuf + 100, 3 * PAGE, 0));
	close(fd);
	close(zero);
	step("unlink", unlink(path));
}

int main(int argc, char **argv)
{
	char *shortbuf = short_buffer();

	if (argc != 2) {
		fprintf(stderr, "usage: bigrw DIR\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	char_devices(shortbuf);
	vectors(shortbuf);
	regular_file(argv[1], shortbuf);
	return 0;
}
