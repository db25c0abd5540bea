/*
 * exec's argv and /proc/PID, judged against Linux (tests/qemu/user/test_fd_events.py): execve with
 * an empty argv (Linux 6.1 gives the program "" as argv[0]), readlink of /proc/self (its exact
 * length, and a short buffer cut), and /proc/PID/syscall: the system call a task is in, its six
 * arguments, stack pointer and program counter, of the reader itself and of a child in pause.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHILD_ENV "ARGVPROC_CHILD=1"
#define POLL_NS 10000000L /* looking for the child asleep: every 10 ms */
#define POLL_TRIES 1000 /* at most 10 s */

/* Splits a /proc/PID/syscall line into its fields; returns how many. */
static int fields(char *line, unsigned long long *v, int max)
{
	int n = 0;

	for (char *tok = strtok(line, " \n"); tok && n < max; tok = strtok(NULL, " \n"))
		v[n++] = strtoull(tok, NULL, 0);
	return n;
}

static char state_of(pid_t pid)
{
	char path[64], buf[256], *p;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] && p[2] ? p[2] : '?';
}

static void syscall_file(void)
{
	char buf[512];
	unsigned long long v[16];
	int fd = open("/proc/self/syscall", O_RDONLY), status;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	pid_t pid;

	buf[n > 0 ? n : 0] = '\0';
	int k = fields(buf, v, 16);
	printf("self: %d fields, nr %llu, fd right %d, count right %d, buf right %d\n", k, v[0],
	       v[1] == (unsigned long long)fd, v[3] == sizeof(buf) - 1,
	       v[2] == (unsigned long long)(unsigned long)buf);
	close(fd);

	pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	for (int i = 0; i < POLL_TRIES && state_of(pid) != 'S'; i++) {
		struct timespec ts = {0, POLL_NS};

		nanosleep(&ts, NULL);
	}
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	fd = open(path, O_RDONLY);
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	k = fields(buf, v, 16);
	printf("child in pause: %d fields, nr %llu, sp nonzero %d, pc nonzero %d\n", k, v[0],
	       k == 9 && v[7] != 0, k == 9 && v[8] != 0);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	printf("child killed: %d\n", WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	fd = open(path, O_RDONLY);
	printf("reaped child's syscall file: %s\n", fd < 0 ? strerror(errno) : "there");
}

int main(int argc, char **argv, char **envp)
{
	char buf[64], want[32];
	struct stat st;
	int status;
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (getenv("ARGVPROC_CHILD")) {
		printf("empty argv: argc %d, argv[0] \"%s\", argv[1] %s\n", argc,
		       argc ? argv[0] : "(none)", argc && !argv[1] ? "NULL" : "set");
		return 0;
	}
	(void)envp;
	pid = fork();
	if (pid == 0) {
		char *none[] = {NULL};
		char *env[] = {CHILD_ENV, NULL};

		execve("/proc/self/exe", none, env);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	pid = fork();
	if (pid == 0) {
		char *env[] = {CHILD_ENV, NULL};

		execve("/proc/self/exe", NULL, env); /* NULL itself: the same, as Linux's */
		_exit(127);
	}
	waitpid(pid, &status, 0);

	snprintf(want, sizeof(want), "%d", getpid());
	ssize_t n = readlink("/proc/self", buf, sizeof(buf));
	printf("readlink(/proc/self): length right %d, text right %d\n", n == (ssize_t)strlen(want),
	       n > 0 && !memcmp(buf, want, (size_t)n));
	n = readlink("/proc/self", buf, 1);
	printf("readlink(/proc/self, 1 byte): %zd, right %d\n", n, buf[0] == want[0]);
	lstat("/proc/self", &st);
	printf("lstat(/proc/self): link %d, size %lld\n", S_ISLNK(st.st_mode),
	       (long long)st.st_size);
	syscall_file();
	return 0;
}
