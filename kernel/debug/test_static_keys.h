/* The static keys self-test at boot (kernel/debug/test_static_keys.c, static_keys_selftest). */
#ifndef KERNEL_DEBUG_TEST_STATIC_KEYS_H
#define KERNEL_DEBUG_TEST_STATIC_KEYS_H

#include <stdbool.h>

/* Prints "Testing static keys: PASSED" (or FAILED!, after what failed); true if it passed. */
bool static_keys_selftest(void);

#endif
