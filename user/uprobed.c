/*
 * uprobed: a program to put uprobes on (tests/qemu/trace/test_uprobes.py). Its targets each start
 * with an instruction the uprobe code treats its own way:
 *	uprobed_riprel	mov uprobed_value(%rip),%eax: stepped out of line, its operand read
 *			through a scratch register (the slot is far from uprobed_value)
 *	uprobed_call	call (a relative call: emulated, its return address pushed)
 *	uprobed_load	mov (%rdi),%eax: stepped; given NULL it faults in the slot, and the
 *			SIGSEGV must come at the instruction's own address
 *
 * uprobed call N        calls uprobed_riprel and uprobed_call N times each, prints the sums
 * uprobed fork N        the same in a child after fork, then in the parent; prints both pids
 * uprobed wait N FILE   waits (up to 60 s) until FILE exists, then as "call N": a process that
 *                       mapped the program before the probe was made
 * uprobed maps          calls once, then prints its own /proc/self/maps
 * uprobed fault         calls uprobed_load(NULL) with a SIGSEGV handler: prints the fault's
 *                       address and the rip the handler saw, relative to uprobed_load
 * uprobed alarm N       as "call N" with SIGALRM arriving every 100 us meanwhile (a handler that
 *                       counts them): a signal may come while a probe's copy is being stepped
 * uprobed addr          prints the three targets' addresses (their file offsets: minus 0x400000)
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#define WAIT_POLL_US 10000
#define WAIT_MAX_POLLS 6000 /* 60 s */
#define ALARM_US 100

int uprobed_value = 1000;
int uprobed_riprel(int x);
int uprobed_call(int x);
int uprobed_load(const int *p);
int uprobed_helper(int x);

__asm__(".text\n"
	".globl uprobed_riprel\n.type uprobed_riprel,@function\n.p2align 4\n"
	"uprobed_riprel:\n\tmov uprobed_value(%rip),%eax\n\tadd %edi,%eax\n\tret\n"
	".size uprobed_riprel,.-uprobed_riprel\n"
	".globl uprobed_call\n.type uprobed_call,@function\n.p2align 4\n"
	"uprobed_call:\n\tcall uprobed_helper\n\tret\n"
	".size uprobed_call,.-uprobed_call\n"
	".globl uprobed_load\n.type uprobed_load,@function\n.p2align 4\n"
	"uprobed_load:\n\tmov (%rdi),%eax\n\tret\n"
	".size uprobed_load,.-uprobed_load\n");

__attribute__((noinline, used)) int uprobed_helper(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 2;
}

static int (*volatile fp_riprel)(int) = uprobed_riprel;
static int (*volatile fp_call)(int) = uprobed_call;

static void calls(int n)
{
	long sum_riprel = 0, sum_call = 0;

	for (int i = 0; i < n; i++) {
		sum_riprel += fp_riprel(i);
		sum_call += fp_call(i);
	}
	printf("riprel=%ld call=%ld\n", sum_riprel, sum_call);
	fflush(stdout);
}

static volatile long alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static sigjmp_buf fault_jmp;
static volatile unsigned long fault_addr, fault_rip;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	fault_addr = (unsigned long)si->si_addr;
	fault_rip = (unsigned long)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
	siglongjmp(fault_jmp, 1);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "call";
	int n = argc > 2 ? atoi(argv[2]) : 1;

	if (!strcmp(mode, "call")) {
		calls(n);
	} else if (!strcmp(mode, "fork")) {
		pid_t child = fork();

		if (child == 0) {
			calls(n);
			_exit(0);
		}
		waitpid(child, NULL, 0);
		calls(n);
		printf("parent=%d child=%d\n", getpid(), child);
	} else if (!strcmp(mode, "wait") && argc > 3) {
		for (int i = 0; access(argv[3], F_OK) && i < WAIT_MAX_POLLS; i++)
			usleep(WAIT_POLL_US);
		calls(n);
	} else if (!strcmp(mode, "maps")) {
		char line[512];
		FILE *f;

		calls(1);
		f = fopen("/proc/self/maps", "r");
		while (f && fgets(line, sizeof(line), f))
			fputs(line, stdout);
	} else if (!strcmp(mode, "fault")) {
		struct sigaction sa = {.sa_sigaction = on_segv, .sa_flags = SA_SIGINFO};
		static volatile int got;

		sigaction(SIGSEGV, &sa, NULL);
		if (!sigsetjmp(fault_jmp, 1))
			got = uprobed_load(NULL);
		printf("addr=%#lx rip=uprobed_load+%ld value=%d\n", fault_addr,
		       (long)(fault_rip - (unsigned long)uprobed_load), got);
	} else if (!strcmp(mode, "alarm")) {
		struct sigaction sa = {.sa_handler = on_alarm, .sa_flags = SA_RESTART};
		struct itimerval it = {{0, ALARM_US}, {0, ALARM_US}};

		sigaction(SIGALRM, &sa, NULL);
		setitimer(ITIMER_REAL, &it, NULL);
		calls(n);
		setitimer(ITIMER_REAL, &(struct itimerval){{0, 0}, {0, 0}}, NULL);
	} else if (!strcmp(mode, "addr")) {
		printf("uprobed_riprel=%p uprobed_call=%p uprobed_load=%p\n",
		       (void *)uprobed_riprel, (void *)uprobed_call, (void *)uprobed_load);
	} else {
		fprintf(stderr, "usage: uprobed call|fork|wait|maps|fault|alarm|addr [N] [FILE]\n");
		return 2;
	}
	return 0;
}
