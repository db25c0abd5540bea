/*
 * Demand paging: a 1 GiB anonymous mapping costs nothing until it is touched, and touching 8
 * pages of it uses 8 pages (and the page tables to reach them), not 1 GiB. The resident set
 * (VmRSS in /proc/self/status) is read before and after; Linux's count may lag a little (its
 * per-CPU counters), so the line compared with Linux asks only for "at most 1 MiB". With -v it
 * also prints the exact growth of RssAnon (VmRSS less the program's own file pages, which its
 * code brings in as it first runs) and the drop of MemFree, and what munmap gives back, which
 * Lucid's test checks.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define SIZE (1UL << 30)
#define TOUCHED 8
#define STRIDE (SIZE / TOUCHED)

/* The first number on the line of file that starts with key, in kB; -1 if none. */
static long field_kb(const char *file, const char *key)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, strlen(key)) == 0 &&
		    sscanf(line + strlen(key), " %ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
	char *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	long rss = field_kb("/proc/self/status", "VmRSS:");
	long anon = field_kb("/proc/self/status", "RssAnon:");
	long free_kb = field_kb("/proc/meminfo", "MemFree:");

	for (unsigned long off = 0; off < SIZE; off += STRIDE)
		p[off] = 1;
	long rss_after = field_kb("/proc/self/status", "VmRSS:");
	long anon_after = field_kb("/proc/self/status", "RssAnon:");
	long free_after = field_kb("/proc/meminfo", "MemFree:");

	printf("1 GiB mapped, %d pages touched: resident set grew by at most 1 MiB: %s\n", TOUCHED,
	       rss >= 0 && rss_after - rss <= 1024 ? "yes" : "no");
	if (verbose)
		printf("RssAnon grew by %ld kB, MemFree dropped by %ld kB\n", anon_after - anon,
		       free_kb - free_after);
	printf("untouched pages read as zero: %s\n",
	       p[STRIDE / 2] == 0 && p[SIZE - 1] == 0 ? "yes" : "no");
	free_after = field_kb("/proc/meminfo", "MemFree:");
	if (munmap(p, SIZE))
		return 1;
	if (verbose) /* the pages, and the page tables munmap leaves empty */
		printf("munmap gave back %ld kB\n",
		       field_kb("/proc/meminfo", "MemFree:") - free_after);
	return 0;
}
