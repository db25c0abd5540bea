/*
 * Host stand-ins for what trace/trace_probe_fetch.c reads at a probe hit (the kernel's are the
 * exception-table copies, the current task's name, kallsyms): tests/unit/test_trace_probe.c
 * defines them over host memory, with low addresses faulting.
 */
#ifndef TESTS_UNIT_HOST_PROBE_FETCH_H
#define TESTS_UNIT_HOST_PROBE_FETCH_H

#include <stddef.h>

int probe_kernel_read(void *dst, unsigned long src, unsigned long n);
int probe_user_read(void *dst, unsigned long src, unsigned long n);
long probe_kernel_strncpy(char *dst, unsigned long src, long max);
long probe_user_strncpy(char *dst, unsigned long src, long max);
const char *probe_current_comm(void);
void probe_sprint_symbol(char *buf, size_t size, unsigned long addr);

#endif
