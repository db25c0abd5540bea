/* Calls into libdyn.so (tests/dyn/libdyn.c): 40 + 2 + 1 calls = 43. */
#include <stdio.h>

int dyn_add(int n);

int main(void)
{
	printf("dyn_add(2) = %d\n", dyn_add(2));
	return 0;
}
