/*
 * sigaltstack, judged against Linux (tests/qemu/user/test_signals.py): the system call's
 * answers (the state it reports, SS_DISABLE, SS_AUTODISARM, SS_ONSTACK, EPERM while on the
 * stack, ENOMEM below MINSIGSTKSZ, EINVAL for bad flags, EFAULT), SA_ONSTACK handlers running
 * on it and the others not, the frame's uc_stack, a nested signal on it, rt_sigreturn putting
 * back the uc_stack a handler changed, what fork, a thread (clone CLONE_VM) and execve do with
 * it, and the classic use: a stack overflow's SIGSEGV caught on the alternate stack.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#define ALT_SIZE (64 * 1024)
#define SMALL_SIZE 2047 /* one byte below MINSIGSTKSZ (2048 on x86-64) */
#define CHILD_STACK (64 * 1024)
#define FRAME_BYTES 4096 /* each level of the runaway recursion */
/* The system call itself: musl's wrapper checks the size and flags before the kernel does. */
#define sigaltstack(ss, old) syscall(SYS_sigaltstack, ss, old)
#ifndef SS_AUTODISARM
#define SS_AUTODISARM (1U << 31)
#endif

static char altstack[ALT_SIZE] __attribute__((aligned(16)));
static char altstack2[ALT_SIZE] __attribute__((aligned(16)));

static const char *where(const void *p)
{
	const char *c = p;

	if (c >= altstack && c < altstack + ALT_SIZE)
		return "altstack";
	if (c >= altstack2 && c < altstack2 + ALT_SIZE)
		return "altstack2";
	return "main stack";
}

static const char *which(const void *sp)
{
	if (sp == altstack)
		return "altstack";
	if (sp == altstack2)
		return "altstack2";
	if (sp == NULL)
		return "NULL";
	return "elsewhere";
}

static void show_state(const char *label)
{
	stack_t old;

	memset(&old, 0x55, sizeof(old));
	if (sigaltstack(NULL, &old)) {
		printf("%s: sigaltstack: %s\n", label, strerror(errno));
		return;
	}
	printf("%s: ss_sp=%s ss_size=%zu ss_flags=%#x\n", label, which(old.ss_sp), old.ss_size,
	       (unsigned)old.ss_flags);
}

static void show_set(const char *label, void *sp, size_t size, int flags)
{
	stack_t ss = {.ss_sp = sp, .ss_size = size, .ss_flags = flags};

	errno = 0;
	long r = sigaltstack(&ss, NULL);
	printf("%s: %ld %s\n", label, r, r ? strerror(errno) : "");
}

static void set_handler(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	if (sigaction(sig, &sa, NULL))
		perror("sigaction");
}

static void print_uc_stack(const char *who, const ucontext_t *uc)
{
	printf("  %s: uc_stack ss_sp=%s ss_size=%zu ss_flags=%#x\n", who, which(uc->uc_stack.ss_sp),
	       uc->uc_stack.ss_size, (unsigned)uc->uc_stack.ss_flags);
}

/* --- the system call ----------------------------------------------------------------------- */

static void test_syscall(void)
{
	show_state("initial");
	show_set("size below MINSIGSTKSZ", altstack, SMALL_SIZE, 0);
	show_set("size MINSIGSTKSZ", altstack, MINSIGSTKSZ, 0);
	show_state("after MINSIGSTKSZ");
	show_set("bad flags 0x1234", altstack, ALT_SIZE, 0x1234);
	show_set("bad flags SS_DISABLE|SS_ONSTACK", altstack, ALT_SIZE, SS_DISABLE | SS_ONSTACK);
	show_set("SS_ONSTACK as a flag", altstack, ALT_SIZE, SS_ONSTACK);
	show_state("after SS_ONSTACK");
	show_set("SS_DISABLE, a small size", altstack, 1, SS_DISABLE);
	show_state("after SS_DISABLE");
	show_set("SS_AUTODISARM", altstack2, ALT_SIZE, SS_AUTODISARM);
	show_state("after SS_AUTODISARM");
	show_set("plain", altstack, ALT_SIZE, 0);
	show_state("after plain");
	long r = sigaltstack((stack_t *)8, NULL);
	printf("bad new pointer: %ld %s\n", r, strerror(errno));
	r = sigaltstack(NULL, (stack_t *)8);
	printf("bad old pointer: %ld %s\n", r, strerror(errno));
	show_state("after the bad pointers");
	/* Both at once: old is the state before new. */
	stack_t ss = {.ss_sp = altstack2, .ss_size = ALT_SIZE}, old;
	sigaltstack(&ss, &old);
	printf("both: old ss_sp=%s ss_size=%zu ss_flags=%#x\n", which(old.ss_sp), old.ss_size,
	       (unsigned)old.ss_flags);
	show_state("after both");
}

/* --- handlers on it ------------------------------------------------------------------------ */

static volatile int depth;

static void on_usr2(int sig, siginfo_t *si, void *ucv)
{
	char here;

	(void)sig;
	(void)si;
	printf("  SIGUSR2 handler runs on the %s\n", where(&here));
	print_uc_stack("SIGUSR2", ucv);
	show_state("  SIGUSR2 handler: sigaltstack says");
}

static void on_usr1(int sig, siginfo_t *si, void *ucv)
{
	char here;

	(void)sig;
	(void)si;
	printf("  SIGUSR1 handler runs on the %s\n", where(&here));
	print_uc_stack("SIGUSR1", ucv);
	show_state("  SIGUSR1 handler: sigaltstack says");
	show_set("  SIGUSR1 handler: a new one", altstack2, ALT_SIZE, 0);
	show_set("  SIGUSR1 handler: SS_DISABLE", NULL, 0, SS_DISABLE);
	if (depth++ == 0)
		raise(SIGUSR2); /* nested, while on the alternate stack */
}

static char *outer_local;

static void on_nest_inner(int sig, siginfo_t *si, void *ucv)
{
	char here;

	(void)sig;
	(void)si;
	printf("  inner handler on the %s, below the outer's frame: %s\n", where(&here),
	       &here < outer_local ? "yes" : "no");
	print_uc_stack("inner", ucv);
}

static void on_nest_outer(int sig, siginfo_t *si, void *ucv)
{
	char here;

	(void)sig;
	(void)si;
	outer_local = &here;
	printf("  outer handler on the %s\n", where(&here));
	print_uc_stack("outer", ucv);
	raise(SIGUSR2);
}

static void on_change(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	(void)si;
	/* What rt_sigreturn puts back: the handler's choice. */
	uc->uc_stack.ss_sp = altstack2;
	uc->uc_stack.ss_size = ALT_SIZE / 2;
	uc->uc_stack.ss_flags = 0;
}

static void on_disable(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	(void)si;
	uc->uc_stack.ss_flags = SS_DISABLE;
}

static void on_bad(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	(void)si;
	uc->uc_stack.ss_size = 1; /* rt_sigreturn's sigaltstack fails: ignored, as Linux */
	uc->uc_stack.ss_sp = altstack2;
}

static void test_handlers(void)
{
	stack_t ss = {.ss_sp = altstack, .ss_size = ALT_SIZE};

	sigaltstack(&ss, NULL);
	printf("SA_ONSTACK handler, a nested one without SA_ONSTACK:\n");
	set_handler(SIGUSR1, on_usr1, SA_ONSTACK);
	set_handler(SIGUSR2, on_usr2, 0);
	depth = 0;
	raise(SIGUSR1);
	show_state("after");
	printf("without SA_ONSTACK:\n");
	set_handler(SIGUSR1, on_usr1, 0);
	depth = 1;
	raise(SIGUSR1);
	printf("nested, both SA_ONSTACK:\n");
	set_handler(SIGUSR1, on_nest_outer, SA_ONSTACK);
	set_handler(SIGUSR2, on_nest_inner, SA_ONSTACK);
	raise(SIGUSR1);
	printf("SS_AUTODISARM:\n");
	ss.ss_flags = SS_AUTODISARM;
	sigaltstack(&ss, NULL);
	show_state("armed");
	set_handler(SIGUSR1, on_usr1, SA_ONSTACK);
	depth = 1;
	raise(SIGUSR1);
	show_state("after the handler");
	printf("a handler changes uc_stack:\n");
	ss.ss_flags = 0;
	sigaltstack(&ss, NULL);
	set_handler(SIGUSR1, on_change, SA_ONSTACK);
	raise(SIGUSR1);
	show_state("after, the handler on it (EPERM, ignored)");
	set_handler(SIGUSR1, on_change, 0);
	raise(SIGUSR1);
	show_state("after, the handler on the main stack");
	set_handler(SIGUSR1, on_disable, 0);
	raise(SIGUSR1);
	show_state("after SS_DISABLE in uc_stack");
	sigaltstack(&ss, NULL);
	set_handler(SIGUSR1, on_bad, 0);
	raise(SIGUSR1);
	show_state("after a bad size in uc_stack");
	printf("SA_ONSTACK with no alternate stack:\n");
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	set_handler(SIGUSR1, on_usr1, SA_ONSTACK);
	depth = 1;
	raise(SIGUSR1);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

/* --- fork, threads, exec ------------------------------------------------------------------- */

static volatile int thread_flags = -1;
static void *volatile thread_sp;

static int thread_fn(void *arg)
{
	stack_t old;

	(void)arg;
	if (syscall(SYS_sigaltstack, NULL, &old) == 0) {
		thread_flags = old.ss_flags;
		thread_sp = old.ss_sp;
	}
	return 0;
}

static void test_inheritance(const char *self)
{
	stack_t ss = {.ss_sp = altstack, .ss_size = ALT_SIZE};
	int status;

	sigaltstack(&ss, NULL);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		show_state("fork's child");
		_exit(0);
	}
	waitpid(pid, &status, 0);
	/* vfork: the child shares the memory, and keeps the stack (Linux clears it for CLONE_VM
	 * without CLONE_VFORK only). */
	char *stack = malloc(CHILD_STACK);
	pid = clone(thread_fn, stack + CHILD_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
	waitpid(pid, &status, 0);
	printf("clone CLONE_VM|CLONE_VFORK: ss_sp=%s ss_flags=%#x\n", which(thread_sp),
	       (unsigned)thread_flags);
	thread_flags = -1;
	pid = clone(thread_fn, stack + CHILD_STACK, CLONE_VM | SIGCHLD, NULL);
	waitpid(pid, &status, 0);
	printf("clone CLONE_VM: ss_sp=%s ss_flags=%#x\n", which(thread_sp), (unsigned)thread_flags);
	free(stack);
	pid = fork();
	if (pid == 0) {
		execlp(self, self, "exec", (char *)NULL);
		perror("execlp");
		_exit(1);
	}
	waitpid(pid, &status, 0);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

/* --- a stack overflow caught ---------------------------------------------------------------- */

static sigjmp_buf back;

static void on_segv(int sig, siginfo_t *si, void *ucv)
{
	char here;

	(void)ucv;
	printf("stack overflow: signo=%d code=%d, the handler on the %s\n", sig, si->si_code,
	       where(&here));
	siglongjmp(back, 1);
}

static int recurse(volatile char *prev, long level)
{
	volatile char frame[FRAME_BYTES];

	frame[0] = prev ? prev[0] + 1 : 0;
	frame[FRAME_BYTES - 1] = frame[0];
	if (level == LONG_MAX) /* never: the stack ends long before */
		return 0;
	return recurse(frame, level + 1) + frame[FRAME_BYTES - 1];
}

static void test_overflow(void)
{
	stack_t ss = {.ss_sp = altstack, .ss_size = ALT_SIZE};

	sigaltstack(&ss, NULL);
	set_handler(SIGSEGV, on_segv, SA_ONSTACK);
	fflush(stdout);
	/* In a child: the grown stack stays with it. */
	pid_t pid = fork();
	if (pid == 0) {
		if (!sigsetjmp(back, 1))
			recurse(NULL, 0);
		printf("stack overflow: back in main, and on again\n");
		fflush(stdout);
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	printf("stack overflow: the child %s %d\n", WIFSIGNALED(status) ? "died of" : "exited with",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	/* Without the alternate stack, the handler has nowhere to run: SIGSEGV kills. */
	pid = fork();
	if (pid == 0) {
		ss.ss_flags = SS_DISABLE;
		sigaltstack(&ss, NULL);
		if (!sigsetjmp(back, 1))
			recurse(NULL, 0);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	printf("no alternate stack: the child %s %d\n",
	       WIFSIGNALED(status) ? "died of" : "exited with",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	signal(SIGSEGV, SIG_DFL);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "exec")) {
		show_state("after execve");
		return 0;
	}
	test_syscall();
	test_handlers();
	test_inheritance(argv[0]);
	test_overflow();
	return 0;
}
