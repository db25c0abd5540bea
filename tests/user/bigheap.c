/*
 * Moves its break 64 TiB up (the pages come only when touched, so this costs nothing), touches
 * one page at the top, then sleeps: a heap /proc/PID/maps must show without walking it page by
 * page.
 */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#define HEAP_SIZE (64UL << 40)

int main(void)
{
	unsigned long start = syscall(SYS_brk, 0);
	unsigned long end = syscall(SYS_brk, start + HEAP_SIZE);

	if (end != start + HEAP_SIZE) {
		printf("brk refused\n");
		return 1;
	}
	*(volatile char *)(end - 1) = 1;
	printf("heap %lx-%lx\n", start, end);
	fflush(stdout);
	sleep(100);
	return 0;
}
