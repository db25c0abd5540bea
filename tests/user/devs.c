/*
 * The memory devices from a user program: /dev/null, /dev/zero, /dev/full, /dev/random and
 * /dev/urandom, read, written, seeked and stat'ed. Prints only what is the same on every run
 * (not the random bytes themselves), for tests/qemu/user/test_syscalls.py to compare with Linux.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RANDOM_BYTES 32

static void step(const char *what, long ret)
{
	printf("%s: %ld%s%s\n", what, ret, ret < 0 ? " " : "", ret < 0 ? strerror(errno) : "");
}

static void random_dev(const char *path)
{
	unsigned char a[RANDOM_BYTES], b[RANDOM_BYTES];
	struct stat st;
	int fd = open(path, O_RDWR), zeros = 0;

	printf("%s\n", path);
	step("open", fd >= 0 ? 0 : -1);
	step("fstat chr", fstat(fd, &st) ? -1 : S_ISCHR(st.st_mode));
	printf("mode: 0%o\n", st.st_mode & 0777);
	step("read", read(fd, a, sizeof(a)));
	step("read again", read(fd, b, sizeof(b)));
	step("two reads differ", memcmp(a, b, sizeof(a)) != 0);
	for (size_t i = 0; i < sizeof(a); i++)
		zeros += !a[i];
	step("not all zero", zeros < RANDOM_BYTES);
	step("lseek", lseek(fd, 100, SEEK_SET));
	step("pread", pread(fd, a, 8, 0));
	step("write", write(fd, "seed", 4));
	close(fd);
}

int main(void)
{
	char buf[8] = "xxxxxxx";
	int fd;

	setvbuf(stdout, NULL, _IONBF, 0);
	fd = open("/dev/null", O_RDWR);
	step("null write", write(fd, "gone", 4));
	step("null read", read(fd, buf, sizeof(buf)));
	step("null lseek", lseek(fd, 42, SEEK_SET));
	step("null pwrite", pwrite(fd, "x", 1, 7));
	close(fd);
	fd = open("/dev/zero", O_RDONLY);
	step("zero read", read(fd, buf, 4));
	printf("zeros=%d%d%d%d%c\n", buf[0], buf[1], buf[2], buf[3], buf[4]);
	step("zero lseek", lseek(fd, 4096, SEEK_CUR));
	step("zero pread", pread(fd, buf, 2, 99));
	close(fd);
	fd = open("/dev/full", O_WRONLY);
	step("full write", write(fd, "x", 1));
	close(fd);
	random_dev("/dev/urandom");
	random_dev("/dev/random");
	return 0;
}
