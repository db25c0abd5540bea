/*
 * Setting the date: clock_settime(CLOCK_REALTIME) and settimeofday (tests/qemu/user/
 * test_settime.py).
 *
 * `settime` prints how the calls fail, in Linux's order of checks, for what fails before the
 * clock could change (a clock that cannot be set, a bad pointer, a time out of range, a CPU
 * clock): it runs on the host too, whose answers must be the same, and never sets its clock.
 *
 * `settime set` sets the date, so it runs in Lucid only (it refuses where /proc/version
 * exists: Linux, the host), and prints invariants: after setting the date to X every reading
 * of CLOCK_REALTIME (system calls and the vDSO, TAI, the coarse clock, time, gettimeofday, a
 * new file's times, /proc/stat's btime) is within [X, X + SLACK_S] while CLOCK_MONOTONIC does
 * not jump; a date before the boot is refused; the timezone goes to gettimeofday (system call
 * and vDSO) and nowhere else; absolute CLOCK_REALTIME sleeps, POSIX timers and timerfds move
 * with the date (a change past them wakes them, one back puts them off), relative ones do
 * not; TFD_TIMER_CANCEL_ON_SET makes read (even one asleep) and a re-arming timerfd_settime say
 * ECANCELED. Every wait is bounded; at the end the date is put back where it would have been.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_SEC 1000000000LL
#define SLACK_S 60 /* a reading after a setting to X is in [X, X + SLACK_S]: bounds, not timing */
#define WAIT_S 10 /* the longest any wait here lasts before it reports a failure */
#define X_2040 2208988800LL /* 2040-01-01 00:00:00 UTC */
#define HOUR 3600LL
#define TIME_SETTOD_SEC_MAX 8277292036LL /* Linux's: KTIME_SEC_MAX less 30 years */
#define CLOCKFD 3
#define FD_TO_CLOCKID(fd) ((clockid_t)((~(unsigned)(fd) << 3) | CLOCKFD))
#define CPUCLOCK_SCHED 2
#define MAKE_PROCESS_CPUCLOCK(pid, clock) ((clockid_t)((~(unsigned)(pid) << 3) | (clock)))
#define MAKE_THREAD_CPUCLOCK(tid, clock) (MAKE_PROCESS_CPUCLOCK(tid, clock) | 4)
#define NO_PID 0x0fffffff
#define BAD_PTR ((void *)1)

struct kernel_timezone {
	int tz_minuteswest, tz_dsttime;
};

static const char *res(long r)
{
	return r == 0 ? "ok" : strerror(errno);
}

static long settime(clockid_t c, long long sec, long nsec)
{
	struct timespec ts = {sec, nsec};

	return syscall(SYS_clock_settime, c, &ts);
}

static long settod(const struct timeval *tv, const struct kernel_timezone *tz)
{
	return syscall(SYS_settimeofday, tv, tz);
}

/* --- what fails before any change: the same on the host ---------------------------------- */
static void errors(void)
{
	struct timeval tv;

	for (clockid_t c = 1; c <= 16; c++)
		printf("clock_settime(%d): %s\n", c, res(settime(c, 1, 0)));
	printf("clock_settime(100): %s\n", res(settime(100, 1, 0)));
	printf("MONOTONIC, bad pointer: %s\n",
	       res(syscall(SYS_clock_settime, CLOCK_MONOTONIC, BAD_PTR)));
	printf("REALTIME, bad pointer: %s\n",
	       res(syscall(SYS_clock_settime, CLOCK_REALTIME, BAD_PTR)));
	printf("REALTIME, tv_nsec 1000000000: %s\n",
	       res(settime(CLOCK_REALTIME, X_2040, NSEC_PER_SEC)));
	printf("REALTIME, tv_nsec -1: %s\n", res(settime(CLOCK_REALTIME, X_2040, -1)));
	printf("REALTIME, tv_sec -1: %s\n", res(settime(CLOCK_REALTIME, -1, 0)));
	printf("REALTIME, tv_sec TIME_SETTOD_SEC_MAX: %s\n",
	       res(settime(CLOCK_REALTIME, TIME_SETTOD_SEC_MAX, 0)));
	/* CPU clocks "can never be reset": EPERM once the clock is found, whatever the time. */
	clockid_t mine;

	clock_getcpuclockid(getpid(), &mine);
	printf("this process's CPU clock: %s\n", res(settime(mine, 1, 0)));
	printf("  with tv_nsec -1: %s\n", res(settime(mine, 1, -1)));
	printf("  bad pointer: %s\n", res(syscall(SYS_clock_settime, mine, BAD_PTR)));
	printf("this thread's CPU clock: %s\n",
	       res(settime(MAKE_THREAD_CPUCLOCK(0, CPUCLOCK_SCHED), 1, 0)));
	printf("no task's CPU clock: %s\n",
	       res(settime(MAKE_PROCESS_CPUCLOCK(NO_PID, CPUCLOCK_SCHED), 1, 0)));
	printf("CPU clock of kind 3: %s\n", res(settime(MAKE_PROCESS_CPUCLOCK(0, 3), 1, 0)));
	printf("dynamic clock of stdin: %s\n", res(settime(FD_TO_CLOCKID(0), 1, 0)));
	printf("  bad pointer: %s\n", res(syscall(SYS_clock_settime, FD_TO_CLOCKID(0), BAD_PTR)));
	tv = (struct timeval){X_2040, 1000001};
	printf("settimeofday tv_usec 1000001: %s\n", res(settod(&tv, NULL)));
	tv = (struct timeval){X_2040, 1000000};
	printf("settimeofday tv_usec 1000000: %s\n", res(settod(&tv, NULL)));
	tv = (struct timeval){X_2040, -1};
	printf("settimeofday tv_usec -1: %s\n", res(settod(&tv, NULL)));
	printf("  and a bad timezone pointer: %s\n", res(settod(&tv, BAD_PTR)));
	tv = (struct timeval){-1, 0};
	printf("settimeofday tv_sec -1: %s\n", res(settod(&tv, NULL)));
	printf("settimeofday bad tv pointer: %s\n", res(settod(BAD_PTR, NULL)));
	printf("settimeofday no tv, bad timezone pointer: %s\n", res(settod(NULL, BAD_PTR)));
	printf("gettimeofday bad timezone pointer: %s\n",
	       res(syscall(SYS_gettimeofday, NULL, BAD_PTR)));
	/* Only modes 0, which reads: the host's clock is never adjusted. */
	struct timex tx;

	printf("adjtimex bad pointer: %s\n", res(syscall(SYS_adjtimex, BAD_PTR)));
	for (clockid_t c = 1; c <= 16; c++) {
		memset(&tx, 0, sizeof(tx));
		printf("clock_adjtime(%d): %s\n", c, res(syscall(SYS_clock_adjtime, c, &tx)));
	}
	printf("clock_adjtime(REALTIME) bad pointer: %s\n",
	       res(syscall(SYS_clock_adjtime, CLOCK_REALTIME, BAD_PTR)));
	printf("clock_adjtime(MONOTONIC) bad pointer: %s\n",
	       res(syscall(SYS_clock_adjtime, CLOCK_MONOTONIC, BAD_PTR)));
	memset(&tx, 0, sizeof(tx));
	printf("clock_adjtime(this process's CPU clock): %s\n",
	       res(syscall(SYS_clock_adjtime, mine, &tx)));
	memset(&tx, 0, sizeof(tx));
	printf("clock_adjtime(dynamic clock of stdin): %s\n",
	       res(syscall(SYS_clock_adjtime, FD_TO_CLOCKID(0), &tx)));
}

/* What adjtimex says of a clock no NTP ever disciplined (Lucid's, always), field by field. */
static void adjtimex_fields(void)
{
	struct timex tx;
	struct timespec now;

	memset(&tx, 0, sizeof(tx));
	int r = adjtimex(&tx);

	clock_gettime(CLOCK_REALTIME, &now);
	printf("adjtimex: %d modes %u offset %ld freq %ld maxerror %ld esterror %ld status %d\n", r,
	       tx.modes, tx.offset, tx.freq, tx.maxerror, tx.esterror, tx.status);
	printf("constant %ld precision %ld tolerance %ld tick %ld tai %d\n", tx.constant,
	       tx.precision, tx.tolerance, tx.tick, tx.tai);
	printf("ppsfreq %ld jitter %ld shift %d stabil %ld jitcnt %ld calcnt %ld errcnt %ld "
	       "stbcnt %ld\n",
	       tx.ppsfreq, tx.jitter, tx.shift, tx.stabil, tx.jitcnt, tx.calcnt, tx.errcnt,
	       tx.stbcnt);
	printf("time is the date, in microseconds: %s\n",
	       tx.time.tv_usec < 1000000 && tx.time.tv_sec <= now.tv_sec &&
			       tx.time.tv_sec >= now.tv_sec - SLACK_S
		       ? "yes"
		       : "NO");
	memset(&tx, 0, sizeof(tx));
	tx.modes = ADJ_OFFSET_SS_READ;
	r = adjtimex(&tx);
	printf("ADJ_OFFSET_SS_READ: %d offset %ld\n", r, tx.offset);
	memset(&tx, 0, sizeof(tx));
	r = syscall(SYS_clock_adjtime, CLOCK_REALTIME, &tx);
	printf("clock_adjtime(REALTIME): %d status %d\n", r, tx.status);
	memset(&tx, 0, sizeof(tx));
	tx.modes = ADJ_FREQUENCY;
	printf("ADJ_FREQUENCY: %s\n", res(adjtimex(&tx) < 0 ? -1 : 0));
}

/* --- Lucid only: the date set, and what follows ------------------------------------------ */
static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", what, ok ? "yes" : "NO");
	failures += !ok;
}

static long long now_ns(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return t.tv_sec * NSEC_PER_SEC + t.tv_nsec;
}

static long long sys_now_ns(clockid_t c)
{
	struct timespec t;

	syscall(SYS_clock_gettime, c, &t);
	return t.tv_sec * NSEC_PER_SEC + t.tv_nsec;
}

static int near(long long ns, long long x)
{
	return ns >= x * NSEC_PER_SEC && ns <= (x + SLACK_S) * NSEC_PER_SEC;
}

static int set_date(long long sec)
{
	return settime(CLOCK_REALTIME, sec, 0) == 0;
}

/* The vDSO's gettimeofday, found by name in its dynamic symbols (DT_HASH's count of them). */
typedef int (*gettimeofday_fn)(struct timeval *, struct kernel_timezone *);

static gettimeofday_fn vdso_gettimeofday(void)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Phdr *ph = (const Elf64_Phdr *)((const char *)eh + eh->e_phoff);
	const Elf64_Dyn *dyn = NULL;
	const Elf64_Sym *sym = NULL;
	const Elf32_Word *hash = NULL;
	const char *str = NULL;
	uintptr_t base = 0;

	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !base)
			base = (uintptr_t)eh + ph[i].p_offset - ph[i].p_vaddr;
		if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const Elf64_Dyn *)((const char *)eh + ph[i].p_offset);
	}
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_STRTAB)
			str = (const char *)(base + dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_SYMTAB)
			sym = (const Elf64_Sym *)(base + dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_HASH)
			hash = (const Elf32_Word *)(base + dyn->d_un.d_ptr);
	}
	for (unsigned i = 1; hash && i < hash[1]; i++)
		if (sym[i].st_shndx != SHN_UNDEF &&
		    !strcmp(str + sym[i].st_name, "__vdso_gettimeofday"))
			return (gettimeofday_fn)(base + sym[i].st_value);
	return NULL;
}

/* Until pid sleeps (state S in /proc/PID/stat), at most WAIT_S: 1 if it does. */
static int wait_asleep(pid_t pid)
{
	char path[64], buf[256];

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	for (int i = 0; i < WAIT_S * 1000; i++) {
		FILE *f = fopen(path, "r");
		char *p = NULL;

		if (f) {
			p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
			fclose(f);
		}
		if (p && p[1] == ' ' && p[2] == 'S')
			return 1;
		usleep(1000);
	}
	return 0;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* The child's exit status, or -1 if it has not exited within WAIT_S (then it is killed). */
static int reap(pid_t pid)
{
	int st;

	struct sigaction sa = {.sa_handler = on_alarm}; /* no SA_RESTART: waitpid ends, EINTR */

	sigaction(SIGALRM, &sa, NULL);
	alarm(WAIT_S);
	pid_t r = waitpid(pid, &st, 0);

	alarm(0);
	if (r != pid) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return -1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static long long remaining_s(timer_t t)
{
	struct itimerspec its;

	timer_gettime(t, &its);
	return its.it_value.tv_sec;
}

static long long tfd_remaining_s(int fd)
{
	struct itimerspec its;

	timerfd_gettime(fd, &its);
	return its.it_value.tv_sec;
}

static int readable(int fd, int timeout_ms)
{
	struct pollfd p = {fd, POLLIN, 0};

	return poll(&p, 1, timeout_ms) == 1;
}

static int tfd_abs(clockid_t c, long long at, int flags)
{
	int fd = timerfd_create(c, TFD_NONBLOCK);
	struct itimerspec its = {{0, 0}, {at, 0}};

	timerfd_settime(fd, TFD_TIMER_ABSTIME | flags, &its, NULL);
	return fd;
}

static void readings(void)
{
	struct timeval tv;
	struct stat st;
	char buf[4096];
	long long mono = now_ns(CLOCK_MONOTONIC);

	check(set_date(X_2040), "clock_settime(REALTIME, 2040-01-01)");
	check(near(now_ns(CLOCK_REALTIME), X_2040), "  CLOCK_REALTIME (vDSO) reads it");
	check(near(sys_now_ns(CLOCK_REALTIME), X_2040), "  CLOCK_REALTIME (system call) reads it");
	check(near(now_ns(CLOCK_REALTIME_COARSE), X_2040), "  CLOCK_REALTIME_COARSE reads it");
	check(near(sys_now_ns(CLOCK_REALTIME_COARSE), X_2040), "  and its system call");
	check(near(sys_now_ns(CLOCK_TAI), X_2040), "  CLOCK_TAI reads it");
	check(near(sys_now_ns(CLOCK_REALTIME_ALARM), X_2040), "  CLOCK_REALTIME_ALARM reads it");
	gettimeofday(&tv, NULL);
	check(near(tv.tv_sec * NSEC_PER_SEC, X_2040), "  gettimeofday reads it");
	syscall(SYS_gettimeofday, &tv, NULL);
	check(near(tv.tv_sec * NSEC_PER_SEC, X_2040), "  and its system call");
	check(near(time(NULL) * NSEC_PER_SEC, X_2040), "  time reads it");
	check(near(syscall(SYS_time, NULL) * NSEC_PER_SEC, X_2040), "  and its system call");
	check(now_ns(CLOCK_MONOTONIC) - mono < SLACK_S * NSEC_PER_SEC,
	      "  CLOCK_MONOTONIC did not jump");
	close(open("/tmp/settime.new", O_CREAT | O_WRONLY, 0644));
	stat("/tmp/settime.new", &st);
	unlink("/tmp/settime.new");
	check(near(st.st_mtime * NSEC_PER_SEC, X_2040) && near(st.st_ctime * NSEC_PER_SEC, X_2040),
	      "  a new file's times are of it");
	FILE *f = fopen("/proc/stat", "r");
	long long btime = 0, boot = X_2040 - now_ns(CLOCK_BOOTTIME) / NSEC_PER_SEC;

	while (f && fgets(buf, sizeof(buf), f))
		sscanf(buf, "btime %lld", &btime);
	if (f)
		fclose(f);
	check(btime >= boot - SLACK_S && btime <= boot + SLACK_S, "  /proc/stat's btime moved");
	check(settime(CLOCK_REALTIME, 0, 0) == -1 && errno == EINVAL,
	      "a date before the boot: Invalid argument");
	check(near(now_ns(CLOCK_REALTIME), X_2040), "  and the date is unchanged");
	tv = (struct timeval){X_2040 + HOUR, 500000};
	check(settod(&tv, NULL) == 0, "settimeofday(2040-01-01 01:00:00.5)");
	check(now_ns(CLOCK_REALTIME) >= (X_2040 + HOUR) * NSEC_PER_SEC + NSEC_PER_SEC / 2 &&
		      near(now_ns(CLOCK_REALTIME), X_2040 + HOUR),
	      "  CLOCK_REALTIME reads it");
	check(settod(NULL, NULL) == 0, "settimeofday(NULL, NULL): ok");
}

static void timezone_checks(void)
{
	struct kernel_timezone tz = {-60, 1}, got = {0, 0};
	gettimeofday_fn vgtod = vdso_gettimeofday();
	struct timeval tv;

	check(settod(NULL, &tz) == 0, "settimeofday(NULL, {-60, 1})");
	syscall(SYS_gettimeofday, &tv, &got);
	check(got.tz_minuteswest == -60 && got.tz_dsttime == 1, "  gettimeofday gives it back");
	got = (struct kernel_timezone){0, 0};
	check(vgtod && vgtod(&tv, &got) == 0 && got.tz_minuteswest == -60 && got.tz_dsttime == 1,
	      "  and the vDSO's");
	check(near(now_ns(CLOCK_REALTIME), X_2040 + HOUR), "  the date did not move");
	tz = (struct kernel_timezone){15 * 60 + 1, 0};
	check(settod(NULL, &tz) == -1 && errno == EINVAL, "minuteswest 901: Invalid argument");
	tz.tz_minuteswest = -15 * 60 - 1;
	check(settod(NULL, &tz) == -1 && errno == EINVAL, "minuteswest -901: Invalid argument");
	tz = (struct kernel_timezone){0, 0};
	check(settod(NULL, &tz) == 0, "back to UTC");
	syscall(SYS_gettimeofday, &tv, &got);
	check(got.tz_minuteswest == 0 && got.tz_dsttime == 0, "  gettimeofday says so");
}

static void sleeps(void)
{
	long long x = now_ns(CLOCK_REALTIME) / NSEC_PER_SEC;
	pid_t pid = fork();

	if (pid == 0) {
		struct timespec at = {x + HOUR, 0};
		int r = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, NULL);

		_exit(r == 0 && now_ns(CLOCK_REALTIME) >= (x + HOUR) * NSEC_PER_SEC ? 0 : 1);
	}
	check(wait_asleep(pid), "clock_nanosleep(REALTIME, ABSTIME, in an hour): asleep");
	set_date(x + HOUR + 1);
	check(reap(pid) == 0, "  the date set past it: it wakes, with the date past its end");
}

static void posix_timers(void)
{
	long long x = now_ns(CLOCK_REALTIME) / NSEC_PER_SEC;
	struct sigevent ev = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR1};
	struct itimerspec abs_hour = {{0, 0}, {x + HOUR, 0}}, rel = {{0, 0}, {100, 0}};
	struct timespec limit = {WAIT_S, 0};
	timer_t t_abs, t_rel, t_none;
	sigset_t set;
	siginfo_t si;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	timer_create(CLOCK_REALTIME, &ev, &t_abs);
	timer_create(CLOCK_REALTIME, &ev, &t_rel);
	ev.sigev_notify = SIGEV_NONE;
	timer_create(CLOCK_REALTIME, &ev, &t_none);
	timer_settime(t_abs, TIMER_ABSTIME, &abs_hour, NULL);
	timer_settime(t_none, TIMER_ABSTIME, &abs_hour, NULL);
	timer_settime(t_rel, 0, &rel, NULL);
	set_date(x - HOUR);
	check(remaining_s(t_abs) >= 2 * HOUR - SLACK_S,
	      "POSIX timer, ABSTIME: the date set an hour "
	      "back, it waits two");
	check(remaining_s(t_none) >= 2 * HOUR - SLACK_S, "  SIGEV_NONE's too");
	check(remaining_s(t_rel) <= 100 && remaining_s(t_rel) >= 100 - SLACK_S,
	      "  a relative one still waits its 100 s");
	set_date(x + HOUR + 1);
	int sig = sigtimedwait(&set, &si, &limit);

	check(sig == SIGUSR1 && si.si_code == SI_TIMER && si.si_timerid == (int)(intptr_t)t_abs,
	      "  the date set past it: its signal comes");
	check(remaining_s(t_none) == 0, "  SIGEV_NONE's has expired");
	check(remaining_s(t_rel) <= 100 && remaining_s(t_rel) >= 100 - SLACK_S,
	      "  the relative one still waits its 100 s");
	timer_delete(t_abs);
	timer_delete(t_rel);
	timer_delete(t_none);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

static void timerfds(void)
{
	long long x = now_ns(CLOCK_REALTIME) / NSEC_PER_SEC;
	struct itimerspec rel = {{0, 0}, {100, 0}}, its = {{0, 0}, {x + 2 * HOUR, 0}};
	uint64_t ticks = 0;
	int fd = tfd_abs(CLOCK_REALTIME, x + HOUR, 0);
	int fd_rel = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK);
	int cancel = tfd_abs(CLOCK_REALTIME, x + 2 * HOUR, TFD_TIMER_CANCEL_ON_SET);
	int no_abs = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK);
	int mono = tfd_abs(CLOCK_MONOTONIC, 1000000, TFD_TIMER_CANCEL_ON_SET);

	timerfd_settime(fd_rel, 0, &rel, NULL);
	timerfd_settime(no_abs, TFD_TIMER_CANCEL_ON_SET, &rel, NULL);
	set_date(x - HOUR);
	check(tfd_remaining_s(fd) >= 2 * HOUR - SLACK_S,
	      "timerfd, ABSTIME: the date set an hour back, it waits two");
	check(tfd_remaining_s(fd_rel) <= 100 && tfd_remaining_s(fd_rel) >= 100 - SLACK_S,
	      "  a relative one still waits its 100 s");
	check(readable(cancel, 0), "  TFD_TIMER_CANCEL_ON_SET: readable");
	check(read(cancel, &ticks, 8) == -1 && errno == ECANCELED, "  read: ECANCELED");
	check(read(cancel, &ticks, 8) == -1 && errno == EAGAIN,
	      "  then EAGAIN: no longer cancelled");
	check(tfd_remaining_s(cancel) >= 3 * HOUR - SLACK_S, "  and it still waits for its date");
	check(read(no_abs, &ticks, 8) == -1 && errno == EAGAIN,
	      "  CANCEL_ON_SET without ABSTIME: not cancelled");
	check(read(mono, &ticks, 8) == -1 && errno == EAGAIN,
	      "  on CLOCK_MONOTONIC: not cancelled");
	set_date(x);
	check(timerfd_settime(cancel, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &its, NULL) ==
			      -1 &&
		      errno == ECANCELED,
	      "  cancelled again, re-armed before a read: timerfd_settime says ECANCELED");
	check(read(cancel, &ticks, 8) == -1 && errno == EAGAIN, "  then read: EAGAIN");
	check(tfd_remaining_s(cancel) >= 2 * HOUR - SLACK_S, "  armed all the same");
	/* A read asleep (a child's, the file shared) wakes for the change of date. */
	fcntl(cancel, F_SETFL, 0);
	pid_t pid = fork();

	if (pid == 0)
		_exit(read(cancel, &ticks, 8) == -1 && errno == ECANCELED ? 0 : 1);
	check(wait_asleep(pid), "  a read that waits: asleep");
	set_date(x + 1);
	check(reap(pid) == 0, "  the date set: it wakes with ECANCELED");
	set_date(x + HOUR + 1);
	check(readable(fd, WAIT_S * 1000) && read(fd, &ticks, 8) == 8 && ticks == 1,
	      "the date set past the ABSTIME one: it expires once");
	close(fd);
	close(fd_rel);
	close(cancel);
	close(no_abs);
	close(mono);
}

static void set_mode(void)
{
	long long real = now_ns(CLOCK_REALTIME), mono = now_ns(CLOCK_MONOTONIC);

	if (access("/proc/version", F_OK) == 0) {
		printf("not on Linux: this sets the date\n");
		exit(2);
	}
	readings();
	timezone_checks();
	sleeps();
	posix_timers();
	timerfds();
	/* Back where the date would have been, for what runs after in this boot. */
	real += now_ns(CLOCK_MONOTONIC) - mono;
	check(settime(CLOCK_REALTIME, real / NSEC_PER_SEC, real % NSEC_PER_SEC) == 0,
	      "the date put back");
	printf("%d failed\n", failures);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 1 && !strcmp(argv[1], "set"))
		set_mode();
	else if (argc > 1 && !strcmp(argv[1], "adjtimex") &&
		 access("/proc/version", F_OK) != 0) /* Lucid: the host may run NTP */
		adjtimex_fields();
	else
		errors();
	return 0;
}
