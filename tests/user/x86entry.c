/*
 * The x86-64 system-call entry's corner cases, judged against Linux
 * (tests/qemu/user/test_entry.py):
 *	tf        the trap flag set (popf) across a system call: one SIGTRAP per instruction
 *	          stepped (TRAP_TRACE, si_addr the next instruction), none in the kernel, and the
 *	          call's result as without TF
 *	nr        system-call numbers with high bits or the x32 bit set: Linux 6.1 reads the
 *	          number as an int (its low 32 bits), and the x32 bit is ENOSYS without x32
 *	sigreturn rt_sigreturn to a non-canonical RIP (and to canonical addresses outside user
 *	          space): SIGSEGV to the program's handler, on its sigaltstack, with the bad RIP in
 *	          its ucontext; the process dies of it without a handler
 *	uret      a function entered with a non-canonical return address: its ret faults in ring 3,
 *	          at the ret (x86 CPUs) or at the address (QEMU's emulation); test_entry.py runs it
 *	          under a uretprobe, whose trampoline must not IRET there
 *	sysret    a syscall as the last instruction below the top of user space, so that the return
 *	          address is the first one past it (CVE-2012-0217's class: SYSRET must not return
 *	          there): the call completes and the program takes SIGSEGV at that address
 * With no argument: all but uret. Addresses are printed relative to labels, so that the output is
 * the same wherever the program is loaded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#define X86_EFLAGS_TF 0x100UL
#define MAX_TRAPS 32
#define NON_CANONICAL 0x0000800000000000UL /* the first address past the lower half */
#define KERNEL_HALF 0xffff800000000000UL /* canonical, but the kernel's */
#define TASK_SIZE_MAX 0x00007ffffffff000UL /* Linux's: the last page below is never mapped */
#define PAGE_SIZE 4096UL
#define ALT_SIZE (64 * 1024)
#define CHILD_STACK (64 * 1024)
#define X32_SYSCALL_BIT 0x40000000UL
#define SYSCALL_INSN_LEN 2
#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000
#endif

static char altstack[ALT_SIZE] __attribute__((aligned(16)));

static void set_handler(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	if (sigaction(sig, &sa, NULL))
		perror("sigaction");
}

/* --- tf ------------------------------------------------------------------------------------ */

/* Code stepped with TF set: labels bound its instructions, RIPs are printed as offsets. */
extern char tf_start[], tf_end[];
long tf_result; /* written by tf_code */

__asm__(".text\n"
	"tf_code:\n"
	"	pushfq\n"
	"	orq $0x100, (%rsp)\n"
	"	popfq\n"
	"tf_start:\n"
	"	nop\n"
	"	movl $39, %eax\n" /* getpid */
	"	syscall\n"
	"	movq %rax, tf_result(%rip)\n"
	"	nop\n"
	"	pushfq\n"
	"	andq $~0x100, (%rsp)\n"
	"	popfq\n"
	"tf_end:\n"
	"	ret\n");
extern void tf_code(void);

static struct {
	int code;
	long addr, rip;
	long trapno, err;
	int tf;
} traps[MAX_TRAPS];
static volatile int nr_traps;

static void on_trap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	unsigned long flags = uc->uc_mcontext.gregs[REG_EFL];

	(void)sig;
	if (nr_traps < MAX_TRAPS) {
		traps[nr_traps].code = si->si_code;
		traps[nr_traps].addr = (char *)si->si_addr - tf_start;
		traps[nr_traps].rip = (char *)uc->uc_mcontext.gregs[REG_RIP] - tf_start;
		traps[nr_traps].trapno = uc->uc_mcontext.gregs[REG_TRAPNO];
		traps[nr_traps].err = uc->uc_mcontext.gregs[REG_ERR];
		traps[nr_traps].tf = !!(flags & X86_EFLAGS_TF);
	}
	nr_traps++;
	/* The handler itself runs without TF: otherwise it would trap in its own first line. */
	unsigned long now;
	__asm__ volatile("pushfq; popq %0" : "=r"(now));
	if (now & X86_EFLAGS_TF)
		nr_traps = 1000;
}

static void test_tf(void)
{
	set_handler(SIGTRAP, on_trap, 0);
	tf_code();
	printf("tf: %d traps, getpid %s\n", nr_traps, tf_result == getpid() ? "right" : "wrong");
	for (int i = 0; i < nr_traps && i < MAX_TRAPS; i++)
		printf("tf: trap code=%d addr=+%ld rip=+%ld trapno=%ld err=%ld tf=%d\n",
		       traps[i].code, traps[i].addr, traps[i].rip, traps[i].trapno, traps[i].err,
		       traps[i].tf);
	printf("tf: end at +%ld\n", (long)(tf_end - tf_start));
	signal(SIGTRAP, SIG_DFL);
}

/* --- nr ------------------------------------------------------------------------------------ */

static long raw_syscall0(unsigned long nr)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr) : "rcx", "r11", "memory");
	return ret;
}

static void show_nr(const char *what, unsigned long nr)
{
	long r = raw_syscall0(nr);

	if (r == getpid())
		printf("nr %s (%#lx): getpid\n", what, nr);
	else if (r < 0 && r > -4096)
		printf("nr %s (%#lx): %s\n", what, nr, strerror((int)-r));
	else
		printf("nr %s (%#lx): %ld\n", what, nr, r);
}

static void test_nr(void)
{
	show_nr("getpid", SYS_getpid);
	show_nr("bit 32", (1UL << 32) | SYS_getpid);
	show_nr("high 32 bits", 0xffffffff00000000UL | SYS_getpid);
	show_nr("bit 63", (1UL << 63) | SYS_getpid);
	show_nr("x32", X32_SYSCALL_BIT | SYS_getpid);
	show_nr("x32 only", X32_SYSCALL_BIT | 512); /* x32's rt_sigaction */
	show_nr("bit 31", 0x80000000UL | SYS_getpid);
	show_nr("-1", (unsigned long)-1);
	show_nr("0xffffffff", 0xffffffffUL);
	show_nr("past the table", 1000);
}

/* --- sigreturn ----------------------------------------------------------------------------- */

static sigjmp_buf back;
static unsigned long new_rip, new_rsp;

static void on_usr1_redirect(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	(void)si;
	if (new_rip)
		uc->uc_mcontext.gregs[REG_RIP] = new_rip; /* rt_sigreturn goes there */
	if (new_rsp)
		uc->uc_mcontext.gregs[REG_RSP] = new_rsp;
}

static void on_segv(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	char here;
	int on_alt = &here >= altstack && &here < altstack + ALT_SIZE;

	/* With a bad RSP, which instruction used the stack first is the C library's business. */
	printf("  %s: signo=%d code=%d addr=%#lx %s=%#llx trapno=%lld err=%#llx "
	       "on sigaltstack=%s uc_stack.ss_flags=%d\n",
	       sig == SIGBUS ? "SIGBUS" : "SIGSEGV", sig, si->si_code, (unsigned long)si->si_addr,
	       new_rsp ? "rsp" : "rip",
	       (unsigned long long)uc->uc_mcontext.gregs[new_rsp ? REG_RSP : REG_RIP],
	       (long long)uc->uc_mcontext.gregs[REG_TRAPNO],
	       (unsigned long long)uc->uc_mcontext.gregs[REG_ERR], on_alt ? "yes" : "no",
	       uc->uc_stack.ss_flags);
	siglongjmp(back, 1);
}

static void sigreturn_to(unsigned long rip)
{
	printf("rt_sigreturn to %#lx:\n", rip);
	fflush(stdout);
	new_rip = rip;
	if (!sigsetjmp(back, 1)) {
		raise(SIGUSR1);
		printf("  came back?\n");
	}
}

static void test_sigreturn(void)
{
	stack_t ss = {.ss_sp = altstack, .ss_size = ALT_SIZE};

	if (sigaltstack(&ss, NULL))
		perror("sigaltstack");
	set_handler(SIGUSR1, on_usr1_redirect, 0);
	set_handler(SIGSEGV, on_segv, SA_ONSTACK);
	sigreturn_to(NON_CANONICAL);
	sigreturn_to(0x8000000000000000UL);
	sigreturn_to(KERNEL_HALF);
	sigreturn_to(TASK_SIZE_MAX);
	/*
	 * A non-canonical stack pointer: on AMD's CPUs IRET refuses it (#GP: SIGSEGV, trapno 13),
	 * on Intel's the first use of the stack faults (#SS: SIGBUS, trapno 12). The one line of
	 * this part that depends on who made the CPU: the test knows ("vendor" below).
	 */
	set_handler(SIGBUS, on_segv, SA_ONSTACK);
	printf("rt_sigreturn with RSP %#lx:\n", NON_CANONICAL);
	fflush(stdout);
	new_rip = 0;
	new_rsp = NON_CANONICAL;
	if (!sigsetjmp(back, 1)) {
		raise(SIGUSR1);
		printf("  came back?\n");
	}
	new_rsp = 0;
	signal(SIGBUS, SIG_DFL);
	/* A handler at a non-canonical address: the same SIGSEGV, its RIP the handler's. */
	struct {
		unsigned long handler, flags, restorer, mask;
	} ka = {NON_CANONICAL, SA_RESTORER, NON_CANONICAL, 0};
	printf("a SIGUSR2 handler at %#lx:\n", NON_CANONICAL);
	fflush(stdout);
	if (syscall(SYS_rt_sigaction, SIGUSR2, &ka, NULL, sizeof(ka.mask)))
		perror("rt_sigaction");
	if (!sigsetjmp(back, 1)) {
		raise(SIGUSR2);
		printf("  came back?\n");
	}
	signal(SIGUSR2, SIG_DFL);
	/* Without a handler (a child): the process dies of SIGSEGV. */
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		new_rip = NON_CANONICAL;
		raise(SIGUSR1);
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		printf("no handler: the child died of signal %d\n", WTERMSIG(status));
	else
		printf("no handler: the child exited with %d\n", WEXITSTATUS(status));
	/* SIGSEGV blocked in the mask rt_sigreturn restores: it dies all the same. */
	pid = fork();
	if (pid == 0) {
		sigset_t m;
		sigemptyset(&m);
		sigaddset(&m, SIGSEGV);
		sigprocmask(SIG_BLOCK, &m, NULL);
		new_rip = NON_CANONICAL;
		raise(SIGUSR1);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		printf("blocked: the child died of signal %d\n", WTERMSIG(status));
	else
		printf("blocked: the child exited with %d\n", WEXITSTATUS(status));
	signal(SIGUSR1, SIG_DFL);
	signal(SIGSEGV, SIG_DFL);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

/* --- uret ---------------------------------------------------------------------------------- */

/*
 * A function entered by a jmp with a made-up, non-canonical return address on the stack: its
 * ret faults, in ring 3. test_entry.py runs it again under a uretprobe on the function, whose
 * trampoline must not IRET there either.
 */
extern char uret_target[], uret_ret[];
__asm__(".text\n"
	".globl uret_target\n"
	"uret_target:\n"
	"	nop\n"
	"uret_ret:\n"
	"	ret\n");

static void on_segv_uret(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	unsigned long rip = uc->uc_mcontext.gregs[REG_RIP];

	printf("uret: SIGSEGV signo=%d code=%d addr=%#lx trapno=%lld err=%#llx at %s\n", sig,
	       si->si_code, (unsigned long)si->si_addr,
	       (long long)uc->uc_mcontext.gregs[REG_TRAPNO],
	       (unsigned long long)uc->uc_mcontext.gregs[REG_ERR],
	       rip == (unsigned long)uret_ret ? "the ret"
	       : rip == NON_CANONICAL	      ? "the return address"
					      : "somewhere else");
	siglongjmp(back, 1);
}

static void test_uret(void)
{
	stack_t ss = {.ss_sp = altstack, .ss_size = ALT_SIZE};

	sigaltstack(&ss, NULL);
	set_handler(SIGSEGV, on_segv_uret, SA_ONSTACK);
	((void (*)(void))uret_target)();
	printf("uret: an ordinary call returned\n");
	fflush(stdout);
	if (!sigsetjmp(back, 1)) {
		__asm__ volatile("movabs %0, %%rax\n\t"
				 "push %%rax\n\t"
				 "jmp uret_target"
				 :
				 : "i"(NON_CANONICAL)
				 : "rax", "memory");
	}
	signal(SIGSEGV, SIG_DFL);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

/* --- sysret -------------------------------------------------------------------------------- */

static long last_page_rax;

static void on_segv_top(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	printf("sysret: SIGSEGV signo=%d code=%d addr=%#lx rip=%#llx trapno=%lld err=%#llx "
	       "rax is the pid: %s\n",
	       sig, si->si_code, (unsigned long)si->si_addr,
	       (unsigned long long)uc->uc_mcontext.gregs[REG_RIP],
	       (long long)uc->uc_mcontext.gregs[REG_TRAPNO],
	       (unsigned long long)uc->uc_mcontext.gregs[REG_ERR],
	       uc->uc_mcontext.gregs[REG_RAX] == last_page_rax ? "yes" : "no");
	fflush(stdout);
	_exit(0);
}

/*
 * In a child with a stack of its own (the top page may be the initial stack's, as in Lucid):
 * the page just below TASK_SIZE_MAX gets a `syscall` as its last two bytes, and the child
 * jumps there with RAX = getpid. The call returns to TASK_SIZE_MAX.
 */
static int last_page_child(void *arg)
{
	unsigned long page = TASK_SIZE_MAX - PAGE_SIZE;
	unsigned char *p;

	(void)arg;
	last_page_rax = getpid();
	p = mmap((void *)page, PAGE_SIZE, PROT_READ | PROT_WRITE | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED) {
		printf("sysret: mmap: %s\n", strerror(errno));
		return 1;
	}
	p[PAGE_SIZE - SYSCALL_INSN_LEN] = 0x0f;
	p[PAGE_SIZE - SYSCALL_INSN_LEN + 1] = 0x05;
	printf("sysret: the syscall is at %#lx\n", page + PAGE_SIZE - SYSCALL_INSN_LEN);
	fflush(stdout);
	set_handler(SIGSEGV, on_segv_top, SA_ONSTACK);
	__asm__ volatile("jmp *%1"
			 :
			 : "a"((long)SYS_getpid), "r"(p + PAGE_SIZE - SYSCALL_INSN_LEN));
	return 2;
}

static void test_sysret(void)
{
	char *stack = malloc(CHILD_STACK);
	stack_t ss = {.ss_sp = altstack, .ss_size = ALT_SIZE};

	sigaltstack(&ss, NULL);
	fflush(stdout);
	pid_t pid = clone(last_page_child, stack + CHILD_STACK, SIGCHLD, NULL);
	int status;

	if (pid < 0) {
		perror("clone");
		return;
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		printf("sysret: the child died of signal %d\n", WTERMSIG(status));
	else
		printf("sysret: the child exited with %d\n", WEXITSTATUS(status));
	free(stack);
}

/* The CPU's maker, CPUID leaf 0's name (EBX, EDX, ECX): where Intel's and AMD's differ. */
static void print_vendor(void)
{
	unsigned int a, id[3];
	char name[13] = {0};

	__asm__ volatile("cpuid" : "=a"(a), "=b"(id[0]), "=d"(id[1]), "=c"(id[2]) : "a"(0), "c"(0));
	memcpy(name, id, sizeof(id));
	printf("cpuid vendor: %s\n", name);
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "all";
	int all = !strcmp(what, "all");

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (all || !strcmp(what, "tf"))
		test_tf();
	if (all || !strcmp(what, "nr"))
		test_nr();
	if (all || !strcmp(what, "sigreturn"))
		test_sigreturn();
	if (!strcmp(what, "vendor")) /* not in "all": the CPU's, not the kernel's */
		print_vendor();
	if (!strcmp(what, "uret")) /* not in "all": where its ret faults is the CPU's choice */
		test_uret();
	if (all || !strcmp(what, "sysret"))
		test_sysret();
	return 0;
}
