/*
 * `crash`: break the kernel on purpose, to see what an oops looks like (and, with the tracer,
 * which functions led to it). Each way of crashing is its own small function, so that the oops's
 * backtrace names it.
 */
#include "kernel/shell.h"
#include "kernel/stdio.h"
#include "kernel/panic.h"
#include "kernel/preempt.h"
#include "arch/x86_64/cpu.h"
#include "lib/string.h"

#pragma GCC diagnostic ignored "-Winfinite-recursion" /* crash_stack recurses forever on purpose */

#define STACK_EATER_BYTES 512

static noinline void crash_null(void)
{
	*(volatile int *)NULL = 1;
}

/* In asm: for 1 / x in C, gcc is clever enough to avoid the divide instruction altogether. */
static noinline void crash_divzero(void)
{
	__asm__ __volatile__("xorl %%ecx, %%ecx\n\t"
			     "movl $1, %%eax\n\t"
			     "cltd\n\t"
			     "idivl %%ecx"
			     :
			     :
			     : "eax", "ecx", "edx");
}

static noinline void crash_ud(void)
{
	__asm__ __volatile__("ud2");
}

static noinline void crash_panic(void)
{
	panic("crash: panic requested from the shell");
}

/* Each call eats another frame until the stack runs into its guard page. */
static noinline int crash_stack(int depth)
{
	volatile char frame[STACK_EATER_BYTES];
	frame[0] = (char)depth;
	return crash_stack(depth + 1) + frame[0];
}

/* Spin with preemption off: the CPU takes its ticks but can never schedule. */
static noinline void crash_lockup(void)
{
	preempt_disable();
	for (;;)
		cpu_relax();
}

static const struct {
	const char *name;
	void (*fn)(void);
} crashes[] = {
	{"null", crash_null},
	{"divzero", crash_divzero},
	{"ud", crash_ud},
	{"panic", crash_panic},
	{"lockup", crash_lockup},
};

static int cmd_crash(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "stack"))
		return crash_stack(0);
	for (size_t i = 0; argc == 2 && i < ARRAY_SIZE(crashes); i++) {
		if (!strcmp(argv[1], crashes[i].name)) {
			crashes[i].fn();
			return 0;
		}
	}
	dprintf(STDERR_FILENO, "usage: crash null|divzero|ud|panic|stack|lockup\n");
	return 2;
}
SHELL_CMD("crash", "crash the kernel on purpose: crash null|divzero|ud|panic|stack|lockup", cmd_crash);
