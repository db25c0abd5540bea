/* Writes through a NULL pointer: the kernel kills this process alone, with SIGSEGV. */
#include <stdio.h>

int main(void)
{
	volatile int *p = NULL;

	printf("about to fault\n");
	fflush(stdout);
	*p = 1;
	printf("still alive?\n");
	return 0;
}
