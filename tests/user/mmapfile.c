/*
 * mmap of a file, MAP_PRIVATE, as ld.so uses it for every library (kernel/mm/filemap.c): the
 * bytes at an offset, the zeroes after the file's end in its last page, SIGBUS past that page,
 * private writes, MAP_FIXED over a reservation, PROT_* honoured, mprotect and munmap of parts,
 * fork's copy, and the errors. Run as `mmapfile DIR` on Linux and in Lucid
 * (tests/qemu/trace/test_dynamic.py): the outputs must be the same.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "show.h"

#define PAGE 4096
#define FILE_PAGES 3
#define TAIL 100 /* bytes in the file's last, partial page */
#define FILE_SIZE (FILE_PAGES * PAGE + TAIL)

static sigjmp_buf env;

static void on_fault(int sig)
{
	siglongjmp(env, sig);
}

static unsigned char pattern(long i)
{
	return (unsigned char)(i * 7 + i / PAGE);
}

/* Reads (or writes) p[0]: "ok", or the signal it died of. */
static const char *touch(volatile unsigned char *p, int write)
{
	int sig = sigsetjmp(env, 1);

	if (sig)
		return sig == SIGBUS ? "SIGBUS" : sig == SIGSEGV ? "SIGSEGV" : "other";
	if (write)
		*p = 1;
	else
		(void)*p;
	return "ok";
}

/* Does [p, p + len) hold the file's bytes from off? */
static int same_as_file(const unsigned char *p, long off, long len)
{
	for (long i = 0; i < len; i++)
		if (p[i] != pattern(off + i))
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	char path[256];
	static unsigned char buf[FILE_SIZE];

	if (argc != 2)
		return 2;
	signal(SIGSEGV, on_fault);
	signal(SIGBUS, on_fault);
	snprintf(path, sizeof(path), "%s/mapped", argv[1]);
	for (long i = 0; i < FILE_SIZE; i++)
		buf[i] = pattern(i);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, FILE_SIZE) != FILE_SIZE)
		return 1;
	close(fd);
	fd = open(path, O_RDONLY);

	/* The whole file, and a page past its end. */
	unsigned char *p = mmap(NULL, (FILE_PAGES + 2) * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	SHOW("mmap whole", p == MAP_FAILED ? -1 : 0);
	printf("bytes match: %d\n", same_as_file(p, 0, FILE_SIZE));
	printf("rest of last page zero: %d\n",
	       p[FILE_SIZE] == 0 && p[(FILE_PAGES + 1) * PAGE - 1] == 0);
	printf("read past the end's page: %s\n", touch(p + (FILE_PAGES + 1) * PAGE, 0));
	printf("write to PROT_READ: %s\n", touch(p, 1));
	SHOW("mprotect middle PROT_NONE", mprotect(p + PAGE, PAGE, PROT_NONE));
	printf("read PROT_NONE page: %s, neighbours: %s %s\n", touch(p + PAGE, 0), touch(p, 0),
	       touch(p + 2 * PAGE, 0));
	SHOW("mprotect middle back", mprotect(p + PAGE, PAGE, PROT_READ | PROT_WRITE));
	printf("middle still the file's: %d, writable: %s\n", same_as_file(p + PAGE, PAGE, PAGE),
	       touch(p + PAGE, 1));
	SHOW("munmap first page", munmap(p, PAGE));
	printf("read unmapped: %s, next: %s\n", touch(p, 0), touch(p + 2 * PAGE, 0));
	SHOW("munmap rest", munmap(p + PAGE, (FILE_PAGES + 1) * PAGE));

	/* At an offset, written privately: the file does not change. */
	p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, PAGE);
	SHOW("mmap at offset", p == MAP_FAILED ? -1 : 0);
	printf("offset bytes match: %d\n", same_as_file(p, PAGE, 2 * PAGE));
	memset(p, 0xab, 10);
	fflush(stdout); /* what is buffered is printed once, not by both */
	pid_t pid = fork();
	if (pid == 0) {
		/* The child sees the parent's private writes; its own stay its own. */
		printf("child sees 0x%x\n", p[0]);
		p[0] = 0xcd;
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("parent keeps 0x%x\n", p[0]);
	unsigned char c = 0;
	long n = (long)pread(fd, &c, 1, PAGE);
	printf("pread after private write: %ld 0x%x (file's 0x%x)\n", n, c, pattern(PAGE));
	munmap(p, 2 * PAGE);

	/* ld.so's way: reserve, then MAP_FIXED a segment over the middle. */
	unsigned char *r = mmap(NULL, 4 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	p = mmap(r + PAGE, 2 * PAGE, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED, fd, 2 * PAGE);
	printf("MAP_FIXED at the address asked: %d\n", p == r + PAGE);
	printf("fixed bytes match: %d (%d zeroes after)\n", same_as_file(p, 2 * PAGE, PAGE + TAIL),
	       p[PAGE + TAIL] == 0);
	printf("reservation around it: %s %s\n", touch(r, 0), touch(r + 3 * PAGE, 0));
	munmap(r, 4 * PAGE);

	/* Errors, in Linux's order. */
	SHOW("length 0", mmap(NULL, 0, PROT_READ, MAP_PRIVATE, fd, 0));
	SHOW("offset not page-aligned", mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, 100));
	SHOW("no type", mmap(NULL, PAGE, PROT_READ, 0, fd, 0));
	SHOW("closed fd", mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, 99, 0));
	int wfd = open(path, O_WRONLY);
	SHOW("write-only fd", mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, wfd, 0));
	close(wfd);
	int pfd[2];
	pipe(pfd);
	SHOW("pipe", mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, pfd[0], 0));
	int dfd = open(argv[1], O_RDONLY | O_DIRECTORY);
	SHOW("directory", mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, dfd, 0));
	close(fd);
	unlink(path);
	return 0;
}
