/*
 * Shared anonymous memory, as test harnesses and servers use it to share results with their
 * forked children: mmap(MAP_SHARED|MAP_ANONYMOUS) and mmap(MAP_SHARED) of /dev/zero. A write by
 * the parent or by any child (a grandchild too) is seen by all, before and after the fork;
 * four children adding to one counter leave the exact sum; a private mapping beside it stays
 * copy-on-write; munmap of a middle page, mprotect, and /proc/self/maps and smaps show the
 * areas as Linux's ("/dev/zero (deleted)", 's'). The output has no address or inode number:
 * the same on Linux (tests/qemu/user/test_shared_memory.py compares). With a count N it maps,
 * touches and shares N MiB, for the test's MemFree check.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include "show.h"

#define PAGE 4096
#define CHILDREN 4
#define ADDS 1000

/* Waits for the child and says how it ended. */
static void reap(const char *who, pid_t pid)
{
	int status;

	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		printf("%s: child ended badly (%#x)\n", who, status);
}

/*
 * The maps line of the area at p: its permissions, offset, device (if dev) and name, not the
 * inode number.
 */
static void show_maps_dev(const char *file, void *p, int dev_too)
{
	char line[512], perms[8], dev[16], name[256];
	unsigned long start, end, off, ino;
	FILE *f = fopen(file, "r");

	while (f && fgets(line, sizeof(line), f)) {
		name[0] = '\0';
		if (sscanf(line, "%lx-%lx %7s %lx %15s %lu %255[^\n]", &start, &end, perms, &off,
			   dev, &ino, name) < 6 ||
		    start != (unsigned long)p)
			continue;
		printf("  %s: %lu pages %s %08lx %s ino %s %s\n", file, (end - start) / PAGE, perms,
		       off, dev_too ? dev : "-",
		       !dev_too ? "-"
		       : ino	? "set"
				: "0",
		       name);
	}
	if (f)
		fclose(f);
}

static void show_maps(const char *file, void *p)
{
	show_maps_dev(file, p, 1);
}

/* Some of smaps's lines for the area at p: what its pages count as. */
static void show_smaps(void *p)
{
	static const char *const want[] = {
		"Size:",	 "Rss:",	   "Pss:",	     "Shared_Clean:",
		"Shared_Dirty:", "Private_Clean:", "Private_Dirty:", "Anonymous:"};
	char line[512], key[64];
	unsigned long start, end, kb;
	int in = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2) { /* an area's first line */
			in = start == (unsigned long)p;
			continue;
		}
		if (!in || sscanf(line, "%63s %lu kB", key, &kb) != 2)
			continue;
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
			if (!strcmp(key, want[i]))
				printf("  smaps %s %lu kB\n", key, kb);
	}
	if (f)
		fclose(f);
}

/* A line of /proc/self/status, in kB. */
static long status_kb(const char *key)
{
	char line[256];
	long kb = -1;
	size_t n = strlen(key);
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			kb = atol(line + n + 1);
	if (f)
		fclose(f);
	return kb;
}

/* Parent and children share p: each sees the other's writes, before and after fork. */
static void share(const char *what, char *p)
{
	int go[2];
	pid_t pid;

	printf("%s:\n", what);
	p[0] = 'P';
	pipe(go);
	pid = fork();
	if (pid == 0) {
		char c;

		printf("  child sees the parent's write before fork: %c\n", p[0]);
		p[1] = 'C';
		pid_t grand = fork();
		if (grand == 0) {
			p[PAGE] = 'G'; /* a page nobody touched yet */
			_exit(0);
		}
		reap("child", grand);
		read(go[0], &c, 1); /* the parent writes after the fork */
		printf("  child sees the parent's write after fork: %c\n", p[2]);
		fflush(stdout);
		_exit(0);
	}
	usleep(1000);
	p[2] = 'A';
	write(go[1], "x", 1);
	reap("parent", pid);
	printf("  parent sees the child's %c and the grandchild's %c\n", p[1], p[PAGE]);
	close(go[0]);
	close(go[1]);
}

/* CHILDREN children add 1 ADDS times each to one counter: the sum is exact. */
static void count(long *counter)
{
	pid_t pids[CHILDREN];

	*counter = 0;
	for (int i = 0; i < CHILDREN; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			for (int j = 0; j < ADDS; j++)
				__atomic_add_fetch(counter, 1, __ATOMIC_SEQ_CST);
			_exit(0);
		}
	}
	for (int i = 0; i < CHILDREN; i++)
		reap("count", pids[i]);
	printf("counter: %ld (want %d)\n", *counter, CHILDREN * ADDS);
}

/*
 * CHILDREN children touch every page of fresh shared memory at once, each writing its own byte
 * in each page: two first touches of one page on two CPUs must end with one page for both, so
 * every byte is there at the end.
 */
static void race(void)
{
	size_t pages = 256, missing = 0;
	char *p =
		mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pids[CHILDREN];

	for (int i = 0; i < CHILDREN; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			for (size_t pg = 0; pg < pages; pg++)
				p[pg * PAGE + i] = (char)(i + 1);
			_exit(0);
		}
	}
	for (int i = 0; i < CHILDREN; i++)
		reap("race", pids[i]);
	for (size_t pg = 0; pg < pages; pg++)
		for (int i = 0; i < CHILDREN; i++)
			missing += p[pg * PAGE + i] != i + 1;
	printf("racing first touches: %zu of %zu writes missing\n", missing, pages * CHILDREN);
	munmap(p, pages * PAGE);
}

/* smaps of a shared page both map (Shared), one only the parent maps (Private), both dirty. */
static void counted(char *p)
{
	int go[2], done[2];
	char c;

	printf("smaps, a page shared with a child and one not:\n");
	p[0] = 1;
	p[PAGE] = 1;
	pipe(go);
	pipe(done);
	pid_t pid = fork();
	if (pid == 0) {
		p[0] = 2; /* maps the first page in the child too */
		write(done[1], "x", 1);
		read(go[0], &c, 1);
		_exit(0);
	}
	read(done[0], &c, 1);
	show_smaps(p);
	write(go[1], "x", 1);
	reap("smaps", pid);
	printf("after the child exits:\n");
	show_smaps(p);
}

/* A private mapping beside it stays the process's own: copy-on-write. */
static void private_stays(const char *what, char *q)
{
	q[0] = 'p';
	pid_t pid = fork();
	if (pid == 0) {
		q[0] = 'c';
		_exit(0);
	}
	reap("private", pid);
	printf("%s after the child's write: %c\n", what, q[0]);
}

/* Maps, touches and shares mib MiB with a child, then lets it all go (the MemFree test). */
static int big(int mib)
{
	size_t len = (size_t)mib << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long sum = 0;

	if (p == MAP_FAILED)
		return 1;
	pid_t pid = fork();
	if (pid == 0) {
		for (size_t i = 0; i < len; i += 2 * PAGE)
			p[i] = 1; /* the even pages */
		_exit(0);
	}
	reap("big", pid);
	for (size_t i = PAGE; i < len; i += 2 * PAGE)
		p[i] = 1; /* the odd ones */
	for (size_t i = 0; i < len; i += PAGE)
		sum += p[i];
	printf("big: %ld of %zu pages written\n", sum, len / PAGE);
	return munmap(p, len) != 0;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return big(atoi(argv[1]));
	setvbuf(stdout, NULL, _IOLBF, 0);

	char *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap MAP_SHARED|MAP_ANONYMOUS");
		return 1;
	}
	show_maps("/proc/self/maps", p);
	share("MAP_SHARED|MAP_ANONYMOUS", p);
	count((long *)(p + 2 * PAGE));
	race();

	int zero = open("/dev/zero", O_RDWR);
	char *z = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, zero, 0);
	if (z == MAP_FAILED) {
		perror("mmap MAP_SHARED /dev/zero");
		return 1;
	}
	show_maps("/proc/self/maps", z);
	share("MAP_SHARED of /dev/zero", z);
	char *zp = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, zero, 0);
	printf("MAP_PRIVATE of /dev/zero: %s, reads %d\n", zp == MAP_FAILED ? "failed" : "ok",
	       zp == MAP_FAILED ? -1 : zp[100]);
	if (zp != MAP_FAILED) {
		show_maps_dev("/proc/self/maps", zp,
			      0); /* a device node's numbers: Lucid has none */
		private_stays("MAP_PRIVATE of /dev/zero", zp);
	}
	close(zero);

	char *q = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	private_stays("MAP_PRIVATE|MAP_ANONYMOUS", q);

	char *s = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long shmem = status_kb("RssShmem"), anon = status_kb("RssAnon");
	counted(s);
	printf("status: RssShmem grew by %ld kB, RssAnon by %ld kB\n",
	       status_kb("RssShmem") - shmem, status_kb("RssAnon") - anon);
	munmap(s, 2 * PAGE);

	/* The middle page out: two areas, the second at file offset 2 pages. */
	SHOW("munmap the middle page", munmap(p + PAGE, PAGE));
	show_maps("/proc/self/maps", p);
	show_maps("/proc/self/maps", p + 2 * PAGE);
	SHOW("mprotect PROT_READ", mprotect(p, PAGE, PROT_READ));
	show_maps("/proc/self/maps", p);
	SHOW("mprotect back to PROT_READ|PROT_WRITE", mprotect(p, PAGE, PROT_READ | PROT_WRITE));
	pid_t pid = fork();
	if (pid == 0) {
		p[0] = 'M';
		_exit(0);
	}
	reap("mprotect", pid);
	printf("after mprotect, the child's write shows: %c\n", p[0]);

	/* The types Linux refuses for anonymous memory. */
	SHOW("MAP_SHARED_VALIDATE|MAP_ANONYMOUS",
	     mmap(NULL, PAGE, PROT_READ, MAP_SHARED_VALIDATE | MAP_ANONYMOUS, -1, 0));
	SHOW("MAP_SHARED|MAP_ANONYMOUS length 0",
	     mmap(NULL, 0, PROT_READ, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
	SHOW("MAP_SHARED|MAP_ANONYMOUS offset 100",
	     mmap(NULL, PAGE, PROT_READ, MAP_SHARED | MAP_ANONYMOUS, -1, 100));
	SHOW("no type", mmap(NULL, PAGE, PROT_READ, MAP_ANONYMOUS, -1, 0));
	/* More than memory and swap could ever hold: Linux's overcommit heuristic says no. */
	SHOW("MAP_SHARED|MAP_ANONYMOUS of 4 TiB",
	     mmap(NULL, 4UL << 40, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
	return 0;
}
