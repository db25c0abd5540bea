/*
 * mmap(MAP_PRIVATE) of a file: the mapping shows the file's bytes (zeroes after its end in the
 * last page), from a page-aligned offset; a write to it is the process's own and the file keeps
 * its bytes; a write to the file shows in a page the process has not written (Linux maps its
 * page cache, Lucid ramfs's pages); and the errors: a descriptor not open for reading
 * (EACCES), a bad one (EBADF), a directory (ENODEV), an offset not page-aligned (EINVAL). A
 * mapped file, unlike a running program, may still be opened for writing. The output has no
 * addresses: the same on Linux (tests/qemu/user/test_user_memory.py compares). argv[1]: a
 * directory to make the file in.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096
#define SIZE (3 * PAGE + 100)

static char buf[SIZE];

static void try_map(const char *what, int fd, off_t off)
{
	void *p = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, off);

	printf("%s: %s\n", what, p == MAP_FAILED ? strerror(errno) : "mapped");
	if (p != MAP_FAILED)
		munmap(p, PAGE);
}

int main(int argc, char **argv)
{
	char path[256];
	char byte;

	if (argc < 2)
		return 2;
	snprintf(path, sizeof(path), "%s/mapped", argv[1]);
	for (int i = 0; i < SIZE; i++)
		buf[i] = (char)(i * 7 + i / PAGE);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, buf, SIZE) != SIZE) {
		perror(path);
		return 1;
	}
	char *all = mmap(NULL, 4 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	char *mid = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, PAGE);

	if (all == MAP_FAILED || mid == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	printf("the file's bytes: %s\n", memcmp(all, buf, SIZE) ? "DIFFER" : "yes");
	int zero = 1;
	for (int i = SIZE; i < 4 * PAGE; i++)
		zero &= all[i] == 0;
	printf("after its end, in the last page: %s\n", zero ? "zeroes" : "NOT ZERO");
	printf("from offset %d: %s\n", PAGE, memcmp(mid, buf + PAGE, 2 * PAGE) ? "DIFFER" : "yes");
	mid[10] = 'x';
	pread(fd, &byte, 1, PAGE + 10);
	printf("written in the mapping: %c, in the file: %s, in the other mapping: %s\n", mid[10],
	       byte == buf[PAGE + 10] ? "unchanged" : "CHANGED",
	       all[PAGE + 10] == buf[PAGE + 10] ? "unchanged" : "CHANGED");
	pwrite(fd, "y", 1, 2 * PAGE + 5);
	printf("written to the file: a page not written in the mapping shows it: %s\n",
	       mid[PAGE + 5] == 'y' ? "yes" : "no");
	pwrite(fd, "z", 1, PAGE + 11);
	printf("the page written in the mapping does not: %s\n", mid[11] == 'z' ? "no" : "yes");
	munmap(all, 4 * PAGE);

	int wfd = open(path, O_WRONLY);
	printf("open for writing while mapped: %s\n", wfd < 0 ? strerror(errno) : "ok");
	try_map("not open for reading", wfd, 0);
	try_map("a bad descriptor", 99, 0);
	int dfd = open(argv[1], O_RDONLY | O_DIRECTORY);
	try_map("a directory", dfd, 0);
	try_map("an offset inside a page", fd, 100);
	try_map("past the file's end", fd, 8 * PAGE);
	munmap(mid, 2 * PAGE);
	unlink(path);
	return 0;
}
