/* The kprobes boot self-test (kernel/debug/test_kprobes.c; boot option kprobe_selftest). */
#ifndef KERNEL_DEBUG_TEST_KPROBES_H
#define KERNEL_DEBUG_TEST_KPROBES_H

#include <stdbool.h>

/* Runs every case; prints "Kprobe smoke test: passed successfully" or what failed. */
void kprobes_selftest(void);
bool kprobes_selftest_ran(void); /* ran and passed */

#endif
