/* The first user program: what every C course starts with, built against musl (user/README). */
#include <stdio.h>

int main(void)
{
	printf("Hello, world!\n");
	return 0;
}
