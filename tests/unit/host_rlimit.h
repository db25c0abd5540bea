/* Host stand-in for a task's resource limits (see host_rlimit.c). */
#ifndef TESTS_UNIT_HOST_RLIMIT_H
#define TESTS_UNIT_HOST_RLIMIT_H
#include <stdint.h>
extern uint64_t host_nofile; /* what rlimit(RLIMIT_NOFILE) answers; a test may change it */
#endif
