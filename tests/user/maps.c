/*
 * Areas as /proc/self/maps shows them, through munmap holes and mprotect splits and the merges
 * that undo them: 8 pages mapped at a fixed address (free in Lucid and on Linux alike), then
 * cut up and put back together, the maps lines of that range printed after each step. The
 * same on Linux (tests/qemu/user/test_user_memory.py compares).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#define PAGE 4096UL
#define BASE 0x200000000UL /* 8 GiB: above a static program and its heap, below the mmaps */
#define PAGES 8

/* The maps lines of areas that start in [BASE, BASE + PAGES pages). */
static void show(const char *what)
{
	char line[256];
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo;

	printf("%s:\n", what);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-", &lo) == 1 && lo >= BASE && lo < BASE + PAGES * PAGE)
			printf("  %s", line);
	fclose(f);
}

static void step(const char *what, int ret)
{
	if (ret)
		printf("%s: failed: %m\n", what);
	else
		show(what);
}

int main(void)
{
	char *p = mmap((void *)BASE, PAGES * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p != (char *)BASE) {
		printf("mmap at %#lx: %m\n", BASE);
		return 1;
	}
	memset(p, 1, PAGES * PAGE);
	show("8 pages");
	step("page 2 read-only", mprotect(p + 2 * PAGE, PAGE, PROT_READ));
	step("pages 4-5 none", mprotect(p + 4 * PAGE, 2 * PAGE, PROT_NONE));
	step("page 6 unmapped", munmap(p + 6 * PAGE, PAGE));
	step("page 2 writable again", mprotect(p + 2 * PAGE, PAGE, PROT_READ | PROT_WRITE));
	step("pages 4-5 writable again", mprotect(p + 4 * PAGE, 2 * PAGE, PROT_READ | PROT_WRITE));
	step("page 6 mapped again",
	     mmap(p + 6 * PAGE, PAGE, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED);
	step("pages 1-6 executable", mprotect(p + PAGE, 6 * PAGE, PROT_READ | PROT_EXEC));
	step("pages 0-7 unmapped", munmap(p, PAGES * PAGE));
	return 0;
}
