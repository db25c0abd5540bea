/*
 * Memory: the heap (brk), anonymous mmap (malloc of a large block), a stack that grows far past
 * what exec mapped, and an unmapped page that is really gone. Prints "ok" for each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BIG (4 << 20)
#define STACK_USE (1 << 20)

static int deep(void)
{
	volatile char buf[STACK_USE];

	memset((char *)buf, 1, sizeof(buf));
	return buf[STACK_USE - 1] + buf[0];
}

int main(void)
{
	/* musl's sbrk() only answers sbrk(0): move the break with the system call itself. */
	char *top = sbrk(0);
	if ((char *)syscall(SYS_brk, top + BIG) != top + BIG)
		return 1;
	memset(top, 0x5a, BIG);
	printf("brk %s\n", top[BIG - 1] == 0x5a ? "ok" : "bad");
	char *m = malloc(BIG);
	if (!m)
		return 2;
	memset(m, 0xa5, BIG);
	printf("malloc %s\n", m[BIG - 1] == (char)0xa5 ? "ok" : "bad");
	free(m);
	char *p = mmap(NULL, BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 3;
	printf("mmap zeroed %s\n", p[0] == 0 && p[BIG - 1] == 0 ? "ok" : "bad");
	printf("munmap %s\n", munmap(p, BIG) == 0 ? "ok" : "bad");
	printf("stack %s\n", deep() == 2 ? "ok" : "bad");
	return 0;
}
