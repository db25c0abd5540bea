/*
 * A stopped job killed, over and over, the way an interactive bash does it, checking that every
 * event reaches the parent (tests/qemu/user/test_signals.py runs several at once, with load).
 *
 * Each round forks a child in a process group of its own (a job), which sleeps in
 * clock_nanosleep or spins in user mode, stops and continues the group CYCLES times (SIGTSTP
 * or SIGSTOP, then SIGCONT), then kills it as bash's `kill %1` does (SIGTERM then SIGCONT),
 * or with SIGKILL alone, or SIGCONT then SIGKILL. As bash, the parent learns everything from
 * its SIGCHLD handler, which calls waitpid(-1, WNOHANG | WUNTRACED | WCONTINUED) until it
 * returns 0; the main loop only waits, in pselect with a signal mask (as bash's readline) or
 * in sigsuspend. A stop, continue or death the handler has not seen within ROUND_TIMEOUT
 * seconds is a lost event: the program says what the child's state is then (/proc/PID/stat:
 * its state letter and its pending signals) and whether a waitpid finds what the handler
 * missed, and exits 1.
 *
 * Usage: stopkill ROUNDS [SEED]. Prints "stopkill: N rounds ok" when all went well.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUND_TIMEOUT 20 /* seconds: far more than a round takes, even under TCG and load */
#define CHILD_SLEEP 60 /* seconds: the child is killed long before */
#define CYCLES 8 /* stops (and continues) of each child before it is killed */

/* Two rounds in three with a sleeping child: its way into the sleep is where races hide. */
enum child_kind { CHILD_SLEEPS, CHILD_SLEEPS_TOO, CHILD_SPINS, NR_CHILD_KINDS };
enum kill_kind { KILL_TERM_CONT, KILL_KILL, KILL_CONT_KILL, NR_KILL_KINDS };

/* What the handler's waitpid calls have found for the current child. */
static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t seen_stopped, seen_continued, seen_dead, dead_status;
static volatile sig_atomic_t nr_sigchld;

static void on_sigchld(int sig)
{
	int saved = errno, status;
	pid_t pid;

	(void)sig;
	nr_sigchld++;
	while ((pid = waitpid(-1, &status, WNOHANG | WUNTRACED | WCONTINUED)) > 0) {
		if (pid != child_pid)
			continue;
		if (WIFSTOPPED(status))
			seen_stopped++;
		else if (WIFCONTINUED(status))
			seen_continued++;
		else {
			seen_dead = 1;
			dead_status = status;
		}
	}
	errno = saved;
}

static void on_sigalrm(int sig)
{
	(void)sig; /* only to end a sigsuspend: the deadline is checked after it */
}

static void on_sigusr1(int sig)
{
	(void)sig; /* the child's: its sleep ends (EINTR) and starts again */
}

static void child(enum child_kind kind)
{
	struct timespec ts = {.tv_sec = CHILD_SLEEP};

	if (kind == CHILD_SPINS)
		for (;;)
			; /* in user mode on its CPU: only an interrupt brings it into the kernel */
	for (;;)
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

/*
 * A pause of random length before a signal, so that over many rounds it lands anywhere in
 * what the child is doing: often none, or a spin (a sleep would take a tick at least).
 */
static void random_delay(void)
{
	static const int spins[] = {0, 1000, 10000, 100000};
	int n = spins[rand() % 4];

	n = n ? rand() % n : 0;
	for (volatile int i = 0; i < n; i++)
		;
}

/* The child's state letter and wait channel as /proc says it, for a report. */
static void show_child(pid_t pid)
{
	char path[64], buf[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (f && fgets(buf, sizeof(buf), f))
		printf("stopkill:   /proc/%d/stat: %s", pid, buf);
	else
		printf("stopkill:   /proc/%d/stat: unreadable\n", pid);
	if (f)
		fclose(f);
}

static long now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/*
 * Waits until *flag is set, with SIGCHLD unblocked only while asleep: in pselect, as bash's
 * readline waits for a key, or in sigsuspend. Gives up after ROUND_TIMEOUT seconds.
 */
static int wait_for(volatile sig_atomic_t *flag, const sigset_t *unblocked, int round)
{
	long deadline = now_seconds() + ROUND_TIMEOUT;

	while (!*flag && now_seconds() < deadline) {
		struct timespec tick = {.tv_sec = 1};

		if (round % 2)
			pselect(0, NULL, NULL, NULL, &tick, unblocked);
		else
			sigsuspend(unblocked); /* the ticker's SIGALRM ends it too */
	}
	return *flag ? 0 : -1;
}

static int lost(int round, const char *what, pid_t pid)
{
	int status;
	pid_t r = waitpid(pid, &status, WNOHANG | WUNTRACED | WCONTINUED);

	printf("stopkill: round %d: %s never seen (SIGCHLD %d, stopped %d, continued %d)\n", round,
	       what, nr_sigchld, seen_stopped, seen_continued);
	show_child(pid);
	printf("stopkill:   waitpid(WNOHANG) now: %d status %#x\n", r, r > 0 ? status : 0);
	kill(pid, SIGKILL);
	return 1;
}

/*
 * Stops and continues the job a few times, aiming the stops at a sleeping child's way back
 * into clock_nanosleep: it goes back right after it told us it continued (restart_syscall),
 * and after a SIGUSR1 (its handler does nothing) ended its sleep with EINTR.
 */
static int stop_and_continue(int round, pid_t pid, int stop, const sigset_t *unblocked)
{
	for (int i = 0; i < CYCLES; i++) {
		if (i % 2)
			kill(pid, SIGUSR1);
		random_delay();
		kill(-pid, stop);
		if (wait_for(&seen_stopped, unblocked, round))
			return lost(round, "stop", pid);
		seen_stopped = 0;
		if (i + 1 == CYCLES)
			break; /* stopped: one_round kills it */
		random_delay();
		kill(-pid, SIGCONT);
		if (wait_for(&seen_continued, unblocked, round))
			return lost(round, "continue", pid);
		seen_continued = 0;
	}
	return 0;
}

static int one_round(int round, const sigset_t *unblocked)
{
	enum child_kind ck = round % NR_CHILD_KINDS;
	enum kill_kind kk = (round / NR_CHILD_KINDS) % NR_KILL_KINDS;
	int stop = (round / (NR_CHILD_KINDS * NR_KILL_KINDS)) % 2 ? SIGSTOP : SIGTSTP;
	int want = kk == KILL_TERM_CONT ? SIGTERM : SIGKILL;
	sigset_t chld, old;

	seen_stopped = seen_continued = seen_dead = dead_status = 0;
	pid_t pid = fork();
	if (pid < 0) {
		perror("stopkill: fork");
		return 1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		child(ck);
	}
	setpgid(pid, pid); /* as bash: whichever of the two runs first makes the job */
	child_pid = pid;
	if (stop_and_continue(round, pid, stop, unblocked))
		return 1;
	random_delay();
	/* As bash's kill_pid(): SIGCHLD blocked while the job is signalled. */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	if (kk == KILL_TERM_CONT) {
		kill(-pid, SIGTERM);
		kill(-pid, SIGCONT);
	} else if (kk == KILL_KILL) {
		kill(-pid, SIGKILL);
	} else {
		kill(-pid, SIGCONT);
		random_delay();
		kill(-pid, SIGKILL);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (wait_for(&seen_dead, unblocked, round))
		return lost(round, "death", pid);
	if (!WIFSIGNALED(dead_status) || WTERMSIG(dead_status) != want) {
		printf("stopkill: round %d: status %#x, not killed by %d\n", round, dead_status,
		       want);
		return 1;
	}
	return 0;
}

/* No setitimer yet: a child sends SIGALRM every second, so that sigsuspend ends to look. */
static pid_t start_ticker(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		for (;;) {
			sleep(1);
			if (kill(parent, SIGALRM))
				_exit(0);
		}
	}
	return pid;
}

int main(int argc, char **argv)
{
	struct sigaction sa = {.sa_handler = on_sigchld, .sa_flags = SA_RESTART};
	struct sigaction alrm = {.sa_handler = on_sigalrm};
	struct sigaction usr1 = {.sa_handler = on_sigusr1};
	sigset_t chld, unblocked;
	int rounds = argc > 1 ? atoi(argv[1]) : 100;

	srand(argc > 2 ? (unsigned)atoi(argv[2]) : (unsigned)getpid());
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGALRM, &alrm, NULL);
	sigaction(SIGUSR1, &usr1, NULL); /* for the children, which inherit it */
	/* SIGCHLD is taken only inside sigsuspend, so no check can race with its handler. */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &unblocked);
	setvbuf(stdout, NULL, _IOLBF, 0);
	pid_t ticker = start_ticker();
	for (int round = 0; round < rounds; round++) {
		if (one_round(round, &unblocked)) {
			kill(ticker, SIGKILL);
			return 1;
		}
	}
	kill(ticker, SIGKILL);
	printf("stopkill: %d rounds ok\n", rounds);
	return 0;
}
