/*
 * mmap at page 0 with MAP_FIXED: refused with EPERM, as Linux refuses a process without
 * CAP_SYS_RAWIO (every Lucid process is root, but the kernel has no SMAP/SMEP to fall back on,
 * so no process may put its bytes where a kernel NULL dereference would find them).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int main(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		       -1, 0);

	printf("page 0: %s\n", p == MAP_FAILED ? strerror(errno) : "mapped");
	p = mmap((void *)0x10000, 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	printf("64 KiB: %s\n", p == MAP_FAILED ? strerror(errno) : "mapped");
	return 0;
}
