/* Lists a directory with opendir/readdir (getdents64 underneath), sorted, one name a line. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAMES 256

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	char *names[MAX_NAMES];
	int n = 0;
	DIR *d = opendir(argc > 1 ? argv[1] : ".");
	struct dirent *e;

	if (!d) {
		perror("opendir");
		return 1;
	}
	while ((e = readdir(d)) && n < MAX_NAMES)
		names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp);
	for (int i = 0; i < n; i++)
		printf("%s\n", names[i]);
	return 0;
}
