/*
 * recwait [-t SECONDS] CMD [ARG...]: runs CMD once the recorders of the trace-cmd that started
 * it are reading, as the command of `trace-cmd record ... recwait CMD`.
 *
 * Why: trace-cmd record forks one recorder per CPU, runs CMD, and when CMD has ended sends each
 * recorder SIGUSR1. A recorder that gets it before it has set itself up reads nothing: its
 * handler (trace-cmd's finish()) finds no recorder yet and only ends the loop that was about to
 * start, or the signal comes before signal(SIGUSR1, finish) and its default action kills the
 * recorder before it made its file ("can not stat 'trace.dat.cpuN'"). That CPU's events are then
 * lost. On Linux a recorder sets itself up in microseconds and a CMD seldom ends first; under
 * QEMU's TCG on a loaded host a virtual CPU can wait tens of milliseconds for the host, and a
 * CMD as short as `cat FILE` ends first now and then (tests/qemu/trace/test_kprobe_events.py saw
 * it).
 *
 * How: a recorder that has set itself up sleeps in its loop (select on trace_pipe_raw, or the
 * nanosleep between reads); while it sets itself up it never sleeps interruptibly. So recwait
 * reads /proc/PID/stat of every other child of its parent (trace-cmd) and waits until each is
 * sleeping ('S') or has exited ('Z', or gone), then execs CMD: the same process, so the pid that
 * trace-cmd -F follows is CMD's. After SECONDS (default RECWAIT_TIMEOUT_S) of waiting it says
 * which child still runs and exits with status 1 without running CMD.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proc_stat.h"

#define RECWAIT_TIMEOUT_S 60 /* far beyond any recorder's set-up, however loaded the host */
#define RECWAIT_POLL_NS 10000000L /* 10 ms between looks: the recorders get the CPU meanwhile */
#define NSEC_PER_SEC 1000000000L

/* The pid of a child of parent (not me) neither asleep nor exited, or 0 when there is none. */
static int busy_sibling(int me, int parent)
{
	int busy = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d) {
		perror("recwait: /proc");
		exit(1);
	}
	while (!busy && (e = readdir(d))) {
		int pid = atoi(e->d_name), ppid;
		if (!isdigit((unsigned char)e->d_name[0]) || pid == me)
			continue;
		char state = stat_of(pid, &ppid);
		if (state && ppid == parent && state != 'S' && state != 'Z')
			busy = pid;
	}
	closedir(d);
	return busy;
}

static void usage(void)
{
	fprintf(stderr, "usage: recwait [-t SECONDS] CMD [ARG...]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long timeout = RECWAIT_TIMEOUT_S;
	int opt;

	while ((opt = getopt(argc, argv, "+t:")) != -1) {
		char *end;
		if (opt != 't')
			usage();
		timeout = strtol(optarg, &end, 10);
		if (*optarg == '\0' || *end != '\0' || timeout <= 0)
			usage();
	}
	if (optind >= argc)
		usage();

	struct timespec start, now, nap = {0, RECWAIT_POLL_NS};
	int me = getpid(), parent = getppid();
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (int busy; (busy = busy_sibling(me, parent));) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - start.tv_sec) * NSEC_PER_SEC + (now.tv_nsec - start.tv_nsec) >=
		    timeout * NSEC_PER_SEC) {
			fprintf(stderr, "recwait: pid %d still runs after %ld s; not running %s\n",
				busy, timeout, argv[optind]);
			return 1;
		}
		nanosleep(&nap, NULL);
	}
	execvp(argv[optind], argv + optind);
	fprintf(stderr, "recwait: %s: %s\n", argv[optind], strerror(errno));
	return 127;
}
