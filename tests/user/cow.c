/*
 * Copy-on-write fork: after fork, parent and child each see their own writes and never the
 * other's, in every kind of memory (data, bss, heap, an mmap page touched before fork and one
 * first touched after it, the stack). The child writes first, while the parent waits; then
 * the parent writes, while the child waits; each then reads everything back. And
 * clone(CLONE_CHILD_SETTID) writes the child's pid into the child's copy of the variable only.
 * The output has no addresses: the same on Linux (tests/qemu/user/test_user_memory.py compares).
 * With -v it also measures what fork copies: MemFree (/proc/meminfo) before a fork of 4 MiB of
 * touched memory and in the child, then after the child writes all of it, which Lucid's test
 * checks (on Linux other processes move MemFree too much to compare).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGE 4096
#define BIG (4 << 20)

static int data = 1;
static char bss[2 * PAGE];
static volatile int settid;

struct mem {
	int *data;
	char *bss, *heap, *touched, *untouched;
	volatile int *stack;
};

static void show(const char *who, const struct mem *m)
{
	printf("%s: data %d bss %d heap %d mmap %d %d stack %d\n", who, *m->data, m->bss[PAGE],
	       m->heap[0], m->touched[0], m->untouched[0], *m->stack);
}

static void set(const struct mem *m, int v)
{
	*m->data = v;
	m->bss[PAGE] = (char)v;
	m->heap[0] = (char)v;
	m->touched[0] = (char)v;
	m->untouched[0] = (char)v;
	*m->stack = v;
}

static long memfree_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemFree: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* A child that only reads BIG bytes of its parent's, then writes them: what each costs. */
static void measure(void)
{
	char *big = mmap(NULL, BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long sum = 0;
	int status;

	if (big == MAP_FAILED)
		exit(1);
	memset(big, 1, BIG);
	long before = memfree_kb();
	pid_t pid = fork();

	if (pid == 0) {
		long forked = memfree_kb();

		for (int i = 0; i < BIG; i += PAGE)
			sum += big[i];
		long read = memfree_kb();

		memset(big, 2, BIG);
		printf("fork of %d kB: %ld kB, reading it: %ld kB, writing it: %ld kB (sum %ld)\n",
		       BIG >> 10, before - forked, forked - read, read - memfree_kb(), sum);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	munmap(big, BIG);
}

static void wait_for(int fd)
{
	char c;

	if (read(fd, &c, 1) != 1)
		exit(1);
}

int main(int argc, char **argv)
{
	volatile int stack = 1;
	char *map =
		mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct mem m = {&data, bss, malloc(64), map, map + PAGE, &stack};
	int to_child[2], to_parent[2], status;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (map == MAP_FAILED || !m.heap || pipe(to_child) || pipe(to_parent))
		return 1;
	m.heap[0] = 1;
	m.bss[PAGE] = 1;
	map[0] = 1; /* the second page stays untouched until after fork */
	pid_t pid = fork();

	if (pid == 0) {
		set(&m, 2);
		show("child wrote", &m);
		write(to_parent[1], "x", 1);
		wait_for(to_child[0]);
		show("child after the parent wrote", &m);
		_exit(0);
	}
	wait_for(to_parent[0]);
	show("parent while the child has written", &m);
	set(&m, 3);
	write(to_child[1], "x", 1);
	waitpid(pid, &status, 0);
	show("parent after the child exited", &m);

	pid = (pid_t)syscall(SYS_clone, CLONE_CHILD_SETTID | SIGCHLD, 0, NULL, &settid, 0);
	if (pid == 0) {
		printf("settid: the child's copy holds its pid: %s\n",
		       settid == getpid() ? "yes" : "no");
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("settid: the parent's copy is untouched: %s\n", settid == 0 ? "yes" : "no");
	if (argc > 1 && strcmp(argv[1], "-v") == 0)
		measure();
	return 0;
}
