/*
 * An execve by a thread other than the leader keeps the process's ITIMER_REAL (alarm), as
 * Linux's de_thread does: the timer is the process's (signal_struct), not the leader's. The
 * program sets ITIMER_REAL (30 s, every 20 s), a second thread execs the program again, and the
 * new image reads the timer: still armed, not longer than it was set, the interval the same.
 * A single-threaded exec keeps it too (POSIX: alarm survives execve). No timer ever fires here.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#define VALUE_SEC 30
#define INTERVAL_SEC 20

static const char *self = "/proc/self/exe"; /* argv[0] may be a bare name */

static void report(const char *how, const char *pid_before)
{
	struct itimerval it;

	getitimer(ITIMER_REAL, &it);
	printf("after exec by %s: same pid %s, armed %s, within the value set %s, interval %lds\n",
	       how, atol(pid_before) == getpid() ? "yes" : "no",
	       it.it_value.tv_sec || it.it_value.tv_usec ? "yes" : "no",
	       it.it_value.tv_sec < VALUE_SEC ||
			       (it.it_value.tv_sec == VALUE_SEC && !it.it_value.tv_usec)
		       ? "yes"
		       : "no",
	       (long)it.it_interval.tv_sec);
}

static void *execer(void *arg)
{
	char pid[16];

	(void)arg;
	snprintf(pid, sizeof(pid), "%d", getpid());
	execl(self, self, "thread", pid, (char *)NULL);
	perror("execl");
	exit(1);
}

int main(int argc, char **argv)
{
	struct itimerval it = {{INTERVAL_SEC, 0}, {VALUE_SEC, 0}};
	char pid[16];
	pthread_t th;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 3 && !strcmp(argv[1], "thread")) {
		report("a thread", argv[2]);
		/* Now the leader's exec, one thread: the timer stays again. */
		snprintf(pid, sizeof(pid), "%d", getpid());
		execl(self, self, "leader", pid, (char *)NULL);
		perror("execl");
		return 1;
	}
	if (argc == 3 && !strcmp(argv[1], "leader")) {
		report("the leader", argv[2]);
		alarm(0); /* cancelled: it must not outlive the test */
		return 0;
	}
	setitimer(ITIMER_REAL, &it, NULL);
	pthread_create(&th, NULL, execer, NULL);
	pthread_join(th, NULL); /* never returns: the exec ends this thread */
	return 1;
}
