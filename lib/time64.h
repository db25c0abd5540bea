/* Units of time, as Linux's include/vdso/time64.h: one home for the kernel and the host tests. */
#ifndef LIB_TIME64_H
#define LIB_TIME64_H

#define MSEC_PER_SEC 1000ULL
#define USEC_PER_SEC 1000000ULL
#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

#endif
