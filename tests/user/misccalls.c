/*
 * The smaller calls, judged against Linux (tests/qemu/user/test_fd_events.py):
 * getcpu, clock_getres for every clock (and which clocks clock_nanosleep refuses), mknodat
 * (FIFOs: an open waiting for the other end, O_NONBLOCK's answers; a regular file; errors),
 * pidfd_send_signal, membarrier's query and commands, and unshare of what is not shared.
 * Prints only what Linux fixes: no CPU numbers, times or pids.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHILD_NAP_NS 200000000L
#define MEMBARRIER_CMD_GLOBAL 1
#define MEMBARRIER_CMD_GLOBAL_EXPEDITED 2
#define MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED 4
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED 8
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED 16
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE 32
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE 64

static void show(const char *what, long ret)
{
	printf("%s = %ld%s%s\n", what, ret < 0 ? -1L : ret, ret < 0 ? " " : "",
	       ret < 0 ? strerror(errno) : "");
}

static void nap(void)
{
	struct timespec ts = {0, CHILD_NAP_NS};

	nanosleep(&ts, NULL);
}

static void cpus_and_clocks(void)
{
	unsigned int cpu = ~0U, node = ~0U;
	struct timespec now_wall;
	cpu_set_t one;
	struct timespec res;
	static const struct {
		int id;
		const char *name;
	} clocks[] = {
		{CLOCK_REALTIME, "REALTIME"},
		{CLOCK_MONOTONIC, "MONOTONIC"},
		{CLOCK_PROCESS_CPUTIME_ID, "PROCESS_CPUTIME_ID"},
		{CLOCK_THREAD_CPUTIME_ID, "THREAD_CPUTIME_ID"},
		{CLOCK_MONOTONIC_RAW, "MONOTONIC_RAW"},
		{CLOCK_REALTIME_COARSE, "REALTIME_COARSE"},
		{CLOCK_MONOTONIC_COARSE, "MONOTONIC_COARSE"},
		{CLOCK_BOOTTIME, "BOOTTIME"},
		{CLOCK_TAI, "TAI"},
		{10, "10 (none)"},
		{12, "12 (none)"},
		{-1, "-1 (none)"},
	};

	show("getcpu", syscall(SYS_getcpu, &cpu, &node, NULL));
	printf("cpu below the count: %d, node %u\n",
	       cpu < (unsigned int)sysconf(_SC_NPROCESSORS_CONF), node);
	show("getcpu(NULL, NULL)", syscall(SYS_getcpu, NULL, NULL, NULL));
	show("getcpu(fault)", syscall(SYS_getcpu, (void *)8, NULL, NULL));
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_setaffinity(0, sizeof(one), &one);
	sched_yield();
	syscall(SYS_getcpu, &cpu, NULL, NULL);
	printf("on CPU 0 only: getcpu %u\n", cpu);

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		long r = syscall(SYS_clock_getres, clocks[i].id, &res);
		char what[64];

		snprintf(what, sizeof(what), "clock_getres(%s)", clocks[i].name);
		if (r < 0) {
			show(what, r);
			continue;
		}
		if (clocks[i].id == CLOCK_REALTIME_COARSE || clocks[i].id == CLOCK_MONOTONIC_COARSE)
			printf("%s = 0: a tick, 1 to 10 ms: %d\n", what,
			       res.tv_sec == 0 && res.tv_nsec >= 1000000 &&
				       res.tv_nsec <= 10000000);
		else
			printf("%s = 0: %ld.%09ld\n", what, (long)res.tv_sec, res.tv_nsec);
		/* The clock reads, too. */
		struct timespec now;

		printf("  clock_gettime = %ld\n", syscall(SYS_clock_gettime, clocks[i].id, &now));
	}
	/* The CPU-time clocks count this process's running, not time since boot. */
	struct timespec mono, proc, thr, t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &thr); /* first: the process's is read later */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &proc);
	/*
	 * Below the time since boot, read before it (to the nanosecond: a kernel just booted has
	 * run for less than a second); the old clock, time since boot, read after it, was above.
	 */
	bool below = proc.tv_sec < mono.tv_sec ||
		     (proc.tv_sec == mono.tv_sec && proc.tv_nsec < mono.tv_nsec);
	bool above_thread = proc.tv_sec > thr.tv_sec ||
			    (proc.tv_sec == thr.tv_sec && proc.tv_nsec >= thr.tv_nsec);

	printf("process CPU time below its life so far: %d, at least the thread's: %d\n", below,
	       above_thread);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	do { /* spin until it moves, for at most 10 s of the wall clock */
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
		clock_gettime(CLOCK_MONOTONIC, &now_wall);
	} while (t1.tv_sec == t0.tv_sec && t1.tv_nsec == t0.tv_nsec &&
		 now_wall.tv_sec < mono.tv_sec + 10);
	printf("thread CPU time moves while it spins: %d\n",
	       t1.tv_sec != t0.tv_sec || t1.tv_nsec != t0.tv_nsec);
	show("clock_getres(MONOTONIC, NULL)", syscall(SYS_clock_getres, CLOCK_MONOTONIC, NULL));
	show("clock_getres(MONOTONIC, fault)",
	     syscall(SYS_clock_getres, CLOCK_MONOTONIC, (void *)8));
	struct timespec short_nap = {0, 1000000};
	printf("clock_nanosleep(REALTIME_COARSE) = %s\n",
	       strerror(clock_nanosleep(CLOCK_REALTIME_COARSE, 0, &short_nap, NULL)));
	printf("clock_nanosleep(MONOTONIC_COARSE) = %s\n",
	       strerror(clock_nanosleep(CLOCK_MONOTONIC_COARSE, 0, &short_nap, NULL)));
	printf("clock_nanosleep(MONOTONIC_RAW) = %s\n",
	       strerror(clock_nanosleep(CLOCK_MONOTONIC_RAW, 0, &short_nap, NULL)));
	printf("clock_nanosleep(BOOTTIME) = %s\n",
	       strerror(clock_nanosleep(CLOCK_BOOTTIME, 0, &short_nap, NULL)));
	printf("clock_nanosleep(TAI) = %s\n",
	       strerror(clock_nanosleep(CLOCK_TAI, 0, &short_nap, NULL)));
}

static void fifos(void)
{
	struct stat st;
	char buf[16] = "";
	int fd, status, dir = open(".", O_RDONLY | O_DIRECTORY);
	pid_t pid;

	umask(022);
	show("mknodat(FIFO)", mknodat(dir, "fifo", S_IFIFO | 0666, 0));
	stat("fifo", &st);
	printf("a FIFO %d, mode %o\n", S_ISFIFO(st.st_mode), st.st_mode & 07777);
	show("mknod(FIFO, exists)", mknod("fifo", S_IFIFO | 0600, 0));
	show("mknod(directory)", mknod("dir", S_IFDIR | 0755, 0));
	show("mknod(bad type)", mknod("bad", 0170000 | 0644, 0));
	show("mknod(no parent)", mknod("none/fifo", S_IFIFO | 0644, 0));
	show("mknod(regular)", mknod("regular", 0644, 0));
	stat("regular", &st);
	printf("regular %d size %ld\n", S_ISREG(st.st_mode), (long)st.st_size);
	show("mknod(socket)", mknod("sock", S_IFSOCK | 0644, 0));
	show("open(socket node)", open("sock", O_RDONLY));
	show("open(FIFO, write, nonblock, no reader)", open("fifo", O_WRONLY | O_NONBLOCK));
	fd = open("fifo", O_RDONLY | O_NONBLOCK);
	printf("open(FIFO, read, nonblock): %s\n", fd >= 0 ? "ok" : strerror(errno));
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	int n = poll(&pfd, 1, 0);
	printf("poll, no writer yet: %d %#x\n", n, pfd.revents);
	show("read, no writer yet", read(fd, buf, sizeof(buf)));
	int wr = open("fifo", O_WRONLY | O_NONBLOCK);
	printf("open(FIFO, write, nonblock, a reader): %s\n", wr >= 0 ? "ok" : strerror(errno));
	show("write", write(wr, "abc", 3));
	close(wr);
	n = poll(&pfd, 1, 0);
	printf("poll, writer gone: %d %#x\n", n, pfd.revents);
	show("read", read(fd, buf, sizeof(buf)));
	show("read, writer gone", read(fd, buf, sizeof(buf)));
	close(fd);
	/* The data of a FIFO nobody has open is gone. */
	fd = open("fifo", O_RDWR);
	printf("open(FIFO, O_RDWR) does not wait: %s\n", fd >= 0 ? "ok" : strerror(errno));
	write(fd, "left", 4);
	close(fd);
	fd = open("fifo", O_RDWR | O_NONBLOCK);
	show("read, reopened", read(fd, buf, sizeof(buf)));
	close(fd);

	/* A blocking reader waits for a writer, who comes later. */
	pid = fork();
	if (pid == 0) {
		nap();
		int w = open("fifo", O_WRONLY);

		write(w, "from child", 10);
		_exit(0);
	}
	fd = open("fifo", O_RDONLY);
	memset(buf, 0, sizeof(buf));
	ssize_t got = read(fd, buf, sizeof(buf) - 1);
	printf("blocking open and read: %zd %s\n", got, buf);
	close(fd);
	waitpid(pid, &status, 0);
	/* A blocking writer waits for a reader. */
	pid = fork();
	if (pid == 0) {
		nap();
		int r = open("fifo", O_RDONLY);
		char b[8] = "";

		read(r, b, sizeof(b) - 1);
		printf("child read: %s\n", b);
		_exit(0);
	}
	fd = open("fifo", O_WRONLY);
	got = write(fd, "hello", 5);
	close(fd);
	waitpid(pid, &status, 0); /* its line first */
	show("writer's open waited, write", got);
	unlink("fifo");
	unlink("regular");
	unlink("sock");
	close(dir);
}

static void pidfds(void)
{
	int status, pfd, self;
	pid_t pid;
	siginfo_t si;

	pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	/* Flags: none in Linux 6.1; later ones took bits 0-2 (PIDFD_SIGNAL_*). */
	show("pidfd_send_signal(flags 8)", syscall(SYS_pidfd_send_signal, pfd, SIGTERM, NULL, 8));
	show("pidfd_send_signal(bad fd)", syscall(SYS_pidfd_send_signal, 99, SIGTERM, NULL, 0));
	show("pidfd_send_signal(not a pidfd)", syscall(SYS_pidfd_send_signal, 1, SIGTERM, NULL, 0));
	show("pidfd_send_signal(bad signal)", syscall(SYS_pidfd_send_signal, pfd, 99, NULL, 0));
	show("pidfd_send_signal(0)", syscall(SYS_pidfd_send_signal, pfd, 0, NULL, 0));
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_QUEUE;
	show("pidfd_send_signal(info of another signal)",
	     syscall(SYS_pidfd_send_signal, pfd, SIGTERM, &si, 0));
	si.si_signo = SIGTERM;
	si.si_code = SI_USER;
	show("pidfd_send_signal(info claiming kill)",
	     syscall(SYS_pidfd_send_signal, pfd, SIGTERM, &si, 0));
	show("pidfd_send_signal(info fault)",
	     syscall(SYS_pidfd_send_signal, pfd, SIGTERM, (void *)8, 0));
	show("pidfd_send_signal(SIGTERM)", syscall(SYS_pidfd_send_signal, pfd, SIGTERM, NULL, 0));
	waitpid(pid, &status, 0);
	printf("child killed by SIGTERM: %d\n", WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	show("pidfd_send_signal(reaped)", syscall(SYS_pidfd_send_signal, pfd, SIGTERM, NULL, 0));
	close(pfd);

	/* To oneself, an info that claims a kernel code is allowed; the handler sees it. */
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	self = (int)syscall(SYS_pidfd_open, getpid(), 0);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_QUEUE;
	si.si_pid = 4242;
	show("pidfd_send_signal(self, SI_QUEUE info)",
	     syscall(SYS_pidfd_send_signal, self, SIGUSR1, &si, 0));
	struct signalfd_siginfo ssi;
	int sfd = signalfd(-1, &usr1, SFD_NONBLOCK);

	memset(&ssi, 0, sizeof(ssi));
	read(sfd, &ssi, sizeof(ssi));
	printf("got %u code %d pid %u\n", ssi.ssi_signo, ssi.ssi_code, ssi.ssi_pid);
	show("pidfd_send_signal(self, plain)",
	     syscall(SYS_pidfd_send_signal, self, SIGUSR1, NULL, 0));
	memset(&ssi, 0, sizeof(ssi));
	read(sfd, &ssi, sizeof(ssi));
	printf("got %u code %d pid is me %d\n", ssi.ssi_signo, ssi.ssi_code,
	       ssi.ssi_pid == (unsigned int)getpid());
	close(sfd);
	sigprocmask(SIG_UNBLOCK, &usr1, NULL);
	close(self);
}

static void membarriers(void)
{
	long q = syscall(SYS_membarrier, 0, 0, 0);

	printf("membarrier(QUERY): GLOBAL %d, GLOBAL_EXPEDITED %d, PRIVATE_EXPEDITED %d, "
	       "SYNC_CORE %d\n",
	       !!(q & MEMBARRIER_CMD_GLOBAL), !!(q & MEMBARRIER_CMD_GLOBAL_EXPEDITED),
	       !!(q & MEMBARRIER_CMD_PRIVATE_EXPEDITED),
	       !!(q & MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE));
	show("membarrier(QUERY, flags 1)", syscall(SYS_membarrier, 0, 1, 0));
	show("membarrier(GLOBAL)", syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0));
	show("membarrier(GLOBAL, flags 1)", syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 1, 0));
	show("membarrier(GLOBAL_EXPEDITED)",
	     syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL_EXPEDITED, 0, 0));
	show("membarrier(PRIVATE_EXPEDITED, unregistered)",
	     syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0));
	show("membarrier(REGISTER_PRIVATE_EXPEDITED)",
	     syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0));
	show("membarrier(PRIVATE_EXPEDITED)",
	     syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0));
	show("membarrier(PRIVATE_EXPEDITED_SYNC_CORE, unregistered)",
	     syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0));
	show("membarrier(REGISTER_PRIVATE_EXPEDITED_SYNC_CORE)",
	     syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0));
	show("membarrier(PRIVATE_EXPEDITED_SYNC_CORE)",
	     syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE, 0, 0));
	show("membarrier(REGISTER_GLOBAL_EXPEDITED)",
	     syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED, 0, 0));
	show("membarrier(3: not a command)", syscall(SYS_membarrier, 3, 0, 0));
	show("membarrier(1 << 20)", syscall(SYS_membarrier, 1 << 20, 0, 0));
}

static void unshares(void)
{
	int fd = open("/", O_RDONLY);
	char cwd[64];

	show("unshare(0)", unshare(0));
	show("unshare(CLONE_FILES)", unshare(CLONE_FILES));
	printf("descriptors kept: %d\n", fcntl(fd, F_GETFD) >= 0);
	chdir("/proc");
	show("unshare(CLONE_FS)", unshare(CLONE_FS));
	printf("cwd kept: %s\n", getcwd(cwd, sizeof(cwd)));
	show("unshare(CLONE_FILES | CLONE_FS | CLONE_SYSVSEM)",
	     unshare(CLONE_FILES | CLONE_FS | CLONE_SYSVSEM));
	show("unshare(CLONE_THREAD | CLONE_SIGHAND | CLONE_VM), alone",
	     unshare(CLONE_THREAD | CLONE_SIGHAND | CLONE_VM));
	show("unshare(bad flag)", unshare(0x1));
	close(fd);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	cpus_and_clocks();
	fifos();
	pidfds();
	membarriers();
	unshares();
	return 0;
}
