/*
 * Lists a directory with opendir/readdir (getdents64 underneath), sorted, one name a line;
 * with -t first, each name followed by its d_type ("lsdir -t DIR").
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAMES 4096 /* /bin has every busybox applet: 350 names */

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	char *names[MAX_NAMES];
	int n = 0, types = argc > 1 && strcmp(argv[1], "-t") == 0;
	DIR *d = opendir(argc > 1 + types ? argv[1 + types] : ".");
	struct dirent *e;
	char line[300];

	if (!d) {
		perror("opendir");
		return 1;
	}
	while ((e = readdir(d)) && n < MAX_NAMES) {
		if (types)
			snprintf(line, sizeof(line), "%s %d", e->d_name, e->d_type);
		names[n++] = strdup(types ? line : e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp);
	for (int i = 0; i < n; i++)
		printf("%s\n", names[i]);
	return 0;
}
