/*
 * A dynamic test program, built by the host's plain gcc (glibc, PIE by default; -no-pie for the
 * ET_EXEC twin): what it prints depends on ld.so having found the program (argv, the
 * environment, AT_EXECFN), mapped libc (printf, malloc, qsort) and run its constructors, so
 * tests/qemu/trace/test_dynamic.py compares its output and exit status with the host's run.
 * With DYN_MAPS in the environment it also prints its /proc/self/maps: the areas ld.so mapped
 * for libc and itself, named and placed by the kernel as Linux's are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#define EXIT_STATUS 7 /* not 0 or 1: the status must come through exit() unchanged */

static int ctor_ran; /* set before main by the constructor ld.so runs */

__attribute__((constructor)) static void set_ctor_ran(void)
{
	ctor_ran = 1;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	char **sorted = malloc(sizeof(*sorted) * (size_t)argc);

	printf("hello, dynamic world: argc %d, constructor %s\n", argc, ctor_ran ? "ran" : "no");
	for (int i = 1; i < argc; i++)
		sorted[i - 1] = argv[i];
	qsort(sorted, (size_t)argc - 1, sizeof(*sorted), cmp);
	for (int i = 0; i < argc - 1; i++)
		printf("arg %s\n", sorted[i]);
	free(sorted);
	printf("DYN_VAR=%s\n", getenv("DYN_VAR") ? getenv("DYN_VAR") : "(unset)");
	printf("page size %lu, secure %lu\n", getauxval(AT_PAGESZ), getauxval(AT_SECURE));
	if (getenv("DYN_MAPS")) {
		FILE *maps = fopen("/proc/self/maps", "r");
		int c;

		while (maps && (c = getc(maps)) != EOF)
			putchar(c);
		if (maps)
			fclose(maps);
	}
	fflush(stdout);
	exit(EXIT_STATUS);
}
