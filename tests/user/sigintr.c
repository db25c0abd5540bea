/*
 * Interrupted system calls and signals as a verdict, judged against Linux
 * (tests/qemu/user/test_signals.py): a read of an empty pipe, wait4, pause and nanosleep that a
 * handler interrupts return EINTR, or go on with SA_RESTART (nanosleep never restarts after a
 * handler: EINTR with the time left); a write to a pipe whose reader left gets SIGPIPE, or EPIPE
 * when SIGPIPE is ignored; a handler that returns into garbage, and a signal whose frame cannot
 * be written (the stack pointer points nowhere), kill only their process, with SIGSEGV.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

/* A moment: between a signal and a write, between a stop and a continue, a sleep's length. */
#define DELAY_NS 400000000L
#define NSEC_PER_SEC 1000000000L
#define POLL_NS 5000000L /* how often a child looks whether its parent sleeps yet */

static volatile int handled;

static void on_usr1(int sig)
{
	handled += sig;
}

static void set_usr1(int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = flags;
	sigaction(SIGUSR1, &sa, NULL);
}

/*
 * Waits until pid sleeps (its /proc/PID/stat state is S): in the call under test, since it
 * makes no other. A delay alone would not do on a loaded machine.
 */
static void wait_asleep(pid_t pid)
{
	char path[32], buf[256];

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (;;) {
		struct timespec ts = {0, POLL_NS};
		FILE *f = fopen(path, "r");
		char *paren = NULL;

		if (f) {
			size_t n = fread(buf, 1, sizeof(buf) - 1, f);
			buf[n] = '\0';
			fclose(f);
			paren = strrchr(buf, ')');
		}
		if (!paren || (paren[1] == ' ' && paren[2] == 'S'))
			return;
		nanosleep(&ts, NULL);
	}
}

/* A child that sends its parent SIGUSR1 once it sleeps, then, if fd >= 0, writes to it. */
static pid_t poke_later(int fd)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid == 0) {
		struct timespec ts = {0, DELAY_NS};
		wait_asleep(parent);
		kill(parent, SIGUSR1);
		nanosleep(&ts, NULL);
		if (fd >= 0 && write(fd, "data", 4) != 4)
			_exit(1);
		_exit(0);
	}
	return pid;
}

static void reap(pid_t pid)
{
	int status;

	waitpid(pid, &status, 0);
}

static void test_read(int flags, const char *name)
{
	int p[2];
	char buf[8];

	if (pipe(p))
		return;
	set_usr1(flags);
	handled = 0;
	/* Without SA_RESTART no data comes: nothing but the signal can end the read. */
	pid_t pid = poke_later(flags & SA_RESTART ? p[1] : -1);
	ssize_t n = read(p[0], buf, sizeof(buf));
	int e = errno;
	printf("%s read: %zd %s handled=%d\n", name, n, n < 0 ? strerror(e) : "", handled);
	reap(pid);
	close(p[0]);
	close(p[1]);
}

static void test_wait(int flags, const char *name)
{
	set_usr1(flags);
	handled = 0;
	pid_t pid = poke_later(-1);
	int status;
	pid_t w = waitpid(pid, &status, 0);
	int e = errno;
	printf("%s waitpid: %s handled=%d\n", name, w == pid ? "the child" : strerror(e), handled);
	if (w != pid)
		reap(pid);
}

static void test_sleeps(void)
{
	set_usr1(SA_RESTART);
	handled = 0;
	pid_t pid = poke_later(-1);
	struct timespec ts = {5, 0}, rem = {0, 0};
	int r = nanosleep(&ts, &rem);
	int e = errno;
	printf("nanosleep SA_RESTART: %d %s rem<5s=%d rem>=1s=%d handled=%d\n", r, strerror(e),
	       rem.tv_sec < 5, rem.tv_sec >= 1, handled);
	reap(pid);

	handled = 0;
	pid = poke_later(-1);
	r = pause();
	e = errno;
	printf("pause SA_RESTART: %d %s handled=%d\n", r, strerror(e), handled);
	reap(pid);

	/*
	 * A stop and a continue are no handler: the sleep goes on to its end (restart_syscall).
	 * A child sleeps, so that a shell's job control does not see its foreground job stop.
	 */
	pid = fork();
	if (pid == 0) {
		struct timespec t0, t1,
			nap = {3 * DELAY_NS / NSEC_PER_SEC, 3 * DELAY_NS % NSEC_PER_SEC};
		clock_gettime(CLOCK_MONOTONIC, &t0);
		r = nanosleep(&nap, NULL);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
		printf("nanosleep across stop/continue: %d slept it all=%d\n", r,
		       ms >= 3 * DELAY_NS / 1000000);
		_exit(0);
	}
	struct timespec d = {0, DELAY_NS / 4};
	int status;
	wait_asleep(pid);
	kill(pid, SIGSTOP);
	waitpid(pid, &status, WUNTRACED);
	printf("sleeper stopped: %d\n", WIFSTOPPED(status));
	nanosleep(&d, NULL);
	kill(pid, SIGCONT);
	reap(pid);
	/* Called with nothing to resume. */
	r = (int)syscall(SYS_restart_syscall);
	e = errno;
	printf("restart_syscall alone: %d %s\n", r, strerror(e));
}

static void test_sigpipe(void)
{
	int p[2], status;

	if (pipe(p))
		return;
	close(p[0]);
	pid_t pid = fork();
	if (pid == 0) {
		ssize_t n = write(p[1], "x", 1);
		printf("not reached: %zd\n", n);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("writer to a closed pipe: killed by signal %d\n",
	       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	signal(SIGPIPE, SIG_IGN);
	ssize_t n = write(p[1], "x", 1);
	int e = errno;
	printf("SIGPIPE ignored: write=%zd %s\n", n, strerror(e));
	signal(SIGPIPE, SIG_DFL);
	close(p[1]);
}

/* rt_sigaction by hand: a handler whose "restorer" (its return address) is garbage. */
struct kernel_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask;
};
#define SA_RESTORER 0x04000000
#define GARBAGE_ADDRESS 0xdead0000UL
#define NONCANONICAL_ADDRESS 0x8000000000000000UL

static void on_usr1_bad_rip(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	(void)si;
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)NONCANONICAL_ADDRESS;
}

static void test_bad_frames(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		struct kernel_sigaction ka = {on_usr1, SA_RESTORER, (void (*)(void))GARBAGE_ADDRESS,
					      0};
		syscall(SYS_rt_sigaction, SIGUSR1, &ka, NULL, 8);
		raise(SIGUSR1);
		printf("not reached\n");
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("handler returning into garbage: killed by %s\n",
	       WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "nothing");

	pid = fork();
	if (pid == 0) {
		set_usr1(0);
		/*
		 * The stack pointer into unmapped memory, then kill(self): no room for the frame.
		 */
		__asm__ volatile(
			"mov %%rsp, %%r12\n\tmov %[bad], %%rsp\n\tsyscall\n\tmov %%r12, %%rsp"
			:
			: "a"(SYS_kill), "D"(getpid()), "S"(SIGUSR1), [bad] "r"(GARBAGE_ADDRESS)
			: "rcx", "r11", "r12", "memory");
		printf("not reached\n");
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("frame on a bad stack: killed by signal %d\n",
	       WIFSIGNALED(status) ? WTERMSIG(status) : 0);

	/* Addresses no user code can run at: a handler there, and a frame whose RIP is there. */
	for (int i = 0; i < 2; i++) {
		pid = fork();
		if (pid == 0) {
			if (i == 0) {
				struct kernel_sigaction ka = {(void (*)(int))NONCANONICAL_ADDRESS,
							      SA_RESTORER,
							      (void (*)(void))GARBAGE_ADDRESS, 0};
				syscall(SYS_rt_sigaction, SIGUSR1, &ka, NULL, 8);
			} else {
				struct sigaction sa;
				memset(&sa, 0, sizeof(sa));
				sa.sa_sigaction = on_usr1_bad_rip;
				sa.sa_flags = SA_SIGINFO;
				sigaction(SIGUSR1, &sa, NULL);
			}
			raise(SIGUSR1);
			printf("not reached\n");
			_exit(0);
		}
		waitpid(pid, &status, 0);
		printf("%s: killed by signal %d\n",
		       i ? "rt_sigreturn to a non-canonical RIP" : "a non-canonical handler",
		       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	}
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_read(0, "no SA_RESTART");
	test_read(SA_RESTART, "SA_RESTART");
	test_wait(0, "no SA_RESTART");
	test_wait(SA_RESTART, "SA_RESTART");
	test_sleeps();
	test_sigpipe();
	test_bad_frames();
	printf("done\n");
	return 0;
}
