/*
 * threads: a process of several threads, as Linux makes them, through musl's
 * pthreads and the raw calls under them. Prints what Linux prints, so the host's output is
 * the reference (tests/qemu/user/test_threads.py): no pids or times, only facts about them.
 *
 *   threads [SECTION]   every check below (or those of one: ids signals exits robust futex
 *                       comm exec), one line each
 *   threads execd PID   (the program a thread exec'd: is it still process PID?)
 *   threads park SECS   two threads named park-1 and park-2 wait SECS seconds with main
 *                       (for ps -T and the tracer's tests), then all end
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* futex(2)'s operations (linux/futex.h, which musl-gcc does not have). */
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAIT_BITSET 9
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_WAIT_PRIVATE (FUTEX_WAIT | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_PRIVATE (FUTEX_WAKE | FUTEX_PRIVATE_FLAG)
#define FUTEX_CMP_REQUEUE_PRIVATE (FUTEX_CMP_REQUEUE | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAIT_BITSET_PRIVATE (FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG)
#define FUTEX_BITSET_MATCH_ANY 0xffffffff

#define NWAITERS 3
#define WAIT_LOOPS 2000000 /* a spin bound: far more than a wake takes, even under TCG */

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static long futex(atomic_int *uaddr, int op, int val, const struct timespec *ts, atomic_int *uaddr2,
		  int val3)
{
	return syscall(SYS_futex, uaddr, op, val, ts, uaddr2, val3);
}

static const char *yes(int b)
{
	return b ? "yes" : "no";
}

/* --- ids: getpid is the process's, gettid the thread's, /proc/self/task lists them --- */

static pid_t thread_pid, thread_tid;
static atomic_int go, ready;

static void *ids_thread(void *arg)
{
	(void)arg;
	thread_pid = getpid();
	thread_tid = gettid_();
	atomic_store(&ready, 1);
	while (!atomic_load(&go))
		usleep(1000);
	return (void *)42;
}

/* How many threads a task directory lists: /proc/self/task, or a thread's /proc/TID/task. */
static int count_tasks_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static int count_tasks(void)
{
	return count_tasks_in("/proc/self/task");
}

#define REAP_LOOKS 10000 /* 1 ms apart at least: 10 s, far beyond a loaded host's delay */

/*
 * The tasks once a joined thread has gone. pthread_join returns when the kernel clears the
 * thread's tid (CLONE_CHILD_CLEARTID), early in its exit; its /proc/self/task entry goes when
 * it is reaped, a moment later, on Linux as in Lucid. A loaded host can stretch that moment,
 * so look again, bounded.
 */
static int count_tasks_after_join(int want)
{
	int n = count_tasks();

	for (int i = 0; n != want && i < REAP_LOOKS; i++) {
		usleep(1000);
		n = count_tasks();
	}
	return n;
}

static void check_ids(void)
{
	pthread_t th;
	void *ret;
	char path[64];

	atomic_store(&go, 0);
	atomic_store(&ready, 0);
	pthread_create(&th, NULL, ids_thread, NULL);
	while (!atomic_load(&ready))
		usleep(1000);
	printf("main: tid == pid: %s\n", yes(gettid_() == getpid()));
	printf("thread: same pid: %s\n", yes(thread_pid == getpid()));
	printf("thread: own tid: %s\n", yes(thread_tid != getpid() && thread_tid > 0));
	printf("/proc/self/task entries: %d\n", count_tasks());
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", getpid(), thread_tid);
	printf("/proc/PID/task/TID/stat readable: %s\n", yes(access(path, R_OK) == 0));
	snprintf(path, sizeof(path), "/proc/%d/task", thread_tid); /* a thread's: its process's */
	printf("/proc/TID/task entries: %d\n", count_tasks_in(path));
	snprintf(path, sizeof(path), "/proc/%d/status", thread_tid);
	FILE *f = fopen(path, "r");
	char line[128];
	int tgid = 0, pid = 0;
	while (f && fgets(line, sizeof(line), f)) {
		sscanf(line, "Tgid: %d", &tgid);
		sscanf(line, "Pid: %d", &pid);
	}
	if (f)
		fclose(f);
	printf("/proc/TID/status: Tgid is the process, Pid the thread: %s\n",
	       yes(tgid == getpid() && pid == thread_tid));
	atomic_store(&go, 1);
	pthread_join(th, &ret);
	printf("join returned %ld\n", (long)ret);
	printf("/proc/self/task entries after join: %d\n", count_tasks_after_join(1));
	printf("set_tid_address returns the tid: %s\n",
	       yes(syscall(SYS_set_tid_address, NULL) == gettid_()));
}

/* --- signals: tgkill reaches one thread, kill the process (any thread not blocking it) --- */

static atomic_int handled_tid;

static void on_sig(int sig)
{
	(void)sig;
	atomic_store(&handled_tid, gettid_());
}

static void *sig_thread(void *arg)
{
	(void)arg;
	thread_tid = gettid_();
	atomic_store(&ready, 1);
	while (!atomic_load(&go))
		usleep(1000);
	return NULL;
}

static void check_signals(void)
{
	pthread_t th;
	sigset_t set;

	signal(SIGUSR1, on_sig);
	signal(SIGUSR2, on_sig);
	atomic_store(&go, 0);
	atomic_store(&ready, 0);
	pthread_create(&th, NULL, sig_thread, NULL);
	while (!atomic_load(&ready))
		usleep(1000);
	atomic_store(&handled_tid, 0);
	syscall(SYS_tgkill, getpid(), thread_tid, SIGUSR1);
	for (int i = 0; i < WAIT_LOOPS && !atomic_load(&handled_tid); i++)
		usleep(100);
	printf("tgkill: handled by that thread: %s\n",
	       yes(atomic_load(&handled_tid) == thread_tid));
	atomic_store(&handled_tid, 0);
	syscall(SYS_tgkill, getpid(), gettid_(), SIGUSR1);
	printf("tgkill to itself: handled at once by main: %s\n",
	       yes(atomic_load(&handled_tid) == gettid_()));
	printf("tgkill with the wrong tgid: %s\n",
	       syscall(SYS_tgkill, getpid() + 100000, thread_tid, SIGUSR1) < 0 && errno == ESRCH
		       ? "ESRCH"
		       : "?");
	/* Main blocks SIGUSR2: a kill of the process must reach the thread that does not. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	atomic_store(&handled_tid, 0);
	kill(getpid(), SIGUSR2);
	for (int i = 0; i < WAIT_LOOPS && !atomic_load(&handled_tid); i++)
		usleep(100);
	printf("kill: handled by the thread not blocking it: %s\n",
	       yes(atomic_load(&handled_tid) == thread_tid));
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	atomic_store(&go, 1);
	pthread_join(th, NULL);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

/* --- exit and exit_group, a fatal signal, seen by the parent's waitpid --- */

static void *spin_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void *tid_spin_thread(void *arg)
{
	(void)arg;
	atomic_store(&handled_tid, gettid_());
	for (;;)
		pause();
	return NULL;
}

static void *late_exit_thread(void *arg)
{
	(void)arg;
	usleep(50000); /* the main thread has exited by now: the process lives on in us */
	printf("  thread outlives main: getppid still the parent: %s\n",
	       yes(getppid() == (pid_t)(intptr_t)arg));
	fflush(stdout);
	exit(7);
}

static void *exit_group_thread(void *arg)
{
	(void)arg;
	_exit(3); /* exit_group: the main thread, in pause(), ends too */
}

static void show_status(const char *what, int status)
{
	if (WIFEXITED(status))
		printf("%s: exited %d\n", what, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		printf("%s: killed by signal %d\n", what, WTERMSIG(status));
	else
		printf("%s: status %#x\n", what, status);
}

static void check_exits(void)
{
	pthread_t th;
	int status;
	pid_t pid, parent = getpid();

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pthread_create(&th, NULL, late_exit_thread, (void *)(intptr_t)parent);
		pthread_exit(NULL); /* exit(2) of the main thread alone */
	}
	waitpid(pid, &status, 0);
	show_status("main pthread_exit, thread exit(7)", status);

	pid = fork();
	if (pid == 0) {
		pthread_create(&th, NULL, exit_group_thread, NULL);
		for (;;)
			pause();
	}
	waitpid(pid, &status, 0);
	show_status("thread _exit(3) while main pauses", status);

	pid = fork();
	if (pid == 0) {
		pthread_create(&th, NULL, spin_thread, NULL);
		pthread_create(&th, NULL, spin_thread, NULL);
		for (;;)
			pause();
	}
	usleep(20000);
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
	show_status("SIGTERM to a process of three threads", status);

	pid = fork();
	if (pid == 0) {
		atomic_store(&handled_tid, 0);
		pthread_create(&th, NULL, tid_spin_thread, NULL);
		while (!atomic_load(&handled_tid))
			usleep(1000);
		syscall(SYS_tgkill, getpid(), atomic_load(&handled_tid), SIGKILL); /* all die */
		for (;;)
			pause();
	}
	waitpid(pid, &status, 0);
	show_status("tgkill SIGKILL to a thread", status);
}

/* --- robust mutexes: a holder that exits leaves EOWNERDEAD to the next --- */

static pthread_mutex_t robust;

static void *robust_thread(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&robust);
	return NULL; /* exits holding it */
}

static void check_robust(void)
{
	pthread_mutexattr_t a;
	pthread_t th;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&robust, &a);
	pthread_create(&th, NULL, robust_thread, NULL);
	pthread_join(th, NULL);
	int err = pthread_mutex_lock(&robust);
	printf("robust mutex of a dead owner: %s\n",
	       err == EOWNERDEAD ? "EOWNERDEAD" : strerror(err));
	if (err == EOWNERDEAD)
		pthread_mutex_consistent(&robust);
	pthread_mutex_unlock(&robust);
}

/* --- futex(2) itself --- */

static atomic_int fword, fword2, woken;

static void *futex_waiter(void *arg)
{
	(void)arg;
	atomic_fetch_add(&ready, 1);
	while (atomic_load(&fword) == 0)
		futex(&fword, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	atomic_fetch_add(&woken, 1);
	return NULL;
}

static const char *err_name(long r)
{
	if (r >= 0)
		return "ok";
	return errno == EAGAIN	    ? "EAGAIN"
	       : errno == ETIMEDOUT ? "ETIMEDOUT"
	       : errno == EINVAL    ? "EINVAL"
	       : errno == EFAULT    ? "EFAULT"
	       : errno == ENOSYS    ? "ENOSYS"
				    : "other";
}

static void check_futex(void)
{
	struct timespec ts = {0, 20 * 1000 * 1000}, abs;
	pthread_t th[NWAITERS];
	char buf[8] __attribute__((aligned(4)));

	atomic_store(&fword, 1);
	printf("FUTEX_WAIT on a changed word: %s\n",
	       err_name(futex(&fword, FUTEX_WAIT, 0, NULL, NULL, 0)));
	printf("FUTEX_WAIT 20 ms: %s\n", err_name(futex(&fword, FUTEX_WAIT, 1, &ts, NULL, 0)));
	clock_gettime(CLOCK_MONOTONIC, &abs);
	abs.tv_nsec += 20 * 1000 * 1000;
	if (abs.tv_nsec >= 1000000000) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000;
	}
	printf("FUTEX_WAIT_BITSET to an absolute end: %s\n",
	       err_name(futex(&fword, FUTEX_WAIT_BITSET_PRIVATE, 1, &abs, NULL,
			      FUTEX_BITSET_MATCH_ANY)));
	clock_gettime(CLOCK_REALTIME, &abs);
	abs.tv_nsec = 0;
	printf("FUTEX_WAIT_BITSET|CLOCK_REALTIME, an end past: %s\n",
	       err_name(futex(&fword, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 1, &abs, NULL,
			      FUTEX_BITSET_MATCH_ANY)));
	printf("FUTEX_WAIT_BITSET with bitset 0: %s\n",
	       err_name(futex(&fword, FUTEX_WAIT_BITSET, 1, NULL, NULL, 0)));
	printf("FUTEX_WAKE, nobody waits: %ld\n", futex(&fword, FUTEX_WAKE, 1, NULL, NULL, 0));
	printf("FUTEX_WAIT misaligned: %s\n",
	       err_name(futex((atomic_int *)(buf + 1), FUTEX_WAIT, 0, NULL, NULL, 0)));
	printf("FUTEX_WAIT on a bad address: %s\n",
	       err_name(futex((atomic_int *)8, FUTEX_WAIT, 0, NULL, NULL, 0)));
	printf("FUTEX_CMP_REQUEUE, value changed: %s\n",
	       err_name(futex(&fword, FUTEX_CMP_REQUEUE, 1, (void *)1, &fword2, 0)));
	printf("futex op 99: %s\n", err_name(futex(&fword, 99, 0, NULL, NULL, 0)));

	/* Three waiters on fword: one woken, two moved to fword2, then woken there. */
	atomic_store(&fword, 0);
	atomic_store(&ready, 0);
	atomic_store(&woken, 0);
	for (int i = 0; i < NWAITERS; i++)
		pthread_create(&th[i], NULL, futex_waiter, NULL);
	while (atomic_load(&ready) < NWAITERS)
		usleep(1000);
	usleep(50000); /* all three asleep in the kernel by now (a late one sees fword != 0) */
	long n = 0;
	atomic_store(&fword, 1);
	for (int i = 0; i < WAIT_LOOPS && n < 1; i++)
		n += futex(&fword, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)(NWAITERS - 1), &fword2,
			   1);
	while (atomic_load(&woken) < 1)
		usleep(1000);
	printf("CMP_REQUEUE woke and moved: %ld, woken so far: %d\n", n, atomic_load(&woken));
	long m = 0;
	for (int i = 0; i < WAIT_LOOPS && m < NWAITERS - 1; i++)
		m += futex(&fword2, FUTEX_WAKE_PRIVATE, NWAITERS, NULL, NULL, 0);
	for (int i = 0; i < NWAITERS; i++)
		pthread_join(th[i], NULL);
	printf("woken on the second word: %ld, all woken: %d\n", m, atomic_load(&woken));
}

/* --- names: each thread its own comm (prctl, /proc/PID/task/TID/comm) --- */

static void read_comm(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (f && fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = 0;
	if (f)
		fclose(f);
}

static void *named_thread(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "worker-one");
	thread_tid = gettid_();
	atomic_store(&ready, 1);
	while (!atomic_load(&go))
		usleep(1000);
	return NULL;
}

static void check_comm(void)
{
	pthread_t th;
	char path[64], name[32], main_name[32];

	atomic_store(&go, 0);
	atomic_store(&ready, 0);
	pthread_create(&th, NULL, named_thread, NULL);
	while (!atomic_load(&ready))
		usleep(1000);
	snprintf(path, sizeof(path), "/proc/self/task/%d/comm", thread_tid);
	read_comm(path, name, sizeof(name));
	read_comm("/proc/self/comm", main_name, sizeof(main_name));
	printf("PR_SET_NAME in a thread: its comm %s, main's %s\n", name, main_name);
	pthread_setname_np(th, "renamed");
	read_comm(path, name, sizeof(name));
	printf("pthread_setname_np from main: %s\n", name);
	FILE *f = fopen(path, "w"); /* glibc's and musl's way for another thread */
	fputs("a-name-longer-than-fifteen", f);
	fclose(f);
	read_comm(path, name, sizeof(name));
	printf("a long name written: %s\n", name);
	atomic_store(&go, 1);
	pthread_join(th, NULL);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	int fd = open(path, O_WRONLY);
	errno = 0;
	printf("another process's comm: %s\n",
	       write(fd, "x", 1) < 0 && errno == EINVAL ? "EINVAL" : "written");
	close(fd);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* --- execve from a thread: the others end, the process goes on with its pid --- */

static char *self_path;

static void *exec_thread(void *arg)
{
	char pid[16];

	(void)arg;
	snprintf(pid, sizeof(pid), "%d", getpid());
	execl(self_path, "threads", "execd", pid, (char *)NULL);
	perror("execl");
	return NULL;
}

static void check_exec(void)
{
	pthread_t th;
	int status;

	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		pthread_create(&th, NULL, spin_thread, NULL);
		pthread_create(&th, NULL, exec_thread, NULL);
		for (;;)
			pause();
	}
	waitpid(pid, &status, 0);
	show_status("a thread's execve", status);
}

static void *park_thread(void *arg)
{
	char name[16];

	snprintf(name, sizeof(name), "park-%ld", (long)arg);
	prctl(PR_SET_NAME, name);
	atomic_fetch_add(&ready, 1);
	while (!atomic_load(&go))
		usleep(10000);
	return NULL;
}

static void park(int secs)
{
	pthread_t th[2];

	for (long i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, park_thread, (void *)(i + 1));
	while (atomic_load(&ready) < 2)
		usleep(1000);
	printf("parked\n");
	fflush(stdout); /* a test waits for it in a file: both threads exist and are named */
	sleep((unsigned)secs);
	atomic_store(&go, 1);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
}

int main(int argc, char **argv)
{
	static char exe[256];

	if (argc == 3 && !strcmp(argv[1], "execd")) {
		printf("  exec'd program: same pid: %s, tid == pid: %s, tasks: %d\n",
		       yes(getpid() == atoi(argv[2])), yes(gettid_() == getpid()), count_tasks());
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "park")) {
		setvbuf(stdout, NULL, _IOLBF, 0);
		park(atoi(argv[2]));
		return 0;
	}
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	self_path = exe;
	setvbuf(stdout, NULL, _IOLBF, 0);
	static const struct {
		const char *name;
		void (*fn)(void);
	} sections[] = {{"ids", check_ids},	{"signals", check_signals},
			{"exits", check_exits}, {"robust", check_robust},
			{"futex", check_futex}, {"comm", check_comm},
			{"exec", check_exec}};
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (argc < 2 || !strcmp(argv[1], sections[i].name))
			sections[i].fn();
	return 0;
}
