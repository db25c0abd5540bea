/*
 * The CMOS real-time clock (Motorola MC146818 and its successors): what CLOCK_REALTIME starts
 * from at boot (kernel/time/time.c), as Linux's arch/x86/kernel/rtc.c.
 *
 * The clock's registers are read through an index port and a data port. While the chip
 * updates its registers (once a second, for about 2 ms) they may be half old and half new, so
 * we wait for its update-in-progress bit to clear and read them all twice, until two reads
 * agree. The values are BCD unless status register B says binary, and the hour may be on a
 * 12-hour clock with the PM bit in its top bit. The chip keeps two digits of year: QEMU and
 * every PC since keep the clock in UTC between 2000 and 2099 (Linux assumes the same when the
 * ACPI century register is absent).
 */
#include "arch/x86_64/rtc.h"
#include "arch/x86_64/io.h"
#include <stdbool.h>

#define RTC_PORT_INDEX 0x70
#define RTC_PORT_DATA 0x71
#define RTC_NMI_DISABLE 0x80 /* the index port's top bit masks NMIs: keep it clear */

#define RTC_SECONDS 0x00
#define RTC_MINUTES 0x02
#define RTC_HOURS 0x04
#define RTC_DAY_OF_MONTH 0x07
#define RTC_MONTH 0x08
#define RTC_YEAR 0x09
#define RTC_REG_A 0x0a
#define RTC_REG_B 0x0b
#define RTC_UIP 0x80 /* register A: an update is in progress */
#define RTC_24H 0x02 /* register B: 24-hour clock */
#define RTC_DM_BINARY 0x04 /* register B: binary values, not BCD */
#define RTC_HOUR_PM 0x80 /* the hour's top bit on a 12-hour clock */
#define RTC_CENTURY_BASE 2000
#define DAYS_0000_TO_1970 719499 /* the formula's day count at 1970-01-01, as Linux's */
#define RTC_MAX_TRIES 1000 /* bounded waits: a broken or absent chip gives a time, not a hang */

struct rtc_time {
	unsigned int sec, min, hour, day, mon, year;
};

static uint8_t cmos_read(uint8_t reg)
{
	outb(RTC_PORT_INDEX, reg & (uint8_t)~RTC_NMI_DISABLE);
	return inb(RTC_PORT_DATA);
}

static unsigned int bcd2bin(unsigned int v)
{
	return (v & 0x0f) + (v >> 4) * 10;
}

static void cmos_read_raw(struct rtc_time *t)
{
	for (int i = 0; i < RTC_MAX_TRIES && (cmos_read(RTC_REG_A) & RTC_UIP); i++)
		;
	t->sec = cmos_read(RTC_SECONDS);
	t->min = cmos_read(RTC_MINUTES);
	t->hour = cmos_read(RTC_HOURS);
	t->day = cmos_read(RTC_DAY_OF_MONTH);
	t->mon = cmos_read(RTC_MONTH);
	t->year = cmos_read(RTC_YEAR);
}

int64_t mktime64(unsigned int year, unsigned int mon, unsigned int day, unsigned int hour,
		 unsigned int min, unsigned int sec)
{
	/* Gauss's way, as Linux: March is month 1, so February's leap day ends the year. */
	if ((int)(mon -= 2) <= 0) {
		mon += 12;
		year -= 1;
	}
	int64_t days = (int64_t)(year / 4 - year / 100 + year / 400 + 367 * mon / 12 + day) +
		       (int64_t)year * 365 - DAYS_0000_TO_1970;

	return ((days * 24 + hour) * 60 + min) * 60 + sec;
}

int64_t mach_get_cmos_time(void)
{
	struct rtc_time t, again;
	uint8_t b;

	cmos_read_raw(&t);
	for (int i = 0; i < RTC_MAX_TRIES; i++) {
		cmos_read_raw(&again);
		if (again.sec == t.sec && again.min == t.min && again.hour == t.hour &&
		    again.day == t.day && again.mon == t.mon && again.year == t.year)
			break;
		t = again;
	}
	b = cmos_read(RTC_REG_B);
	bool pm = !(b & RTC_24H) && (t.hour & RTC_HOUR_PM);

	t.hour &= ~(unsigned int)RTC_HOUR_PM;
	if (!(b & RTC_DM_BINARY)) {
		t.sec = bcd2bin(t.sec);
		t.min = bcd2bin(t.min);
		t.hour = bcd2bin(t.hour);
		t.day = bcd2bin(t.day);
		t.mon = bcd2bin(t.mon);
		t.year = bcd2bin(t.year);
	}
	if (!(b & RTC_24H))
		t.hour = t.hour % 12 + (pm ? 12 : 0); /* 12 AM is 0, 12 PM is 12 */
	return mktime64(t.year + RTC_CENTURY_BASE, t.mon, t.day, t.hour, t.min, t.sec);
}
