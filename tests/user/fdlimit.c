/*
 * fdlimit: RLIMIT_NOFILE and the other resource limits, judged against the host
 * (tests/qemu/user/test_syscalls.py). With Linux's defaults set first (1024 soft, 4096 hard):
 * 1024 descriptors open and the next is EMFILE; dup2 and F_DUPFD past the limit; poll's
 * nfds limit; select on a descriptor past 64; a lower limit set by prlimit64 (fork and exec
 * keep it); setrlimit's errors; getrlimit and setrlimit as system calls of their own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOFILE_CUR 1024
#define NOFILE_MAX 4096
#define NR_OPEN 1048576 /* Linux's fs.nr_open */
#define LOWER 200
#define HIGH_FD 1000
#define NO_SUCH_PID 999999

static void show(const char *what, int resource)
{
	struct rlimit r;

	if (getrlimit(resource, &r))
		printf("%s: getrlimit: %s\n", what, strerror(errno));
	else
		printf("%s: %llu %llu\n", what, (unsigned long long)r.rlim_cur,
		       (unsigned long long)r.rlim_max);
}

static void set(const char *what, int resource, rlim_t cur, rlim_t max)
{
	struct rlimit r = {cur, max};

	printf("%s: %s\n", what, setrlimit(resource, &r) ? strerror(errno) : "ok");
}

/* Opens /dev/null until it fails: how many, the last fd, and why it stopped. */
static void fill(void)
{
	int last = -1, n = 0, fd;

	while ((fd = open("/dev/null", O_RDONLY)) >= 0) {
		last = fd;
		n++;
	}
	printf("opened %d more, the last %d, then: %s\n", n, last, strerror(errno));
}

static void close_from(int first)
{
	for (int fd = first; fd < NOFILE_MAX; fd++)
		close(fd);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "show")) {
		show("after exec, nofile", RLIMIT_NOFILE);
		return 0;
	}
	setvbuf(stdout, NULL, _IOFBF, BUFSIZ);
	close_from(3); /* whatever the caller left open */
	set("linux's defaults", RLIMIT_NOFILE, NOFILE_CUR, NOFILE_MAX);
	show("nofile", RLIMIT_NOFILE);

	fill();
	printf("dup2 to %d: %s\n", NOFILE_CUR, dup2(0, NOFILE_CUR) < 0 ? strerror(errno) : "ok");
	printf("F_DUPFD %d: %s\n", NOFILE_CUR,
	       fcntl(0, F_DUPFD, NOFILE_CUR) < 0 ? strerror(errno) : "ok");
	printf("F_DUPFD %d: %s\n", HIGH_FD,
	       fcntl(0, F_DUPFD, HIGH_FD) < 0 ? strerror(errno) : "ok");
	close(HIGH_FD);
	printf("F_DUPFD 900 after closing %d: %d\n", HIGH_FD, fcntl(0, F_DUPFD, 900));
	close_from(3);

	/* poll: nfds up to the limit; select on a descriptor past 64. */
	struct pollfd *pf = calloc(NOFILE_CUR + 1, sizeof(*pf));
	for (int i = 0; i <= NOFILE_CUR; i++)
		pf[i].fd = -1;
	printf("poll %d: %d\n", NOFILE_CUR, poll(pf, NOFILE_CUR, 0));
	printf("poll %d: %s\n", NOFILE_CUR + 1,
	       poll(pf, NOFILE_CUR + 1, 0) < 0 ? strerror(errno) : "ok");
	int p[2];
	if (pipe(p) || dup2(p[0], HIGH_FD) != HIGH_FD || write(p[1], "x", 1) != 1)
		printf("pipe: %s\n", strerror(errno));
	fd_set rd;
	struct timeval tv = {0, 0};
	FD_ZERO(&rd);
	FD_SET(HIGH_FD, &rd);
	int ready = select(HIGH_FD + 1, &rd, NULL, NULL, &tv);
	printf("select on %d: %d, set %d\n", HIGH_FD, ready, FD_ISSET(HIGH_FD, &rd));
	pf[0] = (struct pollfd){.fd = HIGH_FD, .events = POLLIN};
	ready = poll(pf, 1, 0);
	printf("poll on %d: %d, revents %#x\n", HIGH_FD, ready, pf[0].revents);
	close_from(3);

	/* Errors. */
	set("soft above hard", RLIMIT_NOFILE, NOFILE_MAX + 1, NOFILE_MAX);
	set("hard above nr_open", RLIMIT_NOFILE, NOFILE_CUR, NR_OPEN + 1);
	struct rlimit r;
	printf("getrlimit 100: %s\n", getrlimit(100, &r) ? strerror(errno) : "ok");
	struct rlimit lim = {LOWER, NOFILE_MAX};
	printf("prlimit of pid %d: %s\n", NO_SUCH_PID,
	       prlimit(NO_SUCH_PID, RLIMIT_NOFILE, &lim, NULL) ? strerror(errno) : "ok");

	/* prlimit64 sets a lower limit and says the old one; fork and exec keep it. */
	struct rlimit old;
	if (prlimit(getpid(), RLIMIT_NOFILE, &lim, &old))
		printf("prlimit: %s\n", strerror(errno));
	printf("prlimit's old: %llu %llu\n", (unsigned long long)old.rlim_cur,
	       (unsigned long long)old.rlim_max);
	fill();
	close_from(3);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		show("child, nofile", RLIMIT_NOFILE);
		fflush(stdout);
		execl("/proc/self/exe", "fdlimit", "show", (char *)NULL);
		_exit(1);
	}
	waitpid(pid, NULL, 0);

	/* getrlimit and setrlimit themselves (musl and glibc call prlimit64). */
	struct rlimit sr = {LOWER + 1, NOFILE_MAX};
	printf("SYS_setrlimit: %ld\n", syscall(SYS_setrlimit, RLIMIT_NOFILE, &sr));
	memset(&sr, 0, sizeof(sr));
	long ret = syscall(SYS_getrlimit, RLIMIT_NOFILE, &sr);
	printf("SYS_getrlimit: %ld %llu %llu\n", ret, (unsigned long long)sr.rlim_cur,
	       (unsigned long long)sr.rlim_max);

	/* RLIMIT_STACK set and read back; RLIMIT_NPROC read. */
	set("stack 8 MiB", RLIMIT_STACK, 8 << 20, RLIM_INFINITY);
	show("stack", RLIMIT_STACK);
	getrlimit(RLIMIT_NPROC, &r);
	printf("nproc: %s\n", r.rlim_cur > 0 ? "some" : "none");
	fflush(stdout);
	return 0;
}
