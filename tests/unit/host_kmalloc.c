/*
 * kmalloc for host unit tests: the kernel's heap API on top of malloc, with a failure switch so
 * tests can check that every allocation failure is handled, and a live count to catch leaks.
 */
#include <stdlib.h>
#include <string.h>
#include "tests/unit/host_kmalloc.h"

long host_kmalloc_live;     /* allocations not yet freed */
long host_kmalloc_fail_at;  /* fail the Nth allocation from now (1 = next); 0 = never */

void *kmalloc(size_t size)
{
	if (host_kmalloc_fail_at > 0 && --host_kmalloc_fail_at == 0)
		return NULL;
	void *p = malloc(size ? size : 1);
	if (p)
		host_kmalloc_live++;
	return p;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);
	if (p)
		memset(p, 0, size);
	return p;
}

void *krealloc(void *p, size_t size)
{
	if (!p)
		return kmalloc(size);
	if (host_kmalloc_fail_at > 0 && --host_kmalloc_fail_at == 0)
		return NULL;
	return realloc(p, size ? size : 1);
}

void kfree(void *p)
{
	if (p)
		host_kmalloc_live--;
	free(p);
}

char *kstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = kmalloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}
