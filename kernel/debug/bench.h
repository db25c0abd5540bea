/* Built-in micro-benchmarks (kernel/debug/bench.c). */
#ifndef KERNEL_BENCH_H
#define KERNEL_BENCH_H

/* Boot: /sys/kernel/debug/bench, whose read runs them. */
void bench_init(void);

#endif
