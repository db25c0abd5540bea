/*
 * insns PROGRAM [ARG...]: runs the program and prints how many instructions it took, as
 * `insns: N`, from the TSC read before the fork and after the wait. Under QEMU's -icount
 * shift=0 the guest TSC advances exactly one per executed instruction (while some CPU runs),
 * so the difference is an instruction count: the fork, the exec and everything the program
 * and its children did (make bench's busybox loops, tools/bench.py). Elsewhere it counts
 * TSC cycles. The program's status is insns's.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	/*
	 * Serialized, as lbench reads it: no instruction of before or after counted on the wrong
	 * side.
	 */
	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

int main(int argc, char **argv)
{
	int status;
	uint64_t start, end;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: insns PROGRAM [ARG...]\n");
		return 2;
	}
	start = rdtsc();
	pid = fork();
	if (pid < 0) {
		perror("insns: fork");
		return 1;
	}
	if (pid == 0) {
		execv(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("insns: wait");
		return 1;
	}
	end = rdtsc();
	printf("insns: %llu\n", (unsigned long long)(end - start));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
