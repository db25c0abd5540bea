/*
 * rt_sigqueueinfo and rt_tgsigqueueinfo as Linux's: sigqueue(3)'s value, sender and code reach
 * an SA_SIGINFO handler, sigwaitinfo, sigtimedwait and a signalfd whole; real-time ones queue in
 * order; the errors in Linux's order (EFAULT, EINVAL, EPERM for an impersonated code sent
 * elsewhere, ESRCH, EINVAL for a bad signal); si_signo is the call's, whatever the siginfo says.
 * Built with musl and with glibc (sigqueue goes through each library's own code).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SI_TKILL_CODE (-6) /* SI_TKILL: tkill's and tgkill's */
#define SI_KERNEL_CODE 0x80
#define NOT_A_SIGNAL 65

static volatile sig_atomic_t got_signo, got_code, got_errno, got_int, got_pid_ok, got_uid_ok;

static void on_info(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	got_signo = si->si_signo;
	got_code = si->si_code;
	got_errno = si->si_errno;
	got_int = si->si_value.sival_int;
	got_pid_ok = si->si_pid == getpid();
	got_uid_ok = si->si_uid == getuid();
}

static const char *err(long ret)
{
	if (ret >= 0)
		return "ok";
	switch (errno) {
	case EPERM:
		return "EPERM";
	case EINVAL:
		return "EINVAL";
	case ESRCH:
		return "ESRCH";
	case EFAULT:
		return "EFAULT";
	case EAGAIN:
		return "EAGAIN";
	default:
		return strerror(errno);
	}
}

static long rt_sigqueueinfo(pid_t pid, int sig, siginfo_t *si)
{
	return syscall(SYS_rt_sigqueueinfo, pid, sig, si);
}

static long rt_tgsigqueueinfo(pid_t tgid, pid_t tid, int sig, siginfo_t *si)
{
	return syscall(SYS_rt_tgsigqueueinfo, tgid, tid, sig, si);
}

static siginfo_t make_info(int sig, int code, int value)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = sig;
	si.si_code = code;
	si.si_pid = getpid();
	si.si_uid = getuid();
	si.si_value.sival_int = value;
	return si;
}

static void report(const char *what)
{
	printf("%s: signo %s code %d value %d pid %s uid %s errno %d\n", what,
	       got_signo == SIGUSR1 ? "SIGUSR1" : got_signo == SIGUSR2 ? "SIGUSR2" : "?", got_code,
	       got_int, got_pid_ok ? "mine" : "other", got_uid_ok ? "mine" : "other", got_errno);
	got_signo = got_code = got_int = got_pid_ok = got_uid_ok = got_errno = 0;
}

static pid_t worker_tid;
static volatile sig_atomic_t worker_ready;
static int worker_value = -1, worker_code, worker_from_thread_self, worker_from_thread_group;

/* Waits, bounded, for its own queued signal; then what Linux says to sigqueue from a thread. */
static void *worker(void *arg)
{
	struct timespec limit = {10, 0};
	sigset_t rt;
	siginfo_t si;

	(void)arg;
	worker_tid = (pid_t)syscall(SYS_gettid);
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN + 3);
	worker_ready = 1;
	if (sigtimedwait(&rt, &si, &limit) == SIGRTMIN + 3) {
		worker_value = si.si_value.sival_int;
		worker_code = si.si_code;
	}
	/* A code of the kernel's, to its own tid: allowed; to its process's pid: not its id. */
	si = make_info(0, SI_USER, 0);
	worker_from_thread_self = rt_tgsigqueueinfo(getpid(), worker_tid, 0, &si) == 0;
	si = make_info(0, SI_USER, 0);
	worker_from_thread_group = rt_sigqueueinfo(getpid(), 0, &si) ? errno : 0;
	return NULL;
}

int main(void)
{
	struct sigaction sa;
	sigset_t rt, usr2;
	siginfo_t si;
	struct timespec limit = {5, 0};

	setvbuf(stdout, NULL, _IONBF, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_info;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);

	/* sigqueue(3): the library's SI_QUEUE, the value, the sender. */
	union sigval v = {.sival_int = 42};
	printf("sigqueue: %s\n", err(sigqueue(getpid(), SIGUSR1, v)));
	report("handler");

	/* The raw call: si_errno and the code as given, si_signo made the call's signal. */
	si = make_info(SIGUSR1, SI_QUEUE, 7);
	si.si_errno = 3;
	printf("rt_sigqueueinfo to SIGUSR2 with si_signo SIGUSR1: %s\n",
	       err(rt_sigqueueinfo(getpid(), SIGUSR2, &si)));
	report("handler");
	/* A kernel's code or kill's, to oneself: allowed (only the pretence elsewhere is not). */
	si = make_info(SIGUSR1, SI_USER, 8);
	printf("SI_USER to itself: %s\n", err(rt_sigqueueinfo(getpid(), SIGUSR1, &si)));
	report("handler");

	/* Real-time signals queue, each with its value, in order. */
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN + 2);
	sigprocmask(SIG_BLOCK, &rt, NULL);
	for (int i = 1; i <= 3; i++) {
		v.sival_int = 100 + i;
		sigqueue(getpid(), SIGRTMIN + 2, v);
	}
	for (int i = 0; i < 3; i++) {
		memset(&si, 0, sizeof(si));
		int sig = i == 1 ? sigtimedwait(&rt, &si, &limit) : sigwaitinfo(&rt, &si);
		printf("%s: SIGRTMIN+%d code %d value %d pid %s\n",
		       i == 1 ? "sigtimedwait" : "sigwaitinfo", sig - SIGRTMIN, si.si_code,
		       si.si_value.sival_int, si.si_pid == getpid() ? "mine" : "other");
	}

	/* A signalfd reads the same: ssi_int, ssi_ptr, ssi_pid, ssi_code. */
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, NULL);
	int sfd = signalfd(-1, &usr2, SFD_NONBLOCK);
	v.sival_ptr = (void *)55; /* all 8 bytes: ssi_ptr is the whole union */
	sigqueue(getpid(), SIGUSR2, v);
	struct signalfd_siginfo ssi;
	memset(&ssi, 0, sizeof(ssi));
	if (read(sfd, &ssi, sizeof(ssi)) == sizeof(ssi))
		printf("signalfd: signo %s code %d int %d ptr %llu pid %s uid %s\n",
		       ssi.ssi_signo == SIGUSR2 ? "SIGUSR2" : "?", ssi.ssi_code, ssi.ssi_int,
		       (unsigned long long)ssi.ssi_ptr,
		       ssi.ssi_pid == (unsigned)getpid() ? "mine" : "other",
		       ssi.ssi_uid == getuid() ? "mine" : "other");
	close(sfd);

	/* The errors, to a child (another process) and to no process. */
	pid_t child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	pid_t gone = fork();
	if (gone == 0)
		_exit(0);
	waitpid(gone, NULL, 0);
	si = make_info(SIGUSR1, SI_QUEUE, 1);
	printf("SI_QUEUE, signal 0, to a child: %s\n", err(rt_sigqueueinfo(child, 0, &si)));
	si = make_info(SIGUSR1, SI_USER, 1);
	printf("SI_USER to a child: %s\n", err(rt_sigqueueinfo(child, 0, &si)));
	si = make_info(SIGUSR1, SI_TKILL_CODE, 1);
	printf("SI_TKILL to a child: %s\n", err(rt_sigqueueinfo(child, 0, &si)));
	si = make_info(SIGUSR1, SI_KERNEL_CODE, 1);
	printf("SI_KERNEL to a child: %s\n", err(rt_sigqueueinfo(child, 0, &si)));
	si = make_info(SIGUSR1, SI_QUEUE, 1);
	printf("to no process: %s\n", err(rt_sigqueueinfo(gone, SIGUSR1, &si)));
	printf("to no process, bad signal: %s\n", err(rt_sigqueueinfo(gone, NOT_A_SIGNAL, &si)));
	printf("bad signal: %s\n", err(rt_sigqueueinfo(child, NOT_A_SIGNAL, &si)));
	printf("pid 0: %s\n", err(rt_sigqueueinfo(0, SIGUSR1, &si)));
	printf("pid -1: %s\n", err(rt_sigqueueinfo(-1, SIGUSR1, &si)));
	printf("unmapped siginfo: %s\n", err(rt_sigqueueinfo(child, SIGUSR1, (siginfo_t *)8)));
	si = make_info(SIGUSR1, SI_USER, 1);
	printf("unmapped siginfo first: %s\n", err(rt_sigqueueinfo(-1, SIGUSR1, (siginfo_t *)8)));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);

	/* rt_tgsigqueueinfo: one thread, which waits for it. */
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN + 3);
	sigprocmask(SIG_BLOCK, &rt, NULL); /* the worker inherits it: only its wait takes it */
	pthread_t th;
	pthread_create(&th, NULL, worker, NULL);
	struct timespec step = {0, 1000 * 1000};
	for (int i = 0; i < 5000 && !worker_ready; i++)
		nanosleep(&step, NULL);
	si = make_info(SIGRTMIN + 3, SI_USER, 9);
	printf("tg: SI_USER to another thread: %s\n",
	       err(rt_tgsigqueueinfo(getpid(), worker_tid, SIGRTMIN + 3, &si)));
	si = make_info(SIGRTMIN + 3, SI_QUEUE, 9);
	printf("tg: tid 0: %s\n", err(rt_tgsigqueueinfo(getpid(), 0, SIGRTMIN + 3, &si)));
	printf("tg: tgid 0: %s\n", err(rt_tgsigqueueinfo(0, worker_tid, SIGRTMIN + 3, &si)));
	printf("tg: tgid -1: %s\n", err(rt_tgsigqueueinfo(-1, worker_tid, SIGRTMIN + 3, &si)));
	printf("tg: another process's tgid: %s\n",
	       err(rt_tgsigqueueinfo(gone, worker_tid, SIGRTMIN + 3, &si)));
	printf("tg: bad signal: %s\n",
	       err(rt_tgsigqueueinfo(getpid(), worker_tid, NOT_A_SIGNAL, &si)));
	printf("tg: SI_QUEUE to the thread: %s\n",
	       err(rt_tgsigqueueinfo(getpid(), worker_tid, SIGRTMIN + 3, &si)));
	pthread_join(th, NULL);
	printf("tg: the thread took value %d code %d\n", worker_value, worker_code);
	printf("tg: from the thread, SI_USER to its own tid: %s\n",
	       worker_from_thread_self ? "ok" : "refused");
	printf("tg: from the thread, SI_USER to its process's pid: %s\n",
	       worker_from_thread_group == EPERM ? "EPERM" : worker_from_thread_group ? "?" : "ok");
	return 0;
}
