/*
 * Signal handlers, masks and the signal frame, judged against Linux
 * (tests/qemu/user/test_signals.py): rt_sigaction's flags (SA_SIGINFO, SA_NODEFER, SA_RESETHAND),
 * sa_mask during a handler, rt_sigprocmask, rt_sigpending, rt_sigsuspend, real-time signals queued
 * and standard ones merged, kill/tkill/tgkill's siginfo, and rt_sigreturn giving back every
 * register, the FPU state and the mask, including a RIP the handler changed in its ucontext.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static volatile int log_pos;
static volatile int log_buf[64];

static void record(int v)
{
	if (log_pos < 64)
		log_buf[log_pos++] = v;
}

static void print_log(const char *what)
{
	printf("%s:", what);
	for (int i = 0; i < log_pos; i++)
		printf(" %d", log_buf[i]);
	printf("\n");
	log_pos = 0;
}

#define NO_PID 4194305 /* past Linux's PID_MAX_LIMIT (4194304) */

/* kill's answer as its error's name, or "ok". */
static const char *kill_errno(pid_t pid, int sig)
{
	if (kill(pid, sig) == 0)
		return "ok";
	return errno == ESRCH ? "ESRCH" : errno == EINVAL ? "EINVAL" : strerror(errno);
}

static void set_handler(int sig, void (*fn)(int), int flags, const sigset_t *mask)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	if (mask)
		sa.sa_mask = *mask;
	if (sigaction(sig, &sa, NULL))
		perror("sigaction");
}

static void on_info(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	printf("handler: sig=%d signo=%d code=%d pid_is_me=%d\n", sig, si->si_signo, si->si_code,
	       si->si_pid == getpid());
}

/* SIGUSR1's handler sends SIGUSR2, which its sa_mask holds back until it returns. */
static void on_usr1_masked(int sig)
{
	sigset_t cur;

	record(sig);
	sigprocmask(SIG_BLOCK, NULL, &cur);
	record(100 + sigismember(&cur, SIGUSR1) * 10 + sigismember(&cur, SIGUSR2));
	kill(getpid(), SIGUSR2);
	record(-sig); /* SIGUSR2 has not run yet */
}

static void on_record(int sig)
{
	record(sig);
}

static volatile int depth;

static void on_nodefer(int sig)
{
	record(sig);
	if (++depth < 3)
		kill(getpid(), sig); /* runs at once, nested: SA_NODEFER */
	record(-sig);
}

static void test_siginfo(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_info;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	kill(getpid(), SIGUSR1);
	syscall(SYS_tgkill, getpid(), getpid(), SIGUSR1);
	syscall(SYS_tkill, getpid(), SIGUSR1);
	raise(SIGUSR1);
	/* The old action reads back as it was set. */
	struct sigaction old;
	sigaction(SIGUSR1, NULL, &old);
	printf("read back: siginfo=%d handler_ok=%d\n", !!(old.sa_flags & SA_SIGINFO),
	       old.sa_sigaction == on_info);
}

static void test_sa_mask(void)
{
	sigset_t mask;

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR2);
	set_handler(SIGUSR1, on_usr1_masked, 0, &mask);
	set_handler(SIGUSR2, on_record, 0, NULL);
	kill(getpid(), SIGUSR1);
	print_log("sa_mask");

	depth = 0;
	set_handler(SIGUSR1, on_nodefer, SA_NODEFER, NULL);
	kill(getpid(), SIGUSR1);
	print_log("nodefer");

	set_handler(SIGUSR1, on_record, SA_RESETHAND, NULL);
	kill(getpid(), SIGUSR1);
	struct sigaction old;
	sigaction(SIGUSR1, NULL, &old);
	printf("resethand: handler is default=%d\n", old.sa_handler == SIG_DFL);
	print_log("resethand");
}

static void test_mask_pending(void)
{
	sigset_t block, pend, old;

	set_handler(SIGUSR1, on_record, 0, NULL);
	set_handler(SIGUSR2, on_record, 0, NULL);
	set_handler(SIGRTMIN + 1, on_record, 0, NULL);
	set_handler(SIGRTMIN + 2, on_record, 0, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);
	sigaddset(&block, SIGRTMIN + 1);
	sigaddset(&block, SIGRTMIN + 2);
	sigaddset(&block, SIGKILL); /* silently not blocked */
	sigprocmask(SIG_BLOCK, &block, &old);
	for (int i = 0; i < 3; i++) {
		kill(getpid(), SIGUSR2);
		kill(getpid(), SIGRTMIN + 2);
		kill(getpid(), SIGRTMIN + 1);
		kill(getpid(), SIGUSR1);
	}
	sigpending(&pend);
	printf("pending: usr1=%d usr2=%d rt1=%d rt2=%d term=%d\n", sigismember(&pend, SIGUSR1),
	       sigismember(&pend, SIGUSR2), sigismember(&pend, SIGRTMIN + 1),
	       sigismember(&pend, SIGRTMIN + 2), sigismember(&pend, SIGTERM));
	sigset_t cur;
	sigprocmask(SIG_BLOCK, NULL, &cur);
	printf("kill blocked=%d\n", sigismember(&cur, SIGKILL));
	print_log("while blocked");
	/*
	 * Unblocked all at once: lowest number first, the standard ones once, each RT one thrice.
	 */
	sigprocmask(SIG_SETMASK, &old, NULL);
	print_log("unblocked");
	/* SIG_IGN discards a pending signal. */
	sigprocmask(SIG_BLOCK, &block, NULL);
	kill(getpid(), SIGUSR1);
	signal(SIGUSR1, SIG_IGN);
	sigpending(&pend);
	printf("after SIG_IGN: usr1 pending=%d\n", sigismember(&pend, SIGUSR1));
	sigprocmask(SIG_SETMASK, &old, NULL);
	kill(getpid(), SIGUSR1); /* ignored: nothing happens */
	print_log("ignored");
	/* Bad arguments. */
	printf("sigaction(SIGKILL)=%d sigaction(65)=%d kill(sig 65)=%d how=7:%d\n",
	       sigaction(SIGKILL, &(struct sigaction){.sa_handler = on_record}, NULL),
	       (int)syscall(SYS_rt_sigaction, 65, NULL, NULL, 8), kill(getpid(), 65),
	       (int)syscall(SYS_rt_sigprocmask, 7, &block, NULL, 8));
	/*
	 * Which error first: the target is looked for before the signal is checked (Linux's
	 * kill_something_info). NO_PID is past Linux's PID_MAX_LIMIT: no process has it.
	 */
	printf("kill(no pid, 65): %s; kill(no group, 65): %s; kill(INT_MIN, 0): %s; "
	       "kill(own group, 65): %s; kill(-1, 65): %s\n",
	       kill_errno(NO_PID, 65), kill_errno(-NO_PID, 65), kill_errno(INT_MIN, 0),
	       kill_errno(-getpgrp(), 65), kill_errno(-1, 65));
}

static void test_sigsuspend(void)
{
	sigset_t block, old, wait_mask;

	set_handler(SIGUSR1, on_record, 0, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);
	kill(getpid(), SIGUSR1);
	print_log("before sigsuspend");
	sigemptyset(&wait_mask);
	int r = sigsuspend(&wait_mask);
	sigset_t cur;
	sigprocmask(SIG_BLOCK, NULL, &cur);
	printf("sigsuspend=%d (%s), usr1 blocked again=%d\n", r, strerror(errno),
	       sigismember(&cur, SIGUSR1));
	print_log("after sigsuspend");
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static sigjmp_buf jump;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	printf("SIGSEGV: sig=%d code=%d addr=%p\n", sig, si->si_code, si->si_addr);
	siglongjmp(jump, 1);
}

/* A fault's handler skips the faulting instruction by moving RIP in its ucontext. */
static void on_ill(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	printf("SIGILL: sig=%d code=%d at_rip=%d\n", sig, si->si_code,
	       (unsigned long)si->si_addr == (unsigned long)uc->uc_mcontext.gregs[REG_RIP]);
	uc->uc_mcontext.gregs[REG_RIP] += 2; /* ud2 */
	uc->uc_mcontext.gregs[REG_RBX] = 4242; /* rt_sigreturn hands it back */
}

static volatile double fp_in_handler;

static void on_fp(int sig)
{
	/* Different FPU/SSE values while the interrupted code has its own live. */
	volatile double x = sig * 1.5;
	for (int i = 0; i < 10; i++)
		x = x * 3.25 + 1.0;
	fp_in_handler = x;
}

static void test_frame(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	if (!sigsetjmp(jump, 1))
		*(volatile int *)0x1000 = 1;
	sigset_t cur;
	sigprocmask(SIG_BLOCK, NULL, &cur);
	printf("after siglongjmp: segv blocked=%d\n", sigismember(&cur, SIGSEGV));

	sa.sa_sigaction = on_ill;
	sigaction(SIGILL, &sa, NULL);
	long rbx;
	__asm__ volatile("mov $1, %%rbx\n\tud2\n\tmov %%rbx, %0" : "=r"(rbx) : : "rbx");
	printf("after ud2: rbx=%ld\n", rbx);

	/* Registers and SSE state survive a handler that uses them. */
	set_handler(SIGUSR1, on_fp, 0, NULL);
	double a = 1.0;
	long r12, r13;
	for (int i = 0; i < 5; i++) {
		a = a * 1.0625 + 0.5;
		__asm__ volatile("mov $0x1234, %%r12\n\tmov $0x5678, %%r13\n\t"
				 "mov %[nr], %%eax\n\tmov %[pid], %%edi\n\tmov %[sig], %%esi\n\t"
				 "syscall\n\tmov %%r12, %[a]\n\tmov %%r13, %[b]"
				 : [a] "=r"(r12), [b] "=r"(r13)
				 : [nr] "i"(SYS_kill), [pid] "r"(getpid()), [sig] "i"(SIGUSR1)
				 : "rax", "rdi", "rsi", "rcx", "r11", "r12", "r13", "memory");
		a = a * 1.0625 + 0.5;
	}
	printf("fp: main=%.6f handler=%.1f r12=%lx r13=%lx\n", a, fp_in_handler, r12, r13);
}

/* What /proc/self/status says of the actions and the mask. */
static void test_proc_status(void)
{
	sigset_t block;
	char line[128];

	for (int sig = 1; sig < 32; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL); /* what the test runner passed down aside */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGRTMIN + 3, SIG_IGN);
	set_handler(SIGUSR2, on_record, 0, NULL);
	set_handler(SIGWINCH, on_record, 0, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGRTMIN + 4);
	sigprocmask(SIG_SETMASK, &block, NULL);
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "SigBlk:", 7) || !strncmp(line, "SigIgn:", 7) ||
		    !strncmp(line, "SigCgt:", 7))
			printf("%s", line);
	fclose(f);
	sigemptyset(&block);
	sigprocmask(SIG_SETMASK, &block, NULL);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	test_siginfo();
	test_sa_mask();
	test_mask_pending();
	test_sigsuspend();
	test_frame();
	test_proc_status();
	printf("done\n");
	return 0;
}
