/*
 * mremap as Linux 6.1 does it: a private mapping grown in place (its bytes kept, the new pages
 * zero), shrunk, grown where it cannot be without MREMAP_MAYMOVE (ENOMEM) and with it (moved,
 * the old range unmapped), moved to a chosen address with MREMAP_FIXED (replacing what was
 * there), and with MREMAP_DONTUNMAP (the old range left mapped and empty: zeroes for private
 * memory, the same pages for shared memory). Shared anonymous memory moved by a child stays
 * shared with its parent; grown past its object, the new pages are SIGBUS; old_len 0 maps it
 * a second time. A file mapping grown in place maps more of the file. And the errors: EINVAL,
 * EFAULT, ENOMEM. The output has no address: the same on Linux
 * (tests/qemu/user/test_shared_memory.py compares).
 */
#define _GNU_SOURCE
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

static sigjmp_buf env;

static void on_signal(int sig)
{
	siglongjmp(env, sig);
}

/* What reading the byte at p gives: its value, or the signal. */
static void touch(const char *what, volatile char *p)
{
	int sig = sigsetjmp(env, 1);

	if (sig) {
		printf("%s: %s\n", what, sig == SIGBUS ? "SIGBUS" : "SIGSEGV"); /* the two caught */
		return;
	}
	printf("%s: %d\n", what, *p);
}

/* Is [p, p + len) mapped? msync answers ENOMEM for a range with a hole. */
static const char *mapped(void *p, size_t len)
{
	return msync(p, len, 0) == 0 ? "mapped" : "not mapped";
}

/* Reserves n pages (then unmapped where asked) so that the next mremap has known room. */
static char *area(size_t pages, int flags)
{
	char *p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS, -1, 0);

	for (size_t i = 0; i < pages; i++)
		p[i * PAGE] = (char)(i + 1);
	return p;
}

static void say(const char *what, void *got, void *want)
{
	if (got == MAP_FAILED)
		printf("%s: -1 %s\n", what, strerror(errno));
	else
		printf("%s: %s\n", what, got == want ? "at the address expected" : "elsewhere");
}

static void private_memory(void)
{
	/* Four pages, the last two unmapped: room to grow into. */
	char *p = area(4, MAP_PRIVATE);
	munmap(p + 2 * PAGE, 2 * PAGE);
	say("grow 2 -> 4 pages in place", mremap(p, 2 * PAGE, 4 * PAGE, 0), p);
	printf("  bytes kept: %d %d, new page: %d\n", p[0], p[PAGE], p[2 * PAGE]);
	say("shrink 4 -> 1 page", mremap(p, 4 * PAGE, PAGE, 0), p);
	printf("  the rest is %s\n", mapped(p + PAGE, 3 * PAGE));
	say("the same length", mremap(p, PAGE, PAGE, 0), p);

	/* A neighbour in the way. */
	char *guard =
		mmap(p + PAGE, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	say("grow against a neighbour, no MAYMOVE", mremap(p, PAGE, 3 * PAGE, 0), p);
	p[0] = 42;
	char *q = mremap(p, PAGE, 3 * PAGE, MREMAP_MAYMOVE);
	say("grow with MREMAP_MAYMOVE", q, p);
	printf("  moved: %s; byte kept: %d; old place %s; neighbour %s\n", q != p ? "yes" : "no",
	       q[0], mapped(p, PAGE), mapped(guard, PAGE));

	/* MREMAP_FIXED onto a mapping: it is replaced. */
	char *target = area(2, MAP_PRIVATE);
	say("MREMAP_FIXED onto another mapping",
	    mremap(q, 3 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, target), target);
	printf("  target now reads %d (was 1), old place %s\n", target[0], mapped(q, PAGE));

	/* MREMAP_DONTUNMAP: the old range stays, empty. */
	target[PAGE] = 7;
	char *d = mremap(target, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP);
	say("MREMAP_DONTUNMAP", d, target);
	printf("  new: %d %d; old place %s, reads %d %d\n", d[0], d[PAGE], mapped(target, 2 * PAGE),
	       target[0], target[PAGE]);
	munmap(d, 2 * PAGE);
	munmap(target, 2 * PAGE);
	munmap(guard, PAGE);
}

static void shared_memory(void)
{
	char *s = area(2, MAP_SHARED);
	pid_t pid = fork();

	if (pid == 0) {
		/* The child moves its mapping; it still shares the pages with its parent. */
		char *t =
			mremap(s, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
			       mmap(NULL, 2 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
		t[0] = 'c';
		t[PAGE] = 'C';
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("shared: the parent sees the moved child's writes: %c %c\n", s[0], s[PAGE]);

	char *dup = mremap(s, 0, 2 * PAGE, MREMAP_MAYMOVE);
	say("old_len 0 on shared memory: a second mapping", dup, s);
	dup[1] = 'd';
	printf("  the first sees its write: %c\n", s[1]);

	char *d = mremap(s, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP);
	say("MREMAP_DONTUNMAP of shared memory", d, s);
	d[2] = 'x';
	printf("  the old place still maps the same pages: %c %c\n", s[0], s[2]);

	char *g = mremap(d, 2 * PAGE, 4 * PAGE, MREMAP_MAYMOVE);
	say("grow shared memory past its size", g, d);
	touch("  a page of it", g + PAGE);
	touch("  a page past it", g + 3 * PAGE);
	munmap(g, 4 * PAGE);
	munmap(dup, 2 * PAGE);
	munmap(s, 2 * PAGE);
}

static void file_mapping(const char *dir)
{
	char path[512], buf[3 * PAGE];
	snprintf(path, sizeof(path), "%s/remapped", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	memset(buf, 'f', sizeof(buf));
	write(fd, buf, sizeof(buf));
	char *r = mmap(NULL, 4 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *f = mmap(r, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
	munmap(r + PAGE, 3 * PAGE);
	say("grow a shared file mapping in place", mremap(f, PAGE, 3 * PAGE, 0), f);
	printf("  the file's bytes: %c %c\n", f[PAGE], f[2 * PAGE]);
	f[2 * PAGE] = 'W';
	pread(fd, buf, 1, 2 * PAGE);
	printf("  a write in the new part reaches the file: %c\n", buf[0]);
	char *m = mremap(f, 3 * PAGE, 3 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
			 mmap(NULL, 3 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	m[PAGE] = 'M';
	pread(fd, buf, 1, PAGE);
	printf("  moved, a write reaches the file: %c\n", buf[0]);
	munmap(m, 3 * PAGE);
	close(fd);
	unlink(path);
}

static void errors(void)
{
	char *p = area(2, MAP_PRIVATE);
	char *hole = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(hole, PAGE);
	SHOW("unknown flag", mremap(p, PAGE, PAGE, 8));
	SHOW("MREMAP_FIXED without MAYMOVE", mremap(p, PAGE, PAGE, MREMAP_FIXED, hole));
	SHOW("MREMAP_DONTUNMAP without MAYMOVE", mremap(p, PAGE, PAGE, MREMAP_DONTUNMAP));
	SHOW("MREMAP_DONTUNMAP, two lengths",
	     mremap(p, PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP));
	SHOW("unaligned address", mremap(p + 1, PAGE, PAGE, 0));
	SHOW("new length 0", mremap(p, PAGE, 0, 0));
	SHOW("old length 0, private", mremap(p, 0, PAGE, MREMAP_MAYMOVE));
	SHOW("no mapping there", mremap(hole, PAGE, PAGE, 0));
	SHOW("no mapping there, shrinking", mremap(hole, 2 * PAGE, PAGE, 0));
	SHOW("old length past the area", mremap(p, 3 * PAGE, 4 * PAGE, MREMAP_MAYMOVE));
	SHOW("MREMAP_FIXED unaligned",
	     mremap(p, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, (char *)hole + 1));
	SHOW("MREMAP_FIXED overlapping",
	     mremap(p, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, p + PAGE));
	SHOW("MREMAP_FIXED past the user half",
	     mremap(p, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)0x7ffffffff000UL));
	SHOW("huge, no MAYMOVE", mremap(p, 2 * PAGE, 1UL << 46, 0));
	munmap(p, 2 * PAGE);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGBUS, on_signal);
	signal(SIGSEGV, on_signal);
	private_memory();
	shared_memory();
	file_mapping(argv[1]);
	errors();
	return 0;
}
