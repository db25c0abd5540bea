/* run_test, the workload of the ftrace article (kernel/debug/run_test.c). */
#ifndef KERNEL_RUN_TEST_H
#define KERNEL_RUN_TEST_H

/* Boot: /sys/kernel/debug/run_test, what /bin/run_test runs it through. */
void run_test_init(void);

#endif
