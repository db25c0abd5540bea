/*
 * nanosleep for longer than a 64-bit count of nanoseconds can say: a sleep that long is
 * forever (Linux saturates it), not a wrapped, short one. Ctrl-C ends it.
 */
#include <stdio.h>
#include <time.h>

int main(void)
{
	struct timespec ts = {.tv_sec = 1L << 62, .tv_nsec = 0}; /* x 10^9 = 2^71: wraps to 0 */

	nanosleep(&ts, NULL);
	printf("woke up\n"); /* only if the sleep was cut short */
	return 0;
}
