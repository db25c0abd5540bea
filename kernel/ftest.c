/*
 * `ftest`: small functions that exist to be traced, so a student (and the tests) can see exactly
 * what the tracers record for a call chain they know.
 *
 *   ftest call       ftest_outer -> ftest_mid -> ftest_leaf, three times
 *   ftest delay N    ftest_delay busy-waits N microseconds
 *   ftest stack      ftest_stack -> ftest_stack_deep, 12 frames of 256+ bytes each
 *
 * They are noinline and do a little real work, so the compiler keeps each one a real function
 * with its own call site.
 */
#include "kernel/ftest.h"
#include "kernel/shell.h"
#include "kernel/stdio.h"
#include "kernel/time.h"
#include "lib/string.h"
#include "lib/kstrtox.h"

#define FTEST_CALL_REPEAT 3
#define FTEST_DELAY_MAX_US 10000000

static volatile unsigned long ftest_sink; /* results go here, so the work is not optimized away */

noinline unsigned long ftest_leaf(unsigned long x)
{
	ftest_sink += x;
	return x * 3 + 1;
}

noinline unsigned long ftest_mid(unsigned long x)
{
	return ftest_leaf(x + 1) + 1;
}

noinline unsigned long ftest_outer(unsigned long x)
{
	return ftest_mid(x * 2) + 2;
}

noinline void ftest_delay(unsigned long us)
{
	udelay(us);
}

#define FTEST_STACK_DEPTH 12
#define FTEST_STACK_FRAME 256

/* A deliberately deep call chain, each frame with a buffer: something for the stack tracer. */
noinline unsigned long ftest_stack_deep(int depth)
{
	volatile char frame[FTEST_STACK_FRAME];
	frame[0] = (char)depth;
	if (depth <= 1)
		return frame[0];
	return ftest_stack_deep(depth - 1) + frame[0];
}

noinline unsigned long ftest_stack(void)
{
	return ftest_stack_deep(FTEST_STACK_DEPTH);
}

static int cmd_ftest(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "call")) {
		for (int i = 0; i < FTEST_CALL_REPEAT; i++)
			ftest_sink += ftest_outer(i);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "stack")) {
		ftest_sink += ftest_stack();
		return 0;
	}
	unsigned long us;
	if (argc == 3 && !strcmp(argv[1], "delay") && !kstrtoul(argv[2], 10, &us) &&
	    us <= FTEST_DELAY_MAX_US) {
		ftest_delay(us);
		return 0;
	}
	dprintf(STDERR_FILENO, "usage: ftest call | ftest delay MICROSECONDS | ftest stack\n");
	return 2;
}
SHELL_CMD("ftest", "functions to trace: ftest call | ftest delay US | ftest stack", cmd_ftest);
