/*
 * pidbench [N]: the cost of one getpid, in TSC ticks, as the median of N (default 5000) raw
 * `syscall` instructions, each between two serialized TSC reads, less the cost of an empty
 * pair: the method of lbench's getpid_raw (../shared/bench/lbench.c), so that its figure sits
 * beside Linux 6.1's from that program. Under QEMU's -icount shift=0 a tick is an
 * instruction. make bench (tools/bench.py) runs it with a probe or a filter set up, to see
 * what each costs a system call. Prints `pidbench: med=M min=L max=H n=N`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>

#define MAX_SAMPLES 20000
#define WARMUP 100

static uint64_t samples[MAX_SAMPLES];

static inline __attribute__((always_inline)) uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/* getpid without libc: the same instructions around the call as lbench's. */
static inline __attribute__((always_inline)) long raw_getpid(void)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"((long)SYS_getpid) : "rcx", "r11", "memory");
	return ret;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(int n)
{
	qsort(samples, (size_t)n, sizeof(samples[0]), cmp_u64);
	return samples[n / 2];
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5000;
	uint64_t empty;

	if (n < 1 || n > MAX_SAMPLES) {
		fprintf(stderr, "usage: pidbench [N], 1 <= N <= %d\n", MAX_SAMPLES);
		return 2;
	}
	for (int i = -WARMUP; i < n; i++) { /* what an empty pair of reads costs */
		uint64_t t0 = rdtsc(), t1 = rdtsc();

		if (i >= 0)
			samples[i] = t1 - t0;
	}
	empty = median(n);
	for (int i = -WARMUP; i < n; i++) {
		uint64_t t0 = rdtsc();

		if (raw_getpid() <= 0)
			return 1;
		uint64_t t1 = rdtsc();

		if (i >= 0)
			samples[i] = t1 - t0 - empty;
	}
	uint64_t med = median(n);

	printf("pidbench: med=%llu min=%llu max=%llu n=%d\n", (unsigned long long)med,
	       (unsigned long long)samples[0], (unsigned long long)samples[n - 1], n);
	return 0;
}
