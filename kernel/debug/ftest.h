/*
 * Functions that exist to be traced (kernel/debug/ftest.c); the tracer's self-tests call them too.
 */
#ifndef KERNEL_FTEST_H
#define KERNEL_FTEST_H
unsigned long ftest_leaf(unsigned long x);
unsigned long ftest_mid(unsigned long x);
unsigned long ftest_outer(unsigned long x);
void ftest_delay(unsigned long us);
unsigned long ftest_stack(void);
unsigned long ftest_stack_deep(int depth);
unsigned long ftest_deep(unsigned long n);
void ftest_printk(void);
void ftest_off(void);
void ftest_tick(void); /* from the timer interrupt: `ftest tick N` */
void ftest_init(void); /* boot: /sys/kernel/debug/ftest, what /bin/ftest runs them through */
#endif
