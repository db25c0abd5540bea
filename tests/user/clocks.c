/*
 * Time, randomness and limits: clock_gettime, nanosleep, gettimeofday, getrandom, prlimit64,
 * set_robust_list, sched_yield. Prints facts that hold on any Linux too, one per line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#define NAP_NS 50000000L /* 50 ms */
#define BAD_CLOCK 99
#define REALTIME_2020 1577836800L /* 2020-01-01 00:00:00 UTC */

/* The call first, then errno: printf's arguments are evaluated in no fixed order. */
static void show(const char *what, long ret)
{
	printf("%s: %ld%s%s\n", what, ret, ret < 0 ? " " : "", ret < 0 ? strerror(errno) : "");
}

static long ns_of(const struct timespec *t)
{
	return t->tv_sec * 1000000000L + t->tv_nsec;
}

int main(void)
{
	struct timespec a, b, nap = {0, NAP_NS};
	struct timeval tv;
	struct rlimit rl;
	unsigned char rnd[32];

	clock_gettime(CLOCK_MONOTONIC, &a);
	printf("nanosleep: %d\n", nanosleep(&nap, NULL));
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("slept at least 50 ms: %d\n", ns_of(&b) - ns_of(&a) >= NAP_NS);
	printf("gettimeofday: %d\n", gettimeofday(&tv, NULL));
	/* The real date, from the machine's clock: not 1970 plus the time since boot. */
	printf("realtime after 2020: %d\n", tv.tv_sec > REALTIME_2020);
	clock_gettime(CLOCK_REALTIME, &a);
	printf("clock_gettime realtime after 2020: %d\n", a.tv_sec > REALTIME_2020);
	show("bad clock", clock_gettime(BAD_CLOCK, &a));
	nap.tv_nsec = 1000000000L;
	show("bad nanosleep", nanosleep(&nap, NULL));
	show("getrandom", getrandom(rnd, sizeof(rnd), 0));
	show("getrandom bad flags", getrandom(rnd, sizeof(rnd), 0x100));
	show("getrandom bad buffer", syscall(SYS_getrandom, (void *)16, 8, 0));
	show("getrlimit nofile", getrlimit(RLIMIT_NOFILE, &rl));
	printf("nofile=%lu\n", (unsigned long)rl.rlim_cur);
	show("set_robust_list", syscall(SYS_set_robust_list, (void *)0, 24));
	show("set_robust_list bad len", syscall(SYS_set_robust_list, (void *)0, 1));
	show("sched_yield", sched_yield());
	return 0;
}
