/*
 * Sleeps that end on time: nanosleep and clock_nanosleep, relative and absolute, on the
 * monotonic and the real-time clock, from a nanosecond to past a tick (10 ms), each several
 * times. What must hold whatever the machine's load, checked after each sleep: it was not
 * shorter than asked (the clock read after it is at least the deadline). How much longer
 * depends on the load, so it is not printed: the output is the same on Linux.
 *
 *   sleeptime          the checks, a line per kind of sleep
 *   sleeptime abs N    N absolute sleeps of 300 us on CLOCK_MONOTONIC, each deadline printed
 *                      (ns) with how late the wakeup was: the test compares the deadlines with
 *                      the kernel's hrtimer_start events (queued for exactly that time)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NSEC_PER_SEC 1000000000LL
#define TRIES 5 /* sleeps of each kind and length */
#define ABS_STEP_NS 300000LL /* sleeptime abs: 300 us, a thirtieth of a tick */

static const long long lengths_ns[] = {1, 1000, 50000, 300000, 1000000, 2500000, 12000000};

static long long ns_of(struct timespec ts)
{
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static struct timespec ts_of(long long ns)
{
	struct timespec ts = {.tv_sec = ns / NSEC_PER_SEC, .tv_nsec = ns % NSEC_PER_SEC};
	return ts;
}

static long long now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ns_of(ts);
}

enum kind { NANOSLEEP, REL_MONO, ABS_MONO, REL_REAL, ABS_REAL, NR_KINDS };
static const char *const kind_names[] = {"nanosleep", "clock_nanosleep(CLOCK_MONOTONIC)",
					 "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)",
					 "clock_nanosleep(CLOCK_REALTIME)",
					 "clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME)"};

/* One sleep of len ns: 0 if it lasted at least that long, else how much it fell short. */
static long long one_sleep(enum kind k, long long len)
{
	clockid_t clock = k == REL_REAL || k == ABS_REAL ? CLOCK_REALTIME : CLOCK_MONOTONIC;
	long long start = now_ns(clock), deadline = start + len;
	struct timespec rel = ts_of(len), abs = ts_of(deadline);
	int err = 0;

	switch (k) {
	case NANOSLEEP:
		err = nanosleep(&rel, NULL);
		break;
	case REL_MONO:
	case REL_REAL:
		err = clock_nanosleep(clock, 0, &rel, NULL);
		break;
	case ABS_MONO:
	case ABS_REAL:
		err = clock_nanosleep(clock, TIMER_ABSTIME, &abs, NULL);
		break;
	default:
		break;
	}
	if (err) {
		printf("%s: error %d\n", kind_names[k], err);
		exit(1);
	}
	long long end = now_ns(clock);
	return end >= deadline ? 0 : deadline - end;
}

static int abs_sleeps(int n)
{
	long long deadline = now_ns(CLOCK_MONOTONIC);

	for (int i = 0; i < n; i++) {
		deadline += ABS_STEP_NS;
		long long before = now_ns(CLOCK_MONOTONIC);
		if (before >= deadline) /* late already (a loaded host): the next one ahead */
			deadline = before + ABS_STEP_NS;
		struct timespec ts = ts_of(deadline);
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			return 1;
		printf("deadline %lld late %lld\n", deadline, now_ns(CLOCK_MONOTONIC) - deadline);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int failed = 0;

	if (argc == 3 && !strcmp(argv[1], "abs"))
		return abs_sleeps(atoi(argv[2]));
	for (int k = 0; k < NR_KINDS; k++) {
		long long short_by = 0;

		for (unsigned int l = 0; l < sizeof(lengths_ns) / sizeof(lengths_ns[0]); l++)
			for (int t = 0; t < TRIES; t++) {
				long long s = one_sleep(k, lengths_ns[l]);
				if (s > short_by)
					short_by = s;
			}
		if (short_by) {
			printf("%s: a sleep ended %lld ns early\n", kind_names[k], short_by);
			failed = 1;
		} else {
			printf("%s: no sleep shorter than asked\n", kind_names[k]);
		}
	}
	return failed;
}
