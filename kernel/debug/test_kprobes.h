/* The kprobes boot self-test (kernel/debug/test_kprobes.c; boot option kprobe_selftest). */
#ifndef KERNEL_DEBUG_TEST_KPROBES_H
#define KERNEL_DEBUG_TEST_KPROBES_H

#include <stdbool.h>

/* Runs every case; prints "Kprobe smoke test: passed successfully" or what failed. */
void kprobes_selftest(void);
/*
 * /sys/kernel/debug/kprobe_stress: every function probed in turn
 * (tests/qemu/trace/test_kprobes_core.py).
 */
void kprobe_stress_init(void);
/* make bench's kprobe lines: an empty handler's cost on getpid (kernel/debug/bench.c). */
struct seq_file;
void bench_kprobes(struct seq_file *m);

#endif
