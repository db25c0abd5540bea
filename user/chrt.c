/*
 * chrt: util-linux's chrt, the part a student needs (Debian's busybox-static has no chrt):
 * run a command under a real-time policy, or show or change a task's.
 *
 *     chrt -f 50 CMD ARGS...   run CMD as SCHED_FIFO at priority 50 (-r: SCHED_RR, -o: OTHER,
 *                              -b: BATCH, -i: IDLE)
 *     chrt -p PID              show PID's policy and priority, util-linux's words
 *     chrt -f -p 50 PID        change them
 *     chrt -m                  each policy's priority range
 *
 * Straight system calls: musl leaves sched_setscheduler and friends unimplemented (ENOSYS),
 * since on Linux they act on one thread, not on a process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#define SCHED_OTHER 0
#define SCHED_FIFO 1
#define SCHED_RR 2
#define SCHED_BATCH 3
#define SCHED_IDLE 5
#define SCHED_DEADLINE 6
#define SCHED_RESET_ON_FORK 0x40000000

struct policy {
	int id;
	const char *name;
};

static const struct policy policies[] = {
	{SCHED_OTHER, "SCHED_OTHER"}, {SCHED_FIFO, "SCHED_FIFO"},
	{SCHED_RR, "SCHED_RR"},	      {SCHED_BATCH, "SCHED_BATCH"},
	{SCHED_IDLE, "SCHED_IDLE"},   {SCHED_DEADLINE, "SCHED_DEADLINE"},
};
#define NR_POLICIES (sizeof(policies) / sizeof(policies[0]))

static const char *policy_name(int id)
{
	for (size_t i = 0; i < NR_POLICIES; i++)
		if (policies[i].id == id)
			return policies[i].name;
	return "unknown";
}

static void bad_usage(void)
{
	fprintf(stderr, "chrt: bad usage\nTry 'chrt --help' for more information.\n");
	exit(1);
}

static int show(long pid)
{
	int param[1] = {0};
	long policy = syscall(SYS_sched_getscheduler, pid);

	if (policy < 0 || syscall(SYS_sched_getparam, pid, param) < 0) {
		fprintf(stderr, "chrt: failed to get pid %ld's policy: %s\n", pid, strerror(errno));
		return 1;
	}
	printf("pid %ld's current scheduling policy: %s%s\n", pid,
	       policy_name((int)(policy & ~SCHED_RESET_ON_FORK)),
	       policy & SCHED_RESET_ON_FORK ? "|SCHED_RESET_ON_FORK" : "");
	printf("pid %ld's current scheduling priority: %d\n", pid, param[0]);
	return 0;
}

static int show_ranges(void)
{
	for (size_t i = 0; i < NR_POLICIES; i++) {
		long min = syscall(SYS_sched_get_priority_min, policies[i].id);
		long max = syscall(SYS_sched_get_priority_max, policies[i].id);

		if (min < 0 || max < 0)
			printf("%s not supported?\n", policies[i].name);
		else
			printf("%s min/max priority\t: %ld/%ld\n", policies[i].name, min, max);
	}
	return 0;
}

static long number(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || !*s || *end) {
		fprintf(stderr, "chrt: invalid number: '%s'\n", s);
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	int policy = SCHED_RR, param[1];
	int i = 1, pid_mode = 0;
	long prio, pid = 0;

	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *o = argv[i] + 1;

		if (!strcmp(o, "m"))
			return show_ranges();
		else if (!strcmp(o, "p"))
			pid_mode = 1;
		else if (!strcmp(o, "f"))
			policy = SCHED_FIFO;
		else if (!strcmp(o, "r"))
			policy = SCHED_RR;
		else if (!strcmp(o, "o"))
			policy = SCHED_OTHER;
		else if (!strcmp(o, "b"))
			policy = SCHED_BATCH;
		else if (!strcmp(o, "i"))
			policy = SCHED_IDLE;
		else
			bad_usage();
	}
	if (pid_mode && argc - i == 1)
		return show(number(argv[i]));
	if (argc - i < 2)
		bad_usage();
	prio = number(argv[i]);
	if (pid_mode)
		pid = number(argv[i + 1]);
	if (prio < syscall(SYS_sched_get_priority_min, policy) ||
	    prio > syscall(SYS_sched_get_priority_max, policy)) {
		fprintf(stderr,
			"chrt: unsupported priority value for the policy: %ld: see --max for valid "
			"range\n",
			prio);
		return 1;
	}
	param[0] = (int)prio;
	if (syscall(SYS_sched_setscheduler, pid, policy, param) < 0) {
		fprintf(stderr, "chrt: failed to set pid %ld's policy: %s\n", pid, strerror(errno));
		return 1;
	}
	if (pid_mode)
		return 0;
	execvp(argv[i + 1], argv + i + 1);
	fprintf(stderr, "chrt: failed to execute %s: %s\n", argv[i + 1], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
