/*
 * memfd_create and its seals, judged against Linux (tests/qemu/user/test_fd_events.py): the flags'
 * and name's errors, the file it makes (a regular file, read/write/lseek/ftruncate/fstat, its
 * /proc/self/fd name, a private mapping of it, reopened through /proc/self/fd), and each seal:
 * F_SEAL_SHRINK, F_SEAL_GROW (a write past the end stopped at a page), F_SEAL_WRITE,
 * F_SEAL_FUTURE_WRITE, F_SEAL_SEAL, and a memfd made without MFD_ALLOW_SEALING.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif
#define PAGE 4096
#define BAD_SEAL 0x100 /* no seal has this bit */

static void show(const char *what, long ret)
{
	printf("%s = %ld%s%s\n", what, ret < 0 ? -1L : ret, ret < 0 ? " " : "",
	       ret < 0 ? strerror(errno) : "");
}

static int memfd(const char *name, unsigned int flags)
{
	return (int)syscall(SYS_memfd_create, name, flags);
}

static long size_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : (long)st.st_size;
}

int main(void)
{
	char name[300], buf[PAGE * 2], link[64], target[128] = "";
	struct stat st;
	int fd, ro;

	setvbuf(stdout, NULL, _IONBF, 0);
	show("memfd_create(bad flags)", memfd("x", 0x100));
	show("memfd_create(name fault)", memfd((const char *)8, 0));
	memset(name, 'a', sizeof(name));
	name[249] = '\0';
	fd = memfd(name, 0);
	printf("249-byte name: %s\n", fd >= 0 ? "ok" : strerror(errno));
	close(fd);
	name[249] = 'a';
	name[250] = '\0';
	show("memfd_create(250-byte name)", memfd(name, 0));

	fd = memfd("demo", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	fstat(fd, &st);
	printf("mode %o size %ld nlink %lu\n", st.st_mode, (long)st.st_size,
	       (unsigned long)st.st_nlink);
	printf("F_GETFL %#o F_GETFD %d\n", fcntl(fd, F_GETFL), fcntl(fd, F_GETFD));
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	readlink(link, target, sizeof(target) - 1);
	printf("link %s\n", target);
	show("write", write(fd, "hello, memfd\n", 13));
	show("lseek(0)", lseek(fd, 0, SEEK_SET));
	memset(buf, 0, sizeof(buf));
	show("read", read(fd, buf, sizeof(buf)));
	printf("read back: %s", buf);
	show("ftruncate(PAGE + 10)", ftruncate(fd, PAGE + 10));
	printf("size %ld\n", size_of(fd));
	char *map = mmap(NULL, PAGE * 2, PROT_READ, MAP_PRIVATE, fd, 0);
	printf("private mapping: %.5s, past the data %d\n", map == MAP_FAILED ? "fail" : map,
	       map == MAP_FAILED ? -1 : map[PAGE + 5]);
	munmap(map, PAGE * 2);
	ro = open(link, O_RDONLY);
	memset(buf, 0, sizeof(buf));
	show("reopened O_RDONLY, read", read(ro, buf, 5));
	printf("reopened reads: %s\n", buf);

	show("F_GET_SEALS", fcntl(fd, F_GET_SEALS));
	show("F_ADD_SEALS(bad bit)", fcntl(fd, F_ADD_SEALS, BAD_SEAL));
	show("F_ADD_SEALS(read-only fd)", fcntl(ro, F_ADD_SEALS, F_SEAL_SHRINK));
	show("F_GET_SEALS(read-only fd)", fcntl(ro, F_GET_SEALS));
	show("F_ADD_SEALS(SHRINK)", fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK));
	show("ftruncate(smaller)", ftruncate(fd, 10));
	show("ftruncate(same)", ftruncate(fd, PAGE + 10));
	show("ftruncate(larger)", ftruncate(fd, 3 * PAGE));
	show("F_ADD_SEALS(GROW)", fcntl(fd, F_ADD_SEALS, F_SEAL_GROW));
	show("F_GET_SEALS", fcntl(fd, F_GET_SEALS));
	show("ftruncate(larger)", ftruncate(fd, 4 * PAGE));
	show("pwrite(inside)", pwrite(fd, "abc", 3, 100));
	show("pwrite(at the end)", pwrite(fd, "abc", 3, 3 * PAGE));
	show("pwrite(across the end)", pwrite(fd, "abcdef", 6, 3 * PAGE - 3));
	memset(buf, 'x', sizeof(buf));
	show("pwrite(2 pages from PAGE + 5)", pwrite(fd, buf, 2 * PAGE, PAGE + 5));
	printf("size %ld\n", size_of(fd));
	show("F_ADD_SEALS(WRITE)", fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE));
	show("pwrite(sealed)", pwrite(fd, "abc", 3, 0));
	show("write(0 bytes, sealed)", write(fd, "", 0));
	show("pread(sealed)", pread(fd, buf, 3, 100));
	printf("still reads: %.3s\n", buf);
	show("F_ADD_SEALS(SEAL)", fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL));
	show("F_ADD_SEALS(after SEAL)", fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK));
	show("F_GET_SEALS", fcntl(fd, F_GET_SEALS));
	close(ro);
	close(fd);

	fd = memfd("future", MFD_ALLOW_SEALING);
	write(fd, "abc", 3);
	show("F_ADD_SEALS(FUTURE_WRITE)", fcntl(fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE));
	show("write(future-sealed)", write(fd, "d", 1));
	show("ftruncate(future-sealed)", ftruncate(fd, 1));
	close(fd);

	fd = memfd("nosealing", 0);
	show("F_GET_SEALS(no MFD_ALLOW_SEALING)", fcntl(fd, F_GET_SEALS));
	show("F_ADD_SEALS(no MFD_ALLOW_SEALING)", fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE));
	printf("F_GETFD %d\n", fcntl(fd, F_GETFD));
	close(fd);

	int p[2];
	pipe(p);
	show("F_GET_SEALS(a pipe)", fcntl(p[0], F_GET_SEALS));
	show("F_ADD_SEALS(a pipe's write end)", fcntl(p[1], F_ADD_SEALS, F_SEAL_WRITE));
	show("F_ADD_SEALS(a pipe's read end)", fcntl(p[0], F_ADD_SEALS, F_SEAL_WRITE));
	show("F_GET_SEALS(bad fd)", fcntl(99, F_GET_SEALS));
	return 0;
}
