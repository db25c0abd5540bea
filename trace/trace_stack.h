/*
 * The stack tracer: the deepest kernel stack seen, and the calls that made it
 * (trace/trace_stack.c).
 */
#ifndef TRACE_TRACE_STACK_H
#define TRACE_TRACE_STACK_H

#include <stdbool.h>
#include <stddef.h>

#define STACK_TRACE_ENTRIES 64

struct stack_trace_entry {
	unsigned long ip;    /* a return address in the function (or the function, for entry 0) */
	unsigned long depth; /* bytes of stack in use from the top down to this frame */
};

/* /proc/sys/kernel/stack_tracer_enabled, `stacktrace` boot option */
int stack_tracer_enable(bool on);
bool stack_tracer_enabled(void);
unsigned long stack_tracer_max_size(void);
void stack_tracer_reset_max(void); /* writing 0 to stack_max_size */
void stack_tracer_init_files(void); /* tracefs and /proc files; the `stacktrace` boot option */
/* Copies the recorded trace; returns the number of entries. */
int stack_tracer_snapshot(struct stack_trace_entry *out, int max);
/* Formats stack_trace as Linux does (header, rows, or the "disabled" help). */
size_t stack_trace_format(char *buf, size_t size);
struct ftrace_ops;
extern struct ftrace_ops stack_trace_ops; /* its filter is stack_trace_filter */

#endif
