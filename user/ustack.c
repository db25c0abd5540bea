/*
 * Helper for tests/qemu/trace/test_trace_options.py, two jobs:
 *
 *   ustack stack [S] a chain of three functions built with frame pointers, the innermost of
 *                   which calls getppid(): options/userstacktrace records the program's stack
 *                   at the system call's event, and the test finds the three in it (it reads
 *                   their addresses from this program's output, "level1 0x401234"); then, with S,
 *                   sleeps S seconds, alive while the trace is read (sym-userobj looks up the
 *                   program's mappings then).
 *   ustack poll F   poll(2) F for reading with no wait and say "readable" or "not readable"
 *                   (options/block makes trace_pipe always readable to poll).
 */
#include <poll.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define FRAMES __attribute__((noinline, optimize("no-omit-frame-pointer")))

static volatile int sink;

FRAMES static void level3(void)
{
	sink = getppid();
}

FRAMES static void level2(void)
{
	level3();
	sink++;
}

FRAMES static void level1(void)
{
	level2();
	sink++;
}

int main(int argc, char **argv)
{
	if ((argc == 2 || argc == 3) && strcmp(argv[1], "stack") == 0) {
		printf("level1 %p\nlevel2 %p\nlevel3 %p\n", (void *)level1, (void *)level2,
		       (void *)level3);
		fflush(stdout);
		level1();
		if (argc == 3)
			sleep((unsigned int)atoi(argv[2]));
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "poll") == 0) {
		struct pollfd p = {.fd = open(argv[2], O_RDONLY | O_NONBLOCK), .events = POLLIN};

		if (p.fd < 0) {
			perror(argv[2]);
			return 1;
		}
		printf(poll(&p, 1, 0) == 1 && (p.revents & POLLIN) ? "readable\n"
								   : "not readable\n");
		return 0;
	}
	fprintf(stderr, "usage: ustack stack | ustack poll FILE\n");
	return 2;
}
