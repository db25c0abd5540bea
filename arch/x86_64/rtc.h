/* The CMOS real-time clock: the battery-backed date and time a PC keeps while it is off. */
#ifndef ARCH_X86_64_RTC_H
#define ARCH_X86_64_RTC_H

#include <stdint.h>

/* Seconds since 1970-01-01 00:00:00 UTC, read from the RTC (Linux's mach_get_cmos_time). */
int64_t mach_get_cmos_time(void);

/* Seconds since the epoch of a UTC date (Linux's mktime64): mon 1..12, day 1..31. */
int64_t mktime64(unsigned int year, unsigned int mon, unsigned int day, unsigned int hour,
		 unsigned int min, unsigned int sec);

#endif
