/*
 * MAP_SHARED of a regular file and of a memfd: a write through the mapping reaches the file
 * (read() sees it), a write() to the file shows in the mapping, a second mapping and a forked
 * child see the same bytes, a MAP_PRIVATE mapping of the file stays copy-on-write, munmap and
 * msync keep the bytes; a page wholly past the file's end is SIGBUS and bytes written past the
 * end in the last page do not grow the file; a file cut short under its mappings makes a touch
 * past its new end SIGBUS (a private copy's too), and one grown again shows its new pages. And
 * the errors: a writable shared mapping of a
 * file not open for writing (EACCES, and mprotect's), of a write-sealed memfd (EPERM), a seal
 * against writing on a memfd mapped writable (EBUSY),
 * MAP_SHARED_VALIDATE with an unknown flag (EOPNOTSUPP), msync's EINVAL and ENOMEM.
 * Run as shmfile DIR (a fresh directory): the output has no address, the same on Linux
 * (tests/qemu/user/test_shared_memory.py compares). shmfile -map FILE says which mappings FILE
 * allows (a 9p file: no shared ones).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "show.h"

#define PAGE 4096
#define FILE_LEN (2 * PAGE + 100) /* two pages and a bit of a third */

static sigjmp_buf env;

static void on_sigbus(int sig)
{
	siglongjmp(env, sig);
}

/* Reads the byte at p, or says which signal the read raised. */
static void touch(const char *what, volatile char *p, int write)
{
	int sig = sigsetjmp(env, 1);

	if (sig) {
		printf("%s: %s\n", what, sig == SIGBUS ? "SIGBUS" : "another signal");
		return;
	}
	if (write)
		*p = 'w';
	printf("%s: ok, reads %d\n", what, *p);
}

/* The file's bytes at off, through read(). */
static void show_file(int fd, off_t off, size_t n)
{
	char buf[64] = "";

	pread(fd, buf, n, off);
	printf("  read() at %ld: \"%.*s\"\n", (long)off, (int)n, buf);
}

/* The maps line of the area at p, without its device, inode and directory (not Linux's). */
static void show_maps(void *p)
{
	char line[512], perms[8], name[256] = "";
	unsigned long start, end, off;
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %255s", &start, &end, perms, &off,
			   name) == 5 &&
		    start == (unsigned long)p)
			printf("  maps: %lu pages %s %08lx %s\n", (end - start) / PAGE, perms, off,
			       strrchr(name, '/') ? strrchr(name, '/') + 1 : name);
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	char path[512], buf[FILE_LEN];
	struct stat st;

	if (argc == 3 && !strcmp(argv[1], "-map")) {
		/* shmfile -map FILE: which mappings FILE allows (9p: no shared ones, ENODEV). */
		int f = open(argv[2], O_RDWR);
		SHOW("MAP_SHARED PROT_WRITE",
		     mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0));
		SHOW("MAP_SHARED PROT_READ", mmap(NULL, PAGE, PROT_READ, MAP_SHARED, f, 0));
		SHOW("MAP_PRIVATE PROT_WRITE",
		     mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, f, 0));
		return 0;
	}
	if (argc < 2)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGBUS, on_sigbus);
	snprintf(path, sizeof(path), "%s/shared", argv[1]);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	memset(buf, 'a', sizeof(buf));
	write(fd, buf, sizeof(buf));

	/* Four pages over a file of two and a bit: the fourth is wholly past its end. */
	char *m = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		perror("mmap MAP_SHARED");
		return 1;
	}
	show_maps(m);
	printf("the mapping reads the file: %c %c\n", m[0], m[2 * PAGE + 99]);
	memcpy(m + 10, "hello", 5);
	printf("a write through the mapping reaches the file:\n");
	show_file(fd, 10, 5);
	pwrite(fd, "world", 5, PAGE + 5);
	printf("a write() to the file shows in the mapping: \"%.5s\"\n", m + PAGE + 5);

	char *m2 = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, PAGE);
	printf("a second mapping at offset 1 page sees \"%.5s\"; ", m2 + 5);
	memcpy(m2 + 20, "second", 6);
	printf("its write shows in the first: \"%.6s\"\n", m + PAGE + 20);
	show_maps(m2);

	char *priv = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	printf("MAP_PRIVATE sees \"%.5s\"; ", priv + 10);
	memcpy(priv + 10, "PRIVY", 5);
	printf("its write stays its own: mapping \"%.5s\",", m + 10);
	show_file(fd, 10, 5);

	pid_t pid = fork();
	if (pid == 0) {
		memcpy(m + 30, "child", 5);
		memcpy(priv + 30, "CHILD", 5);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("a forked child's write through the shared mapping: \"%.5s\", ", m + 30);
	printf("and through its private copy: \"%.5s\"\n", priv + 30);
	show_file(fd, 30, 5);

	touch("the last page, in the file", m + 2 * PAGE + 50, 0);
	touch("past the end in the last page", m + 2 * PAGE + 200, 1);
	fstat(fd, &st);
	printf("  the file is still %ld bytes\n", (long)st.st_size);
	touch("the page wholly past the end", m + 3 * PAGE, 0);

	SHOW("msync MS_SYNC", msync(m, 4 * PAGE, MS_SYNC));
	SHOW("msync MS_ASYNC", msync(m, PAGE, MS_ASYNC));
	SHOW("msync MS_INVALIDATE", msync(m, PAGE, MS_INVALIDATE));
	SHOW("msync 0", msync(m, PAGE, 0));
	SHOW("msync length 0", msync(m, 0, MS_SYNC));
	SHOW("msync MS_SYNC|MS_ASYNC", msync(m, PAGE, MS_SYNC | MS_ASYNC));
	SHOW("msync unknown flag", msync(m, PAGE, 8));
	SHOW("msync unaligned", msync(m + 1, PAGE, MS_SYNC));
	SHOW("msync wrapping", msync(m, -PAGE, MS_SYNC));
	SHOW("munmap the second page", munmap(m + PAGE, PAGE));
	SHOW("msync over the hole, MS_SYNC", msync(m, 3 * PAGE, MS_SYNC));
	SHOW("msync over the hole, MS_ASYNC", msync(m, 3 * PAGE, MS_ASYNC));
	SHOW("msync from the hole, MS_ASYNC", msync(m + PAGE, 2 * PAGE, MS_ASYNC));
	SHOW("munmap all", munmap(m, 4 * PAGE));
	munmap(m2, PAGE);
	close(fd);
	fd = open(path, O_RDONLY);
	printf("after munmap and close, the file keeps the writes:\n");
	show_file(fd, 10, 5);
	show_file(fd, PAGE + 20, 6);

	/* A file open read-only: a shared mapping that may be written is refused. */
	SHOW("MAP_SHARED PROT_WRITE of a read-only file",
	     mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
	char *ro = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	SHOW("MAP_SHARED PROT_READ of a read-only file", ro == MAP_FAILED ? -1 : 0);
	show_maps(ro);
	SHOW("mprotect it PROT_WRITE", mprotect(ro, PAGE, PROT_READ | PROT_WRITE));
	SHOW("MAP_PRIVATE PROT_WRITE of a read-only file",
	     mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0));
	close(fd);
	unlink(path);

	/* Cut short under its mappings: a touch past the new end is SIGBUS, a copy's too. */
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, buf, 3 * PAGE > sizeof(buf) ? sizeof(buf) : 3 * PAGE);
	char *t = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *tp = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	t[PAGE] = 's';
	tp[PAGE] = 'p'; /* a private copy of the second page */
	SHOW("ftruncate to 100 bytes", ftruncate(fd, 100));
	touch("shared, the first page", t, 0);
	touch("shared, the page past the new end", t + PAGE, 0);
	touch("private, its copy past the new end", tp + PAGE, 0);
	touch("private, the first page", tp + 50, 0);
	touch("shared, within the first page past the end", t + 200, 0);
	/* Grown again: the mappings see the new pages, zeroes, then what is written there. */
	SHOW("ftruncate to 2 pages", ftruncate(fd, 2 * PAGE));
	touch("shared, the second page again", t + PAGE, 0);
	t[PAGE + 1] = 'g';
	show_file(fd, PAGE + 1, 1);
	touch("private, the second page again", tp + PAGE + 1, 0);
	touch("shared, the third page", t + 2 * PAGE + 5, 0);
	SHOW("pwrite into the third page", pwrite(fd, "z", 1, 2 * PAGE + 5));
	touch("shared, the third page now", t + 2 * PAGE + 5, 0);
	touch("private, the third page now", tp + 2 * PAGE + 5, 0);
	munmap(t, 3 * PAGE);
	munmap(tp, 3 * PAGE);
	close(fd);
	unlink(path);

	/* A memfd: the same sharing, and its seals. */
	int mfd = memfd_create("shm", MFD_ALLOW_SEALING);
	ftruncate(mfd, PAGE);
	char *mm = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	pid = fork();
	if (pid == 0) {
		strcpy(mm, "from the child");
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("memfd: the parent sees \"%s\"; ", mm);
	pread(mfd, buf, 14, 0);
	printf("read() sees \"%.14s\"\n", buf);
	SHOW("F_ADD_SEALS F_SEAL_WRITE while mapped writable",
	     fcntl(mfd, F_ADD_SEALS, F_SEAL_WRITE));
	munmap(mm, PAGE);
	SHOW("F_ADD_SEALS F_SEAL_WRITE", fcntl(mfd, F_ADD_SEALS, F_SEAL_WRITE));
	SHOW("MAP_SHARED PROT_WRITE of a sealed memfd",
	     mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0));
	SHOW("MAP_SHARED PROT_READ of a sealed memfd",
	     mmap(NULL, PAGE, PROT_READ, MAP_SHARED, mfd, 0));
	SHOW("MAP_SHARED_VALIDATE with an unknown flag",
	     mmap(NULL, PAGE, PROT_READ, MAP_SHARED_VALIDATE | 0x800000, mfd, 0));
	SHOW("MAP_SHARED_VALIDATE", mmap(NULL, PAGE, PROT_READ, MAP_SHARED_VALIDATE, mfd, 0));
	SHOW("MAP_SHARED of a directory",
	     mmap(NULL, PAGE, PROT_READ, MAP_SHARED, open(argv[1], O_RDONLY), 0));
	return 0;
}
